/*
 * docs/probes/pools/pool_probe.c: the driver's codes for memory-pool cases that
 * probe-pools.out (docs/probes/surface) leaves open: bad arguments of the async calls and of
 * cuMemPoolCreate/SetAccess, inner-pointer and forged/stale export data, and an exporter in
 * another process that frees or exits. Built against NVIDIA's cuda.h, linked with -lcuda:
 *   gcc -std=gnu11 -O1 pool_probe.c -I/usr/local/cuda/include -lcuda -o pool_probe
 * The exporter is a child forked before anything initialises CUDA. Its pool fd is reopened
 * through /proc/<pid>/fd here, which the driver refuses (UNKNOWN: a CUDA pool fd is not a
 * plain file); pool_ipc_probe.c passes it with SCM_RIGHTS instead. Output: pool_probe.out
 * (on an H200: the same driver as the H100's probes).
 */
#include <cuda.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

#define P(call) printf("%-70s -> %s\n", #call, rn(call))
#define PV(call, fmt, ...)                                  \
    do {                                                    \
        CUresult r_ = (call);                               \
        printf("%-70s -> %s " fmt "\n", #call, rn(r_), __VA_ARGS__); \
    } while (0)

static CUmemPoolProps props(CUmemAllocationHandleType t)
{
    CUmemPoolProps p;
    memset(&p, 0, sizeof p);
    p.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.handleTypes = t;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}

static void hex(const void *d, size_t n, char *out)
{
    for (size_t i = 0; i < n; ++i)
        sprintf(out + 2 * i, "%02x", ((const unsigned char *)d)[i]);
}

static void unhex(const char *s, void *d, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        ((unsigned char *)d)[i] = (unsigned char)v;
    }
}

static int exporter(int wr, int rd)
{
    CUcontext ctx;
    if (cuInit(0) || cuCtxCreate(&ctx, NULL, 0, 0))
        return 1;
    CUmemPoolProps pp = props(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    CUmemoryPool xp;
    if (cuMemPoolCreate(&xp, &pp))
        return 2;
    CUdeviceptr a, b, c;
    cuMemAllocFromPoolAsync(&a, 1 << 16, xp, NULL);
    cuMemAllocFromPoolAsync(&b, 1 << 16, xp, NULL);
    cuMemAllocFromPoolAsync(&c, 1 << 16, xp, NULL);
    cuMemsetD32(a, 500, (1 << 16) / 4);
    cuMemsetD32(b, 501, (1 << 16) / 4);
    cuCtxSynchronize();
    int fd = -1;
    CUmemPoolPtrExportData ea, eb, ec;
    cuMemPoolExportToShareableHandle(&fd, xp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    cuMemPoolExportPointer(&ea, a);
    cuMemPoolExportPointer(&eb, b);
    cuMemPoolExportPointer(&ec, c);
    cuMemFreeAsync(c, NULL);
    cuCtxSynchronize();
    char line[600], ha[129], hb[129], hc[129];
    hex(&ea, 64, ha);
    hex(&eb, 64, hb);
    hex(&ec, 64, hc);
    snprintf(line, sizeof line, "%d %d %s %s %s\n", (int)getpid(), fd, ha, hb, hc);
    if (write(wr, line, strlen(line)) < 0)
        return 3;
    char go;
    if (read(rd, &go, 1) < 0)
        return 4;
    _exit(0);
}

int main(void)
{
    int to_parent[2], to_child[2];
    if (pipe(to_parent) || pipe(to_child))
        return 1;
    pid_t child = fork();
    if (child == 0)
        return exporter(to_parent[1], to_child[0]);

    CUcontext ctx;
    CUdevice dev = 0;
    P(cuInit(0));
    P(cuCtxCreate(&ctx, NULL, 0, dev));
    CUstream st;
    P(cuStreamCreate(&st, 0));

    /* ---- async calls ---- */
    CUdeviceptr p = 77;
    PV(cuMemAllocAsync(&p, 0, st), "p=%llu", (unsigned long long)p);
    P(cuMemAllocAsync(NULL, 16, st));
    P(cuMemFreeAsync(0, st));
    P(cuMemAllocAsync(&p, 4096, st));
    P(cuMemFreeAsync(p + 1, st));
    P(cuMemFreeAsync(p, st));
    P(cuMemFreeAsync(p, st));
    cuStreamSynchronize(st);
    P(cuMemFreeAsync(p, st));
    P(cuStreamSynchronize(st));
    CUdeviceptr plain;
    P(cuMemAlloc(&plain, 4096));
    P(cuMemFreeAsync(plain, st));
    P(cuStreamSynchronize(st));
    P(cuMemFree(plain));
    P(cuMemAllocAsync(&p, 4096, st));
    P(cuMemFree(p));
    P(cuMemAllocAsync(&p, (size_t)1 << 50, st));
    cuStreamSynchronize(st);

    /* ---- cuMemPoolCreate ---- */
    CUmemoryPool xp, tp;
    CUmemPoolProps pp = props(CU_MEM_HANDLE_TYPE_NONE);
    pp.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
    P(cuMemPoolCreate(&tp, &pp));
    pp = props(CU_MEM_HANDLE_TYPE_NONE);
    pp.location.id = 1;
    P(cuMemPoolCreate(&tp, &pp));
    pp.location.type = (CUmemLocationType)9;
    pp.location.id = 0;
    P(cuMemPoolCreate(&tp, &pp));
    pp = props(CU_MEM_HANDLE_TYPE_NONE);
    pp.reserved[10] = 1;
    P(cuMemPoolCreate(&tp, &pp));
    pp = props(CU_MEM_HANDLE_TYPE_NONE);
    pp.usage = 0x100;
    P(cuMemPoolCreate(&tp, &pp));
    pp = props(CU_MEM_HANDLE_TYPE_WIN32);
    P(cuMemPoolCreate(&tp, &pp));
    pp = props(CU_MEM_HANDLE_TYPE_WIN32_KMT);
    P(cuMemPoolCreate(&tp, &pp));
    pp = props(CU_MEM_HANDLE_TYPE_FABRIC);
    CUresult fr = cuMemPoolCreate(&tp, &pp);
    printf("%-70s -> %s\n", "cuMemPoolCreate(FABRIC)", rn(fr));
    if (!fr)
        cuMemPoolDestroy(tp);
    pp = props(CU_MEM_HANDLE_TYPE_NONE);
    pp.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
    fr = cuMemPoolCreate(&tp, &pp);
    printf("%-70s -> %s\n", "cuMemPoolCreate(HOST_NUMA 0)", rn(fr));
    if (!fr) {
        CUmemLocation h = {CU_MEM_LOCATION_TYPE_HOST, 0};
        CUmemAccess_flags f = 99;
        PV(cuMemPoolGetAccess(&f, tp, &h), "host %d", (int)f);
        P(cuDeviceSetMemPool(dev, tp));
        cuMemPoolDestroy(tp);
    }
    pp = props(CU_MEM_HANDLE_TYPE_NONE);
    pp.maxSize = 2 << 20;
    P(cuMemPoolCreate(&tp, &pp));
    CUdeviceptr m1 = 0, m2 = 0;
    P(cuMemAllocFromPoolAsync(&m1, 1 << 20, tp, st));
    PV(cuMemAllocFromPoolAsync(&m2, 3 << 20, tp, st), "m2=%llu", (unsigned long long)m2);
    cuMemFreeAsync(m1, st);
    cuStreamSynchronize(st);
    P(cuMemPoolDestroy(tp));
    P(cuMemPoolDestroy(tp));
    cuuint64_t v64 = 0;
    P(cuMemPoolGetAttribute(tp, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v64));
    P(cuMemPoolGetAttribute(NULL, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v64));

    /* ---- attributes and access ---- */
    pp = props(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    P(cuMemPoolCreate(&xp, &pp));
    P(cuMemPoolGetAttribute(xp, (CUmemPool_attribute)0, &v64));
    P(cuMemPoolGetAttribute(xp, (CUmemPool_attribute)9, &v64));
    P(cuMemPoolGetAttribute(xp, CU_MEMPOOL_ATTR_USED_MEM_HIGH, NULL));
    /* cuMemPoolSetAttribute(xp, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, NULL) kills the driver
     * (SIGSEGV, H200, 580.159.04): left out. */
    v64 = 0;
    P(cuMemPoolSetAttribute(xp, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v64));
    CUmemAccessDesc ad = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_NONE};
    P(cuMemPoolSetAccess(xp, &ad, 1));
    ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    P(cuMemPoolSetAccess(xp, &ad, 1));
    ad.location.id = 1;
    ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    P(cuMemPoolSetAccess(xp, &ad, 1));
    CUmemAccessDesc hd = {{CU_MEM_LOCATION_TYPE_HOST, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    P(cuMemPoolSetAccess(xp, &hd, 1));
    P(cuMemPoolSetAccess(xp, NULL, 1));
    P(cuMemPoolSetAccess(xp, NULL, 0));
    CUmemLocation dl = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    P(cuMemPoolGetAccess(NULL, xp, &dl));

    /* ---- export in one process ---- */
    CUdeviceptr a = 0, b = 0, imp = 0;
    P(cuMemAllocFromPoolAsync(&a, 10000, xp, st));
    P(cuMemAllocFromPoolAsync(&b, 10000, xp, st));
    cuStreamSynchronize(st);
    CUmemPoolPtrExportData ea, eb, einner;
    P(cuMemPoolExportPointer(&einner, a + 16));
    P(cuMemPoolExportPointer(&ea, a));
    P(cuMemPoolExportPointer(&eb, b));
    P(cuMemPoolExportPointer(NULL, a));
    int fd = -1;
    P(cuMemPoolExportToShareableHandle(&fd, xp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    P(cuMemPoolExportToShareableHandle(NULL, xp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUmemoryPool ip;
    P(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
    P(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_WIN32, 0));
    int devnull = open("/dev/null", O_RDWR);
    P(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)devnull, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    P(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    PV(cuMemPoolImportPointer(&imp, ip, &ea), "same process imp %s a", imp == a ? "==" : "!=");
    int fd2 = -1;
    P(cuMemPoolExportToShareableHandle(&fd2, ip, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUdeviceptr q = 0;
    P(cuMemAllocFromPoolAsync(&q, 16, ip, st));
    P(cuDeviceSetMemPool(dev, ip));
    unsigned char zero[64] = {0};
    P(cuMemPoolImportPointer(&q, ip, (CUmemPoolPtrExportData *)zero));
    P(cuMemPoolImportPointer(&q, ip, NULL));
    P(cuMemPoolImportPointer(NULL, ip, &ea));
    P(cuMemPoolDestroy(ip));

    /* ---- export to this process from another ---- */
    char line[800] = "";
    ssize_t n = read(to_parent[0], line, sizeof line - 1);
    line[n > 0 ? n : 0] = 0;
    int cpid, cfd;
    char ha[200], hb[200], hc[200];
    if (sscanf(line, "%d %d %199s %199s %199s", &cpid, &cfd, ha, hb, hc) != 5) {
        printf("exporter said: %s\n", line);
        return 1;
    }
    CUmemPoolPtrExportData xa, xb, xc, forged;
    unhex(ha, &xa, 64);
    unhex(hb, &xb, 64);
    unhex(hc, &xc, 64);
    printf("export data of the child's first allocation: %s\n", ha);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", cpid, cfd);
    int cf = open(path, O_RDWR);
    CUmemoryPool cp;
    P(cuMemPoolImportFromShareableHandle(&cp, (void *)(intptr_t)cf, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    printf("  the caller's fd after import: %s\n", fcntl(cf, F_GETFD) >= 0 ? "open" : "closed");
    P(cuMemPoolImportPointer(&imp, xp, &xa)); /* the child's data into this process's own pool */
    CUdeviceptr ia = 0, ib = 0, ic = 0, ifg = 0;
    P(cuMemPoolImportPointer(&ia, cp, &xa));
    unsigned int word = 0;
    PV(cuMemcpyDtoH(&word, ia, 4), "word %u", word);
    PV(cuMemPoolImportPointer(&ic, cp, &xc), "(freed by the exporter) ic=%llu", (unsigned long long)ic);
    for (int byte = 0; byte < 64; byte += 8) {
        forged = xa;
        forged.reserved[byte] ^= 0x40;
        ifg = 0;
        CUresult r = cuMemPoolImportPointer(&ifg, cp, &forged);
        printf("forged byte %2d -> %s%s\n", byte, rn(r), !r && ifg == ia ? " (same pointer)" : "");
        if (!r && ifg != ia)
            cuMemFree(ifg);
    }
    P(cuMemPoolImportPointer(&ib, cp, &ea)); /* this process's own export data into the child's pool */
    if (write(to_child[1], "x", 1) < 0)
        return 1;
    int status;
    waitpid(child, &status, 0);
    printf("exporter exited\n");
    ib = 0;
    PV(cuMemPoolImportPointer(&ib, cp, &xb), "ib=%llu", (unsigned long long)ib);
    word = 0;
    PV(cuMemcpyDtoH(&word, ia, 4), "word after exit %u", word);
    P(cuMemFree(ia));
    P(cuMemPoolDestroy(cp));
    close(cf);
    close(fd);

    P(cuMemFreeAsync(a, st));
    P(cuMemFreeAsync(b, st));
    P(cuStreamSynchronize(st));
    P(cuMemPoolDestroy(xp));
    P(cuCtxDestroy(ctx));
    return 0;
}
