// The runtime's kernel side (issue 14): the registration ABI compilers' start-up code calls
// (driven here by hand, with a wrapper holding PTX text as extmem's CMake helper embeds it),
// the three launch ABIs, device variables, kernel attributes, and the runtime calls that came
// with them (managed memory, stream-ordered allocation, callbacks, limits, peers, flags).
// tests/cuda holds the same ground as real CUDA programs compiled by clang and nvcc.
#include "framework/testing.h"

#include "extmem/cuda_profiler_api.h"
#include "extmem/cuda_runtime_api.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

namespace {

::testing::AssertionResult rt_equal(const char *, const char *call_text, cudaError_t expected, cudaError_t actual)
{
    if (expected == actual)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << call_text << " returned " << cudaGetErrorName(actual) << " ("
                                         << (int)actual << "), expected " << cudaGetErrorName(expected)
                                         << "; detail: " << extmem_error_detail();
}
#define EXPECT_RT(expected, call) EXPECT_PRED_FORMAT2(rt_equal, expected, call)
#define ASSERT_RT(expected, call) ASSERT_PRED_FORMAT2(rt_equal, expected, call)
#define EXPECT_RT_OK(call) EXPECT_RT(cudaSuccess, call)
#define ASSERT_RT_OK(call) ASSERT_RT(cudaSuccess, call)

// add_one(p, n): p[i] += 1 + counter for i < n; counter and scale are device variables.
const char kPtx[] = R"(
.version 7.0
.target sm_80
.address_size 64

.global .align 4 .u32 counter = 5;
.global .align 4 .u32 managed_value;
.const .align 4 .b8 scale[16];

.visible .entry add_one(.param .u64 p, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.s32 %rd3, %r5, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r6, [%rd4];
    ld.global.u32 %r7, [counter];
    add.s32 %r8, %r6, %r7;
    add.s32 %r9, %r8, 1;
    st.global.u32 [%rd4], %r9;
DONE:
    ret;
}
)";

// The wrapper compilers emit in .nvFatBinSegment: {magic, version, data, unused}.
struct Wrapper {
    int magic;
    int version;
    const void *data;
    const void *unused;
};

// Host "stubs" and shadows: only their addresses matter to the runtime.
char stub_add_one;
int shadow_counter;
unsigned int shadow_scale[4];
unsigned int *managed_pointer;

struct Registered {
    Wrapper wrapper{0x466243b1, 1, kPtx, nullptr};
    void **handle = nullptr;

    void add(bool with_variables = true)
    {
        handle = __cudaRegisterFatBinary(&wrapper);
        ASSERT_NE(handle, nullptr);
        __cudaRegisterFunction(handle, &stub_add_one, const_cast<char *>("add_one"), "add_one", -1, nullptr, nullptr,
                               nullptr, nullptr, nullptr);
        if (with_variables) {
            __cudaRegisterVar(handle, reinterpret_cast<char *>(&shadow_counter), const_cast<char *>("counter"),
                              "counter", 0, sizeof(int), 0, 0);
            __cudaRegisterVar(handle, reinterpret_cast<char *>(shadow_scale), const_cast<char *>("scale"), "scale", 0,
                              sizeof shadow_scale, 1, 0);
            __cudaRegisterManagedVar(handle, reinterpret_cast<void **>(&managed_pointer),
                                     const_cast<char *>("managed_value"), "managed_value", 0, sizeof(unsigned int), 0,
                                     0);
        }
        __cudaRegisterFatBinaryEnd(handle);
    }
    ~Registered()
    {
        if (handle)
            __cudaUnregisterFatBinary(handle);
    }
};

struct Buffer {
    int *device = nullptr;
    int n;
    explicit Buffer(int count) : n(count)
    {
        EXPECT_RT_OK(cudaMalloc(reinterpret_cast<void **>(&device), n * sizeof(int)));
        EXPECT_RT_OK(cudaMemset(device, 0, n * sizeof(int)));
    }
    ~Buffer() { cudaFree(device); }
    int at(int i) const
    {
        int v = -1;
        EXPECT_RT_OK(cudaMemcpy(&v, device + i, sizeof v, cudaMemcpyDeviceToHost));
        return v;
    }
};

const void *stub() { return &stub_add_one; }

} // namespace

// ---- Registration and the launch ABIs ----

TEST(RuntimeKernel, CudaLaunchKernel_RegisteredStub_LoadsThePtxAndRuns)
{
    Registered reg;
    reg.add();
    Buffer b(100);
    int n = 100;
    void *args[] = {&b.device, &n};
    ASSERT_RT_OK(cudaLaunchKernel(stub(), dim3(4), dim3(32), args, 0, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(b.at(0), 6); // 0 + counter (5) + 1
    EXPECT_EQ(b.at(99), 6);
}

TEST(RuntimeKernel, CudaLaunchKernel_UnregisteredAddress_IsInvalidResourceHandleNamingIt)
{
    int not_a_stub = 0;
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaLaunchKernel(&not_a_stub, dim3(1), dim3(1), nullptr, 0, nullptr));
    EXPECT_NE(std::string(extmem_error_detail()).find("is not a kernel"), std::string::npos) << extmem_error_detail();
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    EXPECT_RT(cudaErrorInvalidDeviceFunction, cudaLaunchKernel(nullptr, dim3(1), dim3(1), nullptr, 0, nullptr));
}

TEST(RuntimeKernel, CudaLaunchKernel_ZeroDimension_IsInvalidValue)
{
    Registered reg;
    reg.add();
    Buffer b(1);
    int n = 1;
    void *args[] = {&b.device, &n};
    EXPECT_RT(cudaErrorInvalidValue, cudaLaunchKernel(stub(), dim3(1), dim3(0), args, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaLaunchKernel(stub(), dim3(1, 0), dim3(1), args, 0, nullptr));
}

TEST(RuntimeKernel, PushThenPop_ReturnsTheConfigurationOnce)
{
    cudaStream_t s = reinterpret_cast<cudaStream_t>(uintptr_t(0x1234));
    ASSERT_EQ(__cudaPushCallConfiguration(dim3(2, 3, 4), dim3(5, 6, 7), 99, s), 0u);
    dim3 g, bl;
    size_t shared = 0;
    cudaStream_t got = nullptr;
    ASSERT_RT_OK(__cudaPopCallConfiguration(&g, &bl, &shared, &got));
    EXPECT_EQ(g.x * 100 + g.y * 10 + g.z, 234u);
    EXPECT_EQ(bl.x * 100 + bl.y * 10 + bl.z, 567u);
    EXPECT_EQ(shared, 99u);
    EXPECT_EQ(got, s);
    EXPECT_RT(cudaErrorMissingConfiguration, __cudaPopCallConfiguration(&g, &bl, &shared, &got));
}

TEST(RuntimeKernel, GetKernelThenLaunchKernel_RunsAsNvccStubsDo)
{
    Registered reg;
    reg.add();
    cudaKernel_t k = nullptr;
    ASSERT_RT_OK(__cudaGetKernel(&k, stub()));
    Buffer b(10);
    int n = 10;
    void *args[] = {&b.device, &n};
    ASSERT_RT_OK(__cudaLaunchKernel(k, dim3(1), dim3(32), args, 0, nullptr));
    ASSERT_RT_OK(__cudaLaunchKernel_ptsz(k, dim3(1), dim3(32), args, 0, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(b.at(9), 12);
    EXPECT_RT(cudaErrorInvalidResourceHandle, __cudaGetKernel(&k, &n));
}

TEST(RuntimeKernel, LegacyConfigureSetupLaunch_RunsAsClangWithoutToolkitEmits)
{
    Registered reg;
    reg.add();
    Buffer b(8);
    int n = 8;
    ASSERT_RT_OK(cudaConfigureCall(dim3(1), dim3(8), 0, nullptr));
    ASSERT_RT_OK(cudaSetupArgument(&b.device, sizeof b.device, 0));
    ASSERT_RT_OK(cudaSetupArgument(&n, sizeof n, 8));
    ASSERT_RT_OK(cudaLaunch(stub()));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(b.at(7), 6);
    EXPECT_RT(cudaErrorMissingConfiguration, cudaLaunch(stub()));
    EXPECT_RT(cudaErrorInvalidValue, cudaSetupArgument(&n, 8, 4096));
}

// The cooperative attribute makes it cudaLaunchCooperativeKernel's launch (issue 25): a grid past
// what the device holds at once is cudaErrorCooperativeLaunchTooLarge; clusters are not run.
TEST(RuntimeKernel, LaunchKernelExC_CooperativeIsLimitedByOccupancy_ClustersAreNotSupported)
{
    Registered reg;
    reg.add();
    Buffer b(1);
    int n = 1;
    void *args[] = {&b.device, &n};
    cudaLaunchAttribute attr;
    std::memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(1);
    config.blockDim = dim3(1);
    config.attrs = &attr;
    config.numAttrs = 1;
    EXPECT_RT_OK(cudaLaunchKernelExC(&config, stub(), args));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_RT_OK(cudaLaunchCooperativeKernel(stub(), dim3(1), dim3(1), args, 0, nullptr));
    EXPECT_RT_OK(cudaLaunchCooperativeKernel_ptsz(stub(), dim3(1), dim3(1), args, 0, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    config.gridDim = dim3(1u << 30);
    EXPECT_RT(cudaErrorCooperativeLaunchTooLarge, cudaLaunchKernelExC(&config, stub(), args));
    EXPECT_RT(cudaErrorCooperativeLaunchTooLarge,
              cudaLaunchCooperativeKernel(stub(), dim3(1u << 30), dim3(1), args, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidDeviceFunction, cudaLaunchCooperativeKernel(nullptr, dim3(1), dim3(1), args, 0, nullptr));
    config.gridDim = dim3(1);
    cudaLaunchAttribute two[2];
    std::memset(two, 0, sizeof two);
    two[0] = attr;
    two[1].id = cudaLaunchAttributeClusterDimension;
    two[1].val.clusterDim.x = 2;
    two[1].val.clusterDim.y = two[1].val.clusterDim.z = 1;
    config.attrs = two;
    config.numAttrs = 2;
    EXPECT_RT(cudaErrorNotSupported, cudaLaunchKernelExC(&config, stub(), args));
    config.attrs = &attr;
    config.numAttrs = 1;
    attr.val.cooperative = 0;
    EXPECT_RT_OK(cudaLaunchKernelExC(&config, stub(), args));
    config.numAttrs = 0;
    config.attrs = nullptr;
    EXPECT_RT_OK(cudaLaunchKernelExC_ptsz(&config, stub(), args));
    EXPECT_RT(cudaErrorInvalidValue, cudaLaunchKernelExC(nullptr, stub(), args));
}

TEST(RuntimeKernel, BadWrapperMagic_Launch_IsInvalidKernelImageSayingWhy)
{
    Registered reg;
    reg.wrapper.magic = 0x12345678;
    reg.add(false);
    EXPECT_RT(cudaErrorInvalidKernelImage, cudaLaunchKernel(stub(), dim3(1), dim3(1), nullptr, 0, nullptr));
    EXPECT_NE(std::string(extmem_error_detail()).find("magic"), std::string::npos) << extmem_error_detail();
}

// Relocatable device code (issue 25, link part; docs/kernels.md "Relocatable device code").
TEST(RuntimeKernel, RelocatableUnitWrapper_JoinsTheProcesssLinkOfUnits_AndRuns)
{
    // What ExtmemCuda.cmake's per-unit stub registers for clang -fgpu-rdc: version 2, no list.
    Registered reg;
    reg.wrapper.version = 2;
    reg.add(false);
    Buffer buf(4);
    int *p = buf.device, n = 4;
    void *args[] = {&p, &n};
    EXPECT_RT_OK(cudaLaunchKernel(stub(), dim3(1), dim3(4), args, 0, nullptr));
    EXPECT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(6, buf.at(3)); // 0 + counter (5) + 1
}

TEST(RuntimeKernel, DeviceLinkWrapper_LinksTheUnitsItLists_AndRuns)
{
    // nvcc's device-link stub (crt/link.stub): version 2, its own fat binary empty, the units'
    // images in a NULL-terminated list.
    static const unsigned long long empty[2] = {0x00100001ba55ed50ull, 0};
    static const void *units[] = {kPtx, nullptr};
    Registered reg;
    reg.wrapper = Wrapper{0x466243b1, 2, empty, units};
    reg.add(true);
    Buffer buf(4);
    int *p = buf.device, n = 4;
    void *args[] = {&p, &n};
    EXPECT_RT_OK(cudaLaunchKernel(stub(), dim3(1), dim3(4), args, 0, nullptr));
    EXPECT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(6, buf.at(0));
    int counter = 0;
    EXPECT_RT_OK(cudaMemcpyFromSymbol(&counter, &shadow_counter, sizeof counter));
    EXPECT_EQ(5, counter);
}

TEST(RuntimeKernel, WrapperOfAnUnknownVersion_IsInvalidKernelImageSayingSo)
{
    Registered reg;
    reg.wrapper.version = 3;
    reg.add(false);
    EXPECT_RT(cudaErrorInvalidKernelImage, cudaLaunchKernel(stub(), dim3(1), dim3(1), nullptr, 0, nullptr));
    EXPECT_NE(std::string(extmem_error_detail()).find("version 3"), std::string::npos) << extmem_error_detail();
}

TEST(RuntimeKernel, UnregisterFatBinary_ThenLaunch_IsInvalidResourceHandle)
{
    {
        Registered reg;
        reg.add();
        ASSERT_RT_OK(cudaFuncSetCacheConfig(stub(), cudaFuncCachePreferL1));
    }
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaLaunchKernel(stub(), dim3(1), dim3(1), nullptr, 0, nullptr));
}

TEST(RuntimeKernel, DeviceReset_NextLaunchLoadsTheModuleAgain)
{
    Registered reg;
    reg.add();
    {
        Buffer b(1);
        int n = 1;
        void *args[] = {&b.device, &n};
        ASSERT_RT_OK(cudaLaunchKernel(stub(), dim3(1), dim3(1), args, 0, nullptr));
        ASSERT_RT_OK(cudaDeviceSynchronize());
    }
    ASSERT_RT_OK(cudaDeviceReset());
    Buffer b(1);
    int n = 1;
    void *args[] = {&b.device, &n};
    ASSERT_RT_OK(cudaLaunchKernel(stub(), dim3(1), dim3(1), args, 0, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(b.at(0), 6);
}

// ---- Device variables ----

TEST(RuntimeKernel, MemcpyToSymbol_ChangesWhatTheKernelReads)
{
    Registered reg;
    reg.add();
    int counter = 0;
    ASSERT_RT_OK(cudaMemcpyFromSymbol(&counter, &shadow_counter, sizeof counter, 0, cudaMemcpyDeviceToHost));
    EXPECT_EQ(counter, 5);
    counter = 100;
    ASSERT_RT_OK(cudaMemcpyToSymbol(&shadow_counter, &counter, sizeof counter, 0, cudaMemcpyHostToDevice));
    Buffer b(2);
    int n = 2;
    void *args[] = {&b.device, &n};
    ASSERT_RT_OK(cudaLaunchKernel(stub(), dim3(1), dim3(2), args, 0, nullptr));
    EXPECT_EQ(b.at(1), 101);
}

TEST(RuntimeKernel, SymbolAddressAndSize_AreTheModuleGlobal)
{
    Registered reg;
    reg.add();
    void *address = nullptr;
    size_t size = 0;
    ASSERT_RT_OK(cudaGetSymbolAddress(&address, shadow_scale));
    ASSERT_RT_OK(cudaGetSymbolSize(&size, shadow_scale));
    EXPECT_EQ(size, sizeof shadow_scale);
    unsigned int v[4] = {1, 2, 3, 4}, back[4] = {};
    ASSERT_RT_OK(cudaMemcpyToSymbolAsync(shadow_scale, v, sizeof v, 0, cudaMemcpyHostToDevice, nullptr));
    ASSERT_RT_OK(cudaMemcpy(back, address, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT_EQ(back[3], 4u);
}

TEST(RuntimeKernel, MemcpyToSymbol_PastTheEnd_IsInvalidValue)
{
    Registered reg;
    reg.add();
    unsigned int v[4] = {};
    EXPECT_RT(cudaErrorInvalidValue,
              cudaMemcpyToSymbol(shadow_scale, v, sizeof v, sizeof(unsigned int), cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue,
              cudaMemcpyFromSymbol(v, shadow_scale, 1, sizeof shadow_scale + 1, cudaMemcpyDeviceToHost));
}

TEST(RuntimeKernel, MemcpyToSymbol_WrongKind_IsInvalidMemcpyDirection)
{
    Registered reg;
    reg.add();
    int v = 0;
    EXPECT_RT(cudaErrorInvalidMemcpyDirection,
              cudaMemcpyToSymbol(&shadow_counter, &v, sizeof v, 0, cudaMemcpyDeviceToHost));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection,
              cudaMemcpyFromSymbol(&v, &shadow_counter, sizeof v, 0, cudaMemcpyHostToDevice));
}

TEST(RuntimeKernel, UnregisteredSymbol_IsInvalidSymbol)
{
    Registered reg;
    reg.add();
    int other = 0;
    void *address = nullptr;
    EXPECT_RT(cudaErrorInvalidSymbol, cudaGetSymbolAddress(&address, &other));
    EXPECT_RT(cudaErrorInvalidSymbol, cudaMemcpyToSymbol(&other, &other, sizeof other, 0, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetSymbolAddress(nullptr, &shadow_counter));
}

TEST(RuntimeKernel, InitModule_PointsTheManagedVariableAtItsStorage)
{
    Registered reg;
    reg.add();
    managed_pointer = nullptr;
    ASSERT_EQ(__cudaInitModule(reg.handle), 1);
    ASSERT_NE(managed_pointer, nullptr);
    *managed_pointer = 77; // the host writes the device's variable directly
    unsigned int back = 0;
    ASSERT_RT_OK(cudaMemcpy(&back, managed_pointer, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT_EQ(back, 77u);
}

// ---- Kernel attributes and occupancy ----

TEST(RuntimeKernel, FuncGetAttributes_ReportsTheKernel)
{
    Registered reg;
    reg.add();
    cudaFuncAttributes attr;
    ASSERT_RT_OK(cudaFuncGetAttributes(&attr, stub()));
    EXPECT_GT(attr.maxThreadsPerBlock, 0);
    EXPECT_EQ(attr.sharedSizeBytes, 0u);
    EXPECT_RT(cudaErrorInvalidValue, cudaFuncGetAttributes(nullptr, stub()));
    int other = 0;
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaFuncGetAttributes(&attr, &other));
    EXPECT_RT(cudaErrorInvalidDeviceFunction, cudaFuncGetAttributes(&attr, nullptr));
}

TEST(RuntimeKernel, FuncSetAttribute_UnknownAttribute_IsInvalidValue)
{
    Registered reg;
    reg.add();
    EXPECT_RT(cudaErrorInvalidValue, cudaFuncSetAttribute(stub(), (cudaFuncAttribute)3, 1));
    EXPECT_RT(cudaErrorInvalidValue, cudaFuncSetCacheConfig(stub(), (cudaFuncCache)9));
    EXPECT_RT_OK(cudaFuncSetAttribute(stub(), cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
}

TEST(RuntimeKernel, Occupancy_IsPositiveAndChecksItsArguments)
{
    Registered reg;
    reg.add();
    int blocks = 0;
    ASSERT_RT_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, stub(), 128, 0));
    EXPECT_GT(blocks, 0);
    EXPECT_RT(cudaErrorInvalidValue, cudaOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, stub(), 128, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, stub(), 128, 0, 4));
}

// ---- Managed memory and stream-ordered allocation ----

TEST(RuntimeKernel, MallocManaged_IsHostReadableDeviceMemory)
{
    int *p = nullptr;
    ASSERT_RT_OK(cudaMallocManaged(reinterpret_cast<void **>(&p), 64 * sizeof(int), cudaMemAttachGlobal));
    p[3] = 9;
    int back = 0;
    ASSERT_RT_OK(cudaMemcpy(&back, p + 3, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT_EQ(back, 9);
    cudaMemLocation device = {cudaMemLocationTypeDevice, 0};
    EXPECT_RT_OK(cudaMemPrefetchAsync(p, 64 * sizeof(int), device, 0, nullptr));
    EXPECT_RT_OK(cudaMemAdvise(p, 64 * sizeof(int), cudaMemAdviseSetReadMostly, device));
    EXPECT_RT_OK(cudaFree(p));
}

TEST(RuntimeKernel, MallocManaged_BadArguments_AreInvalidValueAndSizeZeroIsNull)
{
    void *p = &p;
    EXPECT_RT_OK(cudaMallocManaged(&p, 0, cudaMemAttachGlobal));
    EXPECT_EQ(p, nullptr);
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocManaged(nullptr, 16, cudaMemAttachGlobal));
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocManaged(&p, 16, cudaMemAttachSingle));
}

TEST(RuntimeKernel, PrefetchAndAdvice_CheckRangeDeviceAndAdvice)
{
    void *p = nullptr;
    ASSERT_RT_OK(cudaMallocManaged(&p, 4096, cudaMemAttachGlobal));
    cudaMemLocation device1 = {cudaMemLocationTypeDevice, 1};
    cudaMemLocation host = {cudaMemLocationTypeHost, 0};
    EXPECT_RT(cudaErrorInvalidDevice, cudaMemPrefetchAsync(p, 4096, device1, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemPrefetchAsync(p, 8192, host, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemPrefetchAsync(p, 4096, host, 1, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemAdvise(p, 4096, (cudaMemoryAdvise)0, host));
    int on_stack = 0;
    EXPECT_RT(cudaErrorInvalidValue, cudaMemAdvise(&on_stack, sizeof on_stack, cudaMemAdviseSetAccessedBy, host));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemAdvise(p, 4096, cudaMemAdviseSetPreferredLocation, device1));
    EXPECT_RT_OK(cudaMemAdvise(p, 4096, cudaMemAdviseSetReadMostly, device1)); // takes no location
    EXPECT_RT_OK(cudaFree(p));
}

TEST(RuntimeKernel, RangeAttributes_AnswerWhatTheRangeWasAdvised)
{
    void *p = nullptr;
    ASSERT_RT_OK(cudaMallocManaged(&p, 8192, cudaMemAttachGlobal));
    cudaMemLocation device = {cudaMemLocationTypeDevice, 0};
    cudaMemLocation host = {cudaMemLocationTypeHost, 0};
    ASSERT_RT_OK(cudaMemAdvise(p, 4096, cudaMemAdviseSetReadMostly, host));
    ASSERT_RT_OK(cudaMemAdvise(p, 8192, cudaMemAdviseSetPreferredLocation, device));
    ASSERT_RT_OK(cudaMemPrefetchAsync(p, 8192, host, 0, nullptr));
    int v = -5;
    EXPECT_RT_OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, p, 4096));
    EXPECT_EQ(1, v);
    EXPECT_RT_OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, p, 8192));
    EXPECT_EQ(0, v);
    EXPECT_RT_OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributePreferredLocation, p, 8192));
    EXPECT_EQ(0, v);
    int last = 0, type = 0;
    void *data[2] = {&last, &type};
    size_t sizes[2] = {4, 4};
    cudaMemRangeAttribute attrs[2] = {cudaMemRangeAttributeLastPrefetchLocation,
                                      cudaMemRangeAttributeLastPrefetchLocationType};
    EXPECT_RT_OK(cudaMemRangeGetAttributes(data, sizes, attrs, 2, p, 8192));
    EXPECT_EQ(cudaCpuDeviceId, last);
    EXPECT_EQ((int)cudaMemLocationTypeHost, type);
    EXPECT_RT(cudaErrorInvalidValue, cudaMemRangeGetAttribute(&v, 2, cudaMemRangeAttributeReadMostly, p, 4096));
    void *d = nullptr;
    ASSERT_RT_OK(cudaMalloc(&d, 4096));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, d, 4096));
    EXPECT_RT_OK(cudaFree(d));
    EXPECT_RT_OK(cudaFree(p));
}

// NVIDIA's runtime: managed memory attaches, cudaMalloc memory is cudaErrorInvalidValue (H100).
TEST(RuntimeKernel, StreamAttachMemAsync_TakesManagedMemoryOnly)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    void *m = nullptr, *d = nullptr;
    ASSERT_RT_OK(cudaMallocManaged(&m, 4096, cudaMemAttachGlobal));
    ASSERT_RT_OK(cudaMalloc(&d, 4096));
    EXPECT_RT_OK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamAttachMemAsync(s, d, 0, cudaMemAttachSingle));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamAttachMemAsync(s, m, 0, 7));
    EXPECT_RT_OK(cudaStreamSynchronize(s));
    EXPECT_RT_OK(cudaStreamDestroy(s));
    EXPECT_RT_OK(cudaFree(d));
    EXPECT_RT_OK(cudaFree(m));
}

TEST(RuntimeKernel, PrefetchAndDiscardBatches_AreTheDrivers)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    void *m = nullptr;
    ASSERT_RT_OK(cudaMallocManaged(&m, 8192, cudaMemAttachGlobal));
    void *ptrs[2] = {m, static_cast<char *>(m) + 4096};
    size_t sizes[2] = {4096, 4096};
    cudaMemLocation locs[1] = {{cudaMemLocationTypeDevice, 0}};
    size_t idxs[1] = {0};
    EXPECT_RT_OK(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 1, 0, s));
    int v = -5;
    EXPECT_RT_OK(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeLastPrefetchLocation, m, 8192));
    EXPECT_EQ(0, v);
    EXPECT_RT_OK(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, s));
    EXPECT_RT_OK(cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 1, 0, s));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 1, 0, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemDiscardBatchAsync(ptrs, sizes, 0, 0, s));
    EXPECT_RT_OK(cudaStreamSynchronize(s));
    EXPECT_RT_OK(cudaStreamDestroy(s));
    EXPECT_RT_OK(cudaFree(m));
    cudaGetLastError();
}

TEST(RuntimeKernel, DeviceProperties_SayManagedMemoryWorksAndPageableMemoryIsOutOfReach)
{
    cudaDeviceProp prop;
    ASSERT_RT_OK(cudaGetDeviceProperties(&prop, 0));
    EXPECT_EQ(1, prop.managedMemory);
    EXPECT_EQ(1, prop.concurrentManagedAccess);
    EXPECT_EQ(0, prop.pageableMemoryAccess);
    int v = -1;
    ASSERT_RT_OK(cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0));
    EXPECT_EQ(1, v);
}

TEST(RuntimeKernel, MallocAsyncFreeAsync_AreOrderedInTheStream)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    void *p = nullptr;
    ASSERT_RT_OK(cudaMallocAsync(&p, 1024, s));
    ASSERT_NE(p, nullptr);
    ASSERT_RT_OK(cudaMemsetAsync(p, 7, 1024, s));
    ASSERT_RT_OK(cudaFreeAsync(p, s));
    EXPECT_RT_OK(cudaStreamSynchronize(s));
    EXPECT_RT(cudaErrorInvalidValue, cudaFreeAsync(p, s)); // already freed
    void *zero = &zero;
    EXPECT_RT_OK(cudaMallocAsync(&zero, 0, s));
    EXPECT_EQ(zero, nullptr);
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocAsync(nullptr, 16, s));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeKernel, DefaultMemPool_KeepsItsReleaseThreshold)
{
    cudaMemPool_t pool = nullptr, again = nullptr;
    ASSERT_RT_OK(cudaDeviceGetDefaultMemPool(&pool, 0));
    ASSERT_RT_OK(cudaDeviceGetMemPool(&again, 0));
    EXPECT_EQ(pool, again);
    unsigned long long v = 12345, back = 0;
    ASSERT_RT_OK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v));
    ASSERT_RT_OK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back));
    EXPECT_EQ(back, v);
    EXPECT_RT(cudaErrorInvalidValue, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetDefaultMemPool(&pool, 1));
    EXPECT_RT_OK(cudaMemPoolTrimTo(pool, 0));
}

// ---- Callbacks, flags, limits, peers ----

namespace {
struct CallbackSeen {
    std::atomic<int> calls{0};
    cudaStream_t stream = nullptr;
    cudaError_t status = cudaErrorUnknown;
};
void CUDART_CB record_callback(cudaStream_t stream, cudaError_t status, void *data)
{
    auto *seen = static_cast<CallbackSeen *>(data);
    seen->stream = stream;
    seen->status = status;
    seen->calls++;
}
} // namespace

TEST(RuntimeKernel, StreamAddCallback_RunsWithItsStreamAndSuccess)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    CallbackSeen seen;
    ASSERT_RT_OK(cudaStreamAddCallback(s, record_callback, &seen, 0));
    ASSERT_RT_OK(cudaStreamSynchronize(s));
    EXPECT_EQ(seen.calls.load(), 1);
    EXPECT_EQ(seen.stream, s);
    EXPECT_EQ(seen.status, cudaSuccess);
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamAddCallback(s, record_callback, &seen, 1));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamAddCallback(s, nullptr, &seen, 0));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeKernel, DeviceFlags_SetThenGet_KeepsTheScheduleWithMapHost)
{
    ASSERT_RT_OK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    unsigned int flags = 0;
    ASSERT_RT_OK(cudaGetDeviceFlags(&flags));
    EXPECT_EQ(flags & cudaDeviceScheduleMask, (unsigned int)cudaDeviceScheduleBlockingSync);
    EXPECT_TRUE(flags & cudaDeviceMapHost);
    EXPECT_RT(cudaErrorInvalidValue, cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
    EXPECT_RT(cudaErrorInvalidValue, cudaSetDeviceFlags(0x100));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetDeviceFlags(nullptr));
}

TEST(RuntimeKernel, Limits_DefaultsSetAndUnknown)
{
    size_t v = 0;
    ASSERT_RT_OK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    EXPECT_EQ(v, 8u << 20);
    ASSERT_RT_OK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4u << 20));
    ASSERT_RT_OK(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    EXPECT_EQ(v, 4u << 20);
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetLimit(&v, (cudaLimit)42));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceSetLimit((cudaLimit)42, 1));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 256));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetLimit(nullptr, cudaLimitStackSize));
}

// The printf FIFO is the primary context's, which its launches use: what the runtime sets
// the driver reads, rounded as the H100 rounds it (at least 512 KiB, a multiple of 128).
TEST(RuntimeKernel, PrintfFifoSize_IsTheContextsRoundedAsOnTheH100)
{
    size_t v = 0;
    ASSERT_RT_OK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 600000));
    ASSERT_RT_OK(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    EXPECT_EQ(600064u, v);
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
    EXPECT_EQ(600064u, v);
    ASSERT_RT_OK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1));
    ASSERT_RT_OK(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    EXPECT_EQ(524288u, v);
    ASSERT_RT_OK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 8650752));
}

// The stack and the malloc heap are the context's limits too: a stack set through the runtime
// is the one launches get (cuCtxGetLimit reads it, rounded to 16 bytes as the driver keeps it).
TEST(RuntimeKernel, StackAndHeapLimits_AreTheContexts)
{
    size_t v = 0;
    ASSERT_RT_OK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    EXPECT_EQ(1024u, v);
    ASSERT_RT_OK(cudaDeviceSetLimit(cudaLimitStackSize, 4000));
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    EXPECT_EQ(4000u, v);
    ASSERT_RT_OK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    EXPECT_EQ(4000u, v);
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceSetLimit(cudaLimitStackSize, 0));
    ASSERT_RT_OK(cudaDeviceSetLimit(cudaLimitStackSize, 1024));
    ASSERT_RT_OK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    EXPECT_EQ(8388608u, v);
    ASSERT_RT_OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 24));
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    EXPECT_EQ((size_t)1 << 24, v);
    ASSERT_RT_OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8388608));
}

TEST(RuntimeKernel, PeerAccess_OneDeviceHasNoPeer)
{
    int can = -1;
    ASSERT_RT_OK(cudaDeviceCanAccessPeer(&can, 0, 0));
    EXPECT_EQ(can, 0);
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceCanAccessPeer(&can, 0, 1));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceCanAccessPeer(nullptr, 0, 0));
    EXPECT_RT(cudaErrorPeerAccessUnsupported, cudaDeviceEnablePeerAccess(0, 0));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(1, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceEnablePeerAccess(0, 1));
    EXPECT_RT(cudaErrorPeerAccessNotEnabled, cudaDeviceDisablePeerAccess(0));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceDisablePeerAccess(1));
}

TEST(RuntimeKernel, ChooseDevice_IsDeviceZero)
{
    cudaDeviceProp prop;
    std::memset(&prop, 0, sizeof prop);
    prop.major = 9;
    int device = -1;
    ASSERT_RT_OK(cudaChooseDevice(&device, &prop));
    EXPECT_EQ(device, 0);
    EXPECT_RT(cudaErrorInvalidValue, cudaChooseDevice(nullptr, &prop));
    EXPECT_RT(cudaErrorInvalidValue, cudaChooseDevice(&device, nullptr));
}

TEST(RuntimeKernel, GetExportTable_AnswersNotSupportedForNvidiasRuntime)
{
    const void *table = &table;
    CUuuid id;
    std::memset(&id, 0x6b, sizeof id);
    EXPECT_EQ(cuGetExportTable(&table, &id), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_EQ(table, nullptr);
    EXPECT_NE(std::string(extmem_error_detail()).find("libcudart.so.13"), std::string::npos) << extmem_error_detail();
}

// ---- Issue 22: function queries, streams, events, device queries and the profiler (NVIDIA's
// runtime answers: docs/probes/surface/probe.out) ----

TEST(RuntimeKernel, FuncGetNameAndParamInfo_AnswerForTheRegisteredKernel)
{
    Registered reg;
    reg.add();
    const char *name = nullptr;
    ASSERT_RT_OK(cudaFuncGetName(&name, stub()));
    EXPECT_STREQ("add_one", name); // the module's name (mangled for a C++ kernel: the probe's _Z1kPii)
    size_t off = 0, sz = 0;
    ASSERT_RT_OK(cudaFuncGetParamInfo(stub(), 1, &off, &sz));
    EXPECT_EQ(8u, off); // the probe's (int *, int) kernel: off=8 size=4
    EXPECT_EQ(4u, sz);
    EXPECT_RT(cudaErrorInvalidValue, cudaFuncGetParamInfo(stub(), 2, &off, &sz));
    EXPECT_RT(cudaErrorInvalidValue, cudaFuncGetName(nullptr, stub()));
    int other = 0;
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaFuncGetName(&name, &other));
    EXPECT_RT(cudaErrorInvalidDeviceFunction, cudaFuncGetName(&name, nullptr));
}

TEST(RuntimeKernel, GetFuncBySymbolAndGetKernel_GiveHandlesThatLaunch)
{
    Registered reg;
    reg.add();
    cudaFunction_t f = nullptr;
    ASSERT_RT_OK(cudaGetFuncBySymbol(&f, stub()));
    const char *name = nullptr;
    ASSERT_EQ(CUDA_SUCCESS, cuFuncGetName(&name, reinterpret_cast<CUfunction>(f)));
    EXPECT_STREQ("add_one", name);
    cudaKernel_t k = nullptr;
    ASSERT_RT_OK(cudaGetKernel(&k, stub()));
    Buffer b(4);
    int n = 4;
    void *args[] = {&b.device, &n};
    ASSERT_RT_OK(__cudaLaunchKernel(k, dim3(1), dim3(32), args, 0, nullptr));
    ASSERT_RT_OK(cudaDeviceSynchronize());
    EXPECT_EQ(6, b.at(3));
    int other = 0;
    EXPECT_RT(cudaErrorInvalidValue, cudaGetFuncBySymbol(nullptr, stub()));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaGetFuncBySymbol(&f, &other));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetKernel(nullptr, stub()));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaGetKernel(&k, &other));
    EXPECT_RT(cudaErrorInvalidDeviceFunction, cudaGetKernel(&k, nullptr));
}

TEST(RuntimeKernel, FuncSetSharedMemConfig_AcceptsTheEnum)
{
    Registered reg;
    reg.add();
    EXPECT_RT_OK(cudaFuncSetSharedMemConfig(stub(), cudaSharedMemBankSizeEightByte));
    EXPECT_RT(cudaErrorInvalidValue, cudaFuncSetSharedMemConfig(stub(), (cudaSharedMemConfig)7));
}

TEST(RuntimeKernel, InitDevice_ChecksTheDeviceAndFlags)
{
    EXPECT_RT_OK(cudaInitDevice(0, 0, 0)); // the probe's cases
    EXPECT_RT_OK(cudaInitDevice(0, 1, 0)); // deviceFlags ignored without cudaInitDeviceFlagsAreValid
    EXPECT_RT(cudaErrorInvalidDevice, cudaInitDevice(5, 0, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaInitDevice(0, 0, 2));
    EXPECT_RT(cudaErrorInvalidValue, cudaInitDevice(0, 0x100, cudaInitDeviceFlagsAreValid));
    EXPECT_RT_OK(cudaInitDevice(0, cudaDeviceScheduleYield, cudaInitDeviceFlagsAreValid));
    unsigned int flags = 0;
    ASSERT_RT_OK(cudaGetDeviceFlags(&flags));
    EXPECT_EQ((unsigned)cudaDeviceScheduleYield, flags & cudaDeviceScheduleMask);
    EXPECT_RT_OK(cudaSetDeviceFlags(0));
}

TEST(RuntimeKernel, StreamPriorities_RangeAndClamp)
{
    int lo = 9, hi = 9;
    ASSERT_RT_OK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    EXPECT_EQ(0, lo);
    EXPECT_EQ(-5, hi);
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -100));
    int prio = 9;
    ASSERT_RT_OK(cudaStreamGetPriority(s, &prio));
    EXPECT_EQ(-5, prio);
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamGetPriority(s, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamCreateWithPriority(nullptr, 0, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamCreateWithPriority(&s, 4, 0));
    ASSERT_RT_OK(cudaStreamGetPriority_ptsz(nullptr, &prio));
    EXPECT_EQ(0, prio);
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeKernel, StreamIdAndDevice)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    unsigned long long id = 0, legacy = 0, ptds = 0, ptds2 = 0;
    ASSERT_RT_OK(cudaStreamGetId(s, &id));
    ASSERT_RT_OK(cudaStreamGetId(nullptr, &legacy));
    ASSERT_RT_OK(cudaStreamGetId(cudaStreamPerThread, &ptds));
    ASSERT_RT_OK(cudaStreamGetId_ptsz(nullptr, &ptds2));
    EXPECT_NE(id, legacy);
    EXPECT_NE(ptds, legacy);
    EXPECT_EQ(ptds, ptds2);
    int dev = 9;
    ASSERT_RT_OK(cudaStreamGetDevice(s, &dev));
    EXPECT_EQ(0, dev);
    dev = 9;
    ASSERT_RT_OK(cudaStreamGetDevice_ptsz(nullptr, &dev));
    EXPECT_EQ(0, dev);
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamGetId(s, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaStreamGetDevice(s, nullptr));
    EXPECT_RT_OK(cudaStreamDestroy(s));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaStreamGetId(s, &id));
}

TEST(RuntimeKernel, EventRecordWithFlags_ExternalOutsideCaptureIsIllegalState)
{
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    cudaEvent_t ev;
    ASSERT_RT_OK(cudaEventCreate(&ev));
    EXPECT_RT(cudaErrorIllegalState, cudaEventRecordWithFlags(ev, s, cudaEventRecordExternal)); // the probe's
    EXPECT_RT(cudaErrorInvalidValue, cudaEventRecordWithFlags(ev, s, 7));
    EXPECT_RT_OK(cudaEventRecordWithFlags(ev, s, cudaEventRecordDefault));
    EXPECT_RT_OK(cudaEventRecordWithFlags_ptsz(ev, nullptr, 0));
    EXPECT_RT_OK(cudaEventSynchronize(ev));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaEventRecordWithFlags(nullptr, s, 0));
    EXPECT_RT_OK(cudaEventDestroy(ev));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST(RuntimeKernel, CacheAndSharedMemConfig_KeptAndChecked)
{
    ASSERT_RT_OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    cudaFuncCache cc = cudaFuncCachePreferNone;
    ASSERT_RT_OK(cudaDeviceGetCacheConfig(&cc));
    EXPECT_EQ(cudaFuncCachePreferL1, cc);
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceSetCacheConfig((cudaFuncCache)9));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetCacheConfig(nullptr));
    ASSERT_RT_OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
    ASSERT_RT_OK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
    cudaSharedMemConfig sc = cudaSharedMemBankSizeDefault;
    ASSERT_RT_OK(cudaDeviceGetSharedMemConfig(&sc));
    EXPECT_EQ(cudaSharedMemBankSizeFourByte, sc);
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)3));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetSharedMemConfig(nullptr));
    EXPECT_RT_OK(cudaCtxResetPersistingL2Cache());
}

TEST(RuntimeKernel, DevicePeerPciAndTextureQueries)
{
    int v = 9;
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported, 0, 0));
    char bus[32] = "";
    ASSERT_RT_OK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    EXPECT_STREQ("0000:00:00.0", bus);
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetPCIBusId(bus, 4, 0));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetPCIBusId(bus, sizeof bus, 3));
    int dev = 9;
    ASSERT_RT_OK(cudaDeviceGetByPCIBusId(&dev, "0000:00:00.0"));
    EXPECT_EQ(0, dev);
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetByPCIBusId(&dev, "0000:01:00.0"));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetByPCIBusId(&dev, "garbage"));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetByPCIBusId(nullptr, "0000:00:00.0"));
    size_t w = 0;
    cudaChannelFormatDesc f4 = {32, 32, 32, 32, cudaChannelFormatKindFloat};
    ASSERT_RT_OK(cudaDeviceGetTexture1DLinearMaxWidth(&w, &f4, 0));
    EXPECT_EQ(size_t(1) << 28, w);
    cudaChannelFormatDesc u8 = {8, 0, 0, 0, cudaChannelFormatKindUnsigned};
    ASSERT_RT_OK(cudaDeviceGetTexture1DLinearMaxWidth(&w, &u8, 0));
    EXPECT_EQ(size_t(1) << 30, w);
    cudaChannelFormatDesc f3 = {32, 32, 32, 0, cudaChannelFormatKindFloat};
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetTexture1DLinearMaxWidth(&w, &f3, 0));
    cudaChannelFormatDesc mixed = {8, 16, 0, 0, cudaChannelFormatKindSigned};
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetTexture1DLinearMaxWidth(&w, &mixed, 0));
    cudaChannelFormatDesc f8 = {8, 0, 0, 0, cudaChannelFormatKindFloat};
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetTexture1DLinearMaxWidth(&w, &f8, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaDeviceGetTexture1DLinearMaxWidth(&w, nullptr, 0));
    EXPECT_RT(cudaErrorInvalidDevice, cudaDeviceGetTexture1DLinearMaxWidth(&w, &u8, 1));
}

TEST(RuntimeKernel, ProfilerStartStop_Succeed)
{
    (void)cudaGetLastError(); // what earlier tests left
    EXPECT_RT_OK(cudaProfilerStart());
    EXPECT_RT_OK(cudaProfilerStop());
    EXPECT_RT_OK(cudaGetLastError());
}
