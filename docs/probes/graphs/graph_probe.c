/*
 * graph_probe.c - NVIDIA's driver answers for CUDA graphs and stream capture (issue 22).
 * One line per probe: `name: CODE_NAME (number) [extra values]`.
 * Every section runs in its own forked child (which initialises CUDA itself), so a crash or a
 * hang in one section is reported by the parent (`section X: killed by signal N`) and the
 * others still run. Risky probes (NULL arguments, destroyed handles) get a section of their own.
 * Built against NVIDIA's cuda.h: gcc -std=gnu11 graph_probe.c -I/usr/local/cuda/include -lcuda -lpthread
 * argv[1]: a folder for the .dot files of B.9 (default /tmp).
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char PTX[] =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry add1(.param .u64 p, .param .u32 n)\n{\n"
    " .reg .b32 %r<6>;\n .reg .b64 %rd<5>;\n .reg .pred %p;\n"
    " ld.param.u64 %rd1, [p];\n ld.param.u32 %r1, [n];\n mov.u32 %r2, %tid.x;\n"
    " setp.ge.u32 %p, %r2, %r1;\n @%p bra DONE;\n cvta.to.global.u64 %rd2, %rd1;\n"
    " mul.wide.u32 %rd3, %r2, 4;\n add.s64 %rd4, %rd2, %rd3;\n ld.global.u32 %r3, [%rd4];\n"
    " add.s32 %r4, %r3, 1;\n st.global.u32 [%rd4], %r4;\nDONE:\n ret;\n}\n";

static const char *outdir = "/tmp";
static CUdevice dev;
static CUcontext ctx;
static CUmodule mod, mod2;
static CUfunction fadd, fadd2;
static CUdeviceptr dbuf, dbuf2;
static unsigned int nelem = 256;
static void *kargs[2] = {&dbuf, &nelem};
static void *kargs2[2] = {&dbuf2, &nelem};
static char hostpage[4096];
static void *pinned;

static const char *rn(CUresult r)
{
    const char *n = NULL;
    if (cuGetErrorName(r, &n) != CUDA_SUCCESS || !n)
        return "(unnamed)";
    return n;
}

static void line(const char *name, CUresult r, const char *fmt, ...)
{
    char extra[2048] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(extra, sizeof extra, fmt, ap);
        va_end(ap);
    }
    printf("%s: %s (%d)%s%s\n", name, rn(r), (int)r, extra[0] ? " " : "", extra);
}
#define P(name, call) line(name, (call), NULL)
#define PX(name, call, ...) do { CUresult r_ = (call); line(name, r_, __VA_ARGS__); } while (0)

static const char *cs(CUstreamCaptureStatus s)
{
    switch (s) {
    case CU_STREAM_CAPTURE_STATUS_NONE: return "NONE";
    case CU_STREAM_CAPTURE_STATUS_ACTIVE: return "ACTIVE";
    case CU_STREAM_CAPTURE_STATUS_INVALIDATED: return "INVALIDATED";
    default: return "?";
    }
}

static CUresult launch(CUstream s) { return cuLaunchKernel(fadd, 1, 1, 1, 256, 1, 1, 0, s, kargs, NULL); }

static void setup(void)
{
    CUresult r;
    if ((r = cuInit(0)) || (r = cuDeviceGet(&dev, 0)) || (r = cuDevicePrimaryCtxRetain(&ctx, dev)) ||
        (r = cuCtxSetCurrent(ctx)) || (r = cuModuleLoadData(&mod, PTX)) ||
        (r = cuModuleGetFunction(&fadd, mod, "add1")) || (r = cuModuleLoadData(&mod2, PTX)) ||
        (r = cuModuleGetFunction(&fadd2, mod2, "add1")) || (r = cuMemAlloc(&dbuf, 1 << 20)) ||
        (r = cuMemAlloc(&dbuf2, 1 << 20)) || (r = cuMemAllocHost(&pinned, 1 << 20))) {
        line("setup", r, NULL);
        exit(1);
    }
}

/* index of node n in the node array (or -1) */
static int idx(CUgraphNode *nodes, size_t n, CUgraphNode x)
{
    for (size_t i = 0; i < n; i++)
        if (nodes[i] == x)
            return (int)i;
    return -1;
}

/* "nodes=N types=[..] edges=[a->b ..]" */
static const char *describe(CUgraph g)
{
    static char buf[4096];
    CUgraphNode nodes[64], from[128], to[128];
    size_t n = 64, ne = 128;
    CUresult r = cuGraphGetNodes(g, nodes, &n);
    if (r) {
        snprintf(buf, sizeof buf, "(GetNodes %s)", rn(r));
        return buf;
    }
    int o = snprintf(buf, sizeof buf, "nodes=%zu types=[", n);
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType t = 99;
        cuGraphNodeGetType(nodes[i], &t);
        o += snprintf(buf + o, sizeof buf - o, "%s%d", i ? "," : "", (int)t);
    }
    r = cuGraphGetEdges(g, from, to, NULL, &ne);
    if (r) {
        snprintf(buf + o, sizeof buf - o, "] (GetEdges %s)", rn(r));
        return buf;
    }
    o += snprintf(buf + o, sizeof buf - o, "] edges=[");
    for (size_t i = 0; i < ne; i++)
        o += snprintf(buf + o, sizeof buf - o, "%s%d->%d", i ? " " : "", idx(nodes, n, from[i]), idx(nodes, n, to[i]));
    size_t nr = 64;
    CUgraphNode roots[64];
    cuGraphGetRootNodes(g, roots, &nr);
    o += snprintf(buf + o, sizeof buf - o, "] roots=%zu", nr);
    return buf;
}

static CUstreamCaptureStatus status_of(CUstream s)
{
    CUstreamCaptureStatus st = (CUstreamCaptureStatus)99;
    CUresult r = cuStreamIsCapturing(s, &st);
    if (r)
        return (CUstreamCaptureStatus)(100 + r);
    return st;
}

/* prints "  status=.. end=CODE graph=NULL|set", ends the capture */
static void finish(const char *name, CUstream s)
{
    char nm[256];
    CUstreamCaptureStatus st = status_of(s);
    CUgraph g = (CUgraph)(uintptr_t)0x1234;
    CUresult r = cuStreamEndCapture(s, &g);
    snprintf(nm, sizeof nm, "%s.end", name);
    line(nm, r, "status_before_end=%s graph=%s%s%s", cs(st),
         g == NULL ? "NULL" : g == (CUgraph)(uintptr_t)0x1234 ? "untouched" : "set",
         (g && g != (CUgraph)(uintptr_t)0x1234) ? " " : "",
         (g && g != (CUgraph)(uintptr_t)0x1234) ? describe(g) : "");
    if (g && g != (CUgraph)(uintptr_t)0x1234)
        cuGraphDestroy(g);
}

/* ---------------- section runner ---------------- */
static void run_section(const char *name, void (*fn)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(60);
        printf("## %s\n", name);
        setup();
        fn();
        fflush(stdout);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st))
        printf("%s: section killed by signal %d (%s)\n", name, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        printf("%s: section exited %d\n", name, WEXITSTATUS(st));
}

/* ======================= A. stream capture ======================= */
static void a1(void)
{
    P("A1.begin_legacy_0", cuStreamBeginCapture_v2(0, CU_STREAM_CAPTURE_MODE_GLOBAL));
    P("A1.begin_CU_STREAM_LEGACY", cuStreamBeginCapture_v2(CU_STREAM_LEGACY, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUresult r = cuStreamBeginCapture_v2(CU_STREAM_PER_THREAD, CU_STREAM_CAPTURE_MODE_GLOBAL);
    line("A1.begin_per_thread", r, "status=%s", cs(status_of(CU_STREAM_PER_THREAD)));
    if (!r) {
        launch(CU_STREAM_PER_THREAD);
        finish("A1.per_thread", CU_STREAM_PER_THREAD);
    }
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    P("A1.begin_bad_mode_7", cuStreamBeginCapture_v2(s, (CUstreamCaptureMode)7));
    line("A1.after_bad_mode", CUDA_SUCCESS, "status=%s", cs(status_of(s)));
    P("A1.isCapturing_legacy", cuStreamIsCapturing(0, &(CUstreamCaptureStatus){0}));
    P("A1.endCapture_empty_begin", cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    finish("A1.empty_capture", s);
}

static void a2(void)
{
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    P("A2.begin", cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    P("A2.begin_again_same_stream", cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    line("A2.after_second_begin", CUDA_SUCCESS, "status=%s", cs(status_of(s)));
    launch(s);
    finish("A2.first", s);
    CUgraph g = (CUgraph)(uintptr_t)0x1234;
    PX("A2.end_not_capturing", cuStreamEndCapture(s, &g), "graph=%s", g == (CUgraph)(uintptr_t)0x1234 ? "untouched" : g ? "set" : "NULL");
    g = (CUgraph)(uintptr_t)0x1234;
    PX("A2.end_legacy_not_capturing", cuStreamEndCapture(0, &g), "graph=%s", g == (CUgraph)(uintptr_t)0x1234 ? "untouched" : g ? "set" : "NULL");
}

static void a2null(void)
{
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    CUresult r = cuStreamEndCapture(s, NULL);
    line("A2.end_NULL_graph_ptr", r, "status_after=%s", cs(status_of(s)));
    finish("A2.after_NULL", s);
    P("A2.isCapturing_NULL_status", cuStreamIsCapturing(s, NULL));
}

/* A.3 ops while capturing */
struct opctx {
    int op;
    CUstream s, other;
    CUevent e;
    CUdeviceptr tofree;
    CUresult r;
};
static const char *opname[] = {"cuMemAlloc", "cuMemFree", "cuMemAllocHost", "cuMemcpyHtoD", "cuMemsetD8",
                               "cuCtxSynchronize", "cuStreamSynchronize_s", "cuStreamQuery_s", "cuEventQuery_ecap",
                               "cuEventSynchronize_ecap", "cuStreamSynchronize_other", "cuLaunchKernel_legacy",
                               "cuMemcpyHtoDAsync_legacy", "cuStreamWaitEvent_legacy_ecap",
                               "cuStreamWaitEvent_other_ecap", "cuEventRecord_ecap_other", "cuMemsetD8Async_other",
                               "cuMemAllocAsync_other", "cuStreamQuery_other", "cuEventQuery_uncaptured"};
#define NOPS 20
static CUevent e_uncaptured;
static CUresult do_op(struct opctx *o)
{
    CUdeviceptr p;
    void *h;
    switch (o->op) {
    case 0: { CUresult r = cuMemAlloc(&p, 4096); if (!r) cuMemFree(p); return r; }
    case 1: return cuMemFree(o->tofree);
    case 2: { CUresult r = cuMemAllocHost(&h, 4096); if (!r) cuMemFreeHost(h); return r; }
    case 3: return cuMemcpyHtoD(dbuf2, hostpage, 64);
    case 4: return cuMemsetD8(dbuf2, 1, 64);
    case 5: return cuCtxSynchronize();
    case 6: return cuStreamSynchronize(o->s);
    case 7: return cuStreamQuery(o->s);
    case 8: return cuEventQuery(o->e);
    case 9: return cuEventSynchronize(o->e);
    case 10: return cuStreamSynchronize(o->other);
    case 11: return launch(0);
    case 12: return cuMemcpyHtoDAsync(dbuf2, hostpage, 64, 0);
    case 13: return cuStreamWaitEvent(0, o->e, 0);
    case 14: return cuStreamWaitEvent(o->other, o->e, 0);
    case 15: return cuEventRecord(o->e, o->other);
    case 16: return cuMemsetD8Async(dbuf2, 1, 64, o->other);
    case 17: { CUresult r = cuMemAllocAsync(&p, 4096, o->other); if (!r) cuMemFreeAsync(p, o->other); return r; }
    case 18: return cuStreamQuery(o->other);
    case 19: return cuEventQuery(e_uncaptured);
    }
    return CUDA_ERROR_UNKNOWN;
}
static void *op_thread(void *a)
{
    struct opctx *o = a;
    cuCtxSetCurrent(ctx);
    o->r = do_op(o);
    return NULL;
}
static const char *modename[] = {"GLOBAL", "THREAD_LOCAL", "RELAXED"};

static int a3mode;
static void a3(void)
{
    CUstream s, other;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuStreamCreate(&other, CU_STREAM_NON_BLOCKING);
    cuEventCreate(&e_uncaptured, CU_EVENT_DISABLE_TIMING);
    cuEventRecord(e_uncaptured, other);
    cuStreamSynchronize(other);
    for (int mode = a3mode; mode == a3mode; mode++)
        for (int th = 0; th < 2; th++)
            for (int op = 0; op < NOPS; op++) {
                char nm[160];
                struct opctx o = {.op = op, .s = s, .other = other};
                cuEventCreate(&o.e, CU_EVENT_DISABLE_TIMING);
                cuMemAlloc(&o.tofree, 4096);
                CUresult rb = cuStreamBeginCapture_v2(s, (CUstreamCaptureMode)mode);
                if (rb) {
                    snprintf(nm, sizeof nm, "A3.%s.%s.%s.begin", modename[mode], th ? "other_thread" : "same_thread", opname[op]);
                    line(nm, rb, NULL);
                    continue;
                }
                launch(s);
                cuEventRecord(o.e, s);
                if (th) {
                    pthread_t t;
                    o.r = (CUresult)-1;
                    pthread_create(&t, NULL, op_thread, &o);
                    struct timespec dl;
                    clock_gettime(CLOCK_REALTIME, &dl);
                    dl.tv_sec += 5;
                    if (pthread_timedjoin_np(t, NULL, &dl)) {
                        snprintf(nm, sizeof nm, "A3.%s.other_thread.%s", modename[mode], opname[op]);
                        printf("%s: HUNG (other thread still blocked after 5 s) status=%s\n", nm, cs(status_of(s)));
                        finish(nm, s);
                        continue;
                    }
                } else {
                    o.r = do_op(&o);
                }
                snprintf(nm, sizeof nm, "A3.%s.%s.%s", modename[mode], th ? "other_thread" : "same_thread", opname[op]);
                line(nm, o.r, "status_after=%s", cs(status_of(s)));
                finish(nm, s);
                cuStreamSynchronize(s);
                cuCtxSynchronize();
                if (op != 1 || o.r)
                    cuMemFree(o.tofree);
                cuEventDestroy(o.e);
            }
}

static void a3g(void) { a3mode = 0; a3(); }
static void a3t(void) { a3mode = 1; a3(); }
static void a3r(void) { a3mode = 2; a3(); }

static void a4(void)
{
    CUstream b;
    cuStreamCreate(&b, 0);
    for (int mode = 0; mode < 3; mode += 2) {
        char nm[128];
        cuStreamBeginCapture_v2(b, (CUstreamCaptureMode)mode);
        launch(b);
        CUresult r = launch(0);
        snprintf(nm, sizeof nm, "A4.%s.blocking_capture.launch_legacy", modename[mode]);
        line(nm, r, "status_after=%s", cs(status_of(b)));
        finish(nm, b);
        cuStreamBeginCapture_v2(b, (CUstreamCaptureMode)mode);
        launch(b);
        r = cuMemsetD8Async(dbuf2, 0, 64, 0);
        snprintf(nm, sizeof nm, "A4.%s.blocking_capture.memsetD8Async_legacy", modename[mode]);
        line(nm, r, "status_after=%s", cs(status_of(b)));
        finish(nm, b);
        cuStreamBeginCapture_v2(b, (CUstreamCaptureMode)mode);
        launch(b);
        r = cuStreamQuery(0);
        snprintf(nm, sizeof nm, "A4.%s.blocking_capture.streamQuery_legacy", modename[mode]);
        line(nm, r, "status_after=%s", cs(status_of(b)));
        finish(nm, b);
        cuStreamBeginCapture_v2(b, (CUstreamCaptureMode)mode);
        launch(b);
        r = cuMemsetD8Async(dbuf2, 0, 64, CU_STREAM_PER_THREAD);
        snprintf(nm, sizeof nm, "A4.%s.blocking_capture.memsetD8Async_per_thread", modename[mode]);
        line(nm, r, "status_after=%s", cs(status_of(b)));
        finish(nm, b);
        /* a second blocking stream, not capturing */
        CUstream b2;
        cuStreamCreate(&b2, 0);
        cuStreamBeginCapture_v2(b, (CUstreamCaptureMode)mode);
        launch(b);
        r = cuMemsetD8Async(dbuf2, 0, 64, b2);
        snprintf(nm, sizeof nm, "A4.%s.blocking_capture.memsetD8Async_other_blocking", modename[mode]);
        line(nm, r, "status_after=%s", cs(status_of(b)));
        finish(nm, b);
        cuStreamSynchronize(b2);
        cuStreamDestroy(b2);
    }
}

struct endctx { CUstream s; CUgraph g; CUresult r; };
static void *end_thread(void *a)
{
    struct endctx *e = a;
    cuCtxSetCurrent(ctx);
    e->g = (CUgraph)(uintptr_t)0x1234;
    e->r = cuStreamEndCapture(e->s, &e->g);
    return NULL;
}
static void a5(void)
{
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    for (int mode = 0; mode < 3; mode++) {
        char nm[128];
        cuStreamBeginCapture_v2(s, (CUstreamCaptureMode)mode);
        launch(s);
        struct endctx e = {.s = s};
        pthread_t t;
        pthread_create(&t, NULL, end_thread, &e);
        pthread_join(t, NULL);
        snprintf(nm, sizeof nm, "A5.%s.end_from_other_thread", modename[mode]);
        line(nm, e.r, "graph=%s status_after=%s", e.g == (CUgraph)(uintptr_t)0x1234 ? "untouched" : e.g ? "set" : "NULL",
             cs(status_of(s)));
        if (e.g && e.g != (CUgraph)(uintptr_t)0x1234)
            printf("  %s graph: %s\n", nm, describe(e.g));
        finish(nm, s);
    }
}

static void a6(void)
{
    CUstream s, s2;
    CUevent e, j;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
    cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
    cuEventCreate(&j, CU_EVENT_DISABLE_TIMING);
    cuuint64_t id1 = 0, id2 = 0;
    CUstreamCaptureStatus st1, st2;
    CUgraph g1 = NULL, g2 = NULL;
    /* unjoined */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    P("A6.record_e_in_s", cuEventRecord(e, s));
    P("A6.s2_wait_e", cuStreamWaitEvent(s2, e, 0));
    cuStreamGetCaptureInfo(s, &st1, &id1, &g1, NULL, NULL, NULL);
    PX("A6.info_s2", cuStreamGetCaptureInfo(s2, &st2, &id2, &g2, NULL, NULL, NULL),
       "s2_status=%s same_id=%d same_graph=%d id_s=%llu", cs(st2), id1 == id2, g1 == g2, (unsigned long long)id1);
    P("A6.launch_s2", launch(s2));
    finish("A6.unjoined", s);
    line("A6.unjoined.s2_after", CUDA_SUCCESS, "s2_status=%s", cs(status_of(s2)));
    P("A6.unjoined.s2_query_after", cuStreamQuery(s2));
    P("A6.unjoined.launch_s2_after", launch(s2));
    P("A6.unjoined.sync_s2_after", cuStreamSynchronize(s2));
    /* joined */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    launch(s2);
    launch(s);
    cuEventRecord(j, s2);
    cuStreamWaitEvent(s, j, 0);
    launch(s);
    finish("A6.joined(k; rec e; s2 wait e; k@s2; k@s; rec j@s2; s wait j; k@s)", s);
    line("A6.joined.s2_after", CUDA_SUCCESS, "s2_status=%s", cs(status_of(s2)));
    /* end capture on the forked stream (not origin) */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    launch(s2);
    CUgraph g = (CUgraph)(uintptr_t)0x1234;
    PX("A6.end_on_forked_stream_s2", cuStreamEndCapture(s2, &g), "graph=%s s_status=%s s2_status=%s",
       g == (CUgraph)(uintptr_t)0x1234 ? "untouched" : g ? "set" : "NULL", cs(status_of(s)), cs(status_of(s2)));
    cuEventRecord(j, s2);
    cuStreamWaitEvent(s, j, 0);
    finish("A6.after_end_on_forked", s);
    /* s2 begins its own capture while joined */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    P("A6.begin_capture_on_joined_s2", cuStreamBeginCapture_v2(s2, CU_STREAM_CAPTURE_MODE_GLOBAL));
    cuEventRecord(j, s2);
    cuStreamWaitEvent(s, j, 0);
    finish("A6.after_begin_on_joined", s);
    /* two waits on the same event: one edge or two? */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s, e, 0);
    cuStreamWaitEvent(s, e, 0);
    launch(s);
    finish("A6.self_wait_twice(k; rec e; s wait e x2; k)", s);
    /* a capturing stream waits for an event of another capture */
    CUstream s3;
    cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    cuStreamBeginCapture_v2(s3, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    launch(s3);
    CUresult r = cuStreamWaitEvent(s3, e, 0);
    line("A6.wait_event_of_other_capture", r, "s_status=%s s3_status=%s", cs(status_of(s)), cs(status_of(s3)));
    finish("A6.cross.s", s);
    finish("A6.cross.s3", s3);
}

static void a7(void)
{
    CUstream s, u;
    CUevent e;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuStreamCreate(&u, CU_STREAM_NON_BLOCKING);
    cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED);
    launch(s);
    cuEventRecord(e, s);
    CUresult r = cuStreamWaitEvent(u, e, 0);
    line("A7.RELAXED.uncaptured_wait_capture_event", r, "s_status=%s u_status=%s", cs(status_of(s)), cs(status_of(u)));
    finish("A7.RELAXED.uncaptured_wait", s);
    PX("A7.eventQuery_after_capture_ended", cuEventQuery(e), "");
    PX("A7.eventSynchronize_after_capture_ended", cuEventSynchronize(e), "");
    PX("A7.wait_after_capture_ended", cuStreamWaitEvent(u, e, 0), "");
    P("A7.record_plain_again", cuEventRecord(e, u));
    P("A7.query_after_plain_record", cuStreamSynchronize(u) ? CUDA_ERROR_UNKNOWN : cuEventQuery(e));
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED);
    launch(s);
    cuEventRecord(e, s);
    r = cuEventQuery(e);
    line("A7.RELAXED.eventQuery_capture_event", r, "s_status=%s", cs(status_of(s)));
    finish("A7.RELAXED.eventQuery", s);
    /* elapsed time with a captured event */
    CUevent t1, t2;
    cuEventCreate(&t1, 0);
    cuEventCreate(&t2, 0);
    cuEventRecord(t1, u);
    cuStreamSynchronize(u);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_RELAXED);
    cuEventRecord(t2, s);
    float ms = -1;
    r = cuEventElapsedTime(&ms, t1, t2);
    line("A7.RELAXED.elapsed_with_captured_event", r, "s_status=%s", cs(status_of(s)));
    finish("A7.elapsed", s);
}

static void print_info(const char *name, CUstream s)
{
    CUstreamCaptureStatus st = (CUstreamCaptureStatus)99;
    cuuint64_t id = 77;
    CUgraph g = (CUgraph)(uintptr_t)0x1234;
    const CUgraphNode *deps = (const CUgraphNode *)(uintptr_t)0x5678;
    const CUgraphEdgeData *ed = (const CUgraphEdgeData *)(uintptr_t)0x5678;
    size_t nd = 99;
    CUresult r = cuStreamGetCaptureInfo(s, &st, &id, &g, &deps, &ed, &nd);
    char buf[1024];
    int o = snprintf(buf, sizeof buf, "status=%s id=%llu graph=%s deps=%s edgeData=%s numDeps=%zu", cs(st),
                     (unsigned long long)id, g == (CUgraph)(uintptr_t)0x1234 ? "untouched" : g ? "set" : "NULL",
                     deps == (const CUgraphNode *)(uintptr_t)0x5678 ? "untouched" : deps ? "set" : "NULL",
                     ed == (const CUgraphEdgeData *)(uintptr_t)0x5678 ? "untouched" : ed ? "set" : "NULL", nd);
    if (!r && st == CU_STREAM_CAPTURE_STATUS_ACTIVE && g && nd < 99 && deps && deps != (const CUgraphNode *)(uintptr_t)0x5678) {
        CUgraphNode nodes[64];
        size_t n = 64;
        CUresult rg = cuGraphGetNodes(g, nodes, &n);
        o += snprintf(buf + o, sizeof buf - o, " graph_nodes=%zu(%s) dep_idx=[", n, rn(rg));
        for (size_t i = 0; i < nd; i++)
            o += snprintf(buf + o, sizeof buf - o, "%s%d", i ? "," : "", idx(nodes, n, deps[i]));
        o += snprintf(buf + o, sizeof buf - o, "]");
        if (ed && ed != (const CUgraphEdgeData *)(uintptr_t)0x5678 && nd)
            o += snprintf(buf + o, sizeof buf - o, " ed0={from_port=%d,to_port=%d,type=%d}", ed[0].from_port, ed[0].to_port, ed[0].type);
    }
    line(name, r, "%s", buf);
}

static void a8(void)
{
    CUstream s, s2;
    CUevent e;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
    cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
    print_info("A8.info_not_capturing", s);
    print_info("A8.info_legacy_not_capturing", 0);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    print_info("A8.info_0_ops", s);
    launch(s);
    print_info("A8.info_1_op", s);
    launch(s);
    print_info("A8.info_2_ops", s);
    cuEventRecord(e, s);
    print_info("A8.info_after_eventRecord", s);
    cuStreamWaitEvent(s2, e, 0);
    print_info("A8.info_s2_after_fork", s2);
    launch(s2);
    print_info("A8.info_s2_after_fork_op", s2);
    print_info("A8.info_s_after_fork", s);
    PX("A8.info_all_NULL_outputs", cuStreamGetCaptureInfo(s, NULL, NULL, NULL, NULL, NULL, NULL), "");
    CUstreamCaptureStatus st;
    const CUgraphNode *dd = NULL;
    PX("A8.info_deps_without_count", cuStreamGetCaptureInfo(s, &st, NULL, NULL, &dd, NULL, NULL), "");
    /* join s2 back */
    CUevent j;
    cuEventCreate(&j, CU_EVENT_DISABLE_TIMING);
    cuEventRecord(j, s2);
    cuStreamWaitEvent(s, j, 0);
    print_info("A8.info_s_after_join", s);
    /* update dependencies */
    CUgraph g;
    const CUgraphNode *deps;
    size_t nd;
    cuStreamGetCaptureInfo(s, &st, NULL, &g, &deps, NULL, &nd);
    CUgraphNode nodes[64];
    size_t n = 64;
    cuGraphGetNodes(g, nodes, &n);
    CUgraphNode first = nodes[0];
    P("A8.update_ADD_first", cuStreamUpdateCaptureDependencies(s, &first, NULL, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
    print_info("A8.info_after_ADD", s);
    P("A8.update_ADD_first_again", cuStreamUpdateCaptureDependencies(s, &first, NULL, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
    print_info("A8.info_after_ADD_again", s);
    P("A8.update_SET_first", cuStreamUpdateCaptureDependencies(s, &first, NULL, 1, CU_STREAM_SET_CAPTURE_DEPENDENCIES));
    print_info("A8.info_after_SET", s);
    P("A8.update_flags_2", cuStreamUpdateCaptureDependencies(s, &first, NULL, 1, 2));
    line("A8.after_flags_2", CUDA_SUCCESS, "status=%s", cs(status_of(s)));
    P("A8.update_SET_empty", cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0, CU_STREAM_SET_CAPTURE_DEPENDENCIES));
    print_info("A8.info_after_SET_empty", s);
    P("A8.update_NULL_count1", cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0, CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
    /* a node of another graph */
    CUgraph og;
    CUgraphNode on;
    cuGraphCreate(&og, 0);
    cuGraphAddEmptyNode(&on, og, NULL, 0);
    P("A8.update_ADD_foreign_node", cuStreamUpdateCaptureDependencies(s, &on, NULL, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
    line("A8.after_foreign", CUDA_SUCCESS, "status=%s", cs(status_of(s)));
    cuStreamUpdateCaptureDependencies(s, &first, NULL, 1, CU_STREAM_SET_CAPTURE_DEPENDENCIES);
    launch(s);
    finish("A8.final(k;k;rec;fork k@s2;join;SET[first];k)", s);
    P("A8.update_not_capturing", cuStreamUpdateCaptureDependencies(s, &first, NULL, 1, 0));
    /* ids across captures */
    cuuint64_t ids[3];
    for (int i = 0; i < 3; i++) {
        cuStreamBeginCapture_v2(i == 1 ? s2 : s, CU_STREAM_CAPTURE_MODE_GLOBAL);
        cuStreamGetCaptureInfo(i == 1 ? s2 : s, &st, &ids[i], NULL, NULL, NULL, NULL);
        CUgraph gg;
        cuStreamEndCapture(i == 1 ? s2 : s, &gg);
        if (gg) cuGraphDestroy(gg);
    }
    line("A8.ids_of_3_captures", CUDA_SUCCESS, "%llu %llu %llu", (unsigned long long)ids[0], (unsigned long long)ids[1], (unsigned long long)ids[2]);
    /* mutating the capture graph during capture */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuStreamGetCaptureInfo(s, &st, NULL, &g, &deps, NULL, &nd);
    CUgraphNode en;
    P("A8.addEmptyNode_to_capturing_graph", cuGraphAddEmptyNode(&en, g, deps, nd));
    P("A8.update_SET_added_node", cuStreamUpdateCaptureDependencies(s, &en, NULL, 1, CU_STREAM_SET_CAPTURE_DEPENDENCIES));
    launch(s);
    finish("A8.with_added_node", s);
}

static void CUDA_CB hostfn(void *p) { if (p) (*(volatile int *)p)++; }

static void capture_one(const char *name, int which)
{
    CUstream s;
    CUevent e, ebefore;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
    cuEventCreate(&ebefore, CU_EVENT_DISABLE_TIMING);
    cuEventRecord(ebefore, s);
    CUresult r = cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    CUdeviceptr p = 0;
    switch (which) {
    case 0: r = launch(s); break;
    case 1: r = cuMemcpyHtoDAsync(dbuf2, hostpage, 128, s); break;
    case 2: r = cuMemcpyHtoDAsync(dbuf2, pinned, 128, s); break;
    case 3: r = cuMemcpyDtoDAsync(dbuf2, dbuf, 128, s); break;
    case 4: r = cuMemsetD8Async(dbuf2, 7, 100, s); break;
    case 5: r = cuMemsetD16Async(dbuf2, 7, 50, s); break;
    case 6: r = cuMemsetD32Async(dbuf2, 7, 25, s); break;
    case 7: r = cuMemsetD2D8Async(dbuf2, 64, 7, 10, 3, s); break;
    case 8: r = cuLaunchHostFunc(s, hostfn, NULL); break;
    case 9: launch(s); r = cuEventRecord(e, s); launch(s); break;
    case 10: launch(s); r = cuEventRecordWithFlags(e, s, CU_EVENT_RECORD_EXTERNAL); launch(s); break;
    case 11: r = cuStreamWaitEvent(s, ebefore, 0); launch(s); break;
    case 12: r = cuMemAllocAsync(&p, 4096, s); if (!r) { launch(s); r = cuMemFreeAsync(p, s); } break;
    case 13: r = cuMemcpyDtoHAsync(pinned, dbuf2, 128, s); break;
    case 14: r = cuMemcpyDtoHAsync(hostpage, dbuf2, 128, s); break;
    case 15: r = cuMemsetD8Async(dbuf2 + 1, 7, 3, s); break;
    case 16: r = cuStreamWaitEvent(s, ebefore, CU_EVENT_WAIT_EXTERNAL); launch(s); break;
    case 17: r = cuMemcpyAsync(dbuf2, dbuf, 128, s); break;
    case 18: r = cuMemcpyHtoDAsync(dbuf2, hostpage, 0, s); break;
    case 19: r = cuMemsetD8Async(dbuf2, 7, 0, s); break;
    case 20: { CUstream s2; cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING); launch(s); cuEventRecord(e, s); cuStreamWaitEvent(s2, e, 0); launch(s2); CUevent j; cuEventCreate(&j, 0); cuEventRecord(j, s2); r = cuStreamWaitEvent(s, j, 0); break; }
    }
    line(name, r, "status=%s", cs(status_of(s)));
    CUstreamCaptureStatus st = status_of(s);
    CUgraph g = NULL;
    CUresult re = cuStreamEndCapture(s, &g);
    if (re || !g) {
        line("  end", re, "status_before=%s", cs(st));
        return;
    }
    printf("  %s graph: %s\n", name, describe(g));
    CUgraphNode nodes[16];
    size_t n = 16;
    cuGraphGetNodes(g, nodes, &n);
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType t;
        cuGraphNodeGetType(nodes[i], &t);
        if (t == CU_GRAPH_NODE_TYPE_MEMSET) {
            CUDA_MEMSET_NODE_PARAMS m;
            memset(&m, 0xab, sizeof m);
            CUresult rr = cuGraphMemsetNodeGetParams(nodes[i], &m);
            line("  memset_params", rr, "dst_off=%lld elementSize=%u width=%zu height=%zu pitch=%zu value=%u",
                 (long long)(m.dst - dbuf2), m.elementSize, m.width, m.height, m.pitch, m.value);
        } else if (t == CU_GRAPH_NODE_TYPE_MEMCPY) {
            CUDA_MEMCPY3D c;
            memset(&c, 0xab, sizeof c);
            CUresult rr = cuGraphMemcpyNodeGetParams(nodes[i], &c);
            line("  memcpy_params", rr,
                 "srcMemoryType=%d dstMemoryType=%d WidthInBytes=%zu Height=%zu Depth=%zu srcXInBytes=%zu srcY=%zu srcZ=%zu srcLOD=%zu srcPitch=%zu srcHeight=%zu dstXInBytes=%zu dstY=%zu dstPitch=%zu dstHeight=%zu srcHost=%s srcDevice=%s dstHost=%s dstDevice=%s",
                 (int)c.srcMemoryType, (int)c.dstMemoryType, c.WidthInBytes, c.Height, c.Depth, c.srcXInBytes, c.srcY,
                 c.srcZ, c.srcLOD, c.srcPitch, c.srcHeight, c.dstXInBytes, c.dstY, c.dstPitch, c.dstHeight,
                 c.srcHost == hostpage ? "hostpage" : c.srcHost == pinned ? "pinned" : c.srcHost ? "other" : "NULL",
                 c.srcDevice == dbuf ? "dbuf" : c.srcDevice == dbuf2 ? "dbuf2" : c.srcDevice ? "other" : "0",
                 c.dstHost == hostpage ? "hostpage" : c.dstHost == pinned ? "pinned" : c.dstHost ? "other" : "NULL",
                 c.dstDevice == dbuf ? "dbuf" : c.dstDevice == dbuf2 ? "dbuf2" : c.dstDevice ? "other" : "0");
        } else if (t == CU_GRAPH_NODE_TYPE_KERNEL) {
            CUDA_KERNEL_NODE_PARAMS k;
            memset(&k, 0, sizeof k);
            CUresult rr = cuGraphKernelNodeGetParams(nodes[i], &k);
            line("  kernel_params", rr, "func==fadd:%d grid=%u,%u,%u block=%u,%u,%u shmem=%u kernelParams=%s extra=%s kern=%s ctx==ctx:%d",
                 k.func == fadd, k.gridDimX, k.gridDimY, k.gridDimZ, k.blockDimX, k.blockDimY, k.blockDimZ,
                 k.sharedMemBytes, k.kernelParams ? "set" : "NULL", k.extra ? "set" : "NULL", k.kern ? "set" : "NULL", k.ctx == ctx);
            if (k.kernelParams)
                printf("  kernel_params arg0==dbuf:%d arg1=%u\n", *(CUdeviceptr *)k.kernelParams[0] == dbuf, *(unsigned *)k.kernelParams[1]);
        } else if (t == CU_GRAPH_NODE_TYPE_HOST) {
            CUDA_HOST_NODE_PARAMS h;
            CUresult rr = cuGraphHostNodeGetParams(nodes[i], &h);
            line("  host_params", rr, "fn==hostfn:%d userData=%p", h.fn == hostfn, h.userData);
        } else if (t == CU_GRAPH_NODE_TYPE_EVENT_RECORD) {
            CUevent ev = NULL;
            CUresult rr = cuGraphEventRecordNodeGetEvent(nodes[i], &ev);
            line("  event_record_event", rr, "==e:%d", ev == e);
        } else if (t == CU_GRAPH_NODE_TYPE_WAIT_EVENT) {
            CUevent ev = NULL;
            CUresult rr = cuGraphEventWaitNodeGetEvent(nodes[i], &ev);
            line("  event_wait_event", rr, "==ebefore:%d", ev == ebefore);
        } else if (t == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
            CUDA_MEM_ALLOC_NODE_PARAMS a;
            memset(&a, 0, sizeof a);
            CUresult rr = cuGraphMemAllocNodeGetParams(nodes[i], &a);
            line("  alloc_params", rr, "dptr==p:%d bytesize=%zu allocType=%d handleTypes=%d loc=%d/%d accessDescCount=%zu",
                 a.dptr == p, a.bytesize, (int)a.poolProps.allocType, (int)a.poolProps.handleTypes,
                 (int)a.poolProps.location.type, a.poolProps.location.id, a.accessDescCount);
        } else if (t == CU_GRAPH_NODE_TYPE_MEM_FREE) {
            CUdeviceptr fp = 0;
            CUresult rr = cuGraphMemFreeNodeGetParams(nodes[i], &fp);
            line("  free_params", rr, "dptr==p:%d", fp == p);
        }
    }
    CUgraphExec x;
    CUresult ri = cuGraphInstantiate(&x, g, 0);
    CUresult rl = ri ? ri : cuGraphLaunch(x, s);
    CUresult rs = ri ? ri : cuStreamSynchronize(s);
    printf("  %s instantiate=%s launch=%s sync=%s\n", name, rn(ri), rn(rl), rn(rs));
    if (!ri) cuGraphExecDestroy(x);
    cuGraphDestroy(g);
}

static void a9(void)
{
    static const char *names[] = {"A9.kernel", "A9.HtoDAsync_pageable", "A9.HtoDAsync_pinned", "A9.DtoDAsync",
                                  "A9.memsetD8Async_100", "A9.memsetD16Async_50", "A9.memsetD32Async_25",
                                  "A9.memsetD2D8Async_pitch64_w10_h3", "A9.launchHostFunc",
                                  "A9.k_eventRecord_internal_k", "A9.k_eventRecord_EXTERNAL_k",
                                  "A9.waitEvent_recorded_before_begin_then_k", "A9.memAllocAsync_k_memFreeAsync",
                                  "A9.DtoHAsync_pinned", "A9.DtoHAsync_pageable", "A9.memsetD8Async_unaligned_3",
                                  "A9.waitEvent_EXTERNAL_recorded_before_then_k", "A9.cuMemcpyAsync_unified_DtoD",
                                  "A9.HtoDAsync_0_bytes", "A9.memsetD8Async_0_bytes", "A9.fork_join_no_trailing_op"};
    for (int i = 0; i < 21; i++)
        capture_one(names[i], i);
}

static void a10(void)
{
    CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
    PX("A10.exchange_RELAXED", cuThreadExchangeStreamCaptureMode(&m), "previous=%d", (int)m);
    CUstreamCaptureMode m2 = CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
    PX("A10.exchange_THREAD_LOCAL", cuThreadExchangeStreamCaptureMode(&m2), "previous=%d", (int)m2);
    CUstreamCaptureMode m3 = (CUstreamCaptureMode)7;
    PX("A10.exchange_bad_7", cuThreadExchangeStreamCaptureMode(&m3), "value_after=%d", (int)m3);
    CUstreamCaptureMode m4 = CU_STREAM_CAPTURE_MODE_GLOBAL;
    PX("A10.exchange_GLOBAL", cuThreadExchangeStreamCaptureMode(&m4), "previous=%d", (int)m4);
    /* effect of thread mode RELAXED on a GLOBAL capture's prohibition */
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    CUstreamCaptureMode m5 = CU_STREAM_CAPTURE_MODE_RELAXED;
    cuThreadExchangeStreamCaptureMode(&m5);
    CUdeviceptr p;
    CUresult r = cuMemAlloc(&p, 4096);
    line("A10.GLOBAL_capture.thread_RELAXED.cuMemAlloc", r, "status_after=%s", cs(status_of(s)));
    if (!r) cuMemFree(p);
    cuThreadExchangeStreamCaptureMode(&m5);
    finish("A10.GLOBAL_capture.thread_RELAXED", s);
}
static void a10null(void) { P("A10.exchange_NULL", cuThreadExchangeStreamCaptureMode(NULL)); }

static void a11(void)
{
    CUgraph g;
    CUgraphNode n;
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&n, g, NULL, 0);
    CUresult r = cuStreamBeginCaptureToGraph(s, g, &n, NULL, 1, CU_STREAM_CAPTURE_MODE_GLOBAL);
    line("A11.beginCaptureToGraph_dep_empty_node", r, "status=%s", cs(status_of(s)));
    print_info("A11.info", s);
    launch(s);
    launch(s);
    CUgraph out = NULL;
    r = cuStreamEndCapture(s, &out);
    line("A11.end", r, "out==g:%d %s", out == g, describe(g));
    r = cuStreamBeginCaptureToGraph(s, g, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    out = NULL;
    CUresult r2 = cuStreamEndCapture(s, &out);
    line("A11.again_no_deps", r, "end=%s out==g:%d %s", rn(r2), out == g, describe(g));
    CUgraph g2;
    CUgraphNode n2;
    cuGraphCreate(&g2, 0);
    cuGraphAddEmptyNode(&n2, g2, NULL, 0);
    r = cuStreamBeginCaptureToGraph(s, g, &n2, NULL, 1, CU_STREAM_CAPTURE_MODE_GLOBAL);
    line("A11.dep_from_other_graph", r, "status=%s", cs(status_of(s)));
    if (!r) finish("A11.dep_other", s);
    CUgraphEdgeData ed;
    memset(&ed, 0, sizeof ed);
    ed.type = 1;
    r = cuStreamBeginCaptureToGraph(s, g, &n, &ed, 1, CU_STREAM_CAPTURE_MODE_GLOBAL);
    line("A11.edge_type_programmatic_from_empty", r, "status=%s", cs(status_of(s)));
    if (!r) finish("A11.edge", s);
    r = cuStreamBeginCaptureToGraph(s, NULL, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_GLOBAL);
    line("A11.NULL_graph", r, "status=%s", cs(status_of(s)));
    if (!r) finish("A11.nullg", s);
}

/* ======================= B. graphs ======================= */
static void b1(void)
{
    CUgraph g, g2;
    PX("B1.create_flags_1", cuGraphCreate(&g, 1), "");
    P("B1.create_flags_0", cuGraphCreate(&g, 0));
    cuGraphCreate(&g2, 0);
    CUgraphNode a, b, o;
    cuGraphAddEmptyNode(&a, g, NULL, 0);
    cuGraphAddEmptyNode(&o, g2, NULL, 0);
    P("B1.empty_dep_other_graph", cuGraphAddEmptyNode(&b, g, &o, 1));
    CUgraphNode two[2] = {a, a};
    CUresult r = cuGraphAddEmptyNode(&b, g, two, 2);
    line("B1.empty_same_dep_twice", r, "%s", describe(g));
    P("B1.empty_NULL_graph", cuGraphAddEmptyNode(&b, NULL, NULL, 0));
    P("B1.destroy_NULL_graph", cuGraphDestroy(NULL));
    P("B1.create_NULL", cuGraphCreate(NULL, 0));
    CUgraphNode nodes[4];
    size_t n = 4;
    P("B1.getNodes_NULL_graph", cuGraphGetNodes(NULL, nodes, &n));
}
static void b1null(void)
{
    CUgraph g;
    CUgraphNode b;
    cuGraphCreate(&g, 0);
    P("B1.empty_NULL_deps_count_1", cuGraphAddEmptyNode(&b, g, NULL, 1));
}
static void b1nullout(void)
{
    CUgraph g;
    cuGraphCreate(&g, 0);
    P("B1.empty_NULL_node_out", cuGraphAddEmptyNode(NULL, g, NULL, 0));
}

static void b2(void)
{
    CUgraph g;
    CUgraphNode a, b, c;
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&a, g, NULL, 0);
    cuGraphAddEmptyNode(&b, g, NULL, 0);
    cuGraphAddEmptyNode(&c, g, NULL, 0);
    P("B2.add_a_b", cuGraphAddDependencies(g, &a, &b, NULL, 1));
    P("B2.add_a_b_again", cuGraphAddDependencies(g, &a, &b, NULL, 1));
    P("B2.add_b_c", cuGraphAddDependencies(g, &b, &c, NULL, 1));
    CUresult r = cuGraphAddDependencies(g, &c, &a, NULL, 1);
    line("B2.add_c_a_cycle", r, "%s", describe(g));
    P("B2.add_a_a_self", cuGraphAddDependencies(g, &a, &a, NULL, 1));
    CUgraphExec x;
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof ip);
    ip.result_out = (CUgraphInstantiateResult)77;
    r = cuGraphInstantiateWithParams(&x, g, &ip);
    line("B2.instantiateWithParams_cycle", r, "result_out=%d errNode=%s", (int)ip.result_out,
         ip.hErrNode_out == a ? "a" : ip.hErrNode_out == b ? "b" : ip.hErrNode_out == c ? "c" : ip.hErrNode_out ? "other" : "NULL");
    P("B2.instantiate_cycle", cuGraphInstantiate(&x, g, 0));
    P("B2.remove_c_a", cuGraphRemoveDependencies(g, &c, &a, NULL, 1));
    P("B2.remove_c_a_again(nonexistent)", cuGraphRemoveDependencies(g, &c, &a, NULL, 1));
    P("B2.remove_a_c(nonexistent)", cuGraphRemoveDependencies(g, &a, &c, NULL, 1));
    P("B2.remove_a_a_self", cuGraphRemoveDependencies(g, &a, &a, NULL, 1));
    memset(&ip, 0, sizeof ip);
    r = cuGraphInstantiateWithParams(&x, g, &ip);
    line("B2.instantiateWithParams_ok", r, "result_out=%d errNode=%s", (int)ip.result_out, ip.hErrNode_out ? "set" : "NULL");
    /* 2 arrays of 2 with one duplicate in the batch */
    CUgraphNode f2[2] = {a, a}, t2[2] = {c, c};
    r = cuGraphAddDependencies(g, f2, t2, NULL, 2);
    line("B2.add_batch_a_c_twice", r, "%s", describe(g));
    CUgraphNode f3[2] = {a, c}, t3[2] = {c, a};
    r = cuGraphAddDependencies(g, f3, t3, NULL, 2);
    line("B2.add_batch_with_existing(a->c) and new(c->a)", r, "%s", describe(g));
    P("B2.add_zero", cuGraphAddDependencies(g, NULL, NULL, NULL, 0));
    CUgraph g2;
    CUgraphNode o;
    cuGraphCreate(&g2, 0);
    cuGraphAddEmptyNode(&o, g2, NULL, 0);
    P("B2.add_foreign_node", cuGraphAddDependencies(g, &a, &o, NULL, 1));
    CUgraphEdgeData ed;
    memset(&ed, 0, sizeof ed);
    ed.type = 1;
    P("B2.add_edge_type_programmatic_empty_nodes", cuGraphAddDependencies(g, &b, &a, &ed, 1));
    memset(&ed, 0, sizeof ed);
    ed.reserved[0] = 1;
    P("B2.add_edge_reserved_nonzero", cuGraphAddDependencies(g, &b, &a, &ed, 1));
    memset(&ed, 0, sizeof ed);
    ed.to_port = 1;
    P("B2.add_edge_to_port_1", cuGraphAddDependencies(g, &b, &a, &ed, 1));
    /* node dependencies / dependents */
    CUgraphNode d[4];
    size_t nd = 4;
    PX("B2.c_getDependencies", cuGraphNodeGetDependencies(c, d, NULL, &nd), "n=%zu", nd);
    nd = 0;
    PX("B2.a_getDependentNodes_count", cuGraphNodeGetDependentNodes(a, NULL, NULL, &nd), "n=%zu", nd);
}

static void b3(void)
{
    CUgraph g;
    CUgraphNode a[5];
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&a[0], g, NULL, 0);
    cuGraphAddEmptyNode(&a[1], g, NULL, 0);
    cuGraphAddEmptyNode(&a[2], g, &a[0], 1);
    cuGraphAddEmptyNode(&a[3], g, &a[0], 2);
    size_t n = 0;
    PX("B3.getNodes_NULL_count", cuGraphGetNodes(g, NULL, &n), "n=%zu", n);
    n = 99;
    PX("B3.getNodes_NULL_count_from_99", cuGraphGetNodes(g, NULL, &n), "n=%zu", n);
    CUgraphNode buf[8] = {0};
    n = 2;
    PX("B3.getNodes_count_2_of_4", cuGraphGetNodes(g, buf, &n), "n=%zu buf=[%d,%d,%d]", n, idx(a, 4, buf[0]), idx(a, 4, buf[1]), buf[2] ? idx(a, 4, buf[2]) : -9);
    memset(buf, 0, sizeof buf);
    n = 8;
    PX("B3.getNodes_count_8_of_4", cuGraphGetNodes(g, buf, &n), "n=%zu order=[%d,%d,%d,%d] buf4=%s", n, idx(a, 4, buf[0]), idx(a, 4, buf[1]), idx(a, 4, buf[2]), idx(a, 4, buf[3]), buf[4] ? "set" : "0");
    n = 0;
    PX("B3.roots_NULL_count", cuGraphGetRootNodes(g, NULL, &n), "n=%zu", n);
    memset(buf, 0, sizeof buf);
    n = 1;
    PX("B3.roots_count_1_of_2", cuGraphGetRootNodes(g, buf, &n), "n=%zu buf=[%d,%s]", n, idx(a, 4, buf[0]), buf[1] ? "set" : "0");
    n = 0;
    PX("B3.edges_NULL_count", cuGraphGetEdges(g, NULL, NULL, NULL, &n), "n=%zu", n);
    CUgraphNode f[8] = {0}, t[8] = {0};
    n = 1;
    PX("B3.edges_count_1_of_3", cuGraphGetEdges(g, f, t, NULL, &n), "n=%zu e0=%d->%d f1=%s", n, idx(a, 4, f[0]), idx(a, 4, t[0]), f[1] ? "set" : "0");
    n = 8;
    PX("B3.edges_from_only", cuGraphGetEdges(g, f, NULL, NULL, &n), "n=%zu", n);
    CUgraphEdgeData ed[8];
    memset(ed, 0xee, sizeof ed);
    n = 8;
    PX("B3.edges_with_edgeData", cuGraphGetEdges(g, f, t, ed, &n), "n=%zu ed0={%d,%d,%d,res0=%d}", n, ed[0].from_port, ed[0].to_port, ed[0].type, ed[0].reserved[0]);
    n = 8;
    PX("B3.edges_NULL_from_with_count", cuGraphGetEdges(g, NULL, t, NULL, &n), "n=%zu", n);
    P("B3.getNodes_NULL_numNodes", cuGraphGetNodes(g, buf, NULL));
    CUgraph e;
    cuGraphCreate(&e, 0);
    n = 5;
    PX("B3.getNodes_empty_graph", cuGraphGetNodes(e, buf, &n), "n=%zu", n);
    n = 5;
    PX("B3.getEdges_empty_graph", cuGraphGetEdges(e, f, t, NULL, &n), "n=%zu", n);
}

static void b4(void)
{
    CUgraph g;
    CUgraphNode a, b, c;
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&a, g, NULL, 0);
    cuGraphAddEmptyNode(&b, g, &a, 1);
    cuGraphAddEmptyNode(&c, g, &b, 1);
    printf("B4.before: %s\n", describe(g));
    P("B4.destroyNode_middle", cuGraphDestroyNode(b));
    printf("B4.after: %s\n", describe(g));
    CUgraphExec x;
    cuGraphInstantiate(&x, g, 0);
    CUgraphNode d;
    CUresult r = cuGraphAddEmptyNode(&d, g, &a, 1);
    line("B4.addNode_after_instantiate", r, "%s", describe(g));
    P("B4.destroyNode_a_with_exec_alive", cuGraphDestroyNode(a));
    P("B4.launch_exec_after_node_destroy", cuGraphLaunch(x, 0));
    P("B4.sync", cuCtxSynchronize());
    /* cuGraphClone and find-in-clone */
    CUgraph cl;
    P("B4.clone", cuGraphClone(&cl, g));
    CUgraphNode cn;
    P("B4.findInClone_c", cuGraphNodeFindInClone(&cn, c, cl));
    P("B4.findInClone_node_of_other", cuGraphNodeFindInClone(&cn, c, g));
    printf("B4.clone_graph: %s\n", describe(cl));
}
static void b4destroyed(void)
{
    CUgraph g;
    CUgraphNode a;
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&a, g, NULL, 0);
    cuGraphDestroyNode(a);
    CUgraphNodeType t = (CUgraphNodeType)99;
    PX("B4.getType_destroyed_node", cuGraphNodeGetType(a, &t), "type=%d", (int)t);
}
static void b4twice(void)
{
    CUgraph g;
    CUgraphNode a;
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&a, g, NULL, 0);
    cuGraphDestroyNode(a);
    P("B4.destroyNode_twice", cuGraphDestroyNode(a));
}
static void b4destroyedgraph(void)
{
    CUgraph g;
    CUgraphNode a;
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&a, g, NULL, 0);
    cuGraphDestroy(g);
    CUgraphNodeType t = (CUgraphNodeType)99;
    PX("B4.getType_node_of_destroyed_graph", cuGraphNodeGetType(a, &t), "type=%d", (int)t);
    P("B4.graphDestroy_twice", cuGraphDestroy(g));
}

static void b5(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    CUDA_MEMSET_NODE_PARAMS m = {.dst = dbuf2, .pitch = 0, .value = 1, .elementSize = 3, .width = 10, .height = 1};
    P("B5.memset_elementSize_3", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.elementSize = 1; m.width = 0;
    P("B5.memset_width_0", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.width = 10; m.height = 0;
    P("B5.memset_height_0", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.height = 2; m.pitch = 4;
    P("B5.memset_h2_pitch_lt_width", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.height = 2; m.pitch = 0;
    P("B5.memset_h2_pitch_0", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.height = 1; m.pitch = 0; m.elementSize = 4; m.dst = dbuf2 + 2;
    P("B5.memset_es4_unaligned_dst", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.dst = dbuf2; m.value = 0x1ff; m.elementSize = 1;
    P("B5.memset_es1_value_0x1ff", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.value = 1;
    P("B5.memset_ctx_NULL", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, NULL));
    m.dst = 0;
    P("B5.memset_dst_0", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.dst = (CUdeviceptr)(uintptr_t)hostpage;
    P("B5.memset_dst_host_pageable", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    m.dst = dbuf2; m.width = (2 << 20);
    P("B5.memset_past_allocation_end", cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx));
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.gridDimX = k.gridDimY = k.gridDimZ = 1;
    k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1;
    k.kernelParams = kargs;
    P("B5.kernel_func_NULL", cuGraphAddKernelNode(&n, g, NULL, 0, &k));
    k.func = fadd; k.gridDimX = 0;
    P("B5.kernel_grid_0", cuGraphAddKernelNode(&n, g, NULL, 0, &k));
    k.gridDimX = 1; k.blockDimX = 4096;
    P("B5.kernel_block_4096", cuGraphAddKernelNode(&n, g, NULL, 0, &k));
    k.blockDimX = 256; k.kernelParams = NULL;
    P("B5.kernel_params_NULL", cuGraphAddKernelNode(&n, g, NULL, 0, &k));
    k.kernelParams = kargs;
    P("B5.kernel_ok", cuGraphAddKernelNode(&n, g, NULL, 0, &k));
    k.sharedMemBytes = 1 << 20;
    P("B5.kernel_shmem_1MiB", cuGraphAddKernelNode(&n, g, NULL, 0, &k));
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE; c.srcDevice = dbuf;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE; c.dstDevice = dbuf2;
    c.WidthInBytes = 0; c.Height = 1; c.Depth = 1;
    P("B5.memcpy_width_0", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    c.WidthInBytes = 64; c.Height = 0;
    P("B5.memcpy_height_0", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    c.Height = 1; c.Depth = 0;
    P("B5.memcpy_depth_0", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    c.Depth = 1;
    P("B5.memcpy_ok_DtoD_64", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    c.srcMemoryType = CU_MEMORYTYPE_HOST; c.srcHost = hostpage;
    P("B5.memcpy_HtoD_pageable", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    c.srcHost = pinned;
    P("B5.memcpy_HtoD_pinned", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    c.srcMemoryType = CU_MEMORYTYPE_UNIFIED; c.srcDevice = dbuf;
    P("B5.memcpy_src_UNIFIED_devptr", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    c.srcMemoryType = (CUmemorytype)9;
    P("B5.memcpy_src_type_9", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE; c.srcDevice = dbuf;
    P("B5.memcpy_ctx_NULL", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, NULL));
    c.WidthInBytes = 2 << 20;
    P("B5.memcpy_past_end", cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, ctx));
    CUDA_HOST_NODE_PARAMS h = {.fn = NULL, .userData = NULL};
    P("B5.host_fn_NULL", cuGraphAddHostNode(&n, g, NULL, 0, &h));
    h.fn = hostfn;
    P("B5.host_ok", cuGraphAddHostNode(&n, g, NULL, 0, &h));
    P("B5.childGraph_NULL", cuGraphAddChildGraphNode(&n, g, NULL, 0, NULL));
    CUgraph child, parent;
    cuGraphCreate(&child, 0);
    cuGraphCreate(&parent, 0);
    CUgraphNode cn;
    cuGraphAddEmptyNode(&cn, child, NULL, 0);
    P("B5.childGraph_ok", cuGraphAddChildGraphNode(&n, parent, NULL, 0, child));
    CUgraph inner = NULL;
    PX("B5.childGraphNodeGetGraph", cuGraphChildGraphNodeGetGraph(n, &inner), "is_copy=%d", inner != child);
    line("B5.child_copy", CUDA_SUCCESS, "%s", inner ? describe(inner) : "-");
}
static void b5cycle(void)
{
    CUgraph child, parent, inner = NULL;
    CUgraphNode n, cn;
    cuGraphCreate(&child, 0);
    cuGraphCreate(&parent, 0);
    cuGraphAddEmptyNode(&cn, child, NULL, 0);
    cuGraphAddChildGraphNode(&n, parent, NULL, 0, child);
    cuGraphChildGraphNodeGetGraph(n, &inner);
    P("B5.childGraph_parent_into_its_child_copy(cycle)", cuGraphAddChildGraphNode(&cn, inner, NULL, 0, parent));
}
static void b5b(void)
{
    CUgraph g, child;
    CUgraphNode n, cn;
    cuGraphCreate(&g, 0);
    cuGraphCreate(&child, 0);
    cuGraphAddEmptyNode(&cn, child, NULL, 0);
    P("B5.childGraph_ok", cuGraphAddChildGraphNode(&n, g, NULL, 0, child));
    CUgraphNode n2;
    cuGraphAddEmptyNode(&n2, child, NULL, 0);
    CUgraph inner = NULL;
    size_t nn = 0;
    cuGraphChildGraphNodeGetGraph(n, &inner);
    cuGraphGetNodes(inner, NULL, &nn);
    line("B5.child_changed_after_add", CUDA_SUCCESS, "inner_nodes=%zu (1=copied at add)", nn);
    P("B5.destroy_child_original", cuGraphDestroy(child));
    CUgraphNode x;
    P("B5.add_node_into_child_copy", cuGraphAddEmptyNode(&x, inner, NULL, 0));
}
static void b5evr(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    P("B5.event_record_NULL_event", cuGraphAddEventRecordNode(&n, g, NULL, 0, NULL));
}
static void b5evw(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    P("B5.event_wait_NULL_event", cuGraphAddEventWaitNode(&n, g, NULL, 0, NULL));
}
static void b5addnode(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    CUgraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_EMPTY;
    P("B5.addNode_EMPTY", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    np.reserved0[0] = 1;
    P("B5.addNode_EMPTY_reserved0_nonzero", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    np.reserved0[0] = 0; np.reserved2 = 1;
    P("B5.addNode_EMPTY_reserved2_nonzero", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    np.reserved2 = 0; np.type = (CUgraphNodeType)99;
    P("B5.addNode_type_99", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_HOST; np.host.fn = hostfn;
    P("B5.addNode_HOST", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_KERNEL;
    np.kernel.func = fadd; np.kernel.gridDimX = np.kernel.gridDimY = np.kernel.gridDimZ = 1;
    np.kernel.blockDimX = 32; np.kernel.blockDimY = np.kernel.blockDimZ = 1; np.kernel.kernelParams = kargs;
    P("B5.addNode_KERNEL", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_MEMSET;
    np.memset.dst = dbuf2; np.memset.elementSize = 1; np.memset.width = 10; np.memset.height = 1; np.memset.ctx = ctx;
    P("B5.addNode_MEMSET", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    CUgraphEdgeData ed;
    memset(&ed, 0, sizeof ed);
    CUgraphNode dep = n;
    P("B5.addNode_EMPTY_with_edgeData_default", (np.type = CU_GRAPH_NODE_TYPE_EMPTY, memset(&np.memset, 0, sizeof np.memset), cuGraphAddNode(&n, g, &dep, &ed, 1, &np)));
    CUevent ev;
    cuEventCreate(&ev, 0);
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD; np.eventRecord.event = ev;
    P("B5.addNode_EVENT_RECORD", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_GRAPH; np.graph.graph = g;
    CUgraph c2;
    cuGraphCreate(&c2, 0);
    np.graph.graph = c2;
    P("B5.addNode_GRAPH_clone_ownership", cuGraphAddNode(&n, g, NULL, NULL, 0, &np));
    CUgraph c3;
    cuGraphCreate(&c3, 0);
    np.graph.graph = c3; np.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE;
    CUresult r = cuGraphAddNode(&n, g, NULL, NULL, 0, &np);
    CUgraph got = NULL;
    cuGraphChildGraphNodeGetGraph(n, &got);
    line("B5.addNode_GRAPH_move_ownership", r, "child_is_same=%d", got == c3);
    P("B5.destroy_moved_child", cuGraphDestroy(c3));
}
static void b5self(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&n, g, NULL, 0);
    P("B5.childGraph_self", cuGraphAddChildGraphNode(&n, g, NULL, 0, g));
}
static void b5null(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    P("B5.memset_params_NULL", cuGraphAddMemsetNode(&n, g, NULL, 0, NULL, ctx));
}
static void b5null2(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    P("B5.kernel_params_struct_NULL", cuGraphAddKernelNode(&n, g, NULL, 0, NULL));
}

static void b6(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = kargs;
    cuGraphAddKernelNode(&n, g, NULL, 0, &k);
    unsigned long long fl[] = {0, 1, 2, 4, 5, 8, 16, 0x100, 3, 9};
    for (int i = 0; i < 10; i++) {
        CUgraphExec x = NULL;
        char nm[64];
        snprintf(nm, sizeof nm, "B6.instantiateWithFlags_%#llx", fl[i]);
        CUresult r = cuGraphInstantiateWithFlags(&x, g, fl[i]);
        cuuint64_t got = 999;
        CUresult rf = r ? r : cuGraphExecGetFlags(x, &got);
        CUresult rl = r ? r : cuGraphLaunch(x, 0);
        line(nm, r, "execGetFlags=%s flags=%llu launch=%s", rn(rf), (unsigned long long)got, rn(rl));
        if (!r) { cuCtxSynchronize(); cuGraphExecDestroy(x); }
    }
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof ip);
    ip.flags = 2; ip.hUploadStream = s;
    CUgraphExec x;
    CUresult r = cuGraphInstantiateWithParams(&x, g, &ip);
    line("B6.withParams_UPLOAD_stream", r, "result_out=%d", (int)ip.result_out);
    memset(&ip, 0, sizeof ip);
    ip.flags = 0x100;
    ip.result_out = (CUgraphInstantiateResult)77;
    r = cuGraphInstantiateWithParams(&x, g, &ip);
    line("B6.withParams_unknown_bit", r, "result_out=%d", (int)ip.result_out);
    P("B6.instantiate_NULL_graph", cuGraphInstantiate(&x, NULL, 0));
    CUgraph e;
    cuGraphCreate(&e, 0);
    r = cuGraphInstantiate(&x, e, 0);
    CUresult rl = r ? r : cuGraphLaunch(x, 0);
    line("B6.instantiate_empty_graph", r, "launch=%s sync=%s", rn(rl), rn(cuCtxSynchronize()));
    P("B6.upload", r ? r : cuGraphUpload(x, s));
    P("B6.execGetFlags_NULL_exec", cuGraphExecGetFlags(NULL, &(cuuint64_t){0}));
    P("B6.launch_NULL_exec", cuGraphLaunch(NULL, 0));
    P("B6.execDestroy_NULL", cuGraphExecDestroy(NULL));
    /* device-launch graph with a host node */
    CUDA_HOST_NODE_PARAMS h = {.fn = hostfn, .userData = NULL};
    cuGraphAddHostNode(&n, g, NULL, 0, &h);
    memset(&ip, 0, sizeof ip);
    ip.flags = 4;
    r = cuGraphInstantiateWithParams(&x, g, &ip);
    line("B6.DEVICE_LAUNCH_with_host_node", r, "result_out=%d errNode=%s", (int)ip.result_out, ip.hErrNode_out == n ? "the host node" : ip.hErrNode_out ? "other" : "NULL");
}

static void b7(void)
{
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = kargs;
    CUgraph g, g2;
    CUgraphNode n, n2, extra;
    cuGraphCreate(&g, 0);
    cuGraphAddKernelNode(&n, g, NULL, 0, &k);
    CUgraphExec x;
    cuGraphInstantiate(&x, g, 0);
    CUgraphExecUpdateResultInfo ri;
#define UPD(name, graph)                                                                                       \
    do {                                                                                                       \
        memset(&ri, 0, sizeof ri);                                                                             \
        ri.result = (CUgraphExecUpdateResult)77;                                                               \
        CUresult r_ = cuGraphExecUpdate(x, graph, &ri);                                                        \
        line(name, r_, "result=%d errorNode=%s errorFromNode=%s", (int)ri.result,                             \
             ri.errorNode == n2 ? "new_node" : ri.errorNode == extra ? "extra" : ri.errorNode ? "other" : "NULL", \
             ri.errorFromNode == n ? "old_node" : ri.errorFromNode ? "other" : "NULL");                        \
    } while (0)
    /* same topology, new kernel param */
    cuGraphCreate(&g2, 0);
    CUDA_KERNEL_NODE_PARAMS k2 = k;
    k2.kernelParams = kargs2;
    cuGraphAddKernelNode(&n2, g2, NULL, 0, &k2);
    extra = NULL;
    UPD("B7.update_changed_param", g2);
    P("B7.launch_after_update", cuGraphLaunch(x, 0));
    cuCtxSynchronize();
    /* added node */
    cuGraphAddEmptyNode(&extra, g2, &n2, 1);
    UPD("B7.update_added_node", g2);
    cuGraphDestroyNode(extra);
    extra = NULL;
    /* changed node type */
    CUgraph g3;
    cuGraphCreate(&g3, 0);
    cuGraphAddEmptyNode(&n2, g3, NULL, 0);
    UPD("B7.update_node_type_changed", g3);
    /* other module's function */
    CUgraph g4;
    cuGraphCreate(&g4, 0);
    CUDA_KERNEL_NODE_PARAMS k4 = k;
    k4.func = fadd2;
    cuGraphAddKernelNode(&n2, g4, NULL, 0, &k4);
    UPD("B7.update_function_other_module", g4);
    /* grid change */
    CUgraph g5;
    cuGraphCreate(&g5, 0);
    CUDA_KERNEL_NODE_PARAMS k5 = k;
    k5.gridDimX = 2;
    cuGraphAddKernelNode(&n2, g5, NULL, 0, &k5);
    UPD("B7.update_grid_changed", g5);
    /* removed node: empty graph */
    CUgraph g6;
    cuGraphCreate(&g6, 0);
    n2 = NULL;
    UPD("B7.update_to_empty_graph", g6);
    P("B7.update_NULL_info", cuGraphExecUpdate(x, g2, NULL));
    /* memset dst change */
    CUgraph m1, m2;
    CUDA_MEMSET_NODE_PARAMS m = {.dst = dbuf, .pitch = 0, .value = 1, .elementSize = 1, .width = 64, .height = 1};
    cuGraphCreate(&m1, 0);
    cuGraphAddMemsetNode(&n, m1, NULL, 0, &m, ctx);
    cuGraphExecDestroy(x);
    cuGraphInstantiate(&x, m1, 0);
    cuGraphCreate(&m2, 0);
    m.dst = dbuf2;
    cuGraphAddMemsetNode(&n2, m2, NULL, 0, &m, ctx);
    UPD("B7.update_memset_dst_other_allocation", m2);
    CUgraph m3;
    cuGraphCreate(&m3, 0);
    m.dst = dbuf + 64;
    cuGraphAddMemsetNode(&n2, m3, NULL, 0, &m, ctx);
    UPD("B7.update_memset_dst_same_allocation", m3);
    CUgraph m4;
    cuGraphCreate(&m4, 0);
    m.dst = dbuf; m.elementSize = 4; m.width = 16;
    cuGraphAddMemsetNode(&n2, m4, NULL, 0, &m, ctx);
    UPD("B7.update_memset_elementSize_changed", m4);
    CUgraph m5;
    cuGraphCreate(&m5, 0);
    m.dst = dbuf; m.elementSize = 1; m.width = 64; m.value = 9;
    cuGraphAddMemsetNode(&n2, m5, NULL, 0, &m, ctx);
    UPD("B7.update_memset_value_changed", m5);
    /* exec node set params */
    CUDA_MEMSET_NODE_PARAMS mm = {.dst = dbuf2, .pitch = 0, .value = 1, .elementSize = 1, .width = 64, .height = 1};
    P("B7.execMemsetNodeSetParams_other_alloc", cuGraphExecMemsetNodeSetParams(x, n, &mm, ctx));
    mm.dst = dbuf + 128;
    P("B7.execMemsetNodeSetParams_same_alloc", cuGraphExecMemsetNodeSetParams(x, n, &mm, ctx));
    P("B7.execKernelNodeSetParams_on_memset_node", cuGraphExecKernelNodeSetParams(x, n, &k));
    P("B7.execMemsetNodeSetParams_node_of_other_graph", cuGraphExecMemsetNodeSetParams(x, n2, &mm, ctx));
}

static volatile int host_done, host_count;
static void CUDA_CB sleepy(void *p)
{
    (void)p;
    usleep(200000);
    host_done = 1;
}
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static void b8(void)
{
    CUgraph g;
    CUgraphNode hn, kn;
    cuGraphCreate(&g, 0);
    CUDA_HOST_NODE_PARAMS h = {.fn = hostfn, .userData = (void *)&host_count};
    cuGraphAddHostNode(&hn, g, NULL, 0, &h);
    CUgraphExec x;
    cuGraphInstantiate(&x, g, 0);
    CUstream s1, s2;
    cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING);
    cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
    P("B8.launch_s1", cuGraphLaunch(x, s1));
    P("B8.launch_s2", cuGraphLaunch(x, s2));
    cuCtxSynchronize();
    line("B8.host_count_after_2_launches", CUDA_SUCCESS, "%d", host_count);
    /* sleepy */
    CUgraph g2;
    cuGraphCreate(&g2, 0);
    CUDA_HOST_NODE_PARAMS hs = {.fn = sleepy, .userData = NULL};
    cuGraphAddHostNode(&hn, g2, NULL, 0, &hs);
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = kargs;
    cuGraphAddKernelNode(&kn, g2, &hn, 1, &k);
    CUgraphExec x2;
    cuGraphInstantiate(&x2, g2, 0);
    /* serialisation of two launches of the same exec on two streams */
    host_done = 0;
    double t0 = now();
    cuGraphLaunch(x2, s1);
    cuGraphLaunch(x2, s2);
    cuStreamSynchronize(s2);
    double t1 = now();
    line("B8.same_exec_two_streams_sleepy", CUDA_SUCCESS, "s2_done_after=%.0fms (200=concurrent, 400=serialised)", (t1 - t0) * 1000);
    cuCtxSynchronize();
    int v0 = 0;
    cuMemcpyDtoH(&v0, dbuf, 4);
    host_done = 0;
    cuGraphLaunch(x2, s1);
    t0 = now();
    CUresult r = cuGraphExecDestroy(x2);
    t1 = now();
    line("B8.execDestroy_while_running", r, "destroy_took=%.0fms host_done_at_return=%d", (t1 - t0) * 1000, host_done);
    CUresult rs = cuStreamSynchronize(s1);
    int v1 = 0;
    cuMemcpyDtoH(&v1, dbuf, 4);
    line("B8.after_destroy_sync", rs, "host_done=%d kernel_ran=%d", host_done, v1 == v0 + 1);
    /* graph destroyed while exec alive */
    cuGraphInstantiate(&x2, g2, 0);
    P("B8.graphDestroy_with_exec_alive", cuGraphDestroy(g2));
    host_done = 0;
    P("B8.launch_exec_of_destroyed_graph", cuGraphLaunch(x2, s1));
    P("B8.sync", cuStreamSynchronize(s1));
    line("B8.host_ran", CUDA_SUCCESS, "%d", host_done);
    P("B8.launch_on_capturing_stream", (cuStreamBeginCapture_v2(s2, CU_STREAM_CAPTURE_MODE_GLOBAL), cuGraphLaunch(x, s2)));
    finish("B8.launch_in_capture", s2);
    P("B8.launch_legacy", cuGraphLaunch(x, CU_STREAM_LEGACY));
    P("B8.launch_per_thread", cuGraphLaunch(x, CU_STREAM_PER_THREAD));
    cuCtxSynchronize();
    P("B8.execDestroy", cuGraphExecDestroy(x));
}
static void b8destroyed(void)
{
    CUgraph g;
    CUgraphNode n;
    cuGraphCreate(&g, 0);
    cuGraphAddEmptyNode(&n, g, NULL, 0);
    CUgraphExec x;
    cuGraphInstantiate(&x, g, 0);
    cuGraphExecDestroy(x);
    P("B8.launch_destroyed_exec", cuGraphLaunch(x, 0));
    P("B8.execDestroy_twice", cuGraphExecDestroy(x));
}

static void b9(void)
{
    CUgraph g;
    CUgraphNode kn, ms, mc, hn, en, er, ew;
    cuGraphCreate(&g, 0);
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = kargs;
    cuGraphAddKernelNode(&kn, g, NULL, 0, &k);
    CUDA_MEMSET_NODE_PARAMS m = {.dst = dbuf2, .pitch = 0, .value = 7, .elementSize = 1, .width = 100, .height = 1};
    cuGraphAddMemsetNode(&ms, g, &kn, 1, &m, ctx);
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST; c.srcHost = pinned;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE; c.dstDevice = dbuf2;
    c.WidthInBytes = 64; c.Height = 1; c.Depth = 1;
    cuGraphAddMemcpyNode(&mc, g, &kn, 1, &c, ctx);
    CUDA_HOST_NODE_PARAMS h = {.fn = hostfn, .userData = NULL};
    CUgraphNode two[2] = {ms, mc};
    cuGraphAddHostNode(&hn, g, two, 2, &h);
    cuGraphAddEmptyNode(&en, g, &hn, 1);
    CUevent ev;
    cuEventCreate(&ev, 0);
    cuGraphAddEventRecordNode(&er, g, &en, 1, ev);
    cuGraphAddEventWaitNode(&ew, g, &er, 1, ev);
    char p1[512], p2[512];
    snprintf(p1, sizeof p1, "%s/graph_verbose.dot", outdir);
    snprintf(p2, sizeof p2, "%s/graph_plain.dot", outdir);
    P("B9.dot_VERBOSE", cuGraphDebugDotPrint(g, p1, CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
    P("B9.dot_0", cuGraphDebugDotPrint(g, p2, 0));
    P("B9.dot_bad_path", cuGraphDebugDotPrint(g, "/nonexistent/dir/x.dot", 0));
    P("B9.dot_NULL_path", cuGraphDebugDotPrint(g, NULL, 0));
    P("B9.dot_flags_0x80000", cuGraphDebugDotPrint(g, "/tmp/x.dot", 0x80000));
    /* a captured graph too */
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuMemsetD8Async(dbuf2, 1, 100, s);
    CUgraph cg;
    cuStreamEndCapture(s, &cg);
    snprintf(p1, sizeof p1, "%s/graph_captured.dot", outdir);
    P("B9.dot_captured_0", cuGraphDebugDotPrint(cg, p1, 0));
}

static void mem_attrs(const char *name)
{
    cuuint64_t v[4] = {0};
    CUresult r[4];
    for (int i = 0; i < 4; i++)
        r[i] = cuDeviceGetGraphMemAttribute(dev, (CUgraphMem_attribute)i, &v[i]);
    line(name, r[0], "USED_CUR=%llu(%s) USED_HIGH=%llu(%s) RES_CUR=%llu(%s) RES_HIGH=%llu(%s)",
         (unsigned long long)v[0], rn(r[0]), (unsigned long long)v[1], rn(r[1]), (unsigned long long)v[2], rn(r[2]),
         (unsigned long long)v[3], rn(r[3]));
}
static void b10(void)
{
    mem_attrs("B10.attrs_initial");
    CUgraph g;
    CUgraphNode an, kn;
    cuGraphCreate(&g, 0);
    CUDA_MEM_ALLOC_NODE_PARAMS a;
    memset(&a, 0, sizeof a);
    a.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    a.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    a.poolProps.location.id = 0;
    a.bytesize = 1 << 20;
    CUresult r = cuGraphAddMemAllocNode(&an, g, NULL, 0, &a);
    line("B10.addMemAllocNode_1MiB", r, "dptr=%#llx align_2MiB=%d align_64KiB=%d", (unsigned long long)a.dptr,
         (a.dptr % (2 << 20)) == 0, (a.dptr % 65536) == 0);
    CUdeviceptr p = a.dptr;
    mem_attrs("B10.attrs_after_add_node");
    CUDA_MEM_ALLOC_NODE_PARAMS a2 = a;
    a2.bytesize = 1000;
    CUgraphNode an2;
    r = cuGraphAddMemAllocNode(&an2, g, NULL, 0, &a2);
    line("B10.addMemAllocNode_1000B_parallel", r, "dptr=%#llx distance=%lld", (unsigned long long)a2.dptr, (long long)(a2.dptr - p));
    cuGraphDestroyNode(an2);
    CUDA_MEM_ALLOC_NODE_PARAMS gp;
    memset(&gp, 0, sizeof gp);
    PX("B10.allocNodeGetParams", cuGraphMemAllocNodeGetParams(an, &gp), "bytesize=%zu dptr==p:%d", gp.bytesize, gp.dptr == p);
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    void *ka[2] = {&p, &nelem};
    k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = ka;
    cuGraphAddKernelNode(&kn, g, &an, 1, &k);
    CUgraphExec x;
    P("B10.instantiate", cuGraphInstantiate(&x, g, 0));
    mem_attrs("B10.attrs_after_instantiate");
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    P("B10.launch1", cuGraphLaunch(x, s));
    P("B10.sync1", cuStreamSynchronize(s));
    mem_attrs("B10.attrs_after_launch");
    CUdeviceptr base = 0;
    size_t sz = 0;
    PX("B10.memGetAddressRange_of_p", cuMemGetAddressRange(&base, &sz, p), "base==p:%d size=%zu", base == p, sz);
    P("B10.launch2_without_free", cuGraphLaunch(x, s));
    P("B10.sync2", cuStreamSynchronize(s));
    P("B10.trim_while_allocated", cuDeviceGraphMemTrim(dev));
    mem_attrs("B10.attrs_after_trim_allocated");
    P("B10.memFreeAsync_outside", cuMemFreeAsync(p, s));
    P("B10.sync3", cuStreamSynchronize(s));
    mem_attrs("B10.attrs_after_free");
    P("B10.launch3_after_free", cuGraphLaunch(x, s));
    P("B10.sync4", cuStreamSynchronize(s));
    P("B10.memFree_sync_of_graph_ptr", cuMemFree(p));
    mem_attrs("B10.attrs_after_cuMemFree");
    P("B10.memFreeAsync_again", cuMemFreeAsync(p, s));
    cuStreamSynchronize(s);
    P("B10.trim", cuDeviceGraphMemTrim(dev));
    mem_attrs("B10.attrs_after_trim");
    cuuint64_t zero = 0;
    P("B10.set_USED_HIGH_0", cuDeviceSetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &zero));
    P("B10.set_RES_HIGH_0", cuDeviceSetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &zero));
    cuuint64_t one = 1;
    P("B10.set_USED_HIGH_1", cuDeviceSetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &one));
    P("B10.set_USED_CURRENT_0", cuDeviceSetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &zero));
    mem_attrs("B10.attrs_after_reset_high");
    P("B10.get_attr_9", cuDeviceGetGraphMemAttribute(dev, (CUgraphMem_attribute)9, &zero));
    P("B10.execDestroy", cuGraphExecDestroy(x));
    /* auto free on launch */
    P("B10.instantiate_AUTO_FREE", cuGraphInstantiate(&x, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
    P("B10.auto.launch1", cuGraphLaunch(x, s));
    P("B10.auto.launch2", cuGraphLaunch(x, s));
    P("B10.auto.sync", cuStreamSynchronize(s));
    mem_attrs("B10.auto.attrs");
    P("B10.auto.execDestroy_unfreed", cuGraphExecDestroy(x));
    cuCtxSynchronize();
    mem_attrs("B10.auto.attrs_after_execDestroy_unfreed");
    P("B10.memFreeAsync_after_exec_destroyed", cuMemFreeAsync(p, s));
    P("B10.sync", cuStreamSynchronize(s));
    mem_attrs("B10.attrs_after_free_after_exec_destroyed");
    P("B10.trim2", cuDeviceGraphMemTrim(dev));
    mem_attrs("B10.attrs_after_trim2");
    /* free node */
    CUgraph fg;
    CUgraphNode fn;
    cuGraphCreate(&fg, 0);
    P("B10.freeNode_not_graph_ptr", cuGraphAddMemFreeNode(&fn, fg, NULL, 0, dbuf));
    P("B10.freeNode_graph_ptr_other_graph", cuGraphAddMemFreeNode(&fn, fg, NULL, 0, p));
    P("B10.freeNode_same_graph_after_alloc", cuGraphAddMemFreeNode(&fn, g, &kn, 1, p));
    CUgraphNode fn2;
    P("B10.freeNode_twice_same_graph", cuGraphAddMemFreeNode(&fn2, g, &fn, 1, p));
    P("B10.freeNode_ptr_plus_16", cuGraphAddMemFreeNode(&fn2, g, &fn, 1, p + 16));
    P("B10.freeNode_zero", cuGraphAddMemFreeNode(&fn2, fg, NULL, 0, 0));
    CUdeviceptr fp = 0;
    PX("B10.freeNodeGetParams", cuGraphMemFreeNodeGetParams(fn, &fp), "==p:%d", fp == p);
    printf("B10.graph_with_free: %s\n", describe(g));
    P("B10.instantiate_alloc_free", cuGraphInstantiate(&x, g, 0));
    P("B10.af.launch1", cuGraphLaunch(x, s));
    P("B10.af.launch2", cuGraphLaunch(x, s));
    P("B10.af.sync", cuStreamSynchronize(s));
    mem_attrs("B10.af.attrs");
    CUgraphExec x2;
    P("B10.instantiate_second_exec_same_graph", cuGraphInstantiate(&x2, g, 0));
    /* alloc node errors */
    CUDA_MEM_ALLOC_NODE_PARAMS b = a;
    b.bytesize = 0;
    P("B10.alloc_bytesize_0", cuGraphAddMemAllocNode(&an2, fg, NULL, 0, &b));
    b = a; b.poolProps.location.id = 5;
    P("B10.alloc_device_5", cuGraphAddMemAllocNode(&an2, fg, NULL, 0, &b));
    b = a; b.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
    P("B10.alloc_type_invalid", cuGraphAddMemAllocNode(&an2, fg, NULL, 0, &b));
    b = a; b.poolProps.location.type = CU_MEM_LOCATION_TYPE_HOST;
    P("B10.alloc_location_host", cuGraphAddMemAllocNode(&an2, fg, NULL, 0, &b));
    b = a; b.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    P("B10.alloc_handle_posix_fd", cuGraphAddMemAllocNode(&an2, fg, NULL, 0, &b));
    /* a graph with a mem alloc node as child graph */
    CUgraph par;
    CUgraphNode cn;
    cuGraphCreate(&par, 0);
    P("B10.childGraph_containing_alloc", cuGraphAddChildGraphNode(&cn, par, NULL, 0, g));
    /* clone of graph with alloc */
    CUgraph cl;
    P("B10.clone_graph_with_alloc", cuGraphClone(&cl, g));
    /* memory in graph: cudaMalloc'd pointer attrs */
    CUmemorytype mt = 0;
    PX("B10.pointerAttr_memtype_graph_ptr", cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p), "type=%d", (int)mt);
    CUmemoryPool pool = NULL;
    PX("B10.pointerAttr_mempool_graph_ptr", cuPointerGetAttribute(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p), "pool=%s", pool ? "set" : "NULL");
}

static volatile int dtor_ran;
static volatile double dtor_at;
static void CUDA_CB dtor(void *p)
{
    (void)p;
    dtor_ran++;
    dtor_at = now();
}
static void b11(void)
{
    CUuserObject o;
    P("B11.create_flags_0", cuUserObjectCreate(&o, NULL, dtor, 1, 0));
    P("B11.create_flags_2", cuUserObjectCreate(&o, NULL, dtor, 1, 2));
    P("B11.create_refcount_0", cuUserObjectCreate(&o, NULL, dtor, 0, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    P("B11.create_dtor_NULL", cuUserObjectCreate(&o, NULL, NULL, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    P("B11.create_ok", cuUserObjectCreate(&o, NULL, dtor, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    CUgraph g;
    CUgraphNode hn;
    cuGraphCreate(&g, 0);
    CUDA_HOST_NODE_PARAMS hs = {.fn = sleepy, .userData = NULL};
    cuGraphAddHostNode(&hn, g, NULL, 0, &hs);
    P("B11.retain_flags_2", cuGraphRetainUserObject(g, o, 1, 2));
    P("B11.retain_count_0", cuGraphRetainUserObject(g, o, 0, 0));
    P("B11.retain_MOVE", cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE));
    CUgraphExec x;
    cuGraphInstantiate(&x, g, 0);
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    host_done = 0;
    double t0 = now();
    P("B11.launch", cuGraphLaunch(x, s));
    P("B11.graphDestroy", cuGraphDestroy(g));
    line("B11.after_graphDestroy", CUDA_SUCCESS, "dtor_ran=%d", dtor_ran);
    P("B11.execDestroy_while_running", cuGraphExecDestroy(x));
    line("B11.after_execDestroy", CUDA_SUCCESS, "dtor_ran=%d host_done=%d", dtor_ran, host_done);
    cuStreamSynchronize(s);
    line("B11.after_sync", CUDA_SUCCESS, "dtor_ran=%d host_done=%d", dtor_ran, host_done);
    usleep(100000);
    line("B11.after_sync+100ms", CUDA_SUCCESS, "dtor_ran=%d dtor_after_launch=%.0fms", dtor_ran, dtor_ran ? (dtor_at - t0) * 1000 : -1.0);
    /* plain release */
    dtor_ran = 0;
    cuUserObjectCreate(&o, NULL, dtor, 2, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
    P("B11.release_1_of_2", cuUserObjectRelease(o, 1));
    usleep(50000);
    line("B11.after_release_1", CUDA_SUCCESS, "dtor_ran=%d", dtor_ran);
    P("B11.release_last", cuUserObjectRelease(o, 1));
    usleep(50000);
    line("B11.after_release_last+50ms", CUDA_SUCCESS, "dtor_ran=%d", dtor_ran);
    /* graph only, no exec */
    dtor_ran = 0;
    cuUserObjectCreate(&o, NULL, dtor, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
    cuGraphCreate(&g, 0);
    cuGraphRetainUserObject(g, o, 1, 0);
    P("B11.release_own_ref", cuUserObjectRelease(o, 1));
    P("B11.graphReleaseUserObject_2_of_1", cuGraphReleaseUserObject(g, o, 2));
    P("B11.graphDestroy_no_exec", cuGraphDestroy(g));
    usleep(50000);
    line("B11.after_graphDestroy+50ms", CUDA_SUCCESS, "dtor_ran=%d", dtor_ran);
    /* clone carries the reference? */
    dtor_ran = 0;
    cuUserObjectCreate(&o, NULL, dtor, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
    cuGraphCreate(&g, 0);
    cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE);
    CUgraph cl;
    cuGraphClone(&cl, g);
    cuGraphDestroy(g);
    usleep(50000);
    line("B11.after_original_destroyed_clone_alive", CUDA_SUCCESS, "dtor_ran=%d", dtor_ran);
    cuGraphDestroy(cl);
    usleep(50000);
    line("B11.after_clone_destroyed", CUDA_SUCCESS, "dtor_ran=%d", dtor_ran);
    P("B11.release_retain_count_0", cuUserObjectRetain(o, 0));
}

static void b12(void)
{
    CUgraph g;
    CUgraphNode ms, kn, en;
    cuGraphCreate(&g, 0);
    CUDA_MEMSET_NODE_PARAMS m = {.dst = dbuf2, .pitch = 0, .value = 7, .elementSize = 1, .width = 100, .height = 1};
    cuGraphAddMemsetNode(&ms, g, NULL, 0, &m, ctx);
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = kargs;
    cuGraphAddKernelNode(&kn, g, &ms, 1, &k);
    cuGraphAddEmptyNode(&en, g, &kn, 1);
    CUgraphExec x;
    cuGraphInstantiate(&x, g, 0);
    unsigned int en_ = 99;
    PX("B12.getEnabled_memset", cuGraphNodeGetEnabled(x, ms, &en_), "enabled=%u", en_);
    P("B12.setEnabled_memset_0", cuGraphNodeSetEnabled(x, ms, 0));
    en_ = 99;
    PX("B12.getEnabled_memset_after", cuGraphNodeGetEnabled(x, ms, &en_), "enabled=%u", en_);
    P("B12.setEnabled_memset_5", cuGraphNodeSetEnabled(x, ms, 5));
    en_ = 99;
    PX("B12.getEnabled_after_5", cuGraphNodeGetEnabled(x, ms, &en_), "enabled=%u", en_);
    P("B12.setEnabled_empty_node_0", cuGraphNodeSetEnabled(x, en, 0));
    P("B12.setEnabled_kernel_0", cuGraphNodeSetEnabled(x, kn, 0));
    CUgraph g2;
    CUgraphNode o;
    cuGraphCreate(&g2, 0);
    cuGraphAddEmptyNode(&o, g2, NULL, 0);
    P("B12.setEnabled_node_not_in_exec", cuGraphNodeSetEnabled(x, o, 0));
    P("B12.getEnabled_node_not_in_exec", cuGraphNodeGetEnabled(x, o, &en_));
    /* disabled kernel and memset: does the launch skip them? */
    cuMemsetD8(dbuf, 0, 1024);
    cuMemsetD8(dbuf2, 0, 1024);
    cuGraphLaunch(x, 0);
    cuCtxSynchronize();
    int v[2] = {9, 9};
    unsigned char b0 = 9;
    cuMemcpyDtoH(&v[0], dbuf, 4);
    cuMemcpyDtoH(&b0, dbuf2, 1);
    line("B12.launch_with_disabled", CUDA_SUCCESS, "kernel_effect=%d memset_effect=%u", v[0], b0);
    cuGraphNodeSetEnabled(x, kn, 1);
    cuGraphLaunch(x, 0);
    cuCtxSynchronize();
    cuMemcpyDtoH(&v[0], dbuf, 4);
    line("B12.launch_kernel_reenabled", CUDA_SUCCESS, "kernel_effect=%d", v[0]);
    /* host node */
    CUgraph g3;
    CUgraphNode hn;
    cuGraphCreate(&g3, 0);
    CUDA_HOST_NODE_PARAMS h = {.fn = hostfn, .userData = (void *)&host_count};
    cuGraphAddHostNode(&hn, g3, NULL, 0, &h);
    CUgraphExec x3;
    cuGraphInstantiate(&x3, g3, 0);
    P("B12.setEnabled_host_node_0", cuGraphNodeSetEnabled(x3, hn, 0));
}

static void b13(void)
{
    CUgraph g;
    CUgraphNode ms, hn, en;
    cuGraphCreate(&g, 0);
    CUDA_MEMSET_NODE_PARAMS m = {.dst = dbuf2, .pitch = 0, .value = 7, .elementSize = 1, .width = 100, .height = 1};
    cuGraphAddMemsetNode(&ms, g, NULL, 0, &m, ctx);
    CUDA_HOST_NODE_PARAMS h = {.fn = hostfn, .userData = NULL};
    cuGraphAddHostNode(&hn, g, NULL, 0, &h);
    cuGraphAddEmptyNode(&en, g, NULL, 0);
    CUDA_KERNEL_NODE_PARAMS k;
    P("B13.kernelGetParams_on_memset", cuGraphKernelNodeGetParams(ms, &k));
    P("B13.kernelSetParams_on_memset", cuGraphKernelNodeSetParams(ms, &k));
    CUDA_MEMSET_NODE_PARAMS mm;
    P("B13.memsetGetParams_on_host", cuGraphMemsetNodeGetParams(hn, &mm));
    CUDA_HOST_NODE_PARAMS hh;
    P("B13.hostGetParams_on_empty", cuGraphHostNodeGetParams(en, &hh));
    CUDA_MEMCPY3D c;
    P("B13.memcpyGetParams_on_memset", cuGraphMemcpyNodeGetParams(ms, &c));
    CUevent e;
    P("B13.eventRecordGetEvent_on_empty", cuGraphEventRecordNodeGetEvent(en, &e));
    CUgraph cg;
    P("B13.childGetGraph_on_empty", cuGraphChildGraphNodeGetGraph(en, &cg));
    CUdeviceptr fp;
    P("B13.memFreeGetParams_on_empty", cuGraphMemFreeNodeGetParams(en, &fp));
    CUDA_MEM_ALLOC_NODE_PARAMS ap;
    P("B13.memAllocGetParams_on_empty", cuGraphMemAllocNodeGetParams(en, &ap));
    CUgraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_KERNEL;
    P("B13.nodeSetParams_kernel_type_on_memset", cuGraphNodeSetParams(ms, &np));
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_EMPTY;
    P("B13.nodeSetParams_EMPTY_on_empty", cuGraphNodeSetParams(en, &np));
    np.type = CU_GRAPH_NODE_TYPE_MEMSET;
    np.memset.dst = dbuf2; np.memset.elementSize = 1; np.memset.width = 10; np.memset.height = 1; np.memset.value = 3; np.memset.ctx = ctx;
    P("B13.nodeSetParams_MEMSET_on_memset", cuGraphNodeSetParams(ms, &np));
    memset(&mm, 0, sizeof mm);
    PX("B13.memsetGetParams_after_generic_set", cuGraphMemsetNodeGetParams(ms, &mm), "width=%zu value=%u", mm.width, mm.value);
    CUgraphNodeType t = (CUgraphNodeType)99;
    P("B13.getType_NULL_node", cuGraphNodeGetType(NULL, &t));
}

static void b14(void)
{
    CUgraph g;
    cuGraphCreate(&g, 0);
    CUgraphConditionalHandle hnd = 0, hnd2 = 0, hnd3 = 0;
    PX("B14.handleCreate", cuGraphConditionalHandleCreate(&hnd, g, ctx, 0, 0), "handle=%#llx", (unsigned long long)hnd);
    PX("B14.handleCreate_default_1_flag_1", cuGraphConditionalHandleCreate(&hnd2, g, ctx, 1, 1), "handle=%#llx", (unsigned long long)hnd2);
    PX("B14.handleCreate_flag_2", cuGraphConditionalHandleCreate(&hnd3, g, ctx, 1, 2), "handle=%#llx", (unsigned long long)hnd3);
    PX("B14.handleCreate_ctx_NULL", cuGraphConditionalHandleCreate(&hnd3, g, NULL, 1, 0), "handle=%#llx", (unsigned long long)hnd3);
    struct { int type; unsigned size; } cases[] = {{0, 1}, {1, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}, {0, 0}, {1, 0}, {2, 0}, {3, 1}};
    for (int i = 0; i < 10; i++) {
        CUgraphNodeParams np;
        memset(&np, 0, sizeof np);
        np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
        np.conditional.handle = hnd;
        np.conditional.type = (CUgraphConditionalNodeType)cases[i].type;
        np.conditional.size = cases[i].size;
        np.conditional.ctx = ctx;
        np.conditional.phGraph_out = NULL;
        CUgraphNode n;
        char nm[96];
        snprintf(nm, sizeof nm, "B14.addNode_conditional_type%d_size%u", cases[i].type, cases[i].size);
        CUresult r = cuGraphAddNode(&n, g, NULL, NULL, 0, &np);
        char extra[512] = "";
        int o = snprintf(extra, sizeof extra, "phGraph_out=%s", np.conditional.phGraph_out ? "set" : "NULL");
        if (!r && np.conditional.phGraph_out)
            for (unsigned j = 0; j < np.conditional.size; j++) {
                size_t nn = 99;
                CUgraph bg = np.conditional.phGraph_out[j];
                CUresult rn_ = bg ? cuGraphGetNodes(bg, NULL, &nn) : CUDA_ERROR_INVALID_VALUE;
                o += snprintf(extra + o, sizeof extra - o, " body%u=%s(nodes=%zu %s)", j, bg ? "graph" : "NULL", nn, rn(rn_));
            }
        if (!r) {
            CUgraph cg = NULL;
            CUresult rc = cuGraphChildGraphNodeGetGraph(n, &cg);
            o += snprintf(extra + o, sizeof extra - o, " childGetGraph=%s", rn(rc));
        }
        line(nm, r, "%s", extra);
        if (!r && i == 0) {
            /* body with a kernel, instantiate and launch */
            CUgraph body = np.conditional.phGraph_out[0];
            CUDA_KERNEL_NODE_PARAMS k;
            memset(&k, 0, sizeof k);
            k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = kargs;
            CUgraphNode kn;
            P("B14.body_add_kernel", cuGraphAddKernelNode(&kn, body, NULL, 0, &k));
            CUDA_HOST_NODE_PARAMS h = {.fn = hostfn, .userData = NULL};
            CUgraphNode hn;
            P("B14.body_add_host_node", cuGraphAddHostNode(&hn, body, NULL, 0, &h));
            CUgraphNodeType t;
            cuGraphNodeGetType(n, &t);
            line("B14.node_type", CUDA_SUCCESS, "%d", (int)t);
            CUgraphExec x;
            CUDA_GRAPH_INSTANTIATE_PARAMS ip;
            memset(&ip, 0, sizeof ip);
            r = cuGraphInstantiateWithParams(&x, g, &ip);
            line("B14.instantiate_with_host_in_body", r, "result_out=%d errNode=%s", (int)ip.result_out, ip.hErrNode_out == hn ? "host node" : ip.hErrNode_out ? "other" : "NULL");
            cuGraphDestroyNode(hn);
        }
    }
    CUgraphExec x;
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof ip);
    CUresult r = cuGraphInstantiateWithParams(&x, g, &ip);
    line("B14.instantiate_graph_with_conditionals", r, "result_out=%d", (int)ip.result_out);
    CUgraph g2;
    cuGraphCreate(&g2, 0);
    cuGraphConditionalHandleCreate(&hnd, g2, ctx, 0, 0);
    CUgraphNode en;
    cuGraphAddEmptyNode(&en, g2, NULL, 0);
    memset(&ip, 0, sizeof ip);
    r = cuGraphInstantiateWithParams(&x, g2, &ip);
    line("B14.instantiate_unused_handle", r, "result_out=%d", (int)ip.result_out);
    /* handle of another graph */
    CUgraph g3;
    cuGraphCreate(&g3, 0);
    CUgraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    np.conditional.handle = hnd;
    np.conditional.type = CU_GRAPH_COND_TYPE_IF;
    np.conditional.size = 1;
    np.conditional.ctx = ctx;
    CUgraphNode n;
    P("B14.addNode_handle_of_other_graph", cuGraphAddNode(&n, g3, NULL, NULL, 0, &np));
    np.conditional.handle = 0;
    P("B14.addNode_handle_0", cuGraphAddNode(&n, g3, NULL, NULL, 0, &np));
}

static void c(void)
{
    printf("C.sizeof CUgraphNodeParams=%zu CUDA_KERNEL_NODE_PARAMS_v1=%zu _v2=%zu _v3=%zu CUgraphEdgeData=%zu "
           "CUDA_GRAPH_INSTANTIATE_PARAMS=%zu CUgraphExecUpdateResultInfo=%zu CUDA_MEMSET_NODE_PARAMS=%zu _v2=%zu "
           "CUDA_HOST_NODE_PARAMS=%zu _v2=%zu CUDA_MEM_ALLOC_NODE_PARAMS=%zu CUDA_CONDITIONAL_NODE_PARAMS=%zu "
           "CUDA_MEMCPY3D=%zu CUDA_MEMCPY_NODE_PARAMS=%zu CUDA_CHILD_GRAPH_NODE_PARAMS=%zu CUmemPoolProps=%zu\n",
           sizeof(CUgraphNodeParams), sizeof(CUDA_KERNEL_NODE_PARAMS_v1), sizeof(CUDA_KERNEL_NODE_PARAMS_v2),
           sizeof(CUDA_KERNEL_NODE_PARAMS_v3), sizeof(CUgraphEdgeData), sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS),
           sizeof(CUgraphExecUpdateResultInfo), sizeof(CUDA_MEMSET_NODE_PARAMS), sizeof(CUDA_MEMSET_NODE_PARAMS_v2),
           sizeof(CUDA_HOST_NODE_PARAMS), sizeof(CUDA_HOST_NODE_PARAMS_v2), sizeof(CUDA_MEM_ALLOC_NODE_PARAMS),
           sizeof(CUDA_CONDITIONAL_NODE_PARAMS), sizeof(CUDA_MEMCPY3D), sizeof(CUDA_MEMCPY_NODE_PARAMS),
           sizeof(CUDA_CHILD_GRAPH_NODE_PARAMS), sizeof(CUmemPoolProps));
}


static void a12(void)
{
    CUstream s, s2;
    CUevent e, j;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
    cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
    cuEventCreate(&j, CU_EVENT_DISABLE_TIMING);
    /* forked stream that did no work */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    launch(s);
    finish("A12.fork_no_work_on_s2_then_k@s", s);
    line("A12.s2_after", CUDA_SUCCESS, "s2_status=%s", cs(status_of(s2)));
    /* joined, then more work on s2 */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    launch(s2);
    cuEventRecord(j, s2);
    cuStreamWaitEvent(s, j, 0);
    launch(s2);
    finish("A12.joined_then_more_work_on_s2", s);
    line("A12.s2_after2", CUDA_SUCCESS, "s2_status=%s", cs(status_of(s2)));
    /* s2 forked, worked, then s2 waits for event recorded later on s (s2 deps superset) */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    launch(s2);
    cuEventRecord(j, s2);
    cuStreamWaitEvent(s, j, 0);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    finish("A12.joined_then_s2_waits_on_s_again", s);
    /* launch into an invalidated capture */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuStreamSynchronize(s);
    P("A12.launch_into_invalidated", launch(s));
    P("A12.memsetAsync_into_invalidated", cuMemsetD8Async(dbuf2, 0, 4, s));
    P("A12.eventRecord_into_invalidated", cuEventRecord(e, s));
    P("A12.begin_on_invalidated", cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    print_info("A12.info_invalidated", s);
    P("A12.update_deps_invalidated", cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0, 0));
    finish("A12.invalidated", s);
    /* wait on a never-recorded event during capture */
    CUevent fresh;
    cuEventCreate(&fresh, 0);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    CUresult r = cuStreamWaitEvent(s, fresh, 0);
    line("A12.wait_never_recorded_event", r, "status=%s", cs(status_of(s)));
    finish("A12.wait_never_recorded", s);
    /* the event recorded in capture, after the capture ends, recorded into another capture's wait */
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e, s);
    finish("A12.capture_records_e", s);
    cuStreamBeginCapture_v2(s2, CU_STREAM_CAPTURE_MODE_GLOBAL);
    r = cuStreamWaitEvent(s2, e, 0);
    line("A12.other_capture_waits_on_event_of_ended_capture", r, "status=%s", cs(status_of(s2)));
    finish("A12.other_capture", s2);
    /* the same stream captured by the origin thread while another thread captures another stream in GLOBAL mode */
    /* per-thread stream with capture + legacy use */
    cuStreamBeginCapture_v2(CU_STREAM_PER_THREAD, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(CU_STREAM_PER_THREAD);
    r = launch(0);
    line("A12.per_thread_capture.launch_legacy", r, "status=%s", cs(status_of(CU_STREAM_PER_THREAD)));
    finish("A12.per_thread_capture", CU_STREAM_PER_THREAD);
    /* destroy a capturing stream */
    CUstream s3;
    cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING);
    cuStreamBeginCapture_v2(s3, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s3);
    P("A12.streamDestroy_while_capturing", cuStreamDestroy(s3));
    /* destroy an event recorded in capture, during capture */
    CUevent e2;
    cuEventCreate(&e2, 0);
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch(s);
    cuEventRecord(e2, s);
    P("A12.eventDestroy_captured_event", cuEventDestroy(e2));
    line("A12.after_eventDestroy", CUDA_SUCCESS, "status=%s", cs(status_of(s)));
    finish("A12.eventDestroy", s);
}

static void b10b(void)
{
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    CUDA_MEM_ALLOC_NODE_PARAMS a;
    memset(&a, 0, sizeof a);
    a.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    a.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    a.bytesize = 1 << 20;
    CUgraph g;
    CUgraphNode an, kn, fn;
    cuGraphCreate(&g, 0);
    cuGraphAddMemAllocNode(&an, g, NULL, 0, &a);
    CUdeviceptr p = a.dptr;
    void *ka[2] = {&p, &nelem};
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = ka;
    cuGraphAddKernelNode(&kn, g, &an, 1, &k);
    CUgraphExec x;
    P("B10b.instantiate", cuGraphInstantiate(&x, g, 0));
    P("B10b.launch1", cuGraphLaunch(x, s));
    P("B10b.sync1", cuStreamSynchronize(s));
    P("B10b.memFreeAsync_outside_same_stream", cuMemFreeAsync(p, s));
    P("B10b.sync2", cuStreamSynchronize(s));
    P("B10b.launch2_after_free", cuGraphLaunch(x, s));
    P("B10b.sync3", cuStreamSynchronize(s));
    P("B10b.memFree_sync", cuMemFree(p));
    P("B10b.memFreeAsync_legacy", cuMemFreeAsync(p, 0));
    P("B10b.sync4", cuCtxSynchronize());
    P("B10b.launch3", cuGraphLaunch(x, s));
    P("B10b.sync5", cuStreamSynchronize(s));
    cuMemFreeAsync(p, s);
    cuStreamSynchronize(s);
    CUgraphExec x2;
    P("B10b.second_exec_while_first_alive", cuGraphInstantiate(&x2, g, 0));
    P("B10b.execDestroy_first", cuGraphExecDestroy(x));
    P("B10b.second_exec_after_first_destroyed", cuGraphInstantiate(&x2, g, 0));
    cuGraphExecDestroy(x2);
    /* alloc + kernel + free in one graph */
    P("B10b.addFreeNode", cuGraphAddMemFreeNode(&fn, g, &kn, 1, p));
    CUgraphNode fn2;
    P("B10b.addFreeNode_twice", cuGraphAddMemFreeNode(&fn2, g, &fn, 1, p));
    printf("B10b.graph: %s\n", describe(g));
    P("B10b.instantiate_with_free", cuGraphInstantiate(&x, g, 0));
    P("B10b.af.launch1", cuGraphLaunch(x, s));
    P("B10b.af.launch2", cuGraphLaunch(x, s));
    P("B10b.af.sync", cuStreamSynchronize(s));
    mem_attrs("B10b.af.attrs");
    P("B10b.af.memFreeAsync_after", cuMemFreeAsync(p, s));
    P("B10b.destroyNode_alloc_with_exec", cuGraphDestroyNode(an));
    cuGraphExecDestroy(x);
    P("B10b.trim", cuDeviceGraphMemTrim(dev));
    mem_attrs("B10b.attrs_after_trim");
    /* free node in another graph for an alloc of this graph */
    CUgraph g2;
    cuGraphCreate(&g2, 0);
    CUgraphNode an2;
    CUDA_MEM_ALLOC_NODE_PARAMS a2 = a;
    cuGraphAddMemAllocNode(&an2, g2, NULL, 0, &a2);
    CUgraph fg;
    cuGraphCreate(&fg, 0);
    P("B10b.freeNode_in_other_graph", cuGraphAddMemFreeNode(&fn, fg, NULL, 0, a2.dptr));
    P("B10b.freeNode_in_own_graph_after_other", cuGraphAddMemFreeNode(&fn2, g2, &an2, 1, a2.dptr));
    CUgraphExec xa, xf;
    P("B10b.inst_alloc_graph", cuGraphInstantiate(&xa, g2, 0));
    P("B10b.inst_free_graph", cuGraphInstantiate(&xf, fg, 0));
    P("B10b.launch_alloc", cuGraphLaunch(xa, s));
    P("B10b.launch_free", cuGraphLaunch(xf, s));
    P("B10b.launch_alloc_again", cuGraphLaunch(xa, s));
    P("B10b.sync", cuStreamSynchronize(s));
    /* a free node on a pointer from cuMemAllocAsync */
    CUdeviceptr q;
    cuMemAllocAsync(&q, 4096, s);
    cuStreamSynchronize(s);
    CUgraph g3;
    cuGraphCreate(&g3, 0);
    P("B10b.freeNode_memAllocAsync_ptr", cuGraphAddMemFreeNode(&fn, g3, NULL, 0, q));
    /* addresses of two allocs in sequence (reuse?) */
    CUgraph g4;
    CUgraphNode b1, b2, f1;
    cuGraphCreate(&g4, 0);
    CUDA_MEM_ALLOC_NODE_PARAMS c1 = a, c2 = a;
    cuGraphAddMemAllocNode(&b1, g4, NULL, 0, &c1);
    cuGraphAddMemFreeNode(&f1, g4, &b1, 1, c1.dptr);
    cuGraphAddMemAllocNode(&b2, g4, &f1, 1, &c2);
    line("B10b.alloc_after_free_in_same_graph", CUDA_SUCCESS, "same_address=%d", c1.dptr == c2.dptr);
    CUDA_MEM_ALLOC_NODE_PARAMS c3 = a;
    c3.bytesize = 100;
    CUgraphNode b3;
    cuGraphAddMemAllocNode(&b3, g4, NULL, 0, &c3);
    line("B10b.alloc_100B", CUDA_SUCCESS, "dptr_mod_2MiB=%llu dist_from_c1=%lld", (unsigned long long)(c3.dptr % (2 << 20)), (long long)(c3.dptr - c1.dptr));
}

static void b14b(void)
{
    struct { int type; unsigned size; } cases[] = {{0, 1}, {1, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}, {2, 1}, {0, 0}, {1, 0}, {2, 0}, {3, 1}};
    for (int i = 0; i < 11; i++) {
        CUgraph g;
        cuGraphCreate(&g, 0);
        CUgraphConditionalHandle hnd = 0;
        cuGraphConditionalHandleCreate(&hnd, g, ctx, 0, 0);
        CUgraphNodeParams np;
        memset(&np, 0, sizeof np);
        np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
        np.conditional.handle = hnd;
        np.conditional.type = (CUgraphConditionalNodeType)cases[i].type;
        np.conditional.size = cases[i].size;
        np.conditional.ctx = ctx;
        CUgraphNode n;
        char nm[96];
        snprintf(nm, sizeof nm, "B14b.fresh_handle.type%d_size%u", cases[i].type, cases[i].size);
        CUresult r = cuGraphAddNode(&n, g, NULL, NULL, 0, &np);
        char extra[512] = "";
        int o = snprintf(extra, sizeof extra, "phGraph_out=%s", np.conditional.phGraph_out ? "set" : "NULL");
        if (!r && np.conditional.phGraph_out)
            for (unsigned j = 0; j < np.conditional.size; j++) {
                size_t nn = 99;
                CUgraph bg = np.conditional.phGraph_out[j];
                CUresult rn_ = bg ? cuGraphGetNodes(bg, NULL, &nn) : CUDA_ERROR_INVALID_VALUE;
                o += snprintf(extra + o, sizeof extra - o, " body%u=%s(nodes=%zu %s)", j, bg ? "graph" : "NULL", nn, rn(rn_));
            }
        line(nm, r, "%s", extra);
        if (!r) {
            CUgraphNodeParams np2 = np;
            np2.conditional.phGraph_out = NULL;
            CUgraphNode n2;
            P("  same_handle_second_node", cuGraphAddNode(&n2, g, NULL, NULL, 0, &np2));
            CUgraphExec x;
            CUDA_GRAPH_INSTANTIATE_PARAMS ip;
            memset(&ip, 0, sizeof ip);
            r = cuGraphInstantiateWithParams(&x, g, &ip);
            line("  instantiate_empty_bodies", r, "result_out=%d", (int)ip.result_out);
            if (!r) {
                P("  launch", cuGraphLaunch(x, 0));
                P("  sync", cuCtxSynchronize());
                cuGraphExecDestroy(x);
            }
        }
        cuGraphDestroy(g);
    }
    /* IF with a kernel body, default 1 with ASSIGN_DEFAULT: the kernel runs */
    for (int dflt = 0; dflt < 2; dflt++) {
        CUgraph g;
        cuGraphCreate(&g, 0);
        CUgraphConditionalHandle hnd = 0;
        cuGraphConditionalHandleCreate(&hnd, g, ctx, dflt, CU_GRAPH_COND_ASSIGN_DEFAULT);
        CUgraphNodeParams np;
        memset(&np, 0, sizeof np);
        np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
        np.conditional.handle = hnd;
        np.conditional.type = CU_GRAPH_COND_TYPE_IF;
        np.conditional.size = 1;
        np.conditional.ctx = ctx;
        CUgraphNode n;
        cuGraphAddNode(&n, g, NULL, NULL, 0, &np);
        CUDA_KERNEL_NODE_PARAMS k;
        memset(&k, 0, sizeof k);
        k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = kargs;
        CUgraphNode kn;
        cuGraphAddKernelNode(&kn, np.conditional.phGraph_out[0], NULL, 0, &k);
        cuMemsetD8(dbuf, 0, 1024);
        CUgraphExec x;
        CUresult r = cuGraphInstantiate(&x, g, 0);
        CUresult rl = r ? r : cuGraphLaunch(x, 0);
        cuCtxSynchronize();
        int v = -1;
        cuMemcpyDtoH(&v, dbuf, 4);
        char nm[64];
        snprintf(nm, sizeof nm, "B14b.IF_kernel_body_default_%d", dflt);
        line(nm, r, "launch=%s kernel_ran=%d", rn(rl), v);
        /* host node in the body */
        CUDA_HOST_NODE_PARAMS h = {.fn = hostfn, .userData = NULL};
        CUgraphNode hn;
        P("  body_add_host", cuGraphAddHostNode(&hn, np.conditional.phGraph_out[0], NULL, 0, &h));
        CUDA_GRAPH_INSTANTIATE_PARAMS ip;
        memset(&ip, 0, sizeof ip);
        r = cuGraphInstantiateWithParams(&x, g, &ip);
        line("  instantiate_host_in_body", r, "result_out=%d errNode=%s", (int)ip.result_out, ip.hErrNode_out == hn ? "the host node" : ip.hErrNode_out ? "other" : "NULL");
        P("  nodeGetType_of_body_node", (cuGraphNodeGetType(kn, &(CUgraphNodeType){0})));
        cuGraphDestroy(g);
    }
}

static void b15(void)
{
    CUstream s;
    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    CUDA_MEM_ALLOC_NODE_PARAMS a;
    memset(&a, 0, sizeof a);
    a.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    a.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    a.bytesize = 1 << 20;
    CUgraph g;
    CUgraphNode an, kn, fn;
    cuGraphCreate(&g, 0);
    cuGraphAddMemAllocNode(&an, g, NULL, 0, &a);
    CUdeviceptr p = a.dptr;
    void *ka[2] = {&p, &nelem};
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = fadd; k.gridDimX = k.gridDimY = k.gridDimZ = 1; k.blockDimX = 256; k.blockDimY = k.blockDimZ = 1; k.kernelParams = ka;
    cuGraphAddKernelNode(&kn, g, &an, 1, &k);
    P("B15.addFreeNode_fresh_graph", cuGraphAddMemFreeNode(&fn, g, &kn, 1, p));
    printf("B15.graph: %s\n", describe(g));
    CUgraphExec x;
    P("B15.instantiate", cuGraphInstantiate(&x, g, 0));
    P("B15.launch1", cuGraphLaunch(x, s));
    P("B15.launch2", cuGraphLaunch(x, s));
    P("B15.sync", cuStreamSynchronize(s));
    mem_attrs("B15.attrs");
    P("B15.memFreeAsync_after_graph_freed_it", cuMemFreeAsync(p, s));
    cuStreamSynchronize(s);
    P("B15.destroyNode_free_with_exec", cuGraphDestroyNode(fn));
    P("B15.execDestroy", cuGraphExecDestroy(x));
    P("B15.destroyNode_free_without_exec", cuGraphDestroyNode(fn));
    /* alloc node destroy without any exec ever */
    CUgraph g2;
    CUgraphNode an2;
    cuGraphCreate(&g2, 0);
    CUDA_MEM_ALLOC_NODE_PARAMS a2 = a;
    cuGraphAddMemAllocNode(&an2, g2, NULL, 0, &a2);
    P("B15.destroyNode_alloc_never_instantiated", cuGraphDestroyNode(an2));
    /* alloc -> kernel, instantiate, destroy exec, then add free */
    CUgraph g3;
    CUgraphNode an3, kn3, fn3;
    cuGraphCreate(&g3, 0);
    CUDA_MEM_ALLOC_NODE_PARAMS a3 = a;
    cuGraphAddMemAllocNode(&an3, g3, NULL, 0, &a3);
    CUdeviceptr p3 = a3.dptr;
    void *ka3[2] = {&p3, &nelem};
    k.kernelParams = ka3;
    cuGraphAddKernelNode(&kn3, g3, &an3, 1, &k);
    cuGraphInstantiate(&x, g3, 0);
    P("B15.addFreeNode_while_exec_alive", cuGraphAddMemFreeNode(&fn3, g3, &kn3, 1, p3));
    cuGraphExecDestroy(x);
    P("B15.addFreeNode_after_exec_destroyed", cuGraphAddMemFreeNode(&fn3, g3, &kn3, 1, p3));
    /* free node not depending on the alloc */
    CUgraph g4;
    CUgraphNode an4, fn4;
    cuGraphCreate(&g4, 0);
    CUDA_MEM_ALLOC_NODE_PARAMS a4 = a;
    cuGraphAddMemAllocNode(&an4, g4, NULL, 0, &a4);
    P("B15.addFreeNode_not_ordered_after_alloc", cuGraphAddMemFreeNode(&fn4, g4, NULL, 0, a4.dptr));
    CUgraphExec x4;
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof ip);
    CUresult r = cuGraphInstantiateWithParams(&x4, g4, &ip);
    line("B15.instantiate_unordered_free", r, "result_out=%d", (int)ip.result_out);
    /* captured alloc: cuMemAllocAsync in capture, no free; launch twice */
    CUgraph cg;
    CUdeviceptr q;
    cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    cuMemAllocAsync(&q, 4096, s);
    cuStreamEndCapture(s, &cg);
    CUgraphExec cx;
    P("B15.captured_alloc.instantiate", cuGraphInstantiate(&cx, cg, 0));
    P("B15.captured_alloc.launch1", cuGraphLaunch(cx, s));
    P("B15.captured_alloc.launch2", cuGraphLaunch(cx, s));
    P("B15.captured_alloc.sync", cuStreamSynchronize(s));
    P("B15.captured_alloc.free_outside", cuMemFreeAsync(q, s));
    P("B15.captured_alloc.launch3", cuGraphLaunch(cx, s));
    P("B15.captured_alloc.sync2", cuStreamSynchronize(s));
    P("B15.captured_alloc.execDestroy_unfreed", cuGraphExecDestroy(cx));
    P("B15.captured_alloc.free_after_exec_destroyed", cuMemFreeAsync(q, s));
    P("B15.sync", cuStreamSynchronize(s));
    P("B15.trim", cuDeviceGraphMemTrim(dev));
    mem_attrs("B15.attrs_end");
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1)
        outdir = argv[1];
    const char *only = getenv("ONLY");
    struct { const char *name; void (*fn)(void); } secs[] = {
        {"A1", a1}, {"A2", a2}, {"A2null", a2null}, {"A3GLOBAL", a3g}, {"A3THREAD_LOCAL", a3t}, {"A3RELAXED", a3r}, {"A4", a4}, {"A5", a5}, {"A6", a6}, {"A7", a7},
        {"A8", a8}, {"A9", a9}, {"A10", a10}, {"A10null", a10null}, {"A11", a11}, {"A12", a12}, {"B1", b1}, {"B1null", b1null}, {"B1nullout", b1nullout},
        {"B2", b2}, {"B3", b3}, {"B4", b4}, {"B4destroyed", b4destroyed}, {"B4twice", b4twice}, {"B4destroyedgraph", b4destroyedgraph},
        {"B5", b5}, {"B5b", b5b}, {"B5evr", b5evr}, {"B5evw", b5evw}, {"B5addnode", b5addnode}, {"B5cycle", b5cycle}, {"B5self", b5self}, {"B5null", b5null}, {"B5null2", b5null2}, {"B6", b6}, {"B7", b7}, {"B8", b8},
        {"B8destroyed", b8destroyed}, {"B9", b9}, {"B10", b10}, {"B10b", b10b}, {"B11", b11}, {"B12", b12}, {"B13", b13},
        {"B14", b14}, {"B14b", b14b}, {"B15", b15}, {"C", c}};
    for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++)
        if (!only || strstr(only, secs[i].name))
            run_section(secs[i].name, secs[i].fn);
    return 0;
}
