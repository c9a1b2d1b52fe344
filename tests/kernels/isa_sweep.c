/*
 * isa_sweep: the ISA sweep's test (issue 25). Reads tests/kernels/isa_sweep.txt, loads one tiny
 * module per row through the public driver API and checks the row's status: a "runs" row loads,
 * runs one warp and its registers hold the values the GPU computed; a "refused" row is
 * CUDA_ERROR_INVALID_PTX with a reason naming the instruction; an "owner" row belongs to another
 * part of issue 25 and may do either until that part merges.
 *
 *   isa_sweep TABLE            checks every row (exit 0 when all pass)
 *   isa_sweep TABLE --record   prints what the device does with each row and the values of the
 *                              registers the row checks (built against NVIDIA's driver with
 *                              -DSWEEP_NVIDIA on the GPU machine, its output gives the table's values)
 *
 * It also checks the special registers whose values depend on the launch (--sregs, run by both
 * modes): grid and cluster geometry, %gridid per launch, %smid below %nsmid, the shared memory
 * sizes, and %globaltimer's units.
 */
#ifdef SWEEP_NVIDIA
#include <cuda.h>
#else
#include "extmem/cuda.h"
#include "extmem/extmem.h"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NR = 16, NRD = 16, NF = 16, NFD = 16, NH = 16, NP = 8 };
enum { SLOTS = NR + NRD + NF + NFD + NH + NP, LANES = 32 };

static bool record;
static CUcontext ctx;
static CUdevice dev;

static const char *rname(CUresult r)
{
    const char *s = NULL;
    return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "?";
}

static bool new_context(void)
{
    if (ctx)
        cuCtxDestroy(ctx);
    ctx = NULL;
#ifdef SWEEP_NVIDIA
    return cuCtxCreate(&ctx, NULL, 0, dev) == CUDA_SUCCESS;
#else
    return cuCtxCreate(&ctx, NULL, 0, dev) == CUDA_SUCCESS;
#endif
}

/* ---- the harness module ---- */

struct buf {
    char *s;
    size_t n, cap;
};
static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void put(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->cap - b->n, fmt, ap); /* no offset on NULL */
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + 4096;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            abort();
    }
}

static void module_text(struct buf *b, const char *row)
{
    b->n = 0;
    put(b, ".version 9.0\n.target sm_90\n.address_size 64\n");
    put(b, ".global .align 16 .u32 gbuf[64] = {0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x55555555, "
           "0x66666666, 0x77777777, 0x88888888};\n");
    put(b, ".visible .entry row(.param .u64 out)\n{\n");
    put(b, ".reg .b32 %%r<%d>;\n.reg .b64 %%rd<%d>;\n.reg .f32 %%f<%d>;\n.reg .f64 %%fd<%d>;\n.reg .b16 %%h<%d>;\n"
           ".reg .pred %%p<%d>;\n.reg .b64 %%hx<4>;\n.reg .b32 %%hy<2>;\n.shared .align 16 .b8 sm[1024];\n",
        NR, NRD, NF, NFD, NH, NP);
    for (int i = 0; i < NR; ++i)
        put(b, "mov.u32 %%r%d, 0;\n", i);
    put(b, "mov.u32 %%r1, 0x12345678;\nmov.u32 %%r2, 0x9abcdef0;\nmov.u32 %%r3, 5;\nmov.u32 %%r4, 3;\n"
           "mov.u32 %%r5, %%laneid;\nmov.u32 %%r6, 0xffffffff;\nmov.u32 %%r7, 0x80000000;\nmov.u32 %%r8, 0x00ff00ff;\n");
    for (int i = 0; i < NRD; ++i)
        put(b, "mov.u64 %%rd%d, 0;\n", i);
    put(b, "mov.u64 %%rd1, gbuf;\nmov.u64 %%rd2, 0x123456789abcdef0;\nmov.u64 %%rd3, sm;\n"
           "cvta.shared.u64 %%rd4, %%rd3;\nmov.u64 %%rd5, 7;\nmov.u64 %%rd6, -1;\n");
    for (int i = 0; i < NF; ++i)
        put(b, "mov.f32 %%f%d, 0f00000000;\n", i);
    put(b, "mov.f32 %%f1, 0f3FC00000;\nmov.f32 %%f2, 0fC0100000;\nmov.f32 %%f3, 0f00200000;\nmov.f32 %%f4, "
           "0f7149F2CA;\nmov.f32 %%f5, 0f7FFFFFFF;\nmov.f32 %%f6, 0f3EAAAAAB;\n");
    for (int i = 0; i < NFD; ++i)
        put(b, "mov.f64 %%fd%d, 0d0000000000000000;\n", i);
    put(b, "mov.f64 %%fd1, 0d3FF8000000000000;\nmov.f64 %%fd2, 0dC002000000000000;\nmov.f64 %%fd3, "
           "0d3FD5555555555555;\n");
    for (int i = 0; i < NH; ++i)
        put(b, "mov.b16 %%h%d, 0;\n", i);
    put(b, "mov.b16 %%h1, 0x3c00;\nmov.b16 %%h2, 0xc000;\nmov.b16 %%h3, 0x3f80;\nmov.b16 %%h4, 0x4248;\n"
           "mov.b16 %%h5, 0x4438;\n");
    for (int i = 0; i < NP; ++i)
        put(b, "setp.ne.u32 %%p%d, 0, 0;\n", i);
    put(b, "setp.eq.u32 %%p1, 0, 0;\n");
    put(b, "%s\n", row);
    /* every register to out[lane * SLOTS + slot] */
    put(b, "ld.param.u64 %%hx0, [out];\nmov.u32 %%hy0, %%tid.x;\nmul.wide.u32 %%hx1, %%hy0, %d;\n"
           "add.u64 %%hx0, %%hx0, %%hx1;\n",
        SLOTS * 8);
    int k = 0;
    for (int i = 0; i < NR; ++i, ++k)
        put(b, "cvt.u64.u32 %%hx1, %%r%d;\nst.global.u64 [%%hx0+%d], %%hx1;\n", i, k * 8);
    for (int i = 0; i < NRD; ++i, ++k)
        put(b, "st.global.u64 [%%hx0+%d], %%rd%d;\n", k * 8, i);
    for (int i = 0; i < NF; ++i, ++k)
        put(b, "mov.b32 %%hy1, %%f%d;\ncvt.u64.u32 %%hx1, %%hy1;\nst.global.u64 [%%hx0+%d], %%hx1;\n", i, k * 8);
    for (int i = 0; i < NFD; ++i, ++k)
        put(b, "mov.b64 %%hx1, %%fd%d;\nst.global.u64 [%%hx0+%d], %%hx1;\n", i, k * 8);
    for (int i = 0; i < NH; ++i, ++k)
        put(b, "cvt.u64.u16 %%hx1, %%h%d;\nst.global.u64 [%%hx0+%d], %%hx1;\n", i, k * 8);
    for (int i = 0; i < NP; ++i, ++k)
        put(b, "selp.u64 %%hx1, 1, 0, %%p%d;\nst.global.u64 [%%hx0+%d], %%hx1;\n", i, k * 8);
    put(b, "ret;\n}\n");
}

/* "%r10" -> slot and width in bits; false if it names no harness register. */
static bool reg_slot(const char *s, size_t n, int *slot, int *bits)
{
    char name[16];
    if (n >= sizeof name || n < 3 || s[0] != '%')
        return false;
    memcpy(name, s, n);
    name[n] = 0;
    static const struct {
        const char *p;
        int base, count, bits;
    } cls[] = {{"%rd", NR, NRD, 64}, {"%r", 0, NR, 32}, {"%fd", NR + NRD + NF, NFD, 64}, {"%f", NR + NRD, NF, 32},
               {"%h", NR + NRD + NF + NFD, NH, 16}, {"%p", NR + NRD + NF + NFD + NH, NP, 1}};
    for (size_t c = 0; c < sizeof cls / sizeof cls[0]; ++c) {
        size_t pl = strlen(cls[c].p);
        if (strncmp(name, cls[c].p, pl) == 0 && name[pl] >= '0' && name[pl] <= '9') {
            char *end;
            long i = strtol(name + pl, &end, 10);
            if (*end || i < 0 || i >= cls[c].count)
                return false;
            *slot = cls[c].base + (int)i;
            *bits = cls[c].bits;
            return true;
        }
    }
    return false;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
    return s;
}

/* The opcode a reason must name: the row's first word up to its first '.' or space. */
static void opcode_root(const char *form, char *out, size_t cap)
{
    size_t i = 0;
    while (form[i] && form[i] != '.' && form[i] != ' ' && i + 1 < cap) {
        out[i] = form[i];
        i++;
    }
    out[i] = 0;
}

static uint64_t host_out[LANES * SLOTS];

/* Loads and runs one row: *load and *run get the results; the log what the loader said. */
static void run_row(const char *ptx, CUresult *load, CUresult *run, char *log, size_t logcap)
{
    CUmodule m = NULL;
    CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {log, (void *)(uintptr_t)logcap};
    log[0] = 0;
    *run = CUDA_ERROR_NOT_READY;
    *load = cuModuleLoadDataEx(&m, ptx, 2, opts, vals);
#ifndef SWEEP_NVIDIA
    if (*load && !log[0])
        snprintf(log, logcap, "%s", extmem_error_detail());
#endif
    if (*load)
        return;
    CUfunction f;
    CUdeviceptr out = 0;
    CUresult r = cuModuleGetFunction(&f, m, "row");
    if (!r)
        r = cuMemAlloc(&out, sizeof host_out);
    if (!r)
        r = cuMemsetD8(out, 0, sizeof host_out);
    void *params[] = {&out};
    if (!r)
        r = cuLaunchKernel(f, 1, 1, 1, LANES, 1, 1, 0, NULL, params, NULL);
    if (!r)
        r = cuCtxSynchronize();
    if (!r)
        r = cuMemcpyDtoH(host_out, out, sizeof host_out);
    *run = r;
    if (r) { /* a fault is sticky: a new context for the next row */
        new_context();
        return;
    }
    cuMemFree(out);
    cuModuleUnload(m);
}

/* --every N: only every Nth row is run (the native tier compiles a module per row). */
static int every = 1;

static int sweep(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        perror(path);
        return 1;
    }
    char line[4096], log[2048];
    struct buf b = {0};
    int rows = 0, failed = 0, n_runs = 0, n_refused = 0, n_owner = 0;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *f[4] = {0};
        char *p = line;
        for (int i = 0; i < 4; ++i) {
            f[i] = p;
            char *bar = i < 3 ? strstr(p, " | ") : NULL;
            if (i < 3 && !bar) {
                f[i] = NULL;
                break;
            }
            if (bar) {
                *bar = 0;
                p = bar + 3;
            }
        }
        if (!f[3]) {
            printf("FAIL malformed row: %s\n", line);
            failed++;
            continue;
        }
        char *form = trim(f[0]), *status = trim(f[1]), *ptx = trim(f[2]), *checks = trim(f[3]);
        if (rows++ % every != 0)
            continue;
        module_text(&b, ptx);
        CUresult load, run;
        run_row(b.s, &load, &run, log, sizeof log);
        for (char *c = log; *c; ++c)
            if (*c == '\n')
                *c = ' ';
        char root[64];
        opcode_root(form, root, sizeof root);
        bool ok = true;
        char why[512] = "";
        if (strcmp(status, "runs") == 0) {
            n_runs++;
            if (load || run) {
                ok = false;
                snprintf(why, sizeof why, "load %s, run %s: %s", rname(load), load ? "-" : rname(run), log);
            }
        } else if (strncmp(status, "refused:", 8) == 0) {
            n_refused++;
            if (load != CUDA_ERROR_INVALID_PTX || !strstr(log, root)) {
                ok = false;
                snprintf(why, sizeof why, "expected INVALID_PTX naming '%s', got load %s: %s", root, rname(load),
                         log);
            }
        } else if (strncmp(status, "owner:", 6) == 0) {
            n_owner++;
            if (load && (load != CUDA_ERROR_INVALID_PTX || !strstr(log, root))) {
                ok = false;
                snprintf(why, sizeof why, "an owned row may run or be refused naming '%s', got load %s: %s", root,
                         rname(load), log);
            }
        } else {
            ok = false;
            snprintf(why, sizeof why, "unknown status '%s'", status);
        }
        /* the checks: REG[@LANE]=VALUE ... */
        char values[1024] = "";
        size_t vn = 0;
        if (strcmp(checks, "-") != 0) {
            for (char *t = checks, *next; t && *t; t = next) {
                next = strchr(t, ' ');
                if (next)
                    *next++ = 0;
                if (!*t)
                    continue;
                char *eq = strchr(t, '=');
                char *at = strchr(t, '@');
                int slot, bits, lane = 0;
                size_t rn = (size_t)((at && at < eq ? at : eq) - t);
                if (!eq || !reg_slot(t, rn, &slot, &bits)) {
                    ok = false;
                    snprintf(why, sizeof why, "malformed check '%s'", t);
                    break;
                }
                if (at && at < eq)
                    lane = atoi(at + 1);
                uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
                uint64_t got = host_out[(size_t)lane * SLOTS + (size_t)slot] & mask;
                int digits = bits == 1 ? 1 : bits / 4;
                if (!load && !run)
                    vn += (size_t)snprintf(values + vn, sizeof values - vn, " %.*s=0x%0*llx", (int)(eq - t), t,
                                           digits, (unsigned long long)got);
                if (!record && !load && !run && strcmp(eq + 1, "?") != 0) {
                    uint64_t want = strtoull(eq + 1, NULL, 16);
                    if (want != got) {
                        ok = false;
                        snprintf(why, sizeof why, "%.*s is 0x%0*llx, the GPU gave 0x%0*llx", (int)(eq - t), t,
                                 digits, (unsigned long long)got, digits, (unsigned long long)want);
                    }
                }
            }
        }
        if (record) {
            printf("ROW %s | load=%s run=%s |%s\n", form, rname(load), load ? "-" : rname(run), values);
            if (load)
                printf("    log: %.300s\n", log);
            continue;
        }
        if (!ok) {
            failed++;
            printf("FAIL %s: %s\n", form, why);
        } else {
            printf("PASS %s (%s)\n", form, status);
        }
    }
    fclose(fp);
    free(b.s);
    printf("%d rows: %d run, %d refused, %d owned by other parts; %d failed\n", rows, n_runs, n_refused, n_owner,
           failed);
    return failed != 0;
}

/* ---- special registers that depend on the launch ---- */
static const char sreg_ptx[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry sregs(.param .u64 out)\n{\n"
    ".reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
    ".shared .align 4 .b8 st[100];\n.extern .shared .align 4 .b8 dyn[];\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ctaid.y;\nmov.u32 %r3, %nctaid.x;\nmov.u32 %r4, %tid.x;\n"
    "mov.u32 %r5, %ntid.x;\nmad.lo.u32 %r6, %r2, %r3, %r1;\nmad.lo.u32 %r7, %r6, %r5, %r4;\n"
    "mul.wide.u32 %rd2, %r7, 80;\nadd.u64 %rd1, %rd1, %rd2;\n"
    "mov.u32 %r10, %clusterid.x;\nmov.u32 %r11, %clusterid.y;\nmov.u32 %r12, %nclusterid.x;\n"
    "mov.u32 %r13, %nclusterid.y;\nmov.u32 %r14, %cluster_ctaid.x;\nmov.u32 %r15, %cluster_nctaid.x;\n"
    "mov.u32 %r16, %smid;\nmov.u32 %r17, %nsmid;\nmov.u32 %r18, %warpid;\nmov.u32 %r19, %nwarpid;\n"
    "mov.u32 %r20, %dynamic_smem_size;\nmov.u32 %r21, %total_smem_size;\nmov.u32 %r22, %aggr_smem_size;\n"
    "mov.u64 %rd3, %gridid;\nmov.u32 %r23, WARP_SZ;\nmov.u32 %r24, %cluster_ctarank;\n"
    "mov.u32 %r25, %cluster_nctarank;\nmov.pred %p1, %is_explicit_cluster;\nselp.u32 %r26, 1, 0, %p1;\n"
    "st.shared.u8 [st], %r4;\n"
    "st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};\nst.global.v4.u32 [%rd1+16], {%r14, %r15, %r16, %r17};\n"
    "st.global.v4.u32 [%rd1+32], {%r18, %r19, %r20, %r21};\nst.global.v2.u32 [%rd1+48], {%r22, %r23};\n"
    "st.global.u64 [%rd1+56], %rd3;\nst.global.v4.u32 [%rd1+64], {%r24, %r25, %r26, %r20};\nret;\n}\n"
    ".visible .entry timer(.param .u64 out, .param .u32 spins)\n{\n"
    ".reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [spins];\nmov.u64 %rd2, %globaltimer;\nmov.u64 %rd4, %clock64;\n"
    "L: mov.u64 %rd3, %globaltimer;\nsub.u64 %rd5, %rd3, %rd2;\ncvt.u64.u32 %rd6, %r1;\n"
    "setp.lt.u64 %p1, %rd5, %rd6;\n@%p1 bra L;\nmov.u64 %rd7, %clock64;\nst.global.u64 [%rd1], %rd2;\n"
    "st.global.u64 [%rd1+8], %rd3;\nsub.u64 %rd7, %rd7, %rd4;\nst.global.u64 [%rd1+16], %rd7;\nret;\n}\n";

static double now_s(void)
{
#ifdef _WIN32
    return (double)clock() / CLOCKS_PER_SEC; /* wall time on Windows */
#else
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
#endif
}

static int sregs(void)
{
    int failed = 0;
#define EXPECT(c, ...)                                                                                                 \
    do {                                                                                                               \
        if (!(c)) {                                                                                                    \
            printf("FAIL sregs: " __VA_ARGS__);                                                                        \
            printf("\n");                                                                                              \
            failed++;                                                                                                  \
        }                                                                                                              \
    } while (0)
    CUmodule m;
    CUfunction f, t;
    CUresult r = cuModuleLoadData(&m, sreg_ptx);
    if (r) {
        printf("FAIL sregs: the module does not load: %s\n", rname(r));
        return 1;
    }
    cuModuleGetFunction(&f, m, "sregs");
    cuModuleGetFunction(&t, m, "timer");
    enum { GX = 3, GY = 2, BX = 40, N = GX * GY * BX };
    CUdeviceptr out;
    cuMemAlloc(&out, N * 80);
    static uint32_t h[N * 20];
    uint64_t grid_ids[2] = {0, 0};
    int sms = 0;
    cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    for (int launch = 0; launch < 3; ++launch) {
        void *params[] = {&out};
        if (launch < 2) {
            r = cuLaunchKernel(f, GX, GY, 1, BX, 1, 1, 100, NULL, params, NULL);
        } else { /* an explicit cluster of one block: %is_explicit_cluster */
            CUlaunchAttribute at;
            memset(&at, 0, sizeof at);
            at.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            at.value.clusterDim.x = at.value.clusterDim.y = at.value.clusterDim.z = 1;
            CUlaunchConfig cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.gridDimX = GX;
            cfg.gridDimY = GY;
            cfg.gridDimZ = 1;
            cfg.blockDimX = BX;
            cfg.blockDimY = cfg.blockDimZ = 1;
            cfg.sharedMemBytes = 100;
            cfg.attrs = &at;
            cfg.numAttrs = 1;
            r = cuLaunchKernelEx(&cfg, f, params, NULL);
        }
        if (!r)
            r = cuCtxSynchronize();
        if (!r)
            r = cuMemcpyDtoH(h, out, sizeof h);
        EXPECT(!r, "launch %d: %s", launch, rname(r));
        if (r)
            return failed;
        uint64_t gid0;
        memcpy(&gid0, &h[14], 8);
        if (launch < 2)
            grid_ids[launch] = gid0;
        for (int i = 0; i < N; ++i) {
            const uint32_t *o = h + (size_t)i * 20;
            int bx = i / BX % GX, by = i / BX / GX, tx = i % BX;
            uint64_t gid;
            memcpy(&gid, &o[14], 8);
            EXPECT(o[0] == (uint32_t)bx && o[1] == (uint32_t)by, "thread %d: %%clusterid (%u,%u), not %%ctaid", i, o[0],
                   o[1]);
            EXPECT(o[2] == GX && o[3] == GY, "thread %d: %%nclusterid (%u,%u), not %%nctaid", i, o[2], o[3]);
            EXPECT(o[4] == 0 && o[5] == 1, "thread %d: %%cluster_ctaid.x %u %%cluster_nctaid.x %u", i, o[4], o[5]);
            EXPECT(o[6] < o[7], "thread %d: %%smid %u not below %%nsmid %u", i, o[6], o[7]);
            EXPECT(o[7] >= (uint32_t)sms, "thread %d: %%nsmid %u below the SM count %d", i, o[7], sms);
            EXPECT(o[8] == (uint32_t)tx / 32 || record, "thread %d: %%warpid %u", i, o[8]);
            EXPECT(o[8] < o[9], "thread %d: %%warpid %u not below %%nwarpid %u", i, o[8], o[9]);
            EXPECT(o[10] == 100, "thread %d: %%dynamic_smem_size %u", i, o[10]);
            EXPECT(gid == gid0, "thread %d: %%gridid differs within a launch", i);
            EXPECT(o[13] == 32, "thread %d: WARP_SZ %u", i, o[13]);
            /* as the H200 computes them (docs/probes/kernels/sreg): static + dynamic rounded up to 128
             * bytes, and static + dynamic + the 1 KiB reserved */
            EXPECT(o[11] == 256 && o[12] == 1224, "thread %d: %%total_smem_size %u %%aggr_smem_size %u", i, o[11],
                   o[12]);
            EXPECT(o[16] == 0 && o[17] == 1, "thread %d: %%cluster_ctarank %u %%cluster_nctarank %u", i, o[16], o[17]);
            EXPECT(o[18] == (launch == 2), "thread %d, launch %d: %%is_explicit_cluster %u", i, launch, o[18]);
            if (i == 0 && record)
                printf("SREG nwarpid %u nsmid %u total_smem_size %u aggr_smem_size %u (static 100, dynamic 100) "
                       "gridid %llu\n",
                       o[9], o[7], o[11], o[12], (unsigned long long)gid);
        }
    }
    EXPECT(grid_ids[0] != grid_ids[1], "%%gridid is the same for two launches (%llu)",
           (unsigned long long)grid_ids[0]);
    /* %globaltimer counts nanoseconds: spin 20 ms of it and compare with the host's clock */
    uint32_t spins = 20000000;
    void *tp[] = {&out, &spins};
    double t0 = now_s();
    r = cuLaunchKernel(t, 1, 1, 1, 1, 1, 1, 0, NULL, tp, NULL);
    if (!r)
        r = cuCtxSynchronize();
    double t1 = now_s();
    uint64_t tv[3] = {0, 0, 0};
    if (!r)
        r = cuMemcpyDtoH(tv, out, sizeof tv);
    EXPECT(!r, "timer launch: %s", rname(r));
    double host_ns = (t1 - t0) * 1e9, host_epoch = t0 * 1e9;
    EXPECT(tv[1] - tv[0] >= spins && host_ns >= 0.9 * (double)spins,
           "%%globaltimer ran %llu ns while the host saw %.0f ns", (unsigned long long)(tv[1] - tv[0]), host_ns);
    if (record)
        printf("SREG globaltimer start %llu (host epoch ns %.0f) clock64 ticks over 20 ms of globaltimer: %llu\n",
               (unsigned long long)tv[0], host_epoch, (unsigned long long)tv[2]);
    cuMemFree(out);
    cuModuleUnload(m);
    printf("%s sregs\n", failed ? "FAIL" : "PASS");
    return failed != 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: isa_sweep TABLE [--record | --every N]\n");
        return 2;
    }
    record = argc > 2 && strcmp(argv[2], "--record") == 0;
    if (argc > 3 && strcmp(argv[2], "--every") == 0 && atoi(argv[3]) > 0)
        every = atoi(argv[3]);
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line at a time: the native tier compiles a module per row */
    if (cuInit(0) || cuDeviceGet(&dev, 0) || !new_context()) {
        printf("isa_sweep: no device\n");
        return 1;
    }
    int rc = sweep(argv[1]);
    rc |= sregs();
    cuCtxDestroy(ctx);
    return rc;
}
