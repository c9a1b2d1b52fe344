/*
 * vmm_extmem_probe.c - what the real NVIDIA driver answers for the VMM calls (cuMemCreate,
 * cuMemAddressReserve, cuMemMap, cuMemSetAccess, ...) and for external memory
 * (cuImportExternalMemory, cuExternalMemoryGetMappedBuffer, cuDestroyExternalMemory).
 *
 * Built against NVIDIA's own cuda.h and linked with -lcuda (NOT against extmem):
 *   gcc -std=gnu11 -O0 docs/probes/vmm_extmem_probe.c -I/usr/local/cuda/include -lcuda -o probe
 *
 * Output: one line per case, "case: RESULT_NAME (values)".  G = the MINIMUM granularity.
 * "R" in values = the base of the case's reservation.  Outputs are preset to the sentinel
 * 0xabababababababab (S) so that one sees what a failing call writes.
 * Each group runs in a freshly exec'd copy of this program; cases that may crash run in their
 * own exec'd copy (`probe --case NAME`), which sets itself up from scratch.  A copy that dies
 * prints "NAME: CRASHED signal N".  (fork+exec, not a bare fork: CUDA is unusable in a forked
 * child whose parent has initialised it.)
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define S 0xababababababababull
typedef unsigned long long ull;
typedef CUmemGenericAllocationHandle H;

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
/* T: print the code.  TV: the code and values (evaluated after the call). */
#define T(label, call) do { CUresult r_ = (call); printf("%s: %s\n", label, rn(r_)); } while (0)
#define TV(label, call, fmt, ...) \
    do { CUresult r_ = (call); printf("%s: %s (" fmt ")\n", label, rn(r_), __VA_ARGS__); } while (0)
#define NOTE(...) do { printf("  # " __VA_ARGS__); printf("\n"); } while (0)
#define MUST(call) do { CUresult r_ = (call); if (r_) { printf("SETUP-FAILED line %d %s: %s\n", __LINE__, #call, rn(r_)); exit(3); } } while (0)

static CUdevice dev;
static CUcontext ctx;
static size_t G;

static CUmemAllocationProp prop0(void)
{
    CUmemAllocationProp p;
    memset(&p, 0, sizeof p);
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}
static void setup(void)
{
    MUST(cuInit(0));
    MUST(cuDeviceGet(&dev, 0));
    MUST(cuCtxCreate(&ctx, NULL, 0, dev));
    CUmemAllocationProp p = prop0();
    MUST(cuMemGetAllocationGranularity(&G, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
}
static H mk(size_t size)
{
    H h = S;
    CUmemAllocationProp p = prop0();
    MUST(cuMemCreate(&h, size, &p, 0));
    return h;
}
static CUdeviceptr rsv(size_t size)
{
    CUdeviceptr p = 0;
    MUST(cuMemAddressReserve(&p, size, 0, 0, 0));
    return p;
}
static CUmemAccessDesc ad(unsigned long long fl)
{
    CUmemAccessDesc d;
    memset(&d, 0, sizeof d);
    d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = 0;
    d.flags = (CUmemAccess_flags)fl;
    return d;
}
static CUresult acc(CUdeviceptr p, size_t size, unsigned long long fl)
{
    CUmemAccessDesc d = ad(fl);
    return cuMemSetAccess(p, size, &d, 1);
}
/* a fully usable mapping: create + reserve(rsize) + map(size) + RW access; handle out */
static CUdeviceptr full(size_t size, size_t rsize, H *hout)
{
    H h = mk(size);
    CUdeviceptr r = rsv(rsize);
    MUST(cuMemMap(r, size, 0, h, 0));
    MUST(acc(r, size, 3));
    if (hout) *hout = h;
    return r;
}
static CUdeviceptr free_va(size_t size) /* an aligned address that is not reserved now */
{
    CUdeviceptr p = rsv(size);
    MUST(cuMemAddressFree(p, size));
    return p;
}
static int ctz(ull v) { return v ? __builtin_ctzll(v) : -1; }
static char *fdinfo(int fd)
{
    static char b[4][300];
    static int slot;
    char *o = b[slot++ & 3];
    int fl = fcntl(fd, F_GETFD);
    if (fl < 0) { snprintf(o, 300, "fd %d CLOSED", fd); return o; }
    char path[64], link[200] = "?";
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (n >= 0) link[n] = 0;
    struct stat st;
    memset(&st, 0, sizeof st);
    fstat(fd, &st);
    off_t end = lseek(fd, 0, SEEK_END);
    snprintf(o, 300, "fd %d open cloexec=%d flflags=0%o link=\"%s\" mode=0%o size=%lld seek_end=%lld", fd,
             !!(fl & FD_CLOEXEC), fcntl(fd, F_GETFL), link, (unsigned)st.st_mode, (long long)st.st_size,
             (long long)end);
    return o;
}
static int closed_fd(void)
{
    int fd = open("/dev/null", O_RDONLY);
    close(fd);
    return fd;
}
static int mfd(size_t size)
{
    int fd = memfd_create("probe", 0);
    if (ftruncate(fd, (off_t)size)) perror("ftruncate");
    return fd;
}
static int xport(H h)
{
    int fd = -77;
    MUST(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    return fd;
}
static const char *attrname(int a)
{
    static const char *n[] = {"?", "CONTEXT", "MEMORY_TYPE", "DEVICE_POINTER", "HOST_POINTER", "P2P_TOKENS",
                              "SYNC_MEMOPS", "BUFFER_ID", "IS_MANAGED", "DEVICE_ORDINAL", "IS_LEGACY_IPC",
                              "RANGE_START_ADDR", "RANGE_SIZE", "MAPPED", "ALLOWED_HANDLE_TYPES",
                              "IS_GPU_DIRECT_RDMA_CAPABLE", "ACCESS_FLAGS", "MEMPOOL_HANDLE", "MAPPING_SIZE",
                              "MAPPING_BASE_ADDR", "MEMORY_BLOCK_ID"};
    return a > 0 && a <= 20 ? n[a] : "?";
}
/* every pointer attribute that takes a plain scalar; base = the address to print values relative to */
static void attrs(const char *what, CUdeviceptr p, CUdeviceptr base)
{
    static const int list[] = {1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        ull v = S;
        CUresult r = cuPointerGetAttribute(&v, (CUpointer_attribute)list[i], p);
        printf("%s attr %s: %s (v=%#llx", what, attrname(list[i]), rn(r), v);
        if (v != S && (list[i] == 3 || list[i] == 11 || list[i] == 19)) printf(" =R%+lld", (long long)(v - base));
        if (list[i] == 1 && v != S) printf(" ==ctx:%d", (CUcontext)(uintptr_t)v == ctx);
        printf(")\n");
    }
}
static void range(const char *what, CUdeviceptr p, CUdeviceptr base)
{
    CUdeviceptr b = S;
    size_t s = S;
    CUresult r = cuMemGetAddressRange(&b, &s, p);
    printf("%s cuMemGetAddressRange: %s (base=%#llx =R%+lld size=%#zx)\n", what, rn(r), (ull)b,
           (long long)(b - base), s);
}
static void props(const char *what, H h)
{
    CUmemAllocationProp p;
    memset(&p, 0xab, sizeof p);
    CUresult r = cuMemGetAllocationPropertiesFromHandle(&p, h);
    printf("%s: %s (type=%d reqHandleTypes=%#x loc.type=%d loc.id=%d win32meta=%p compression=%u gdrdma=%u usage=%u "
           "reserved=%02x%02x%02x%02x)\n",
           what, rn(r), (int)p.type, (unsigned)p.requestedHandleTypes, (int)p.location.type, p.location.id,
           p.win32HandleMetaData, p.allocFlags.compressionType, p.allocFlags.gpuDirectRDMACapable,
           p.allocFlags.usage, p.allocFlags.reserved[0], p.allocFlags.reserved[1], p.allocFlags.reserved[2],
           p.allocFlags.reserved[3]);
}
static void getacc(const char *what, CUdeviceptr p)
{
    ull fl = S;
    CUmemLocation l = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    CUresult r = cuMemGetAccess(&fl, &l, p);
    printf("%s cuMemGetAccess: %s (flags=%#llx)\n", what, rn(r), fl);
}
static void mapped_attr(const char *what, CUdeviceptr p)
{
    ull v = S;
    CUresult r = cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_MAPPED, p);
    printf("%s MAPPED attr: %s (v=%#llx)\n", what, rn(r), v);
}
/* map, print, and undo on unexpected success */
static void mapc(const char *label, CUdeviceptr p, size_t size, size_t off, H h, ull flags)
{
    CUresult r = cuMemMap(p, size, off, h, flags);
    printf("%s: %s\n", label, rn(r));
    if (r == CUDA_SUCCESS) printf("  # (undo) cuMemUnmap: %s\n", rn(cuMemUnmap(p, size)));
}

/* ---------- spawning ---------- */
static void spawn(const char *mode, const char *arg, unsigned timeout)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char t[16];
        snprintf(t, sizeof t, "%u", timeout);
        execl("/proc/self/exe", "probe", mode, arg, t, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st))
        printf("%s: CRASHED signal %d (%s)%s\n", arg, WTERMSIG(st), strsignal(WTERMSIG(st)),
               WTERMSIG(st) == SIGALRM ? " [hung: killed by the probe's timeout]" : "");
    else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
        printf("%s: child exit status %d\n", arg, WEXITSTATUS(st));
}
struct reg { const char *name; void (*fn)(void); };
static struct reg cases[128], groups[32];
static int ncases, ngroups;
#define CASE(n) static void c_##n(void); \
    __attribute__((constructor)) static void rc_##n(void) { cases[ncases++] = (struct reg){#n, c_##n}; } \
    static void c_##n(void)
#define GROUP(n) static void g_##n(void); \
    __attribute__((constructor)) static void rg_##n(void) { groups[ngroups++] = (struct reg){#n, g_##n}; } \
    static void g_##n(void)
static void risky(const char *n) { spawn("--case", n, 30); }

/* =========================== 1. granularity =========================== */
CASE(gran_null_out) { setup(); CUmemAllocationProp p = prop0(); T("1.granularity(NULL,&prop,MIN)", cuMemGetAllocationGranularity(NULL, &p, 0)); }
CASE(gran_null_prop) { setup(); size_t g = S; TV("1.granularity(&g,NULL,MIN)", cuMemGetAllocationGranularity(&g, NULL, 0), "g=%#zx", g); }
GROUP(gran)
{
    setup();
    CUmemAllocationProp p;
    size_t g;
#define GR(label, mod, opt) do { p = prop0(); mod; g = S; TV("1.granularity " label, cuMemGetAllocationGranularity(&g, &p, (CUmemAllocationGranularity_flags)(opt)), "g=%#zx", g); } while (0)
    GR("default MINIMUM", (void)0, 0);
    GR("default RECOMMENDED", (void)0, 1);
    GR("option 2", (void)0, 2);
    GR("option -1", (void)0, -1);
    GR("type 0 INVALID", p.type = 0, 0);
    GR("type MANAGED", p.type = CU_MEM_ALLOCATION_TYPE_MANAGED, 0);
    GR("type 3", p.type = 3, 0);
    GR("location.type HOST", p.location.type = CU_MEM_LOCATION_TYPE_HOST, 0);
    GR("location.type HOST RECOMMENDED", p.location.type = CU_MEM_LOCATION_TYPE_HOST, 1);
    GR("location.type HOST_NUMA id 0", p.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
    GR("location.type INVALID(0)", p.location.type = 0, 0);
    GR("location.type 99", p.location.type = 99, 0);
    GR("location.id 1", p.location.id = 1, 0);
    GR("location.id -1", p.location.id = -1, 0);
    GR("requestedHandleTypes WIN32", p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_WIN32, 0);
    GR("requestedHandleTypes NONE", p.requestedHandleTypes = 0, 0);
    GR("requestedHandleTypes FABRIC", p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_FABRIC, 0);
    GR("requestedHandleTypes 0x10", p.requestedHandleTypes = 0x10, 0);
    GR("win32HandleMetaData non-NULL", p.win32HandleMetaData = (void *)&p, 0);
    GR("allocFlags.compressionType 1", p.allocFlags.compressionType = 1, 0);
    GR("allocFlags.gpuDirectRDMACapable 1", p.allocFlags.gpuDirectRDMACapable = 1, 0);
    GR("allocFlags.reserved[0]=1", p.allocFlags.reserved[0] = 1, 0);
    risky("gran_null_out");
    risky("gran_null_prop");
}

/* =========================== 2. cuMemCreate =========================== */
CASE(create_null_handle) { setup(); CUmemAllocationProp p = prop0(); T("2.cuMemCreate(NULL,G,&prop,0)", cuMemCreate(NULL, G, &p, 0)); }
CASE(create_null_prop) { setup(); H h = S; TV("2.cuMemCreate(&h,G,NULL,0)", cuMemCreate(&h, G, NULL, 0), "h=%#llx", h); }
GROUP(create)
{
    setup();
    printf("2.G = %#zx\n", G);
    CUmemAllocationProp p;
    H h;
    CUresult r;
#define CR(label, mod, size, fl) do { p = prop0(); mod; h = S; r = cuMemCreate(&h, size, &p, fl); \
        printf("2.cuMemCreate %s: %s (h=%#llx)\n", label, rn(r), h); if (r == CUDA_SUCCESS) { props("2.  props", h); \
        int fd_ = -77; CUresult e_ = cuMemExportToShareableHandle(&fd_, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0); \
        printf("2.  export POSIX_FD: %s (fd=%d)\n", rn(e_), fd_); if (e_ == 0) close(fd_); \
        printf("2.  release: %s\n", rn(cuMemRelease(h))); } } while (0)
    CR("size G (ok)", (void)0, G, 0);
    CR("size 0", (void)0, 0, 0);
    CR("size G/2", (void)0, G / 2, 0);
    CR("size 1", (void)0, 1, 0);
    CR("size G+4096", (void)0, G + 4096, 0);
    CR("size 1<<50", (void)0, 1ull << 50, 0);
    CR("flags 1", (void)0, G, 1);
    CR("flags 1 + size 0", (void)0, 0, 1);
    CR("flags 1 + size G/2", (void)0, G / 2, 1);
    CR("requestedHandleTypes NONE", p.requestedHandleTypes = 0, G, 0);
    CR("requestedHandleTypes WIN32", p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_WIN32, G, 0);
    CR("requestedHandleTypes FABRIC", p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_FABRIC, G, 0);
    CR("requestedHandleTypes POSIX|FABRIC", p.requestedHandleTypes = 9, G, 0);
    CR("requestedHandleTypes 0x10", p.requestedHandleTypes = 0x10, G, 0);
    CR("allocFlags.gpuDirectRDMACapable=1", p.allocFlags.gpuDirectRDMACapable = 1, G, 0);
    CR("allocFlags.compressionType=1", p.allocFlags.compressionType = 1, G, 0);
    CR("allocFlags.usage=1", p.allocFlags.usage = 1, G, 0);
    CR("type 0", p.type = 0, G, 0);
    CR("type MANAGED", p.type = CU_MEM_ALLOCATION_TYPE_MANAGED, G, 0);
    CR("location.id 5", p.location.id = 5, G, 0);
    CR("location.id -1", p.location.id = -1, G, 0);
    CR("location.type 0", p.location.type = 0, G, 0);
    CR("location.type HOST", p.location.type = CU_MEM_LOCATION_TYPE_HOST, G, 0);
    CR("location.id 5 + size G/2", p.location.id = 5, G / 2, 0);
    CR("location.id 5 + flags 1", p.location.id = 5, G, 1);
    CR("type 0 + size G/2", p.type = 0, G / 2, 0);
    CR("win32HandleMetaData non-NULL", p.win32HandleMetaData = (void *)&p, G, 0);
    CR("requestedHandleTypes WIN32 + size G/2", p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_WIN32, G / 2, 0);
    CR("type 0 + size 0", p.type = 0, 0, 0);
    CR("type 0 + location.id 5", (p.type = 0, p.location.id = 5), G, 0);
    CR("location.type 0 + size G/2", p.location.type = 0, G / 2, 0);
    CR("size 0 + flags 1 + location.id 5", p.location.id = 5, 0, 1);
    /* NONE: which code does each export type give? */
    p = prop0(); p.requestedHandleTypes = 0; h = S;
    MUST(cuMemCreate(&h, G, &p, 0));
    int fd = -77;
    TV("2.NONE handle: export POSIX_FD", cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), "fd=%d", fd);
    char fab[64]; memset(fab, 0xab, sizeof fab);
    TV("2.NONE handle: export FABRIC", cuMemExportToShareableHandle(fab, h, CU_MEM_HANDLE_TYPE_FABRIC, 0), "first byte %#x", (unsigned char)fab[0]);
    fd = -77;
    TV("2.NONE handle: export POSIX_FD flags 1", cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1), "fd=%d", fd);
    T("2.NONE handle: release", cuMemRelease(h));
    risky("create_null_handle");
    risky("create_null_prop");
}

/* =========================== 3. cuMemRelease =========================== */
CASE(release_twice) { setup(); H h = mk(G); T("3.cuMemRelease first", cuMemRelease(h)); T("3.cuMemRelease second (released handle)", cuMemRelease(h)); }
CASE(release_zero) { setup(); T("3.cuMemRelease(0)", cuMemRelease(0)); }
CASE(release_garbage) { setup(); T("3.cuMemRelease(0x12345)", cuMemRelease(0x12345)); }
CASE(release_mapped_twice)
{
    setup();
    H h;
    CUdeviceptr r = full(G, 2 * G, &h);
    T("3.cuMemRelease while mapped", cuMemRelease(h));
    T("3.  cuMemRelease again while still mapped", cuMemRelease(h));
    T("3.  then cuMemsetD8(R,1,4096)", cuMemsetD8(r, 1, 4096));
    T("3.  then cuCtxSynchronize", cuCtxSynchronize());
    props("3.  then props(released-but-mapped handle)", h);
    mapc("3.  then cuMemMap(R+G, G, released-but-mapped handle)", r + G, G, 0, h, 0);
    int fd = -77;
    TV("3.  then export POSIX_FD (released-but-mapped handle)", cuMemExportToShareableHandle(&fd, h, 1, 0), "fd=%d", fd);
    T("3.  then cuMemUnmap(R,G)", cuMemUnmap(r, G));
    T("3.  then cuMemRelease a third time (unmapped)", cuMemRelease(h));
    T("3.  then cuMemAddressFree", cuMemAddressFree(r, 2 * G));
}
GROUP(release)
{
    risky("release_twice");
    risky("release_zero");
    risky("release_garbage");
    risky("release_mapped_twice");
}

/* =========================== 4. cuMemAddressReserve =========================== */
CASE(reserve_null_ptr) { setup(); T("4.cuMemAddressReserve(NULL,G,0,0,0)", cuMemAddressReserve(NULL, G, 0, 0, 0)); }
GROUP(reserve)
{
    setup();
    CUdeviceptr p;
    CUresult r;
#define RS(label, size, al, addr, fl) do { p = S; r = cuMemAddressReserve(&p, size, al, addr, fl); \
        printf("4.cuMemAddressReserve %s: %s (p=%#llx ctz=%d p%%G=%#llx)\n", label, rn(r), (ull)p, ctz(p), (ull)(p % G)); \
        if (r == CUDA_SUCCESS) printf("4.  free: %s\n", rn(cuMemAddressFree(p, size))); } while (0)
    RS("size G, align 0 (ok)", G, 0, 0, 0);
    RS("size 0", 0, 0, 0, 0);
    RS("size G+4096", G + 4096, 0, 0, 0);
    RS("size 4096", 4096, 0, 0, 0);
    RS("size 1", 1, 0, 0, 0);
    RS("size G/2", G / 2, 0, 0, 0);
    RS("size 3G, align 0", 3 * G, 0, 0, 0);
    RS("size 64G, align 0", 64 * G, 0, 0, 0);
    RS("align 4G", G, 4 * G, 0, 0);
    RS("align 1GiB", G, 1ull << 30, 0, 0);
    RS("align 3G (not pow2)", G, 3 * G, 0, 0);
    RS("align 4096", G, 4096, 0, 0);
    RS("align 1", G, 1, 0, 0);
    RS("align G+4096", G, G + 4096, 0, 0);
    RS("flags 1", G, 0, 0, 1);
    RS("flags 1 + size 0", 0, 0, 0, 1);
    RS("flags 1 + size G+4096", G + 4096, 0, 0, 1);
    RS("size 1<<46", 1ull << 46, 0, 0, 0);
    RS("size 1<<50", 1ull << 50, 0, 0, 0);
    RS("size 0 + align 3G", 0, 3 * G, 0, 0);
    RS("size G+4096 + align 3G", G + 4096, 3 * G, 0, 0);
    /* address hints */
    CUdeviceptr x = free_va(8 * G);
    p = S;
    r = cuMemAddressReserve(&p, G, 0, x + 2 * G, 0);
    printf("4.reserve G with hint X+2G (free, aligned): %s (p==hint:%d p=R%+lld)\n", rn(r), p == x + 2 * G, (long long)(p - x));
    CUdeviceptr a = p;
    p = S;
    r = cuMemAddressReserve(&p, G, 0, a, 0);
    printf("4.reserve G with hint = an already reserved address: %s (p==hint:%d p-hint=%+lld)\n", rn(r), p == a, (long long)(p - a));
    if (r == 0 && p != a) cuMemAddressFree(p, G);
    p = S;
    r = cuMemAddressReserve(&p, 2 * G, 0, a - G, 0);
    printf("4.reserve 2G with hint overlapping a reservation's first half: %s (p==hint:%d p-hint=%+lld)\n", rn(r), p == a - G, (long long)(p - (a - G)));
    if (r == 0 && p != a - G) cuMemAddressFree(p, 2 * G);
    cuMemAddressFree(a, G);
    p = S;
    r = cuMemAddressReserve(&p, G, 0, x + 4096, 0);
    printf("4.reserve G with unaligned hint X+4096: %s (p=X%+lld)\n", rn(r), (long long)(p - x));
    if (r == 0) cuMemAddressFree(p, G);
    p = S;
    r = cuMemAddressReserve(&p, G, 4 * G, x + G, 0);
    printf("4.reserve G, align 4G, hint X+G (hint violates align): %s (p=X%+lld p%%4G=%#llx)\n", rn(r), (long long)(p - x), (ull)(p % (4 * G)));
    if (r == 0) cuMemAddressFree(p, G);
    /* two successive reservations: adjacent? */
    CUdeviceptr r1 = rsv(G), r2 = rsv(G);
    printf("4.two successive reserve(G): r2-r1=%+lld\n", (long long)(r2 - r1));
    cuMemAddressFree(r1, G);
    cuMemAddressFree(r2, G);
    risky("reserve_null_ptr");
}

/* =========================== 5. cuMemAddressFree =========================== */
CASE(addrfree_mapped)
{
    setup();
    H h;
    CUdeviceptr r = full(G, 2 * G, &h);
    MUST(cuMemsetD8(r, 0x5a, G));
    T("5.cuMemAddressFree(R,2G) while G mapped at R", cuMemAddressFree(r, 2 * G));
    range("5.  then", r, r);
    mapped_attr("5.  then", r);
    getacc("5.  then", r);
    H o = S;
    TV("5.  then cuMemRetainAllocationHandle(R)", cuMemRetainAllocationHandle(&o, (void *)(uintptr_t)r), "o==h:%d", o == h);
    T("5.  then cuMemsetD8(R,1,16)", cuMemsetD8(r, 1, 16));
    T("5.  then cuCtxSynchronize", cuCtxSynchronize());
    T("5.  then cuMemUnmap(R,G)", cuMemUnmap(r, G));
    T("5.  then cuMemAddressFree(R,2G) again", cuMemAddressFree(r, 2 * G));
    CUdeviceptr p = S;
    TV("5.  then reserve 2G with hint R", cuMemAddressReserve(&p, 2 * G, 0, r, 0), "p==R:%d", p == r);
    T("5.  then cuMemRelease(h)", cuMemRelease(h));
}
CASE(addrfree_twice)
{
    setup();
    CUdeviceptr r = rsv(2 * G);
    T("5.cuMemAddressFree first", cuMemAddressFree(r, 2 * G));
    T("5.cuMemAddressFree twice", cuMemAddressFree(r, 2 * G));
}
CASE(addrfree_memalloc)
{
    setup();
    CUdeviceptr d = 0;
    MUST(cuMemAlloc(&d, G));
    T("5.cuMemAddressFree(cuMemAlloc ptr, G)", cuMemAddressFree(d, G));
    T("5.  then cuMemsetD8 on that cuMemAlloc ptr", cuMemsetD8(d, 0, 16));
    T("5.  then cuCtxSynchronize", cuCtxSynchronize());
    T("5.  then cuMemFree", cuMemFree(d));
}
#define AF(label, off, size) do { CUdeviceptr ar_ = rsv(4 * G); T("5.cuMemAddressFree " label, cuMemAddressFree(ar_ + (off), size)); \
        printf("5.  cleanup cuMemAddressFree(R,4G): %s\n", rn(cuMemAddressFree(ar_, 4 * G))); } while (0)
GROUP(addrfree)
{
    setup();
    CUdeviceptr x = free_va(4 * G);
    T("5.cuMemAddressFree(not reserved, G)", cuMemAddressFree(x, G));
    T("5.cuMemAddressFree(0, G)", cuMemAddressFree(0, G));
    T("5.cuMemAddressFree(0, 0)", cuMemAddressFree(0, 0));
    printf("5.(each case below: a fresh 4G reservation R)\n");
    AF("(R,4G) exact", 0, 4 * G);
    AF("(R,2G) smaller size", 0, 2 * G);
    AF("(R,8G) larger size", 0, 8 * G);
    AF("(R+G,G) inner sub-range", G, G);
    AF("(R+G,3G) tail", G, 3 * G);
    AF("(R+4096,4G) unaligned ptr", 4096, 4 * G);
    AF("(R,0) size 0", 0, 0);
    AF("(R,4G+4096)", 0, 4 * G + 4096);
    AF("(R,4G-4096)", 0, 4 * G - 4096);
    AF("(R-G,5G) starting before", -(long long)G, 5 * G);
    /* two adjacent reservations freed in one call */
    CUdeviceptr a = free_va(2 * G), b = S, a0 = a;
    MUST(cuMemAddressReserve(&a, G, 0, a0, 0));
    MUST(cuMemAddressReserve(&b, G, 0, a + G, 0));
    if (b == a + G) {
        T("5.cuMemAddressFree(A, 2G) over two adjacent G reservations A, A+G", cuMemAddressFree(a, 2 * G));
        printf("5.  cleanup free(A,G): %s, free(B,G): %s\n", rn(cuMemAddressFree(a, G)), rn(cuMemAddressFree(b, G)));
    } else
        printf("5.adjacent reservations: hint not honoured (b-a=%lld)\n", (long long)(b - a));
    /* a reservation made of two calls? reserve 2G, then free the halves separately */
    risky("addrfree_twice");
    risky("addrfree_mapped");
    risky("addrfree_memalloc");
}

/* =========================== 6. cuMemMap precedence =========================== */
static void map_bad_handle(const char *tag, H bad, int variant)
{
    setup();
    CUdeviceptr r = rsv(4 * G);
    char l[160];
    static const char *vn[] = {"alone", "+ flags 1", "+ size 4096", "+ offset G", "+ ptr outside reservation", "+ size 0"};
    snprintf(l, sizeof l, "6.cuMemMap(%s handle) %s", tag, vn[variant]);
    CUdeviceptr ptr = variant == 4 ? free_va(4 * G) : r;
    mapc(l, ptr, variant == 2 ? 4096 : variant == 5 ? 0 : G, variant == 3 ? G : 0, bad, variant == 1);
}
CASE(map_garb) { map_bad_handle("garbage 0x12345", 0x12345, 0); }
CASE(map_garb_f1) { map_bad_handle("garbage 0x12345", 0x12345, 1); }
CASE(map_garb_sz) { map_bad_handle("garbage 0x12345", 0x12345, 2); }
CASE(map_garb_out) { map_bad_handle("garbage 0x12345", 0x12345, 4); }
CASE(map_h0) { map_bad_handle("0", 0, 0); }
CASE(map_h0_f1) { map_bad_handle("0", 0, 1); }
CASE(map_h0_sz) { map_bad_handle("0", 0, 2); }
CASE(map_h0_out) { map_bad_handle("0", 0, 4); }
CASE(map_h0_z) { map_bad_handle("0", 0, 5); }
static H released(void) { setup(); H h = mk(2 * G); MUST(cuMemRelease(h)); return h; }
CASE(map_rel) { H h = released(); map_bad_handle("released", h, 0); }
CASE(map_rel_f1) { H h = released(); map_bad_handle("released", h, 1); }
CASE(map_rel_sz) { H h = released(); map_bad_handle("released", h, 2); }
CASE(map_rel_off) { H h = released(); map_bad_handle("released", h, 3); }
CASE(map_rel_out) { H h = released(); map_bad_handle("released", h, 4); }
GROUP(mapprec)
{
    setup();
    H h = mk(2 * G), h3 = mk(G);
    CUdeviceptr r = rsv(4 * G), out = free_va(4 * G);
    printf("6.(singles for reference)\n");
    mapc("6.ok: map(R,2G,0,h2G,0)", r, 2 * G, 0, h, 0);
    mapc("6.flags 1", r, 2 * G, 0, h, 1);
    mapc("6.flags 2", r, 2 * G, 0, h, 2);
    mapc("6.size 4096", r, 4096, 0, h, 0);
    mapc("6.size 0", r, 0, 0, h, 0);
    mapc("6.offset G", r, G, G, h, 0);
    mapc("6.offset 4096", r, G, 4096, h, 0);
    mapc("6.ptr outside reservation", out, G, 0, h, 0);
    mapc("6.ptr 0", 0, G, 0, h, 0);
    mapc("6.ptr unaligned R+4096", r + 4096, G, 0, h, 0);
    mapc("6.size > allocation (4G of 2G)", r, 4 * G, 0, h, 0);
    printf("6.(pairs)\n");
    mapc("6.flags 1 + size 4096", r, 4096, 0, h, 1);
    mapc("6.flags 1 + size 0", r, 0, 0, h, 1);
    mapc("6.flags 1 + offset G", r, G, G, h, 1);
    mapc("6.flags 1 + ptr outside", out, G, 0, h, 1);
    mapc("6.flags 1 + ptr 0", 0, G, 0, h, 1);
    mapc("6.flags 1 + ptr unaligned", r + 4096, G, 0, h, 1);
    mapc("6.flags 1 + size > allocation", r, 4 * G, 0, h, 1);
    mapc("6.size 4096 + ptr outside", out, 4096, 0, h, 0);
    mapc("6.size 4096 + offset G", r, 4096, G, h, 0);
    mapc("6.size 4096 + ptr unaligned", r + 4096, 4096, 0, h, 0);
    mapc("6.offset G + ptr outside", out, G, G, h, 0);
    mapc("6.size > allocation + ptr outside", out, 4 * G, 0, h, 0);
    mapc("6.size > allocation + offset G", r, 2 * G, G, h, 0);
    mapc("6.ptr unaligned + ptr outside (out+4096)", out + 4096, G, 0, h, 0);
    /* already-mapped combos: h3 (G) onto R where h is mapped */
    MUST(cuMemMap(r, 2 * G, 0, h, 0));
    mapc("6.already mapped (h3 at R), alone", r, G, 0, h3, 0);
    mapc("6.already mapped + flags 1", r, G, 0, h3, 1);
    mapc("6.already mapped + size 4096", r, 4096, 0, h3, 0);
    mapc("6.already mapped + offset G", r, G, G, h3, 0);
    mapc("6.already mapped + size > allocation (2G of G)", r, 2 * G, 0, h3, 0);
    mapc("6.partly mapped: h3 (G) at R+G (inside the 2G mapping)", r + G, G, 0, h3, 0);
    mapc("6.straddling mapped/unmapped: h(2G) at R+G", r + G, 2 * G, 0, h, 0);
    mapc("6.same handle mapped a second time at R+2G", r + 2 * G, 2 * G, 0, h, 0);
    mapc("6.same handle, first G only, at R+2G", r + 2 * G, G, 0, h, 0);
    MUST(cuMemUnmap(r, 2 * G));
    /* mapping crossing the end of a reservation: reserve 2G at X where X+2G is free */
    CUdeviceptr x = free_va(8 * G), q = S;
    MUST(cuMemAddressReserve(&q, 2 * G, 0, x + 2 * G, 0));
    printf("6.(reservation Q of 2G inside a free 8G region: hint honoured %d)\n", q == x + 2 * G);
    mapc("6.crossing the end: h(2G) at Q+G", q + G, 2 * G, 0, h, 0);
    mapc("6.crossing the end + flags 1", q + G, 2 * G, 0, h, 1);
    mapc("6.crossing the start: h(2G) at Q-G", q - G, 2 * G, 0, h, 0);
    /* two adjacent reservations */
    CUdeviceptr b = S;
    MUST(cuMemAddressReserve(&b, 2 * G, 0, q + 2 * G, 0));
    printf("6.(second reservation B of 2G right after Q: %d)\n", b == q + 2 * G);
    mapc("6.spanning two adjacent reservations: h(2G) at Q+G", q + G, 2 * G, 0, h, 0);
    mapc("6.spanning two adjacent reservations from Q, 4G (size > alloc too)", q, 4 * G, 0, h, 0);
    H h4 = mk(4 * G);
    mapc("6.spanning two adjacent reservations: h4G at Q", q, 4 * G, 0, h4, 0);
    cuMemRelease(h4);
    cuMemAddressFree(q, 2 * G);
    cuMemAddressFree(b, 2 * G);
    cuMemAddressFree(r, 4 * G);
    cuMemRelease(h);
    cuMemRelease(h3);
    risky("map_h0");
    risky("map_h0_f1");
    risky("map_h0_sz");
    risky("map_h0_out");
    risky("map_h0_z");
    risky("map_garb_f1");
    risky("map_garb_sz");
    risky("map_garb_out");
    risky("map_garb");
    risky("map_rel_f1");
    risky("map_rel_sz");
    risky("map_rel_off");
    risky("map_rel_out");
    risky("map_rel");
}

/* =========================== 7. cuMemUnmap =========================== */
static H ua, ub;
static void remap(CUdeviceptr r) /* a at R, b at R+G, nothing else */
{
    for (int k = 0; k < 4; k++) cuMemUnmap(r + k * G, G);
    MUST(cuMemMap(r, G, 0, ua, 0));
    MUST(cuMemMap(r + G, G, 0, ub, 0));
}
#define UM(label, ptr, size) do { remap(r); T("7.unmap " label, cuMemUnmap(ptr, size)); mapped_attr("7.  then R", r); mapped_attr("7.  then R+G", r + G); } while (0)
GROUP(unmap)
{
    setup();
    ua = mk(G); ub = mk(G);
    CUdeviceptr r = rsv(4 * G);
    printf("7.(each case: a (G) mapped at R, b (G) at R+G, reservation R of 4G)\n");
    UM("(R,2G) covering two adjacent mappings", r, 2 * G);
    UM("(R,G) exact", r, G);
    UM("(R+2G,G) reserved, not mapped", r + 2 * G, G);
    UM("(R,0) size 0", r, 0);
    UM("(R+4096,G) unaligned ptr", r + 4096, G);
    UM("(R,4096) unaligned size", r, 4096);
    UM("(R+G,2G) mapped then unmapped granule", r + G, 2 * G);
    UM("(R,3G) two mappings then an unmapped granule", r, 3 * G);
    UM("(R,4G) the whole reservation", r, 4 * G);
    UM("(R,8G) larger than the 4G reservation", r, 8 * G);
    UM("(0,G)", 0, G);
    UM("(not reserved,G)", free_va(G), G);
    UM("(R-G,2G) starting before the reservation", r - G, 2 * G);
    remap(r);
    T("7.unmap (R,G) first", cuMemUnmap(r, G));
    T("7.unmap (R,G) twice", cuMemUnmap(r, G));
    T("7.unmap (R+4096,0) unaligned + size 0", cuMemUnmap(r + 4096, 0));
    T("7.unmap (R,G) unmapped + (R+G,G) still mapped: unmap (R,2G)", cuMemUnmap(r, 2 * G));
    mapped_attr("7.  then R+G", r + G);
    for (int k = 0; k < 4; k++) cuMemUnmap(r + k * G, G);
    cuMemAddressFree(r, 4 * G);
    cuMemRelease(ua);
    cuMemRelease(ub);
}

/* =========================== 8. cuMemSetAccess / cuMemGetAccess =========================== */
CASE(setacc_null_desc) { setup(); H h; CUdeviceptr r = full(G, G, &h); T("8.cuMemSetAccess(R,G,NULL,1)", cuMemSetAccess(r, G, NULL, 1)); T("8.cuMemSetAccess(R,G,NULL,0)", cuMemSetAccess(r, G, NULL, 0)); }
CASE(getacc_null_loc) { setup(); H h; CUdeviceptr r = full(G, G, &h); ull f = S; TV("8.cuMemGetAccess(&f,NULL,R)", cuMemGetAccess(&f, NULL, r), "f=%#llx", f); }
CASE(getacc_null_flags) { setup(); H h; CUdeviceptr r = full(G, G, &h); CUmemLocation l = {CU_MEM_LOCATION_TYPE_DEVICE, 0}; T("8.cuMemGetAccess(NULL,&loc,R)", cuMemGetAccess(NULL, &l, r)); }
GROUP(access)
{
    setup();
    H a = mk(G), b = mk(G), c = mk(2 * G), d = mk(G);
    CUdeviceptr r = rsv(6 * G);
    MUST(cuMemMap(r, G, 0, a, 0));
    MUST(cuMemMap(r + G, G, 0, b, 0));
    MUST(cuMemMap(r + 2 * G, 2 * G, 0, c, 0));
    printf("8.(a at R, b at R+G, c (2G) at R+2G, R+4G..6G reserved only)\n");
    getacc("8.R (mapped, no access set yet)", r);
    getacc("8.R+4G (reserved, unmapped)", r + 4 * G);
    getacc("8.not reserved address", free_va(G));
    getacc("8.0", 0);
    T("8.setaccess(R+4G,G) reserved but unmapped", acc(r + 4 * G, G, 3));
    T("8.setaccess(R+3G,2G) half mapped", acc(r + 3 * G, 2 * G, 3));
    T("8.setaccess(R,2G) covering two mappings", acc(r, 2 * G, 3));
    getacc("8.  then R", r);
    getacc("8.  then R+G", r + G);
    T("8.setaccess(R+2G,G) first granule of the 2G mapping c", acc(r + 2 * G, G, 3));
    getacc("8.  then R+2G (c granule 1)", r + 2 * G);
    getacc("8.  then R+3G (c granule 2)", r + 3 * G);
    T("8.  then cuMemsetD8(R+2G,1,G) (granule 1)", cuMemsetD8(r + 2 * G, 1, G));
    T("8.  then cuCtxSynchronize", cuCtxSynchronize());
    T("8.setaccess(R+2G,2G) whole c, PROT_READ", acc(r + 2 * G, 2 * G, 1));
    getacc("8.  then R+2G", r + 2 * G);
    getacc("8.  then R+3G", r + 3 * G);
    T("8.setaccess(R,G) PROT_NONE on a RW mapping", acc(r, G, 0));
    getacc("8.  then R", r);
    T("8.setaccess(R,G) flags 2", acc(r, G, 2));
    T("8.setaccess(R,G) flags 4", acc(r, G, 4));
    T("8.setaccess(R,G) flags 7", acc(r, G, 7));
    getacc("8.  then R", r);
    CUmemAccessDesc ds[2] = {ad(3), ad(1)};
    T("8.setaccess(R,G,desc,0) count 0", cuMemSetAccess(r, G, ds, 0));
    T("8.setaccess(R,G,2 descs for the same device RW then READ)", cuMemSetAccess(r, G, ds, 2));
    getacc("8.  then R", r);
    CUmemAccessDesc e = ad(3);
    e.location.type = CU_MEM_LOCATION_TYPE_HOST;
    T("8.setaccess location.type HOST", cuMemSetAccess(r, G, &e, 1));
    e = ad(3); e.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
    T("8.setaccess location.type HOST_NUMA id 0", cuMemSetAccess(r, G, &e, 1));
    e = ad(3); e.location.type = 0;
    T("8.setaccess location.type INVALID(0)", cuMemSetAccess(r, G, &e, 1));
    e = ad(3); e.location.id = 1;
    T("8.setaccess location.id 1", cuMemSetAccess(r, G, &e, 1));
    e = ad(3); e.location.id = -1;
    T("8.setaccess location.id -1", cuMemSetAccess(r, G, &e, 1));
    e = ad(2); e.location.id = 1;
    T("8.setaccess flags 2 + location.id 1", cuMemSetAccess(r, G, &e, 1));
    T("8.setaccess(R+4096,G) unaligned ptr", acc(r + 4096, G, 3));
    T("8.setaccess(R,4096) unaligned size", acc(r, 4096, 3));
    T("8.setaccess(R,0) size 0", acc(r, 0, 3));
    T("8.setaccess(R+4096,4096) unaligned, unaligned", acc(r + 4096, 4096, 3));
    T("8.setaccess(not reserved,G)", acc(free_va(G), G, 3));
    T("8.setaccess(R+4G,G) unmapped + flags 2", acc(r + 4 * G, G, 2));
    T("8.setaccess(R+4096,G) unaligned + flags 2", acc(r + 4096, G, 2));
    CUmemLocation l = {CU_MEM_LOCATION_TYPE_DEVICE, 1};
    ull f = S;
    TV("8.cuMemGetAccess location.id 1", cuMemGetAccess(&f, &l, r + G), "f=%#llx", f);
    l.type = CU_MEM_LOCATION_TYPE_HOST; l.id = 0; f = S;
    TV("8.cuMemGetAccess location HOST", cuMemGetAccess(&f, &l, r + G), "f=%#llx", f);
    MUST(cuMemMap(r + 4 * G, G, 0, d, 0));
    getacc("8.R+4G fresh mapping, no access set", r + 4 * G);
    getacc("8.R+4G+4096 fresh mapping, no access set", r + 4 * G + 4096);
    getacc("8.R+G+100 (RW)", r + G + 100);
    cuMemUnmap(r, 5 * G);
    cuMemAddressFree(r, 6 * G);
    cuMemRelease(a); cuMemRelease(b); cuMemRelease(c); cuMemRelease(d);
    risky("setacc_null_desc");
    risky("getacc_null_loc");
    risky("getacc_null_flags");
}

/* =========================== 9. memory ops on VMM ranges =========================== */
static CUdeviceptr noacc(void) /* mapped, no access */
{
    setup();
    H h = mk(G);
    CUdeviceptr r = rsv(2 * G);
    MUST(cuMemMap(r, G, 0, h, 0));
    return r;
}
static char hb[1 << 23];
CASE(memset_noacc) { CUdeviceptr r = noacc(); T("9.cuMemsetD8(R,1,4096) mapped, no access set", cuMemsetD8(r, 1, 4096)); T("9.  then cuCtxSynchronize", cuCtxSynchronize()); CUdeviceptr d_ = S; TV("9.  then cuMemAlloc(&d,4096) (is the context still usable?)", cuMemAlloc(&d_, 4096), "d=%#llx", (ull)d_); }
CASE(htod_noacc) { CUdeviceptr r = noacc(); T("9.cuMemcpyHtoD(R,host,4096) mapped, no access set", cuMemcpyHtoD(r, hb, 4096)); T("9.  then cuCtxSynchronize", cuCtxSynchronize()); }
CASE(dtoh_noacc) { CUdeviceptr r = noacc(); T("9.cuMemcpyDtoH(host,R,4096) mapped, no access set", cuMemcpyDtoH(hb, r, 4096)); T("9.  then cuCtxSynchronize", cuCtxSynchronize()); }
static CUdeviceptr ronly(void)
{
    setup();
    H h;
    CUdeviceptr r = full(G, 2 * G, &h);
    MUST(cuMemsetD8(r, 0x42, G));
    MUST(acc(r, G, 1));
    hb[0] = 0;
    T("9.  (READ-only mapping: cuMemcpyDtoH from it)", cuMemcpyDtoH(hb, r, 4096));
    printf("9.  (read back byte %#x)\n", (unsigned char)hb[0]);
    return r;
}
CASE(htod_ro) { CUdeviceptr r = ronly(); T("9.cuMemcpyHtoD(R,host,4096) into PROT_READ mapping", cuMemcpyHtoD(r, hb + 4096, 4096)); T("9.  then cuCtxSynchronize", cuCtxSynchronize()); hb[0] = 0; T("9.  then cuMemcpyDtoH", cuMemcpyDtoH(hb, r, 16)); printf("9.  (byte now %#x)\n", (unsigned char)hb[0]); }
CASE(memset_ro) { CUdeviceptr r = ronly(); T("9.cuMemsetD8(R,1,4096) into PROT_READ mapping", cuMemsetD8(r, 1, 4096)); T("9.  then cuCtxSynchronize", cuCtxSynchronize()); hb[0] = 0; T("9.  then cuMemcpyDtoH", cuMemcpyDtoH(hb, r, 16)); printf("9.  (byte now %#x)\n", (unsigned char)hb[0]); }
CASE(htod_past_mapping) { setup(); H h; CUdeviceptr r = full(G, 2 * G, &h); T("9.cuMemcpyHtoD(R+G-4096,host,8192) running past the mapping into reserved-unmapped", cuMemcpyHtoD(r + G - 4096, hb, 8192)); T("9.  then cuCtxSynchronize", cuCtxSynchronize()); T("9.cuMemsetD8(R,0,2G) past the mapping", cuMemsetD8(r, 0, 2 * G)); T("9.  then cuCtxSynchronize", cuCtxSynchronize()); }
CASE(vmm_memfree)
{
    setup();
    H h;
    CUdeviceptr r = full(G, 2 * G, &h);
    T("9.cuMemFree(R) on a VMM mapping", cuMemFree(r));
    T("9.  then cuMemsetD8(R,1,16)", cuMemsetD8(r, 1, 16));
    mapped_attr("9.  then", r);
    T("9.cuMemFree(R+4096) on a VMM mapping", cuMemFree(r + 4096));
    T("9.cuMemFree(R+G) reserved-unmapped", cuMemFree(r + G));
    T("9.  then cuMemUnmap(R,G)", cuMemUnmap(r, G));
}
GROUP(ops)
{
    setup();
    H a = mk(G), b = mk(G), c = mk(G);
    CUdeviceptr r = rsv(4 * G);
    MUST(cuMemMap(r, G, 0, a, 0));
    MUST(cuMemMap(r + G, G, 0, b, 0));
    MUST(cuMemMap(r + 2 * G, G, 0, c, 0));
    T("9.setaccess(R,2G) over a and b", acc(r, 2 * G, 3));
    printf("9.(a at R, b at R+G, both RW; c at R+2G no access; R+3G reserved only)\n");
    for (int i = 0; i < 8192; i++) hb[i] = (char)(i * 7 + 1);
    T("9.cuMemcpyHtoD(R+G-4096,host,8192) across two allocations", cuMemcpyHtoD(r + G - 4096, hb, 8192));
    memset(hb + 16384, 0, 8192);
    T("9.cuMemcpyDtoH(host,R+G-4096,8192) across", cuMemcpyDtoH(hb + 16384, r + G - 4096, 8192));
    printf("9.  data round-trips: %d\n", !memcmp(hb, hb + 16384, 8192));
    T("9.cuMemcpy(R+100,R+G-4096,8192) DtoD from across into a", cuMemcpy(r + 100, r + G - 4096, 8192));
    T("9.cuMemsetD8(R+G-10,7,20) across", cuMemsetD8(r + G - 10, 7, 20));
    T("9.cuMemsetD32(R,0,2G/4) whole both", cuMemsetD32(r, 0, 2 * G / 4));
    T("9.cuMemcpyHtoD(R,host,2G) whole both", cuMemcpyHtoD(r, hb, 2 * G));
    T("9.cuCtxSynchronize", cuCtxSynchronize());
    range("9.R+100", r + 100, r);
    range("9.R+G+100 (second mapping)", r + G + 100, r);
    range("9.R+2G+100 (mapped, no access)", r + 2 * G + 100, r);
    range("9.R+3G (reserved-unmapped)", r + 3 * G, r);
    attrs("9.R+G+100", r + G + 100, r);
    attrs("9.R+2G+100 (no access)", r + 2 * G + 100, r);
    attrs("9.R+3G (unmapped)", r + 3 * G, r);
    /* a bigger mapping for MAPPING_SIZE / RANGE_SIZE vs the allocation */
    H h4 = mk(4 * G);
    CUdeviceptr q = rsv(8 * G);
    MUST(cuMemMap(q + 2 * G, 4 * G, 0, h4, 0));
    MUST(acc(q + 2 * G, 4 * G, 3));
    range("9.(4G allocation mapped at Q+2G in an 8G reservation Q; R means Q here) Q+3G+5", q + 3 * G + 5, q);
    {
        ull v;
        static const int l2[] = {11, 12, 18, 19};
        for (int i = 0; i < 4; i++) {
            v = S;
            CUresult rr = cuPointerGetAttribute(&v, (CUpointer_attribute)l2[i], q + 3 * G + 5);
            printf("9.Q+3G+5 attr %s: %s (v=%#llx =Q%+lld)\n", attrname(l2[i]), rn(rr), v, (l2[i] == 11 || l2[i] == 19) ? (long long)(v - q) : 0LL);
        }
    }
    CUpointer_attribute al[4] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_MAPPED, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS};
    ull vals[4] = {S, S, S, S};
    void *vp[4] = {&vals[0], &vals[1], &vals[2], &vals[3]};
    TV("9.cuPointerGetAttributes(MEMTYPE,RANGE_START,MAPPED,ACCESS) at R+3G (unmapped)", cuPointerGetAttributes(4, al, vp, r + 3 * G), "%#llx %#llx %#llx %#llx", vals[0], vals[1], vals[2], vals[3]);
    cuMemUnmap(q + 2 * G, 4 * G);
    cuMemAddressFree(q, 8 * G);
    cuMemRelease(h4);
    cuMemUnmap(r, 3 * G);
    cuMemAddressFree(r, 4 * G);
    cuMemRelease(a); cuMemRelease(b); cuMemRelease(c);
    risky("htod_past_mapping");
    risky("vmm_memfree");
    risky("dtoh_noacc");
    risky("htod_noacc");
    risky("memset_noacc");
    risky("htod_ro");
    risky("memset_ro");
}

/* =========================== 10/11. retain, properties =========================== */
CASE(retain_null) { setup(); H h; CUdeviceptr r = full(G, G, &h); T("10.cuMemRetainAllocationHandle(NULL,R)", cuMemRetainAllocationHandle(NULL, (void *)(uintptr_t)r)); }
CASE(retain_refcount)
{
    setup();
    H h = mk(G), o = S;
    CUdeviceptr r = rsv(G);
    MUST(cuMemMap(r, G, 0, h, 0));
    TV("10.retain(R)", cuMemRetainAllocationHandle(&o, (void *)(uintptr_t)r), "o==h:%d", o == h);
    T("10.unmap", cuMemUnmap(r, G));
    T("10.cuMemRelease #1 (create + retain = 2 refs)", cuMemRelease(h));
    props("10.  then props", h);
    T("10.  then map it again", cuMemMap(r, G, 0, h, 0));
    T("10.  then unmap", cuMemUnmap(r, G));
    T("10.cuMemRelease #2", cuMemRelease(o));
    props("10.  then props (both refs released)", h);
    T("10.cuMemRelease #3", cuMemRelease(h));
}
CASE(props_null) { setup(); H h = mk(G); T("11.cuMemGetAllocationPropertiesFromHandle(NULL,h)", cuMemGetAllocationPropertiesFromHandle(NULL, h)); }
CASE(props_garbage) { setup(); props("11.props(garbage 0x12345)", 0x12345); }
CASE(props_zero) { setup(); props("11.props(handle 0)", 0); }
GROUP(retain)
{
    setup();
    H h = mk(2 * G), o;
    CUdeviceptr r = rsv(4 * G);
    MUST(cuMemMap(r, 2 * G, 0, h, 0));
    printf("10.(h = %#llx, 2G, mapped at R, no access; R+2G..4G unmapped)\n", h);
#define RT(label, addr) do { o = S; CUresult r_ = cuMemRetainAllocationHandle(&o, (void *)(uintptr_t)(addr)); \
        printf("10.retain %s: %s (o=%#llx o==h:%d)\n", label, rn(r_), o, o == h); if (!r_) cuMemRelease(o); } while (0)
    RT("R", r);
    RT("R+G+100", r + G + 100);
    RT("R+2G (reserved, unmapped)", r + 2 * G);
    RT("not reserved address", free_va(G));
    RT("0", 0);
    CUdeviceptr d;
    MUST(cuMemAlloc(&d, G));
    RT("cuMemAlloc ptr", d);
    cuMemFree(d);
    props("11.props(h)", h);
    CUmemAllocationProp p = prop0();
    H n = S;
    p.requestedHandleTypes = 0;
    MUST(cuMemCreate(&n, G, &p, 0));
    props("11.props(NONE handle)", n);
    cuMemRelease(n);
    cuMemUnmap(r, 2 * G);
    cuMemAddressFree(r, 4 * G);
    cuMemRelease(h);
    risky("retain_null");
    risky("retain_refcount");
    risky("props_null");
    risky("props_zero");
    risky("props_garbage");
}

/* =========================== 12. export / import shareable handles =========================== */
CASE(export_null) { setup(); H h = mk(G); T("12.export(NULL,h,POSIX_FD,0)", cuMemExportToShareableHandle(NULL, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0)); }
CASE(import_null) { setup(); H h = mk(G); int fd = xport(h); T("12.import(NULL,fd,POSIX_FD)", cuMemImportFromShareableHandle(NULL, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)); printf("12.  %s\n", fdinfo(fd)); }
CASE(export_garbage) { setup(); int fd = -77; TV("12.export(&fd,garbage 0x12345,POSIX_FD,0)", cuMemExportToShareableHandle(&fd, 0x12345, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), "fd=%d", fd); }
CASE(export_released) { H h = released(); int fd = -77; TV("12.export(&fd,released handle,POSIX_FD,0)", cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), "fd=%d", fd); }
GROUP(share)
{
    setup();
    H h = mk(G);
    int fd = -77, fd2 = -77;
    CUresult r = cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    printf("12.export POSIX_FD: %s (%s)\n", rn(r), fdinfo(fd));
    r = cuMemExportToShareableHandle(&fd2, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    printf("12.export POSIX_FD again: %s (fd2=%d, differs:%d; %s)\n", rn(r), fd2, fd2 != fd, fdinfo(fd2));
    struct stat s1, s2;
    fstat(fd, &s1); fstat(fd2, &s2);
    printf("12.  same inode: %d\n", s1.st_ino == s2.st_ino && s1.st_dev == s2.st_dev);
    int x = -77;
    char fab[64];
#define EX(label, buf, hh, type, fl) do { x = -77; memset(fab, 0xab, sizeof fab); CUresult e_ = cuMemExportToShareableHandle(buf, hh, type, fl); \
        printf("12.export %s: %s (out int=%d)\n", label, rn(e_), (buf) == (void *)&x ? x : *(int *)fab); if (!e_ && (buf) == (void *)&x) close(x); } while (0)
    EX("POSIX_FD flags 1", &x, h, 1, 1);
    EX("type WIN32", fab, h, CU_MEM_HANDLE_TYPE_WIN32, 0);
    EX("type WIN32_KMT", fab, h, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0);
    EX("type NONE(0)", &x, h, 0, 0);
    EX("type FABRIC 0x8", fab, h, CU_MEM_HANDLE_TYPE_FABRIC, 0);
    EX("type 0x10", fab, h, 0x10, 0);
    EX("type POSIX|FABRIC 0x9", fab, h, 9, 0);
    EX("type WIN32 + flags 1", fab, h, CU_MEM_HANDLE_TYPE_WIN32, 1);
    EX("handle 0", &x, 0, 1, 0);
    /* import */
    H i = S;
#define IM(label, oshandle, type) do { i = S; CUresult e_ = cuMemImportFromShareableHandle(&i, (void *)(uintptr_t)(oshandle), type); \
        printf("12.import %s: %s (h=%#llx ==orig:%d)\n", label, rn(e_), i, i == h); if (!e_) cuMemRelease(i); } while (0)
    i = S;
    r = cuMemImportFromShareableHandle(&i, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    printf("12.import own exported fd: %s (h=%#llx orig=%#llx ==orig:%d)\n", rn(r), i, h, i == h);
    CUresult rimp = r;
    printf("12.  after import: %s\n", fdinfo(fd));
    props("12.  props(imported)", i);
    H i2 = S;
    r = cuMemImportFromShareableHandle(&i2, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    printf("12.import the same fd again: %s (h=%#llx ==first import:%d)\n", rn(r), i2, i2 == i);
    /* data shared between h and the imported handle? */
    CUdeviceptr a = rsv(G), b = rsv(G);
    MUST(cuMemMap(a, G, 0, h, 0));
    MUST(acc(a, G, 3));
    r = rimp ? rimp : cuMemMap(b, G, 0, i, 0);
    printf("12.map imported handle: %s\n", rn(r));
    if (!r) {
        acc(b, G, 3);
        cuMemsetD8(a, 0x77, 64);
        unsigned char c = 0;
        cuMemcpyDtoH(&c, b, 1);
        printf("12.  write via original, read via imported: %#x\n", c);
        cuMemUnmap(b, G);
    }
    cuMemUnmap(a, G);
    cuMemAddressFree(a, G);
    cuMemAddressFree(b, G);
    if (!rimp) T("12.release imported", cuMemRelease(i));
    if (i2 != S && i2 != i) T("12.release 2nd import (a different value)", cuMemRelease(i2));
    else if (i2 == i && !rimp) T("12.release imported again (2nd import gave the same value)", cuMemRelease(i2));
    int m = mfd(G);
    IM("memfd (2 MiB, not from CUDA)", m, 1);
    printf("12.  %s\n", fdinfo(m));
    close(m);
    int dn = open("/dev/null", O_RDWR);
    IM("/dev/null fd", dn, 1);
    close(dn);
    IM("closed fd number", closed_fd(), 1);
    IM("fd -1", (intptr_t)-1, 1);
    IM("fd of export, type WIN32", fd2, CU_MEM_HANDLE_TYPE_WIN32);
    IM("fd of export, type NONE", fd2, 0);
    IM("fd of export, type FABRIC (osHandle = fd number)", fd2, CU_MEM_HANDLE_TYPE_FABRIC);
    printf("12.  fd2 after those: %s\n", fdinfo(fd2));
    close(fd);
    close(fd2);
    /* does an fd outlive the handle? */
    H t = mk(G);
    int tf = xport(t);
    cuMemRelease(t);
    IM("fd exported from a since-released handle", tf, 1);
    close(tf);
    cuMemRelease(h);
    risky("export_null");
    risky("import_null");
    risky("export_garbage");
    risky("export_released");
}

/* =========================== 13. cuImportExternalMemory =========================== */
static CUDA_EXTERNAL_MEMORY_HANDLE_DESC xd(int fd, ull size)
{
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
    memset(&d, 0, sizeof d);
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    d.handle.fd = fd;
    d.size = size;
    return d;
}
static CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd(ull off, ull size)
{
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC d;
    memset(&d, 0, sizeof d);
    d.offset = off;
    d.size = size;
    return d;
}
GROUP(extimp)
{
    setup();
    H h = mk(2 * G);
    CUexternalMemory e;
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
    CUdeviceptr p;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
    CUresult r;
    int fd;
#define XI(label, fdexpr, mod) do { fd = (fdexpr); d = xd(fd, 2 * G); mod; e = (CUexternalMemory)(uintptr_t)S; r = cuImportExternalMemory(&e, &d); \
        printf("13.import %s: %s (ext=%p; %s)\n", label, rn(r), (void *)e, fd >= 0 ? fdinfo(fd) : "fd<0"); } while (0)
#define XEND() do { if (r == CUDA_SUCCESS) cuDestroyExternalMemory(e); else if (fd >= 0 && fcntl(fd, F_GETFD) >= 0) close(fd); } while (0)
#define XB(label, off, size) do { b = bd(off, size); p = S; CUresult q_ = cuExternalMemoryGetMappedBuffer(&p, e, &b); \
        printf("13.  buffer %s: %s (p=%#llx)\n", label, rn(q_), (ull)p); if (!q_) cuMemFree(p); } while (0)
    XI("size 2G = allocation (ok)", xport(h), (void)0);
    XEND();
    XI("size G (smaller than the 2G allocation)", xport(h), d.size = G);
    if (!r) { XB("(0,G)", 0, G); XB("(G,G) past the import size", G, G); XB("(0,2G) past the import size", 0, 2 * G); }
    XEND();
    XI("size 4G (larger than the allocation)", xport(h), d.size = 4 * G);
    if (!r) { XB("(0,4G)", 0, 4 * G); XB("(2G,G) past the allocation", 2 * G, G); }
    XEND();
    XI("size G+4096 (not a multiple of G)", xport(h), d.size = G + 4096);
    if (!r) { XB("(0,G+4096)", 0, G + 4096); }
    XEND();
    XI("size 4096", xport(h), d.size = 4096);
    XEND();
    XI("size 1", xport(h), d.size = 1);
    XEND();
    XI("flags DEDICATED", xport(h), d.flags = CUDA_EXTERNAL_MEMORY_DEDICATED);
    if (!r) { XB("(0,2G)", 0, 2 * G); }
    XEND();
    XI("flags 2", xport(h), d.flags = 2);
    XEND();
    XI("flags 2 + size 0", xport(h), (d.flags = 2, d.size = 0));
    XEND();
    XI("reserved[0]=1", xport(h), d.reserved[0] = 1);
    XEND();
    XI("reserved[15]=1", xport(h), d.reserved[15] = 1);
    XEND();
    XI("fd -1", -1, (void)0);
    XEND();
    XI("fd -1, size 0", -1, d.size = 0);
    XEND();
    XI("closed fd number", closed_fd(), (void)0);
    XEND();
    XI("/dev/null fd", open("/dev/null", O_RDWR), (void)0);
    XEND();
    XI("memfd 2G not from CUDA", mfd(2 * G), (void)0);
    XEND();
    XI("memfd + size 0", mfd(2 * G), d.size = 0);
    XEND();
    XI("memfd + flags 2", mfd(2 * G), d.flags = 2);
    XEND();
    XI("fd -1 + flags 2", -1, d.flags = 2);
    XEND();
    XI("type DMABUF_FD with a cuda-exported fd", xport(h), d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD);
    XEND();
    XI("type OPAQUE_WIN32 with cuda fd", xport(h), d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32);
    XEND();
    /* fd of a released handle */
    H t = mk(G);
    int tf = xport(t);
    cuMemRelease(t);
    XI("fd exported from a since-released handle (size G)", tf, d.size = G);
    if (!r) { XB("(0,G)", 0, G); }
    XEND();
    /* the same fd imported twice? (dup so the second import has an open fd) */
    fd = xport(h);
    int du = dup(fd);
    d = xd(fd, 2 * G);
    CUexternalMemory e1 = NULL, e2 = NULL;
    r = cuImportExternalMemory(&e1, &d);
    d.handle.fd = du;
    CUresult r2 = cuImportExternalMemory(&e2, &d);
    printf("13.import fd then a dup of it: %s, %s (same ext:%d; %s)\n", rn(r), rn(r2), e1 == e2, fdinfo(du));
    if (!r) cuDestroyExternalMemory(e1);
    if (!r2 && e2 != e1) cuDestroyExternalMemory(e2);
    cuMemRelease(h);
}

/* =========================== 14/15. mapped buffers, destroy =========================== */
static CUexternalMemory imp(H *hout)
{
    setup();
    H h = mk(2 * G);
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = xd(xport(h), 2 * G);
    CUexternalMemory e = NULL;
    MUST(cuImportExternalMemory(&e, &d));
    if (hout) *hout = h;
    return e;
}
CASE(buf_null_dev) { CUexternalMemory e = imp(NULL); CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = bd(0, G); T("14.GetMappedBuffer(NULL,e,&desc)", cuExternalMemoryGetMappedBuffer(NULL, e, &b)); }
CASE(buf_null_desc) { CUexternalMemory e = imp(NULL); CUdeviceptr p = S; TV("14.GetMappedBuffer(&p,e,NULL)", cuExternalMemoryGetMappedBuffer(&p, e, NULL), "p=%#llx", (ull)p); }
CASE(buf_garbage) { setup(); CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = bd(0, G); CUdeviceptr p = S; TV("14.GetMappedBuffer(&p,garbage 0x12345,&desc)", cuExternalMemoryGetMappedBuffer(&p, (CUexternalMemory)0x12345, &b), "p=%#llx", (ull)p); }
CASE(buf_nullext) { setup(); CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = bd(0, G); CUdeviceptr p = S; TV("14.GetMappedBuffer(&p,NULL ext,&desc)", cuExternalMemoryGetMappedBuffer(&p, NULL, &b), "p=%#llx", (ull)p); }
CASE(buf_destroyed) { CUexternalMemory e = imp(NULL); MUST(cuDestroyExternalMemory(e)); CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = bd(0, G); CUdeviceptr p = S; TV("14.GetMappedBuffer on a destroyed ext", cuExternalMemoryGetMappedBuffer(&p, e, &b), "p=%#llx", (ull)p); }
CASE(destroy_live)
{
    CUexternalMemory e = imp(NULL);
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = bd(0, 2 * G);
    CUdeviceptr p = 0;
    MUST(cuExternalMemoryGetMappedBuffer(&p, e, &b));
    MUST(cuMemsetD8(p, 0x5a, 2 * G));
    MUST(cuCtxSynchronize());
    T("15.cuDestroyExternalMemory with a live mapped buffer", cuDestroyExternalMemory(e));
    range("15.  then buffer", p + 10, p);
    T("15.  then cuMemsetD8(buf,0x11,4096)", cuMemsetD8(p, 0x11, 4096));
    T("15.  then cuCtxSynchronize", cuCtxSynchronize());
    unsigned char c = 0;
    TV("15.  then cuMemcpyDtoH(buf)", cuMemcpyDtoH(&c, p, 1), "byte %#x", c);
    T("15.  then cuMemFree(buf)", cuMemFree(p));
    T("15.  then cuMemFree(buf) again", cuMemFree(p));
}
CASE(destroy_live_h_released)
{
    H h;
    CUexternalMemory e = imp(&h);
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = bd(0, 2 * G);
    CUdeviceptr p = 0;
    MUST(cuExternalMemoryGetMappedBuffer(&p, e, &b));
    MUST(cuMemsetD8(p, 0x5a, 2 * G));
    T("15.destroy ext, release the source handle, buffer still live: destroy", cuDestroyExternalMemory(e));
    T("15.  release source handle", cuMemRelease(h));
    T("15.  then cuMemsetD8(buf)", cuMemsetD8(p, 0x11, 4096));
    T("15.  then cuCtxSynchronize", cuCtxSynchronize());
    unsigned char c = 0;
    TV("15.  then cuMemcpyDtoH(buf)", cuMemcpyDtoH(&c, p, 1), "byte %#x", c);
    T("15.  then cuMemFree(buf)", cuMemFree(p));
}
CASE(buf_wrap) { CUexternalMemory e = imp(NULL); CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = bd((ull)0 - G, 2 * G); CUdeviceptr p = S; TV("14.buffer offset 2^64-G, size 2G (offset+size wraps to G)", cuExternalMemoryGetMappedBuffer(&p, e, &b), "p=%#llx", (ull)p); }
CASE(buf_vmm_calls)
{
    H h;
    CUexternalMemory e = imp(&h);
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = bd(0, 2 * G);
    CUdeviceptr p = S;
    MUST(cuExternalMemoryGetMappedBuffer(&p, e, &b));
    H o = S;
    CUresult r = cuMemRetainAllocationHandle(&o, (void *)(uintptr_t)p);
    printf("14.cuMemRetainAllocationHandle(buffer): %s (o=%#llx ==orig:%d)\n", rn(r), o, o == h);
    if (!r) { props("14.  props(retained)", o); cuMemRelease(o); }
    getacc("14.buffer", p);
    T("14.cuMemSetAccess(buffer,2G,READ)", acc(p, 2 * G, 1));
    T("14.cuMemUnmap(buffer,2G)", cuMemUnmap(p, 2 * G));
    T("14.cuMemAddressFree(buffer,2G)", cuMemAddressFree(p, 2 * G));
    T("14.cuMemFree(buffer)", cuMemFree(p));
    T("14.cuDestroyExternalMemory", cuDestroyExternalMemory(e));
}
CASE(destroy_twice) { CUexternalMemory e = imp(NULL); T("15.cuDestroyExternalMemory first", cuDestroyExternalMemory(e)); T("15.cuDestroyExternalMemory second", cuDestroyExternalMemory(e)); }
CASE(destroy_null) { setup(); T("15.cuDestroyExternalMemory(NULL)", cuDestroyExternalMemory(NULL)); }
CASE(destroy_garbage) { setup(); T("15.cuDestroyExternalMemory(0x12345)", cuDestroyExternalMemory((CUexternalMemory)0x12345)); }
GROUP(extbuf)
{
    H h;
    CUexternalMemory e = imp(&h);
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
    CUdeviceptr p, p2;
    CUresult r;
    printf("14.(ext = import of a 2G allocation, size 2G)\n");
#define BB(label, off, size, mod) do { b = bd(off, size); mod; p = S; r = cuExternalMemoryGetMappedBuffer(&p, e, &b); \
        printf("14.buffer %s: %s (p=%#llx p%%G=%#llx)\n", label, rn(r), (ull)p, (ull)(p % G)); if (!r) cuMemFree(p); } while (0)
    BB("(0,2G) ok", 0, 2 * G, (void)0);
    BB("offset 1", 1, G, (void)0);
    BB("offset 4096", 4096, G, (void)0);
    BB("offset G", G, G, (void)0);
    BB("offset 4096, size 4096", 4096, 4096, (void)0);
    BB("size 1", 0, 1, (void)0);
    BB("size 4096", 0, 4096, (void)0);
    BB("reserved[0]=1", 0, G, b.reserved[0] = 1);
    BB("flags 1 + offset 1", 1, G, b.flags = 1);
    BB("flags 1 + size 0", 0, 0, b.flags = 1);
    BB("size 0 + offset 1", 1, 0, (void)0);
    BB("offset 1 + past end", 1, 2 * G, (void)0);
    BB("offset 2G, size 1", 2 * G, 1, (void)0);
    /* size 1 buffer: what range does it report? */
    b = bd(0, 1); p = S;
    r = cuExternalMemoryGetMappedBuffer(&p, e, &b);
    if (!r) {
        range("14.size-1 buffer", p, p);
        T("14.  cuMemsetD8(p,0,2) past 1 byte", cuMemsetD8(p, 0, 2));
        T("14.  cuMemsetD8(p,0,4096)", cuMemsetD8(p, 0, 4096));
        T("14.  cuMemsetD8(p,0,1)", cuMemsetD8(p, 0, 1));
        cuMemFree(p);
    }
    /* overlapping buffers */
    b = bd(0, 2 * G); p = S;
    MUST(cuExternalMemoryGetMappedBuffer(&p, e, &b));
    b = bd(G, G); p2 = S;
    r = cuExternalMemoryGetMappedBuffer(&p2, e, &b);
    printf("14.overlapping (0,2G) then (G,G): %s (p2-p=%+lld)\n", rn(r), (long long)(p2 - p));
    CUdeviceptr p3 = S;
    b = bd(0, 2 * G);
    CUresult r3 = cuExternalMemoryGetMappedBuffer(&p3, e, &b);
    printf("14.same (0,2G) twice: %s (p3==p:%d)\n", rn(r3), p3 == p);
    if (!r) {
        cuMemsetD8(p + G, 0x33, 16);
        unsigned char c = 0;
        cuMemcpyDtoH(&c, p2, 1);
        printf("14.  write via p+G, read via p2: %#x\n", c);
    }
    range("14.buffer p+100", p + 100, p);
    range("14.buffer p+G+100", p + G + 100, p);
    if (!r) range("14.buffer p2+100", p2 + 100, p);
    attrs("14.buffer p+G+100", p + G + 100, p);
    T("14.cuMemFree(p+4096) interior", cuMemFree(p + 4096));
    if (!r) T("14.cuMemFree(p2)", cuMemFree(p2));
    if (!r3) T("14.cuMemFree(p3)", cuMemFree(p3));
    T("14.cuMemFree(p)", cuMemFree(p));
    T("14.cuMemFree(p) again", cuMemFree(p));
    range("14.  then freed buffer", p, p);
    T("14.cuDestroyExternalMemory", cuDestroyExternalMemory(e));
    cuMemRelease(h);
    risky("buf_null_dev");
    risky("buf_null_desc");
    risky("buf_nullext");
    risky("buf_garbage");
    risky("buf_destroyed");
    risky("buf_wrap");
    risky("buf_vmm_calls");
    risky("destroy_live");
    risky("destroy_live_h_released");
    risky("destroy_twice");
    risky("destroy_null");
    risky("destroy_garbage");
}

/* =========================== 16. timing =========================== */
static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
static int dcmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
#define N 41
static void report(const char *what, double *v)
{
    qsort(v, N, sizeof v[0], dcmp);
    printf("16.%s: median %.1f us (min %.1f, max %.1f, n=%d)\n", what, v[N / 2], v[0], v[N - 1], N);
}
GROUP(timing)
{
    setup();
    double v[N];
    H h = mk(G);
    for (int k = -3; k < N; k++) { /* 3 warm-up runs */
        double t = now_us();
        int fd = xport(h);
        close(fd);
        if (k >= 0) v[k] = now_us() - t;
    }
    report("cuMemExportToShareableHandle(POSIX fd) + close, one granule", v);
    for (int k = -3; k < N; k++) {
        int fd = xport(h);
        H i;
        double t = now_us();
        MUST(cuMemImportFromShareableHandle(&i, (void *)(uintptr_t)fd, 1));
        MUST(cuMemRelease(i));
        if (k >= 0) v[k] = now_us() - t;
        close(fd);
    }
    report("cuMemImportFromShareableHandle + cuMemRelease (fd exported beforehand, untimed)", v);
    for (int k = -3; k < N; k++) {
        double t = now_us();
        CUdeviceptr p;
        MUST(cuMemAddressReserve(&p, G, 0, 0, 0));
        MUST(cuMemAddressFree(p, G));
        if (k >= 0) v[k] = now_us() - t;
    }
    report("cuMemAddressReserve + cuMemAddressFree, 2 MiB", v);
    CUmemAllocationProp p = prop0();
    for (int k = -3; k < N; k++) {
        size_t g;
        double t = now_us();
        MUST(cuMemGetAllocationGranularity(&g, &p, 0));
        if (k >= 0) v[k] = now_us() - t;
    }
    report("cuMemGetAllocationGranularity", v);
    for (int k = -3; k < N; k++) {
        double t = now_us();
        H c = mk(G);
        MUST(cuMemRelease(c));
        if (k >= 0) v[k] = now_us() - t;
    }
    report("cuMemCreate + cuMemRelease, one granule (extra)", v);
    cuMemRelease(h);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 3 && (!strcmp(argv[1], "--case") || !strcmp(argv[1], "--group"))) {
        struct reg *t = argv[1][2] == 'c' ? cases : groups;
        int n = argv[1][2] == 'c' ? ncases : ngroups;
        alarm(argc >= 4 ? (unsigned)atoi(argv[3]) : 30);
        for (int i = 0; i < n; i++)
            if (!strcmp(t[i].name, argv[2])) {
                t[i].fn();
                fflush(stdout);
                _exit(0);
            }
        printf("%s: NO SUCH CASE\n", argv[2]);
        _exit(2);
    }
    int dv = 0;
    cuDriverGetVersion(&dv);
    printf("# vmm_extmem_probe (CUDA_VERSION %d headers, driver %d)\n", CUDA_VERSION, dv);
    cuInit(0); /* keep the driver loaded here so that the children start faster */
    static const char *order[] = {"gran", "create", "release", "reserve", "addrfree", "mapprec", "unmap",
                                  "access", "ops", "retain", "share", "extimp", "extbuf", "timing"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        printf("## group %s\n", order[i]);
        spawn("--group", order[i], 120);
    }
    printf("# done\n");
    return 0;
}
