/*
 * The kernel engine on its own (issue 29): no cuInit, no context, no stream. The engine is given
 * what a launch needs (src/kernel/kernel.h) by this file instead of the core: an address space
 * of one buffer, workers that run the blocks in this thread, and a host that starts no thread.
 * A kernel writes its global thread index into the buffer; the same kernel storing past the
 * buffer ends with CUDA_ERROR_ILLEGAL_ADDRESS, because this address space says no; %nsmid is
 * the workers' count.
 */
#include "kernel/kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 4
#define THREADS 64
#define N (BLOCKS * THREADS)

static const char ptx[] = ".version 7.0\n"
                          ".target sm_80\n"
                          ".address_size 64\n"
                          ".visible .entry fill(.param .u64 out, .param .u64 smid_out)\n"
                          "{\n"
                          "  .reg .b32 %r<6>;\n"
                          "  .reg .b64 %rd<6>;\n"
                          "  ld.param.u64 %rd1, [out];\n"
                          "  mov.u32 %r1, %tid.x;\n"
                          "  mov.u32 %r2, %ctaid.x;\n"
                          "  mov.u32 %r3, %ntid.x;\n"
                          "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
                          "  mul.wide.u32 %rd2, %r4, 4;\n"
                          "  add.s64 %rd3, %rd1, %rd2;\n"
                          "  st.global.u32 [%rd3], %r4;\n"
                          "  ld.param.u64 %rd4, [smid_out];\n"
                          "  mov.u32 %r5, %nsmid;\n"
                          "  st.global.u32 [%rd4], %r5;\n"
                          "  ret;\n"
                          "}\n";

static uint32_t buffer[N + 1]; /* the kernel's results, then %nsmid */

/* The address space: the buffer, readable and writable; nothing else. */
static bool extent(const struct kaddr_space *space, uintptr_t addr, size_t size, bool write, uintptr_t *lo,
                   uintptr_t *hi)
{
    (void)space;
    (void)write;
    uintptr_t b = (uintptr_t)buffer, e = b + sizeof(buffer);
    if (addr < b || addr + size > e)
        return false;
    *lo = b;
    *hi = e;
    return true;
}

static const struct kaddr_space space = {extent};

/* The workers: every block in this thread, in order, until a fault stops them. */
static void run_serially(const struct kworkers *workers, uint64_t n, atomic_int *stop,
                         void (*block)(void *arg, uint64_t i), void *arg)
{
    (void)workers;
    for (uint64_t i = 0; i < n && !atomic_load(stop); ++i)
        block(arg, i);
}

static const struct kworkers workers = {.count = 3, .run = run_serially};

/* The host: never unloading; the portable tier starts no thread. */
static bool never(void) { return false; }
static void nothing(void) {}
static void leaving(os_thread self) { (void)self; }
static bool no_conditional(uint64_t handle, uint32_t value)
{
    (void)handle;
    (void)value;
    return false; /* no graphs here */
}
static bool no_image(uint64_t handle, bool surface, struct kimage *out)
{
    (void)handle;
    (void)surface;
    (void)out;
    return false; /* no texture or surface objects here */
}
static const struct khost host = {never, nothing, nothing, nothing, leaving, no_conditional, no_image, NULL, NULL, NULL, NULL, NULL};

static int failures;

#define CHECK(cond, ...)                                                                                              \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "engine_test:%d: ", __LINE__);                                                            \
            fprintf(stderr, __VA_ARGS__);                                                                             \
            fputc('\n', stderr);                                                                                      \
            failures++;                                                                                               \
        }                                                                                                             \
    } while (0)

static CUresult launch(const struct kfunc *fn, uint64_t out, uint64_t smid_out)
{
    uint64_t params[2] = {out, smid_out};
    struct klaunch l;
    memset(&l, 0, sizeof(l));
    l.fn = fn;
    l.grid[0] = BLOCKS;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = THREADS;
    l.block[1] = l.block[2] = 1;
    l.params = (unsigned char *)params;
    l.stack_bytes = 1024;
    l.space = &space;
    l.workers = &workers;
    l.host = &host;
    klaunch_init(&l);
    klaunch_run(&l);
    CUresult r = klaunch_finish(&l);
    if (r)
        printf("engine_test: the launch ended with %d: %s\n", (int)r, l.fault_reason);
    return r;
}

int main(void)
{
    /* Run with EXTMEM_JIT=portable (the ctest sets it): the native tier would start a compiler. */
    struct kmodule *m = NULL;
    char log[512] = "";
    struct klog errlog = {log, sizeof(log), 0};
    CUresult r = kmod_parse("engine_test", ptx, sizeof(ptx) - 1, "engine_test.ptx", &errlog, &m);
    CHECK(r == CUDA_SUCCESS, "kmod_parse: %d: %s", (int)r, log);
    if (r)
        return 1;
    struct kfunc *fn = kmod_entry(m, "fill");
    CHECK(fn != NULL, "no entry fill");
    if (!fn)
        return 1;

    r = launch(fn, (uint64_t)(uintptr_t)buffer, (uint64_t)(uintptr_t)&buffer[N]);
    CHECK(r == CUDA_SUCCESS, "the launch failed: %d", (int)r);
    for (uint32_t i = 0; i < N; ++i)
        CHECK(buffer[i] == i, "buffer[%u] is %u", i, buffer[i]);
    CHECK(buffer[N] == workers.count, "%%nsmid is %u, not the workers' count %u", buffer[N], workers.count);

    /* Past the buffer: not in this address space, whatever the process has mapped there. */
    static uint32_t elsewhere[N];
    r = launch(fn, (uint64_t)(uintptr_t)elsewhere, (uint64_t)(uintptr_t)&buffer[N]);
    CHECK(r == CUDA_ERROR_ILLEGAL_ADDRESS, "a store outside the address space gave %d", (int)r);
    CHECK(elsewhere[0] == 0, "the refused store was made");

    kmod_free(m);
    if (failures)
        return 1;
    printf("engine_test: %d threads ran without a CUDA context; a store outside the address space faulted\n", N);
    return 0;
}
