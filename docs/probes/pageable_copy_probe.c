/*
 * pageable_copy_probe.c - what the real driver does with pageable host memory (memory CUDA did
 * not allocate or register) in copies: where a device pointer is expected, and in the async
 * copies, whether the call returns before the pageable memory has been read or written.
 *
 * Built against NVIDIA's cuda.h and linked with -lcuda (NOT against extmem):
 *   gcc -std=gnu11 -O0 docs/probes/pageable_copy_probe.c -I/usr/local/cuda/include -lcuda -o probe
 *   for c in $(seq 1 19); do ./probe $c || echo "case $c: CRASHED or failed"; done
 * One case per run, so that a crash loses one line. Output: pageable_copy_probe.out.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void CUDA_CB nap(void *ms) { usleep((useconds_t)(uintptr_t)ms * 1000); }

int main(int argc, char **argv)
{
    int c = argc > 1 ? atoi(argv[1]) : 0;
    CUcontext ctx;
    CUdevice dev;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuCtxCreate(&ctx, NULL, 0, dev))
        return 2;
    size_t n = 4096;
    unsigned char *pg_src = malloc(n), *pg_dst = malloc(n), host[4096];
    memset(pg_src, 0x5a, n);
    memset(pg_dst, 0, n);
    CUdeviceptr d, freed;
    cuMemAlloc(&d, n);
    cuMemsetD8(d, 0x33, n);
    cuMemAlloc(&freed, n);
    cuMemFree(freed);
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    CUresult r;
    double t0, t1;
    switch (c) {
    case 1:
        r = cuMemcpyDtoH(host, (CUdeviceptr)pg_src, n);
        printf("case 1 cuMemcpyDtoH(src = malloc pointer): %s, first byte 0x%02x\n", rn(r), host[0]);
        break;
    case 2:
        r = cuMemcpyHtoD((CUdeviceptr)pg_dst, host, n);
        printf("case 2 cuMemcpyHtoD(dst = malloc pointer): %s\n", rn(r));
        break;
    case 3:
        r = cuMemcpyDtoD(d, (CUdeviceptr)pg_src, n);
        printf("case 3 cuMemcpyDtoD(src = malloc pointer): %s\n", rn(r));
        break;
    case 4:
        r = cuMemcpyDtoD((CUdeviceptr)pg_dst, d, n);
        printf("case 4 cuMemcpyDtoD(dst = malloc pointer): %s, dst first byte 0x%02x\n", rn(r), pg_dst[0]);
        break;
    case 5:
        r = cuMemcpyDtoHAsync(host, (CUdeviceptr)pg_src, n, s);
        cuStreamSynchronize(s);
        printf("case 5 cuMemcpyDtoHAsync(src = malloc pointer): %s\n", rn(r));
        break;
    case 6:
        r = cuMemcpyDtoH(host, freed, n);
        printf("case 6 cuMemcpyDtoH(src = freed device pointer): %s\n", rn(r));
        break;
    case 7: { /* mmap'd (not malloc'd) pageable memory as the source */
        unsigned char *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        m[0] = 0x77;
        r = cuMemcpyDtoH(host, (CUdeviceptr)m, n);
        printf("case 7 cuMemcpyDtoH(src = mmap pointer): %s, first byte 0x%02x\n", rn(r), host[0]);
        break;
    }
    case 8: /* HtoDAsync from pageable memory behind 300 ms of queued work */
        cuLaunchHostFunc(s, nap, (void *)(uintptr_t)300);
        t0 = now_ms();
        r = cuMemcpyHtoDAsync(d, pg_src, n, s);
        t1 = now_ms();
        memset(pg_src, 0xee, n); /* after the call: does the copy see it? */
        cuStreamSynchronize(s);
        cuMemcpyDtoH(host, d, n);
        printf("case 8 cuMemcpyHtoDAsync(pageable src, 300 ms queued): %s, returned after %.0f ms, device got 0x%02x "
               "(0x5a = staged at the call, 0xee = read later)\n", rn(r), t1 - t0, host[0]);
        break;
    case 9: /* DtoHAsync to pageable memory behind 300 ms of queued work */
        cuLaunchHostFunc(s, nap, (void *)(uintptr_t)300);
        t0 = now_ms();
        r = cuMemcpyDtoHAsync(pg_dst, d, n, s);
        t1 = now_ms();
        printf("case 9 cuMemcpyDtoHAsync(pageable dst, 300 ms queued): %s, returned after %.0f ms, dst 0x%02x at "
               "return\n", rn(r), t1 - t0, pg_dst[0]);
        cuStreamSynchronize(s);
        break;
    case 10: { /* the same with pinned memory */
        unsigned char *pinned;
        cuMemAllocHost((void **)&pinned, n);
        memset(pinned, 0, n);
        cuLaunchHostFunc(s, nap, (void *)(uintptr_t)300);
        t0 = now_ms();
        r = cuMemcpyDtoHAsync(pinned, d, n, s);
        t1 = now_ms();
        printf("case 10 cuMemcpyDtoHAsync(pinned dst, 300 ms queued): %s, returned after %.0f ms, dst 0x%02x at "
               "return\n", rn(r), t1 - t0, pinned[0]);
        cuStreamSynchronize(s);
        break;
    }
    case 11: { /* a large pageable upload behind queued work */
        size_t big = 64 << 20;
        CUdeviceptr db;
        cuMemAlloc(&db, big);
        unsigned char *pb = malloc(big);
        memset(pb, 0x5a, big);
        cuLaunchHostFunc(s, nap, (void *)(uintptr_t)300);
        t0 = now_ms();
        r = cuMemcpyHtoDAsync(db, pb, big, s);
        t1 = now_ms();
        memset(pb, 0xee, big);
        cuStreamSynchronize(s);
        unsigned char last;
        cuMemcpyDtoH(&last, db + big - 1, 1);
        cuMemcpyDtoH(host, db, 1);
        printf("case 11 cuMemcpyHtoDAsync(64 MiB pageable src, 300 ms queued): %s, returned after %.0f ms, device "
               "got 0x%02x first, 0x%02x last\n", rn(r), t1 - t0, host[0], last);
        break;
    }
    case 12: /* HtoD (synchronous) from pageable memory behind queued work on the legacy stream */
        cuLaunchHostFunc(NULL, nap, (void *)(uintptr_t)300);
        t0 = now_ms();
        r = cuMemcpyHtoD(d, pg_src, n);
        t1 = now_ms();
        printf("case 12 cuMemcpyHtoD(pageable src, 300 ms queued on the legacy stream): %s, returned after %.0f ms\n",
               rn(r), t1 - t0);
        break;
    case 13:
        r = cuMemsetD8((CUdeviceptr)pg_dst, 1, n);
        printf("case 13 cuMemsetD8(malloc pointer): %s, first byte 0x%02x\n", rn(r), pg_dst[0]);
        break;
    case 14:
        r = cuMemcpy((CUdeviceptr)pg_dst, (CUdeviceptr)pg_src, n);
        printf("case 14 cuMemcpy(malloc pointer <- malloc pointer): %s, dst first byte 0x%02x\n", rn(r), pg_dst[0]);
        break;
    case 15: /* the unified-addressing copy from pageable memory behind queued work */
        cuLaunchHostFunc(s, nap, (void *)(uintptr_t)300);
        t0 = now_ms();
        r = cuMemcpyAsync(d, (CUdeviceptr)pg_src, n, s);
        t1 = now_ms();
        memset(pg_src, 0xee, n);
        cuStreamSynchronize(s);
        cuMemcpyDtoH(host, d, n);
        printf("case 15 cuMemcpyAsync(device <- pageable, 300 ms queued): %s, returned after %.0f ms, device got "
               "0x%02x\n", rn(r), t1 - t0, host[0]);
        break;
    case 16:
        cuLaunchHostFunc(s, nap, (void *)(uintptr_t)300);
        t0 = now_ms();
        r = cuMemcpyAsync((CUdeviceptr)pg_dst, d, n, s);
        t1 = now_ms();
        printf("case 16 cuMemcpyAsync(pageable <- device, 300 ms queued): %s, returned after %.0f ms, dst 0x%02x at "
               "return\n", rn(r), t1 - t0, pg_dst[0]);
        cuStreamSynchronize(s);
        break;
    case 17:
    case 18: {
        CUDA_MEMCPY2D m;
        memset(&m, 0, sizeof m);
        m.srcMemoryType = c == 17 ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_UNIFIED;
        m.srcDevice = (CUdeviceptr)pg_src;
        m.srcPitch = n;
        m.dstMemoryType = CU_MEMORYTYPE_HOST;
        m.dstHost = host;
        m.dstPitch = n;
        m.WidthInBytes = n;
        m.Height = 1;
        r = cuMemcpy2D(&m);
        printf("case %d cuMemcpy2D(src %s = malloc pointer): %s\n", c, c == 17 ? "DEVICE" : "UNIFIED", rn(r));
        break;
    }
    case 19: { /* host to host through the unified copy, behind queued work: synchronous? */
        cuLaunchHostFunc(s, nap, (void *)(uintptr_t)300);
        t0 = now_ms();
        r = cuMemcpyAsync((CUdeviceptr)pg_dst, (CUdeviceptr)pg_src, n, s);
        t1 = now_ms();
        printf("case 19 cuMemcpyAsync(pageable <- pageable, 300 ms queued): %s, returned after %.0f ms, dst 0x%02x "
               "at return\n", rn(r), t1 - t0, pg_dst[0]);
        cuStreamSynchronize(s);
        break;
    }
    }
    fflush(stdout);
    return 0;
}
