/*
 * ctx_probe.c - the H100's driver with PTX that the native tier's trust issue names:
 *   store: a store to a .const variable through a generic address (cvta.const), and through
 *          st.global of that address;
 *   endless kernel (L: bra L;): what cuCtxDestroy, cuDevicePrimaryCtxReset, cuCtxSynchronize
 *          with nothing else and exit() do while it runs.
 * Built against NVIDIA's cuda.h: gcc -std=gnu11 ctx_probe.c -I/usr/local/cuda/include -lcuda
 * One case per process (the endless ones under `timeout`).
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static const char *ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".const .align 4 .u32 c[4] = {1, 2, 3, 4};\n"
    ".visible .entry st_generic()\n{\n .reg .b64 %rd<3>;\n"
    " mov.u64 %rd1, c;\n cvta.const.u64 %rd2, %rd1;\n st.u32 [%rd2+4], 99;\n ret;\n}\n"
    ".visible .entry st_global()\n{\n .reg .b64 %rd<3>;\n"
    " mov.u64 %rd1, c;\n cvta.const.u64 %rd2, %rd1;\n st.global.u32 [%rd2+8], 98;\n ret;\n}\n"
    ".visible .entry ld_generic(.param .u64 out)\n{\n .reg .b64 %rd<4>;\n .reg .b32 %r<2>;\n"
    " ld.param.u64 %rd3, [out];\n mov.u64 %rd1, c;\n cvta.const.u64 %rd2, %rd1;\n ld.u32 %r1, [%rd2+4];\n"
    " st.global.u32 [%rd3], %r1;\n ret;\n}\n"
    ".visible .entry endless()\n{\nL:\n bra L;\n}\n";

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "st_generic";
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    cuInit(0);
    cuDeviceGet(&dev, 0);
    int primary = !strcmp(c, "reset");
    if (primary) {
        cuDevicePrimaryCtxRetain(&ctx, dev);
        cuCtxSetCurrent(ctx);
    } else {
        CUresult r = cuCtxCreate(&ctx, NULL, 0, dev);
        if (r) { printf("cuCtxCreate: %s\n", rn(r)); return 1; }
    }
    char log[4096] = "";
    CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *ov[] = {log, (void *)(size_t)sizeof(log)};
    CUresult r = cuModuleLoadDataEx(&mod, ptx, 2, o, ov);
    if (r) { printf("load: %s %s\n", rn(r), log); return 1; }
    if (!strncmp(c, "st_", 3)) {
        cuModuleGetFunction(&f, mod, c);
        r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, NULL, NULL);
        CUresult s = cuCtxSynchronize();
        printf("%s: launch %s, synchronize %s\n", c, rn(r), rn(s));
        CUdeviceptr g; size_t gs; unsigned v[4] = {0};
        r = cuModuleGetGlobal(&g, &gs, mod, "c");
        CUresult m = cuMemcpyDtoH(v, g, sizeof(v));
        printf("%s: after: getglobal %s, memcpy %s, c = {%u,%u,%u,%u}\n", c, rn(r), rn(m), v[0], v[1], v[2], v[3]);
        return 0;
    }
    cuModuleGetFunction(&f, mod, "endless");
    r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, NULL, NULL);
    printf("%s: launch %s\n", c, rn(r));
    fflush(stdout);
    double t0 = now_ms();
    if (!strcmp(c, "exit")) {
        printf("exit: calling exit(0)\n");
        fflush(stdout);
        exit(0);
    } else if (!strcmp(c, "query")) {
        r = cuStreamQuery(0);
        printf("query: cuStreamQuery %s\n", rn(r));
    } else if (!strcmp(c, "destroy")) {
        r = cuCtxDestroy(ctx);
        printf("destroy: cuCtxDestroy %s after %.0f ms\n", rn(r), now_ms() - t0);
    } else if (!strcmp(c, "reset")) {
        r = cuDevicePrimaryCtxReset(dev);
        printf("reset: cuDevicePrimaryCtxReset %s after %.0f ms\n", rn(r), now_ms() - t0);
    } else if (!strcmp(c, "unload")) {
        r = cuModuleUnload(mod);
        printf("unload: cuModuleUnload %s after %.0f ms\n", rn(r), now_ms() - t0);
    }
    fflush(stdout);
    return 0;
}
