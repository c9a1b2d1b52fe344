/*
 * tests/abi/nvidia_headers_program.c: a CUDA program built against NVIDIA's headers only,
 * linked to libextmem instead of libcuda and libcudart, and run.
 *
 * Every call goes through NVIDIA's header, so the symbols this binary asks the dynamic linker
 * for are the versioned ones NVIDIA's macros produce (cuCtxCreate -> cuCtxCreate_v4,
 * cuMemAlloc -> cuMemAlloc_v2, ...) and every struct crosses the boundary in NVIDIA's layout
 * (DESIGN.md §3). The results are checked, not just the return codes.
 *
 *   abi_nvidia_headers_program driver     the driver API
 *   abi_nvidia_headers_program runtime    the runtime API, cross-checked with the driver API
 *
 * The runtime entry points are weak references, so that the program still links while
 * libextmem lacks some of them; the runtime part then fails and names what is missing.
 * The program also builds against the real libraries (-lcuda -lcudart), which is how its
 * expectations were checked on a GPU machine.
 */
#if defined(EXTMEM_CUDA_H)
#error "this program must see NVIDIA's headers, not extmem's"
#endif
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__cuda_cuda_h__) || !defined(CUDART_VERSION)
#error "NVIDIA's cuda.h and cuda_runtime_api.h are expected here"
#endif

static int failures;

static void fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: FAIL: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    failures++;
}

#define CHECK(cond, ...)                                  \
    do {                                                  \
        if (!(cond))                                      \
            fail(__FILE__, __LINE__, __VA_ARGS__);        \
    } while (0)

static const char *cu_name(CUresult r)
{
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s)
        return "(unknown)";
    return s;
}

/* A driver call that must succeed; the rest of a section is skipped when it does not. */
#define CU_OK(call)                                                                  \
    do {                                                                             \
        CUresult r_ = (call);                                                        \
        if (r_ != CUDA_SUCCESS) {                                                    \
            fail(__FILE__, __LINE__, "%s returned %s (%d)", #call, cu_name(r_), (int)r_); \
            return;                                                                  \
        }                                                                            \
    } while (0)

#define CU_EXPECT(expected, call)                                                    \
    do {                                                                             \
        CUresult r_ = (call);                                                        \
        CHECK(r_ == (expected), "%s returned %s, expected %s", #call, cu_name(r_),   \
              cu_name(expected));                                                    \
    } while (0)

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = (unsigned char)(i * 31u + seed);
}

/* ---- driver API ------------------------------------------------------------------- */

static void CUDA_CB host_fn(void *user) { *(volatile int *)user = 1; }

static void driver_device(CUdevice *dev)
{
    int version = 0, count = 0;
    /* cuDriverGetVersion works before cuInit. */
    CU_OK(cuDriverGetVersion(&version));
    CHECK(version >= CUDA_VERSION, "driver version %d is older than the headers' %d", version,
          CUDA_VERSION);
    CU_OK(cuInit(0));
    CU_OK(cuDeviceGetCount(&count));
    CHECK(count >= 1, "cuDeviceGetCount: %d devices", count);
    CU_OK(cuDeviceGet(dev, 0));

    char name[256] = {0};
    CU_OK(cuDeviceGetName(name, (int)sizeof name, *dev));
    CHECK(name[0] != '\0', "cuDeviceGetName: empty name");

    size_t total = 0;
    CU_OK(cuDeviceTotalMem(&total, *dev)); /* cuDeviceTotalMem_v2 */
    CHECK(total > 0, "cuDeviceTotalMem_v2: 0 bytes");

    CUuuid uuid, zero;
    memset(&uuid, 0, sizeof uuid);
    memset(&zero, 0, sizeof zero);
    CU_OK(cuDeviceGetUuid(&uuid, *dev)); /* cuDeviceGetUuid_v2 */
    CHECK(memcmp(&uuid, &zero, sizeof uuid) != 0, "cuDeviceGetUuid_v2: all-zero UUID");

    /* The software device's warp is one lane (a CPU thread); a GPU's is 32. */
    int warp = 0, ua = 0;
    CU_OK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, *dev));
    CHECK(warp >= 1, "warp size %d", warp);
    CU_OK(cuDeviceGetAttribute(&ua, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, *dev));
    CHECK(ua == 1, "unified addressing %d", ua);
}

static void driver_memory(void)
{
    enum { N = 1 << 20 };
    unsigned char *src = malloc(N), *dst = malloc(N);
    CUdeviceptr d = 0, d2 = 0;
    if (!src || !dst) {
        CHECK(0, "out of host memory");
        free(src);
        free(dst);
        return;
    }

    size_t free_b = 0, total_b = 0;
    CUresult r = cuMemGetInfo(&free_b, &total_b); /* cuMemGetInfo_v2 */
    CHECK(r == CUDA_SUCCESS && total_b > 0 && free_b <= total_b,
          "cuMemGetInfo_v2: %s, free %zu total %zu", cu_name(r), free_b, total_b);

    CU_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&d, 0));
    if ((r = cuMemAlloc(&d, N)) != CUDA_SUCCESS || (r = cuMemAlloc(&d2, N)) != CUDA_SUCCESS) {
        CHECK(0, "cuMemAlloc_v2: %s", cu_name(r));
        goto out;
    }

    CUdeviceptr base = 0;
    size_t size = 0;
    CU_EXPECT(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, d + 100)); /* _v2 */
    CHECK(base == d && size >= N, "cuMemGetAddressRange_v2: base %#llx size %zu for %#llx",
          (unsigned long long)base, size, (unsigned long long)d);

    unsigned int memtype = 0;
    CU_EXPECT(CUDA_SUCCESS, cuPointerGetAttribute(&memtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
    CHECK(memtype == CU_MEMORYTYPE_DEVICE, "memory type %u", memtype);

    /* Host -> device -> device -> host. */
    fill(src, N, 7);
    memset(dst, 0, N);
    CU_EXPECT(CUDA_SUCCESS, cuMemcpyHtoD(d, src, N));   /* cuMemcpyHtoD_v2 */
    CU_EXPECT(CUDA_SUCCESS, cuMemcpyDtoD(d2, d, N));    /* cuMemcpyDtoD_v2 */
    CU_EXPECT(CUDA_SUCCESS, cuMemcpyDtoH(dst, d2, N));  /* cuMemcpyDtoH_v2 */
    CHECK(memcmp(src, dst, N) == 0, "HtoD/DtoD/DtoH round trip differs");

    /* Fills of each width. */
    CU_EXPECT(CUDA_SUCCESS, cuMemsetD8(d, 0xab, N));
    CU_EXPECT(CUDA_SUCCESS, cuMemsetD16(d + 4096, 0x1234, 8));
    CU_EXPECT(CUDA_SUCCESS, cuMemsetD32(d + 8192, 0xdeadbeefu, 8));
    CU_EXPECT(CUDA_SUCCESS, cuMemcpyDtoH(dst, d, N));
    int fill_ok = dst[0] == 0xab && dst[N - 1] == 0xab && dst[4095] == 0xab && dst[4096 + 16] == 0xab;
    uint16_t h16;
    uint32_t h32;
    memcpy(&h16, dst + 4096 + 14, 2);
    memcpy(&h32, dst + 8192 + 28, 4);
    CHECK(fill_ok && h16 == 0x1234 && h32 == 0xdeadbeefu, "cuMemsetD8/D16/D32 results wrong");

    /* 2D copies through CUDA_MEMCPY2D, in NVIDIA's layout. */
    {
        enum { W = 100, H = 8, HOST_PITCH = 128 };
        CUdeviceptr dp = 0;
        size_t pitch = 0;
        r = cuMemAllocPitch(&dp, &pitch, W, H, 4); /* cuMemAllocPitch_v2 */
        CHECK(r == CUDA_SUCCESS && pitch >= W, "cuMemAllocPitch_v2: %s pitch %zu", cu_name(r), pitch);
        if (r == CUDA_SUCCESS) {
            CUDA_MEMCPY2D c;
            memset(&c, 0, sizeof c);
            fill(src, (size_t)W * H, 3);
            c.srcMemoryType = CU_MEMORYTYPE_HOST;
            c.srcHost = src;
            c.srcPitch = W;
            c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
            c.dstDevice = dp;
            c.dstPitch = pitch;
            c.WidthInBytes = W;
            c.Height = H;
            CU_EXPECT(CUDA_SUCCESS, cuMemcpy2D(&c)); /* cuMemcpy2D_v2 */

            memset(&c, 0, sizeof c);
            memset(dst, 0xee, (size_t)HOST_PITCH * H);
            c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
            c.srcDevice = dp;
            c.srcPitch = pitch;
            c.srcXInBytes = 10;
            c.srcY = 1;
            c.dstMemoryType = CU_MEMORYTYPE_HOST;
            c.dstHost = dst;
            c.dstPitch = HOST_PITCH;
            c.WidthInBytes = W - 10;
            c.Height = H - 1;
            CU_EXPECT(CUDA_SUCCESS, cuMemcpy2DUnaligned(&c)); /* cuMemcpy2DUnaligned_v2 */
            int ok2d = 1;
            for (int y = 0; y < H - 1 && ok2d; ++y) {
                ok2d = memcmp(dst + (size_t)y * HOST_PITCH, src + (size_t)(y + 1) * W + 10, W - 10) == 0 &&
                       dst[(size_t)y * HOST_PITCH + (W - 10)] == 0xee;
            }
            CHECK(ok2d, "cuMemcpy2D_v2 round trip with offsets and pitches differs");
            CU_EXPECT(CUDA_SUCCESS, cuMemFree(dp));
        }
    }

    /* Page-locked host memory is addressable from the device at the same address. */
    {
        void *h = NULL;
        CUdeviceptr dh = 0;
        r = cuMemAllocHost(&h, 4096); /* cuMemAllocHost_v2 */
        CHECK(r == CUDA_SUCCESS && h, "cuMemAllocHost_v2: %s", cu_name(r));
        if (r == CUDA_SUCCESS) {
            CU_EXPECT(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dh, h, 0)); /* _v2 */
            CHECK(dh == (CUdeviceptr)(uintptr_t)h, "cuMemHostGetDevicePointer_v2: %#llx for %p",
                  (unsigned long long)dh, h);
            CU_EXPECT(CUDA_SUCCESS, cuMemFreeHost(h));
        }
    }

    /* The caller's memory registered (cuMemHostRegister_v2), a 3D copy into it in NVIDIA's
     * CUDA_MEMCPY3D layout (cuMemcpy3D_v2), and a batch back (cuMemcpyBatchAsync_v2). */
    {
        enum { W = 16, H = 4, D = 3 };
        unsigned char *reg = src + 4096; /* src is 1 MiB from malloc: a page inside it */
        reg = (unsigned char *)(((uintptr_t)reg + 4095) & ~(uintptr_t)4095);
        memset(reg, 0, 8192);
        CU_EXPECT(CUDA_SUCCESS, cuMemHostRegister(reg, 8192, CU_MEMHOSTREGISTER_PORTABLE));
        unsigned int flags = 0;
        CU_EXPECT(CUDA_SUCCESS, cuMemHostGetFlags(&flags, reg + 100));
        CHECK(flags == (CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP), "registered flags %u", flags);
        CUDA_MEMCPY3D c;
        memset(&c, 0, sizeof c);
        fill(dst, (size_t)W * H * D, 5);
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = dst;
        c.srcPitch = W;
        c.srcHeight = H;
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = (CUdeviceptr)(uintptr_t)reg;
        c.dstPitch = 64;
        c.dstHeight = H + 1;
        c.dstZ = 1;
        c.WidthInBytes = W;
        c.Height = H;
        c.Depth = D;
        CU_EXPECT(CUDA_SUCCESS, cuMemcpy3D(&c));
        int ok3d = 1;
        for (int z = 0; z < D && ok3d; ++z)
            for (int y = 0; y < H && ok3d; ++y)
                ok3d = memcmp(reg + ((size_t)(z + 1) * (H + 1) + y) * 64, dst + ((size_t)z * H + y) * W, W) == 0;
        CHECK(ok3d && reg[0] == 0, "cuMemcpy3D_v2 into registered memory differs");
        CUstream s = NULL;
        CU_EXPECT(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
        CUdeviceptr dsts[1] = {(CUdeviceptr)(uintptr_t)dst}, srcs[1] = {(CUdeviceptr)(uintptr_t)reg + 64 * (H + 1)};
        size_t sizes[1] = {W};
        CUmemcpyAttributes attr;
        memset(&attr, 0, sizeof attr);
        attr.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
        size_t idx = 0;
        memset(dst, 0, W);
        CU_EXPECT(CUDA_SUCCESS, cuMemcpyBatchAsync(dsts, srcs, sizes, 1, &attr, &idx, 1, s));
        CU_EXPECT(CUDA_SUCCESS, cuStreamSynchronize(s));
        CHECK(memcmp(dst, reg + 64 * (H + 1), W) == 0, "cuMemcpyBatchAsync_v2 differs");
        CU_EXPECT(CUDA_SUCCESS, cuStreamDestroy(s));
        CU_EXPECT(CUDA_SUCCESS, cuMemHostUnregister(reg));
    }

    CU_EXPECT(CUDA_SUCCESS, cuMemFree(d2)); /* cuMemFree_v2 */
    d2 = 0;
out:
    if (d)
        CU_EXPECT(CUDA_SUCCESS, cuMemFree(d));
    if (d2)
        cuMemFree(d2);
    free(src);
    free(dst);
}

static void driver_stream(void)
{
    enum { N = 65536 };
    static unsigned char src[N], dst[N];
    CUstream s = NULL;
    CUevent e0 = NULL, e1 = NULL;
    CUdeviceptr d = 0;
    volatile int ran = 0;

    CU_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU_OK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CU_OK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    CU_OK(cuMemAlloc(&d, N));
    fill(src, N, 11);
    CU_EXPECT(CUDA_SUCCESS, cuEventRecord(e0, s));
    CU_EXPECT(CUDA_SUCCESS, cuMemcpyHtoDAsync(d, src, N, s)); /* cuMemcpyHtoDAsync_v2 */
    CU_EXPECT(CUDA_SUCCESS, cuMemsetD8Async(d, 0x5a, 16, s));
    CU_EXPECT(CUDA_SUCCESS, cuMemcpyDtoHAsync(dst, d, N, s)); /* cuMemcpyDtoHAsync_v2 */
    CU_EXPECT(CUDA_SUCCESS, cuLaunchHostFunc(s, host_fn, (void *)&ran));
    CU_EXPECT(CUDA_SUCCESS, cuEventRecord(e1, s));
    CU_EXPECT(CUDA_SUCCESS, cuStreamSynchronize(s));
    CU_EXPECT(CUDA_SUCCESS, cuStreamQuery(s));
    CU_EXPECT(CUDA_SUCCESS, cuEventQuery(e1));
    CHECK(ran == 1, "cuLaunchHostFunc: the host function did not run");
    CHECK(dst[0] == 0x5a && dst[15] == 0x5a && memcmp(src + 16, dst + 16, N - 16) == 0,
          "stream-ordered copies differ");
    float ms = -1.0f;
    CU_EXPECT(CUDA_SUCCESS, cuEventElapsedTime(&ms, e0, e1)); /* cuEventElapsedTime_v2 */
    CHECK(ms >= 0.0f, "cuEventElapsedTime_v2: %f ms", (double)ms);

    CU_EXPECT(CUDA_SUCCESS, cuMemFree(d));
    CU_EXPECT(CUDA_SUCCESS, cuEventDestroy(e0)); /* cuEventDestroy_v2 */
    CU_EXPECT(CUDA_SUCCESS, cuEventDestroy(e1));
    CU_EXPECT(CUDA_SUCCESS, cuStreamDestroy(s)); /* cuStreamDestroy_v2 */
}

static void driver_proc_address(CUdevice dev)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;

    /* cuGetProcAddress_v2: what a loader or a runtime does to find each entry point. */
    CU_OK(cuGetProcAddress("cuMemAlloc", &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &st));
    CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS && fn, "cuGetProcAddress(cuMemAlloc): status %d", (int)st);
    if (fn) {
        CUdeviceptr d = 0;
        CU_EXPECT(CUDA_SUCCESS, ((PFN_cuMemAlloc_v3020)fn)(&d, 4096));
        if (d)
            CU_EXPECT(CUDA_SUCCESS, cuMemFree(d));
    }

    fn = NULL;
    CU_OK(cuGetProcAddress("cuCtxCreate", &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &st));
    CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS && fn, "cuGetProcAddress(cuCtxCreate): status %d", (int)st);
    if (fn) {
        /* At CUDA 13.0 "cuCtxCreate" is the 12.5 form, cuCtxCreate_v4. */
        CUcontext c = NULL, prev = NULL;
        CU_EXPECT(CUDA_SUCCESS, cuCtxGetCurrent(&prev));
        CU_EXPECT(CUDA_SUCCESS, ((PFN_cuCtxCreate_v12050)fn)(&c, NULL, 0, dev));
        if (c) {
            CU_EXPECT(CUDA_SUCCESS, cuCtxDestroy(c));
            CU_EXPECT(CUDA_SUCCESS, cuCtxSetCurrent(prev));
        }
    }

    /* A name the driver lacks: the real driver answers CUDA_SUCCESS and says so in the
     * status, with pfn NULL (docs/driver-observations.md §12). */
    fn = (void *)&st;
    CU_EXPECT(CUDA_SUCCESS,
              cuGetProcAddress("cuNoSuchEntryPoint", &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &st));
    CHECK(st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND && fn == NULL,
          "cuGetProcAddress(cuNoSuchEntryPoint): status %d, pfn %p", (int)st, fn);
}

static void driver_errors(void)
{
    const char *s = NULL;
    CU_EXPECT(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s));
    CHECK(s && strcmp(s, "CUDA_ERROR_INVALID_VALUE") == 0, "cuGetErrorName: %s", s ? s : "NULL");
    s = NULL;
    CU_EXPECT(CUDA_SUCCESS, cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &s));
    CHECK(s && s[0], "cuGetErrorString: empty");
}

static void run_driver(void)
{
    CUdevice dev = -1;
    CUcontext ctx = NULL, cur = NULL;
    driver_errors();
    driver_device(&dev);
    if (failures)
        return;

    CU_OK(cuCtxCreate(&ctx, NULL, 0, dev)); /* cuCtxCreate_v4 */
    CU_EXPECT(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
    CHECK(cur == ctx, "cuCtxCreate_v4 did not make the context current");
    CUdevice cdev = -1;
    CU_EXPECT(CUDA_SUCCESS, cuCtxGetDevice(&cdev));
    CHECK(cdev == dev, "cuCtxGetDevice: %d", cdev);
    unsigned int api = 0;
    CU_EXPECT(CUDA_SUCCESS, cuCtxGetApiVersion(ctx, &api));
    CHECK(api >= 3020, "cuCtxGetApiVersion: %u", api);

    /* Push and pop: cuCtxPopCurrent_v2, cuCtxPushCurrent_v2. */
    CUcontext popped = NULL;
    CU_EXPECT(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
    CHECK(popped == ctx, "cuCtxPopCurrent_v2 popped %p", (void *)popped);
    CU_EXPECT(CUDA_SUCCESS, cuCtxPushCurrent(ctx));

    driver_memory();
    driver_stream();
    driver_proc_address(dev);

    CU_EXPECT(CUDA_SUCCESS, cuCtxSynchronize());
    CU_EXPECT(CUDA_SUCCESS, cuCtxDestroy(ctx)); /* cuCtxDestroy_v2 */
}

/* ---- runtime API ------------------------------------------------------------------ */

#define RUNTIME_FUNCTIONS(X)                                                              \
    X(cudaDriverGetVersion) X(cudaRuntimeGetVersion) X(cudaGetDeviceCount) X(cudaSetDevice) \
    X(cudaGetDevice) X(cudaGetDeviceProperties) X(cudaDeviceGetAttribute) X(cudaMalloc)   \
    X(cudaFree) X(cudaMemcpy) X(cudaMemset) X(cudaMemcpyAsync) X(cudaStreamCreate)        \
    X(cudaStreamSynchronize) X(cudaStreamDestroy) X(cudaDeviceSynchronize)               \
    X(cudaGetErrorName) X(cudaGetErrorString) X(cudaGetLastError)

/* Weak: a missing runtime function is a null address here rather than a link error. */
#pragma weak cudaDriverGetVersion
#pragma weak cudaRuntimeGetVersion
#pragma weak cudaGetDeviceCount
#pragma weak cudaSetDevice
#pragma weak cudaGetDevice
#pragma weak cudaGetDeviceProperties
#pragma weak cudaDeviceGetAttribute
#pragma weak cudaMalloc
#pragma weak cudaFree
#pragma weak cudaMemcpy
#pragma weak cudaMemset
#pragma weak cudaMemcpyAsync
#pragma weak cudaStreamCreate
#pragma weak cudaStreamSynchronize
#pragma weak cudaStreamDestroy
#pragma weak cudaDeviceSynchronize
#pragma weak cudaGetErrorName
#pragma weak cudaGetErrorString
#pragma weak cudaGetLastError

static int runtime_present(void)
{
    int missing = 0;
#define PRESENT(fn)                                                                       \
    if ((void (*)(void))(fn) == NULL) {                                                   \
        fail(__FILE__, __LINE__, "the library does not export the runtime function %s", #fn); \
        missing++;                                                                        \
    }
    RUNTIME_FUNCTIONS(PRESENT)
#undef PRESENT
    return missing == 0;
}

static const char *rt_name(cudaError_t e)
{
    const char *s = cudaGetErrorName(e);
    return s ? s : "(null)";
}

#define RT_OK(call)                                                                  \
    do {                                                                             \
        cudaError_t e_ = (call);                                                     \
        if (e_ != cudaSuccess) {                                                     \
            fail(__FILE__, __LINE__, "%s returned %s (%d)", #call, rt_name(e_), (int)e_); \
            return;                                                                  \
        }                                                                            \
    } while (0)

#define RT_EXPECT(expected, call)                                                    \
    do {                                                                             \
        cudaError_t e_ = (call);                                                     \
        CHECK(e_ == (expected), "%s returned %s, expected %s", #call, rt_name(e_),   \
              rt_name(expected));                                                    \
    } while (0)

/* Each cudaDeviceProp field that one driver attribute also reports, as cudart fills it. */
#define PROP_ATTRS(X)                                                                     \
    X(sharedMemPerBlock, MAX_SHARED_MEMORY_PER_BLOCK) X(regsPerBlock, MAX_REGISTERS_PER_BLOCK) \
    X(warpSize, WARP_SIZE) X(memPitch, MAX_PITCH) X(maxThreadsPerBlock, MAX_THREADS_PER_BLOCK) \
    X(maxThreadsDim[0], MAX_BLOCK_DIM_X) X(maxThreadsDim[1], MAX_BLOCK_DIM_Y)            \
    X(maxThreadsDim[2], MAX_BLOCK_DIM_Z) X(maxGridSize[0], MAX_GRID_DIM_X)               \
    X(maxGridSize[1], MAX_GRID_DIM_Y) X(maxGridSize[2], MAX_GRID_DIM_Z)                  \
    X(totalConstMem, TOTAL_CONSTANT_MEMORY) X(major, COMPUTE_CAPABILITY_MAJOR)           \
    X(minor, COMPUTE_CAPABILITY_MINOR) X(textureAlignment, TEXTURE_ALIGNMENT)            \
    X(texturePitchAlignment, TEXTURE_PITCH_ALIGNMENT) X(multiProcessorCount, MULTIPROCESSOR_COUNT) \
    X(integrated, INTEGRATED) X(canMapHostMemory, CAN_MAP_HOST_MEMORY)                   \
    X(maxTexture1D, MAXIMUM_TEXTURE1D_WIDTH) X(maxTexture1DMipmap, MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH) \
    X(maxTexture2D[0], MAXIMUM_TEXTURE2D_WIDTH) X(maxTexture2D[1], MAXIMUM_TEXTURE2D_HEIGHT) \
    X(maxTexture3D[0], MAXIMUM_TEXTURE3D_WIDTH) X(maxTexture3D[1], MAXIMUM_TEXTURE3D_HEIGHT) \
    X(maxTexture3D[2], MAXIMUM_TEXTURE3D_DEPTH) X(maxSurface1D, MAXIMUM_SURFACE1D_WIDTH) \
    X(maxSurface2D[0], MAXIMUM_SURFACE2D_WIDTH) X(maxSurface2D[1], MAXIMUM_SURFACE2D_HEIGHT) \
    X(surfaceAlignment, SURFACE_ALIGNMENT) X(concurrentKernels, CONCURRENT_KERNELS)      \
    X(ECCEnabled, ECC_ENABLED) X(pciBusID, PCI_BUS_ID) X(pciDeviceID, PCI_DEVICE_ID)     \
    X(pciDomainID, PCI_DOMAIN_ID) X(tccDriver, TCC_DRIVER) X(asyncEngineCount, ASYNC_ENGINE_COUNT) \
    X(unifiedAddressing, UNIFIED_ADDRESSING) X(memoryBusWidth, GLOBAL_MEMORY_BUS_WIDTH)  \
    X(l2CacheSize, L2_CACHE_SIZE) X(persistingL2CacheMaxSize, MAX_PERSISTING_L2_CACHE_SIZE) \
    X(maxThreadsPerMultiProcessor, MAX_THREADS_PER_MULTIPROCESSOR)                        \
    X(streamPrioritiesSupported, STREAM_PRIORITIES_SUPPORTED)                             \
    X(globalL1CacheSupported, GLOBAL_L1_CACHE_SUPPORTED) X(localL1CacheSupported, LOCAL_L1_CACHE_SUPPORTED) \
    X(sharedMemPerMultiprocessor, MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)                   \
    X(regsPerMultiprocessor, MAX_REGISTERS_PER_MULTIPROCESSOR) X(managedMemory, MANAGED_MEMORY) \
    X(isMultiGpuBoard, MULTI_GPU_BOARD) X(multiGpuBoardGroupID, MULTI_GPU_BOARD_GROUP_ID) \
    X(hostNativeAtomicSupported, HOST_NATIVE_ATOMIC_SUPPORTED)                            \
    X(pageableMemoryAccess, PAGEABLE_MEMORY_ACCESS) X(concurrentManagedAccess, CONCURRENT_MANAGED_ACCESS) \
    X(computePreemptionSupported, COMPUTE_PREEMPTION_SUPPORTED)                           \
    X(canUseHostPointerForRegisteredMem, CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM)         \
    X(cooperativeLaunch, COOPERATIVE_LAUNCH) X(sharedMemPerBlockOptin, MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) \
    X(pageableMemoryAccessUsesHostPageTables, PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES) \
    X(directManagedMemAccessFromHost, DIRECT_MANAGED_MEM_ACCESS_FROM_HOST)                \
    X(maxBlocksPerMultiProcessor, MAX_BLOCKS_PER_MULTIPROCESSOR)                          \
    X(accessPolicyMaxWindowSize, MAX_ACCESS_POLICY_WINDOW_SIZE)                           \
    X(reservedSharedMemPerBlock, RESERVED_SHARED_MEMORY_PER_BLOCK)                        \
    X(hostRegisterSupported, HOST_REGISTER_SUPPORTED)                                     \
    X(sparseCudaArraySupported, SPARSE_CUDA_ARRAY_SUPPORTED)                              \
    X(hostRegisterReadOnlySupported, READ_ONLY_HOST_REGISTER_SUPPORTED)                   \
    X(timelineSemaphoreInteropSupported, TIMELINE_SEMAPHORE_INTEROP_SUPPORTED)            \
    X(memoryPoolsSupported, MEMORY_POOLS_SUPPORTED) X(gpuDirectRDMASupported, GPU_DIRECT_RDMA_SUPPORTED) \
    X(gpuDirectRDMAFlushWritesOptions, GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS)              \
    X(gpuDirectRDMAWritesOrdering, GPU_DIRECT_RDMA_WRITES_ORDERING)                       \
    X(memoryPoolSupportedHandleTypes, MEMPOOL_SUPPORTED_HANDLE_TYPES)                     \
    X(deferredMappingCudaArraySupported, DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED)           \
    X(ipcEventSupported, IPC_EVENT_SUPPORTED) X(clusterLaunch, CLUSTER_LAUNCH)            \
    X(unifiedFunctionPointers, UNIFIED_FUNCTION_POINTERS) X(deviceNumaConfig, NUMA_CONFIG) \
    X(deviceNumaId, NUMA_ID) X(mpsEnabled, MPS_ENABLED) X(hostNumaId, HOST_NUMA_ID)       \
    X(gpuPciDeviceID, GPU_PCI_DEVICE_ID) X(gpuPciSubsystemID, GPU_PCI_SUBSYSTEM_ID)       \
    X(hostNumaMultinodeIpcSupported, HOST_NUMA_MULTINODE_IPC_SUPPORTED)

static void runtime_properties(void)
{
    struct cudaDeviceProp prop;
    CUdevice dev = -1;
    memset(&prop, 0x5c, sizeof prop); /* a field left unwritten then differs from its attribute */
    RT_OK(cudaGetDeviceProperties(&prop, 0));
    CU_OK(cuInit(0));
    CU_OK(cuDeviceGet(&dev, 0));

    char name[256] = {0};
    CU_OK(cuDeviceGetName(name, (int)sizeof name, dev));
    CHECK(memchr(prop.name, '\0', sizeof prop.name) && strcmp(prop.name, name) == 0,
          "cudaDeviceProp.name \"%.255s\", driver \"%s\"", prop.name, name);

    size_t total = 0;
    CU_OK(cuDeviceTotalMem(&total, dev));
    CHECK(prop.totalGlobalMem == total, "totalGlobalMem %zu, driver %zu", prop.totalGlobalMem, total);

    CUuuid uuid;
    CU_OK(cuDeviceGetUuid(&uuid, dev));
    CHECK(memcmp(prop.uuid.bytes, uuid.bytes, sizeof uuid.bytes) == 0,
          "cudaDeviceProp.uuid differs from cuDeviceGetUuid_v2");

    char luid[8];
    unsigned int mask = 0;
    if (cuDeviceGetLuid(luid, &mask, dev) == CUDA_SUCCESS) {
        CHECK(memcmp(prop.luid, luid, sizeof luid) == 0 && prop.luidDeviceNodeMask == mask,
              "cudaDeviceProp.luid/luidDeviceNodeMask differ from cuDeviceGetLuid");
    }

    int v = 0;
#define PROP_ATTR(field, attr)                                                            \
    if (cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_##attr, dev) == CUDA_SUCCESS) {      \
        CHECK((long long)prop.field == (long long)v, "cudaDeviceProp." #field " %lld, "   \
              "CU_DEVICE_ATTRIBUTE_" #attr " %d", (long long)prop.field, v);              \
    } else {                                                                              \
        CHECK(0, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_" #attr ") failed");           \
    }
    PROP_ATTRS(PROP_ATTR)
#undef PROP_ATTR

    /* The runtime's own attribute query agrees. */
    RT_EXPECT(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    CHECK(v == prop.warpSize, "cudaDevAttrWarpSize %d, prop %d", v, prop.warpSize);
    RT_EXPECT(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    CHECK(v == prop.multiProcessorCount, "cudaDevAttrMultiProcessorCount %d, prop %d", v,
          prop.multiProcessorCount);
    RT_EXPECT(cudaSuccess, cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK(v == prop.major, "cudaDevAttrComputeCapabilityMajor %d, prop %d", v, prop.major);
}

static void runtime_memory(void)
{
    enum { N = 1 << 20 };
    static unsigned char src[N], dst[N];
    void *p = NULL, *q = NULL;
    cudaStream_t s = NULL;

    RT_OK(cudaMalloc(&p, N));
    RT_OK(cudaMalloc(&q, N));
    fill(src, N, 5);
    RT_EXPECT(cudaSuccess, cudaMemcpy(p, src, N, cudaMemcpyHostToDevice));
    RT_EXPECT(cudaSuccess, cudaMemcpy(q, p, N, cudaMemcpyDeviceToDevice));
    RT_EXPECT(cudaSuccess, cudaMemcpy(dst, q, N, cudaMemcpyDefault));
    CHECK(memcmp(src, dst, N) == 0, "cudaMemcpy round trip differs");

    RT_EXPECT(cudaSuccess, cudaMemset(p, 0x77, 64));
    RT_EXPECT(cudaSuccess, cudaMemcpy(dst, p, 128, cudaMemcpyDeviceToHost));
    CHECK(dst[0] == 0x77 && dst[63] == 0x77 && dst[64] == src[64], "cudaMemset result wrong");

    /* A runtime allocation is a driver pointer in the current (primary) context. */
    memset(dst, 0, 256);
    CU_EXPECT(CUDA_SUCCESS, cuMemcpyDtoH(dst, (CUdeviceptr)(uintptr_t)q, 256));
    CHECK(memcmp(dst, src, 256) == 0, "cuMemcpyDtoH_v2 of a cudaMalloc pointer differs");

    RT_EXPECT(cudaSuccess, cudaStreamCreate(&s));
    if (s) {
        fill(src, N, 9);
        RT_EXPECT(cudaSuccess, cudaMemcpyAsync(p, src, N, cudaMemcpyHostToDevice, s));
        RT_EXPECT(cudaSuccess, cudaMemcpyAsync(dst, p, N, cudaMemcpyDeviceToHost, s));
        RT_EXPECT(cudaSuccess, cudaStreamSynchronize(s));
        CHECK(memcmp(src, dst, N) == 0, "cudaMemcpyAsync round trip differs");
        RT_EXPECT(cudaSuccess, cudaStreamDestroy(s));
    }
    RT_EXPECT(cudaSuccess, cudaDeviceSynchronize());
    RT_EXPECT(cudaSuccess, cudaFree(p));
    RT_EXPECT(cudaSuccess, cudaFree(q));
}

static void runtime_errors(void)
{
    const char *s = cudaGetErrorName(cudaErrorInvalidValue);
    CHECK(s && strcmp(s, "cudaErrorInvalidValue") == 0, "cudaGetErrorName: %s", s ? s : "NULL");
    s = cudaGetErrorString(cudaErrorMemoryAllocation);
    CHECK(s && s[0], "cudaGetErrorString: empty");

    /* A failure is remembered until cudaGetLastError reads it. */
    cudaGetLastError();
    RT_EXPECT(cudaErrorInvalidDevice, cudaSetDevice(1 << 20));
    RT_EXPECT(cudaErrorInvalidDevice, cudaGetLastError());
    RT_EXPECT(cudaSuccess, cudaGetLastError());
}

static void run_runtime(void)
{
    if (!runtime_present())
        return;
    int v = 0, count = 0, dev = -1;
    RT_EXPECT(cudaSuccess, cudaDriverGetVersion(&v));
    CHECK(v >= CUDART_VERSION, "cudaDriverGetVersion %d, headers %d", v, CUDART_VERSION);
    RT_EXPECT(cudaSuccess, cudaRuntimeGetVersion(&v));
    CHECK(v > 0, "cudaRuntimeGetVersion %d", v);
    RT_OK(cudaGetDeviceCount(&count));
    CHECK(count >= 1, "cudaGetDeviceCount %d", count);
    RT_OK(cudaSetDevice(0));
    RT_EXPECT(cudaSuccess, cudaGetDevice(&dev));
    CHECK(dev == 0, "cudaGetDevice %d", dev);

    runtime_errors();
    runtime_properties();
    runtime_memory();
}

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "";
    if (strcmp(part, "driver") == 0) {
        run_driver();
    } else if (strcmp(part, "runtime") == 0) {
        run_runtime();
    } else {
        fprintf(stderr, "usage: %s driver|runtime\n", argv[0]);
        return 2;
    }
    if (failures) {
        fprintf(stderr, "%s: %d failures\n", part, failures);
        return 1;
    }
    printf("%s: built against NVIDIA's CUDA %d headers: all checks passed\n", part, CUDA_VERSION);
    return 0;
}
