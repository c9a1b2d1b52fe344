/*
 * foundation_probe.c - what the real NVIDIA driver answers for the basic driver-API calls.
 *
 * Built against NVIDIA's own cuda.h and linked with -lcuda (NOT against extmem):
 *   gcc -std=gnu11 -O0 docs/probes/foundation_probe.c -I/usr/local/cuda/include -lcuda -ldl -o probe
 *
 * Output: one line per case, "case-name: RESULT_NAME (values)".
 * Each group of cases runs in a freshly exec'd copy of this program (so that the state of one
 * group cannot leak into another, and a crash loses only the rest of that group); cases that may
 * crash run in their own freshly exec'd copy (`probe --case NAME`), which sets itself up from
 * scratch (cuInit, a context of its own).  A copy that dies prints "NAME: CRASHED signal N".
 * fork()+exec is used rather than a bare fork(): CUDA is unusable in a forked child whose parent
 * has initialised it.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *self_path = "/proc/self/exe";

/* ---------- printing helpers ---------- */
static const char *rn(CUresult r)
{
    static char buf[8][96];
    static int slot;
    char *b = buf[slot++ & 7];
    const char *s = NULL;
    if (cuGetErrorName(r, &s) == CUDA_SUCCESS && s)
        snprintf(b, 96, "%s", s);
    else
        snprintf(b, 96, "code=%d", (int)r);
    return b;
}

#define P(name, r, ...)                                                                 \
    do {                                                                                \
        printf("%s: %s", name, rn(r));                                                  \
        printf(" " __VA_ARGS__);                                                        \
        printf("\n");                                                                   \
    } while (0)
#define P0(name, r) printf("%s: %s\n", name, rn(r))

static void die_if(CUresult r, const char *what)
{
    if (r != CUDA_SUCCESS) {
        printf("SETUP-FAILED %s: %s\n", what, rn(r));
        exit(3);
    }
}

static CUdevice g_dev;
static CUdevice setup_init(void)
{
    die_if(cuInit(0), "cuInit(0)");
    die_if(cuDeviceGet(&g_dev, 0), "cuDeviceGet(0)");
    return g_dev;
}
static CUcontext setup_ctx(void)
{
    CUcontext c = NULL;
    setup_init();
    die_if(cuCtxCreate(&c, NULL, 0, g_dev), "cuCtxCreate");
    return c;
}

/* ---------- spawning ---------- */
static void spawn(const char *mode, const char *arg, const char *label, unsigned timeout)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        printf("%s: FORK-FAILED\n", label);
        return;
    }
    if (pid == 0) {
        char t[16];
        snprintf(t, sizeof t, "%u", timeout);
        execl(self_path, self_path, mode, arg, t, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st))
        printf("%s: CRASHED signal %d (%s)%s\n", label, WTERMSIG(st), strsignal(WTERMSIG(st)),
               WTERMSIG(st) == SIGALRM ? " [hung: killed by the probe's timeout]" : "");
    else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
        printf("%s: child exit status %d\n", label, WEXITSTATUS(st));
}
static void risky(const char *name) { spawn("--case", name, name, 30); }

/* =================================================================
 * Risky cases: each one sets itself up and prints its own line(s).
 * ================================================================= */
static void r_init_flags(void)
{
    P0("2.cuInit(1) first call in process", cuInit(1));
    P0("2.cuInit(0) after cuInit(1)", cuInit(0));
    int n = -77;
    CUresult r = cuDeviceGetCount(&n);
    P("2.  then cuDeviceGetCount", r, "(count=%d)", n);
    P0("2.cuInit(1) after a successful cuInit(0)", cuInit(1));
    P0("2.cuInit(0xFFFFFFFF) after a successful cuInit(0)", cuInit(0xFFFFFFFFu));
}
static void r_devname_null(void)
{
    setup_init();
    P0("2.cuDeviceGetName(NULL,256,dev)", cuDeviceGetName(NULL, 256, g_dev));
}
static void r_devname_len0(void)
{
    setup_init();
    char buf[256];
    strcpy(buf, "XYZ");
    CUresult r = cuDeviceGetName(buf, 0, g_dev);
    P("2.cuDeviceGetName(buf,0,dev)", r, "(buf=\"%s\")", buf);
}
static void r_devname_len5(void)
{
    setup_init();
    char buf[256];
    strcpy(buf, "XYZXYZXYZ");
    CUresult r = cuDeviceGetName(buf, 5, g_dev);
    P("2.cuDeviceGetName(buf,5,dev)", r, "(buf=\"%s\")", buf);
}
static void r_devname_lenneg(void)
{
    setup_init();
    static char buf[1 << 16];
    strcpy(buf, "XYZ");
    CUresult r = cuDeviceGetName(buf, -1, g_dev);
    P("2.cuDeviceGetName(buf,-1,dev)", r, "(buf=\"%.40s\")", buf);
}
static void r_devattr_null(void)
{
    setup_init();
    P0("2.cuDeviceGetAttribute(NULL,1,dev)", cuDeviceGetAttribute(NULL, 1, g_dev));
}
static void r_totalmem_null(void)
{
    setup_init();
    P0("2.cuDeviceTotalMem(NULL,dev)", cuDeviceTotalMem(NULL, g_dev));
}
static void r_devget_null(void)
{
    setup_init();
    P0("2.cuDeviceGet(NULL,0)", cuDeviceGet(NULL, 0));
}
static void r_devcount_null(void)
{
    setup_init();
    P0("2.cuDeviceGetCount(NULL)", cuDeviceGetCount(NULL));
}
static void r_alloc_null(void)
{
    setup_ctx();
    P0("4.cuMemAlloc(NULL,16)", cuMemAlloc(NULL, 16));
}
static void r_free_plus1(void)
{
    setup_ctx();
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    P0("4.cuMemFree(p+1) live p", cuMemFree(p + 1));
    P0("4.  then cuMemFree(p)", cuMemFree(p));
}
static void r_free_twice(void)
{
    setup_ctx();
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    P0("4.cuMemFree(p) first", cuMemFree(p));
    P0("4.cuMemFree(p) second", cuMemFree(p));
}
static void r_free_host(void)
{
    setup_ctx();
    void *h = malloc(4096);
    memset(h, 1, 4096);
    P0("4.cuMemFree(malloc ptr)", cuMemFree((CUdeviceptr)(uintptr_t)h));
}
static void r_range_nulls(void)
{
    setup_ctx();
    CUdeviceptr p = 0, b = 0x1111;
    size_t s = 0x2222;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    P0("5.cuMemGetAddressRange(NULL,NULL,p)", cuMemGetAddressRange(NULL, NULL, p));
    CUresult r = cuMemGetAddressRange(NULL, &s, p + 10);
    P("5.cuMemGetAddressRange(NULL,&size,p+10)", r, "(size=%zu)", s);
    r = cuMemGetAddressRange(&b, NULL, p + 10);
    P("5.cuMemGetAddressRange(&base,NULL,p+10)", r, "(base==p:%d)", b == p);
}
static void r_ptrattr_nulldata(void)
{
    setup_ctx();
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    P0("6.cuPointerGetAttribute(NULL,MEMORY_TYPE,devptr)",
       cuPointerGetAttribute(NULL, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
}
static void r_htod_nullsrc(void)
{
    setup_ctx();
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    P0("7.cuMemcpyHtoD(p,NULL,16)", cuMemcpyHtoD(p, NULL, 16));
    P0("7.  then cuCtxSynchronize", cuCtxSynchronize());
}
static void r_dtoh_nulldst(void)
{
    setup_ctx();
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    P0("7.cuMemcpyDtoH(NULL,p,16)", cuMemcpyDtoH(NULL, p, 16));
    P0("7.  then cuCtxSynchronize", cuCtxSynchronize());
}
static void r_htod_past_granule(void)
{
    setup_ctx();
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    size_t n = 4u << 20;
    unsigned char *big = calloc(1, n);
    P0("7.cuMemcpyHtoD(p,host,4MiB) on 1000-byte alloc (past its 2MiB granule)", cuMemcpyHtoD(p, big, n));
    P0("7.  then cuCtxSynchronize", cuCtxSynchronize());
    P0("7.cuMemsetD8(p,0,4MiB) on 1000-byte alloc", cuMemsetD8(p, 0, n));
    P0("7.  then cuCtxSynchronize", cuCtxSynchronize());
}
static void r_memset_zero(void)
{
    setup_ctx();
    P0("7.cuMemsetD32(0,0,4)", cuMemsetD32(0, 0, 4));
    P0("7.  then cuCtxSynchronize", cuCtxSynchronize());
}
static void r_freehost_malloc(void)
{
    setup_ctx();
    void *h = malloc(4096);
    memset(h, 1, 4096);
    P0("8.cuMemFreeHost(malloc ptr)", cuMemFreeHost(h));
}
static void r_freehost_plus16(void)
{
    setup_ctx();
    void *h = NULL;
    die_if(cuMemAllocHost(&h, 4096), "allochost");
    P0("8.cuMemFreeHost(h+16)", cuMemFreeHost((char *)h + 16));
    P0("8.  then cuMemFreeHost(h)", cuMemFreeHost(h));
}
static void r_freehost_null(void)
{
    setup_ctx();
    P0("8.cuMemFreeHost(NULL)", cuMemFreeHost(NULL));
}
static void r_ctx_destroy_twice(void)
{
    CUcontext c = setup_ctx();
    P0("9.cuCtxDestroy(created) first", cuCtxDestroy(c));
    P0("9.cuCtxDestroy(created) second", cuCtxDestroy(c));
    CUcontext cur = (CUcontext)(uintptr_t)0xdead;
    CUresult r = cuCtxGetCurrent(&cur);
    P("9.  then cuCtxGetCurrent", r, "(ctx=%p)", (void *)cur);
}
static void r_ctx_destroy_other_current(void)
{
    /* destroy a created context that is not current (another one is on top) */
    CUcontext a = setup_ctx();
    CUcontext b = NULL;
    die_if(cuCtxCreate(&b, NULL, 0, g_dev), "ctxB");
    P0("9.cuCtxDestroy(A) while B current", cuCtxDestroy(a));
    CUcontext cur = NULL;
    cuCtxGetCurrent(&cur);
    printf("9.  then current==B:%d\n", cur == b);
    P0("9.  then cuCtxDestroy(A) again", cuCtxDestroy(a));
}
static void r_ctx_destroy_primary(void)
{
    setup_init();
    CUcontext pc = NULL;
    die_if(cuDevicePrimaryCtxRetain(&pc, g_dev), "retain");
    P0("9.cuCtxDestroy(primary, retained, not current)", cuCtxDestroy(pc));
    die_if(cuCtxSetCurrent(pc), "setcurrent");
    P0("9.cuCtxDestroy(primary, retained, current)", cuCtxDestroy(pc));
    unsigned fl = 0xAAAA;
    int act = -1;
    CUresult r = cuDevicePrimaryCtxGetState(g_dev, &fl, &act);
    P("9.  then GetState", r, "(flags=0x%x active=%d)", fl, act);
}
static void r_ctx_push_null(void)
{
    setup_init();
    P0("9.cuCtxPushCurrent(NULL) empty stack", cuCtxPushCurrent(NULL));
    CUcontext c = NULL;
    die_if(cuCtxCreate(&c, NULL, 0, g_dev), "ctx");
    P0("9.cuCtxPushCurrent(NULL) with ctx current", cuCtxPushCurrent(NULL));
    CUcontext cur = (CUcontext)(uintptr_t)0xdead;
    CUresult r = cuCtxGetCurrent(&cur);
    P("9.  then cuCtxGetCurrent", r, "(current==created:%d ctx=%p)", cur == c, (void *)cur);
}
static void r_ctx_set_null(void)
{
    CUcontext c = setup_ctx();
    P0("9.cuCtxSetCurrent(NULL) with created ctx current", cuCtxSetCurrent(NULL));
    CUcontext cur = (CUcontext)(uintptr_t)0xdead;
    CUresult r = cuCtxGetCurrent(&cur);
    P("9.  then cuCtxGetCurrent", r, "(ctx=%p)", (void *)cur);
    CUcontext popped = (CUcontext)(uintptr_t)0xdead;
    r = cuCtxPopCurrent(&popped);
    P("9.  then cuCtxPopCurrent", r, "(popped==created:%d popped=%p)", popped == c, (void *)popped);
    P0("9.cuCtxSetCurrent(NULL) when already NULL", cuCtxSetCurrent(NULL));
}
static void r_ctx_pop_empty(void)
{
    setup_init();
    CUcontext popped = (CUcontext)(uintptr_t)0xdead;
    CUresult r = cuCtxPopCurrent(&popped);
    P("9.cuCtxPopCurrent empty stack (never had ctx)", r, "(out=%p)", (void *)popped);
    CUcontext c = NULL;
    die_if(cuCtxCreate(&c, NULL, 0, g_dev), "ctx");
    r = cuCtxPopCurrent(&popped);
    P("9.cuCtxPopCurrent created ctx", r, "(popped==created:%d)", popped == c);
    popped = (CUcontext)(uintptr_t)0xdead;
    r = cuCtxPopCurrent(&popped);
    P("9.cuCtxPopCurrent after popping the only ctx", r, "(out=%p)", (void *)popped);
    r = cuCtxPushCurrent(c);
    P0("9.cuCtxPushCurrent(created)", r);
    P0("9.cuCtxPopCurrent(NULL out)", cuCtxPopCurrent(NULL));
    CUcontext cur = (CUcontext)(uintptr_t)0xdead;
    cuCtxGetCurrent(&cur);
    printf("9.  then current=%p\n", (void *)cur);
}
static void r_primary_release_unretained(void)
{
    setup_init();
    P0("9.cuDevicePrimaryCtxRelease when not retained", cuDevicePrimaryCtxRelease(g_dev));
    CUcontext pc = NULL;
    die_if(cuDevicePrimaryCtxRetain(&pc, g_dev), "retain");
    P0("9.cuDevicePrimaryCtxRelease after 1 retain", cuDevicePrimaryCtxRelease(g_dev));
    P0("9.cuDevicePrimaryCtxRelease again (count 0)", cuDevicePrimaryCtxRelease(g_dev));
    P0("9.cuDevicePrimaryCtxRelease(dev -1)", cuDevicePrimaryCtxRelease(-1));
}
static void r_stream_destroy_twice(void)
{
    setup_ctx();
    CUstream s = NULL;
    die_if(cuStreamCreate(&s, 0), "stream");
    P0("10.cuStreamDestroy first", cuStreamDestroy(s));
    P0("10.cuStreamDestroy destroyed stream", cuStreamDestroy(s));
}
static void r_stream_query_destroyed(void)
{
    setup_ctx();
    CUstream s = NULL;
    die_if(cuStreamCreate(&s, 0), "stream");
    die_if(cuStreamDestroy(s), "streamdestroy");
    P0("10.cuStreamQuery(destroyed)", cuStreamQuery(s));
    P0("10.cuStreamSynchronize(destroyed)", cuStreamSynchronize(s));
}
static void r_event_destroy_twice(void)
{
    setup_ctx();
    CUevent e = NULL;
    die_if(cuEventCreate(&e, 0), "event");
    P0("10.cuEventDestroy first", cuEventDestroy(e));
    P0("10.cuEventDestroy destroyed event", cuEventDestroy(e));
}
static void r_elapsed_null(void)
{
    setup_ctx();
    CUevent a, b;
    die_if(cuEventCreate(&a, 0), "ev");
    die_if(cuEventCreate(&b, 0), "ev");
    cuEventRecord(a, 0);
    cuEventRecord(b, 0);
    cuEventSynchronize(b);
    P0("10.cuEventElapsedTime(NULL,a,b) recorded", cuEventElapsedTime(NULL, a, b));
}
static void r_hostfunc_null(void)
{
    setup_ctx();
    CUstream s;
    die_if(cuStreamCreate(&s, 0), "stream");
    P0("10.cuLaunchHostFunc(s,NULL,NULL)", cuLaunchHostFunc(s, NULL, NULL));
    P0("10.  then cuStreamSynchronize", cuStreamSynchronize(s));
}
static void r_event_other_ctx(void)
{
    CUcontext a = setup_ctx();
    CUstream sa;
    die_if(cuStreamCreate(&sa, 0), "streamA");
    CUcontext b = NULL;
    die_if(cuCtxCreate(&b, NULL, 0, g_dev), "ctxB");
    CUevent eb;
    die_if(cuEventCreate(&eb, 0), "eventB");
    die_if(cuCtxSetCurrent(a), "setA");
    P0("10.cuEventRecord(event of ctx B, stream of ctx A), A current", cuEventRecord(eb, sa));
    P0("10.  then cuEventSynchronize(eB)", cuEventSynchronize(eb));
    P0("10.cuEventRecord(event of B, NULL stream), A current", cuEventRecord(eb, 0));
    P0("10.cuStreamWaitEvent(stream of A, event of B)", cuStreamWaitEvent(sa, eb, 0));
    P0("10.  then cuCtxSynchronize", cuCtxSynchronize());
    die_if(cuCtxSetCurrent(b), "setB");
    P0("10.cuEventRecord(event of B, stream of A), B current", cuEventRecord(eb, sa));
}
static void r_errname_null(void)
{
    P0("11.cuGetErrorName(CUDA_SUCCESS,NULL)", cuGetErrorName(CUDA_SUCCESS, NULL));
}
static void r_errstring_null(void)
{
    P0("11.cuGetErrorString(CUDA_SUCCESS,NULL)", cuGetErrorString(CUDA_SUCCESS, NULL));
}
static void r_gpa_null_symbol(void)
{
    setup_init();
    void *pfn = (void *)(uintptr_t)0xdead;
    CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)99;
    CUresult r = cuGetProcAddress(NULL, &pfn, 13000, 0, &st);
    P("12.cuGetProcAddress(NULL symbol)", r, "(status=%d pfn=%p)", (int)st, pfn);
}
static void r_gpa_null_pfn(void)
{
    setup_init();
    CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)99;
    CUresult r = cuGetProcAddress("cuMemAlloc", NULL, 13000, 0, &st);
    P("12.cuGetProcAddress(\"cuMemAlloc\", pfn NULL)", r, "(status=%d)", (int)st);
}

struct rcase {
    const char *name;
    void (*fn)(void);
};
static const struct rcase rcases[] = {
    {"init_flags", r_init_flags},
    {"devname_null", r_devname_null},
    {"devname_len0", r_devname_len0},
    {"devname_len5", r_devname_len5},
    {"devname_lenneg", r_devname_lenneg},
    {"devattr_null", r_devattr_null},
    {"totalmem_null", r_totalmem_null},
    {"devget_null", r_devget_null},
    {"devcount_null", r_devcount_null},
    {"alloc_null", r_alloc_null},
    {"free_plus1", r_free_plus1},
    {"free_twice", r_free_twice},
    {"free_host", r_free_host},
    {"range_nulls", r_range_nulls},
    {"ptrattr_nulldata", r_ptrattr_nulldata},
    {"htod_nullsrc", r_htod_nullsrc},
    {"dtoh_nulldst", r_dtoh_nulldst},
    {"htod_past_granule", r_htod_past_granule},
    {"memset_zero", r_memset_zero},
    {"freehost_malloc", r_freehost_malloc},
    {"freehost_plus16", r_freehost_plus16},
    {"freehost_null", r_freehost_null},
    {"ctx_destroy_twice", r_ctx_destroy_twice},
    {"ctx_destroy_other_current", r_ctx_destroy_other_current},
    {"ctx_destroy_primary", r_ctx_destroy_primary},
    {"ctx_push_null", r_ctx_push_null},
    {"ctx_set_null", r_ctx_set_null},
    {"ctx_pop_empty", r_ctx_pop_empty},
    {"primary_release_unretained", r_primary_release_unretained},
    {"stream_destroy_twice", r_stream_destroy_twice},
    {"stream_query_destroyed", r_stream_query_destroyed},
    {"event_destroy_twice", r_event_destroy_twice},
    {"elapsed_null", r_elapsed_null},
    {"hostfunc_null", r_hostfunc_null},
    {"event_other_ctx", r_event_other_ctx},
    {"errname_null", r_errname_null},
    {"errstring_null", r_errstring_null},
    {"gpa_null_symbol", r_gpa_null_symbol},
    {"gpa_null_pfn", r_gpa_null_pfn},
};

/* =================================================================
 * Groups
 * ================================================================= */
static void g1(void)
{
    int n = -77, v = -77;
    CUresult r = cuDeviceGetCount(&n);
    P("1.cuDeviceGetCount before cuInit", r, "(count=%d)", n);
    r = cuDriverGetVersion(&v);
    P("1.cuDriverGetVersion before cuInit", r, "(version=%d)", v);
    const char *s = (const char *)(uintptr_t)1;
    r = cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s);
    printf("1.cuGetErrorName(INVALID_VALUE) before cuInit: code=%d (name=%s)\n", (int)r,
           s == (const char *)(uintptr_t)1 ? "<unwritten>" : s ? s : "NULL");
    s = (const char *)(uintptr_t)1;
    r = cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s);
    printf("1.cuGetErrorString(INVALID_VALUE) before cuInit: code=%d (string=%s)\n", (int)r,
           s == (const char *)(uintptr_t)1 ? "<unwritten>" : s ? s : "NULL");
    CUdeviceptr p = 0xdeadbeef;
    r = cuMemAlloc(&p, 16);
    P("1.cuMemAlloc before cuInit", r, "(p=0x%llx)", (unsigned long long)p);
    CUdevice d = -77;
    r = cuDeviceGet(&d, 0);
    P("1.cuDeviceGet(0) before cuInit", r, "(dev=%d)", d);
    CUcontext c = (CUcontext)(uintptr_t)0xdead;
    r = cuCtxGetCurrent(&c);
    P("1.cuCtxGetCurrent before cuInit", r, "(ctx=%p)", (void *)c);
    void *pfn = (void *)(uintptr_t)0xdead;
    CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)99;
    r = cuGetProcAddress("cuMemAlloc", &pfn, 13000, 0, &st);
    P("1.cuGetProcAddress(cuMemAlloc) before cuInit", r, "(status=%d pfn_is_cuMemAlloc_v2=%d)",
      (int)st, pfn == (void *)&cuMemAlloc_v2);
    P0("1.cuInit(0) afterwards", cuInit(0));
}

static void g2(void)
{
    risky("init_flags");
    P0("2.cuInit(0)", cuInit(0));
    P0("2.cuInit(0) again", cuInit(0));
    int v = -77;
    CUresult r = cuDriverGetVersion(&v);
    P("2.cuDriverGetVersion", r, "(version=%d)", v);
    P0("2.cuDriverGetVersion(NULL)", cuDriverGetVersion(NULL));
    int n = -77;
    r = cuDeviceGetCount(&n);
    P("2.cuDeviceGetCount", r, "(count=%d)", n);
    CUdevice dev = 0;
    die_if(cuDeviceGet(&dev, 0), "cuDeviceGet(0)");
    printf("2.cuDeviceGet(0): CUDA_SUCCESS (dev=%d)\n", dev);
    CUdevice d = -77;
    r = cuDeviceGet(&d, -1);
    P("2.cuDeviceGet(-1)", r, "(out=%d)", d);
    d = -77;
    r = cuDeviceGet(&d, n);
    P("2.cuDeviceGet(count)", r, "(out=%d)", d);
    risky("devget_null");
    risky("devcount_null");
    risky("devname_null");
    risky("devname_len0");
    risky("devname_len5");
    risky("devname_lenneg");
    char buf[256];
    r = cuDeviceGetName(buf, sizeof buf, dev);
    P("2.cuDeviceGetName(buf,256,dev)", r, "(name=\"%s\" strlen=%zu)", buf, strlen(buf));
    r = cuDeviceGetName(buf, sizeof buf, 99);
    P0("2.cuDeviceGetName(buf,256,dev 99)", r);
    int a = -77;
    r = cuDeviceGetAttribute(&a, 0, dev);
    P("2.cuDeviceGetAttribute(&v,0,dev)", r, "(v=%d)", a);
    a = -77;
    r = cuDeviceGetAttribute(&a, CU_DEVICE_ATTRIBUTE_MAX, dev);
    P("2.cuDeviceGetAttribute(&v,CU_DEVICE_ATTRIBUTE_MAX,dev)", r, "(MAX=%d v=%d)",
      (int)CU_DEVICE_ATTRIBUTE_MAX, a);
    a = -77;
    r = cuDeviceGetAttribute(&a, CU_DEVICE_ATTRIBUTE_MAX - 1, dev);
    P("2.cuDeviceGetAttribute(&v,MAX-1,dev)", r, "(v=%d)", a);
    a = -77;
    r = cuDeviceGetAttribute(&a, 1000, dev);
    P("2.cuDeviceGetAttribute(&v,1000,dev)", r, "(v=%d)", a);
    a = -77;
    r = cuDeviceGetAttribute(&a, 1, dev);
    P("2.cuDeviceGetAttribute(&v,1 MAX_THREADS_PER_BLOCK,dev)", r, "(v=%d)", a);
    a = -77;
    r = cuDeviceGetAttribute(&a, 1, 99);
    P("2.cuDeviceGetAttribute(&v,1,dev 99)", r, "(v=%d)", a);
    risky("devattr_null");
    risky("totalmem_null");
    size_t t = 0;
    r = cuDeviceTotalMem(&t, 99);
    P0("2.cuDeviceTotalMem(&t, dev 99)", r);
}

static void g3(void)
{
    setup_init();
    CUdeviceptr p = 0xdeadbeef;
    CUresult r = cuMemAlloc(&p, 16);
    P("3.no-ctx cuMemAlloc", r, "(p=0x%llx)", (unsigned long long)p);
    P0("3.no-ctx cuCtxSynchronize", cuCtxSynchronize());
    CUdevice d = -77;
    r = cuCtxGetDevice(&d);
    P("3.no-ctx cuCtxGetDevice", r, "(dev=%d)", d);
    CUstream s = (CUstream)(uintptr_t)0xdead;
    r = cuStreamCreate(&s, 0);
    P("3.no-ctx cuStreamCreate", r, "(s=%p)", (void *)s);
    CUcontext c = (CUcontext)(uintptr_t)0xdead;
    r = cuCtxGetCurrent(&c);
    P("3.no-ctx cuCtxGetCurrent", r, "(ctx=%p)", (void *)c);
    c = (CUcontext)(uintptr_t)0xdead;
    r = cuCtxPopCurrent(&c);
    P("3.no-ctx cuCtxPopCurrent", r, "(out=%p)", (void *)c);
    size_t fr = 0, to = 0;
    P0("3.no-ctx cuMemGetInfo", cuMemGetInfo(&fr, &to));
    P0("3.no-ctx cuMemFree(0)", cuMemFree(0));
    void *h = (void *)(uintptr_t)0xdead;
    r = cuMemAllocHost(&h, 4096);
    P("3.no-ctx cuMemAllocHost", r, "(h=%p)", h);
    CUevent e = (CUevent)(uintptr_t)0xdead;
    P0("3.no-ctx cuEventCreate", cuEventCreate(&e, 0));
    P0("3.no-ctx cuStreamSynchronize(NULL)", cuStreamSynchronize(0));
}

static void g4(void)
{
    CUcontext ctx = setup_ctx();
    (void)ctx;
    CUdeviceptr p = 0xdeadbeef;
    CUresult r = cuMemAlloc(&p, 0);
    P("4.cuMemAlloc(&p,0)", r, "(p=0x%llx)", (unsigned long long)p);
    risky("alloc_null");
    P0("4.cuMemFree(0)", cuMemFree(0));
    risky("free_plus1");
    risky("free_twice");
    risky("free_host");
    p = 0xdeadbeef;
    r = cuMemAlloc(&p, 1ULL << 50);
    P("4.cuMemAlloc(&p,1<<50)", r, "(p=0x%llx)", (unsigned long long)p);
    P0("4.  then cuCtxSynchronize", cuCtxSynchronize());
    p = 0xdeadbeef;
    r = cuMemAlloc(&p, 16);
    P("4.  then cuMemAlloc(&p,16) still works", r, "");
    /* layout of small allocations */
    CUdeviceptr a1 = 0, a2 = 0, a3 = 0;
    cuMemAlloc(&a1, 1000);
    cuMemAlloc(&a2, 1000);
    cuMemAlloc(&a3, 3 << 20);
    printf("4.layout: a1=0x%llx a2=0x%llx a3(3MiB)=0x%llx a2-a1=%lld a3-a2=%lld a1%%2MiB=0x%llx "
           "a1%%512=%llu\n",
           (unsigned long long)a1, (unsigned long long)a2, (unsigned long long)a3,
           (long long)(a2 - a1), (long long)(a3 - a2), (unsigned long long)(a1 & 0x1fffff),
           (unsigned long long)(a1 & 511));
}

static void range_at(const char *name, CUdeviceptr q, CUdeviceptr p)
{
    CUdeviceptr b = 0x1111;
    size_t s = 0x2222;
    CUresult r = cuMemGetAddressRange(&b, &s, q);
    if (b == 0x1111)
        P(name, r, "(base unwritten, size=%s%zu)", s == 0x2222 ? "unwritten/" : "", s);
    else
        P(name, r, "(base=p%+lld size=%zu)", (long long)(b - p), s);
}

static void g5(void)
{
    setup_ctx();
    CUdeviceptr p = 0, n = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    die_if(cuMemAlloc(&n, 1000), "alloc neighbour");
    printf("5.(p=0x%llx, a second 1000-byte allocation at p%+lld)\n", (unsigned long long)p,
           (long long)(n - p));
    range_at("5.cuMemGetAddressRange(p)", p, p);
    range_at("5.cuMemGetAddressRange(p+500)", p + 500, p);
    range_at("5.cuMemGetAddressRange(p+999)", p + 999, p);
    range_at("5.cuMemGetAddressRange(p+1000)", p + 1000, p);
    range_at("5.cuMemGetAddressRange(p+1024)", p + 1024, p);
    range_at("5.cuMemGetAddressRange(p+4096)", p + 4096, p);
    range_at("5.cuMemGetAddressRange(p+2MiB-1)", p + (2 << 20) - 1, p);
    range_at("5.cuMemGetAddressRange(p-1)", p - 1, p);
    risky("range_nulls");
    void *h = malloc(4096);
    memset(h, 0, 4096);
    range_at("5.cuMemGetAddressRange(malloc ptr)", (CUdeviceptr)(uintptr_t)h, 0);
    range_at("5.cuMemGetAddressRange(0)", 0, 0);
    CUdeviceptr q = 0;
    die_if(cuMemAlloc(&q, 1000), "alloc");
    cuMemFree(q);
    range_at("5.cuMemGetAddressRange(freed ptr)", q, q);
}

static const struct {
    CUpointer_attribute a;
    const char *n;
} pattrs[] = {
    {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, "MEMORY_TYPE"},
    {CU_POINTER_ATTRIBUTE_CONTEXT, "CONTEXT"},
    {CU_POINTER_ATTRIBUTE_DEVICE_POINTER, "DEVICE_POINTER"},
    {CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, "RANGE_START_ADDR"},
    {CU_POINTER_ATTRIBUTE_IS_MANAGED, "IS_MANAGED"},
    {CU_POINTER_ATTRIBUTE_BUFFER_ID, "BUFFER_ID"},
    {CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, "DEVICE_ORDINAL"},
    {CU_POINTER_ATTRIBUTE_MAPPED, "MAPPED"},
    /* extras, useful for implementing */
    {CU_POINTER_ATTRIBUTE_HOST_POINTER, "HOST_POINTER"},
    {CU_POINTER_ATTRIBUTE_RANGE_SIZE, "RANGE_SIZE"},
    {CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, "SYNC_MEMOPS"},
};
#define NPA (sizeof pattrs / sizeof pattrs[0])

static void pattr_all(const char *what, CUdeviceptr q, CUdeviceptr base, CUcontext ctx)
{
    for (size_t i = 0; i < NPA; i++) {
        unsigned char slot[16];
        memset(slot, 0xAA, sizeof slot);
        CUresult r = cuPointerGetAttribute(slot, pattrs[i].a, q);
        unsigned long long u;
        memcpy(&u, slot, 8);
        char name[128];
        snprintf(name, sizeof name, "6.cuPointerGetAttribute(%s,%s)", pattrs[i].n, what);
        const char *note = "";
        if (r == CUDA_SUCCESS && (pattrs[i].a == CU_POINTER_ATTRIBUTE_CONTEXT) &&
            (CUcontext)(uintptr_t)u == ctx)
            note = " ==ctx";
        if (r == CUDA_SUCCESS && base && (pattrs[i].a == CU_POINTER_ATTRIBUTE_DEVICE_POINTER ||
                                          pattrs[i].a == CU_POINTER_ATTRIBUTE_HOST_POINTER ||
                                          pattrs[i].a == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR))
            note = u == (unsigned long long)q ? " ==ptr" : u == (unsigned long long)base ? " ==base" : "";
        P(name, r, "(8 bytes=0x%016llx%s)", u, note);
    }
}
static void pattrs_vec(const char *what, CUdeviceptr q)
{
    CUpointer_attribute at[8];
    unsigned char slots[8][8];
    void *data[8];
    for (int i = 0; i < 8; i++) {
        at[i] = pattrs[i].a;
        memset(slots[i], 0xAA, 8);
        data[i] = slots[i];
    }
    CUresult r = cuPointerGetAttributes(8, at, data, q);
    printf("6.cuPointerGetAttributes(8 attrs,%s): %s (", what, rn(r));
    for (int i = 0; i < 8; i++) {
        unsigned long long u;
        memcpy(&u, slots[i], 8);
        printf("%s%s=0x%016llx", i ? " " : "", pattrs[i].n, u);
    }
    printf(")\n");
}

static void g6(void)
{
    CUcontext ctx = setup_ctx();
    printf("6.(CU_MEMORYTYPE: HOST=1 DEVICE=2 ARRAY=3 UNIFIED=4; outputs preset to 0xAA bytes)\n");
    void *m = malloc(4096);
    memset(m, 0, 4096);
    pattr_all("malloc ptr", (CUdeviceptr)(uintptr_t)m, (CUdeviceptr)(uintptr_t)m, ctx);
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    pattr_all("cuMemAlloc p", p, p, ctx);
    pattr_all("cuMemAlloc p+100", p + 100, p, ctx);
    void *h = NULL;
    die_if(cuMemAllocHost(&h, 4096), "allochost");
    pattr_all("cuMemAllocHost h", (CUdeviceptr)(uintptr_t)h, (CUdeviceptr)(uintptr_t)h, ctx);
    pattrs_vec("malloc ptr", (CUdeviceptr)(uintptr_t)m);
    pattrs_vec("cuMemAlloc p", p);
    pattrs_vec("cuMemAllocHost h", (CUdeviceptr)(uintptr_t)h);
    pattrs_vec("0", 0);
    unsigned char slot[16];
    memset(slot, 0xAA, sizeof slot);
    P0("6.cuPointerGetAttribute(attr 0, devptr)",
       cuPointerGetAttribute(slot, (CUpointer_attribute)0, p));
    P0("6.cuPointerGetAttribute(attr 1000, devptr)",
       cuPointerGetAttribute(slot, (CUpointer_attribute)1000, p));
    P0("6.cuPointerGetAttribute(MEMORY_TYPE, 0)",
       cuPointerGetAttribute(slot, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 0));
    P0("6.cuPointerGetAttribute(MEMORY_TYPE, p+1000)",
       cuPointerGetAttribute(slot, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p + 1000));
    CUpointer_attribute a0 = (CUpointer_attribute)1000;
    void *d0 = slot;
    P0("6.cuPointerGetAttributes(1, {attr 1000}, devptr)", cuPointerGetAttributes(1, &a0, &d0, p));
    P0("6.cuPointerGetAttributes(0 attrs, devptr)", cuPointerGetAttributes(0, &a0, &d0, p));
    risky("ptrattr_nulldata");
}

static void g7(void)
{
    setup_ctx();
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc");
    unsigned char host[4096];
    memset(host, 0x5a, sizeof host);
    P0("7.cuMemcpyHtoD(p,host,2000) on 1000-byte alloc", cuMemcpyHtoD(p, host, 2000));
    P0("7.cuMemcpyDtoH(host,p,2000) on 1000-byte alloc", cuMemcpyDtoH(host, p, 2000));
    P0("7.cuMemcpyHtoD(p+999,host,2)", cuMemcpyHtoD(p + 999, host, 2));
    risky("htod_past_granule");
    risky("htod_nullsrc");
    risky("dtoh_nulldst");
    P0("7.cuMemcpyHtoD(p,host,0)", cuMemcpyHtoD(p, host, 0));
    P0("7.cuMemcpy(p,p+8,0)", cuMemcpy(p, p + 8, 0));
    P0("7.cuMemcpy(p,p+8,16) overlapping", cuMemcpy(p, p + 8, 16));
    P0("7.cuMemcpyHtoD(0,host,0)", cuMemcpyHtoD(0, host, 0));
    P0("7.cuMemsetD32(p+1,0,4) unaligned", cuMemsetD32(p + 1, 0, 4));
    P0("7.cuMemsetD32(p+2,0,4) 2-aligned", cuMemsetD32(p + 2, 0, 4));
    P0("7.cuMemsetD16(p+1,0,4) unaligned", cuMemsetD16(p + 1, 0, 4));
    P0("7.cuMemsetD8(p,0,2000) on 1000-byte alloc", cuMemsetD8(p, 0, 2000));
    P0("7.cuMemsetD8(p,0,0)", cuMemsetD8(p, 0, 0));
    P0("7.cuMemsetD32(p,0,250) exact", cuMemsetD32(p, 0, 250));
    P0("7.cuMemsetD32(p,0,251) 4 bytes over", cuMemsetD32(p, 0, 251));
    P0("7.  then cuCtxSynchronize", cuCtxSynchronize());
    risky("memset_zero");
}

static void g8(void)
{
    setup_ctx();
    void *h = (void *)(uintptr_t)0xdead;
    CUresult r = cuMemAllocHost(&h, 0);
    P("8.cuMemAllocHost(&h,0)", r, "(h=%p)", h);
    h = (void *)(uintptr_t)0xdead;
    r = cuMemHostAlloc(&h, 4096, 0x10);
    P("8.cuMemHostAlloc(&h,4096,0x10)", r, "(h=%p)", h);
    h = (void *)(uintptr_t)0xdead;
    r = cuMemHostAlloc(&h, 0, 0);
    P("8.cuMemHostAlloc(&h,0,0)", r, "(h=%p)", h);
    h = NULL;
    die_if(cuMemHostAlloc(&h, 4096, CU_MEMHOSTALLOC_DEVICEMAP), "hostalloc devicemap");
    CUdeviceptr d = 0xdeadbeef;
    r = cuMemHostGetDevicePointer(&d, h, 0);
    P("8.cuMemHostGetDevicePointer(&d,h,0) DEVICEMAP", r, "(d==h:%d)", d == (CUdeviceptr)(uintptr_t)h);
    d = 0xdeadbeef;
    r = cuMemHostGetDevicePointer(&d, (char *)h + 16, 0);
    P("8.cuMemHostGetDevicePointer(&d,h+16,0)", r, "(d==h+16:%d)",
      d == (CUdeviceptr)(uintptr_t)h + 16);
    d = 0xdeadbeef;
    r = cuMemHostGetDevicePointer(&d, h, 1);
    P("8.cuMemHostGetDevicePointer(&d,h,1)", r, "(d=0x%llx)", (unsigned long long)d);
    void *m = malloc(4096);
    memset(m, 0, 4096);
    d = 0xdeadbeef;
    r = cuMemHostGetDevicePointer(&d, m, 0);
    P("8.cuMemHostGetDevicePointer(&d,malloc ptr,0)", r, "(d=0x%llx)", (unsigned long long)d);
    void *h2 = NULL;
    die_if(cuMemAllocHost(&h2, 4096), "allochost");
    d = 0xdeadbeef;
    r = cuMemHostGetDevicePointer(&d, h2, 0);
    P("8.cuMemHostGetDevicePointer(&d,cuMemAllocHost ptr,0)", r, "(d==h:%d)",
      d == (CUdeviceptr)(uintptr_t)h2);
    unsigned fl = 0xAAAA;
    r = cuMemHostGetFlags(&fl, h);
    P("8.cuMemHostGetFlags(DEVICEMAP alloc)", r, "(flags=0x%x)", fl);
    fl = 0xAAAA;
    r = cuMemHostGetFlags(&fl, h2);
    P("8.cuMemHostGetFlags(cuMemAllocHost alloc)", r, "(flags=0x%x)", fl);
    risky("freehost_malloc");
    risky("freehost_plus16");
    risky("freehost_null");
    CUdeviceptr b = 0x1111;
    size_t s = 0x2222;
    r = cuMemGetAddressRange(&b, &s, (CUdeviceptr)(uintptr_t)h + 16);
    P("8.cuMemGetAddressRange(h+16) host alloc", r, "(base==h:%d size=%zu)",
      b == (CUdeviceptr)(uintptr_t)h, s);
    P0("8.cuMemFreeHost(h)", cuMemFreeHost(h));
    P0("8.cuMemFree(cuMemAllocHost ptr)", cuMemFree((CUdeviceptr)(uintptr_t)h2));
}

static void g9(void)
{
    risky("ctx_destroy_twice");
    risky("ctx_destroy_other_current");
    risky("ctx_destroy_primary");
    risky("ctx_push_null");
    risky("ctx_set_null");
    risky("ctx_pop_empty");
    risky("primary_release_unretained");
    /* primary context state machine (this process) */
    CUdevice dev = setup_init();
    unsigned fl = 0xAAAA;
    int act = -1;
    CUresult r = cuDevicePrimaryCtxGetState(dev, &fl, &act);
    P("9.PrimaryCtxGetState before retain", r, "(flags=0x%x active=%d)", fl, act);
    P0("9.cuDevicePrimaryCtxSetFlags(dev,0x100)", cuDevicePrimaryCtxSetFlags(dev, 0x100));
    P0("9.cuDevicePrimaryCtxSetFlags(dev,0x3 SPIN|YIELD)", cuDevicePrimaryCtxSetFlags(dev, 0x3));
    P0("9.cuDevicePrimaryCtxSetFlags(dev,0x8 MAP_HOST)", cuDevicePrimaryCtxSetFlags(dev, 0x8));
    P0("9.cuDevicePrimaryCtxSetFlags(dev,BLOCKING_SYNC) inactive",
       cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_BLOCKING_SYNC));
    fl = 0xAAAA;
    act = -1;
    r = cuDevicePrimaryCtxGetState(dev, &fl, &act);
    P("9.  then GetState", r, "(flags=0x%x active=%d)", fl, act);
    CUcontext c1 = NULL;
    r = cuDevicePrimaryCtxRetain(&c1, dev);
    P("9.cuDevicePrimaryCtxRetain", r, "(ctx=%p)", (void *)c1);
    fl = 0xAAAA;
    act = -1;
    r = cuDevicePrimaryCtxGetState(dev, &fl, &act);
    P("9.PrimaryCtxGetState after retain", r, "(flags=0x%x active=%d)", fl, act);
    CUcontext cur = (CUcontext)(uintptr_t)0xdead;
    cuCtxGetCurrent(&cur);
    printf("9.  retain makes it current? current=%p (==primary:%d)\n", (void *)cur, cur == c1);
    P0("9.cuDevicePrimaryCtxSetFlags(dev,SPIN) while active", cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_SPIN));
    P0("9.cuDevicePrimaryCtxSetFlags(dev,0x100) while active", cuDevicePrimaryCtxSetFlags(dev, 0x100));
    fl = 0xAAAA;
    r = cuDevicePrimaryCtxGetState(dev, &fl, &act);
    P("9.  then GetState", r, "(flags=0x%x active=%d)", fl, act);
    CUcontext c1b = NULL;
    cuDevicePrimaryCtxRetain(&c1b, dev);
    printf("9.second Retain returns same handle: %d\n", c1b == c1);
    die_if(cuCtxSetCurrent(c1), "setcurrent primary");
    unsigned cf = 0xAAAA;
    r = cuCtxGetFlags(&cf);
    P("9.cuCtxGetFlags on primary", r, "(flags=0x%x)", cf);
    CUdeviceptr p = 0;
    die_if(cuMemAlloc(&p, 1000), "alloc in primary");
    r = cuDevicePrimaryCtxReset(dev);
    P0("9.cuDevicePrimaryCtxReset (retained twice, current)", r);
    fl = 0xAAAA;
    act = -1;
    r = cuDevicePrimaryCtxGetState(dev, &fl, &act);
    P("9.  then GetState", r, "(flags=0x%x active=%d)", fl, act);
    cur = (CUcontext)(uintptr_t)0xdead;
    r = cuCtxGetCurrent(&cur);
    P("9.  then cuCtxGetCurrent", r, "(current==old primary:%d)", cur == c1);
    CUdeviceptr q = 0;
    r = cuMemAlloc(&q, 16);
    P0("9.  then cuMemAlloc (old primary still current)", r);
    CUdeviceptr b = 0;
    size_t s = 0;
    P0("9.  then cuMemGetAddressRange(alloc made before reset)", cuMemGetAddressRange(&b, &s, p));
    CUcontext c2 = NULL;
    r = cuDevicePrimaryCtxRetain(&c2, dev);
    P("9.Retain after Reset", r, "(same CUcontext value as before reset: %d)", c2 == c1);
    fl = 0xAAAA;
    act = -1;
    r = cuDevicePrimaryCtxGetState(dev, &fl, &act);
    P("9.  then GetState", r, "(flags=0x%x active=%d)", fl, act);
    P0("9.cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease(dev));
    fl = 0xAAAA;
    act = -1;
    r = cuDevicePrimaryCtxGetState(dev, &fl, &act);
    P("9.  then GetState", r, "(flags=0x%x active=%d)", fl, act);
    P0("9.cuDevicePrimaryCtxRelease (extra)", cuDevicePrimaryCtxRelease(dev));
    P0("9.cuDevicePrimaryCtxGetState(dev,NULL,NULL)", cuDevicePrimaryCtxGetState(dev, NULL, NULL));
    P0("9.cuDevicePrimaryCtxRetain(&c, dev 99)", cuDevicePrimaryCtxRetain(&c2, 99));
    P0("9.cuCtxCreate(&c,NULL,0x100,dev)", cuCtxCreate(&c2, NULL, 0x100, dev));
    P0("9.cuCtxCreate(&c,NULL,0,dev 99)", cuCtxCreate(&c2, NULL, 0, 99));
}

static void g10(void)
{
    CUcontext ctx = setup_ctx();
    (void)ctx;
    CUstream s = (CUstream)(uintptr_t)0xdead;
    CUresult r = cuStreamCreate(&s, 2);
    P("10.cuStreamCreate(&s,2)", r, "(s=%p)", (void *)s);
    risky("stream_destroy_twice");
    risky("stream_query_destroyed");
    risky("event_destroy_twice");
    CUevent e = NULL;
    r = cuEventCreate(&e, CU_EVENT_INTERPROCESS);
    P0("10.cuEventCreate(INTERPROCESS without DISABLE_TIMING)", r);
    r = cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING);
    P0("10.cuEventCreate(INTERPROCESS|DISABLE_TIMING)", r);
    r = cuEventCreate(&e, 0x10);
    P0("10.cuEventCreate(&e,0x10)", r);
    r = cuEventCreate(&e, 0x8);
    P0("10.cuEventCreate(&e,0x8)", r);
    CUstream st;
    die_if(cuStreamCreate(&st, 0), "stream");
    CUevent never, ea, eb, d1, d2;
    die_if(cuEventCreate(&never, 0), "ev");
    die_if(cuEventCreate(&ea, 0), "ev");
    die_if(cuEventCreate(&eb, 0), "ev");
    die_if(cuEventCreate(&d1, CU_EVENT_DISABLE_TIMING), "ev");
    die_if(cuEventCreate(&d2, CU_EVENT_DISABLE_TIMING), "ev");
    P0("10.cuEventQuery(never recorded)", cuEventQuery(never));
    P0("10.cuEventSynchronize(never recorded)", cuEventSynchronize(never));
    die_if(cuEventRecord(ea, st), "rec");
    die_if(cuEventRecord(eb, st), "rec");
    die_if(cuEventRecord(d1, st), "rec");
    die_if(cuEventRecord(d2, st), "rec");
    die_if(cuStreamSynchronize(st), "sync");
    float ms = -1.0f;
    r = cuEventElapsedTime(&ms, never, eb);
    P("10.cuEventElapsedTime(never-recorded start, recorded end)", r, "(ms=%g)", ms);
    ms = -1.0f;
    r = cuEventElapsedTime(&ms, ea, never);
    P("10.cuEventElapsedTime(recorded start, never-recorded end)", r, "(ms=%g)", ms);
    ms = -1.0f;
    r = cuEventElapsedTime(&ms, d1, d2);
    P("10.cuEventElapsedTime(DISABLE_TIMING both recorded)", r, "(ms=%g)", ms);
    ms = -1.0f;
    r = cuEventElapsedTime(&ms, ea, d2);
    P("10.cuEventElapsedTime(timing start, DISABLE_TIMING end)", r, "(ms=%g)", ms);
    risky("elapsed_null");
    ms = -1.0f;
    r = cuEventElapsedTime(&ms, ea, ea);
    P("10.cuEventElapsedTime(&ms,e,e) recorded", r, "(ms=%g)", ms);
    ms = -1.0f;
    r = cuEventElapsedTime(&ms, eb, ea);
    P("10.cuEventElapsedTime(&ms,later,earlier)", r, "(ms=%g)", ms);
    P0("10.cuStreamWaitEvent(s,e,0x2)", cuStreamWaitEvent(st, ea, 0x2));
    P0("10.cuStreamWaitEvent(s,e,0x1 EXTERNAL) not capturing", cuStreamWaitEvent(st, ea, 0x1));
    P0("10.cuStreamWaitEvent(s,never-recorded,0)", cuStreamWaitEvent(st, never, 0));
    P0("10.  then cuStreamSynchronize", cuStreamSynchronize(st));
    P0("10.cuEventRecordWithFlags(e,s,0x2)", cuEventRecordWithFlags(ea, st, 0x2));
    P0("10.cuEventQuery(recorded, completed)", cuEventQuery(ea));
    risky("hostfunc_null");
    risky("event_other_ctx");
}

static void g11(void)
{
    const char *s = (const char *)(uintptr_t)1;
    CUresult r = cuGetErrorName((CUresult)12345, &s);
    printf("11.cuGetErrorName(12345,&s): %s (s %s)\n", rn(r),
           s == (const char *)(uintptr_t)1 ? "unwritten" : s == NULL ? "set to NULL" : s);
    s = (const char *)(uintptr_t)1;
    r = cuGetErrorString((CUresult)12345, &s);
    printf("11.cuGetErrorString(12345,&s): %s (s %s)\n", rn(r),
           s == (const char *)(uintptr_t)1 ? "unwritten" : s == NULL ? "set to NULL" : s);
    risky("errname_null");
    risky("errstring_null");
    static const int codes[] = {0, 1, 2, 3, 101, 201, 400, 500, 600, 801, 999};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *nm = NULL, *st = NULL;
        CUresult r1 = cuGetErrorName((CUresult)codes[i], &nm);
        CUresult r2 = cuGetErrorString((CUresult)codes[i], &st);
        printf("11.error %d: name=%s [%d] string=\"%s\" [%d]\n", codes[i], nm ? nm : "NULL", (int)r1,
               st ? st : "NULL", (int)r2);
    }
}

static const char *symname(void *pfn)
{
    static const char *cands[] = {"cuMemAlloc",        "cuMemAlloc_v2",       "cuCtxCreate",
                                  "cuCtxCreate_v2",    "cuCtxCreate_v3",      "cuCtxCreate_v4",
                                  "cuGetProcAddress",  "cuGetProcAddress_v2", "cuGetProcAddress_v2_ptsz",
                                  "cuMemAlloc_v2_ptds"};
    static char buf[64];
    if (pfn == NULL)
        return "NULL";
    if (pfn == (void *)(uintptr_t)0xdead)
        return "unwritten";
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        void *d = dlsym(RTLD_DEFAULT, cands[i]);
        if (d && d == pfn)
            return cands[i];
    }
    snprintf(buf, sizeof buf, "other(%p)", pfn);
    return buf;
}

static void gpa(const char *label, const char *sym, int ver, cuuint64_t flags)
{
    void *pfn = (void *)(uintptr_t)0xdead;
    CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)99;
    CUresult r = cuGetProcAddress(sym, &pfn, ver, flags, &st);
    char name[160];
    snprintf(name, sizeof name, "12.cuGetProcAddress(%s)", label);
    P(name, r, "(status=%d pfn=%s)", (int)st, symname(pfn));
}

static void g12(void)
{
    setup_init();
    printf("12.(status: 0=SUCCESS 1=SYMBOL_NOT_FOUND 2=VERSION_NOT_SUFFICIENT 99=unwritten; pfn "
           "named by dlsym equality)\n");
    gpa("\"cuMemAlloc\",13000,0", "cuMemAlloc", 13000, 0);
    gpa("\"cuMemAlloc\",3020,0", "cuMemAlloc", 3020, 0);
    gpa("\"cuMemAlloc\",3000,0", "cuMemAlloc", 3000, 0);
    gpa("\"cuMemAlloc\",1000,0", "cuMemAlloc", 1000, 0);
    gpa("\"cuMemAlloc_v2\",13000,0", "cuMemAlloc_v2", 13000, 0);
    gpa("\"cuNoSuchThing\",13000,0", "cuNoSuchThing", 13000, 0);
    gpa("\"cuCtxCreate\",13000,0", "cuCtxCreate", 13000, 0);
    gpa("\"cuCtxCreate\",12050,0", "cuCtxCreate", 12050, 0);
    gpa("\"cuCtxCreate\",12000,0", "cuCtxCreate", 12000, 0);
    gpa("\"cuCtxCreate\",11000,0", "cuCtxCreate", 11000, 0);
    gpa("\"cuGetProcAddress\",13000,0", "cuGetProcAddress", 13000, 0);
    gpa("\"cuGetProcAddress\",11030,0", "cuGetProcAddress", 11030, 0);
    gpa("\"cuMemAlloc\",13000,flags 4", "cuMemAlloc", 13000, 4);
    gpa("\"cuMemAlloc\",13000,flags 1 LEGACY_STREAM", "cuMemAlloc", 13000, 1);
    gpa("\"cuMemAlloc\",13000,flags 2 PER_THREAD", "cuMemAlloc", 13000, 2);
    gpa("\"cuMemcpyHtoD\",13000,flags 2 PER_THREAD", "cuMemcpyHtoD", 13000, 2);
    gpa("\"cuMemAlloc\",0,0", "cuMemAlloc", 0, 0);
    gpa("\"cuMemAlloc\",-1,0", "cuMemAlloc", -1, 0);
    gpa("\"cuMemAlloc\",99999,0", "cuMemAlloc", 99999, 0);
    gpa("\"\",13000,0", "", 13000, 0);
    void *pfn = (void *)(uintptr_t)0xdead;
    CUresult r = cuGetProcAddress("cuMemAlloc", &pfn, 13000, 0, NULL);
    P("12.cuGetProcAddress(\"cuMemAlloc\",13000,0,status NULL)", r, "(pfn=%s)", symname(pfn));
    pfn = (void *)(uintptr_t)0xdead;
    r = cuGetProcAddress("cuNoSuchThing", &pfn, 13000, 0, NULL);
    P("12.cuGetProcAddress(\"cuNoSuchThing\",13000,0,status NULL)", r, "(pfn=%s)", symname(pfn));
    printf("12.(&cuMemAlloc_v2 == dlsym(\"cuMemAlloc_v2\"): %d)\n",
           (void *)&cuMemAlloc_v2 == dlsym(RTLD_DEFAULT, "cuMemAlloc_v2"));
    risky("gpa_null_symbol");
    risky("gpa_null_pfn");
}

static void pitch(const char *label, size_t w, size_t h, unsigned e)
{
    CUdeviceptr p = 0xdeadbeef;
    size_t pt = 0x2222;
    CUresult r = cuMemAllocPitch(&p, &pt, w, h, e);
    char name[128];
    snprintf(name, sizeof name, "13.cuMemAllocPitch(%s)", label);
    P(name, r, "(pitch=%zu p%s)", pt, p == 0xdeadbeef ? " unwritten" : p == 0 ? "=0" : " set");
}
static void g13(void)
{
    setup_ctx();
    pitch("w100,h10,e4", 100, 10, 4);
    pitch("w100,h10,e3", 100, 10, 3);
    pitch("w0,h10,e4", 0, 10, 4);
    pitch("w100,h0,e4", 100, 0, 4);
    pitch("w1,h1,e1", 1, 1, 1);
    pitch("w513,h2,e8", 513, 2, 8);
    pitch("w100,h10,e16", 100, 10, 16);
    pitch("w100,h10,e0", 100, 10, 0);
    pitch("w102,h10,e4 (w not multiple of e)", 102, 10, 4);
}

static void g14(void)
{
    setup_ctx();
    size_t fr = 0, to = 0;
    CUresult r = cuMemGetInfo(&fr, &to);
    P("14.cuMemGetInfo", r, "(free=%zu total=%zu)", fr, to);
    size_t t = 0;
    r = cuDeviceTotalMem(&t, g_dev);
    P("14.cuDeviceTotalMem", r, "(total=%zu)", t);
    CUdeviceptr p;
    die_if(cuMemAlloc(&p, 64 << 20), "alloc64M");
    size_t fr2 = 0;
    cuMemGetInfo(&fr2, &to);
    printf("14.free drop after cuMemAlloc(64MiB): %lld\n", (long long)fr - (long long)fr2);
    P0("14.cuMemGetInfo(NULL,&total)", cuMemGetInfo(NULL, &to));
    P0("14.cuMemGetInfo(&free,NULL)", cuMemGetInfo(&fr, NULL));
    int attr = 0;
    cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, g_dev);
    printf("14.(UNIFIED_ADDRESSING=%d", attr);
    cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, g_dev);
    printf(" TEXTURE_PITCH_ALIGNMENT=%d", attr);
    cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_MAX_PITCH, g_dev);
    printf(" MAX_PITCH=%d", attr);
    cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, g_dev);
    printf(" CAN_MAP_HOST_MEMORY=%d)\n", attr);
}

typedef void (*gfn)(void);
static const gfn groups[] = {NULL, g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11, g12, g13, g14};
#define NGROUPS ((int)(sizeof groups / sizeof groups[0]) - 1)

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 3 && strcmp(argv[1], "--group") == 0) {
        alarm(argc >= 4 ? (unsigned)atoi(argv[3]) : 120);
        int g = atoi(argv[2]);
        if (g >= 1 && g <= NGROUPS)
            groups[g]();
        fflush(stdout);
        _exit(0);
    }
    if (argc >= 3 && strcmp(argv[1], "--case") == 0) {
        alarm(argc >= 4 ? (unsigned)atoi(argv[3]) : 30);
        for (size_t i = 0; i < sizeof rcases / sizeof rcases[0]; i++)
            if (strcmp(rcases[i].name, argv[2]) == 0) {
                rcases[i].fn();
                fflush(stdout);
                _exit(0);
            }
        printf("%s: NO SUCH CASE\n", argv[2]);
        _exit(2);
    }
    printf("# foundation_probe: driver API behaviour (built with CUDA_VERSION %d headers)\n",
           CUDA_VERSION);
    spawn("--group", "1", "group-1", 120); /* fresh process, before any cuInit */
    /* keep the driver open in this process so that the many short children start faster */
    cuInit(0);
    for (int g = 2; g <= NGROUPS; g++) {
        char a[8], l[16];
        snprintf(a, sizeof a, "%d", g);
        snprintf(l, sizeof l, "group-%d", g);
        spawn("--group", a, l, 180);
    }
    printf("# done\n");
    return 0;
}
