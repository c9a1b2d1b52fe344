// cuLaunchKernel and cuLaunchKernelEx (BEHAVIOR.md "Modules and kernels"; docs/kernels.md):
// parameters, launch checks, streams, sticky faults, occupancy.
#include "framework/testing.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace extmem_test;

using Launch = ContextTest;

namespace {

const char *kPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry add_value(.param .u64 out, .param .u32 value, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [value];
    ld.param.u32 %r2, [n];
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %ctaid.x;
    mov.u32 %r5, %ntid.x;
    mad.lo.s32 %r6, %r4, %r5, %r3;
    setp.ge.s32 %p1, %r6, %r2;
    @%p1 bra DONE;
    mul.wide.s32 %rd2, %r6, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r7, [%rd3];
    add.s32 %r7, %r7, %r1;
    st.global.u32 [%rd3], %r7;
DONE:
    ret;
}
.visible .entry bounded() .maxntid 128, 1, 1
{
    ret;
}
.visible .entry exact() .reqntid 64, 1, 1
{
    ret;
}
.visible .entry store_to_8()
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    mov.u64 %rd1, 8;
    mov.u32 %r1, 1;
    st.global.u32 [%rd1], %r1;
    ret;
}
.visible .entry traps()
{
    trap;
    ret;
}
)";

struct Fixture {
    CUmodule m = nullptr;
    CUfunction add = nullptr, bounded = nullptr, exact = nullptr;
    CUdeviceptr d = 0;
};

void setup(Fixture &f)
{
    ASSERT_OK(cuModuleLoadData(&f.m, kPtx));
    ASSERT_OK(cuModuleGetFunction(&f.add, f.m, "add_value"));
    ASSERT_OK(cuModuleGetFunction(&f.bounded, f.m, "bounded"));
    ASSERT_OK(cuModuleGetFunction(&f.exact, f.m, "exact"));
    ASSERT_OK(cuMemAlloc(&f.d, 256 * 4));
    ASSERT_OK(cuMemsetD32(f.d, 0, 256));
}

void teardown(Fixture &f)
{
    EXPECT_OK(cuMemFree(f.d));
    EXPECT_OK(cuModuleUnload(f.m));
}

std::vector<int> download(CUdeviceptr d, size_t n)
{
    std::vector<int> v(n);
    EXPECT_OK(cuMemcpyDtoH(v.data(), d, n * 4));
    return v;
}

} // namespace

TEST_F(Launch, KernelParams_AreCopiedAtEachParametersOffset)
{
    Fixture f;
    setup(f);
    int value = 3, n = 100;
    void *params[] = {&f.d, &value, &n};
    ASSERT_OK(cuLaunchKernel(f.add, 4, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    std::vector<int> out = download(f.d, 128);
    EXPECT_EQ(3, out[0]);
    EXPECT_EQ(3, out[99]);
    EXPECT_EQ(0, out[100]); // n bounds the threads
    teardown(f);
}

TEST_F(Launch, ExtraBuffer_IsTheParametersLaidOut)
{
    Fixture f;
    setup(f);
    struct {
        CUdeviceptr out;
        int value, n;
    } args = {f.d, 9, 64};
    size_t size = sizeof(args);
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    ASSERT_OK(cuLaunchKernel(f.add, 2, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra));
    std::vector<int> out = download(f.d, 64);
    EXPECT_EQ(9, out[0]);
    EXPECT_EQ(9, out[63]);
    size_t wrong = 8;
    void *short_extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &wrong,
                           CU_LAUNCH_PARAM_END};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, short_extra));
    void *no_size[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_END};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, no_size));
    teardown(f);
}

TEST_F(Launch, BothOrNeitherParameterForms_AreInvalidValue)
{
    Fixture f;
    setup(f);
    int value = 1, n = 1;
    void *params[] = {&f.d, &value, &n};
    size_t size = 16;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 1, 1, 1, 32, 1, 1, 0, nullptr, params, extra));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr));
    // A kernel without parameters needs neither.
    EXPECT_OK(cuLaunchKernel(f.bounded, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr));
    teardown(f);
}

TEST_F(Launch, ShapesOutsideTheDevicesLimits_AreInvalidValue)
{
    Fixture f;
    setup(f);
    int value = 1, n = 1;
    void *params[] = {&f.d, &value, &n};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 1, 1, 1, 2048, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 0, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 1, 1, 1, 1, 1, 65, 0, nullptr, params, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 1, 65536, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.add, 1, 1, 1, 32, 32, 2, 0, nullptr, params, nullptr));
    EXPECT_OK(cuLaunchKernel(f.add, 1, 1, 1, 1024, 1, 1, 0, nullptr, params, nullptr));
    teardown(f);
}

TEST_F(Launch, LaunchBoundsAndRequiredBlockSizes_AreEnforced)
{
    Fixture f;
    setup(f);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.bounded, 1, 1, 1, 256, 1, 1, 0, nullptr, nullptr, nullptr));
    EXPECT_OK(cuLaunchKernel(f.bounded, 1, 1, 1, 128, 1, 1, 0, nullptr, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.exact, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr));
    EXPECT_OK(cuLaunchKernel(f.exact, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, nullptr));
    teardown(f);
}

TEST_F(Launch, DynamicSharedMemoryAbove48KiB_NeedsTheOptIn)
{
    Fixture f;
    setup(f);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.bounded, 1, 1, 1, 32, 1, 1, 200 * 1024, nullptr, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.bounded, 1, 1, 1, 32, 1, 1, 64 * 1024, nullptr, nullptr, nullptr));
    EXPECT_DETAIL_HAS("MAX_DYNAMIC_SHARED_SIZE_BYTES");
    ASSERT_OK(cuFuncSetAttribute(f.bounded, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024));
    EXPECT_OK(cuLaunchKernel(f.bounded, 1, 1, 1, 32, 1, 1, 64 * 1024, nullptr, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f.bounded, 1, 1, 1, 32, 1, 1, 65 * 1024, nullptr, nullptr, nullptr));
    teardown(f);
}

TEST_F(Launch, LaunchesOnStreams_RunInStreamOrder)
{
    Fixture f;
    setup(f);
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    int n = 256;
    for (int i = 1; i <= 10; ++i) {
        int value = i;
        void *params[] = {&f.d, &value, &n};
        ASSERT_OK(cuLaunchKernel(f.add, 8, 1, 1, 32, 1, 1, 0, s, params, nullptr));
    }
    int value = 1000;
    void *params[] = {&f.d, &value, &n};
    ASSERT_OK(cuLaunchKernel(f.add, 8, 1, 1, 32, 1, 1, 0, CU_STREAM_PER_THREAD, params, nullptr));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    std::vector<int> out = download(f.d, 256);
    EXPECT_EQ(1055, out[0]);
    EXPECT_EQ(1055, out[255]);
    EXPECT_OK(cuStreamDestroy(s));
    teardown(f);
}

TEST_F(Launch, LaunchKernelEx_AcceptsHintsAndRefusesClusters)
{
    Fixture f;
    setup(f);
    CUlaunchAttribute attrs[2];
    memset(attrs, 0, sizeof(attrs));
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    attrs[0].value.priority = 0;
    attrs[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[1].value.clusterDim.x = attrs[1].value.clusterDim.y = attrs[1].value.clusterDim.z = 1;
    CUlaunchConfig c;
    memset(&c, 0, sizeof(c));
    c.gridDimX = 2;
    c.gridDimY = c.gridDimZ = 1;
    c.blockDimX = 32;
    c.blockDimY = c.blockDimZ = 1;
    c.attrs = attrs;
    c.numAttrs = 2;
    int value = 4, n = 64;
    void *params[] = {&f.d, &value, &n};
    ASSERT_OK(cuLaunchKernelEx(&c, f.add, params, nullptr));
    EXPECT_EQ(4, download(f.d, 64)[63]);
    attrs[1].value.clusterDim.x = 2;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuLaunchKernelEx(&c, f.add, params, nullptr));
    EXPECT_DETAIL_HAS("cluster");
    attrs[1].id = (CUlaunchAttributeID)99;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(&c, f.add, params, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(nullptr, f.add, params, nullptr));
    teardown(f);
}

TEST_F(Launch, Occupancy_ModelsAnSm80Multiprocessor)
{
    Fixture f;
    setup(f);
    int blocks = 0;
    ASSERT_OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f.add, 256, 0));
    EXPECT_GE(blocks, 1);
    EXPECT_LE(blocks, 8); // 2048 threads per multiprocessor
    ASSERT_OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f.bounded, 256, 0));
    EXPECT_EQ(0, blocks); // more threads than its bound
    int grid = 0, block = 0;
    static int calls;
    calls = 0;
    ASSERT_OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f.add, [](int size) -> size_t {
        calls++;
        return (size_t)size * 4;
    }, 0, 0));
    EXPECT_GT(calls, 0);
    EXPECT_GT(block, 0);
    EXPECT_EQ(0, block % 32);
    EXPECT_GT(grid, 0);
    ASSERT_OK(cuOccupancyMaxPotentialBlockSize(&grid, &block, f.bounded, nullptr, 0, 0));
    EXPECT_EQ(128, block);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, f.add, 32, 0, 8));
    // Dynamic shared memory past the kernel's limit (48 KiB without opting in): no block fits,
    // as the GPU answers; once the kernel opts in to more, blocks fit again.
    ASSERT_OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f.add, 256, 48 * 1024));
    EXPECT_GE(blocks, 1);
    ASSERT_OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f.add, 256, 64 * 1024));
    EXPECT_EQ(0, blocks);
    ASSERT_OK(cuFuncSetAttribute(f.add, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024));
    ASSERT_OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f.add, 256, 64 * 1024));
    EXPECT_GE(blocks, 1);
    teardown(f);
}

// A fault is sticky for the context, as on the GPU: the launch succeeds, the next wait and
// every later call return it. (Each test runs in a process of its own.)
TEST_F(Launch, StoreToAnUnmappedAddress_IsAStickyIllegalAddress)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "store_to_8"));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuStreamSynchronize(s));
    EXPECT_DETAIL_HAS("store_to_8");
    CUdeviceptr d;
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuMemAlloc(&d, 16));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuModuleUnload(m));
    // The fixture destroys the context, which ends the sticky state with everything in it.
}

TEST_F(Launch, Trap_IsAStickyLaunchFailure)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "traps"));
    ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuStreamSynchronize(nullptr));
}

// Resetting the primary context ends its sticky error, as on the driver.
TEST(LaunchPrimary, ResettingThePrimaryContext_ClearsTheStickyError)
{
    ASSERT_OK(cuInit(0));
    CUcontext ctx;
    ASSERT_OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    ASSERT_OK(cuCtxSetCurrent(ctx));
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "traps"));
    ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
    ASSERT_OK(cuDevicePrimaryCtxReset(0));
    ASSERT_OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    ASSERT_OK(cuCtxSetCurrent(ctx));
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(m)); // unloaded by the reset
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
    EXPECT_OK(cuDevicePrimaryCtxRelease(0));
}
