// The legacy launch path (cuFuncSetBlockShape, cuParamSet*, cuLaunch, cuLaunchGrid(Async)), which
// PyCUDA still uses, and the function queries beside it: the probe's kernel and sequence
// (docs/probes/surface/add.cu, family_probe.c) and the answers NVIDIA's driver gave.
#include "framework/testing.h"

#include <cstring>
#include <vector>

using namespace extmem_test;

namespace {

// docs/probes/surface/add.cu, as nvcc writes it for sm_75:
// extern "C" __global__ void add(int *p, int v, float f)
// { p[blockIdx.x * blockDim.x + threadIdx.x] += v + (int)f + blockIdx.x * 1000; }
const char *kPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry add(.param .u64 p, .param .u32 v, .param .f32 f)
{
    .reg .b32 %r<12>;
    .reg .f32 %f<2>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [v];
    ld.param.f32 %f1, [f];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    cvt.rzi.s32.f32 %r6, %f1;
    add.s32 %r7, %r6, %r1;
    mad.lo.s32 %r8, %r2, 1000, %r7;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r9, [%rd4];
    add.s32 %r10, %r9, %r8;
    st.global.u32 [%rd4], %r10;
    ret;
}
)";

class LegacyLaunch : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuModuleLoadData(&mod, kPtx));
        ASSERT_OK(cuModuleGetFunction(&fn, mod, "add"));
        ASSERT_OK(cuMemAlloc(&out, 256 * sizeof(int)));
        ASSERT_OK(cuMemsetD32(out, 0, 256));
    }
    void TearDown() override
    {
        cuMemFree(out);
        cuModuleUnload(mod);
        ContextTest::TearDown();
    }
    // The probe's parameters: out, 5, 1.5f in a 16-byte buffer, blocks of 64.
    void set_probe_params()
    {
        ASSERT_OK(cuFuncSetBlockShape(fn, 64, 1, 1));
        ASSERT_OK(cuFuncSetSharedSize(fn, 0));
        ASSERT_OK(cuParamSetSize(fn, 16));
        ASSERT_OK(cuParamSetv(fn, 0, &out, 8));
        ASSERT_OK(cuParamSeti(fn, 8, 5));
        ASSERT_OK(cuParamSetf(fn, 12, 1.5f));
    }
    std::vector<int> read_out()
    {
        std::vector<int> host(256);
        EXPECT_OK(cuMemcpyDtoH(host.data(), out, host.size() * sizeof(int)));
        return host;
    }
    CUmodule mod = nullptr;
    CUfunction fn = nullptr;
    CUdeviceptr out = 0;
};

} // namespace

TEST_F(LegacyLaunch, ProbeSequence_GivesTheDriversResults)
{
    set_probe_params();
    EXPECT_OK(cuLaunch(fn));                       // grid 1x1
    EXPECT_OK(cuLaunchGrid(fn, 2, 1));             // block 1 adds 1000
    EXPECT_OK(cuLaunchGridAsync(fn, 1, 1, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    std::vector<int> h = read_out();
    // NVIDIA's H100: out[0]=18 out[63]=18 out[64]=1006 out[127]=1006 out[128]=0.
    EXPECT_EQ(18, h[0]);
    EXPECT_EQ(18, h[63]);
    EXPECT_EQ(1006, h[64]);
    EXPECT_EQ(1006, h[127]);
    EXPECT_EQ(0, h[128]);
}

TEST_F(LegacyLaunch, AsyncOnAStream_UsesTheParametersOfItsCall)
{
    set_probe_params();
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    EXPECT_OK(cuLaunchGridAsync(fn, 1, 1, s));
    EXPECT_OK(cuParamSeti(fn, 8, 100)); // later calls do not reach the queued launch
    EXPECT_OK(cuLaunchGridAsync(fn, 1, 1, s));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(6 + 101, read_out()[10]);
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(LegacyLaunch, BlockShape_OutOfRange_IsInvalidValue)
{
    EXPECT_OK(cuFuncSetBlockShape(fn, 64, 1, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(fn, 2048, 1, 1)); // the probe's case
    EXPECT_DETAIL_HAS("2048x1x1");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(fn, 0, 1, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(fn, 32, -1, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(fn, 1, 1, 65));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(fn, 32, 32, 2)); // 2048 threads
}

TEST_F(LegacyLaunch, ParamSet_WithinTheBufferAndPastTheSetSize_Succeeds)
{
    EXPECT_OK(cuParamSetSize(fn, 16));
    EXPECT_OK(cuParamSeti(fn, 200, 5)); // beyond the size, within 4096 bytes: the driver takes it
    EXPECT_OK(cuParamSetv(fn, 16, &out, 8));
    EXPECT_OK(cuParamSetv(fn, 4088, &out, 8));
    EXPECT_OK(cuParamSetSize(fn, 5000)); // taken too; the launch judges it
}

TEST_F(LegacyLaunch, ParamSet_BadArguments_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetv(fn, 0, nullptr, 8)); // the probe's case
    EXPECT_DETAIL_HAS("ptr is NULL");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSeti(fn, 4093, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetf(fn, -4, 1.0f));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetv(fn, 4090, &out, 8));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetv(fn, 8, &out, 0xffffffffu));
}

TEST_F(LegacyLaunch, ParamSizeLargerThanTheKernels_IsLaunchOutOfResources)
{
    set_probe_params();
    ASSERT_OK(cuParamSetSize(fn, 20)); // the probe's case
    EXPECT_CU(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, cuLaunch(fn));
    EXPECT_DETAIL_HAS("20 bytes");
    ASSERT_OK(cuParamSetSize(fn, 5000));
    EXPECT_CU(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, cuLaunchGrid(fn, 1, 1));
    EXPECT_EQ(0, read_out()[0]);
}

TEST_F(LegacyLaunch, ParamSizeSmallerThanTheKernels_IsRefusedAndTheContextStaysHealthy)
{
    set_probe_params();
    ASSERT_OK(cuParamSetSize(fn, 4));
    // NVIDIA's driver launches, the kernel reads past the 4 bytes and faults (ILLEGAL_ADDRESS,
    // sticky); extmem refuses the launch instead.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunch(fn));
    EXPECT_DETAIL_HAS("read past");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGridAsync(fn, 1, 1, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    ASSERT_OK(cuParamSetSize(fn, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunch(fn));
    ASSERT_OK(cuParamSetSize(fn, 16));
    EXPECT_OK(cuLaunch(fn));
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_EQ(6, read_out()[0]);
}

TEST_F(LegacyLaunch, NoBlockShape_IsInvalidValue)
{
    ASSERT_OK(cuParamSetSize(fn, 16));
    ASSERT_OK(cuParamSetv(fn, 0, &out, 8));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunch(fn));
    EXPECT_DETAIL_HAS("cuFuncSetBlockShape");
}

TEST_F(LegacyLaunch, GridNotPositive_IsInvalidValue)
{
    set_probe_params();
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(fn, 0, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(fn, 1, -3));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGridAsync(fn, -1, 1, nullptr));
    EXPECT_EQ(0, read_out()[0]);
}

TEST_F(LegacyLaunch, SharedSizeAboveTheLimit_IsInvalidValueAtTheLaunch)
{
    set_probe_params();
    EXPECT_OK(cuFuncSetSharedSize(fn, 200 * 1024));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunch(fn));
    EXPECT_OK(cuFuncSetSharedSize(fn, 1024));
    EXPECT_OK(cuLaunch(fn));
    EXPECT_OK(cuCtxSynchronize());
}

TEST_F(LegacyLaunch, NullForgedOrUnloadedFunction_IsInvalidHandle)
{
    CUfunction forged = reinterpret_cast<CUfunction>(static_cast<uintptr_t>(0xdead0000));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncSetBlockShape(nullptr, 1, 1, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunch(nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSetSize(forged, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSeti(nullptr, 0, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncSetSharedSize(forged, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchGrid(forged, 1, 1));
    CUmodule m2;
    CUfunction f2;
    ASSERT_OK(cuModuleLoadData(&m2, kPtx));
    ASSERT_OK(cuModuleGetFunction(&f2, m2, "add"));
    ASSERT_OK(cuFuncSetBlockShape(f2, 1, 1, 1));
    ASSERT_OK(cuModuleUnload(m2));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSetSize(f2, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunch(f2));
}

TEST_F(LegacyLaunch, ParamSetTexRef_IsNotSupportedNamingTextureReferences)
{
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuParamSetTexRef(fn, CU_PARAM_TR_DEFAULT, nullptr));
    EXPECT_DETAIL_HAS("texture references");
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSetTexRef(nullptr, CU_PARAM_TR_DEFAULT, nullptr));
}

TEST_F(LegacyLaunch, FuncGetNameAndParamInfo_AnswerAsTheDriver)
{
    const char *name = nullptr;
    ASSERT_OK(cuFuncGetName(&name, fn));
    EXPECT_STREQ("add", name);
    const size_t offsets[3] = {0, 8, 12}, sizes[3] = {8, 4, 4};
    for (size_t i = 0; i < 3; ++i) {
        size_t off = 99, sz = 99;
        EXPECT_OK(cuFuncGetParamInfo(fn, i, &off, &sz));
        EXPECT_EQ(offsets[i], off) << "param " << i;
        EXPECT_EQ(sizes[i], sz) << "param " << i;
    }
    size_t off = 99, sz = 99;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncGetParamInfo(fn, 3, &off, &sz));
    EXPECT_EQ(99u, off); // untouched, as the driver leaves them
    EXPECT_EQ(99u, sz);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncGetName(nullptr, fn));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetName(&name, nullptr));
}

TEST_F(LegacyLaunch, FuncSetSharedMemConfig_AcceptsTheEnumOnly)
{
    EXPECT_OK(cuFuncSetSharedMemConfig(fn, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
    EXPECT_OK(cuFuncSetSharedMemConfig(fn, CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetSharedMemConfig(fn, (CUsharedconfig)9));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncSetSharedMemConfig(nullptr, CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE));
}
