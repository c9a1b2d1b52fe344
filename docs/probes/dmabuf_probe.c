/*
 * dmabuf_probe.c - what the real NVIDIA driver answers for cuMemGetHandleForAddressRange
 * (CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD): the order of its argument checks, the flags, which
 * ranges it accepts (cuMemAlloc, VMM, host memory), and what the fd it returns is.
 *
 * Built against NVIDIA's own cuda.h and linked with -lcuda (NOT against extmem):
 *   gcc -std=gnu11 -O0 docs/probes/dmabuf_probe.c -I/usr/local/cuda/include -lcuda -o probe
 *
 * Output: one line per case, "N.case: RESULT_NAME (out=...)". The out-parameter is preset to
 * the sentinel -2 (S) so one sees what a failing call writes; a successful call's fd is
 * described (its /proc link, size, flags) and closed.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define S (-2)
#define MiB (1024ull * 1024)
typedef unsigned long long ull;

static const char *rn(CUresult r)
{
    static char buf[8][64];
    static int slot;
    char *b = buf[slot++ & 7];
    const char *s = NULL;
    if (cuGetErrorName(r, &s) == CUDA_SUCCESS && s)
        snprintf(b, 64, "%s", s);
    else
        snprintf(b, 64, "code=%d", (int)r);
    return b;
}
#define MUST(call)                                                                          \
    do {                                                                                    \
        CUresult r_ = (call);                                                               \
        if (r_) {                                                                           \
            printf("SETUP-FAILED line %d %s: %s\n", __LINE__, #call, rn(r_));               \
            fflush(stdout);                                                                 \
            exit(3);                                                                        \
        }                                                                                   \
    } while (0)

static void describe(int fd, char *out, size_t size)
{
    char link[64], target[256] = "";
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    target[n > 0 ? n : 0] = 0;
    off_t end = lseek(fd, 0, SEEK_END);
    int fdflags = fcntl(fd, F_GETFD), flflags = fcntl(fd, F_GETFL);
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int mm = p != MAP_FAILED;
    if (mm)
        munmap(p, 4096);
    snprintf(out, size, "fd link=%s size=%lld cloexec=%d accmode=%s mmap=%s", target, (long long)end,
             !!(fdflags & FD_CLOEXEC), (flflags & O_ACCMODE) == O_RDWR ? "rdwr" : (flflags & O_ACCMODE) == O_RDONLY ? "rdonly" : "wronly",
             mm ? "ok" : "fails");
}

/* Calls the function with an int out-parameter preset to S; prints the result. */
static CUresult probe(const char *label, void *handle_arg, CUdeviceptr dptr, size_t size, int type, ull flags)
{
    CUresult r = cuMemGetHandleForAddressRange(handle_arg, dptr, size, (CUmemRangeHandleType)type, flags);
    char what[400] = "";
    if (handle_arg) {
        int fd = *(int *)handle_arg;
        if (r == CUDA_SUCCESS && fd >= 0) {
            describe(fd, what, sizeof(what));
            close(fd);
        } else {
            snprintf(what, sizeof(what), "out=%d%s", fd, fd == S ? " (untouched)" : "");
        }
    } else {
        snprintf(what, sizeof(what), "handle NULL");
    }
    printf("%s: %s (%s)\n", label, rn(r), what);
    fflush(stdout);
    return r;
}
#define P(label, dptr, size, type, flags)                                                   \
    do {                                                                                    \
        int fd_ = S;                                                                        \
        probe(label, &fd_, dptr, size, type, flags);                                        \
    } while (0)

int main(void)
{
    CUdevice dev;
    CUcontext ctx;
    MUST(cuInit(0));
    MUST(cuDeviceGet(&dev, 0));
    char name[128];
    MUST(cuDeviceGetName(name, sizeof(name), dev));
    int drv = 0;
    cuDriverGetVersion(&drv);
    printf("# dmabuf_probe (CUDA_VERSION %d headers, driver %d), device 0: %s, page %ld\n", CUDA_VERSION, drv, name,
           sysconf(_SC_PAGESIZE));
    MUST(cuDevicePrimaryCtxRetain(&ctx, dev));
    MUST(cuCtxSetCurrent(ctx));

    printf("## 0. attributes\n");
    int v = -1;
    CUresult ar = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, dev);
    printf("0.DMA_BUF_SUPPORTED: %s (v=%d)\n", rn(ar), v);
    v = -1;
    ar = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED, dev);
    printf("0.HOST_ALLOC_DMA_BUF_SUPPORTED: %s (v=%d)\n", rn(ar), v);

    CUdeviceptr a = 0, b = 0, c = 0;
    MUST(cuMemAlloc(&a, 2 * MiB));
    MUST(cuMemAlloc(&b, 2 * MiB));
    const int T = CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD;
    printf("## 1. arguments and their order (a = 2 MiB cuMemAlloc at 0x%llx, b at 0x%llx)\n", (ull)a, (ull)b);
    P("1.whole a, flags 0", a, 2 * MiB, T, 0);
    probe("1.handle NULL", NULL, a, 2 * MiB, T, 0);
    probe("1.handle NULL + type 0", NULL, a, 2 * MiB, 0, 0);
    probe("1.handle NULL + dptr 0", NULL, 0, 2 * MiB, T, 0);
    P("1.type 0", a, 2 * MiB, 0, 0);
    P("1.type 2", a, 2 * MiB, 2, 0);
    P("1.type 0x7fffffff (MAX)", a, 2 * MiB, 0x7fffffff, 0);
    P("1.type -1", a, 2 * MiB, -1, 0);
    P("1.flags PCIE (1)", a, 2 * MiB, T, 1);
    P("1.flags 2", a, 2 * MiB, T, 2);
    P("1.flags 3", a, 2 * MiB, T, 3);
    P("1.flags 1<<63", a, 2 * MiB, T, 1ull << 63);
    P("1.flags 1|1<<63", a, 2 * MiB, T, 1ull << 63 | 1);
    P("1.flags 5", a, 2 * MiB, T, 5);
    P("1.flags 1 + dptr 0", 0, 2 * MiB, T, 1);
    P("1.flags 1 + size 0", a, 0, T, 1);
    P("1.flags 1 + size 1000", a, 1000, T, 1);
    P("1.flags 1 + dptr a+1", a + 1, 4096, T, 1);
    P("1.flags 1 + past the end", a, 4 * MiB, T, 1);
    P("1.flags 3 + dptr 0", 0, 2 * MiB, T, 3);
    P("1.flags 3 + past the end", a, 4 * MiB, T, 3);
    P("1.type 0 + flags 1", a, 2 * MiB, 0, 1);
    P("1.type 0 + flags 2", a, 2 * MiB, 0, 2);
    P("1.flags 2 + dptr 0", 0, 2 * MiB, T, 2);
    P("1.flags 2 + size 0", a, 0, T, 2);
    P("1.type 0 + dptr 0", 0, 2 * MiB, 0, 0);
    P("1.dptr 0", 0, 4096, T, 0);
    P("1.dptr 0 + size 0", 0, 0, T, 0);
    P("1.size 0", a, 0, T, 0);
    P("1.size 0 + dptr a+1", a + 1, 0, T, 0);
    P("1.size 1000", a, 1000, T, 0);
    P("1.size 4096+1000", a, 4096 + 1000, T, 0);
    P("1.dptr a+1, size 4096", a + 1, 4096, T, 0);
    P("1.dptr a+1, size 1000", a + 1, 1000, T, 0);
    P("1.dptr a+2048, size 4096", a + 2048, 4096, T, 0);
    P("1.4 KiB at the start", a, 4096, T, 0);
    P("1.inner page a+4096", a + 4096, 4096, T, 0);
    P("1.last page", a + 2 * MiB - 4096, 4096, T, 0);
    P("1.past the end (a, 2 MiB + 4096)", a, 2 * MiB + 4096, T, 0);
    P("1.past the end, misaligned size", a, 2 * MiB + 1000, T, 0);
    P("1.size SIZE_MAX & ~4095", a, SIZE_MAX & ~(size_t)4095, T, 0);
    P("1.dptr a + 2 MiB (just past), 4096", a + 2 * MiB, 4096, T, 0);
    if (b == a + 2 * MiB || a == b + 2 * MiB) {
        CUdeviceptr lo = a < b ? a : b;
        P("1.adjacent a,b as one range", lo, 4 * MiB, T, 0);
        P("1.adjacent a,b: 8 KiB across the seam", lo + 2 * MiB - 4096, 8192, T, 0);
    } else {
        printf("1.adjacent a,b: skipped (not adjacent: diff %lld)\n", (long long)(b - a));
    }
    MUST(cuMemAlloc(&c, 2 * MiB));
    MUST(cuMemFree(c));
    P("1.freed allocation", c, 4096, T, 0);
    P("1.freed allocation, flags 1", c, 4096, T, 1);
    void *heap = aligned_alloc(4096, 2 * MiB);
    P("1.malloc'd host memory", (CUdeviceptr)(uintptr_t)heap, 4096, T, 0);
    MUST(cuMemHostRegister(heap, 2 * MiB, 0));
    P("1.cuMemHostRegister'd host memory", (CUdeviceptr)(uintptr_t)heap, 4096, T, 0);
    MUST(cuMemHostUnregister(heap));
    free(heap);
    {
        CUdeviceptr small = 0;
        MUST(cuMemAlloc(&small, 1000));
        P("1.1000-byte allocation, size 4096", small, 4096, T, 0);
        P("1.1000-byte allocation, size 1000", small, 1000, T, 0);
        P("1.1000-byte allocation, size 8192", small, 8192, T, 0);
        P("1.1000-byte allocation, size 64 KiB", small, 65536, T, 0);
        P("1.1000-byte allocation, size 2 MiB", small, 2 * MiB, T, 0);
        CUdeviceptr small2 = 0;
        MUST(cuMemAlloc(&small2, 1000));
        printf("1.  two 1000-byte allocations at 0x%llx and 0x%llx (diff %lld)\n", (ull)small, (ull)small2,
               (long long)(small2 - small));
        if (small2 > small && small2 - small < 2 * MiB)
            P("1.1000-byte allocation, up to the next one's page", small, (size_t)((small2 - small + 4096) & ~4095ull), T, 0);
        MUST(cuMemFree(small2));
        MUST(cuMemFree(small));
        MUST(cuMemAlloc(&small, 6000));
        P("1.6000-byte allocation, size 8192", small, 8192, T, 0);
        P("1.6000-byte allocation, inner page 4096..8192", small + 4096, 4096, T, 0);
        MUST(cuMemAlloc(&small, 3 * MiB + 4096));
        P("1.3 MiB+4 KiB allocation, whole", small, 3 * MiB + 4096, T, 0);
        MUST(cuMemFree(small));
    }

    printf("## 2. no current context\n");
    {
        CUcontext popped = NULL;
        MUST(cuCtxPopCurrent(&popped));
        CUcontext cur = (CUcontext)1;
        cuCtxGetCurrent(&cur);
        printf("2.current after pop: %p\n", (void *)cur);
        P("2.whole a, no current context", a, 2 * MiB, T, 0);
        P("2.dptr 0, no current context", 0, 2 * MiB, T, 0);
        probe("2.handle NULL, no current context", NULL, a, 2 * MiB, T, 0);
        P("2.flags 1, no current context", a, 2 * MiB, T, 1);
        P("2.flags 2, no current context", a, 2 * MiB, T, 2);
        P("2.size 1000, no current context", a, 1000, T, 0);
        P("2.freed pointer, no current context", c, 4096, T, 0);
        MUST(cuCtxPushCurrent(popped));
    }

    printf("## 3. VMM\n");
    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t gran = 0;
    MUST(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle h1, h2, hrd;
    MUST(cuMemCreate(&h1, gran, &prop, 0));
    MUST(cuMemCreate(&h2, gran, &prop, 0));
    MUST(cuMemCreate(&hrd, gran, &prop, 0));
    CUdeviceptr res = 0;
    MUST(cuMemAddressReserve(&res, 8 * gran, 0, 0, 0));
    P("3.reserved, nothing mapped", res, gran, T, 0);
    P("3.reserved, nothing mapped, flags 1", res, gran, T, 1);
    MUST(cuMemMap(res, gran, 0, h1, 0));
    P("3.mapped, access never set", res, gran, T, 0);
    CUmemAccessDesc rw = {{CU_MEM_LOCATION_TYPE_DEVICE, dev}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    CUmemAccessDesc ro = {{CU_MEM_LOCATION_TYPE_DEVICE, dev}, CU_MEM_ACCESS_FLAGS_PROT_READ};
    MUST(cuMemSetAccess(res, gran, &rw, 1));
    P("3.one mapping, whole", res, gran, T, 0);
    P("3.one mapping, inner page", res + 4096, 4096, T, 0);
    P("3.one mapping, size 1000", res, 1000, T, 0);
    P("3.one mapping, dptr+1", res + 1, 4096, T, 0);
    P("3.first granule mapped, ask 2 granules (half mapped)", res, 2 * gran, T, 0);
    P("3.the whole 8-granule reservation, 1 mapped", res, 8 * gran, T, 0);
    P("3.unmapped part of the reservation", res + gran, gran, T, 0);
    MUST(cuMemMap(res + gran, gran, 0, h2, 0));
    MUST(cuMemSetAccess(res + gran, gran, &rw, 1));
    P("3.two allocations side by side, whole", res, 2 * gran, T, 0);
    P("3.two allocations: 8 KiB across the seam", res + gran - 4096, 8192, T, 0);
    P("3.two allocations: the second alone", res + gran, gran, T, 0);
    MUST(cuMemMap(res + 2 * gran, gran, 0, h1, 0));
    MUST(cuMemSetAccess(res + 2 * gran, gran, &rw, 1));
    P("3.h1 h2 h1 (one allocation mapped twice), whole", res, 3 * gran, T, 0);
    MUST(cuMemMap(res + 3 * gran, gran, 0, hrd, 0));
    MUST(cuMemSetAccess(res + 3 * gran, gran, &ro, 1));
    P("3.read-only mapping alone", res + 3 * gran, gran, T, 0);
    P("3.rw + read-only side by side", res + 2 * gran, 2 * gran, T, 0);
    {
        /* a second reservation right after the first? (only when adjacent) */
        CUdeviceptr res2 = 0;
        if (cuMemAddressReserve(&res2, gran, 0, res + 8 * gran, 0) == CUDA_SUCCESS && res2 == res + 8 * gran) {
            MUST(cuMemMap(res + 7 * gran, gran, 0, h2, 0));
            MUST(cuMemSetAccess(res + 7 * gran, gran, &rw, 1));
            MUST(cuMemMap(res2, gran, 0, h1, 0));
            MUST(cuMemSetAccess(res2, gran, &rw, 1));
            P("3.mappings in two adjacent reservations", res + 7 * gran, 2 * gran, T, 0);
            MUST(cuMemUnmap(res2, gran));
            MUST(cuMemUnmap(res + 7 * gran, gran));
        } else {
            printf("3.adjacent reservations: skipped\n");
        }
        if (res2)
            cuMemAddressFree(res2, gran);
    }
    {
        int fd = S;
        CUresult r = cuMemGetHandleForAddressRange(&fd, res, 2 * gran, T, 0);
        printf("3.export then unmap + release: export %s\n", rn(r));
        MUST(cuMemUnmap(res, 4 * gran));
        MUST(cuMemRelease(h1));
        MUST(cuMemRelease(h2));
        MUST(cuMemRelease(hrd));
        if (r == CUDA_SUCCESS) {
            char what[400];
            describe(fd, what, sizeof(what));
            printf("3.  the fd after unmap + release: %s\n", what);
            close(fd);
        }
    }
    MUST(cuMemAddressFree(res, 8 * gran));

    printf("## 4. host memory\n");
    void *hp = NULL;
    MUST(cuMemAllocHost(&hp, 2 * MiB));
    P("4.cuMemAllocHost 2 MiB, whole", (CUdeviceptr)(uintptr_t)hp, 2 * MiB, T, 0);
    P("4.cuMemAllocHost inner page", (CUdeviceptr)(uintptr_t)hp + 4096, 4096, T, 0);
    P("4.cuMemAllocHost, PCIE flag", (CUdeviceptr)(uintptr_t)hp, 2 * MiB, T, 1);
    P("4.cuMemAllocHost, size 1000", (CUdeviceptr)(uintptr_t)hp, 1000, T, 0);
    P("4.cuMemAllocHost, past the end", (CUdeviceptr)(uintptr_t)hp, 4 * MiB, T, 0);
    MUST(cuMemFreeHost(hp));
    MUST(cuMemHostAlloc(&hp, 2 * MiB, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    P("4.cuMemHostAlloc DEVICEMAP|PORTABLE, whole", (CUdeviceptr)(uintptr_t)hp, 2 * MiB, T, 0);
    MUST(cuMemFreeHost(hp));

    printf("## 5. the fd and its life\n");
    {
        int fd = S;
        CUresult r = cuMemGetHandleForAddressRange(&fd, a, 2 * MiB, T, 0);
        char what[400] = "";
        if (r == CUDA_SUCCESS)
            describe(fd, what, sizeof(what));
        printf("5.whole a: %s (%s)\n", rn(r), what);
        int fd2 = S;
        r = cuMemGetHandleForAddressRange(&fd2, a, 2 * MiB, T, 0);
        printf("5.again: %s (a new fd: %d; first %d)\n", rn(r), fd2 != fd, fd);
        if (r == CUDA_SUCCESS)
            close(fd2);
        if (fd >= 0) {
            CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
            memset(&d, 0, sizeof(d));
            d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
            d.handle.fd = fd;
            d.size = 2 * MiB;
            CUexternalMemory em = NULL;
            r = cuImportExternalMemory(&em, &d);
            printf("5.import it back (DMABUF_FD): %s (fd still open: %d)\n", rn(r), fcntl(fd, F_GETFD) != -1);
            if (r == CUDA_SUCCESS)
                cuDestroyExternalMemory(em);
            else
                close(fd);
        }
        /* freed while an fd is open */
        CUdeviceptr d2 = 0;
        MUST(cuMemAlloc(&d2, 2 * MiB));
        fd = S;
        r = cuMemGetHandleForAddressRange(&fd, d2, 2 * MiB, T, 0);
        MUST(cuMemFree(d2));
        if (r == CUDA_SUCCESS) {
            describe(fd, what, sizeof(what));
            printf("5.fd after cuMemFree: %s\n", what);
            close(fd);
        }
    }
    MUST(cuMemFree(a));
    MUST(cuMemFree(b));
    MUST(cuDevicePrimaryCtxRelease(dev));
    printf("# done\n");
    return 0;
}
