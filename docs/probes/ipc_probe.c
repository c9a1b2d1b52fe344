/*
 * ipc_probe.c - what the real NVIDIA driver answers for legacy CUDA IPC: cuIpcGetMemHandle,
 * cuIpcOpenMemHandle (_v2), cuIpcCloseMemHandle, cuIpcGetEventHandle, cuIpcOpenEventHandle.
 *
 * Built against NVIDIA's own cuda.h and linked with -lcuda (NOT against extmem):
 *   gcc -std=gnu11 -O0 docs/probes/ipc_probe.c -I/usr/local/cuda/include -lcuda -o probe
 *
 * Output: one line per case, "N.case: RESULT_NAME (values)", N = the group.  Outputs are preset
 * to the sentinel 0xabababababababab (S) so that one sees what a failing call writes.
 * The main process is the exporter ("parent").  Every importer is a freshly exec'd copy of this
 * program (`probe --role NAME args...`; fork+exec, since CUDA is unusable in a bare fork of an
 * initialised process), which sets itself up from scratch (cuInit, cuCtxCreate on device 0).
 * 64-byte handles travel as 128 hex digits on the command line; roles that must take turns with
 * the parent talk over two pipes (fd 3: parent -> child, fd 4: child -> parent), one word a line.
 * A child that dies prints "ROLE: CRASHED signal N"; children kill themselves after 20 s (SIGALRM).
 *
 * Data pattern: the parent fills every allocation with 32-bit words tag<<24 | index, so a word
 * read in a child says which allocation and which offset it sees (a: tag A1, b: B1, s1: 51, s2: 52,
 * c: C1, E-exporters: E1/E2).
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define S 0xababababababababull
typedef unsigned long long ull;

static const char *rn(CUresult r)
{
    static char buf[8][64];
    static int slot;
    char *b = buf[slot++ & 7];
    const char *s = NULL;
    if (cuGetErrorName(r, &s) == CUDA_SUCCESS && s)
        snprintf(b, 64, "%s", s + (strncmp(s, "CUDA_ERROR_", 11) ? 0 : 11));
    else
        snprintf(b, 64, "code=%d", (int)r);
    return b;
}
#define T(label, call) do { CUresult r_ = (call); printf("%s: %s\n", label, rn(r_)); } while (0)
#define TV(label, call, fmt, ...) \
    do { CUresult r_ = (call); printf("%s: %s (" fmt ")\n", label, rn(r_), __VA_ARGS__); } while (0)
#define MUST(call) do { CUresult r_ = (call); if (r_) { printf("SETUP-FAILED line %d %s: %s\n", __LINE__, #call, rn(r_)); fflush(stdout); exit(3); } } while (0)

static CUdevice dev;
static CUcontext ctx;

static void setup(void)
{
    MUST(cuInit(0));
    MUST(cuDeviceGet(&dev, 0));
    MUST(cuCtxCreate(&ctx, NULL, 0, dev));
}
static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
    qsort(v, n, sizeof v[0], cmpd);
    return v[n / 2];
}

/* ---------- hex ---------- */
static char *hex(const void *p, size_t n)
{
    static char b[4][2 * 64 + 1];
    static int slot;
    char *o = b[slot++ & 3];
    const unsigned char *c = p;
    for (size_t i = 0; i < n && i < 64; i++) sprintf(o + 2 * i, "%02x", c[i]);
    o[2 * (n < 64 ? n : 64)] = 0;
    return o;
}
static void unhex(void *out, const char *s, size_t n)
{
    unsigned char *o = out;
    memset(o, 0, n);
    for (size_t i = 0; i < n && s[2 * i] && s[2 * i + 1]; i++) {
        unsigned v = 0;
        sscanf(s + 2 * i, "%2x", &v);
        o[i] = (unsigned char)v;
    }
}
static CUipcMemHandle mh(const char *s)
{
    CUipcMemHandle h;
    unhex(h.reserved, s, 64);
    return h;
}
static CUipcEventHandle eh_(const char *s)
{
    CUipcEventHandle h;
    unhex(h.reserved, s, 64);
    return h;
}

/* ---------- data ---------- */
static void fill(CUdeviceptr p, size_t bytes, unsigned tag)
{
    size_t n = bytes / 4;
    unsigned *w = malloc(n * 4);
    for (size_t i = 0; i < n; i++) w[i] = tag << 24 | (unsigned)i;
    MUST(cuMemcpyHtoD(p, w, n * 4));
    free(w);
}
static void rd(const char *label, CUdeviceptr p)
{
    unsigned w = 0xabababab;
    CUresult r = cuMemcpyDtoH(&w, p, 4);
    printf("%s: %s (word=%#x)\n", label, rn(r), w);
}

/* ---------- spawning ---------- */
struct kid { pid_t pid; int to, from; const char *role; };
static void reap(struct kid *k)
{
    if (k->to >= 0) close(k->to);
    if (k->from >= 0) close(k->from);
    k->to = k->from = -1;
    int st = 0;
    waitpid(k->pid, &st, 0);
    if (WIFSIGNALED(st))
        printf("%s: CRASHED signal %d (%s)%s\n", k->role, WTERMSIG(st), strsignal(WTERMSIG(st)),
               WTERMSIG(st) == SIGALRM ? " [hung: killed by the probe's timeout]" : "");
    else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
        printf("%s: child exit status %d\n", k->role, WEXITSTATUS(st));
    fflush(stdout);
}
/* spawn "probe --role ROLE args..." (args NULL-terminated); sync: set up fds 3/4 */
static struct kid spawnv(int sync, const char *role, const char *const *args)
{
    struct kid k = {-1, -1, -1, role};
    if (!strcmp(role, "open") && args && args[0]) k.role = args[0];
    int a[2] = {-1, -1}, b[2] = {-1, -1};
    if (sync && (pipe(a) || pipe(b))) { perror("pipe"); exit(4); }
    const char *av[16];
    int n = 0;
    av[n++] = "probe";
    av[n++] = "--role";
    av[n++] = role;
    while (args && *args && n < 15) av[n++] = *args++;
    av[n] = NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (sync) {
            int x = fcntl(a[0], F_DUPFD, 100), y = fcntl(b[1], F_DUPFD, 100);
            dup2(x, 3);
            dup2(y, 4);
            close(x); close(y); close(a[1]); close(b[0]);
            if (a[0] != 3 && a[0] != 4) close(a[0]);
            if (b[1] != 3 && b[1] != 4) close(b[1]);
        }
        execv("/proc/self/exe", (char *const *)av);
        _exit(127);
    }
    k.pid = pid;
    if (sync) {
        close(a[0]);
        close(b[1]);
        k.to = a[1];
        k.from = b[0];
    }
    return k;
}
#define SPAWN(sync, role, ...) spawnv(sync, role, (const char *const[]){__VA_ARGS__, NULL})
static void run1(const char *role, const char *const *args)
{
    struct kid k = spawnv(0, role, args);
    reap(&k);
}
#define RUN(role, ...) run1(role, (const char *const[]){__VA_ARGS__, NULL})

static int getline_fd(int fd, char *buf, size_t n)
{
    size_t i = 0;
    while (i + 1 < n) {
        char c;
        ssize_t r = read(fd, &c, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { buf[i] = 0; return i > 0; }
        if (c == '\n') break;
        buf[i++] = c;
    }
    buf[i] = 0;
    return 1;
}
static void sayfd(int fd, const char *w)
{
    fflush(stdout);
    char b[256];
    int n = snprintf(b, sizeof b, "%s\n", w);
    if (write(fd, b, n) != n) {}
}
/* parent side: wait for word w from the kid; 0 on EOF or mismatch */
static int kawait(struct kid *k, const char *w)
{
    char b[256];
    if (!getline_fd(k->from, b, sizeof b)) { printf("  # %s: EOF while waiting for '%s'\n", k->role, w); return 0; }
    if (strcmp(b, w)) { printf("  # %s: got '%s' instead of '%s'\n", k->role, b, w); return 0; }
    return 1;
}
/* child side */
static void say(const char *w) { sayfd(4, w); }
static void await(const char *w)
{
    char b[256];
    if (!getline_fd(3, b, sizeof b) || strcmp(b, w)) {
        printf("  # child: expected '%s', got '%s'\n", w, b);
        fflush(stdout);
        _exit(5);
    }
}

/* ---------- attributes ---------- */
static const char *attrname(int a)
{
    static const char *n[] = {"?", "CONTEXT", "MEMORY_TYPE", "DEVICE_POINTER", "HOST_POINTER", "P2P_TOKENS",
                              "SYNC_MEMOPS", "BUFFER_ID", "IS_MANAGED", "DEVICE_ORDINAL", "IS_LEGACY_CUDA_IPC_CAPABLE",
                              "RANGE_START_ADDR", "RANGE_SIZE", "MAPPED", "ALLOWED_HANDLE_TYPES",
                              "IS_GPU_DIRECT_RDMA_CAPABLE", "ACCESS_FLAGS", "MEMPOOL_HANDLE", "MAPPING_SIZE",
                              "MAPPING_BASE_ADDR", "MEMORY_BLOCK_ID"};
    return a > 0 && a <= 20 ? n[a] : "?";
}
static void attrs(const char *what, CUdeviceptr p)
{
    static const int list[] = {1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        ull v = S;
        CUresult r = cuPointerGetAttribute(&v, (CUpointer_attribute)list[i], p);
        printf("%s attr %s: %s (v=%#llx", what, attrname(list[i]), rn(r), v);
        if (v != S && (list[i] == 3 || list[i] == 11 || list[i] == 19)) printf(" =p%+lld", (long long)(v - p));
        if (list[i] == 1 && v != S) printf(" ==ctx:%d", (CUcontext)(uintptr_t)v == ctx);
        printf(")\n");
    }
}
static void legacy(const char *what, CUdeviceptr p)
{
    ull v = S;
    CUresult r = cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, p);
    printf("%s: %s (v=%#llx)\n", what, rn(r), v);
}
static void range(const char *what, CUdeviceptr p)
{
    CUdeviceptr b = S;
    size_t s = S;
    CUresult r = cuMemGetAddressRange(&b, &s, p);
    printf("%s cuMemGetAddressRange: %s (base=p%+lld size=%#zx)\n", what, rn(r), (long long)(b - p), s);
}
static void sleep300(void *u) { (void)u; usleep(300000); }

/* =================== roles (children) =================== */

/* open TAG HEX BASE FLAGS: for each flag of the comma list: open, describe, close */
static void role_open(char **av)
{
    const char *tag = av[0];
    CUipcMemHandle h = mh(av[1]);
    ull base = strtoull(av[2], NULL, 16);
    setup();
    char fl[64];
    snprintf(fl, sizeof fl, "%s", av[3]);
    for (char *t = strtok(fl, ","); t; t = strtok(NULL, ",")) {
        unsigned f = (unsigned)strtoul(t, NULL, 0);
        CUdeviceptr p = S;
        CUresult r = cuIpcOpenMemHandle(&p, h, f);
        printf("%s open flags=%u: %s (p=%#llx%s)\n", tag, f, rn(r), (ull)p,
               p == base ? " ==exporter's address" : (p == S ? "" : " !=exporter's address"));
        if (r == CUDA_SUCCESS) {
            char l[128];
            snprintf(l, sizeof l, "%s  ", tag);
            range(l, p);
            snprintf(l, sizeof l, "%s   read p+0", tag);
            rd(l, p);
            snprintf(l, sizeof l, "%s   read p+4096", tag);
            rd(l, p + 4096);
            snprintf(l, sizeof l, "%s   close", tag);
            T(l, cuIpcCloseMemHandle(p));
        }
    }
}
/* getodd: cuIpcGetMemHandle on addresses that are not cuMemAlloc memory */
static void role_getodd(char **av)
{
    (void)av;
    setup();
    CUipcMemHandle h;
    void *hp = NULL;
    MUST(cuMemAllocHost(&hp, 1 << 20));
    memset(&h, 0xab, sizeof h);
    TV("1.get cuMemAllocHost pointer", cuIpcGetMemHandle(&h, (CUdeviceptr)(uintptr_t)hp), "h=%s", hex(&h, 64));
    legacy("1.  IS_LEGACY_CUDA_IPC_CAPABLE of cuMemAllocHost", (CUdeviceptr)(uintptr_t)hp);

    /* VMM */
    CUmemAllocationProp pr;
    memset(&pr, 0, sizeof pr);
    pr.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    pr.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    pr.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    pr.location.id = 0;
    size_t G = 0;
    MUST(cuMemGetAllocationGranularity(&G, &pr, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle gh;
    MUST(cuMemCreate(&gh, G, &pr, 0));
    CUdeviceptr va = 0;
    MUST(cuMemAddressReserve(&va, G, 0, 0, 0));
    MUST(cuMemMap(va, G, 0, gh, 0));
    CUmemAccessDesc d;
    memset(&d, 0, sizeof d);
    d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = 0;
    d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    MUST(cuMemSetAccess(va, G, &d, 1));
    memset(&h, 0xab, sizeof h);
    TV("1.get VMM-mapped address (cuMemCreate+Map)", cuIpcGetMemHandle(&h, va), "h=%s", hex(&h, 64));
    legacy("1.  IS_LEGACY_CUDA_IPC_CAPABLE of VMM", va);

    /* stream-ordered (pool) memory */
    CUdeviceptr pa = 0;
    CUresult ra = cuMemAllocAsync(&pa, 2 << 20, NULL);
    cuStreamSynchronize(NULL);
    if (ra == CUDA_SUCCESS) {
        memset(&h, 0xab, sizeof h);
        TV("1.get cuMemAllocAsync pointer", cuIpcGetMemHandle(&h, pa), "h=%s", hex(&h, 64));
        legacy("1.  IS_LEGACY_CUDA_IPC_CAPABLE of cuMemAllocAsync", pa);
    } else printf("1.get cuMemAllocAsync pointer: SKIPPED (alloc %s)\n", rn(ra));

    memset(&h, 0xab, sizeof h);
    TV("1.get dptr 0", cuIpcGetMemHandle(&h, 0), "h=%s", hex(&h, 64));
    void *m = malloc(1 << 20);
    memset(&h, 0xab, sizeof h);
    TV("1.get malloc pointer", cuIpcGetMemHandle(&h, (CUdeviceptr)(uintptr_t)m), "h=%s", hex(&h, 64));
    CUdeviceptr x = 0;
    MUST(cuMemAlloc(&x, 2 << 20));
    MUST(cuMemFree(x));
    memset(&h, 0xab, sizeof h);
    TV("1.get freed cuMemAlloc pointer", cuIpcGetMemHandle(&h, x), "h=%s", hex(&h, 64));
}
static void role_getnull(char **av)
{
    (void)av;
    setup();
    CUdeviceptr a = 0;
    MUST(cuMemAlloc(&a, 2 << 20));
    T("1.get NULL out", cuIpcGetMemHandle(NULL, a));
}
static void role_nullp(char **av)
{
    CUipcMemHandle h = mh(av[0]);
    setup();
    T("2.open NULL pdptr (real handle, flags 1)", cuIpcOpenMemHandle(NULL, h, 1));
    T("2.close dptr 0", cuIpcCloseMemHandle(0));
}
/* imp3 HEX BASE: refcount, attributes, data */
static void role_imp3(char **av)
{
    CUipcMemHandle h = mh(av[0]);
    ull base = strtoull(av[1], NULL, 16);
    setup();
    CUdeviceptr p1 = S, p2 = S, p3 = S;
    TV("3.open #1", cuIpcOpenMemHandle(&p1, h, 1), "p1=%#llx %s", (ull)p1,
       p1 == base ? "==exporter's address" : "!=exporter's address");
    TV("3.open #2 (same handle, same context)", cuIpcOpenMemHandle(&p2, h, 1), "p2=%#llx same:%d", (ull)p2, p2 == p1);
    if (p1 == S) return;
    range("3.", p1);
    range("3.(p1+4096)", p1 + 4096);
    attrs("3.", p1);
    rd("3.read p1+0", p1);
    rd("3.read p1+4096", p1 + 4096);
    unsigned w = 0x12345678;
    T("3.child writes word0=0x12345678 (HtoD)", cuMemcpyHtoD(p1, &w, 4));
    T("3.child memsetD32 p1+8192 = 0xcafef00d x4", cuMemsetD32(p1 + 8192, 0xcafef00d, 4));
    T("3.child cuCtxSynchronize", cuCtxSynchronize());
    T("3.close p1+4096 (interior)", cuIpcCloseMemHandle(p1 + 4096));
    CUdeviceptr m = 0;
    MUST(cuMemAlloc(&m, 1 << 20));
    T("3.close a cuMemAlloc pointer (never opened)", cuIpcCloseMemHandle(m));
    rd("3.  that cuMemAlloc pointer still usable (DtoH)", m);
    T("3.close #1", cuIpcCloseMemHandle(p1));
    rd("3.  read after close #1", p1);
    range("3.  after close #1", p1);
    T("3.close #2", cuIpcCloseMemHandle(p1));
    rd("3.  read after close #2", p1);
    range("3.  after close #2", p1);
    T("3.close #3", cuIpcCloseMemHandle(p1));
    TV("3.re-open after all closes", cuIpcOpenMemHandle(&p3, h, 1), "p3=%#llx same as p1:%d", (ull)p3, p3 == p1);
    if (p3 != S) {
        rd("3.  read p3+0", p3);
        T("3.  close p3", cuIpcCloseMemHandle(p3));
    }
}
/* freeimp HEX: cuMemFree on an imported pointer */
static void role_freeimp(char **av)
{
    CUipcMemHandle h = mh(av[0]);
    setup();
    CUdeviceptr p = S;
    T("3.open (for cuMemFree test)", cuIpcOpenMemHandle(&p, h, 1));
    if (p == S) return;
    T("3.cuMemFree(opened pointer)", cuMemFree(p));
    rd("3.  read after cuMemFree", p);
    T("3.  cuIpcCloseMemHandle after cuMemFree", cuIpcCloseMemHandle(p));
}
/* ctx2 HEX: second context in the same process */
static void role_ctx2(char **av)
{
    CUipcMemHandle h = mh(av[0]);
    setup();
    CUcontext c1 = ctx, c2 = NULL;
    CUdeviceptr p1 = S, p2 = S, p3 = S;
    T("4.ctx1: open", cuIpcOpenMemHandle(&p1, h, 1));
    MUST(cuCtxCreate(&c2, NULL, 0, dev));
    TV("4.ctx2 (ctx1 still has it open): open", cuIpcOpenMemHandle(&p2, h, 1), "p2=%#llx same as p1:%d", (ull)p2,
       p2 == p1);
    if (p2 != S) {
        rd("4.  ctx2 read p2", p2);
        T("4.  ctx2 close p2", cuIpcCloseMemHandle(p2));
    }
    if (p1 != S) {
        rd("4.ctx2 current: read p1 (opened by ctx1)", p1);
        ull v = S;
        CUresult r = cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_CONTEXT, p1);
        printf("4.ctx2 current: CONTEXT attr of p1: %s (==ctx1:%d ==ctx2:%d)\n", rn(r),
               (CUcontext)(uintptr_t)v == c1, (CUcontext)(uintptr_t)v == c2);
    }
    MUST(cuCtxSetCurrent(c1));
    if (p1 != S) T("4.ctx1: close p1", cuIpcCloseMemHandle(p1));
    MUST(cuCtxSetCurrent(c2));
    TV("4.ctx2 after ctx1 closed: open", cuIpcOpenMemHandle(&p3, h, 1), "p3=%#llx same as p1:%d", (ull)p3, p3 == p1);
    if (p3 != S) {
        rd("4.  ctx2 read p3", p3);
        MUST(cuCtxSetCurrent(c1));
        CUdeviceptr p4 = S;
        TV("4.  ctx1 open while ctx2 holds it", cuIpcOpenMemHandle(&p4, h, 1), "p4=%#llx", (ull)p4);
        if (p4 != S) T("4.    ctx1 close p4", cuIpcCloseMemHandle(p4));
        T("4.  ctx1 current: close p3 (ctx2's)", cuIpcCloseMemHandle(p3));
        MUST(cuCtxSetCurrent(c2));
        T("4.  ctx2 close p3", cuIpcCloseMemHandle(p3));
    }
}
/* exp: exporter that is not the main process.  mode "exit": hand the handle, exit.
 * mode "wait": hand the handle, wait for "free", cuMemFree, exit. */
static void role_exp(char **av)
{
    int wait_ = !strcmp(av[0], "wait");
    setup();
    CUdeviceptr a = 0;
    MUST(cuMemAlloc(&a, 2 << 20));
    fill(a, 2 << 20, wait_ ? 0xE2 : 0xE1);
    CUipcMemHandle h;
    MUST(cuIpcGetMemHandle(&h, a));
    char line[200];
    snprintf(line, sizeof line, "%s %llx", hex(&h, 64), (ull)a);
    say(line);
    if (wait_) {
        await("free");
        T("5.exporter cuMemFree (child has it open)", cuMemFree(a));
        fflush(stdout);
        say("freed");
    }
    fflush(stdout);
    _exit(0); /* no cleanup: the process is simply gone */
}
/* hold HEX: open, tell the parent, wait, use after the exporter freed and exited */
static void role_hold(char **av)
{
    CUipcMemHandle h = mh(av[0]);
    setup();
    CUdeviceptr p = S;
    CUresult r = cuIpcOpenMemHandle(&p, h, 1);
    printf("5.hold: open: %s\n", rn(r));
    if (r == CUDA_SUCCESS) rd("5.hold: read p+0 (exporter alive)", p);
    say("opened");
    await("go");
    if (r != CUDA_SUCCESS) return;
    rd("5.hold: read p+0 after exporter freed + exited", p);
    rd("5.hold: read p+4096 after exporter freed + exited", p + 4096);
    T("5.hold: memsetD32 after exporter gone", cuMemsetD32(p, 0x77777777, 4));
    T("5.hold: cuCtxSynchronize", cuCtxSynchronize());
    rd("5.hold: read back", p);
    range("5.hold:", p);
    T("5.hold: close", cuIpcCloseMemHandle(p));
    T("5.hold: close again", cuIpcCloseMemHandle(p));
}
/* evimp HEX: open an IPC event and use it while the parent records it */
static void role_evimp(char **av)
{
    CUipcEventHandle h = eh_(av[0]);
    setup();
    CUevent e = (CUevent)(uintptr_t)S;
    CUresult r = cuIpcOpenEventHandle(&e, h);
    printf("6.child cuIpcOpenEventHandle: %s (e=%p)\n", rn(r), (void *)e);
    if (r != CUDA_SUCCESS) { say("failed"); return; }
    T("6.child cuEventQuery (parent never recorded yet)", cuEventQuery(e));
    say("opened");
    /* round 1: parent: host func sleeping 300 ms, then cuEventRecord */
    await("go1");
    CUresult q = cuEventQuery(e);
    double t0 = now_us();
    CUresult sy = cuEventSynchronize(e);
    double t1 = now_us();
    CUresult q2 = cuEventQuery(e);
    printf("6.child query while pending: %s\n", rn(q));
    printf("6.child cuEventSynchronize: %s (waited %.0f ms)\n", rn(sy), (t1 - t0) / 1e3);
    printf("6.child query after synchronize: %s\n", rn(q2));
    say("done1");
    /* round 2: cuStreamWaitEvent */
    CUstream cs;
    MUST(cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = 0;
    MUST(cuMemAlloc(&d, 4096));
    await("go2");
    CUresult w = cuStreamWaitEvent(cs, e, 0);
    CUresult ms = cuMemsetD8Async(d, 1, 16, cs);
    CUresult sq = cuStreamQuery(cs);
    t0 = now_us();
    CUresult ss = cuStreamSynchronize(cs);
    t1 = now_us();
    printf("6.child cuStreamWaitEvent (event pending): %s\n", rn(w));
    printf("6.child   memsetD8Async behind it: %s; cuStreamQuery: %s\n", rn(ms), rn(sq));
    printf("6.child   cuStreamSynchronize: %s (waited %.0f ms)\n", rn(ss), (t1 - t0) / 1e3);
    say("done2");
    /* round 3: record in the child (behind a 300 ms host function) */
    T("6.child cuLaunchHostFunc(sleep 300 ms)", cuLaunchHostFunc(cs, sleep300, NULL));
    T("6.child cuEventRecord on the opened event", cuEventRecord(e, cs));
    T("6.child   cuEventQuery right after", cuEventQuery(e));
    say("recorded");
    await("checked");
    T("6.child cuStreamSynchronize", cuStreamSynchronize(cs));
    float f = -1;
    TV("6.child cuEventElapsedTime(e, e)", cuEventElapsedTime(&f, e, e), "ms=%g", f);
    CUevent mine;
    MUST(cuEventCreate(&mine, 0));
    MUST(cuEventRecord(mine, cs));
    MUST(cuEventSynchronize(mine));
    f = -1;
    TV("6.child cuEventElapsedTime(own timing event, e)", cuEventElapsedTime(&f, mine, e), "ms=%g", f);
    CUipcEventHandle h2;
    memset(&h2, 0xab, sizeof h2);
    TV("6.child cuIpcGetEventHandle on the opened event", cuIpcGetEventHandle(&h2, e), "same as parent's:%d",
       !memcmp(&h2, &h, sizeof h));
    T("6.child cuEventDestroy on the opened event", cuEventDestroy(e));
    CUevent e2 = (CUevent)(uintptr_t)S;
    r = cuIpcOpenEventHandle(&e2, h);
    printf("6.child re-open after destroy: %s (same CUevent value:%d)\n", rn(r), e2 == e);
    CUevent e3 = (CUevent)(uintptr_t)S;
    r = cuIpcOpenEventHandle(&e3, h);
    printf("6.child open a second time while open: %s (same CUevent value:%d)\n", rn(r), e3 == e2);
    if (e3 != (CUevent)(uintptr_t)S) T("6.child   destroy second", cuEventDestroy(e3));
    if (e2 != (CUevent)(uintptr_t)S) T("6.child   destroy first", cuEventDestroy(e2));
}
static void role_evnull(char **av)
{
    (void)av;
    setup();
    CUevent e;
    MUST(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS));
    T("6.cuIpcGetEventHandle NULL out", cuIpcGetEventHandle(NULL, e));
    CUipcEventHandle h;
    MUST(cuIpcGetEventHandle(&h, e));
    T("6.cuIpcOpenEventHandle NULL out (own handle)", cuIpcOpenEventHandle(NULL, h));
}
static void role_evzero(char **av)
{
    (void)av;
    setup();
    CUipcEventHandle h;
    memset(&h, 0, sizeof h);
    CUevent e = (CUevent)(uintptr_t)S;
    CUresult r = cuIpcOpenEventHandle(&e, h);
    printf("6.cuIpcOpenEventHandle all-zero handle (child): %s (e=%p)\n", rn(r), (void *)e);
}
/* timing MEMHEX EVHEX */
static void role_timing(char **av)
{
    CUipcMemHandle h = mh(av[0]);
    CUipcEventHandle eh = eh_(av[1]);
    setup();
    enum { N = 41 };
    double o[N], c[N], pc[N], eo[N];
    for (int i = 0; i < N; i++) {
        CUdeviceptr p = 0;
        double t0 = now_us();
        CUresult r1 = cuIpcOpenMemHandle(&p, h, 1);
        double t1 = now_us();
        CUresult r2 = cuIpcCloseMemHandle(p);
        double t2 = now_us();
        if (r1 || r2) { printf("8.timing: open %s close %s at i=%d\n", rn(r1), rn(r2), i); return; }
        o[i] = t1 - t0; c[i] = t2 - t1; pc[i] = t2 - t0;
        if (i == 0) printf("8.first open (cold) %.1f us, close %.1f us\n", o[0], c[0]);
    }
    printf("8.cuIpcOpenMemHandle (child, median of 41): %.1f us\n", median(o, N));
    printf("8.cuIpcCloseMemHandle (child, median of 41): %.1f us\n", median(c, N));
    printf("8.open + close (child, median of 41): %.1f us\n", median(pc, N));
    for (int i = 0; i < N; i++) {
        CUevent e;
        double t0 = now_us();
        CUresult r1 = cuIpcOpenEventHandle(&e, eh);
        CUresult r2 = cuEventDestroy(e);
        eo[i] = now_us() - t0;
        if (r1 || r2) { printf("8.timing: event open %s destroy %s at i=%d\n", rn(r1), rn(r2), i); return; }
    }
    printf("8.cuIpcOpenEventHandle + cuEventDestroy (child, median of 41): %.1f us\n", median(eo, N));
}

struct role { const char *name; void (*fn)(char **); int nargs; };
static const struct role roles[] = {
    {"open", role_open, 4},     {"getodd", role_getodd, 0}, {"getnull", role_getnull, 0}, {"nullp", role_nullp, 1},
    {"imp3", role_imp3, 2},     {"freeimp", role_freeimp, 1}, {"ctx2", role_ctx2, 1},     {"exp", role_exp, 1},
    {"hold", role_hold, 1},     {"evimp", role_evimp, 1},   {"evnull", role_evnull, 0},   {"evzero", role_evzero, 0},
    {"timing", role_timing, 2},
};

/* =================== the parent =================== */
static char abuf[32];
static const char *ax(CUdeviceptr p)
{
    snprintf(abuf, sizeof abuf, "%llx", (ull)p);
    return abuf;
}
static CUipcMemHandle getmh(const char *label, CUdeviceptr p, CUresult *rout)
{
    CUipcMemHandle h;
    memset(&h, 0xab, sizeof h);
    CUresult r = cuIpcGetMemHandle(&h, p);
    printf("%s: %s (h=%s)\n", label, rn(r), hex(&h, 64));
    if (rout) *rout = r;
    return h;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 3 && !strcmp(argv[1], "--role")) {
        alarm(20);
        for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++)
            if (!strcmp(roles[i].name, argv[2])) {
                if (argc - 3 < roles[i].nargs) { printf("%s: too few args\n", argv[2]); _exit(2); }
                roles[i].fn(argv + 3);
                fflush(stdout);
                _exit(0);
            }
        printf("%s: NO SUCH ROLE\n", argv[2]);
        _exit(2);
    }
    alarm(100);
    int dv = 0;
    cuDriverGetVersion(&dv);
    printf("# ipc_probe (CUDA_VERSION %d headers, driver %d)\n", CUDA_VERSION, dv);
    setup();
    char name[128] = "?";
    cuDeviceGetName(name, sizeof name, dev);
    printf("# device 0: %s\n", name);

    /* ---- 7 ---- */
    printf("## 7. capability\n");
    int v = -1;
    TV("7.cuDeviceGetAttribute IPC_EVENT_SUPPORTED", cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, dev),
       "v=%d", v);
    v = -1;
    TV("7.cuDeviceGetAttribute UNIFIED_ADDRESSING", cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, dev),
       "v=%d", v);

    /* ---- 1 ---- */
    printf("## 1. cuIpcGetMemHandle\n");
    const size_t A = 4 << 20;
    CUdeviceptr a = 0, b = 0, s1 = 0, s2 = 0;
    MUST(cuMemAlloc(&a, A));
    MUST(cuMemAlloc(&b, A));
    MUST(cuMemAlloc(&s1, 1000));
    MUST(cuMemAlloc(&s2, 1000));
    fill(a, A, 0xA1);
    fill(b, A, 0xB1);
    fill(s1, 1000, 0x51);
    fill(s2, 1000, 0x52);
    printf("  # a=%#llx b=%#llx (4 MiB each), s1=%#llx s2=%#llx (1000 bytes each; s2-s1=%lld)\n", (ull)a, (ull)b,
           (ull)s1, (ull)s2, (long long)(s2 - s1));
    CUipcMemHandle ha = getmh("1.get a", a, NULL);
    CUipcMemHandle hb = getmh("1.get b", b, NULL);
    CUipcMemHandle ha2 = getmh("1.get a again", a, NULL);
    CUipcMemHandle hs1 = getmh("1.get s1 (1000 B)", s1, NULL);
    CUipcMemHandle hs2 = getmh("1.get s2 (1000 B)", s2, NULL);
    printf("1.deterministic (a twice equal): %d; a==b: %d; s1==s2: %d\n", !memcmp(&ha, &ha2, 64), !memcmp(&ha, &hb, 64),
           !memcmp(&hs1, &hs2, 64));
    {
        int diff[64], nd = 0;
        for (int i = 0; i < 64; i++)
            if (ha.reserved[i] != hb.reserved[i]) diff[nd++] = i;
        printf("1.bytes where a and b differ:");
        for (int i = 0; i < nd; i++) printf(" %d", diff[i]);
        printf("\n1.bytes where s1 and s2 differ:");
        for (int i = 0; i < 64; i++)
            if (hs1.reserved[i] != hs2.reserved[i]) printf(" %d", i);
        printf("\n");
    }
    CUresult ri;
    CUipcMemHandle hi = getmh("1.get a+4096 (interior)", a + 4096, &ri);
    if (ri == CUDA_SUCCESS) printf("1.  interior handle == handle of a: %d\n", !memcmp(&hi, &ha, 64));
    CUresult ri1;
    CUipcMemHandle hi1 = getmh("1.get a+1", a + 1, &ri1);
    if (ri1 == CUDA_SUCCESS) printf("1.  a+1 handle == handle of a: %d\n", !memcmp(&hi1, &ha, 64));
    CUresult rend;
    getmh("1.get a+4MiB-1 (last byte)", a + A - 1, &rend);
    legacy("7.IS_LEGACY_CUDA_IPC_CAPABLE of cuMemAlloc (a)", a);
    legacy("7.IS_LEGACY_CUDA_IPC_CAPABLE of cuMemAlloc (s1, 1000 B)", s1);
    legacy("7.IS_LEGACY_CUDA_IPC_CAPABLE of a+4096", a + 4096);
    if (ri == CUDA_SUCCESS) RUN("open", "1.open interior handle (child)", hex(&hi, 64), ax(a), "1");
    RUN("open", "1.open s2 handle (child)", hex(&hs2, 64), ax(s2), "1");
    /* b freed and reallocated */
    MUST(cuMemFree(b));
    CUdeviceptr b2 = 0;
    MUST(cuMemAlloc(&b2, A));
    fill(b2, A, 0xB2);
    CUipcMemHandle hb2 = getmh("1.get b2 (b freed, re-allocated)", b2, NULL);
    printf("1.  b2 at b's address: %d; handle(b2) == handle(b): %d\n", b2 == b, !memcmp(&hb2, &hb, 64));
    RUN("open", "1.open OLD handle of b after b freed and b2 allocated at the same place (child)", hex(&hb, 64), ax(b),
        "1");
    RUN("getodd", "getodd");
    RUN("getnull", "getnull");

    /* ---- 2 ---- */
    printf("## 2. cuIpcOpenMemHandle\n");
    {
        CUdeviceptr p = S;
        CUresult r = cuIpcOpenMemHandle(&p, ha, 1);
        printf("2.open own handle, same process, flags 1: %s (p=%#llx)\n", rn(r), (ull)p);
        if (r == CUDA_SUCCESS) T("2.  close", cuIpcCloseMemHandle(p));
        p = S;
        r = cuIpcOpenMemHandle(&p, ha, 0);
        printf("2.open own handle, same process, flags 0: %s (p=%#llx)\n", rn(r), (ull)p);
        if (r == CUDA_SUCCESS) T("2.  close", cuIpcCloseMemHandle(p));
        p = S;
        r = cuIpcOpenMemHandle(&p, ha, 2);
        printf("2.open own handle, same process, flags 2: %s (p=%#llx)\n", rn(r), (ull)p);
    }
    RUN("open", "2.child", hex(&ha, 64), ax(a), "2,3,0xffffffff,0,1");
    {
        CUipcMemHandle z, rnd, f1, f63;
        memset(&z, 0, sizeof z);
        ull x = 0x9e3779b97f4a7c15ull;
        for (int i = 0; i < 64; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            rnd.reserved[i] = (char)(x >> 24);
        }
        int fi = 0;
        while (fi < 64 && ha.reserved[fi] == hb.reserved[fi]) fi++;
        if (fi == 64) fi = 0;
        f1 = ha;
        f1.reserved[fi] ^= (char)0xff;
        f63 = ha;
        f63.reserved[63] ^= (char)0xff;
        RUN("open", "2.all-zero handle (child)", hex(&z, 64), "0", "1");
        printf("  # random handle = %s\n", hex(&rnd, 64));
        RUN("open", "2.random handle (child)", hex(&rnd, 64), "0", "1");
        char lab[96];
        snprintf(lab, sizeof lab, "2.handle of a with byte %d ^0xff (first byte where a/b differ) (child)", fi);
        RUN("open", lab, hex(&f1, 64), ax(a), "1");
        RUN("open", "2.handle of a with byte 63 ^0xff (child)", hex(&f63, 64), ax(a), "1");
    }
    RUN("nullp", hex(&ha, 64));

    /* ---- 3 ---- */
    printf("## 3. refcount, attributes, data\n");
    RUN("imp3", hex(&ha, 64), ax(a));
    {
        unsigned w0 = 0, w1 = 0;
        T("3.parent reads a+0 after the child exited", cuMemcpyDtoH(&w0, a, 4));
        T("3.parent reads a+8192", cuMemcpyDtoH(&w1, a + 8192, 4));
        printf("3.  words: a+0=%#x (child wrote 0x12345678) a+8192=%#x (child wrote 0xcafef00d)\n", w0, w1);
    }
    RUN("freeimp", hex(&hb2, 64));
    rd("3.parent reads b2+0 after the child's cuMemFree of its import", b2);

    /* ---- 4 ---- */
    printf("## 4. second context in the importing process\n");
    RUN("ctx2", hex(&ha, 64));

    /* ---- 5 ---- */
    printf("## 5. faults\n");
    {
        CUdeviceptr c = 0;
        MUST(cuMemAlloc(&c, 2 << 20));
        fill(c, 2 << 20, 0xC1);
        CUipcMemHandle hc = getmh("5.get c", c, NULL);
        T("5.parent cuMemFree(c)", cuMemFree(c));
        RUN("open", "5.open handle of freed c (child)", hex(&hc, 64), ax(c), "1");
    }
    {
        struct kid e = SPAWN(1, "exp", "exit");
        char line[256] = "";
        int ok = getline_fd(e.from, line, sizeof line);
        reap(&e);
        printf("5.exporter process exited (got handle: %d)\n", ok);
        if (ok) {
            char hx[129], bs[40] = "0";
            sscanf(line, "%128s %39s", hx, bs);
            RUN("open", "5.open handle of an exited exporter (child)", hx, bs, "1");
        }
    }
    {
        struct kid e = SPAWN(1, "exp", "wait");
        char line[256] = "";
        if (getline_fd(e.from, line, sizeof line)) {
            char hx[129];
            sscanf(line, "%128s", hx);
            struct kid h = SPAWN(1, "hold", hx);
            if (kawait(&h, "opened")) {
                sayfd(e.to, "free");
                kawait(&e, "freed");
                reap(&e);
                printf("5.exporter freed and exited\n");
                sayfd(h.to, "go");
            }
            reap(&h);
        }
        if (e.pid > 0 && e.to >= 0) reap(&e);
    }

    /* ---- 6 ---- */
    printf("## 6. events\n");
    {
        CUevent e = NULL, e2 = NULL, e3 = NULL, e4 = NULL;
        T("6.cuEventCreate DISABLE_TIMING|INTERPROCESS", cuEventCreate(&e, CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS));
        CUipcEventHandle eh, eh2, x;
        memset(&eh, 0xab, sizeof eh);
        TV("6.cuIpcGetEventHandle", cuIpcGetEventHandle(&eh, e), "h=%s", hex(&eh, 64));
        memset(&eh2, 0xab, sizeof eh2);
        TV("6.cuIpcGetEventHandle again", cuIpcGetEventHandle(&eh2, e), "h=%s same:%d", hex(&eh2, 64),
           !memcmp(&eh, &eh2, 64));
        CUevent ef = NULL;
        MUST(cuEventCreate(&ef, CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS));
        memset(&x, 0xab, sizeof x);
        TV("6.cuIpcGetEventHandle of a second IPC event", cuIpcGetEventHandle(&x, ef), "h=%s", hex(&x, 64));
        T("6.cuEventCreate 0", cuEventCreate(&e2, 0));
        memset(&x, 0xab, sizeof x);
        TV("6.cuIpcGetEventHandle on an event without INTERPROCESS", cuIpcGetEventHandle(&x, e2), "h=%s", hex(&x, 64));
        CUresult r3 = cuEventCreate(&e3, CU_EVENT_INTERPROCESS);
        printf("6.cuEventCreate INTERPROCESS without DISABLE_TIMING: %s\n", rn(r3));
        T("6.cuEventCreate DISABLE_TIMING", cuEventCreate(&e4, CU_EVENT_DISABLE_TIMING));
        memset(&x, 0xab, sizeof x);
        TV("6.cuIpcGetEventHandle on DISABLE_TIMING only", cuIpcGetEventHandle(&x, e4), "h=%s", hex(&x, 64));
        CUevent oe = (CUevent)(uintptr_t)S;
        CUresult r = cuIpcOpenEventHandle(&oe, eh);
        printf("6.cuIpcOpenEventHandle own handle, same process: %s (oe=%p ==e:%d)\n", rn(r), (void *)oe, oe == e);
        RUN("evnull", "evnull");
        RUN("evzero", "evzero");

        CUstream s;
        MUST(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
        struct kid k = SPAWN(1, "evimp", hex(&eh, 64));
        if (kawait(&k, "opened")) {
            T("6.parent cuLaunchHostFunc(sleep 300 ms)", cuLaunchHostFunc(s, sleep300, NULL));
            T("6.parent cuEventRecord(e) behind it", cuEventRecord(e, s));
            sayfd(k.to, "go1");
            if (kawait(&k, "done1")) {
                cuStreamSynchronize(s);
                cuLaunchHostFunc(s, sleep300, NULL);
                cuEventRecord(e, s);
                sayfd(k.to, "go2");
                if (kawait(&k, "done2")) {
                    cuStreamSynchronize(s);
                    if (kawait(&k, "recorded")) {
                        CUresult q = cuEventQuery(e);
                        double t0 = now_us();
                        CUresult sy = cuEventSynchronize(e);
                        double t1 = now_us();
                        printf("6.parent cuEventQuery(e) after the child recorded it (child's stream sleeping): %s\n", rn(q));
                        printf("6.parent cuEventSynchronize(e): %s (waited %.0f ms)\n", rn(sy), (t1 - t0) / 1e3);
                        sayfd(k.to, "checked");
                    }
                }
            }
        }
        reap(&k);
        cuStreamSynchronize(s);

        /* ---- 8 ---- */
        printf("## 8. timing\n");
        enum { N = 41 };
        double t[N], te[N];
        for (int i = 0; i < N; i++) {
            CUipcMemHandle h;
            double t0 = now_us();
            cuIpcGetMemHandle(&h, a);
            t[i] = now_us() - t0;
            t0 = now_us();
            cuIpcGetEventHandle(&x, e);
            te[i] = now_us() - t0;
        }
        printf("8.cuIpcGetMemHandle (parent, median of 41): %.2f us\n", median(t, N));
        printf("8.cuIpcGetEventHandle (parent, median of 41): %.2f us\n", median(te, N));
        RUN("timing", hex(&ha, 64), hex(&eh, 64));
    }
    printf("# done\n");
    return 0;
}
