// fork() after cuInit (issue 12 item 11; docs/fork.md). The real driver, probed in
// docs/probes/fork/: in a child forked (without exec) from a process that initialised CUDA,
// cuInit and every call are CUDA_ERROR_NOT_INITIALIZED (cuDriverGetVersion still answers), and
// the parent's device memory cannot be touched from the child (a fault), while pinned host
// memory (cuMemAllocHost) is shared with it. A fork before cuInit is an ordinary process.
//
// Each case runs in a program started for it (a child role: posix_spawn and exec, so nothing
// of the test process's own extmem state is inherited); that program sets up CUDA, forks, and
// reports what its fork child saw, one line each.
#include "framework/testing.h"
#include "extmem/cuda_runtime_api.h"

#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace extmem_test;

namespace {

constexpr size_t kSize = size_t(2) << 20;

/* Ends a fork child that hangs: SIGALRM's default action kills it, which its parent reports. */
void hang_guard(unsigned int seconds) { alarm(seconds); }

/* How a fork child ended, as one line ("exit 0", "signal 14"). */
std::string wait_text(pid_t pid)
{
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return "wait failed";
    return WIFEXITED(st) ? "exit " + std::to_string(WEXITSTATUS(st)) : "signal " + std::to_string(WTERMSIG(st));
}

void say(const std::string &line) { printf("%s\n", line.c_str()); }

/* "name code" for a call made in a fork child; the reason must say why. */
void report(const char *name, CUresult r)
{
    const char *detail = extmem_error_detail();
    bool names_fork = r == CUDA_SUCCESS || strstr(detail, "fork()") != nullptr;
    printf("%s %d%s\n", name, (int)r, names_fork ? "" : " (the reason does not name fork)");
}

volatile std::sig_atomic_t release_host_func;
std::atomic<bool> host_func_running;

void CUDA_CB wait_for_release(void *)
{
    host_func_running = true;
    while (!release_host_func)
        usleep(1000);
}

bool init_context(CUcontext *ctx) { return cuInit(0) == CUDA_SUCCESS && cuCtxCreate(ctx, nullptr, 0, 0) == CUDA_SUCCESS; }

} // namespace

/* The parent initialises, allocates, and leaves a stream busy (a host function that waits for
 * it); its fork child calls the API, with the parent's handles too, under a 10 s hang guard. */
EXTMEM_CHILD_ROLE(fork_after_init)
{
    (void)args;
    CUcontext ctx = nullptr;
    CUdeviceptr d = 0;
    CUstream s = nullptr;
    CUevent e = nullptr;
    if (!init_context(&ctx) || cuMemAlloc(&d, kSize) || cuMemsetD32(d, 0xd0d0d0d0u, kSize / 4) ||
        cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) || cuEventCreate(&e, 0) ||
        cuLaunchHostFunc(s, wait_for_release, nullptr))
        return 10;
    /* Fork while the stream's worker is inside the host function: the work it runs then must
     * not be lost to the child (whose exit, under LeakSanitizer, checks for that). */
    while (!host_func_running)
        usleep(1000);
    pid_t pid = fork();
    if (pid == 0) {
        hang_guard(10);
        uint32_t word = 0x5eed5eedu;
        int count = -1, version = -1;
        CUcontext cur = nullptr, fresh = nullptr;
        CUdeviceptr mine = 0;
        report("cuInit", cuInit(0));
        report("cuDeviceGetCount", cuDeviceGetCount(&count));
        report("cuCtxGetCurrent", cuCtxGetCurrent(&cur));
        report("cuMemcpyHtoD", cuMemcpyHtoD(d, &word, sizeof(word)));
        report("cuMemsetD32", cuMemsetD32(d, word, 1));
        report("cuStreamQuery", cuStreamQuery(s));
        report("cuStreamSynchronize", cuStreamSynchronize(s)); /* the parent's busy stream */
        report("cuEventRecord", cuEventRecord(e, s));
        report("cuEventSynchronize", cuEventSynchronize(e));
        report("cuCtxSynchronize", cuCtxSynchronize());
        report("cuCtxCreate", cuCtxCreate(&fresh, nullptr, 0, 0));
        report("cuMemAlloc", cuMemAlloc(&mine, 4096));
        report("cuMemFree", cuMemFree(d));
        report("cuStreamDestroy", cuStreamDestroy(s));
        report("cuCtxDestroy", cuCtxDestroy(ctx));
        report("cuDriverGetVersion", cuDriverGetVersion(&version));
        /* A fork of the fork child is no better off. */
        fflush(stdout);
        pid_t grandchild = fork();
        if (grandchild == 0) {
            report("grandchild cuInit", cuInit(0));
            _exit(0);
        }
        waitpid(grandchild, nullptr, 0);
        /* exit, not _exit: the library's unload runs in the child too, and must not wait for
         * the parent's busy stream, whose worker the child does not have (docs/streams.md). */
        exit(0);
    }
    say("child " + wait_text(pid));
    release_host_func = 1;
    uint32_t first = 0;
    if (cuStreamSynchronize(s) || cuMemcpyDtoH(&first, d, sizeof(first)))
        return 11;
    char text[64];
    snprintf(text, sizeof(text), "parent word 0x%08x", first);
    say(text);
    if (cuEventDestroy(e) || cuStreamDestroy(s) || cuMemFree(d) || cuCtxDestroy(ctx))
        return 12;
    return 0;
}

TEST(Fork, ChildOfAnInitialisedProcess_EveryCallIsNotInitialized_NeverHangs)
{
    Child c("fork_after_init");
    const std::string not_init = std::to_string((int)CUDA_ERROR_NOT_INITIALIZED);
    for (const char *call : {"cuInit", "cuDeviceGetCount", "cuCtxGetCurrent", "cuMemcpyHtoD", "cuMemsetD32",
                             "cuStreamQuery", "cuStreamSynchronize", "cuEventRecord", "cuEventSynchronize",
                             "cuCtxSynchronize", "cuCtxCreate", "cuMemAlloc", "cuMemFree", "cuStreamDestroy",
                             "cuCtxDestroy"})
        EXPECT_EQ(std::string(call) + " " + not_init, c.read_line()) << "as the driver answers in a fork child";
    EXPECT_EQ("cuDriverGetVersion 0", c.read_line()); // the driver answers this one
    EXPECT_EQ("grandchild cuInit " + not_init, c.read_line());
    EXPECT_EQ("child exit 0", c.read_line()); // no hang (the guard would say "signal 14")
    EXPECT_EQ("parent word 0xd0d0d0d0", c.read_line()); // the child changed nothing of the parent's
    EXPECT_EQ(0, c.wait());
}

namespace {

sigjmp_buf fault_jump;

void on_fault(int sig) { siglongjmp(fault_jump, sig); }

/* Reads the word at p, then writes `value` there, in this process; "fault" for each access the
 * OS refused, else the value read and "written". */
std::string touch(uintptr_t p, uint32_t value)
{
    volatile uint32_t *w = reinterpret_cast<volatile uint32_t *>(p);
    std::string out;
    char text[32];
    if (sigsetjmp(fault_jump, 1) == 0) {
        snprintf(text, sizeof(text), "0x%08x", w[0]);
        out = text;
    } else {
        out = "fault";
    }
    if (sigsetjmp(fault_jump, 1) == 0) {
        w[0] = value;
        out += " written";
    } else {
        out += " fault";
    }
    return out;
}

} // namespace

/* The parent's memory of every kind, each filled with its own word; the fork child touches
 * each directly (no API call), then the parent says what its memory holds. */
EXTMEM_CHILD_ROLE(fork_touch)
{
    (void)args;
    CUcontext ctx = nullptr;
    CUdeviceptr device = 0, vmm = 0, external = 0;
    void *host = nullptr;
    CUmemGenericAllocationHandle h = 0;
    CUexternalMemory ext = nullptr;
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemAccessDesc rw = {};
    rw.location = prop.location;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    int fd = -1;
    if (!init_context(&ctx) || cuMemAlloc(&device, kSize) || cuMemAllocHost(&host, kSize) ||
        cuMemCreate(&h, kSize, &prop, 0) || cuMemAddressReserve(&vmm, kSize, 0, 0, 0) || cuMemMap(vmm, kSize, 0, h, 0) ||
        cuMemSetAccess(vmm, kSize, &rw, 1) || cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0))
        return 10;
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = {};
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    d.handle.fd = fd;
    d.size = kSize;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.offset = 4096;
    b.size = 4096;
    if (cuImportExternalMemory(&ext, &d) || cuExternalMemoryGetMappedBuffer(&external, ext, &b))
        return 11;
    struct place {
        const char *name;
        uintptr_t at;
        uint32_t word;
    } places[] = {{"device", (uintptr_t)device, 0xd0d0d0d0u},
                  {"host", (uintptr_t)host, 0x40404040u},
                  {"vmm", (uintptr_t)vmm, 0x7a7a7a7au},
                  {"external", (uintptr_t)external, 0xe0e0e0e0u}};
    for (const place &p : places)
        *reinterpret_cast<uint32_t *>(p.at) = p.word;
    pid_t pid = fork();
    if (pid == 0) {
        hang_guard(10);
        struct sigaction sa = {};
        sa.sa_handler = on_fault;
        sigaction(SIGSEGV, &sa, nullptr);
        sigaction(SIGBUS, &sa, nullptr);
        for (const place &p : places)
            say(std::string("child ") + p.name + " " + touch(p.at, 0xc41dc41du));
        _exit(0);
    }
    say("child " + wait_text(pid));
    for (const place &p : places) {
        char text[64];
        snprintf(text, sizeof(text), "parent %s 0x%08x", p.name, *reinterpret_cast<uint32_t *>(p.at));
        say(text);
    }
    if (cuMemFree(external) || cuDestroyExternalMemory(ext) || cuMemUnmap(vmm, kSize) ||
        cuMemAddressFree(vmm, kSize) || cuMemRelease(h) || cuMemFreeHost(host) || cuMemFree(device) ||
        cuCtxDestroy(ctx))
        return 12;
    return 0;
}

TEST(Fork, Child_CannotTouchTheParentsDeviceMemory_SharesPinnedHostMemoryAsTheDriverDoes)
{
    Child c("fork_touch");
    // The driver: device memory is not mapped for the CPU in the child (a fault); VMM mappings
    // and mapped external buffers are device memory too.
    EXPECT_EQ("child device fault fault", c.read_line());
    // The driver: cuMemAllocHost memory is a shared mapping the child inherits, reads and writes.
    EXPECT_EQ("child host 0x40404040 written", c.read_line());
    EXPECT_EQ("child vmm fault fault", c.read_line());
    EXPECT_EQ("child external fault fault", c.read_line());
    EXPECT_EQ("child exit 0", c.read_line());
    EXPECT_EQ("parent device 0xd0d0d0d0", c.read_line());
    EXPECT_EQ("parent host 0xc41dc41d", c.read_line()); // the child's write, as on the driver
    EXPECT_EQ("parent vmm 0x7a7a7a7a", c.read_line());
    EXPECT_EQ("parent external 0xe0e0e0e0", c.read_line());
    EXPECT_EQ(0, c.wait());
}

/* A fork before cuInit: the child is a process of its own, and so is the parent afterwards. */
EXTMEM_CHILD_ROLE(fork_before_init)
{
    (void)args;
    pid_t pid = fork();
    if (pid == 0) {
        hang_guard(10);
        CUcontext ctx = nullptr;
        CUdeviceptr d = 0;
        uint32_t v = 0;
        bool ok = init_context(&ctx) && cuMemAlloc(&d, 4096) == CUDA_SUCCESS &&
                  cuMemsetD32(d, 0x600d600du, 1024) == CUDA_SUCCESS && cuMemcpyDtoH(&v, d, 4) == CUDA_SUCCESS &&
                  v == 0x600d600du && cuMemFree(d) == CUDA_SUCCESS && cuCtxDestroy(ctx) == CUDA_SUCCESS;
        say(ok ? "child works" : std::string("child failed: ") + extmem_error_detail());
        _exit(0);
    }
    say("child " + wait_text(pid));
    CUcontext ctx = nullptr;
    say(init_context(&ctx) && cuCtxDestroy(ctx) == CUDA_SUCCESS ? "parent works" : "parent failed");
    return 0;
}

TEST(Fork, BeforeCuInit_ChildAndParentEachInitialise)
{
    Child c("fork_before_init");
    EXPECT_EQ("child works", c.read_line());
    EXPECT_EQ("child exit 0", c.read_line());
    EXPECT_EQ("parent works", c.read_line());
    EXPECT_EQ(0, c.wait());
}

/* The runtime API in a fork child: cudaErrorInitializationError (the driver's code, mapped). */
EXTMEM_CHILD_ROLE(fork_runtime)
{
    (void)args;
    void *p = nullptr;
    if (cudaMalloc(&p, 4096) != cudaSuccess)
        return 10;
    pid_t pid = fork();
    if (pid == 0) {
        hang_guard(10);
        void *q = nullptr;
        printf("cudaMalloc %d\n", (int)cudaMalloc(&q, 4096));
        printf("cudaDeviceSynchronize %d\n", (int)cudaDeviceSynchronize());
        _exit(0);
    }
    say("child " + wait_text(pid));
    return cudaFree(p) == cudaSuccess ? 0 : 11;
}

TEST(Fork, RuntimeCallsInAForkChild_AreInitializationErrors)
{
    Child c("fork_runtime");
    EXPECT_EQ("cudaMalloc " + std::to_string((int)cudaErrorInitializationError), c.read_line());
    EXPECT_EQ("cudaDeviceSynchronize " + std::to_string((int)cudaErrorInitializationError), c.read_line());
    EXPECT_EQ("child exit 0", c.read_line());
    EXPECT_EQ(0, c.wait());
}
