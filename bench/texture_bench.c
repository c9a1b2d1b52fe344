/*
 * texture_bench: texture fetches per second on the kernel engine (issue 23), point and linear
 * filtering of a 2D float4 texture, beside a C loop doing the same bilinear filtering on the
 * same core. The engine runs here without a CUDA context (as tests/kernels/image_engine_test.c
 * does): one thread runs the launch's blocks and the C loop alike, so the ratio is what the
 * executor's tex costs against compiled code.
 *
 *   extmem-texture-bench [--quick] [--runs N]
 *
 * Rows (fetches per second, median of the runs):
 *   tex.2d float4 point  (portable, native)   one fetch per thread, 1024 x 1024 threads
 *   tex.2d float4 linear (portable, native)
 *   C loop, point / bilinear                  the same coordinates, the same texture, f32 math
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "kernel/kernel.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ptx[] = ".version 9.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry fetch(.param .u64 t, .param .u64 out, .param .u32 w)\n"
                          "{\n"
                          " .reg .b32 %r<8>; .reg .f32 %f<12>; .reg .b64 %rd<6>;\n"
                          " ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out]; ld.param.u32 %r1, [w];\n"
                          " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
                          " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
                          " rem.u32 %r6, %r5, %r1; div.u32 %r7, %r5, %r1;\n"
                          " cvt.rn.f32.u32 %f1, %r6; cvt.rn.f32.u32 %f2, %r7;\n"
                          " add.f32 %f1, %f1, 0f3EC00000; add.f32 %f2, %f2, 0f3E800000;\n" /* +0.375, +0.25 */
                          " tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
                          " mul.wide.u32 %rd3, %r5, 16; add.s64 %rd4, %rd2, %rd3;\n"
                          " st.global.v4.f32 [%rd4], {%f3, %f4, %f5, %f6};\n"
                          " ret;\n"
                          "}\n";

#define W 1024
static float *texels, *out;
static unsigned char *arena;
static size_t arena_bytes;
static struct kimage image;

static bool extent(const struct kaddr_space *s, uintptr_t a, size_t n, bool w, uintptr_t *lo, uintptr_t *hi)
{
    (void)s;
    (void)w;
    uintptr_t b = (uintptr_t)arena;
    if (a < b || a + n > b + arena_bytes)
        return false;
    *lo = b;
    *hi = b + arena_bytes;
    return true;
}
static const struct kaddr_space space = {extent};
static void run_serially(const struct kworkers *k, uint64_t n, atomic_int *stop, void (*block)(void *, uint64_t),
                         void *arg)
{
    (void)k;
    for (uint64_t i = 0; i < n && !atomic_load(stop); ++i)
        block(arg, i);
}
static const struct kworkers workers = {.count = 1, .run = run_serially};
static bool never(void) { return false; }
static void nothing(void) {}
static void leaving(os_thread t) { (void)t; }
static bool no_cond(uint64_t h, uint32_t v)
{
    (void)h;
    (void)v;
    return false;
}
static bool get_image(uint64_t h, bool surface, struct kimage *o)
{
    if (h != 0x7e57 || surface)
        return false;
    *o = image;
    return true;
}
static const struct khost host = {never, nothing, nothing, nothing, leaving, no_cond, get_image, NULL, NULL, NULL, NULL, NULL};

static double launch(const struct kfunc *fn)
{
    uint64_t params[3] = {0x7e57, (uintptr_t)out, W};
    unsigned char buf[64];
    memset(buf, 0, sizeof(buf));
    for (uint32_t i = 0; i < fn->nparams; ++i)
        memcpy(buf + fn->params[i].offset, &params[i], fn->params[i].size);
    struct klaunch l;
    memset(&l, 0, sizeof(l));
    l.fn = fn;
    l.grid[0] = W * W / 256;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = 256;
    l.block[1] = l.block[2] = 1;
    l.params = buf;
    l.stack_bytes = 1024;
    l.space = &space;
    l.workers = &workers;
    l.host = &host;
    double t0 = bench_now_us();
    klaunch_init(&l);
    klaunch_run(&l);
    CUresult r = klaunch_finish(&l);
    double t = bench_now_us() - t0;
    if (r) {
        fprintf(stderr, "texture_bench: the launch failed (%d): %s\n", (int)r, l.fault_reason);
        exit(1);
    }
    return t;
}

/* The C reference: the same texels, the same coordinates, bilinear in f32 with clamp. */
static double c_loop(bool linear)
{
    double t0 = bench_now_us();
    for (uint32_t i = 0; i < W * W; ++i) {
        float x = (float)(i % W) + 0.375f, y = (float)(i / W) + 0.25f, *o = out + 4 * (size_t)i;
        if (!linear) {
            const float *p = texels + 4 * ((size_t)(int)y * W + (int)x);
            memcpy(o, p, 16);
            continue;
        }
        float u = x - 0.5f, v = y - 0.5f, fu = floorf(u), fv = floorf(v), a = u - fu, b = v - fv;
        int x0 = (int)fu, y0 = (int)fv, x1 = x0 + 1, y1 = y0 + 1;
        x0 = x0 < 0 ? 0 : x0;
        y0 = y0 < 0 ? 0 : y0;
        x1 = x1 >= W ? W - 1 : x1;
        y1 = y1 >= W ? W - 1 : y1;
        const float *p00 = texels + 4 * ((size_t)y0 * W + x0), *p10 = texels + 4 * ((size_t)y0 * W + x1);
        const float *p01 = texels + 4 * ((size_t)y1 * W + x0), *p11 = texels + 4 * ((size_t)y1 * W + x1);
        for (int c = 0; c < 4; ++c)
            o[c] = (p00[c] * (1 - a) + p10[c] * a) * (1 - b) + (p01[c] * (1 - a) + p11[c] * a) * b;
    }
    return bench_now_us() - t0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int runs = 11;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick"))
            runs = 1;
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
    }
    arena_bytes = (size_t)W * W * 16 * 2 + 4096;
    arena = malloc(arena_bytes);
    if (!arena)
        return 1;
    texels = (float *)arena;
    out = (float *)(arena + (size_t)W * W * 16);
    for (size_t i = 0; i < (size_t)W * W * 4; ++i)
        texels[i] = (float)(i % 251) * 0.25f;
    memset(&image, 0, sizeof(image));
    image.geometry = KIMG_2D;
    image.channels = 4;
    image.format = CU_AD_FORMAT_FLOAT;
    image.texel_bytes = 16;
    image.layers = image.nlevels = 1;
    image.level[0] = (struct kimage_level){(uintptr_t)texels, W, W, 1, W * 16, (uint64_t)W * W * 16};
    image.address_mode[0] = image.address_mode[1] = image.address_mode[2] = CU_TR_ADDRESS_MODE_CLAMP;
    image.max_lod_clamp = 1000;
    image.lo = (uintptr_t)texels;
    image.hi = (uintptr_t)texels + (size_t)W * W * 16;

    struct kmodule *m = NULL;
    char log[512] = "";
    struct klog errlog = {log, sizeof(log), 0};
    if (kmod_parse("texture_bench", ptx, sizeof(ptx) - 1, "texture_bench.ptx", &errlog, &m)) {
        fprintf(stderr, "texture_bench: %s\n", log);
        return 1;
    }
    const struct kfunc *fn = kmod_entry(m, "fetch");
    printf("%-44s %14s %14s\n", "row (1 core, 1024 x 1024 fetches)", "fetches/s", "vs C loop");
    double *t = calloc((size_t)runs, sizeof(double));
    for (int linear = 0; linear < 2; ++linear) {
        image.filter_mode = linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
        for (int r = 0; r < runs; ++r)
            t[r] = c_loop(linear);
        qsort(t, (size_t)runs, sizeof(double), cmp);
        double c = t[runs / 2];
        const char *tiers[] = {"portable", "native"};
        for (int k = 0; k < 2; ++k) {
            setenv("EXTMEM_JIT", tiers[k], 1);
            launch(fn); /* warm-up (the native tier compiles here) */
            for (int r = 0; r < runs; ++r)
                t[r] = launch(fn);
            qsort(t, (size_t)runs, sizeof(double), cmp);
            char row[64];
            snprintf(row, sizeof(row), "tex.2d float4 %s (%s)", linear ? "linear" : "point", tiers[k]);
            printf("%-44s %14.3g %13.1fx\n", row, (double)W * W / (t[runs / 2] * 1e-6), t[runs / 2] / c);
        }
        char row[64];
        snprintf(row, sizeof(row), "C loop, %s", linear ? "bilinear" : "point");
        printf("%-44s %14.3g %14s\n", row, (double)W * W / (c * 1e-6), "1");
    }
    free(t);
    kmod_free(m);
    free(arena);
    return 0;
}
