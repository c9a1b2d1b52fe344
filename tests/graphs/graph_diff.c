/*
 * tests/graphs/graph_diff.c - the GPU-differential program of CUDA graphs and stream capture
 * (issue 24). It prints one line per check; graph_diff.expected is what it printed against
 * NVIDIA's driver, and the ctest graphs.graph_diff runs it against extmem and compares.
 *
 * Driver API only, kernels as PTX text (cuModuleLoadData). It builds against NVIDIA's cuda.h
 * and against extmem's (include/extmem on the include path). It never prints a pointer or a
 * handle: nodes are named by their index in cuGraphGetNodes' order, pointers by what they are
 * (`func==lin:1`), codes as `NAME(number)`.
 *
 * Each section runs in a child process of its own (fork, then cuInit in the child), so a crash
 * in one is reported (`## section: killed by signal N`) and the others still run.
 *
 * The expected output was recorded on NVIDIA's driver: an NVIDIA H200, driver 580.159.04, CUDA
 * 13.0 headers (tests/graphs/README.md), three runs with the same output, built and run with
 *   gcc -std=gnu11 -O1 -Wall tests/graphs/graph_diff.c -I/usr/local/cuda/include -lcuda -lpthread \
 *       -o /tmp/graph_diff && /tmp/graph_diff > tests/graphs/graph_diff.expected
 * Against extmem (what the ctest graphs.graph_diff does; build/ is the build folder):
 *   gcc -std=gnu11 tests/graphs/graph_diff.c -Iinclude/extmem -Iinclude -Ibuild/include -Lbuild -lextmem \
 *       -lpthread -Wl,-rpath,$PWD/build -o /tmp/graph_diff_extmem
 * One section alone: graph_diff SECTION (hand, capture, update, enable, flags, rules, cond).
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

/* ---------------------------------------------------------------- kernels ---- */
/* struct lin { unsigned *p; unsigned a; unsigned b; } by value: p[i] = p[i] * a + b.
 * square(p, n): p[i] = i * i.  add1(p, n): p[i] += 1.  fill(p, v, n): p[i] = v. */
static const char PTX[] =
    ".version 7.0\n"
    ".target sm_52\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry lin(.param .align 8 .b8 s[16], .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<9>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  .reg .pred %q;\n"
    "  ld.param.u64 %rd1, [s];\n"
    "  ld.param.u32 %r1, [s+8];\n"
    "  ld.param.u32 %r2, [s+12];\n"
    "  ld.param.u32 %r3, [n];\n"
    "  mov.u32 %r4, %ctaid.x;\n"
    "  mov.u32 %r5, %ntid.x;\n"
    "  mov.u32 %r6, %tid.x;\n"
    "  mad.lo.s32 %r4, %r4, %r5, %r6;\n"
    "  setp.ge.u32 %q, %r4, %r3;\n"
    "  @%q bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.u32 %r7, [%rd4];\n"
    "  mad.lo.s32 %r8, %r7, %r1, %r2;\n"
    "  st.global.u32 [%rd4], %r8;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry square(.param .u64 p, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<7>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  .reg .pred %q;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r2, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %q, %r2, %r1;\n"
    "  @%q bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  mul.lo.s32 %r5, %r2, %r2;\n"
    "  st.global.u32 [%rd4], %r5;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry add1(.param .u64 p, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<7>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  .reg .pred %q;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r2, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %q, %r2, %r1;\n"
    "  @%q bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.u32 %r5, [%rd4];\n"
    "  add.s32 %r6, %r5, 1;\n"
    "  st.global.u32 [%rd4], %r6;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry fill(.param .u64 p, .param .u32 v, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<7>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  .reg .pred %q;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r5, [v];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r2, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %q, %r2, %r1;\n"
    "  @%q bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r5;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

struct lin {
    CUdeviceptr p;
    unsigned a, b;
};

/* ---------------------------------------------------------------- printing ---- */
static CUdevice dev;
static CUcontext ctx;
static CUmodule mod;
static CUfunction f_lin, f_square, f_add1, f_fill;

static const char *nm(CUresult r)
{
    const char *n = NULL;
    if (cuGetErrorName(r, &n) != CUDA_SUCCESS || !n)
        return "UNNAMED";
    return n;
}

/* "NAME(number)" in one of a few rotating buffers, so a line can hold several. */
static const char *rc(CUresult r)
{
    static char buf[8][64];
    static int k;
    char *b = buf[k++ & 7];
    snprintf(b, 64, "%s(%d)", nm(r), (int)r);
    return b;
}

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* A call whose failure is a line of its own (setup steps the checks depend on). */
#define CK(call)                                                        \
    do {                                                                \
        CUresult ck_ = (call);                                          \
        if (ck_ != CUDA_SUCCESS)                                        \
            say("  (line %d: %s -> %s)", __LINE__, #call, rc(ck_));     \
    } while (0)

static const char *capstat(CUstreamCaptureStatus s)
{
    switch (s) {
    case CU_STREAM_CAPTURE_STATUS_NONE: return "NONE";
    case CU_STREAM_CAPTURE_STATUS_ACTIVE: return "ACTIVE";
    case CU_STREAM_CAPTURE_STATUS_INVALIDATED: return "INVALIDATED";
    }
    return "?";
}

static const char *status_of(CUstream s)
{
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult r = cuStreamIsCapturing(s, &st);
    return r ? rc(r) : capstat(st);
}

static int node_index(const CUgraphNode *nodes, size_t n, CUgraphNode x)
{
    for (size_t i = 0; i < n; i++)
        if (nodes[i] == x)
            return (int)i;
    return -1;
}

/* "nodes=N edges=E types=t0,t1,.. edges=a->b,.." with nodes numbered in cuGraphGetNodes' order. */
static const char *shape(CUgraph g)
{
    static char buf[4096];
    CUgraphNode nodes[128], from[256], to[256];
    size_t n = 128, ne = 256;
    CUresult r = cuGraphGetNodes(g, nodes, &n);
    if (r) {
        snprintf(buf, sizeof buf, "GetNodes=%s", rc(r));
        return buf;
    }
    r = cuGraphGetEdges(g, from, to, NULL, &ne);
    if (r) {
        snprintf(buf, sizeof buf, "nodes=%zu GetEdges=%s", n, rc(r));
        return buf;
    }
    /* edges sorted by (from, to): the order cuGraphGetEdges gives them in is left open */
    int ef[256], et[256];
    for (size_t i = 0; i < ne; i++) {
        ef[i] = node_index(nodes, n, from[i]);
        et[i] = node_index(nodes, n, to[i]);
    }
    for (size_t i = 1; i < ne; i++)
        for (size_t j = i; j > 0 && (ef[j - 1] > ef[j] || (ef[j - 1] == ef[j] && et[j - 1] > et[j])); j--) {
            int t = ef[j];
            ef[j] = ef[j - 1];
            ef[j - 1] = t;
            t = et[j];
            et[j] = et[j - 1];
            et[j - 1] = t;
        }
    int o = snprintf(buf, sizeof buf, "nodes=%zu edges=%zu types=", n, ne);
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType t = (CUgraphNodeType)99;
        cuGraphNodeGetType(nodes[i], &t);
        o += snprintf(buf + o, sizeof buf - o, "%s%d", i ? "," : "", (int)t);
    }
    o += snprintf(buf + o, sizeof buf - o, " edges=");
    for (size_t i = 0; i < ne; i++)
        o += snprintf(buf + o, sizeof buf - o, "%s%d->%d", i ? "," : "", ef[i], et[i]);
    if (!ne)
        snprintf(buf + o, sizeof buf - o, "-");
    return buf;
}

/* The graph's i-th node (cuGraphGetNodes' order), or NULL. */
static CUgraphNode nth(CUgraph g, size_t i)
{
    CUgraphNode nodes[128];
    size_t n = 128;
    if (cuGraphGetNodes(g, nodes, &n) || i >= n)
        return NULL;
    return nodes[i];
}

/* Device words, printed: "label: v0 v1 ...". */
static void words(const char *label, CUdeviceptr p, unsigned n)
{
    unsigned h[256];
    char line[4096];
    CUresult r = cuMemcpyDtoH(h, p, n * sizeof(unsigned));
    if (r) {
        say("%s: read=%s", label, rc(r));
        return;
    }
    int o = snprintf(line, sizeof line, "%s:", label);
    for (unsigned i = 0; i < n; i++)
        o += snprintf(line + o, sizeof line - o, " %u", h[i]);
    say("%s", line);
}

static void host_bytes(const char *label, const unsigned char *h, unsigned n)
{
    char line[4096];
    int o = snprintf(line, sizeof line, "%s:", label);
    for (unsigned i = 0; i < n; i++)
        o += snprintf(line + o, sizeof line - o, "%s%02x", i % 16 ? "" : " ", h[i]);
    say("%s", line);
}

static void dev_bytes(const char *label, CUdeviceptr p, unsigned n)
{
    unsigned char h[1024];
    CUresult r = cuMemcpyDtoH(h, p, n);
    if (r) {
        say("%s: read=%s", label, rc(r));
        return;
    }
    host_bytes(label, h, n);
}

static CUdeviceptr dalloc(size_t bytes)
{
    CUdeviceptr p = 0;
    CK(cuMemAlloc(&p, bytes));
    CK(cuMemsetD8(p, 0, bytes));
    return p;
}

static void setup(void)
{
    CUresult r;
    if ((r = cuInit(0)) || (r = cuDeviceGet(&dev, 0)) || (r = cuDevicePrimaryCtxRetain(&ctx, dev)) ||
        (r = cuCtxSetCurrent(ctx)) || (r = cuModuleLoadData(&mod, PTX)) ||
        (r = cuModuleGetFunction(&f_lin, mod, "lin")) || (r = cuModuleGetFunction(&f_square, mod, "square")) ||
        (r = cuModuleGetFunction(&f_add1, mod, "add1")) || (r = cuModuleGetFunction(&f_fill, mod, "fill"))) {
        say("setup: %s", rc(r));
        exit(1);
    }
}

/* ------------------------------------------------------- node helpers ---- */
/* Kernel parameters live as long as the section: a few slots, each its own storage. */
struct kargs {
    CUdeviceptr p;
    unsigned v, n;
    struct lin s;
    void *args[3];
};

static CUDA_KERNEL_NODE_PARAMS kparams(CUfunction f, struct kargs *a, unsigned threads)
{
    CUDA_KERNEL_NODE_PARAMS kp;
    memset(&kp, 0, sizeof kp);
    kp.func = f;
    kp.gridDimX = (threads + 31) / 32;
    kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = 32;
    kp.blockDimY = kp.blockDimZ = 1;
    if (f == f_lin) {
        a->args[0] = &a->s;
        a->args[1] = &a->n;
    } else if (f == f_fill) {
        a->args[0] = &a->p;
        a->args[1] = &a->v;
        a->args[2] = &a->n;
    } else {
        a->args[0] = &a->p;
        a->args[1] = &a->n;
    }
    kp.kernelParams = a->args;
    return kp;
}

static CUgraphNode add_kernel(CUgraph g, const CUgraphNode *deps, size_t nd, CUfunction f, struct kargs *a,
                              unsigned threads)
{
    CUgraphNode n = NULL;
    CUDA_KERNEL_NODE_PARAMS kp = kparams(f, a, threads);
    CK(cuGraphAddKernelNode(&n, g, deps, nd, &kp));
    return n;
}

static CUresult launch_k(CUstream s, CUfunction f, struct kargs *a, unsigned threads)
{
    CUDA_KERNEL_NODE_PARAMS kp = kparams(f, a, threads);
    return cuLaunchKernel(f, kp.gridDimX, 1, 1, kp.blockDimX, 1, 1, 0, s, kp.kernelParams, NULL);
}

static CUDA_MEMSET_NODE_PARAMS msparams(CUdeviceptr dst, unsigned es, unsigned value, size_t width, size_t height,
                                        size_t pitch)
{
    CUDA_MEMSET_NODE_PARAMS mp;
    memset(&mp, 0, sizeof mp);
    mp.dst = dst;
    mp.elementSize = es;
    mp.value = value;
    mp.width = width;
    mp.height = height;
    mp.pitch = pitch;
    return mp;
}

static CUgraphNode add_memset(CUgraph g, const CUgraphNode *deps, size_t nd, CUDA_MEMSET_NODE_PARAMS mp)
{
    CUgraphNode n = NULL;
    CK(cuGraphAddMemsetNode(&n, g, deps, nd, &mp, ctx));
    return n;
}

static CUDA_MEMCPY3D cp1d_dd(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = src;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = dst;
    c.WidthInBytes = bytes;
    c.Height = 1;
    c.Depth = 1;
    return c;
}

static CUDA_MEMCPY3D cp1d_dh(void *dst, CUdeviceptr src, size_t bytes)
{
    CUDA_MEMCPY3D c = cp1d_dd(0, src, bytes);
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstDevice = 0;
    c.dstHost = dst;
    return c;
}

static CUDA_MEMCPY3D cp1d_hd(CUdeviceptr dst, const void *src, size_t bytes)
{
    CUDA_MEMCPY3D c = cp1d_dd(dst, 0, bytes);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcDevice = 0;
    c.srcHost = src;
    return c;
}

static CUgraphNode add_memcpy(CUgraph g, const CUgraphNode *deps, size_t nd, CUDA_MEMCPY3D c)
{
    CUgraphNode n = NULL;
    CK(cuGraphAddMemcpyNode(&n, g, deps, nd, &c, ctx));
    return n;
}

static CUgraphNode add_empty(CUgraph g, const CUgraphNode *deps, size_t nd)
{
    CUgraphNode n = NULL;
    CK(cuGraphAddEmptyNode(&n, g, deps, nd));
    return n;
}

static CUgraphExec inst(CUgraph g, const char *label)
{
    CUgraphExec x = NULL;
    CUresult r = cuGraphInstantiate(&x, g, 0);
    if (r)
        say("%s.instantiate: %s", label, rc(r));
    return x;
}

/* ------------------------------------------------------------ host functions ---- */
struct hostlog {
    unsigned calls;
    unsigned sum;        /* of the words at `watch` when called */
    const unsigned *watch;
    unsigned nwatch;
    unsigned *stamp;     /* written: stamp[i] = 1000 * calls + i */
    unsigned nstamp;
    unsigned sleep_ms;
};

static void CUDA_CB host_fn(void *user)
{
    struct hostlog *h = user;
    if (h->sleep_ms) {
        struct timespec ts = {0, (long)h->sleep_ms * 1000000L};
        nanosleep(&ts, NULL);
    }
    h->calls++;
    h->sum = 0;
    for (unsigned i = 0; i < h->nwatch; i++)
        h->sum += h->watch[i];
    for (unsigned i = 0; i < h->nstamp; i++)
        h->stamp[i] = 1000 * h->calls + i;
}

static void CUDA_CB host_other(void *user)
{
    (*(unsigned *)user) += 100;
}

/* =============================================================================== */
/* Section hand: a graph of every node type extmem runs, built by hand.             */
/* =============================================================================== */

struct work {
    CUdeviceptr dA, dB, dCount, dC, dE, dF, d2, d3, d3b, d8, dBatch, dG;
    unsigned *hB, *hE;
    unsigned char *h2, *h3src, *h3dst;
    struct hostlog log, stamper;
};

static void work_alloc(struct work *w)
{
    memset(w, 0, sizeof *w);
    w->dA = dalloc(64 * 4);
    w->dB = dalloc(64 * 4);
    w->dCount = dalloc(64 * 4);
    w->dC = dalloc(16 * 4);
    w->dE = dalloc(16 * 4);
    w->dF = dalloc(16 * 4);
    w->d2 = dalloc(32 * 4);   /* 4 rows, pitch 32 */
    w->d3 = dalloc(16 * 4 * 2); /* pitch 16, height 4, depth 2 */
    w->d3b = dalloc(8 * 3 * 2); /* pitch 8, height 3, depth 2 */
    w->d8 = dalloc(64);
    w->dBatch = dalloc(16);
    w->dG = dalloc(64 * 4);
    CK(cuMemAllocHost((void **)&w->hB, 64 * 4));
    CK(cuMemAllocHost((void **)&w->hE, 16 * 4));
    CK(cuMemAllocHost((void **)&w->h2, 64));
    CK(cuMemAllocHost((void **)&w->h3src, 8 * 3 * 2));
    CK(cuMemAllocHost((void **)&w->h3dst, 16 * 4 * 2));
    memset(w->hB, 0, 64 * 4);
    memset(w->hE, 0, 16 * 4);
    memset(w->h3dst, 0xee, 16 * 4 * 2);
    for (unsigned i = 0; i < 64; i++)
        w->h2[i] = (unsigned char)(0x10 + i);
    for (unsigned i = 0; i < 48; i++)
        w->h3src[i] = (unsigned char)(0x80 + i);
    w->log.watch = w->hB;
    w->log.nwatch = 64;
    w->stamper.stamp = w->hE;
    w->stamper.nstamp = 16;
    w->stamper.sleep_ms = 30;
}

/* The 2D copy: 12 bytes of 4 rows from h2 (pitch 16) to d2 (pitch 32, at x=4). */
static CUDA_MEMCPY3D cp2d(struct work *w)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = w->h2;
    c.srcPitch = 16;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = w->d2;
    c.dstXInBytes = 4;
    c.dstPitch = 32;
    c.WidthInBytes = 12;
    c.Height = 4;
    c.Depth = 1;
    return c;
}

/* The 3D copies: 6 bytes x 3 rows x 2 slices from h3src (pitch 8, height 3) to d3 (pitch 16,
 * height 4, at y=1), and d3 back to h3dst (same layout as d3). */
static CUDA_MEMCPY3D cp3d_in(struct work *w)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = w->h3src;
    c.srcPitch = 8;
    c.srcHeight = 3;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = w->d3;
    c.dstY = 1;
    c.dstPitch = 16;
    c.dstHeight = 4;
    c.WidthInBytes = 6;
    c.Height = 3;
    c.Depth = 2;
    return c;
}

static CUDA_MEMCPY3D cp3d_out(struct work *w)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = w->d3;
    c.srcPitch = 16;
    c.srcHeight = 4;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = w->h3dst;
    c.dstPitch = 16;
    c.dstHeight = 4;
    c.WidthInBytes = 16;
    c.Height = 4;
    c.Depth = 2;
    return c;
}

/* The 3D device-to-device copy: the box cp3d_in wrote into d3, to d3b (pitch 8, height 3). */
static CUDA_MEMCPY3D cp3d_dd(struct work *w)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = w->d3;
    c.srcY = 1;
    c.srcPitch = 16;
    c.srcHeight = 4;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = w->d3b;
    c.dstPitch = 8;
    c.dstHeight = 3;
    c.WidthInBytes = 6;
    c.Height = 3;
    c.Depth = 2;
    return c;
}

static void work_print(const char *label, struct work *w)
{
    char l[128];
#define L(x) (snprintf(l, sizeof l, "%s.%s", label, x), l)
    words(L("dA"), w->dA, 8);
    words(L("dCount"), w->dCount, 8);
    host_bytes(L("hB"), (const unsigned char *)w->hB, 16);
    say("%s.host: calls=%u sum=%u", label, w->log.calls, w->log.sum);
    dev_bytes(L("d2"), w->d2, 128);
    host_bytes(L("h3dst"), w->h3dst, 128);
    dev_bytes(L("d3b"), w->d3b, 48);
    dev_bytes(L("d8"), w->d8, 64);
    words(L("dC"), w->dC, 12);
    say("%s.stamper: calls=%u", label, w->stamper.calls);
    words(L("dF"), w->dF, 4);
    words(L("dBatch"), w->dBatch, 2);
    words(L("dG"), w->dG, 8);
#undef L
}

static void sec_hand(void)
{
    struct work w;
    work_alloc(&w);
    static struct kargs ka[8];
    CUstream s1, s2;
    CK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUevent E;
    CK(cuEventCreate(&E, CU_EVENT_DISABLE_TIMING));

    CUgraph g1, g2, g3, child;
    CK(cuGraphCreate(&g1, 0));
    CK(cuGraphCreate(&g2, 0));
    CK(cuGraphCreate(&g3, 0));
    CK(cuGraphCreate(&child, 0));

    /* g1 */
    CUgraphNode m0 = add_memset(g1, NULL, 0, msparams(w.dA, 4, 1, 64, 1, 0));
    ka[0].s = (struct lin){w.dA, 2, 3};
    ka[0].n = 64;
    CUgraphNode k1 = add_kernel(g1, &m0, 1, f_lin, &ka[0], 64);
    ka[1].p = w.dCount;
    ka[1].n = 64;
    CUgraphNode k2 = add_kernel(g1, NULL, 0, f_add1, &ka[1], 64);
    CUgraphNode c3 = add_memcpy(g1, &k1, 1, cp1d_dd(w.dB, w.dA, 256));
    CUgraphNode c4 = add_memcpy(g1, &c3, 1, cp1d_dh(w.hB, w.dB, 256));
    CUgraphNode h5 = NULL;
    CUDA_HOST_NODE_PARAMS hp = {host_fn, &w.log};
    CK(cuGraphAddHostNode(&h5, g1, &c4, 1, &hp));
    CUgraphNode c6 = add_memcpy(g1, NULL, 0, cp2d(&w));
    CUgraphNode c7 = add_memcpy(g1, NULL, 0, cp3d_in(&w));
    CUgraphNode c7b = add_memcpy(g1, &c7, 1, cp3d_out(&w));
    CUgraphNode c7c = add_memcpy(g1, &c7, 1, cp3d_dd(&w));
    CUgraphNode s8 = add_memset(g1, NULL, 0, msparams(w.d8, 1, 0xab, 16, 1, 0));
    CUgraphNode s9 = add_memset(g1, NULL, 0, msparams(w.d8 + 16, 2, 0x1234, 8, 1, 0));
    CUgraphNode s10 = add_memset(g1, NULL, 0, msparams(w.d8 + 32, 1, 0x5a, 3, 4, 8));
    /* The child's two kernels are independent nodes: they must not touch the same words (a race
     * on the GPU as here, where the graph's branches may run at once). add1 takes words 0-7,
     * square 8-11, as the recorded output shows. */
    ka[2].p = w.dC;
    ka[2].n = 8;
    add_kernel(child, NULL, 0, f_add1, &ka[2], 16);
    ka[3].p = w.dC + 4 * 8;
    ka[3].n = 4;
    add_kernel(child, NULL, 0, f_square, &ka[3], 4);
    CUgraphNode ch11 = NULL;
    CK(cuGraphAddChildGraphNode(&ch11, g1, NULL, 0, child));
    CUgraphNode join[] = {k2, h5, c6, c7b, c7c, s8, s9, s10, ch11};
    CUgraphNode e12 = add_empty(g1, join, 9);
    CUgraphNode h13 = NULL;
    CUDA_HOST_NODE_PARAMS hp2 = {host_fn, &w.stamper};
    CK(cuGraphAddHostNode(&h13, g1, &e12, 1, &hp2));
    CUgraphNode c14 = add_memcpy(g1, &h13, 1, cp1d_hd(w.dE, w.hE, 64));
    CUgraphNode r15 = NULL;
    CK(cuGraphAddEventRecordNode(&r15, g1, &c14, 1, E));
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = w.dBatch + 4;
    op.writeValue.value = 0xc0ffee;
    CUDA_BATCH_MEM_OP_NODE_PARAMS bp;
    memset(&bp, 0, sizeof bp);
    bp.ctx = ctx;
    bp.count = 1;
    bp.paramArray = &op;
    CUgraphNode b16 = NULL;
    CK(cuGraphAddBatchMemOpNode(&b16, g1, NULL, 0, &bp));
    say("hand.g1.shape: %s", shape(g1));

    /* g2: waits for g1's record of E, then copies what g1 copied in just before it */
    CUgraphNode w0 = NULL;
    CK(cuGraphAddEventWaitNode(&w0, g2, NULL, 0, E));
    add_memcpy(g2, &w0, 1, cp1d_dd(w.dF, w.dE, 64));
    say("hand.g2.shape: %s", shape(g2));

    /* g3: graph-owned memory used by a kernel */
    CUDA_MEM_ALLOC_NODE_PARAMS ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    ap.poolProps.location.id = 0;
    ap.bytesize = 256;
    CUgraphNode a0 = NULL;
    CK(cuGraphAddMemAllocNode(&a0, g3, NULL, 0, &ap));
    ka[4].p = ap.dptr;
    ka[4].v = 0x40;
    ka[4].n = 64;
    CUgraphNode ak1 = add_kernel(g3, &a0, 1, f_fill, &ka[4], 64);
    ka[5].p = ap.dptr;
    ka[5].n = 32;
    CUgraphNode ak2 = add_kernel(g3, &ak1, 1, f_add1, &ka[5], 32);
    CUgraphNode ac3 = add_memcpy(g3, &ak2, 1, cp1d_dd(w.dG, ap.dptr, 256));
    CUgraphNode af4 = NULL;
    CK(cuGraphAddMemFreeNode(&af4, g3, &ac3, 1, ap.dptr));
    say("hand.g3.shape: %s alloc_dptr_set=%d", shape(g3), ap.dptr != 0);

    /* ---- the parameters read back ---- */
    {
        CUDA_KERNEL_NODE_PARAMS kp;
        memset(&kp, 0x5a, sizeof kp);
        CUresult r = cuGraphKernelNodeGetParams(k1, &kp);
        struct lin *sv = r ? NULL : (struct lin *)kp.kernelParams[0];
        say("hand.params.kernel: %s func==lin:%d grid=%u,%u,%u block=%u,%u,%u shmem=%u extra=%s "
            "arg0.p==dA:%d arg0.a=%u arg0.b=%u arg1=%u",
            rc(r), kp.func == f_lin, kp.gridDimX, kp.gridDimY, kp.gridDimZ, kp.blockDimX, kp.blockDimY,
            kp.blockDimZ, kp.sharedMemBytes, kp.extra ? "set" : "NULL", sv && sv->p == w.dA, sv ? sv->a : 0,
            sv ? sv->b : 0, r ? 0 : *(unsigned *)kp.kernelParams[1]);
        memset(&kp, 0x5a, sizeof kp);
        r = cuGraphKernelNodeGetParams(k2, &kp);
        say("hand.params.kernel2: %s func==add1:%d arg0==dCount:%d arg1=%u", rc(r), kp.func == f_add1,
            r ? 0 : *(CUdeviceptr *)kp.kernelParams[0] == w.dCount, r ? 0 : *(unsigned *)kp.kernelParams[1]);
    }
    {
        CUDA_MEMSET_NODE_PARAMS mp;
        CUgraphNode ms[] = {m0, s8, s9, s10};
        CUdeviceptr base[] = {w.dA, w.d8, w.d8, w.d8};
        for (int i = 0; i < 4; i++) {
            memset(&mp, 0x5a, sizeof mp);
            CUresult r = cuGraphMemsetNodeGetParams(ms[i], &mp);
            say("hand.params.memset%d: %s dst_off=%lld elementSize=%u value=%#x width=%zu height=%zu pitch=%zu", i,
                rc(r), (long long)(mp.dst - base[i]), mp.elementSize, mp.value, mp.width, mp.height,
                mp.height > 1 ? mp.pitch : (size_t)0);
        }
    }
    {
        CUgraphNode cps[] = {c3, c4, c6, c7, c7b, c7c};
        const char *names[] = {"DtoD", "DtoH", "2D_HtoD", "3D_HtoD", "3D_DtoH", "3D_DtoD"};
        for (int i = 0; i < 6; i++) {
            CUDA_MEMCPY3D c;
            memset(&c, 0x5a, sizeof c);
            CUresult r = cuGraphMemcpyNodeGetParams(cps[i], &c);
            const char *src = c.srcMemoryType == CU_MEMORYTYPE_HOST
                                  ? (c.srcHost == w.hB ? "hB" : c.srcHost == w.h2 ? "h2" : c.srcHost == w.h3src ? "h3src" : "?")
                                  : (c.srcDevice == w.dA ? "dA" : c.srcDevice == w.dB ? "dB" : c.srcDevice == w.d3 ? "d3" : "?");
            const char *dst = c.dstMemoryType == CU_MEMORYTYPE_HOST
                                  ? (c.dstHost == w.hB ? "hB" : c.dstHost == w.h3dst ? "h3dst" : "?")
                                  : (c.dstDevice == w.dB ? "dB" : c.dstDevice == w.d2 ? "d2" : c.dstDevice == w.d3 ? "d3"
                                     : c.dstDevice == w.d3b ? "d3b" : "?");
            say("hand.params.memcpy.%s: %s src=%s(type %d) dst=%s(type %d) width=%zu height=%zu depth=%zu "
                "src_xyz=%zu,%zu,%zu src_pitch=%zu src_height=%zu dst_xyz=%zu,%zu,%zu dst_pitch=%zu dst_height=%zu",
                names[i], rc(r), src, (int)c.srcMemoryType, dst, (int)c.dstMemoryType, c.WidthInBytes, c.Height,
                c.Depth, c.srcXInBytes, c.srcY, c.srcZ, c.Height > 1 || c.Depth > 1 ? c.srcPitch : (size_t)0,
                c.Depth > 1 ? c.srcHeight : (size_t)0, c.dstXInBytes, c.dstY, c.dstZ,
                c.Height > 1 || c.Depth > 1 ? c.dstPitch : (size_t)0, c.Depth > 1 ? c.dstHeight : (size_t)0);
        }
    }
    {
        CUDA_HOST_NODE_PARAMS h;
        memset(&h, 0x5a, sizeof h);
        CUresult r = cuGraphHostNodeGetParams(h5, &h);
        say("hand.params.host: %s fn==host_fn:%d userData==log:%d", rc(r), h.fn == host_fn, h.userData == &w.log);
        CUgraph cg = NULL;
        r = cuGraphChildGraphNodeGetGraph(ch11, &cg);
        say("hand.params.child: %s is_original:%d %s", rc(r), cg == child, r ? "" : shape(cg));
        CUevent ev = NULL;
        r = cuGraphEventRecordNodeGetEvent(r15, &ev);
        say("hand.params.event_record: %s event==E:%d", rc(r), ev == E);
        ev = NULL;
        r = cuGraphEventWaitNodeGetEvent(w0, &ev);
        say("hand.params.event_wait: %s event==E:%d", rc(r), ev == E);
        CUDA_BATCH_MEM_OP_NODE_PARAMS b;
        memset(&b, 0, sizeof b);
        r = cuGraphBatchMemOpNodeGetParams(b16, &b);
        say("hand.params.batch: %s ctx==ctx:%d count=%u flags=%u op=%d address==dBatch+4:%d value=%#x", rc(r),
            b.ctx == ctx, b.count, b.flags, r || !b.paramArray ? -1 : (int)b.paramArray[0].operation,
            !r && b.paramArray && b.paramArray[0].writeValue.address == w.dBatch + 4,
            r || !b.paramArray ? 0 : b.paramArray[0].writeValue.value);
        CUDA_MEM_ALLOC_NODE_PARAMS a;
        memset(&a, 0, sizeof a);
        r = cuGraphMemAllocNodeGetParams(a0, &a);
        say("hand.params.mem_alloc: %s bytesize=%zu allocType=%d handleTypes=%d location=%d/%d accessDescCount=%zu "
            "dptr==dptr:%d",
            rc(r), a.bytesize, (int)a.poolProps.allocType, (int)a.poolProps.handleTypes,
            (int)a.poolProps.location.type, a.poolProps.location.id, a.accessDescCount, a.dptr == ap.dptr);
        CUdeviceptr fp = 0;
        r = cuGraphMemFreeNodeGetParams(af4, &fp);
        say("hand.params.mem_free: %s dptr==dptr:%d", rc(r), fp == ap.dptr);
        CUgraphNodeType t = (CUgraphNodeType)99;
        CUgraphNode all[] = {m0, k1, c3, h5, ch11, e12, w0, r15, a0, af4, b16};
        char line[256];
        int o = snprintf(line, sizeof line, "hand.params.types:");
        for (int i = 0; i < 11; i++) {
            cuGraphNodeGetType(all[i], &t);
            o += snprintf(line + o, sizeof line - o, " %d", (int)t);
        }
        say("%s", line);
        size_t n = 0;
        r = cuGraphNodeGetDependencies(e12, NULL, NULL, &n);
        size_t m = 0;
        CUresult r2 = cuGraphNodeGetDependentNodes(e12, NULL, NULL, &m);
        size_t roots = 0;
        CUresult r3 = cuGraphGetRootNodes(g1, NULL, &roots);
        say("hand.params.join: deps=%s %zu dependents=%s %zu roots=%s %zu", rc(r), n, rc(r2), m, rc(r3), roots);
    }

    CUgraphExec x1 = inst(g1, "hand.g1"), x2 = inst(g2, "hand.g2"), x3 = inst(g3, "hand.g3");
    for (int launch = 1; launch <= 3; launch++) {
        CUresult ra = cuGraphLaunch(x1, s1);
        CUresult rb = cuGraphLaunch(x2, s2);
        CUresult rcc = cuGraphLaunch(x3, s1);
        CUresult sa = cuStreamSynchronize(s1), sb = cuStreamSynchronize(s2);
        say("hand.launch%d: g1=%s g2=%s g3=%s sync=%s,%s", launch, rc(ra), rc(rb), rc(rcc), rc(sa), rc(sb));
        if (launch == 1)
            work_print("hand.after1", &w);
    }
    work_print("hand.after3", &w);
    CK(cuGraphExecDestroy(x1));
    CK(cuGraphExecDestroy(x2));
    CK(cuGraphExecDestroy(x3));
    CK(cuGraphDestroy(g1));
    CK(cuGraphDestroy(g2));
    CK(cuGraphDestroy(g3));
    CK(cuGraphDestroy(child));
}

/* =============================================================================== */
/* Section capture: the same work, captured.                                        */
/* =============================================================================== */

static void sec_capture(void)
{
    struct work w;
    work_alloc(&w);
    static struct kargs ka[8];
    CUstream s, s2, s3;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CK(cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING));
    CUevent E, fork, j2, j3;
    CK(cuEventCreate(&E, CU_EVENT_DISABLE_TIMING));
    CK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    CK(cuEventCreate(&j2, CU_EVENT_DISABLE_TIMING));
    CK(cuEventCreate(&j3, CU_EVENT_DISABLE_TIMING));

    /* one stream, in g1's order (g2's and g3's work follows on the same stream) */
    CUresult rb = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    say("capture.linear.begin: %s status=%s", rc(rb), status_of(s));
    CUresult r[32];
    int k = 0;
    r[k++] = cuMemsetD32Async(w.dA, 1, 64, s);
    ka[0].s = (struct lin){w.dA, 2, 3};
    ka[0].n = 64;
    r[k++] = launch_k(s, f_lin, &ka[0], 64);
    ka[1].p = w.dCount;
    ka[1].n = 64;
    r[k++] = launch_k(s, f_add1, &ka[1], 64);
    r[k++] = cuMemcpyDtoDAsync(w.dB, w.dA, 256, s);
    r[k++] = cuMemcpyDtoHAsync(w.hB, w.dB, 256, s);
    r[k++] = cuLaunchHostFunc(s, host_fn, &w.log);
    CUDA_MEMCPY3D c2 = cp2d(&w);
    CUDA_MEMCPY2D m2;
    memset(&m2, 0, sizeof m2);
    m2.srcMemoryType = c2.srcMemoryType;
    m2.srcHost = c2.srcHost;
    m2.srcPitch = c2.srcPitch;
    m2.dstMemoryType = c2.dstMemoryType;
    m2.dstDevice = c2.dstDevice;
    m2.dstXInBytes = c2.dstXInBytes;
    m2.dstPitch = c2.dstPitch;
    m2.WidthInBytes = c2.WidthInBytes;
    m2.Height = c2.Height;
    r[k++] = cuMemcpy2DAsync(&m2, s);
    CUDA_MEMCPY3D c3i = cp3d_in(&w), c3o = cp3d_out(&w);
    r[k++] = cuMemcpy3DAsync(&c3i, s);
    r[k++] = cuMemcpy3DAsync(&c3o, s);
    CUDA_MEMCPY3D c3d = cp3d_dd(&w);
    r[k++] = cuMemcpy3DAsync(&c3d, s);
    r[k++] = cuMemsetD8Async(w.d8, 0xab, 16, s);
    r[k++] = cuMemsetD16Async(w.d8 + 16, 0x1234, 8, s);
    r[k++] = cuMemsetD2D8Async(w.d8 + 32, 8, 0x5a, 3, 4, s);
    ka[2].p = w.dC;
    ka[2].n = 16;
    r[k++] = launch_k(s, f_add1, &ka[2], 16);
    ka[3].p = w.dC + 4 * 8;
    ka[3].n = 4;
    r[k++] = launch_k(s, f_square, &ka[3], 4);
    r[k++] = cuLaunchHostFunc(s, host_fn, &w.stamper);
    r[k++] = cuMemcpyHtoDAsync(w.dE, w.hE, 64, s);
    r[k++] = cuEventRecordWithFlags(E, s, CU_EVENT_RECORD_EXTERNAL);
    r[k++] = cuStreamWriteValue32(s, w.dBatch + 4, 0xc0ffee, 0);
    r[k++] = cuMemcpyDtoDAsync(w.dF, w.dE, 64, s);
    CUdeviceptr p = 0;
    r[k++] = cuMemAllocAsync(&p, 256, s);
    ka[4].p = p;
    ka[4].v = 0x40;
    ka[4].n = 64;
    r[k++] = launch_k(s, f_fill, &ka[4], 64);
    ka[5].p = p;
    ka[5].n = 32;
    r[k++] = launch_k(s, f_add1, &ka[5], 32);
    r[k++] = cuMemcpyDtoDAsync(w.dG, p, 256, s);
    r[k++] = cuMemFreeAsync(p, s);
    char line[1024];
    int o = snprintf(line, sizeof line, "capture.linear.calls:");
    for (int i = 0; i < k; i++)
        o += snprintf(line + o, sizeof line - o, " %d", (int)r[i]);
    say("%s", line);
    CUgraph g = NULL;
    CUresult re = cuStreamEndCapture(s, &g);
    say("capture.linear.end: %s graph=%s", rc(re), g ? "set" : "NULL");
    if (g) {
        say("capture.linear.shape: %s", shape(g));
        CUgraphExec x = inst(g, "capture.linear");
        for (int launch = 1; launch <= 3; launch++) {
            CUresult rl = cuGraphLaunch(x, s);
            CUresult rs = cuStreamSynchronize(s);
            say("capture.linear.launch%d: %s sync=%s", launch, rc(rl), rc(rs));
            if (launch == 1)
                work_print("capture.after1", &w);
        }
        work_print("capture.after3", &w);
        /* the captured kernel's parameters, read back */
        CUgraphNode kn = nth(g, 1);
        CUDA_KERNEL_NODE_PARAMS kp;
        memset(&kp, 0, sizeof kp);
        CUresult rk = cuGraphKernelNodeGetParams(kn, &kp);
        struct lin *sv = rk ? NULL : (struct lin *)kp.kernelParams[0];
        say("capture.linear.kernel_params: %s func==lin:%d grid=%u block=%u arg0.p==dA:%d arg0.a=%u arg0.b=%u arg1=%u",
            rc(rk), kp.func == f_lin, kp.gridDimX, kp.blockDimX, sv && sv->p == w.dA, sv ? sv->a : 0, sv ? sv->b : 0,
            rk ? 0 : *(unsigned *)kp.kernelParams[1]);
        CUDA_MEMSET_NODE_PARAMS mp;
        memset(&mp, 0, sizeof mp);
        CUresult rm = cuGraphMemsetNodeGetParams(nth(g, 0), &mp);
        say("capture.linear.memset_params: %s dst==dA:%d elementSize=%u value=%u width=%zu height=%zu", rc(rm),
            mp.dst == w.dA, mp.elementSize, mp.value, mp.width, mp.height);
        if (x)
            CK(cuGraphExecDestroy(x));
        CK(cuGraphDestroy(g));
    }

    /* fork/join across three streams, with the capture info at each step */
    struct kargs *kk = &ka[6];
    kk->p = w.dC;
    kk->n = 16;
    CUstreamCaptureStatus st;
    const CUgraphNode *deps;
    size_t nd;
    CUgraph cg;
    cuuint64_t id_s = 0, id_x = 0;
#define INFO(label, stream)                                                                               \
    do {                                                                                                  \
        st = (CUstreamCaptureStatus)99;                                                                   \
        deps = NULL;                                                                                      \
        nd = 99;                                                                                          \
        cg = NULL;                                                                                        \
        CUresult ri_ = cuStreamGetCaptureInfo(stream, &st, &id_x, &cg, &deps, NULL, &nd);                 \
        char dl_[256] = "";                                                                               \
        int do_ = 0;                                                                                      \
        CUgraphNode all_[64];                                                                             \
        size_t na_ = 64;                                                                                  \
        if (!ri_ && cg && !cuGraphGetNodes(cg, all_, &na_))                                               \
            for (size_t i_ = 0; i_ < nd && deps; i_++)                                                    \
                do_ += snprintf(dl_ + do_, sizeof dl_ - do_, "%s%d", i_ ? "," : "",                       \
                                node_index(all_, na_, deps[i_]));                                         \
        say("capture.info.%s: %s status=%s numDependencies=%zu deps=[%s] graph=%s same_id:%d", label,     \
            rc(ri_), capstat(st), nd, dl_, cg ? "set" : "NULL", id_x == id_s);                            \
    } while (0)
    rb = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    cuStreamGetCaptureInfo(s, &st, &id_s, NULL, NULL, NULL, NULL);
    INFO("begin", s);
    r[0] = launch_k(s, f_add1, kk, 16);
    INFO("after_k0", s);
    r[1] = cuEventRecord(fork, s);
    r[2] = cuStreamWaitEvent(s2, fork, 0);
    r[3] = cuStreamWaitEvent(s3, fork, 0);
    INFO("s2_after_fork", s2);
    INFO("s3_after_fork", s3);
    r[4] = launch_k(s2, f_add1, kk, 16);
    r[5] = launch_k(s3, f_add1, kk, 16);
    r[6] = launch_k(s3, f_add1, kk, 16);
    INFO("s3_after_2_kernels", s3);
    r[7] = cuEventRecord(j2, s2);
    r[8] = cuEventRecord(j3, s3);
    r[9] = cuStreamWaitEvent(s, j2, 0);
    r[10] = cuStreamWaitEvent(s, j3, 0);
    INFO("s_after_join", s);
    r[11] = launch_k(s, f_add1, kk, 16);
    INFO("s_after_last", s);
    o = snprintf(line, sizeof line, "capture.fork_join.calls: begin=%d", (int)rb);
    for (int i = 0; i < 12; i++)
        o += snprintf(line + o, sizeof line - o, " %d", (int)r[i]);
    say("%s", line);
    say("capture.fork_join.status: s2=%s s3=%s", status_of(s2), status_of(s3));
    g = NULL;
    re = cuStreamEndCapture(s, &g);
    say("capture.fork_join.end: %s status_after: s=%s s2=%s s3=%s", rc(re), status_of(s), status_of(s2),
        status_of(s3));
    if (g) {
        say("capture.fork_join.shape: %s", shape(g));
        CK(cuMemsetD8(w.dC, 0, 64));
        CUgraphExec x = inst(g, "capture.fork_join");
        CUresult rl = cuGraphLaunch(x, s);
        CUresult rs = cuStreamSynchronize(s);
        say("capture.fork_join.launch: %s sync=%s", rc(rl), rc(rs));
        words("capture.fork_join.output", w.dC, 4);
        if (x)
            CK(cuGraphExecDestroy(x));
        CK(cuGraphDestroy(g));
    }
    say("capture.fork_join.after: s2_query=%s s3_query=%s", rc(cuStreamQuery(s2)), rc(cuStreamQuery(s3)));

    /* cuStreamUpdateCaptureDependencies */
    rb = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    cuStreamGetCaptureInfo(s, &st, &id_s, NULL, NULL, NULL, NULL);
    launch_k(s, f_add1, kk, 16); /* 0 */
    launch_k(s, f_add1, kk, 16); /* 1 */
    launch_k(s, f_add1, kk, 16); /* 2 */
    INFO("update.before", s);
    CUgraph cur = cg;
    CUgraphNode first = nth(cur, 0), second = nth(cur, 1);
    say("capture.update.SET_first: %s",
        rc(cuStreamUpdateCaptureDependencies(s, &first, NULL, 1, CU_STREAM_SET_CAPTURE_DEPENDENCIES)));
    INFO("update.after_SET", s);
    say("capture.update.ADD_second: %s",
        rc(cuStreamUpdateCaptureDependencies(s, &second, NULL, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES)));
    INFO("update.after_ADD", s);
    say("capture.update.ADD_second_again: %s",
        rc(cuStreamUpdateCaptureDependencies(s, &second, NULL, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES)));
    INFO("update.after_ADD_again", s);
    say("capture.update.flags_2: %s", rc(cuStreamUpdateCaptureDependencies(s, &second, NULL, 1, 2)));
    launch_k(s, f_add1, kk, 16); /* 3: after 0 and 1 */
    say("capture.update.SET_none: %s",
        rc(cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0, CU_STREAM_SET_CAPTURE_DEPENDENCIES)));
    INFO("update.after_SET_none", s);
    launch_k(s, f_add1, kk, 16); /* 4: a root */
    g = NULL;
    re = cuStreamEndCapture(s, &g);
    say("capture.update.end: %s %s", rc(re), g ? shape(g) : "graph=NULL");
    if (g)
        CK(cuGraphDestroy(g));
    say("capture.update.not_capturing: %s",
        rc(cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0, CU_STREAM_SET_CAPTURE_DEPENDENCIES)));
    INFO("not_capturing", s);

    /* capture into an existing graph, after one of its nodes */
    CUgraph into;
    CK(cuGraphCreate(&into, 0));
    CUgraphNode root = add_memset(into, NULL, 0, msparams(w.dC, 4, 5, 16, 1, 0));
    rb = cuStreamBeginCaptureToGraph(s, into, &root, NULL, 1, CU_STREAM_CAPTURE_MODE_GLOBAL);
    cuStreamGetCaptureInfo(s, &st, &id_s, NULL, NULL, NULL, NULL);
    INFO("to_graph.begin", s);
    launch_k(s, f_add1, kk, 16);
    launch_k(s, f_add1, kk, 16);
    g = NULL;
    re = cuStreamEndCapture(s, &g);
    say("capture.to_graph: begin=%s end=%s same_graph:%d %s", rc(rb), rc(re), g == into, shape(into));
    CUgraphExec x = inst(into, "capture.to_graph");
    CUresult rl = x ? cuGraphLaunch(x, s) : CUDA_ERROR_INVALID_VALUE;
    CUresult rs = cuStreamSynchronize(s);
    say("capture.to_graph.launch: %s sync=%s", rc(rl), rc(rs));
    words("capture.to_graph.output", w.dC, 4);
    if (x)
        CK(cuGraphExecDestroy(x));
    CK(cuGraphDestroy(into));

    /* an empty capture, and one of a plain (internal) event record between two kernels */
    rb = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    g = NULL;
    re = cuStreamEndCapture(s, &g);
    say("capture.empty: begin=%s end=%s %s", rc(rb), rc(re), g ? shape(g) : "graph=NULL");
    if (g)
        CK(cuGraphDestroy(g));
    rb = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, kk, 16);
    CUresult rr = cuEventRecord(E, s);
    CUresult rw = cuStreamWaitEvent(s, E, 0);
    launch_k(s, f_add1, kk, 16);
    g = NULL;
    re = cuStreamEndCapture(s, &g);
    say("capture.internal_event: record=%s wait=%s end=%s %s", rc(rr), rc(rw), rc(re), g ? shape(g) : "graph=NULL");
    if (g)
        CK(cuGraphDestroy(g));
    /* an external wait on an event recorded before the capture */
    CK(cuEventRecord(E, s2));
    CK(cuStreamSynchronize(s2));
    rb = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    rw = cuStreamWaitEvent(s, E, CU_EVENT_WAIT_EXTERNAL);
    launch_k(s, f_add1, kk, 16);
    g = NULL;
    re = cuStreamEndCapture(s, &g);
    say("capture.external_wait: wait=%s end=%s %s", rc(rw), rc(re), g ? shape(g) : "graph=NULL");
    if (g)
        CK(cuGraphDestroy(g));
#undef INFO
}

/* =============================================================================== */
/* Section update: cuGraphExecUpdate and the per-node setters of an executable graph. */
/* =============================================================================== */

static const char *which(CUgraph g, CUgraphNode n)
{
    static char buf[4][32];
    static int k;
    char *b = buf[k++ & 3];
    if (!n)
        return "NULL";
    CUgraphNode nodes[64];
    size_t c = 64;
    if (cuGraphGetNodes(g, nodes, &c))
        return "?";
    int i = node_index(nodes, c, n);
    if (i < 0)
        return "not_in_graph";
    snprintf(b, 32, "node%d", i);
    return b;
}

/* memset(dX := 1) -> fill(dY, 10) -> lin(dX, *2 + 3) */
static CUgraph upd_graph(CUdeviceptr dX, CUdeviceptr dY, struct kargs *ka, unsigned fillv, unsigned msv)
{
    CUgraph g;
    CK(cuGraphCreate(&g, 0));
    CUgraphNode m = add_memset(g, NULL, 0, msparams(dX, 4, msv, 8, 1, 0));
    ka[0].p = dY;
    ka[0].v = fillv;
    ka[0].n = 8;
    CUgraphNode f = add_kernel(g, &m, 1, f_fill, &ka[0], 8);
    ka[1].s = (struct lin){dX, 2, 3};
    ka[1].n = 8;
    add_kernel(g, &f, 1, f_lin, &ka[1], 8);
    return g;
}

static void upd_run(const char *label, CUgraphExec x, CUstream s, CUdeviceptr dX, CUdeviceptr dY)
{
    char l[128];
    CUresult rl = cuGraphLaunch(x, s), rs = cuStreamSynchronize(s);
    say("%s.launch: %s sync=%s", label, rc(rl), rc(rs));
    snprintf(l, sizeof l, "%s.dX", label);
    words(l, dX, 4);
    snprintf(l, sizeof l, "%s.dY", label);
    words(l, dY, 4);
}

/* any_exit: the error node is "one of the exit nodes" of g (which one, CUDA leaves open): say
 * exit_node for any node of g without dependents. */
static void upd_try_as(const char *label, CUgraphExec x, CUgraph g, int any_exit)
{
    CUgraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    info.result = (CUgraphExecUpdateResult)99;
    info.errorNode = (CUgraphNode)(uintptr_t)1;
    info.errorFromNode = (CUgraphNode)(uintptr_t)1;
    CUresult r = cuGraphExecUpdate(x, g, &info);
    size_t dependents = 99;
    if (any_exit && info.errorNode && info.errorNode != (CUgraphNode)(uintptr_t)1)
        cuGraphNodeGetDependentNodes(info.errorNode, NULL, NULL, &dependents);
    say("%s: %s result=%d errorNode=%s errorFromNode=%s", label, rc(r), (int)info.result,
        info.errorNode == (CUgraphNode)(uintptr_t)1 ? "untouched"
        : dependents == 0                           ? "exit_node"
                                                    : which(g, info.errorNode),
        info.errorFromNode == (CUgraphNode)(uintptr_t)1 ? "untouched" : which(g, info.errorFromNode));
}

static void upd_try(const char *label, CUgraphExec x, CUgraph g) { upd_try_as(label, x, g, 0); }

static void sec_update(void)
{
    static struct kargs ka[16];
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dX = dalloc(64), dY = dalloc(64);
    CUgraph g0 = upd_graph(dX, dY, &ka[0], 10, 1);
    CUgraphExec x = inst(g0, "update");
    upd_run("update.base", x, s, dX, dY);

    /* the same topology, other values: a kernel parameter and a memset value */
    CUgraph g1 = upd_graph(dX, dY, &ka[2], 20, 4);
    upd_try("update.params", x, g1);
    upd_run("update.params", x, s, dX, dY);

    /* a changed struct argument of the lin kernel (a=3, b=1) through the original graph */
    CUgraphNode ln = nth(g0, 2);
    struct kargs kl = ka[1];
    kl.s.a = 3;
    kl.s.b = 1;
    CUDA_KERNEL_NODE_PARAMS kp = kparams(f_lin, &kl, 8);
    CK(cuGraphKernelNodeSetParams(ln, &kp));
    upd_run("update.graph_changed_exec_not", x, s, dX, dY);
    upd_try("update.struct_arg", x, g0);
    upd_run("update.struct_arg", x, s, dX, dY);

    /* a node added */
    CUgraph g2 = upd_graph(dX, dY, &ka[4], 30, 5);
    CUgraphNode last = nth(g2, 2);
    CUgraphNode added = add_empty(g2, &last, 1);
    upd_try("update.topology", x, g2);
    say("update.topology.added_node_is: %s", which(g2, added));
    upd_run("update.after_topology", x, s, dX, dY);

    /* a node's type changed: the memset is a memcpy in this graph */
    CUgraph g3;
    CK(cuGraphCreate(&g3, 0));
    CUgraphNode c = add_memcpy(g3, NULL, 0, cp1d_dd(dX, dY, 32));
    ka[6].p = dY;
    ka[6].v = 40;
    ka[6].n = 8;
    CUgraphNode f = add_kernel(g3, &c, 1, f_fill, &ka[6], 8);
    ka[7].s = (struct lin){dX, 2, 3};
    ka[7].n = 8;
    add_kernel(g3, &f, 1, f_lin, &ka[7], 8);
    upd_try("update.type", x, g3);
    upd_run("update.after_type", x, s, dX, dY);

    /* an edge removed (same nodes) */
    CUgraph g4 = upd_graph(dX, dY, &ka[8], 50, 6);
    CUgraphNode n0 = nth(g4, 0), n1 = nth(g4, 1);
    CK(cuGraphRemoveDependencies(g4, &n0, &n1, NULL, 1));
    upd_try_as("update.edge_removed", x, g4, 1);

    /* another function in a kernel node (fill -> square, both of this module) */
    CUgraph g5 = upd_graph(dX, dY, &ka[10], 60, 7);
    ka[12].p = dY;
    ka[12].n = 8;
    CUDA_KERNEL_NODE_PARAMS sq = kparams(f_square, &ka[12], 8);
    CK(cuGraphKernelNodeSetParams(nth(g5, 1), &sq));
    upd_try("update.function", x, g5);
    upd_run("update.after_function", x, s, dX, dY);

    /* the setters of the executable graph */
    CUgraphNode en0 = nth(g0, 0), en1 = nth(g0, 1);
    CUDA_MEMSET_NODE_PARAMS mp = msparams(dX, 4, 9, 8, 1, 0);
    say("update.exec_memset_set: %s", rc(cuGraphExecMemsetNodeSetParams(x, en0, &mp, ctx)));
    ka[13].p = dY;
    ka[13].v = 70;
    ka[13].n = 8;
    CUDA_KERNEL_NODE_PARAMS fp = kparams(f_fill, &ka[13], 8);
    say("update.exec_kernel_set: %s", rc(cuGraphExecKernelNodeSetParams(x, en1, &fp)));
    upd_run("update.after_exec_set", x, s, dX, dY);
    CUDA_MEMSET_NODE_PARAMS bad = msparams(dX, 4, 9, 8, 1, 0);
    bad.elementSize = 3;
    say("update.exec_memset_bad_size: %s", rc(cuGraphExecMemsetNodeSetParams(x, en0, &bad, ctx)));
    say("update.exec_kernel_on_memset_node: %s", rc(cuGraphExecKernelNodeSetParams(x, en0, &fp)));
    /* the graph's own parameters are left as they were */
    CUDA_MEMSET_NODE_PARAMS back;
    memset(&back, 0, sizeof back);
    CUresult rg = cuGraphMemsetNodeGetParams(en0, &back);
    say("update.graph_memset_after_exec_set: %s value=%u", rc(rg), back.value);

    /* a host node's function replaced in the executable graph */
    CUgraph gh;
    CK(cuGraphCreate(&gh, 0));
    static unsigned counter;
    static struct hostlog hl;
    CUDA_HOST_NODE_PARAMS hp = {host_fn, &hl};
    CUgraphNode hn = NULL;
    CK(cuGraphAddHostNode(&hn, gh, NULL, 0, &hp));
    CUgraphExec xh = inst(gh, "update.host");
    CUDA_HOST_NODE_PARAMS hp2 = {host_other, &counter};
    say("update.exec_host_set: %s", rc(cuGraphExecHostNodeSetParams(xh, hn, &hp2)));
    CUresult rl = cuGraphLaunch(xh, s), rs = cuStreamSynchronize(s);
    say("update.host.launch: %s sync=%s host_fn_calls=%u host_other=%u", rc(rl), rc(rs), hl.calls, counter);
    CK(cuGraphExecDestroy(xh));
    CK(cuGraphDestroy(gh));

    CK(cuGraphExecDestroy(x));
    CUgraph gs[] = {g0, g1, g2, g3, g4, g5};
    for (int i = 0; i < 6; i++)
        CK(cuGraphDestroy(gs[i]));
}

/* =============================================================================== */
/* Section enable: cuGraphNodeSetEnabled / GetEnabled.                              */
/* =============================================================================== */

static void sec_enable(void)
{
    static struct kargs ka[2];
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = dalloc(64);
    CUgraph g;
    CK(cuGraphCreate(&g, 0));
    CUgraphNode m = add_memset(g, NULL, 0, msparams(d, 4, 7, 4, 1, 0));
    ka[0].p = d;
    ka[0].n = 4;
    CUgraphNode k = add_kernel(g, &m, 1, f_add1, &ka[0], 4);
    CUgraphNode e = add_empty(g, &k, 1);
    static struct hostlog hl;
    CUDA_HOST_NODE_PARAMS hp = {host_fn, &hl};
    CUgraphNode h = NULL;
    CK(cuGraphAddHostNode(&h, g, &e, 1, &hp));
    CUgraphNode outside = NULL;
    CUgraph other;
    CK(cuGraphCreate(&other, 0));
    outside = add_memset(other, NULL, 0, msparams(d, 4, 1, 4, 1, 0));
    CUgraphExec x = inst(g, "enable");
    unsigned en = 99;
    CUresult r;
#define RUN(label)                                                                                   \
    do {                                                                                             \
        CUresult rl_ = cuGraphLaunch(x, s), rs_ = cuStreamSynchronize(s);                            \
        char l_[96];                                                                                 \
        snprintf(l_, sizeof l_, "enable.%s.output", label);                                          \
        say("enable.%s.launch: %s sync=%s host_calls=%u", label, rc(rl_), rc(rs_), hl.calls);        \
        words(l_, d, 4);                                                                             \
    } while (0)
    RUN("all");
    r = cuGraphNodeGetEnabled(x, k, &en);
    say("enable.get_kernel: %s enabled=%u", rc(r), en);
    say("enable.disable_kernel: %s", rc(cuGraphNodeSetEnabled(x, k, 0)));
    en = 99;
    r = cuGraphNodeGetEnabled(x, k, &en);
    say("enable.get_kernel_after: %s enabled=%u", rc(r), en);
    RUN("kernel_off");
    say("enable.enable_kernel_5: %s", rc(cuGraphNodeSetEnabled(x, k, 5)));
    en = 99;
    r = cuGraphNodeGetEnabled(x, k, &en);
    say("enable.get_kernel_after_5: %s enabled=%u", rc(r), en);
    say("enable.disable_memset: %s", rc(cuGraphNodeSetEnabled(x, m, 0)));
    RUN("memset_off");
    RUN("memset_off_again");
    say("enable.enable_memset: %s", rc(cuGraphNodeSetEnabled(x, m, 1)));
    RUN("memset_on");
    say("enable.disable_empty: %s", rc(cuGraphNodeSetEnabled(x, e, 0)));
    say("enable.disable_host: %s", rc(cuGraphNodeSetEnabled(x, h, 0)));
    en = 99;
    r = cuGraphNodeGetEnabled(x, h, &en);
    say("enable.get_host: %s enabled=%u", rc(r), en);
    say("enable.disable_node_of_other_graph: %s", rc(cuGraphNodeSetEnabled(x, outside, 0)));
    en = 99;
    r = cuGraphNodeGetEnabled(x, outside, &en);
    say("enable.get_node_of_other_graph: %s enabled=%u", rc(r), en);
    /* an update keeps what is disabled */
    CK(cuGraphNodeSetEnabled(x, k, 0));
    CUgraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    r = cuGraphExecUpdate(x, g, &info);
    en = 99;
    CUresult r2 = cuGraphNodeGetEnabled(x, k, &en);
    say("enable.after_update: %s result=%d get=%s enabled=%u", rc(r), (int)info.result, rc(r2), en);
    RUN("after_update");
#undef RUN
    CK(cuGraphExecDestroy(x));
    CK(cuGraphDestroy(g));
    CK(cuGraphDestroy(other));
}

/* =============================================================================== */
/* Section flags: instantiate flags and cuGraphExecGetFlags.                        */
/* =============================================================================== */

static void sec_flags(void)
{
    static struct kargs ka[2];
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = dalloc(64);
    CUgraph g;
    CK(cuGraphCreate(&g, 0));
    ka[0].p = d;
    ka[0].n = 4;
    add_kernel(g, NULL, 0, f_add1, &ka[0], 4);
    const unsigned long long flags[] = {0, 1, 2, 4, 8, 1 | 8, 16, 1 | 4};
    for (unsigned i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        CUgraphExec x = NULL;
        CUresult r = cuGraphInstantiateWithFlags(&x, g, flags[i]);
        cuuint64_t got = 99;
        CUresult rf = x ? cuGraphExecGetFlags(x, &got) : CUDA_ERROR_INVALID_VALUE;
        CUresult rl = x ? cuGraphLaunch(x, s) : CUDA_ERROR_INVALID_VALUE;
        CUresult rs = cuStreamSynchronize(s);
        say("flags.with_flags_%llu: %s exec=%s get=%s flags=%llu launch=%s sync=%s", flags[i], rc(r),
            x ? "set" : "NULL", x ? rc(rf) : "-", x ? (unsigned long long)got : 0ULL, x ? rc(rl) : "-", rc(rs));
        if (x)
            CK(cuGraphExecDestroy(x));
    }
    const unsigned long long pflags[] = {0, 2, 1 | 2, 8};
    for (unsigned i = 0; i < sizeof pflags / sizeof pflags[0]; i++) {
        CUDA_GRAPH_INSTANTIATE_PARAMS ip;
        memset(&ip, 0, sizeof ip);
        ip.flags = pflags[i];
        ip.hUploadStream = (pflags[i] & 2) ? s : NULL;
        ip.hErrNode_out = (CUgraphNode)(uintptr_t)1;
        ip.result_out = (CUgraphInstantiateResult)99;
        CUgraphExec x = NULL;
        CUresult r = cuGraphInstantiateWithParams(&x, g, &ip);
        cuuint64_t got = 99;
        CUresult rf = x ? cuGraphExecGetFlags(x, &got) : CUDA_ERROR_INVALID_VALUE;
        CUresult rs = cuStreamSynchronize(s);
        say("flags.with_params_%llu: %s result_out=%d errNode=%s get=%s flags=%llu sync=%s", pflags[i], rc(r),
            (int)ip.result_out,
            ip.hErrNode_out == (CUgraphNode)(uintptr_t)1 ? "untouched" : ip.hErrNode_out ? "set" : "NULL",
            x ? rc(rf) : "-", x ? (unsigned long long)got : 0ULL, rc(rs));
        if (x) {
            CUresult ru = cuGraphUpload(x, s);
            CUresult rl = cuGraphLaunch(x, s);
            rs = cuStreamSynchronize(s);
            say("flags.with_params_%llu.upload: %s launch: %s sync=%s", pflags[i], rc(ru), rc(rl), rc(rs));
            CK(cuGraphExecDestroy(x));
        }
    }
    words("flags.output", d, 4);
    cuuint64_t got = 99;
    say("flags.get_NULL_exec: %s", rc(cuGraphExecGetFlags(NULL, &got)));
    /* a graph with a host node, for device launch */
    static struct hostlog hl;
    CUDA_HOST_NODE_PARAMS hp = {host_fn, &hl};
    CUgraphNode h = NULL;
    CK(cuGraphAddHostNode(&h, g, NULL, 0, &hp));
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof ip);
    ip.flags = CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH;
    ip.result_out = (CUgraphInstantiateResult)99;
    CUgraphExec x = NULL;
    CUresult r = cuGraphInstantiateWithParams(&x, g, &ip);
    say("flags.device_launch_with_host_node: %s result_out=%d errNode=%s", rc(r), (int)ip.result_out,
        which(g, ip.hErrNode_out));
    if (x)
        CK(cuGraphExecDestroy(x));
    CK(cuGraphDestroy(g));
}

/* =============================================================================== */
/* Section rules: the capture rules and their codes.                                */
/* =============================================================================== */

enum { OP_MEMALLOC, OP_MEMALLOCHOST, OP_CTXSYNC, OP_SYNC_OTHER, OP_QUERY_UNCAPTURED_EVENT, OP_MEMSET_SYNC, NOPS };
static const char *opname[NOPS] = {"cuMemAlloc", "cuMemAllocHost", "cuCtxSynchronize", "cuStreamSynchronize_other",
                                   "cuEventQuery_uncaptured", "cuMemsetD8"};
static const char *modename[3] = {"GLOBAL", "THREAD_LOCAL", "RELAXED"};

struct opctx {
    int op;
    CUstream other;
    CUevent ev;
    CUdeviceptr buf;
    CUresult r;
    int relax; /* the thread's own mode set to RELAXED first */
};

static CUresult do_op(struct opctx *o)
{
    CUdeviceptr p;
    void *h;
    CUresult r;
    switch (o->op) {
    case OP_MEMALLOC:
        r = cuMemAlloc(&p, 4096);
        if (!r)
            cuMemFree(p);
        return r;
    case OP_MEMALLOCHOST:
        r = cuMemAllocHost(&h, 4096);
        if (!r)
            cuMemFreeHost(h);
        return r;
    case OP_CTXSYNC: return cuCtxSynchronize();
    case OP_SYNC_OTHER: return cuStreamSynchronize(o->other);
    case OP_QUERY_UNCAPTURED_EVENT: return cuEventQuery(o->ev);
    case OP_MEMSET_SYNC: return cuMemsetD8(o->buf, 1, 16);
    }
    return CUDA_ERROR_UNKNOWN;
}

static void *op_thread(void *a)
{
    struct opctx *o = a;
    cuCtxSetCurrent(ctx);
    if (o->relax) {
        CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
        cuThreadExchangeStreamCaptureMode(&m);
    }
    o->r = do_op(o);
    return NULL;
}

/* Ends the capture on s: "end=CODE graph=NULL|nodes=..". */
static const char *finish(CUstream s)
{
    static char buf[512];
    CUgraph g = NULL;
    CUresult r = cuStreamEndCapture(s, &g);
    snprintf(buf, sizeof buf, "end=%s %s", rc(r), g ? shape(g) : "graph=NULL");
    if (g)
        cuGraphDestroy(g);
    return buf;
}

struct endctx {
    CUstream s;
    CUresult r;
    int got_graph;
};

static void *end_thread(void *a)
{
    struct endctx *e = a;
    cuCtxSetCurrent(ctx);
    CUgraph g = NULL;
    e->r = cuStreamEndCapture(e->s, &g);
    e->got_graph = g != NULL;
    if (g)
        cuGraphDestroy(g);
    return NULL;
}

static void sec_rules(void)
{
    static struct kargs ka[2];
    CUdeviceptr d = dalloc(64);
    ka[0].p = d;
    ka[0].n = 4;
    CUstream s, other, blocking, s2, s3;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    CK(cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
    CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CK(cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING));
    CUevent plain, e;
    CK(cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
    CK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    CK(cuEventRecord(plain, other));
    CK(cuStreamSynchronize(other));

    /* the legacy stream does not capture */
    say("rules.begin_legacy_0: %s", rc(cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL)));
    say("rules.begin_CU_STREAM_LEGACY: %s", rc(cuStreamBeginCapture(CU_STREAM_LEGACY, CU_STREAM_CAPTURE_MODE_GLOBAL)));
    say("rules.begin_bad_mode: %s status=%s", rc(cuStreamBeginCapture(s, (CUstreamCaptureMode)7)), status_of(s));
    CUresult r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    CUresult r2 = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, &ka[0], 4);
    const char *st0 = status_of(s);
    say("rules.begin_twice: %s %s status=%s %s", rc(r), rc(r2), st0, finish(s));
    CUgraph g = NULL;
    say("rules.end_not_capturing: %s graph=%s", rc(cuStreamEndCapture(s, &g)), g ? "set" : "NULL");

    /* unsafe calls in each mode, from the capturing thread and from another one */
    for (int mode = 0; mode < 3; mode++)
        for (int th = 0; th < 2; th++)
            for (int op = 0; op < NOPS; op++) {
                struct opctx o = {.op = op, .other = other, .ev = plain, .buf = d};
                r = cuStreamBeginCapture(s, (CUstreamCaptureMode)mode);
                launch_k(s, f_add1, &ka[0], 4);
                if (th) {
                    pthread_t t;
                    pthread_create(&t, NULL, op_thread, &o);
                    pthread_join(t, NULL);
                } else {
                    o.r = do_op(&o);
                }
                const char *st = status_of(s);
                say("rules.%s.%s.%s: begin=%s call=%s status=%s %s", modename[mode],
                    th ? "other_thread" : "same_thread", opname[op], rc(r), rc(o.r), st, finish(s));
                CK(cuCtxSynchronize());
            }
    /* another thread that made itself RELAXED while a GLOBAL capture runs */
    {
        struct opctx o = {.op = OP_MEMALLOC, .other = other, .ev = plain, .buf = d, .relax = 1};
        r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
        launch_k(s, f_add1, &ka[0], 4);
        pthread_t t;
        pthread_create(&t, NULL, op_thread, &o);
        pthread_join(t, NULL);
        const char *st = status_of(s);
        say("rules.GLOBAL.relaxed_thread.cuMemAlloc: call=%s status=%s %s", rc(o.r), st, finish(s));
    }
    CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
    r = cuThreadExchangeStreamCaptureMode(&m);
    say("rules.exchange_to_RELAXED: %s previous=%d", rc(r), (int)m);
    r = cuThreadExchangeStreamCaptureMode(&m);
    say("rules.exchange_back: %s previous=%d", rc(r), (int)m);

    /* IMPLICIT: the legacy stream used while a blocking stream captures */
    r = cuStreamBeginCapture(blocking, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(blocking, f_add1, &ka[0], 4);
    r2 = launch_k(NULL, f_add1, &ka[0], 4);
    st0 = status_of(blocking);
    say("rules.implicit.launch_legacy: begin=%s call=%s status=%s %s", rc(r), rc(r2), st0, finish(blocking));
    r = cuStreamBeginCapture(blocking, CU_STREAM_CAPTURE_MODE_RELAXED);
    launch_k(blocking, f_add1, &ka[0], 4);
    r2 = cuMemsetD8Async(d, 0, 16, NULL);
    st0 = status_of(blocking);
    say("rules.implicit.memset_legacy_relaxed: begin=%s call=%s status=%s %s", rc(r), rc(r2), st0, finish(blocking));
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, &ka[0], 4);
    r2 = launch_k(NULL, f_add1, &ka[0], 4);
    st0 = status_of(s);
    say("rules.nonblocking_capture.launch_legacy: begin=%s call=%s status=%s %s", rc(r), rc(r2), st0, finish(s));
    CK(cuCtxSynchronize());

    /* UNJOINED */
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, &ka[0], 4);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    launch_k(s2, f_add1, &ka[0], 4);
    const char *fu = finish(s);
    say("rules.unjoined: begin=%s %s s2_after=%s", rc(r), fu, status_of(s2));
    CK(cuCtxSynchronize());

    /* UNMATCHED: the capture ended on a stream it forked into */
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, &ka[0], 4);
    cuEventRecord(e, s);
    cuStreamWaitEvent(s2, e, 0);
    const char *fs2 = finish(s2);
    say("rules.end_on_forked_stream: begin=%s %s s=%s s2=%s", rc(r), fs2, status_of(s), status_of(s2));
    say("rules.end_on_forked_stream.origin: %s", finish(s));

    /* ISOLATION: a wait on an event recorded outside the capture */
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, &ka[0], 4);
    r2 = cuStreamWaitEvent(s, plain, 0);
    st0 = status_of(s);
    say("rules.isolation: begin=%s wait=%s status=%s %s", rc(r), rc(r2), st0, finish(s));

    /* MERGE: a wait on an event of another capture */
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, &ka[0], 4);
    cuEventRecord(e, s);
    CUresult r3 = cuStreamBeginCapture(s3, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s3, f_add1, &ka[0], 4);
    r2 = cuStreamWaitEvent(s3, e, 0);
    say("rules.merge: begin=%s,%s wait=%s s=%s s3=%s", rc(r), rc(r3), rc(r2), status_of(s), status_of(s3));
    say("rules.merge.end_s: %s", finish(s));
    say("rules.merge.end_s3: %s", finish(s3));

    /* a captured event queried: CAPTURED_EVENT */
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
    launch_k(s, f_add1, &ka[0], 4);
    cuEventRecord(e, s);
    r2 = cuEventQuery(e);
    st0 = status_of(s);
    say("rules.captured_event_query: begin=%s call=%s status=%s %s", rc(r), rc(r2), st0, finish(s));

    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
    launch_k(s, f_add1, &ka[0], 4);
    cuEventRecord(e, s);
    r2 = cuEventSynchronize(e);
    st0 = status_of(s);
    say("rules.captured_event_synchronize: begin=%s call=%s status=%s %s", rc(r), rc(r2), st0, finish(s));
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, &ka[0], 4);
    r2 = cuEventSynchronize(plain);
    st0 = status_of(s);
    say("rules.GLOBAL.uncaptured_event_synchronize: begin=%s call=%s status=%s %s", rc(r), rc(r2), st0, finish(s));

    /* the end from another thread */
    for (int mode = 0; mode < 3; mode++) {
        r = cuStreamBeginCapture(s, (CUstreamCaptureMode)mode);
        launch_k(s, f_add1, &ka[0], 4);
        struct endctx ec = {.s = s};
        pthread_t t;
        pthread_create(&t, NULL, end_thread, &ec);
        pthread_join(t, NULL);
        say("rules.%s.end_from_other_thread: begin=%s end=%s graph=%s status_after=%s", modename[mode], rc(r),
            rc(ec.r), ec.got_graph ? "set" : "NULL", status_of(s));
        if (!strcmp(status_of(s), "NONE"))
            continue;
        say("rules.%s.end_from_other_thread.then_same_thread: %s", modename[mode], finish(s));
    }

    /* an invalidated capture: what follows, and its end */
    r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
    launch_k(s, f_add1, &ka[0], 4);
    r2 = cuCtxSynchronize();
    say("rules.invalidated.cause: begin=%s call=%s status=%s", rc(r), rc(r2), status_of(s));
    say("rules.invalidated.launch: %s", rc(launch_k(s, f_add1, &ka[0], 4)));
    say("rules.invalidated.memset: %s", rc(cuMemsetD8Async(d, 0, 4, s)));
    say("rules.invalidated.record: %s", rc(cuEventRecord(e, s)));
    say("rules.invalidated.begin_again: %s", rc(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL)));
    say("rules.invalidated.update_deps: %s",
        rc(cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0, CU_STREAM_SET_CAPTURE_DEPENDENCIES)));
    const char *fi = finish(s);
    say("rules.invalidated.end: %s status_after=%s", fi, status_of(s));
    say("rules.after_all.query: %s", rc(cuStreamQuery(s)));
    CK(cuCtxSynchronize());
}

/* =============================================================================== */
/* Section cond: conditional nodes with default values.                             */
/* =============================================================================== */

static void sec_cond(void)
{
    static struct kargs ka[16];
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = dalloc(64);
    struct {
        const char *name;
        CUgraphConditionalNodeType type;
        unsigned size, dflt, flags;
    } cases[] = {
        {"IF.size1.default1", CU_GRAPH_COND_TYPE_IF, 1, 1, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"IF.size1.default0", CU_GRAPH_COND_TYPE_IF, 1, 0, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"IF.size1.default7", CU_GRAPH_COND_TYPE_IF, 1, 7, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"IF.size2.default0", CU_GRAPH_COND_TYPE_IF, 2, 0, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"IF.size2.default1", CU_GRAPH_COND_TYPE_IF, 2, 1, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"WHILE.size1.default0", CU_GRAPH_COND_TYPE_WHILE, 1, 0, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"SWITCH.size3.default0", CU_GRAPH_COND_TYPE_SWITCH, 3, 0, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"SWITCH.size3.default1", CU_GRAPH_COND_TYPE_SWITCH, 3, 1, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"SWITCH.size3.default2", CU_GRAPH_COND_TYPE_SWITCH, 3, 2, CU_GRAPH_COND_ASSIGN_DEFAULT},
        {"SWITCH.size3.default5", CU_GRAPH_COND_TYPE_SWITCH, 3, 5, CU_GRAPH_COND_ASSIGN_DEFAULT},
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        CK(cuMemsetD32(d, 0, 16));
        CUgraph g;
        CK(cuGraphCreate(&g, 0));
        CUgraphConditionalHandle hnd = 0;
        CUresult rh = cuGraphConditionalHandleCreate(&hnd, g, ctx, cases[c].dflt, cases[c].flags);
        /* a kernel before it (d[8] = 1), the conditional, a kernel after it (d[9] = 2) */
        ka[0].p = d + 4 * 8;
        ka[0].v = 1;
        ka[0].n = 1;
        CUgraphNode before = add_kernel(g, NULL, 0, f_fill, &ka[0], 1);
        CUgraphNodeParams np;
        memset(&np, 0, sizeof np);
        np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
        np.conditional.handle = hnd;
        np.conditional.type = cases[c].type;
        np.conditional.size = cases[c].size;
        np.conditional.ctx = ctx;
        CUgraphNode cn = NULL;
        CUresult ra = cuGraphAddNode(&cn, g, &before, NULL, 1, &np);
        CUresult rb = CUDA_SUCCESS;
        if (!ra && np.conditional.phGraph_out)
            for (unsigned i = 0; i < cases[c].size; i++) {
                /* body i: d[i] = 100 + i */
                ka[1 + i].p = d + 4 * i;
                ka[1 + i].v = 100 + i;
                ka[1 + i].n = 1;
                CUgraphNode bn = NULL;
                CUDA_KERNEL_NODE_PARAMS kp = kparams(f_fill, &ka[1 + i], 1);
                CUresult r = cuGraphAddKernelNode(&bn, np.conditional.phGraph_out[i], NULL, 0, &kp);
                if (r)
                    rb = r;
            }
        ka[5].p = d + 4 * 9;
        ka[5].v = 2;
        ka[5].n = 1;
        if (cn)
            add_kernel(g, &cn, 1, f_fill, &ka[5], 1);
        CUgraphNodeType t = (CUgraphNodeType)99;
        if (cn)
            cuGraphNodeGetType(cn, &t);
        CUgraphExec x = NULL;
        CUresult ri = cuGraphInstantiate(&x, g, 0);
        CUresult rl = x ? cuGraphLaunch(x, s) : CUDA_ERROR_INVALID_VALUE;
        CUresult rs = cuStreamSynchronize(s);
        say("cond.%s: handle=%s add=%s body=%s type=%d %s instantiate=%s launch=%s sync=%s", cases[c].name, rc(rh),
            rc(ra), rc(rb), (int)t, shape(g), rc(ri), x ? rc(rl) : "-", rc(rs));
        char l[96];
        snprintf(l, sizeof l, "cond.%s.output", cases[c].name);
        unsigned h[10];
        CUresult rr = cuMemcpyDtoH(h, d, sizeof h);
        if (rr)
            say("%s: read=%s", l, rc(rr));
        else
            say("%s: bodies=%u,%u,%u before=%u after=%u", l, h[0], h[1], h[2], h[8], h[9]);
        if (x) {
            /* twice more: the default is assigned at each launch */
            CUresult r1 = cuGraphLaunch(x, s), r2 = cuGraphLaunch(x, s);
            CUresult r3 = cuStreamSynchronize(s);
            say("cond.%s.relaunch: %s %s sync=%s", cases[c].name, rc(r1), rc(r2), rc(r3));
            CK(cuGraphExecDestroy(x));
        }
        CK(cuGraphDestroy(g));
    }
    /* a conditional body with a node a body may not hold (a host node) */
    CUgraph g;
    CK(cuGraphCreate(&g, 0));
    CUgraphConditionalHandle hnd = 0;
    CK(cuGraphConditionalHandleCreate(&hnd, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
    CUgraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    np.conditional.handle = hnd;
    np.conditional.type = CU_GRAPH_COND_TYPE_IF;
    np.conditional.size = 1;
    np.conditional.ctx = ctx;
    CUgraphNode cn = NULL;
    CUresult ra = cuGraphAddNode(&cn, g, NULL, NULL, 0, &np);
    static struct hostlog hl;
    CUDA_HOST_NODE_PARAMS hp = {host_fn, &hl};
    CUgraphNode hn = NULL;
    CUresult rh = ra ? ra : cuGraphAddHostNode(&hn, np.conditional.phGraph_out[0], NULL, 0, &hp);
    CUDA_GRAPH_INSTANTIATE_PARAMS ip;
    memset(&ip, 0, sizeof ip);
    ip.result_out = (CUgraphInstantiateResult)99;
    CUgraphExec x = NULL;
    CUresult ri = cuGraphInstantiateWithParams(&x, g, &ip);
    say("cond.host_in_body: add=%s host=%s instantiate=%s result_out=%d errNode_is_host:%d", rc(ra), rc(rh), rc(ri),
        (int)ip.result_out, ip.hErrNode_out != NULL && ip.hErrNode_out == hn);
    if (x)
        CK(cuGraphExecDestroy(x));
    CK(cuGraphDestroy(g));
    /* a handle no node uses */
    CK(cuGraphCreate(&g, 0));
    CK(cuGraphConditionalHandleCreate(&hnd, g, ctx, 1, 0));
    add_empty(g, NULL, 0);
    memset(&ip, 0, sizeof ip);
    ip.result_out = (CUgraphInstantiateResult)99;
    x = NULL;
    ri = cuGraphInstantiateWithParams(&x, g, &ip);
    say("cond.unused_handle: instantiate=%s result_out=%d", rc(ri), (int)ip.result_out);
    if (x)
        CK(cuGraphExecDestroy(x));
    CK(cuGraphDestroy(g));
}

/* =============================================================================== */

static void run_section(const char *name, void (*fn)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(60);
        say("## %s", name);
        setup();
        fn();
        fflush(stdout);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st))
        say("## %s: killed by signal %d", name, WTERMSIG(st));
    else if (WEXITSTATUS(st))
        say("## %s: exited %d", name, WEXITSTATUS(st));
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } sections[] = {
        {"hand", sec_hand}, {"capture", sec_capture}, {"update", sec_update}, {"enable", sec_enable},
        {"flags", sec_flags}, {"rules", sec_rules},     {"cond", sec_cond},
    };
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (unsigned i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (argc < 2 || !strcmp(argv[1], sections[i].name))
            run_section(sections[i].name, sections[i].fn);
    return 0;
}
