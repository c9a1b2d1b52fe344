// CUDA IPC between real processes: memory and event handles are capabilities
// (../shared/seeds/002_2ab34fea44c5cb4f.txt; DESIGN.md §9; docs/ipc.md).
#include "framework/testing.h"
#include "extmem/cuda_runtime_api.h"

#if !defined(_WIN32)
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#else
#include <process.h>
#endif

#include <atomic>
#include <chrono>
#include <thread>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

using namespace extmem_test;

namespace {

/* Every role starts like a fresh program: init, a context. */
CUcontext start_role()
{
    CUcontext ctx = nullptr;
    if (cuInit(0) || cuCtxCreate(&ctx, nullptr, 0, 0))
        return nullptr;
    return ctx;
}

std::string code_name(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

CUipcMemHandle mem_handle_from(const std::string &hex)
{
    CUipcMemHandle h{};
    from_hex(hex, &h, sizeof(h));
    return h;
}

} // namespace

/* Opens the handle in argv[0], checks the first word is argv[1], writes argv[2] there, and
 * prints what happened. Waits for a line on stdin before closing. */
EXTMEM_CHILD_ROLE(importer)
{
    if (!start_role())
        return 10;
    int fds = open_fd_count();
    CUdeviceptr p = 0;
    CUresult r = cuIpcOpenMemHandle(&p, mem_handle_from(args[0]), CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    printf("open %s %s\n", code_name(r).c_str(), r ? extmem_error_detail() : "");
    if (r)
        return 0;
    unsigned int word = 0;
    cuMemcpyDtoH(&word, p, 4);
    printf("read %u\n", word);
    unsigned int mine = (unsigned int)std::stoul(args[1]);
    cuMemcpyHtoD(p + 4, &mine, 4);
    printf("wrote\n");
    char line[64];
    if (!fgets(line, sizeof(line), stdin)) // the parent's go-ahead
        return 11;
    cuMemcpyDtoH(&word, p, 4); // the memory stays valid whatever the exporter did meanwhile
    printf("read-again %u\n", word);
    r = cuIpcCloseMemHandle(p);
    printf("close %s fds %d\n", code_name(r).c_str(), open_fd_count() - fds);
    return 0;
}

/* Tries to open a handle and prints the code and the reason. */
EXTMEM_CHILD_ROLE(try_open)
{
    if (!start_role())
        return 10;
    CUdeviceptr p = 0;
    CUresult r = cuIpcOpenMemHandle(&p, mem_handle_from(args[0]), CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    printf("%s %s\n", code_name(r).c_str(), extmem_error_detail());
    if (!r)
        cuIpcCloseMemHandle(p);
    return 0;
}

/* Allocates, fills with argv[0], prints the handle, waits for a line, then frees and exits. */
EXTMEM_CHILD_ROLE(exporter)
{
    if (!start_role())
        return 10;
    CUdeviceptr p;
    if (cuMemAlloc(&p, 1 << 20))
        return 12;
    cuMemsetD32(p, (unsigned int)std::stoul(args[0]), (1 << 20) / 4);
    CUipcMemHandle h;
    if (cuIpcGetMemHandle(&h, p))
        return 13;
    printf("%s\n", to_hex(&h, sizeof(h)).c_str());
    char line[64];
    if (!fgets(line, sizeof(line), stdin))
        return 0;
    cuMemFree(p);
    return 0;
}

/* Opens an event handle, reports its state, waits for it, and reports again. */
EXTMEM_CHILD_ROLE(event_waiter)
{
    if (!start_role())
        return 10;
    CUipcEventHandle h{};
    from_hex(args[0], &h, sizeof(h));
    CUevent e = nullptr;
    CUresult r = cuIpcOpenEventHandle(&e, h);
    printf("open %s %s\n", code_name(r).c_str(), r ? extmem_error_detail() : "");
    if (r)
        return 0;
    printf("query %s\n", code_name(cuEventQuery(e)).c_str());
    CUstream s;
    cuStreamCreate(&s, 0);
    cuStreamWaitEvent(s, e, 0);
    printf("sync %s\n", code_name(cuStreamSynchronize(s)).c_str()); // returns once the parent's work ran
    printf("query %s\n", code_name(cuEventQuery(e)).c_str());
    cuStreamDestroy(s);
    CUipcEventHandle again;
    printf("re-export %s\n", code_name(cuIpcGetEventHandle(&again, e)).c_str());
    printf("destroy %s\n", code_name(cuEventDestroy(e)).c_str());
    return 0;
}

class Ipc : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuMemAlloc(&mem, 1 << 20));
        ASSERT_OK(cuMemsetD32(mem, 42, (1 << 20) / 4));
        ASSERT_OK(cuIpcGetMemHandle(&handle, mem));
        hex = to_hex(&handle, sizeof(handle));
    }
    void TearDown() override
    {
        if (mem) {
            EXPECT_OK(cuMemFree(mem));
        }
        ContextTest::TearDown();
    }
    CUdeviceptr mem = 0;
    CUipcMemHandle handle{};
    std::string hex;
};

TEST_F(Ipc, AnotherProcess_OpensTheSameMemory_AndClosesWithoutLeaks)
{
    int fds = open_fd_count();
    {
        Child c("importer", {hex, "7"});
        EXPECT_EQ("open CUDA_SUCCESS ", c.read_line());
        EXPECT_EQ("read 42", c.read_line());
        EXPECT_EQ("wrote", c.read_line());
        EXPECT_EQ(7u, ((unsigned int *)mem)[1]); // the child's write, in our memory
        ((unsigned int *)mem)[0] = 43;
        c.write_line("go");
        EXPECT_EQ("read-again 43", c.read_line());
        EXPECT_EQ("close CUDA_SUCCESS fds 0", c.read_line()); // the child leaked nothing
        EXPECT_EQ(0, c.wait());
    }
    EXPECT_EQ(fds, open_fd_count()); // nor did we
}

TEST_F(Ipc, ManyImporters_ShareOneExport)
{
    std::vector<std::unique_ptr<Child>> children;
    for (int i = 0; i < 6; ++i)
        children.emplace_back(new Child("importer", {hex, std::to_string(100 + i)}));
    for (auto &c : children) {
        EXPECT_EQ("open CUDA_SUCCESS ", c->read_line());
        EXPECT_EQ("read 42", c->read_line());
        EXPECT_EQ("wrote", c->read_line());
    }
    for (auto &c : children) {
        c->write_line("go");
        EXPECT_EQ("read-again 42", c->read_line());
        EXPECT_EQ("close CUDA_SUCCESS fds 0", c->read_line());
        EXPECT_EQ(0, c->wait());
    }
    unsigned int last = ((unsigned int *)mem)[1];
    EXPECT_GE(last, 100u);
    EXPECT_LE(last, 105u);
}

TEST_F(Ipc, ManyHandlesInFlight)
{
    std::vector<CUdeviceptr> ptrs(16);
    std::vector<std::unique_ptr<Child>> children;
    for (size_t i = 0; i < ptrs.size(); ++i) {
        ASSERT_OK(cuMemAlloc(&ptrs[i], 4096));
        ASSERT_OK(cuMemsetD32(ptrs[i], (unsigned int)(1000 + i), 1024));
        CUipcMemHandle h;
        ASSERT_OK(cuIpcGetMemHandle(&h, ptrs[i]));
        children.emplace_back(new Child("importer", {to_hex(&h, sizeof(h)), "1"}));
    }
    for (size_t i = 0; i < ptrs.size(); ++i) {
        EXPECT_EQ("open CUDA_SUCCESS ", children[i]->read_line());
        EXPECT_EQ("read " + std::to_string(1000 + i), children[i]->read_line());
        EXPECT_EQ("wrote", children[i]->read_line());
        children[i]->write_line("go");
        children[i]->read_line();
        EXPECT_EQ("close CUDA_SUCCESS fds 0", children[i]->read_line());
        EXPECT_EQ(0, children[i]->wait());
        EXPECT_OK(cuMemFree(ptrs[i]));
    }
}

TEST_F(Ipc, ForgedHandles_OpenNothing)
{
    CUipcMemHandle zero{};
    CUipcMemHandle flipped = handle;
    flipped.reserved[45] ^= 1; // one bit of the nonce
    CUipcMemHandle other_fd = handle;
    other_fd.reserved[12] ^= 1;
    CUipcMemHandle reused_pid = handle; // as if our pid now belonged to another process: another
    reused_pid.reserved[16] ^= 1;       // start time, and something else at the descriptor
    reused_pid.reserved[12] ^= 2;
    CUipcMemHandle random;
    for (auto &b : random.reserved)
        b = (char)rand();
    const struct {
        CUipcMemHandle h;
        const char *expect;
    } cases[] = {
        {zero, "CUDA_ERROR_INVALID_VALUE"},        {random, "CUDA_ERROR_INVALID_VALUE"},
        {flipped, "CUDA_ERROR_INVALID_VALUE"},     {other_fd, "CUDA_ERROR_INVALID_VALUE"},
        {reused_pid, "CUDA_ERROR_INVALID_HANDLE"},
    };
    for (auto &c : cases) {
        Child child("try_open", {to_hex(&c.h, sizeof(c.h))});
        std::string line = child.read_line();
        EXPECT_EQ(0u, line.find(c.expect)) << line;
        if (&c == &cases[4]) {
            EXPECT_NE(std::string::npos, line.find("now belongs to another process")) << line;
        }
        EXPECT_EQ(0, child.wait());
    }
}

#if !defined(_WIN32)
/* Whether pid is a live process (not a thread, not exited) that started at `start`, in the
 * units of the handle's bytes 16..23 (/proc/<pid>/stat's starttime). */
static bool process_started_at(uint32_t pid, uint64_t start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%u/status", pid);
    FILE *f = fopen(path, "r");
    unsigned long tgid = 0;
    if (!f)
        return false;
    while (fgets(buf, sizeof(buf), f))
        if (sscanf(buf, "Tgid: %lu", &tgid) == 1)
            break;
    fclose(f);
    snprintf(path, sizeof(path), "/proc/%u/stat", pid);
    if (tgid != pid || !(f = fopen(path, "r")))
        return false;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    char state = p && p[1] ? p[2] : 'X';
    int field = 2;
    for (; p && *p && field < 22; ++p)
        field += *p == ' ';
    return p && state != 'Z' && state != 'X' && strtoull(p, nullptr, 10) == start;
}
#endif

/* The code an open of handle h (with one bit flipped in its byte at offset `at`) must give:
 * the field that byte belongs to decides (the layout in src/interop/ipc.c). */
static CUresult expected_for_flip(const unsigned char *h, int at, bool event)
{
    if (at < 8 || at >= 56) // the magic and the zero bytes: not an extmem handle at all
        return event ? CUDA_ERROR_MAP_FAILED : CUDA_ERROR_INVALID_VALUE;
    if (at >= 16 && at < 24) // the exporter's start time: that process has exited
        return CUDA_ERROR_INVALID_HANDLE;
    if (at >= 12) // the descriptor, inode, size, nonce: not what it exported
        return CUDA_ERROR_INVALID_VALUE;
    uint32_t pid;
    uint64_t start;
    memcpy(&pid, h + 8, 4);
    memcpy(&start, h + 16, 8);
    if (pid == 0)
        return event ? CUDA_ERROR_MAP_FAILED : CUDA_ERROR_INVALID_VALUE;
#if defined(_WIN32)
    if (pid == (uint32_t)_getpid())
        return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_ERROR_INVALID_HANDLE; // no other process started at the very same 100 ns
#else
    if (pid == (uint32_t)getpid())
        return CUDA_ERROR_INVALID_CONTEXT;
    // Another live process that started in the same clock tick is the one the handle names:
    // it just has no such memory.
    return process_started_at(pid, start) ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_HANDLE;
#endif
}

/* Opens the memory handle argv[0] and the event handle argv[1] with every single bit of every
 * at flipped; prints each open that does not fail with the code its field calls for, then a
 * summary. The genuine handles must open before and after. */
EXTMEM_CHILD_ROLE(flip_every_bit)
{
    if (!start_role())
        return 10;
    int opens = 0, wrong = 0;
    for (int kind = 0; kind < 2; ++kind) {
        bool event = kind == 1;
        unsigned char genuine[64];
        from_hex(args[kind], genuine, sizeof(genuine));
        auto open = [&](const unsigned char *h) {
            CUdeviceptr p = 0;
            CUevent e = nullptr;
            CUresult r;
            if (event) {
                CUipcEventHandle eh;
                memcpy(&eh, h, 64);
                if ((r = cuIpcOpenEventHandle(&e, eh)) == CUDA_SUCCESS)
                    cuEventDestroy(e);
            } else {
                CUipcMemHandle mh;
                memcpy(&mh, h, 64);
                if ((r = cuIpcOpenMemHandle(&p, mh, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)) == CUDA_SUCCESS)
                    cuIpcCloseMemHandle(p);
            }
            return r;
        };
        printf("genuine %s\n", code_name(open(genuine)).c_str());
        for (int at = 0; at < 64; ++at) {
            for (int bit = 0; bit < 8; ++bit) {
                unsigned char h[64];
                memcpy(h, genuine, 64);
                h[at] ^= (unsigned char)(1u << bit);
                CUresult want = expected_for_flip(h, at, event), got = open(h);
                opens++;
                if (got != want && wrong++ < 20)
                    printf("%s byte %d bit %d: %s, expected %s: %s\n", event ? "event" : "memory", at, bit,
                           code_name(got).c_str(), code_name(want).c_str(), extmem_error_detail());
            }
        }
        printf("genuine %s\n", code_name(open(genuine)).c_str());
    }
    printf("done %d opens, %d wrong\n", opens, wrong);
    return 0;
}

/* Issue 12, item 9: every field of a handle is checked, so no single flipped bit opens
 * anything; each flip fails with the code of the field it hit, and nothing crashes. The
 * allocation's size is not a whole number of pages, so a size a few bytes off would still fit
 * the object: it must be refused all the same. */
TEST_F(Ipc, EverySingleBitFlipOfAHandle_FailsWithTheCodeOfItsField)
{
    CUdeviceptr odd;
    ASSERT_OK(cuMemAlloc(&odd, 100000));
    CUipcMemHandle mh;
    ASSERT_OK(cuIpcGetMemHandle(&mh, odd));
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CUipcEventHandle eh;
    ASSERT_OK(cuIpcGetEventHandle(&eh, e));
    Child c("flip_every_bit", {to_hex(&mh, sizeof(mh)), to_hex(&eh, sizeof(eh))});
    std::vector<std::string> lines;
    for (std::string line = c.read_line(); !line.empty(); line = c.read_line())
        lines.push_back(line);
    EXPECT_EQ(0, c.wait()); // no crash
    std::string all;
    for (auto &l : lines)
        all += l + "\n";
    ASSERT_EQ(5u, lines.size()) << all;
    EXPECT_EQ("genuine CUDA_SUCCESS", lines[0]);
    EXPECT_EQ("genuine CUDA_SUCCESS", lines[1]);
    EXPECT_EQ("genuine CUDA_SUCCESS", lines[2]);
    EXPECT_EQ("genuine CUDA_SUCCESS", lines[3]);
    EXPECT_EQ("done 1024 opens, 0 wrong", lines[4]);
    EXPECT_OK(cuEventDestroy(e));
    EXPECT_OK(cuMemFree(odd));
}

/* Issue 12, item 9: each allocation's handle carries its own 128 random bits, so one handle
 * tells nothing about the next: consecutive nonces differ in both halves, and the difference
 * between two consecutive ones is not the difference between the next two (a shared secret
 * with a counter would repeat it). */
TEST_F(Ipc, ConsecutiveAllocations_HaveUnrelatedNonces)
{
    CUdeviceptr p[4];
    unsigned char nonce[4][16];
    for (int i = 0; i < 4; ++i) {
        ASSERT_OK(cuMemAlloc(&p[i], 4096));
        CUipcMemHandle h;
        ASSERT_OK(cuIpcGetMemHandle(&h, p[i]));
        memcpy(nonce[i], h.reserved + 40, 16);
    }
    for (int i = 0; i + 1 < 4; ++i) {
        EXPECT_NE(0, memcmp(nonce[i], nonce[i + 1], 8)) << "first halves of nonces " << i << " and " << i + 1;
        EXPECT_NE(0, memcmp(nonce[i] + 8, nonce[i + 1] + 8, 8)) << "second halves of nonces " << i << " and " << i + 1;
    }
    unsigned char d01[16], d12[16], d23[16];
    for (int b = 0; b < 16; ++b) {
        d01[b] = nonce[0][b] ^ nonce[1][b];
        d12[b] = nonce[1][b] ^ nonce[2][b];
        d23[b] = nonce[2][b] ^ nonce[3][b];
    }
    EXPECT_FALSE(memcmp(d01, d12, 16) == 0 && memcmp(d12, d23, 16) == 0);
    EXPECT_NE(0, memcmp(d01, d12, 8));
    EXPECT_NE(0, memcmp(d12, d23, 8));
    for (auto ptr : p)
        EXPECT_OK(cuMemFree(ptr));
}

#if !defined(_WIN32)
/* /proc/<tid> of a thread of the exporter reaches the exporter's descriptors too: a handle
 * whose pid is a thread's id does not name the exporting process, and opens nothing. */
TEST_F(Ipc, AHandleNamingAThreadOfTheExporter_IsInvalidHandle)
{
    std::atomic<pid_t> tid{0};
    std::atomic<bool> done{false};
    std::thread t([&] {
        tid = (pid_t)syscall(SYS_gettid);
        while (!done.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    while (!tid.load())
        std::this_thread::yield();
    CUipcMemHandle h = handle;
    uint32_t thread_id = (uint32_t)tid.load();
    memcpy(h.reserved + 8, &thread_id, 4);
    Child c("try_open", {to_hex(&h, sizeof(h))});
    std::string line = c.read_line();
    EXPECT_EQ(0u, line.find("CUDA_ERROR_INVALID_HANDLE")) << line;
    EXPECT_EQ(0, c.wait());
    done = true;
    t.join();
}
#endif

TEST_F(Ipc, OpenInTheExportingProcess_IsRefused)
{
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuIpcOpenMemHandle(&p, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    EXPECT_DETAIL_HAS("exported by this process");
}

TEST_F(Ipc, OpenAfterTheExporterFreedTheMemory_IsInvalidValue)
{
    ASSERT_OK(cuMemFree(mem));
    mem = 0;
    Child c("try_open", {hex});
    std::string line = c.read_line();
    EXPECT_EQ(0u, line.find("CUDA_ERROR_INVALID_VALUE")) << line; // the driver's code
    EXPECT_NE(std::string::npos, line.find("freed")) << line;
    EXPECT_EQ(0, c.wait());
}

TEST_F(Ipc, OpenAfterTheExporterExited_IsInvalidHandle)
{
    std::string exported;
    {
        Child exporter("exporter", {"5"});
        exported = exporter.read_line();
        exporter.write_line("exit");
        EXPECT_EQ(0, exporter.wait());
    }
    Child c("try_open", {exported});
    std::string line = c.read_line();
    EXPECT_EQ(0u, line.find("CUDA_ERROR_INVALID_HANDLE")) << line;
    EXPECT_NE(std::string::npos, line.find("has exited")) << line;
    EXPECT_EQ(0, c.wait());
}

#if !defined(_WIN32)
/* Issue 12, item 12: an exporter that has exited but that its parent has not reaped yet (a
 * zombie) still has its /proc entry and its start time, and no descriptors: it has exited all
 * the same. */
TEST_F(Ipc, OpenAfterTheExporterExitedButBeforeItIsReaped_IsInvalidHandle)
{
    Child exporter("exporter", {"5"});
    std::string exported = exporter.read_line();
    exporter.write_line("exit");
    siginfo_t info{};
    ASSERT_EQ(0, waitid(P_PID, (id_t)exporter.pid(), &info, WEXITED | WNOWAIT)); // exited, left a zombie
    Child c("try_open", {exported});
    std::string line = c.read_line();
    EXPECT_EQ(0u, line.find("CUDA_ERROR_INVALID_HANDLE")) << line;
    EXPECT_NE(std::string::npos, line.find("has exited")) << line;
    EXPECT_EQ(0, c.wait());
    EXPECT_EQ(0, exporter.wait());
}
#endif

/* Issue 12, item 12: cuIpcGetMemHandle on an allocation another thread is freeing. It must
 * read the object's identity while the allocation is still registered, not through a
 * descriptor the free may have closed (and a new allocation reopened under the same number):
 * every handle it gives names the inode of the allocation its nonce belongs to. ThreadSanitizer
 * sees the descriptor race itself. */
TEST_F(Ipc, GetMemHandleWhileAnotherThreadFrees_NamesTheRightObjectOrFails)
{
    std::atomic<CUdeviceptr> current{0};
    std::atomic<bool> stop{false};
    std::mutex lock;
    std::map<std::string, uint64_t> inode_of; // nonce -> inode, as the allocating thread saw it
    auto fields = [](const CUipcMemHandle &h, std::string *nonce, uint64_t *inode) {
        *nonce = std::string(h.reserved + 40, 16);
        memcpy(inode, h.reserved + 24, 8);
    };
    std::thread allocator([&] {
        cuCtxSetCurrent(ctx);
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(1000);
        while (std::chrono::steady_clock::now() < deadline) {
            CUdeviceptr p;
            CUipcMemHandle h;
            if (cuMemAlloc(&p, 4096) || cuIpcGetMemHandle(&h, p))
                break;
            std::string nonce;
            uint64_t inode;
            fields(h, &nonce, &inode);
            {
                std::lock_guard<std::mutex> g(lock);
                inode_of[nonce] = inode;
            }
            current = p;
            std::this_thread::yield();
            current = 0;
            cuMemFree(p);
        }
        stop = true;
    });
    int handles = 0, wrong = 0, bad_codes = 0;
    std::string first;
    while (!stop.load()) {
        CUdeviceptr p = current.load();
        if (!p)
            continue;
        CUipcMemHandle h;
        CUresult r = cuIpcGetMemHandle(&h, p);
        if (r == CUDA_ERROR_INVALID_VALUE)
            continue; // freed meanwhile
        if (r != CUDA_SUCCESS) {
            if (bad_codes++ == 0)
                first = code_name(r) + " " + extmem_error_detail();
            continue;
        }
        handles++;
        std::string nonce;
        uint64_t inode;
        fields(h, &nonce, &inode);
        std::lock_guard<std::mutex> g(lock);
        if (inode_of.count(nonce) && inode_of[nonce] != inode)
            wrong++;
    }
    allocator.join();
    EXPECT_EQ(0, bad_codes) << first;
    EXPECT_EQ(0, wrong) << "handles naming another allocation's object, of " << handles;
}

TEST_F(Ipc, TheImportersMemoryOutlivesTheExporter)
{
    Child exporter("exporter", {"77"});
    CUipcMemHandle h = mem_handle_from(exporter.read_line());
    CUdeviceptr p = 0;
    ASSERT_OK(cuIpcOpenMemHandle(&p, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    exporter.write_line("free and exit");
    EXPECT_EQ(0, exporter.wait());
    unsigned int v = 0;
    EXPECT_OK(cuMemcpyDtoH(&v, p + 4096, 4));
    EXPECT_EQ(77u, v);
    EXPECT_OK(cuMemsetD32(p, 1, 1024)); // still writable
    EXPECT_OK(cuIpcCloseMemHandle(p));
}

TEST_F(Ipc, OpeningAgain_CountsReferences)
{
    Child exporter("exporter", {"9"});
    CUipcMemHandle h = mem_handle_from(exporter.read_line());
    int fds = open_fd_count();
    CUdeviceptr a = 0, b = 0;
    ASSERT_OK(cuIpcOpenMemHandle(&a, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    ASSERT_OK(cuIpcOpenMemHandle(&b, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    EXPECT_EQ(a, b);
    EXPECT_OK(cuIpcCloseMemHandle(a));
    unsigned int v = 0;
    EXPECT_OK(cuMemcpyDtoH(&v, a, 4)); // one reference left
    EXPECT_EQ(9u, v);
    EXPECT_OK(cuIpcCloseMemHandle(a));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcCloseMemHandle(a));
    EXPECT_EQ(fds, open_fd_count());
    exporter.write_line("done");
    EXPECT_EQ(0, exporter.wait());
}

/* Issue 12, item 3: opens and closes of one handle from two threads. A close that drops the
 * last reference must take the entry out of reach of other opens in the same step, or an open
 * gets a pointer the close unmaps a moment later; two opens at once must share one mapping,
 * since opens are counted per context (seed 002). Each thread reads through what it opened
 * (a fault ends the test) and checks that a pointer the other thread holds is its own. */
TEST_F(Ipc, OpenAndCloseFromTwoThreads_NeverHandOutAPointerBeingUnmapped)
{
    Child exporter("exporter", {"21"});
    CUipcMemHandle h = mem_handle_from(exporter.read_line());
    std::atomic<CUdeviceptr> held[2] = {{0}, {0}};
    std::atomic<int> failures{0}, rounds{0};
    std::string first_failure;
    std::mutex lock;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
    auto worker = [&](int me) {
        cuCtxSetCurrent(ctx);
        auto note = [&](const std::string &what) {
            std::lock_guard<std::mutex> g(lock);
            if (failures++ == 0)
                first_failure = what;
        };
        while (std::chrono::steady_clock::now() < deadline && failures.load() == 0) {
            CUdeviceptr p = 0;
            CUresult r = cuIpcOpenMemHandle(&p, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
            if (r) {
                note("open: " + code_name(r) + " " + extmem_error_detail());
                break;
            }
            held[me] = p;
            CUdeviceptr other = held[1 - me].load();
            if (other && other != p)
                note("two mappings of one handle open in one context at once");
            if (*(volatile unsigned int *)(uintptr_t)p != 21u)
                note("read through the opened pointer gave the wrong value");
            held[me] = 0;
            if ((r = cuIpcCloseMemHandle(p)))
                note("close: " + code_name(r) + " " + extmem_error_detail());
            rounds++;
        }
    };
    std::thread a(worker, 0), b(worker, 1);
    a.join();
    b.join();
    EXPECT_EQ(0, failures.load()) << first_failure << " (after " << rounds.load() << " rounds)";
    EXPECT_GT(rounds.load(), 100);
    exporter.write_line("done");
    EXPECT_EQ(0, exporter.wait());
}

TEST_F(Ipc, OneContextPerExportingProcess)
{
    Child exporter("exporter", {"3"});
    CUipcMemHandle h = mem_handle_from(exporter.read_line());
    CUdeviceptr a = 0, b = 0;
    ASSERT_OK(cuIpcOpenMemHandle(&a, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    CUcontext second;
    ASSERT_OK(cuCtxCreate(&second, nullptr, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuIpcOpenMemHandle(&b, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    EXPECT_DETAIL_HAS("one context per device");
    EXPECT_OK(cuIpcCloseMemHandle(a)); // from the other context: allowed, as on the driver
    EXPECT_OK(cuIpcOpenMemHandle(&b, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)); // now the second context may
    EXPECT_OK(cuIpcCloseMemHandle(b));
    ASSERT_OK(cuCtxDestroy(second));
    exporter.write_line("done");
    EXPECT_EQ(0, exporter.wait());
}

#if !defined(_WIN32)
// Windows: the section's DACL admits its owner alone (win32_handles_test checks the DACL; a
// second user cannot be made under wine).
TEST_F(Ipc, AProcessOfAnotherUser_CannotOpenTheHandle)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "dropping to another user needs root (CI runs as root)";
    auto r = run_in_child([&] {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            return 20;
        Child c("try_open", {hex});
        std::string line = c.read_line();
        c.wait();
        return line.find("CUDA_ERROR_NOT_PERMITTED") == 0 ? 0 : 21;
    });
    EXPECT_TRUE(r.exited);
    EXPECT_EQ(0, r.exit_code);
}
#endif

#if !defined(_WIN32)
/* What the memfd behind this process's descriptor fd is named ("extmem-device-<nonce>"). */
static std::string memfd_name(int fd)
{
    char link[64], target[256];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    std::string t(target, n > 0 ? (size_t)n : 0);
    t = t.substr(t.find(':') + 1);
    return t.substr(0, t.find(' '));
}

/* A hostile exporter of the same user (issue 12, item 8): it exports a genuine handle of
 * argv[0] ("mem" or "event"), then forges one that names an unsealed memfd of its own with
 * the very same name and size, which it could shrink under an importer's mapping (SIGBUS).
 * Prints the genuine handle, then the forged one; waits for a line before exiting. */
EXTMEM_CHILD_ROLE(unsealed_exporter)
{
    if (!start_role())
        return 10;
    unsigned char h[64];
    CUdeviceptr p;
    CUevent e;
    bool mem = args[0] == "mem";
    if (mem ? cuMemAlloc(&p, 1 << 20) || cuIpcGetMemHandle((CUipcMemHandle *)h, p)
            : cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING) ||
                  cuIpcGetEventHandle((CUipcEventHandle *)h, e))
        return 11;
    printf("%s\n", to_hex(h, sizeof(h)).c_str());
    int32_t genuine_fd;
    uint64_t size;
    memcpy(&genuine_fd, h + 12, 4);
    memcpy(&size, h + 32, 8);
    int fd = memfd_create(memfd_name(genuine_fd).c_str(), MFD_CLOEXEC); // no sealing
    struct stat st;
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0 || fstat(fd, &st) != 0)
        return 12;
    uint64_t inode = st.st_ino;
    memcpy(h + 12, &fd, 4);
    memcpy(h + 24, &inode, 8);
    printf("%s\n", to_hex(h, sizeof(h)).c_str());
    char line[16];
    if (!fgets(line, sizeof(line), stdin))
        return 13;
    return 0;
}

TEST_F(Ipc, AMemoryHandleOfAnUnsealedMemfd_IsRefused)
{
    Child c("unsealed_exporter", {"mem"});
    CUipcMemHandle genuine = mem_handle_from(c.read_line()), forged = mem_handle_from(c.read_line());
    CUdeviceptr p = 0;
    ASSERT_OK(cuIpcOpenMemHandle(&p, genuine, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)); // the forgery's model
    EXPECT_OK(cuIpcCloseMemHandle(p));
    CUresult r = cuIpcOpenMemHandle(&p, forged, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, r) << extmem_error_detail();
    if (r == CUDA_SUCCESS)
        cuIpcCloseMemHandle(p);
    else
        EXPECT_DETAIL_HAS("sealed");
    c.write_line("done");
    EXPECT_EQ(0, c.wait());
}

TEST_F(Ipc, AnEventHandleOfAnUnsealedMemfd_IsRefused)
{
    Child c("unsealed_exporter", {"event"});
    CUipcEventHandle genuine{}, forged{};
    from_hex(c.read_line(), &genuine, sizeof(genuine));
    from_hex(c.read_line(), &forged, sizeof(forged));
    CUevent e = nullptr;
    ASSERT_OK(cuIpcOpenEventHandle(&e, genuine));
    EXPECT_OK(cuEventDestroy(e));
    CUresult r = cuIpcOpenEventHandle(&e, forged);
    EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, r) << extmem_error_detail();
    if (r == CUDA_SUCCESS)
        cuEventDestroy(e);
    else
        EXPECT_DETAIL_HAS("sealed");
    c.write_line("done");
    EXPECT_EQ(0, c.wait());
}
#endif

TEST_F(Ipc, BadArguments)
{
    CUdeviceptr p;
    CUipcMemHandle h;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(nullptr, mem));
    ASSERT_OK(cuIpcGetMemHandle(&h, mem + 4096)); // an inner address names the whole allocation
    EXPECT_EQ(0, memcmp(&h, &handle, sizeof(h)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(&h, 0));
    void *host;
    ASSERT_OK(cuMemAllocHost(&host, 4096));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(&h, (CUdeviceptr)host));
    EXPECT_OK(cuMemFreeHost(host));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcOpenMemHandle(nullptr, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcOpenMemHandle(&p, handle, 2));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcCloseMemHandle(mem));
    int attr = -1;
    EXPECT_OK(cuPointerGetAttribute(&attr, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, mem));
    EXPECT_EQ(1, attr);
    EXPECT_OK(cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, 0));
    EXPECT_EQ(1, attr);
}

TEST_F(Ipc, AnEventRecordedHere_IsWaitedOnInAnotherProcess)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CUipcEventHandle h;
    ASSERT_OK(cuIpcGetEventHandle(&h, e));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    static std::atomic<bool> gate{false};
    gate = false;
    ASSERT_OK(cuLaunchHostFunc(s, [](void *) {
        while (!gate.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }, nullptr));
    ASSERT_OK(cuEventRecord(e, s));
    Child c("event_waiter", {to_hex(&h, sizeof(h))});
    EXPECT_EQ("open CUDA_SUCCESS ", c.read_line());
    EXPECT_EQ("query CUDA_ERROR_NOT_READY", c.read_line());
    gate = true;
    EXPECT_EQ("sync CUDA_SUCCESS", c.read_line());
    EXPECT_EQ("query CUDA_SUCCESS", c.read_line());
    EXPECT_EQ("re-export CUDA_ERROR_INVALID_HANDLE", c.read_line());
    EXPECT_EQ("destroy CUDA_SUCCESS", c.read_line());
    EXPECT_EQ(0, c.wait());
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuEventDestroy(e));
}

TEST_F(Ipc, EventHandles_BadArguments)
{
    CUevent plain, e;
    CUipcEventHandle h;
    ASSERT_OK(cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
    memset(&h, 1, sizeof(h));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuIpcGetEventHandle(&h, plain)); // the driver's code
    EXPECT_DETAIL_HAS("CU_EVENT_INTERPROCESS");
    EXPECT_EQ(0, h.reserved[0]); // and it zeroes the output
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetEventHandle(nullptr, plain));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuIpcGetEventHandle(&h, (CUevent)0x77));
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuIpcGetEventHandle(&h, e));
    CUevent opened;
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuIpcOpenEventHandle(&opened, h)); // our own
    CUipcEventHandle zero{};
    EXPECT_CU(CUDA_ERROR_MAP_FAILED, cuIpcOpenEventHandle(&opened, zero)); // the driver's code
    CUipcMemHandle as_mem;
    memcpy(&as_mem, &h, sizeof(h)); // an event handle is not a memory handle
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcOpenMemHandle(&p, as_mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    EXPECT_OK(cuEventDestroy(plain));
    EXPECT_OK(cuEventDestroy(e));
}

/* The runtime's calls: opens the cudaIpcMemHandle_t in argv[0] and prints the first word. */
EXTMEM_CHILD_ROLE(rt_importer)
{
    cudaIpcMemHandle_t h;
    from_hex(args[0], &h, sizeof(h));
    void *p = nullptr;
    cudaError_t e = cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess);
    unsigned int word = 0;
    if (e == cudaSuccess)
        cudaMemcpy(&word, p, 4, cudaMemcpyDeviceToHost);
    printf("%s %u %s\n", cudaGetErrorName(e), word, cudaGetErrorName(cudaIpcCloseMemHandle(p)));
    return 0;
}

TEST(IpcRuntime, HandlesRoundTripThroughTheRuntimeCalls)
{
    void *p = nullptr;
    ASSERT_EQ(cudaSuccess, cudaMalloc(&p, 4096));
    ASSERT_EQ(cudaSuccess, cudaMemset(p, 0x11, 4096));
    cudaIpcMemHandle_t h;
    ASSERT_EQ(cudaSuccess, cudaIpcGetMemHandle(&h, p));
    Child c("rt_importer", {to_hex(&h, sizeof(h))});
    EXPECT_EQ("cudaSuccess 286331153 cudaSuccess", c.read_line());
    EXPECT_EQ(0, c.wait());
    EXPECT_EQ(cudaErrorInvalidValue, cudaIpcOpenMemHandle(&p, h, 2));
    EXPECT_EQ(cudaSuccess, cudaFree(p));
    cudaGetLastError();
}

/* Opens the event handle in argv[0], records it behind argv[1] milliseconds of work in its own
 * stream, says so, and waits for a line before it cleans up (the tests that kill it never
 * send one). */
EXTMEM_CHILD_ROLE(event_recorder)
{
    if (!start_role())
        return 10;
    CUipcEventHandle h{};
    from_hex(args[0], &h, sizeof(h));
    static int ms;
    ms = std::stoi(args[1]);
    CUevent e;
    CUstream s;
    if (cuIpcOpenEventHandle(&e, h) || cuStreamCreate(&s, 0))
        return 11;
    cuLaunchHostFunc(s, [](void *) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }, nullptr);
    printf("record %s\n", code_name(cuEventRecord(e, s)).c_str());
    char line[16];
    if (!fgets(line, sizeof(line), stdin))
        return 12;
    cuStreamDestroy(s);
    cuEventDestroy(e);
    return 0;
}

TEST_F(Ipc, AnEventRecordedInTheImporter_IsSeenByTheExporter)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CUipcEventHandle h;
    ASSERT_OK(cuIpcGetEventHandle(&h, e));
    Child c("event_recorder", {to_hex(&h, sizeof(h)), "200"});
    EXPECT_EQ("record CUDA_SUCCESS", c.read_line());
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(e)); // the child's work is still running
    EXPECT_OK(cuEventSynchronize(e));
    EXPECT_OK(cuEventQuery(e));
    c.write_line("done");
    EXPECT_EQ(0, c.wait());
    EXPECT_OK(cuEventDestroy(e));
}

#if !defined(_WIN32)
/* What extmem writes to stderr while fn runs (at EXTMEM_LOG=warn). */
static std::string stderr_of(const std::function<void()> &fn)
{
    fflush(stderr);
    char path[] = "/tmp/extmem-log-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return "";
    unlink(path);
    int saved = dup(2);
    dup2(fd, 2);
    extmem_log_set(2);
    fn();
    extmem_log_set(0);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char buf[2048] = {0};
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    close(fd);
    return std::string(buf, n > 0 ? (size_t)n : 0);
}
#else
static std::string stderr_of(const std::function<void()> &fn)
{
    fn();
    return "";
}
#endif

/* Issue 12, item 6: a peer's death must never hang the other process. The importer records
 * the exporter's event behind work that will not finish and is killed while the exporter
 * waits: the record is abandoned, cuEventSynchronize returns CUDA_SUCCESS within moments,
 * cuEventQuery answers CUDA_SUCCESS, and a warning names the dead process (docs/ipc.md). */
TEST_F(Ipc, AnImporterKilledWithARecordPending_DoesNotHangTheExportersSynchronize)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CUipcEventHandle h;
    ASSERT_OK(cuIpcGetEventHandle(&h, e));
    Child c("event_recorder", {to_hex(&h, sizeof(h)), "60000"}); // killed before it returns
    ASSERT_EQ("record CUDA_SUCCESS", c.read_line());
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(e)); // the record is pending, its recorder alive
    std::atomic<bool> returned{false};
    std::atomic<int> result{-1};
    std::chrono::steady_clock::time_point killed;
    std::string log = stderr_of([&] {
        std::thread waiter([&] {
            cuCtxSetCurrent(ctx);
            result = cuEventSynchronize(e);
            returned = true;
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(200)); // asleep in the wait by now
        EXPECT_FALSE(returned.load()) << "cuEventSynchronize returned while the recorder lived";
        killed = std::chrono::steady_clock::now();
        c.kill_now();
        while (!returned.load() && std::chrono::steady_clock::now() - killed < std::chrono::seconds(3))
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        if (!returned.load()) {
            ADD_FAILURE() << "cuEventSynchronize still waits 3 s after the recorder died";
            CUstream s; // release the waiter: a later record of our own completes the event
            cuStreamCreate(&s, 0);
            cuEventRecord(e, s);
            cuStreamSynchronize(s);
            cuStreamDestroy(s);
        }
        waiter.join();
    });
    auto took = std::chrono::steady_clock::now() - killed;
    EXPECT_EQ(CUDA_SUCCESS, result.load());
    EXPECT_LT(took, std::chrono::seconds(1));
    EXPECT_OK(cuEventQuery(e));
    EXPECT_EQ(128 + 9, c.wait());
#if !defined(_WIN32)
    EXPECT_NE(std::string::npos, log.find("extmem: warning:")) << log;
    EXPECT_NE(std::string::npos, log.find("process " + std::to_string(c.pid()))) << log;
#endif
    EXPECT_OK(cuEventDestroy(e));
}

/* The same death seen by cuEventQuery alone: the first query after it answers CUDA_SUCCESS,
 * and a stream waiting on the event goes on. */
TEST_F(Ipc, AnImporterKilledWithARecordPending_LeavesTheEventComplete)
{
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CUipcEventHandle h;
    ASSERT_OK(cuIpcGetEventHandle(&h, e));
    Child c("event_recorder", {to_hex(&h, sizeof(h)), "60000"}); // killed before it returns
    ASSERT_EQ("record CUDA_SUCCESS", c.read_line());
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(e));
    c.kill_now();
    EXPECT_EQ(128 + 9, c.wait());
    ASSERT_OK(cuEventQuery(e)); // else the stream below would wait for ever
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    EXPECT_OK(cuStreamWaitEvent(s, e, 0));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuEventDestroy(e));
}

TEST_F(Ipc, AnOpenedAllocation_ReportsItsOwnSize)
{
    CUdeviceptr small;
    ASSERT_OK(cuMemAlloc(&small, 1000));
    CUipcMemHandle h;
    ASSERT_OK(cuIpcGetMemHandle(&h, small));
    auto r = [&] {
        Child c("range_of", {to_hex(&h, sizeof(h))});
        std::string line = c.read_line();
        c.wait();
        return line;
    }();
    EXPECT_EQ("CUDA_SUCCESS 1000", r);
    EXPECT_OK(cuMemFree(small));
}

/* Opens the handle in argv[0] and prints cuMemGetAddressRange's size for the pointer. */
EXTMEM_CHILD_ROLE(range_of)
{
    if (!start_role())
        return 10;
    CUdeviceptr p = 0, base = 0;
    size_t size = 0;
    CUresult r = cuIpcOpenMemHandle(&p, mem_handle_from(args[0]), CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    if (!r)
        r = cuMemGetAddressRange(&base, &size, p);
    printf("%s %zu\n", code_name(r).c_str(), size);
    return 0;
}

TEST_F(Ipc, AnImporterThatDies_LeavesTheExporterUnharmed)
{
    {
        Child c("importer", {hex, "5"});
        EXPECT_EQ("open CUDA_SUCCESS ", c.read_line());
        EXPECT_EQ("read 42", c.read_line());
        EXPECT_EQ("wrote", c.read_line());
        c.kill_now(); // dies with the memory mapped and the handle open
        EXPECT_EQ(128 + 9, c.wait());
    }
    EXPECT_EQ(5u, ((unsigned int *)mem)[1]); // what it wrote stays; the memory is ours as before
    EXPECT_OK(cuMemsetD32(mem, 9, 1024));
    CUipcMemHandle again;
    EXPECT_OK(cuIpcGetMemHandle(&again, mem));
    Child next("importer", {hex, "6"}); // and can be shared again
    EXPECT_EQ("open CUDA_SUCCESS ", next.read_line());
    EXPECT_EQ("read 9", next.read_line());
    next.read_line();
    next.write_line("go");
    next.read_line();
    EXPECT_EQ("close CUDA_SUCCESS fds 0", next.read_line());
    EXPECT_EQ(0, next.wait()); // the framework then checks that nothing leaked here
}
