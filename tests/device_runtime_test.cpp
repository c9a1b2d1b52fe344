// The device runtime's calls in kernels beyond launches (devrt, issue 25; docs/kernels.md "The
// device runtime"): cudaMalloc/cudaFree from the device heap, copies and fills in the device's
// streams, bad frees, the pending-launch limit and nesting, the error strings' memory. The
// kernels are tests/device_runtime/kernels.cu as nvcc -rdc=true compiles them (kernels.ptx),
// loaded through the driver API as they are. Where the H100 answered the same call
// (docs/probes/kernels/devrt: api.out, free.out, launch.out, launch2.out), the test asserts its
// answer; the rest follows the CUDA programming guide and says so.
#include "framework/testing.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace extmem_test;

using DeviceRuntime = ContextTest;

namespace {

std::string kernels_ptx()
{
    std::ifstream f(DEVRT_KERNELS_PTX, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct Kernels {
    CUmodule m = nullptr;
    CUdeviceptr out = 0, g = 0;
    void load()
    {
        std::string text = kernels_ptx();
        ASSERT_FALSE(text.empty()) << DEVRT_KERNELS_PTX;
        ASSERT_OK(cuModuleLoadData(&m, text.c_str()));
        size_t n = 0;
        ASSERT_OK(cuModuleGetGlobal(&out, &n, m, "g_out"));
        ASSERT_OK(cuModuleGetGlobal(&g, &n, m, "g"));
    }
    CUfunction fn(const char *name)
    {
        CUfunction f = nullptr;
        EXPECT_OK(cuModuleGetFunction(&f, m, name));
        return f;
    }
    CUresult run(const char *name, std::vector<void *> args)
    {
        CUresult r = cuLaunchKernel(fn(name), 1, 1, 1, 1, 1, 1, 0, nullptr, args.data(), nullptr);
        return r ? r : cuCtxSynchronize();
    }
    std::vector<long long> read(CUdeviceptr p, size_t n)
    {
        std::vector<long long> v(n);
        EXPECT_OK(cuMemcpyDtoH(v.data(), p, n * 8));
        return v;
    }
};

long long checksum(const unsigned char *p, int n)
{
    long long s = 0;
    for (int i = 0; i < n; ++i)
        s += p[i] * (i % 7 + 1);
    return s;
}

// Runs kernel `name` with (mode, a, b) in a context of its own (a fault is sticky for it): the
// synchronisation's result, and g[0..7] when it succeeded.
struct ModeRun {
    CUresult sync = CUDA_SUCCESS;
    std::vector<long long> g;
};
ModeRun run_mode(const char *name, int mode, size_t pending = 0)
{
    ModeRun res;
    CUcontext outer = nullptr, c = nullptr;
    CUdevice dev = 0;
    EXPECT_OK(cuCtxGetCurrent(&outer));
    EXPECT_OK(cuDeviceGet(&dev, 0));
    EXPECT_OK(cuCtxCreate(&c, nullptr, 0, dev));
    if (pending) {
        EXPECT_OK(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, pending));
    }
    Kernels k;
    k.load();
    CUdeviceptr a = 0, b = 0, va = 0;
    CUmemGenericAllocationHandle mem = 0;
    size_t gran = 0;
    if (!strcmp(name, "bad_free") && (mode == 7 || mode == 16)) {
        // A cudaMalloc pointer with no memory before it, as the H100's first allocation had: the
        // second half of a reservation whose first half is not mapped (what lies before a plain
        // cuMemAlloc pointer depends on the allocations before it, here as on the GPU).
        CUmemAllocationProp prop = {};
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.location.id = 0;
        EXPECT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
        EXPECT_OK(cuMemAddressReserve(&va, 2 * gran, 0, 0, 0));
        EXPECT_OK(cuMemCreate(&mem, gran, &prop, 0));
        EXPECT_OK(cuMemMap(va + gran, gran, 0, mem, 0));
        CUmemAccessDesc acc = {};
        acc.location = prop.location;
        acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        EXPECT_OK(cuMemSetAccess(va + gran, gran, &acc, 1));
        a = va + gran;
    } else {
        EXPECT_OK(cuMemAlloc(&a, 1 << 16));
        EXPECT_OK(cuMemsetD8(a, 0, 1 << 16));
    }
    EXPECT_OK(cuMemAlloc(&b, 4096));
    std::vector<void *> args;
    if (!strcmp(name, "api"))
        args = {&mode, &a, &b};
    else
        args = {&mode, &a};
    res.sync = k.run(name, args);
    if (res.sync == CUDA_SUCCESS)
        res.g = k.read(k.g, 8);
    EXPECT_OK(cuCtxDestroy(c));
    EXPECT_OK(cuCtxSetCurrent(outer));
    if (va) { // in the healthy context: the faulted one answers its fault to every call
        EXPECT_OK(cuMemUnmap(va + gran, gran));
        EXPECT_OK(cuMemRelease(mem));
        EXPECT_OK(cuMemAddressFree(va, 2 * gran));
    }
    return res;
}

} // namespace

// cudaMalloc in a kernel is the device heap's malloc (CUDA programming guide, dynamic parallelism,
// "Memory Allocation and Lifetime"): either free gives it back, a request larger than the heap is
// cudaErrorMemoryAllocation, cudaFree(NULL) does nothing, and child grids use the same heap.
TEST_F(DeviceRuntime, CudaMallocInAKernel_IsTheHeapsMalloc)
{
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16u << 20));
    Kernels k;
    k.load();
    ASSERT_OK(k.run("heap_kernel", {}));
    std::vector<long long> o = k.read(k.out, 24);
    EXPECT_EQ(0, o[0]) << "cudaMalloc(100)";
    EXPECT_EQ(1, o[1]) << "16-byte aligned";
    EXPECT_EQ(42, o[2]);
    EXPECT_EQ(0, o[3]) << "cudaFree";
    EXPECT_EQ(0, o[4]) << "cudaMalloc(0): a block, as malloc(0)";
    EXPECT_EQ(2, o[5]) << "a pointer of its own";
    EXPECT_EQ(0, o[6]);
    EXPECT_EQ(2, o[7]) << "cudaMalloc(2^40): cudaErrorMemoryAllocation";
    EXPECT_EQ(1, o[8]) << "the pointer is left as it was";
    EXPECT_EQ(2, o[9]) << "the thread's last error";
    EXPECT_EQ(0, o[10]) << "and cleared";
    EXPECT_EQ(0, o[11]) << "cudaFree(NULL)";
    EXPECT_EQ(15, o[12]) << "1 MiB blocks with their headers in 16 MiB";
    EXPECT_EQ(2, o[13]);
    EXPECT_EQ(1, o[14]) << "malloc finds the heap full too";
    EXPECT_EQ(2, o[15]);
    EXPECT_EQ(0, o[16]) << "free and cudaFree of cudaMalloc's blocks";
    EXPECT_EQ(1, o[17]) << "the freed blocks merged";
    EXPECT_EQ(0, o[18]) << "cudaFree of malloc's block";
    EXPECT_EQ(0, o[19]) << "the child's launch";
    EXPECT_EQ(0, o[20]) << "cudaMalloc in a child grid";
    EXPECT_EQ(1, o[21]);
    EXPECT_EQ(7, o[22]);
    EXPECT_EQ(0, o[23]);
}

// Copies and fills run in their stream's order: a child launched after a copy into the same
// stream sees it, and so does a tail launch after copies and fills of the tail stream.
TEST_F(DeviceRuntime, CopiesAndFills_RunInTheirStreamsOrder)
{
    Kernels k;
    k.load();
    std::vector<unsigned char> src(8192), dst(8192);
    for (int i = 0; i < 8192; ++i)
        src[i] = (unsigned char)(i * 37 + 11);
    CUdeviceptr s, d;
    ASSERT_OK(cuMemAlloc(&s, 8192));
    ASSERT_OK(cuMemAlloc(&d, 8192));
    ASSERT_OK(cuMemcpyHtoD(s, src.data(), 8192));
    ASSERT_OK(cuMemsetD8(d, 0, 8192));
    ASSERT_OK(k.run("copy_kernel", {&s, &d}));
    std::vector<long long> o = k.read(k.out, 20);
    ASSERT_OK(cuMemcpyDtoH(dst.data(), d, 8192));
    EXPECT_EQ(0, o[0]);
    EXPECT_EQ(checksum(src.data(), 4096), o[1]) << "the child saw the copy";
    EXPECT_EQ(0, o[2]) << "cudaMemcpyDefault";
    EXPECT_EQ(0, o[7]) << "count 0";
    EXPECT_EQ(0, o[8]);
    EXPECT_EQ(0, o[9]);
    EXPECT_EQ(checksum(src.data() + 5000, 100), o[10]);
    EXPECT_EQ(0, o[11]);
    EXPECT_EQ(checksum(dst.data() + 6000, 1001), o[12]);
    EXPECT_EQ(0, o[13]);
    EXPECT_EQ(0, o[14]);
    EXPECT_EQ(0, o[15]);
    EXPECT_EQ(0, o[16]);
    EXPECT_EQ(checksum(dst.data() + 7200, 150), o[17]) << "the tail launch saw the tail stream's copy and fill";
    EXPECT_EQ(0, o[18]);
    EXPECT_EQ(0, memcmp(dst.data(), src.data(), 4096));
    EXPECT_EQ(0, memcmp(dst.data() + 4096, src.data(), 16));
    EXPECT_EQ(0, dst[4096 + 16]);
    EXPECT_EQ(0, memcmp(dst.data() + 5000, src.data() + 5000, 100));
    EXPECT_EQ(0, memcmp(dst.data() + 7200, src.data() + 7200, 50));
    for (int i = 0; i < 1000; ++i) {
        ASSERT_EQ(0xab, dst[6000 + i]) << i;
    }
    EXPECT_EQ(0, dst[7000]);
    for (int i = 0; i < 50; ++i) {
        ASSERT_EQ(0x11, dst[7100 + i]);
        ASSERT_EQ(0x22, dst[7300 + i]);
    }
}

// 2D and 3D: rows of `width` bytes at their pitches, slices of pitch x ysize, positions in bytes.
TEST_F(DeviceRuntime, Copies2DAnd3D_MoveRowsAndSlices)
{
    Kernels k;
    k.load();
    std::vector<unsigned char> src(8192), dst(8192), want(8192, 0);
    for (int i = 0; i < 8192; ++i)
        src[i] = (unsigned char)(i * 37 + 11);
    CUdeviceptr s, d;
    ASSERT_OK(cuMemAlloc(&s, 8192));
    ASSERT_OK(cuMemAlloc(&d, 8192));
    ASSERT_OK(cuMemcpyHtoD(s, src.data(), 8192));
    ASSERT_OK(cuMemsetD8(d, 0, 8192));
    ASSERT_OK(k.run("copy2d_kernel", {&s, &d}));
    std::vector<long long> o = k.read(k.out, 12);
    ASSERT_OK(cuMemcpyDtoH(dst.data(), d, 8192));
    EXPECT_EQ(0, o[0]) << "cudaMemset2DAsync";
    EXPECT_EQ(0, o[2]) << "width 0";
    EXPECT_EQ(0, o[3]) << "cudaMemcpy2DAsync";
    EXPECT_EQ(0, o[6]) << "cudaMemset3DAsync";
    EXPECT_EQ(0, o[7]) << "cudaMemcpy3DAsync";
    EXPECT_EQ(0, o[10]);
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 40; ++x) {
            want[y * 64 + x] = 0x5a;
            want[1024 + y * 64 + x] = src[y * 48 + x];
        }
    for (int z = 0; z < 3; ++z)
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 40; ++x)
                want[2048 + z * 64 * 4 + y * 64 + x] = 0x3c;
    // srcPtr (pitch 48, ysize 6) at srcPos (2, 1, 0); dstPtr (pitch 64, ysize 5) at (4, 0, 1)
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 30; ++x)
                want[4096 + (1 + z) * 64 * 5 + y * 64 + 4 + x] = src[z * 48 * 6 + (1 + y) * 48 + 2 + x];
    for (int i = 0; i < 8192; ++i) {
        ASSERT_EQ(want[i], dst[i]) << "byte " << i;
    }
}

// What the H100's device runtime answers to bad arguments (docs/probes/kernels/devrt/run2/api.out):
// an error code, left for cudaGetLastError except by cudaDeviceGetLimit and the occupancy calls.
TEST_F(DeviceRuntime, BadArguments_AreTheH100sErrors)
{
    struct Row {
        int mode;
        long long ret, last;
        const char *what;
    } rows[] = {
        {1, 1, 1, "cudaFuncGetAttributes of NULL"},
        {3, 0, 0, "cudaFuncGetAttributes of a __device__ function"},
        {4, 1, 1, "cudaMemcpy3DAsync from a CUDA array"},
        {5, 12, 12, "cudaMemcpy3DAsync wider than the pitch"},
        {6, 1, 1, "cudaMemcpyAsync from 0x1000"},
        {7, 1, 1, "cudaMemsetAsync of 0x1000"},
        {8, 1, 1, "cudaMemcpyAsync from shared memory"},
        {9, 1, 1, "cudaFuncGetAttributes into NULL"},
        {10, 0, 0, "free(p + 4)"},
        {11, 0, 0, "free(p + 8)"},
        {12, 0, 0, "cudaDeviceGetLimit(8)"},
        {13, 215, 0, "cudaDeviceGetLimit(9)"},
        {14, 0, 0, "cudaDeviceGetLimit(10)"},
        {16, 21, 21, "cudaMemcpyHostToHost"},
        {17, 21, 21, "cudaMemcpyHostToDevice"},
        {18, 21, 21, "cudaMemcpyDeviceToHost"},
        {19, 0, 0, "cudaMemcpyDeviceToDevice"},
        {20, 0, 0, "cudaMemcpyDefault"},
        {21, 21, 21, "kind 7"},
        {22, 1, 1, "cudaMemset2DAsync wider than the pitch"},
        {23, 12, 12, "cudaMemcpy2DAsync wider than the pitch"},
        {24, 21, 21, "cudaMemcpy2DAsync HostToDevice"},
        {25, 999, 999, "a stream the runtime never gave"},
        {26, 1, 1, "cudaMalloc(NULL, 16)"},
        {27, 1, 0, "cudaDeviceGetLimit(NULL)"},
        {28, 1, 1, "cudaDeviceGetCacheConfig(NULL)"},
        {29, 1, 0, "occupancy of a __device__ function"},
        {30, 0, 0, "cudaMemcpy2DAsync of width 0"},
        {31, 1, 1, "cudaMemset3DAsync wider than the pitch"},
    };
    int sms = 0;
    ASSERT_OK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    for (const Row &r : rows) {
        ModeRun m = run_mode("api", r.mode);
        ASSERT_OK(m.sync) << r.what;
        ASSERT_EQ(8u, m.g.size());
        EXPECT_EQ(r.ret, m.g[0]) << r.what;
        EXPECT_EQ(r.last, m.g[3]) << r.what;
        if (r.mode == 12) {
            EXPECT_EQ(0, m.g[2]) << r.what;
        }
        if (r.mode == 13) {
            EXPECT_EQ(-1, m.g[2]) << r.what << ": SIZE_MAX";
        }
        if (r.mode == 14) {
            EXPECT_EQ(sms, m.g[2]) << r.what << ": the multiprocessors";
        }
        if (r.mode == 29) {
            EXPECT_EQ(0, m.g[1]) << r.what << ": 0 blocks written";
        }
    }
    // The occupancy of a NULL function faults on the H100.
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, run_mode("api", 2).sync);
    // A copy whose start is device memory but whose end runs past it: the H100 copied a MiB past
    // a 4 KiB allocation (its address space had memory there); the software device faults.
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, run_mode("api", 15).sync);
}

// free and cudaFree of what the heap does not hold live, each in a fresh context, with the H100's
// answers (docs/probes/kernels/devrt/free.out).
TEST_F(DeviceRuntime, BadFrees_AreTheH100sAnswers)
{
    struct Row {
        int mode;
        CUresult sync;
        const char *what;
    } rows[] = {
        {1, CUDA_SUCCESS, "free(NULL)"},
        {2, CUDA_ERROR_LAUNCH_FAILED, "a double free"},
        {3, CUDA_SUCCESS, "free(p + 16)"},
        {4, CUDA_ERROR_MISALIGNED_ADDRESS, "free(p + 1)"},
        {5, CUDA_SUCCESS, "free of a __device__ array's element"},
        {6, CUDA_SUCCESS, "free of a shared variable"},
        {7, CUDA_ERROR_ILLEGAL_ADDRESS, "free of a device pointer with no memory before it"},
        {8, CUDA_SUCCESS, "free of a cudaMalloc pointer + 4096"},
        {9, CUDA_ERROR_LAUNCH_FAILED, "a double free after the block merged with the next"},
        {10, CUDA_ERROR_LAUNCH_FAILED, "free, malloc of the same size, free twice"},
        {11, CUDA_SUCCESS, "free of a local variable"},
        {12, CUDA_SUCCESS, "cudaFree(NULL)"},
        {13, CUDA_ERROR_LAUNCH_FAILED, "cudaFree twice"},
        {14, CUDA_SUCCESS, "cudaFree(p + 16)"},
        {15, CUDA_ERROR_ILLEGAL_ADDRESS, "cudaFree(0x1000)"},
        {16, CUDA_ERROR_ILLEGAL_ADDRESS, "cudaFree of a device pointer with no memory before it"},
        {17, CUDA_SUCCESS, "cudaFree of a local variable"},
        {18, CUDA_SUCCESS, "free of the end of the last block"},
        {20, CUDA_SUCCESS, "free(p - 16)"},
        // p is the heap's first block: the H100 let free(p - 64) pass (its heap has memory of its
        // own before the first block); here no memory is there (a documented deviation).
        {21, CUDA_ERROR_ILLEGAL_ADDRESS, "free(p - 64)"},
        {22, CUDA_SUCCESS, "free(p + 64)"},
        {23, CUDA_SUCCESS, "free inside a 4 KiB block"},
        {24, CUDA_ERROR_ILLEGAL_ADDRESS, "cudaMalloc into 0x1000"},
        {25, CUDA_SUCCESS, "free of cudaMalloc's block"},
        {26, CUDA_ERROR_LAUNCH_FAILED, "free then cudaFree"},
    };
    for (const Row &r : rows) {
        ModeRun m = run_mode("bad_free", r.mode);
        EXPECT_CU(r.sync, m.sync) << r.what;
        if (m.sync == CUDA_SUCCESS && r.mode >= 12 && r.mode <= 17) {
            EXPECT_EQ(0, m.g[2]) << r.what << ": cudaFree's answer";
        }
        if (r.mode == 25) {
            EXPECT_EQ(1, m.g[6]) << r.what;
        }
    }
}

// No nesting limit but the pending launches (docs/probes/kernels/devrt, launch.out, launch2.out):
// a chain into the default or the fire-and-forget stream holds one pending launch per level (the
// 33rd level's launch is refused with the limit at 32; with 2048, the levels the kernel records,
// 2048, all ran), a chain of tail launches none (2100 levels ran with the limit at 2048).
TEST_F(DeviceRuntime, NestedLaunches_StopAtThePendingLimitNotAtADepth)
{
    struct Row {
        int max, how;
        size_t pending;
        int refused_at; // -1: none
    } rows[] = {
        {70, 0, 32, 32},  {70, 2, 32, 32},   {100, 1, 32, -1},
        {300, 0, 0, -1},  {300, 1, 0, -1},   {2100, 0, 0, -1}, {2100, 1, 0, -1},
    };
    for (const Row &r : rows) {
        CUcontext outer = nullptr, c = nullptr;
        CUdevice dev = 0;
        ASSERT_OK(cuCtxGetCurrent(&outer));
        ASSERT_OK(cuDeviceGet(&dev, 0));
        ASSERT_OK(cuCtxCreate(&c, nullptr, 0, dev));
        if (r.pending) {
            ASSERT_OK(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, r.pending));
        }
        Kernels k;
        k.load();
        int depth = 0, max = r.max, how = r.how;
        EXPECT_OK(k.run("nest", {&depth, &max, &how})) << r.max << " " << r.how;
        std::vector<long long> g = k.read(k.g, 4096);
        int ran = 0, refused = -1;
        for (int i = 0; i < r.max && i < 2048; ++i) {
            if (!g[2048 + i])
                break;
            ++ran;
            if (g[i] && refused < 0)
                refused = i;
        }
        if (r.refused_at >= 0) {
            EXPECT_EQ(r.refused_at, refused) << r.max << " " << r.how;
            EXPECT_EQ(69, g[r.refused_at]) << "cudaErrorLaunchPendingCountExceeded";
            EXPECT_EQ(r.refused_at + 1 < 2048 ? r.refused_at + 1 : 2048, ran);
        } else {
            EXPECT_EQ(-1, refused) << r.max << " " << r.how;
            EXPECT_EQ(r.max < 2048 ? r.max : 2048, ran) << "levels recorded";
        }
        ASSERT_OK(cuCtxDestroy(c));
        ASSERT_OK(cuCtxSetCurrent(outer));
    }
}

// Fills of the tail stream hold a pending launch each; past the limit the H100 answers
// cudaErrorUnknown (999). In the default and fire-and-forget streams they do not pile up.
TEST_F(DeviceRuntime, TailStreamFillsPastThePendingLimit_AreUnknownError)
{
    for (int how : {0, 1, 2}) {
        CUcontext outer = nullptr, c = nullptr;
        CUdevice dev = 0;
        ASSERT_OK(cuCtxGetCurrent(&outer));
        ASSERT_OK(cuDeviceGet(&dev, 0));
        ASSERT_OK(cuCtxCreate(&c, nullptr, 0, dev));
        ASSERT_OK(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 40));
        Kernels k;
        k.load();
        CUdeviceptr buf;
        ASSERT_OK(cuMemAlloc(&buf, 256));
        ASSERT_OK(cuMemsetD8(buf, 0xff, 256));
        int count = 100;
        EXPECT_OK(k.run("many_copies", {&count, &how, &buf}));
        std::vector<long long> g = k.read(k.g, 301);
        unsigned char h[256];
        ASSERT_OK(cuMemcpyDtoH(h, buf, 256));
        for (int i = 0; i < 100; ++i) {
            long long want = how == 1 && i >= 40 ? 999 : 0;
            EXPECT_EQ(want, g[i]) << "stream " << how << " fill " << i;
            EXPECT_EQ(want ? 0xff : i, h[i]) << "stream " << how << " fill " << i;
        }
        EXPECT_EQ(how == 1 ? 999 : 0, g[300]) << "the last error";
        ASSERT_OK(cuCtxDestroy(c));
        ASSERT_OK(cuCtxSetCurrent(outer));
    }
}

// The pending launch limit reads back at least 32, as on the H100 (0, 1 and 31 read 32).
TEST_F(DeviceRuntime, PendingLaunchLimitBelow32_Reads32)
{
    for (size_t v : {0, 1, 31, 32, 33, 100}) {
        size_t r = 0;
        ASSERT_OK(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, v));
        ASSERT_OK(cuCtxGetLimit(&r, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
        EXPECT_EQ(v < 32 ? 32 : v, r);
    }
}

// cudaGetErrorName's strings are device memory a kernel reads, and not writes.
TEST_F(DeviceRuntime, ErrorStrings_AreReadOnlyDeviceMemory)
{
    Kernels k;
    k.load();
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, k.run("write_error_name", {}));
    EXPECT_DETAIL_HAS("store of 1 bytes");
}

// PTX that calls a device runtime function with the wrong arguments is refused at load.
TEST_F(DeviceRuntime, MalformedCalls_AreInvalidPtx)
{
    const char *ptx = R"(
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 func_retval0) __cudaCDP2Malloc(.param .b64 p);
.visible .entry k()
{
    .reg .b32 %r<2>;
    {
    .param .b64 param0;
    st.param.b64 [param0], 0;
    .param .b32 retval0;
    call.uni (retval0), __cudaCDP2Malloc, (param0);
    ld.param.b32 %r1, [retval0];
    }
    ret;
}
)";
    CUmodule m = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, ptx));
    EXPECT_DETAIL_HAS("__cudaCDP2Malloc takes 2 arguments");
}
