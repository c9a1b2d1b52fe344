/*
 * family_probe.c - NVIDIA's driver answers for the families of the whole-surface issue (22):
 * contexts, host registration, device queries, stream priorities and ids, the profiler, the
 * legacy launch path, function queries, memory pools (and their export), managed ranges,
 * pitched allocations, the logs API, and every device attribute.
 * Each line: the call as written, then the driver's code and what it wrote.
 * Built against NVIDIA's cuda.h: gcc -std=gnu11 family_probe.c -I/usr/local/cuda/include -lcuda
 * argv[1]: a cubin holding `extern "C" __global__ void add(int *p, int v, float f)`.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cudaProfiler.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    if (cuGetErrorName(r, &n))
        return "(unnamed)";
    return n;
}
#define P(call) printf("%-70s -> %s\n", #call, rn(call))
#define PV(call, fmt, ...) do { CUresult r_ = (call); printf("%-70s -> %s " fmt "\n", #call, rn(r_), __VA_ARGS__); } while (0)

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUdevice dev = 0;
    CUcontext ctx = NULL, c2 = NULL;
    P(cuCtxDestroy(NULL));
    P(cuInit(0));
    P(cuDeviceGet(&dev, 0));
    P(cuCtxDestroy(NULL));
    P(cuCtxCreate(&ctx, NULL, 0, dev));

    /* ---- contexts ---- */
    P(cuCtxAttach(&c2, 0));
    printf("  attached %s current\n", c2 == ctx ? "==" : "!=");
    P(cuCtxAttach(&c2, 1));
    P(cuCtxAttach(NULL, 0));
    P(cuCtxDetach(ctx));
    P(cuCtxDetach(NULL));
    unsigned long long id = 0;
    PV(cuCtxGetId(ctx, &id), "id=%llu", id);
    PV(cuCtxGetId(NULL, &id), "id=%llu", id);
    P(cuCtxGetId(ctx, NULL));
    unsigned int fl = 99;
    PV(cuCtxGetFlags(&fl), "flags=%u", fl);
    P(cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC));
    PV(cuCtxGetFlags(&fl), "flags=%u", fl);
    P(cuCtxSetFlags(CU_CTX_MAP_HOST));
    P(cuCtxSetFlags(0x80000));
    P(cuCtxSetFlags(CU_CTX_SCHED_AUTO));
    CUfunc_cache cc = 99;
    PV(cuCtxGetCacheConfig(&cc), "%d", (int)cc);
    P(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED));
    PV(cuCtxGetCacheConfig(&cc), "%d", (int)cc);
    P(cuCtxSetCacheConfig((CUfunc_cache)7));
    CUsharedconfig sc = 99;
    PV(cuCtxGetSharedMemConfig(&sc), "%d", (int)sc);
    P(cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
    PV(cuCtxGetSharedMemConfig(&sc), "%d", (int)sc);
    P(cuCtxSetSharedMemConfig((CUsharedconfig)9));
    int lo = 99, hi = 99;
    PV(cuCtxGetStreamPriorityRange(&lo, &hi), "least=%d greatest=%d", lo, hi);
    P(cuCtxGetStreamPriorityRange(NULL, NULL));
    P(cuCtxResetPersistingL2Cache());
    CUevent ev;
    P(cuEventCreate(&ev, 0));
    P(cuCtxRecordEvent(ctx, ev));
    P(cuCtxWaitEvent(ctx, ev));
    P(cuCtxRecordEvent(NULL, ev));
    unsigned int ver = 0;
    PV(cuCtxGetApiVersion(ctx, &ver), "%u", ver);
    CUexecAffinityParam aff;
    P(cuCtxGetExecAffinity(&aff, CU_EXEC_AFFINITY_TYPE_SM_COUNT));
    printf("  sm count %u\n", aff.param.smCount.val);

    /* ---- streams ---- */
    CUstream s1, s2, s3;
    P(cuStreamCreateWithPriority(&s1, 0, -100));
    int pr = 99;
    PV(cuStreamGetPriority(s1, &pr), "priority=%d", pr);
    P(cuStreamCreateWithPriority(&s2, 0, 100));
    PV(cuStreamGetPriority(s2, &pr), "priority=%d", pr);
    P(cuStreamCreateWithPriority(&s3, 0, -3));
    PV(cuStreamGetPriority(s3, &pr), "priority=%d", pr);
    PV(cuStreamGetPriority(NULL, &pr), "legacy priority=%d", pr);
    unsigned long long sid = 0, sid2 = 0;
    PV(cuStreamGetId(s1, &sid), "%llu", sid);
    PV(cuStreamGetId(s2, &sid2), "%llu", sid2);
    PV(cuStreamGetId(NULL, &sid), "legacy %llu", sid);
    PV(cuStreamGetId(CU_STREAM_PER_THREAD, &sid), "per-thread %llu", sid);
    PV(cuStreamGetId(CU_STREAM_LEGACY, &sid), "CU_STREAM_LEGACY %llu", sid);
    CUcontext sc_ctx;
    CUgreenCtx gctx;
    P(cuStreamGetCtx_v2(s1, &sc_ctx, &gctx));
    CUdevice sdev = 99;
    PV(cuStreamGetDevice(s1, &sdev), "%d", sdev);

    /* ---- device queries ---- */
    int maj = 0, min = 0;
    PV(cuDeviceComputeCapability(&maj, &min, dev), "%d.%d", maj, min);
    P(cuDeviceComputeCapability(&maj, &min, 5));
    P(cuDeviceComputeCapability(NULL, &min, dev));
    CUdevprop prop;
    memset(&prop, 0, sizeof prop);
    PV(cuDeviceGetProperties(&prop, dev), "maxThreadsPerBlock=%d maxThreadsDim=%d,%d,%d maxGridSize=%d,%d,%d sharedMemPerBlock=%d totalConstantMemory=%d SIMDWidth=%d memPitch=%d regsPerBlock=%d clockRate=%d textureAlign=%d",
       prop.maxThreadsPerBlock, prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2], prop.maxGridSize[0],
       prop.maxGridSize[1], prop.maxGridSize[2], prop.sharedMemPerBlock, prop.totalConstantMemory, prop.SIMDWidth,
       prop.memPitch, prop.regsPerBlock, prop.clockRate, prop.textureAlign);
    size_t tm = 0;
    PV(cuDeviceTotalMem(&tm, dev), "%zu", tm);
    char bus[64] = "";
    PV(cuDeviceGetPCIBusId(bus, sizeof bus, dev), "%s", bus);
    PV(cuDeviceGetPCIBusId(bus, 5, dev), "short buffer: '%s'", bus);
    P(cuDeviceGetPCIBusId(bus, 0, dev));
    P(cuDeviceGetPCIBusId(bus, -1, dev));
    CUdevice byid = 99;
    cuDeviceGetPCIBusId(bus, sizeof bus, dev);
    PV(cuDeviceGetByPCIBusId(&byid, bus), "%d", byid);
    PV(cuDeviceGetByPCIBusId(&byid, "0000:ff:1f.0"), "%d", byid);
    P(cuDeviceGetByPCIBusId(&byid, "garbage"));
    P(cuDeviceGetByPCIBusId(&byid, NULL));
    int can = 99;
    PV(cuDeviceCanAccessPeer(&can, dev, dev), "%d", can);
    P(cuDeviceCanAccessPeer(&can, dev, 1));
    int pv = 99;
    PV(cuDeviceGetP2PAttribute(&pv, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, dev, dev), "%d", pv);
    P(cuCtxEnablePeerAccess(ctx, 0));
    P(cuCtxDisablePeerAccess(ctx));
    size_t w = 0;
    PV(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 4, dev), "%zu", w);
    PV(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_UNSIGNED_INT8, 1, dev), "%zu", w);
    P(cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 3, dev));
    CUmemoryPool dpool = NULL;
    P(cuDeviceGetDefaultMemPool(&dpool, dev));
    CUmemoryPool cpool = NULL;
    P(cuDeviceGetMemPool(&cpool, dev));
    printf("  default %s current\n", dpool == cpool ? "==" : "!=");
    int nvsci = 99;
    P(cuDeviceGetNvSciSyncAttributes(&nvsci, dev, 0));
    /* ---- every attribute ---- */
    for (int a = 1; a < 160; ++a) {
        int v = 0;
        CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, dev);
        printf("A %d %s %d\n", a, rn(r), v);
    }

    /* ---- profiler ---- */
    P(cuProfilerStart());
    P(cuProfilerStop());
    P(cuProfilerStop());

    /* ---- host registration ---- */
    size_t pg = 4096, len = 16 * pg;
    char *h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    P(cuMemHostRegister(h, 4 * pg, 0));
    P(cuMemHostRegister(h, 4 * pg, 0));
    P(cuMemHostRegister(h + pg, pg, 0));
    P(cuMemHostRegister(h + 3 * pg, 2 * pg, 0));
    P(cuMemHostRegister(h + 8 * pg, 0, 0));
    P(cuMemHostRegister(NULL, pg, 0));
    P(cuMemHostRegister(h + 8 * pg, pg, 0x100));
    P(cuMemHostRegister(h + 8 * pg + 1, 100, 0));
    P(cuMemHostUnregister(h + 8 * pg + 1));
    P(cuMemHostRegister(h + 10 * pg, pg, CU_MEMHOSTREGISTER_IOMEMORY));
    P(cuMemHostRegister(h + 11 * pg, pg, CU_MEMHOSTREGISTER_READ_ONLY));
    P(cuMemHostRegister(h + 12 * pg, pg, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP));
    unsigned int hf = 99;
    PV(cuMemHostGetFlags(&hf, h), "%u", hf);
    PV(cuMemHostGetFlags(&hf, h + 12 * pg), "%u", hf);
    PV(cuMemHostGetFlags(&hf, h + 11 * pg), "%u", hf);
    PV(cuMemHostGetFlags(&hf, h + 13 * pg), "unregistered %u", hf);
    CUdeviceptr hd = 0;
    PV(cuMemHostGetDevicePointer(&hd, h + pg, 0), "%s", hd == (CUdeviceptr)(h + pg) ? "same address" : "other address");
    PV(cuMemHostGetDevicePointer(&hd, h + 13 * pg, 0), "unregistered %llx", (unsigned long long)hd);
    CUmemorytype mt = 0;
    PV(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(h + pg)), "memtype=%d", (int)mt);
    int ishost = 99;
    PV(cuPointerGetAttribute(&ishost, CU_POINTER_ATTRIBUTE_IS_MANAGED, (CUdeviceptr)(h + pg)), "managed=%d", ishost);
    void *hp = NULL;
    PV(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, (CUdeviceptr)(h + pg)), "%s", hp == h + pg ? "same" : "other");
    CUdeviceptr base = 0;
    size_t rsz = 0;
    PV(cuMemGetAddressRange(&base, &rsz, (CUdeviceptr)(h + pg)), "base=%s size=%zu", base == (CUdeviceptr)h ? "h" : "?", rsz);
    CUdeviceptr dmem;
    cuMemAlloc(&dmem, 1 << 20);
    P(cuMemcpyHtoD(dmem, h + pg, 100));
    P(cuMemcpy(dmem, (CUdeviceptr)(h + pg), 100));
    P(cuMemsetD8((CUdeviceptr)(h + pg), 7, 100));
    printf("  byte after memset %d\n", h[pg]);
    P(cuMemHostUnregister(h + pg));
    P(cuMemHostUnregister(h));
    P(cuMemHostUnregister(h));
    P(cuMemHostUnregister(h + 13 * pg));
    P(cuMemHostUnregister(NULL));
    void *ah = NULL;
    cuMemHostAlloc(&ah, pg, 0);
    P(cuMemHostRegister(ah, pg, 0));
    P(cuMemHostRegister((void *)(uintptr_t)dmem, pg, 0));

    /* ---- pitched ---- */
    size_t pitch = 0;
    CUdeviceptr pd;
    for (size_t wb = 1; wb <= 2049; wb = wb * 2 + 1) {
        for (unsigned es = 4; es <= 16; es *= 2) {
            pitch = 0;
            CUresult r = cuMemAllocPitch(&pd, &pitch, wb, 3, es);
            printf("cuMemAllocPitch(w=%zu, h=3, elem=%u) -> %s pitch=%zu\n", wb, es, rn(r), pitch);
            if (!r)
                cuMemFree(pd);
        }
    }
    P(cuMemAllocPitch(&pd, &pitch, 16, 3, 3));
    P(cuMemAllocPitch(&pd, &pitch, 0, 3, 4));
    P(cuMemAllocPitch(&pd, &pitch, 16, 0, 4));

    /* ---- legacy launch, function queries ---- */
    CUmodule mod;
    CUfunction fn;
    if (argc > 1 && !cuModuleLoad(&mod, argv[1]) && !cuModuleGetFunction(&fn, mod, "add")) {
        const char *name = NULL;
        PV(cuFuncGetName(&name, fn), "%s", name ? name : "NULL");
        for (int i = 0; i < 4; ++i) {
            size_t off = 99, sz = 99;
            PV(cuFuncGetParamInfo(fn, i, &off, &sz), "param %d offset=%zu size=%zu", i, off, sz);
        }
        CUdeviceptr out;
        cuMemAlloc(&out, 256 * 4);
        cuMemsetD32(out, 0, 256);
        P(cuFuncSetBlockShape(fn, 64, 1, 1));
        P(cuFuncSetBlockShape(fn, 2048, 1, 1));
        P(cuFuncSetSharedSize(fn, 0));
        P(cuParamSetSize(fn, 16));
        P(cuParamSetv(fn, 0, &out, 8));
        P(cuParamSeti(fn, 8, 5));
        P(cuParamSetf(fn, 12, 1.5f));
        P(cuLaunch(fn));
        P(cuLaunchGrid(fn, 2, 1));
        P(cuLaunchGridAsync(fn, 1, 1, NULL));
        P(cuCtxSynchronize());
        int hv[256];
        cuMemcpyDtoH(hv, out, sizeof hv);
        printf("  out[0]=%d out[63]=%d out[64]=%d out[127]=%d out[128]=%d\n", hv[0], hv[63], hv[64], hv[127], hv[128]);
        P(cuParamSeti(fn, 200, 5));
        P(cuParamSetv(fn, 16, &out, 8));
        P(cuParamSetv(fn, 0, NULL, 8));
        P(cuParamSetSize(fn, 5000));
        P(cuParamSetSize(fn, 20));
        P(cuLaunch(fn));
        P(cuParamSetSize(fn, 4));
        P(cuLaunch(fn));
        P(cuCtxSynchronize());
        P(cuParamSetTexRef(fn, CU_PARAM_TR_DEFAULT, NULL));
        P(cuFuncSetBlockShape(NULL, 1, 1, 1));
        P(cuLaunch(NULL));
    } else {
        printf("no cubin\n");
    }

    /* ---- managed ranges ---- */
    CUstream st;
    cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
    CUdeviceptr m;
    P(cuMemAllocManaged(&m, 1 << 20, CU_MEM_ATTACH_GLOBAL));
    int rv = 99;
    for (int a = 1; a <= 8; ++a) {
        rv = 99;
        CUresult r = cuMemRangeGetAttribute(&rv, 4, (CUmem_range_attribute)a, m, 4096);
        printf("managed range attr %d -> %s %d\n", a, rn(r), rv);
    }
    CUmemLocation dloc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    P(cuMemAdvise(m, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, dloc));
    PV(cuMemRangeGetAttribute(&rv, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096), "%d", rv);
    PV(cuMemRangeGetAttribute(&rv, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 8192), "half %d", rv);
    P(cuMemRangeGetAttribute(&rv, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, dmem, 4096));
    P(cuMemRangeGetAttribute(&rv, 3, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096));
    P(cuMemRangeGetAttribute(&rv, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0));
    P(cuMemRangeGetAttribute(&rv, 4, (CUmem_range_attribute)99, m, 4096));
    P(cuStreamAttachMemAsync(st, m, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, m, 4096, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, dmem, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, m, 0, 7));

    /* ---- memory pools ---- */
    cuuint64_t v64 = 0;
    for (int a = 1; a <= 8; ++a) {
        v64 = 0;
        CUresult r = cuMemPoolGetAttribute(dpool, (CUmemPool_attribute)a, &v64);
        printf("default pool attr %d -> %s %llu\n", a, rn(r), (unsigned long long)v64);
    }
    CUdeviceptr pa;
    P(cuMemAllocAsync(&pa, 1000, st));
    cuStreamSynchronize(st);
    for (int a = 5; a <= 8; ++a) {
        v64 = 0;
        cuMemPoolGetAttribute(dpool, (CUmemPool_attribute)a, &v64);
        printf("after 1000-byte alloc, attr %d = %llu\n", a, (unsigned long long)v64);
    }
    P(cuMemFreeAsync(pa, st));
    cuStreamSynchronize(st);
    for (int a = 5; a <= 8; ++a) {
        v64 = 0;
        cuMemPoolGetAttribute(dpool, (CUmemPool_attribute)a, &v64);
        printf("after free, attr %d = %llu\n", a, (unsigned long long)v64);
    }
    P(cuMemPoolTrimTo(dpool, 0));
    for (int a = 5; a <= 8; ++a) {
        v64 = 0;
        cuMemPoolGetAttribute(dpool, (CUmemPool_attribute)a, &v64);
        printf("after trim, attr %d = %llu\n", a, (unsigned long long)v64);
    }
    v64 = 5;
    P(cuMemPoolSetAttribute(dpool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v64));
    v64 = 0;
    P(cuMemPoolSetAttribute(dpool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v64));
    v64 = 7;
    P(cuMemPoolSetAttribute(dpool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v64));
    int fd = -1;
    P(cuMemPoolExportToShareableHandle(&fd, dpool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUmemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    pp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    pp.location.id = dev;
    CUmemoryPool xp;
    P(cuMemPoolCreate(&xp, &pp));
    PV(cuMemPoolExportToShareableHandle(&fd, xp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), "fd=%d", fd);
    P(cuMemPoolExportToShareableHandle(&fd, xp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
    P(cuMemPoolExportToShareableHandle(&fd, xp, CU_MEM_HANDLE_TYPE_FABRIC, 0));
    CUmemoryPool ip;
    P(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    printf("  fd %d after import in the exporting process: %s\n", fd, fcntl(fd, 1) >= 0 ? "open" : "closed");
    P(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)9999, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    P(cuMemAllocFromPoolAsync(&pa, 4096, xp, st));
    CUmemPoolPtrExportData ed;
    PV(cuMemPoolExportPointer(&ed, pa), "first bytes %02x%02x%02x%02x", ed.reserved[0], ed.reserved[1], ed.reserved[2], ed.reserved[3]);
    CUdeviceptr pb;
    P(cuMemAllocFromPoolAsync(&pb, 4096, dpool, st));
    cuStreamSynchronize(st);
    P(cuMemPoolExportPointer(&ed, pb));
    P(cuMemPoolExportPointer(&ed, dmem));
    CUdeviceptr imp;
    P(cuMemPoolImportPointer(&imp, xp, &ed));
    CUmemAccessDesc ad = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    P(cuMemPoolSetAccess(xp, &ad, 1));
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    CUmemAccess_flags af = 99;
    PV(cuMemPoolGetAccess(&af, xp, &loc), "%d", (int)af);
    loc.type = CU_MEM_LOCATION_TYPE_HOST;
    PV(cuMemPoolGetAccess(&af, xp, &loc), "host %d", (int)af);
    P(cuMemFreeAsync(pa, st));
    P(cuMemFreeAsync(pb, st));
    cuStreamSynchronize(st);
    P(cuMemPoolDestroy(xp));
    P(cuMemPoolDestroy(dpool));
    P(cuDeviceSetMemPool(dev, dpool));
    pp.location.type = CU_MEM_LOCATION_TYPE_HOST;
    pp.location.id = 0;
    pp.handleTypes = 0;
    P(cuMemPoolCreate(&xp, &pp));
    pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    pp.handleTypes = 0x40;
    P(cuMemPoolCreate(&xp, &pp));

    /* ---- logs ---- */
    CUlogsCallbackHandle lh;
    P(cuLogsRegisterCallback(NULL, NULL, &lh));
    char lbuf[1024];
    size_t lsz = sizeof lbuf;
    CUlogIterator it = 0;
    PV(cuLogsCurrent(&it, 0), "it=%u", (unsigned)it);
    PV(cuLogsDumpToMemory(&it, lbuf, &lsz, 0), "size=%zu", lsz);

    P(cuCtxDestroy(ctx));
    return 0;
}
