// VMM memory shared between processes: an allocation exported with
// cuMemExportToShareableHandle (a POSIX fd), passed over a Unix socket (SCM_RIGHTS) to a
// real second process (extmem-vmm-child, started with posix_spawn: it calls cuInit itself),
// imported there with cuMemImportFromShareableHandle and mapped; both processes see the
// same bytes. This is the memMapIPC pattern of NVIDIA's samples: the parent creates and
// exports, children import, reserve, map, set access and compute, the parent verifies.
// Every case counts the fds of both processes (the framework checks the parent's after
// each case as well).
#include "framework/testing.h"
#include "helpers/vmm_child_protocol.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

extern char **environ;

using namespace extmem_test;

namespace {

// One running extmem-vmm-child and our end of its socket.
class ChildProcess {
public:
    ChildProcess() = default;
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;
    ~ChildProcess()
    {
        if (sock_ >= 0)
            close(sock_);
        if (pid_ > 0)
            waitpid(pid_, nullptr, 0);
    }

    // Starts the child with its end of a new socket pair as its fd 3.
    ::testing::AssertionResult start()
    {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
            return ::testing::AssertionFailure() << "socketpair: " << strerror(errno);
        int theirs = sv[1];
        if (theirs == VMM_CHILD_SOCKET_FD) { // dup2 onto itself would keep FD_CLOEXEC
            theirs = fcntl(sv[1], F_DUPFD_CLOEXEC, 10);
            close(sv[1]);
        }
        // A stuck child fails the test instead of hanging it.
        struct timeval limit = {30, 0};
        setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, theirs, VMM_CHILD_SOCKET_FD);
        char path[] = EXTMEM_VMM_CHILD, fd_arg[] = "3";
        char *argv[] = {path, fd_arg, nullptr};
        int err = posix_spawn(&pid_, path, &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        close(theirs);
        sock_ = sv[0];
        if (err) {
            pid_ = -1;
            return ::testing::AssertionFailure() << "posix_spawn " << path << ": " << strerror(err);
        }
        return ::testing::AssertionSuccess();
    }

    // Sends a request (with fd when fd >= 0, which stays ours) without waiting.
    ::testing::AssertionResult send(const vmm_child_request &req, int fd = -1)
    {
        int err = vmm_child_send(sock_, &req, sizeof(req), fd);
        if (err)
            return ::testing::AssertionFailure() << "sending request " << req.op << ": " << strerror(err);
        return ::testing::AssertionSuccess();
    }

    // Waits for the reply; *back gets an fd the child sent (or -1), which becomes ours.
    ::testing::AssertionResult receive(vmm_child_reply *rep, int *back = nullptr)
    {
        int fd = -1;
        int err = vmm_child_recv(sock_, rep, sizeof(*rep), &fd);
        if (back)
            *back = fd;
        else if (fd >= 0)
            close(fd);
        if (err)
            return ::testing::AssertionFailure() << "receiving a reply: " << strerror(err);
        if (rep->result != 0)
            return ::testing::AssertionFailure() << "the child failed at " << rep->step << " (" << rep->result
                                                 << "): " << rep->detail;
        return ::testing::AssertionSuccess();
    }

    ::testing::AssertionResult call(const vmm_child_request &req, int fd, vmm_child_reply *rep, int *back = nullptr)
    {
        auto sent = send(req, fd);
        return sent ? receive(rep, back) : sent;
    }

    int count_fds()
    {
        vmm_child_request req{};
        req.op = VMM_CHILD_COUNT_FDS;
        vmm_child_reply rep{};
        return call(req, -1, &rep) ? rep.fds : -1;
    }

    // Asks the child to quit (unless it exits by itself) and returns its exit status, or
    // 128 + the signal that ended it.
    int finish(bool ask = true)
    {
        if (ask) {
            vmm_child_request req{};
            req.op = VMM_CHILD_QUIT;
            send(req);
        }
        close(sock_);
        sock_ = -1;
        int status = 0;
        pid_t pid = pid_;
        pid_ = -1;
        if (waitpid(pid, &status, 0) != pid)
            return -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

private:
    pid_t pid_ = -1;
    int sock_ = -1;
};

class VmmIpc : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
        ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    }

    // An exportable allocation of size bytes, mapped read-write in this process.
    struct Shared {
        CUmemGenericAllocationHandle handle = 0;
        CUdeviceptr ptr = 0;
        size_t size = 0;
        unsigned char *bytes() const { return (unsigned char *)(uintptr_t)ptr; }
    };
    void create_and_map(Shared *s, size_t size)
    {
        s->size = size;
        ASSERT_OK(cuMemCreate(&s->handle, size, &prop, 0));
        map(s);
    }
    void map(Shared *s)
    {
        CUmemAccessDesc rw{};
        rw.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        ASSERT_OK(cuMemAddressReserve(&s->ptr, s->size, 0, 0, 0));
        ASSERT_OK(cuMemMap(s->ptr, s->size, 0, s->handle, 0));
        ASSERT_OK(cuMemSetAccess(s->ptr, s->size, &rw, 1));
    }
    void unmap_and_release(Shared *s)
    {
        EXPECT_OK(cuMemUnmap(s->ptr, s->size));
        EXPECT_OK(cuMemAddressFree(s->ptr, s->size));
        EXPECT_OK(cuMemRelease(s->handle));
        *s = Shared{};
    }
    int export_fd(CUmemGenericAllocationHandle h)
    {
        int fd = -1;
        EXPECT_OK(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
        return fd;
    }
    static void write_pattern(const Shared &s, uint32_t seed)
    {
        for (size_t i = 0; i < s.size; ++i)
            s.bytes()[i] = vmm_child_pattern(seed, i);
    }
    static size_t pattern_mismatches(const Shared &s, uint32_t seed)
    {
        size_t n = 0;
        for (size_t i = 0; i < s.size; ++i)
            n += s.bytes()[i] != vmm_child_pattern(seed, i);
        return n;
    }

    CUmemAllocationProp prop{};
    size_t gran = 0;
};

} // namespace

TEST_F(VmmIpc, ChildImportsMapsAndWritesBack_ParentSeesTheChildsBytes)
{
    Shared s;
    create_and_map(&s, 2 * gran);
    write_pattern(s, 5);
    int fd = export_fd(s.handle);
    ASSERT_GE(fd, 0);

    ChildProcess child;
    ASSERT_TRUE(child.start());
    vmm_child_request req{};
    req.op = VMM_CHILD_READ_WRITE_BACK;
    req.size = s.size;
    req.seed = 5;
    vmm_child_reply rep{};
    EXPECT_TRUE(child.call(req, fd, &rep));
    EXPECT_EQ(0, rep.mismatches) << "the child did not see the parent's bytes";
    EXPECT_EQ(1, rep.fd_open_after_import) << "the import must leave the fd to its caller";
    EXPECT_TRUE(fd_is_open(fd)); // sending a copy leaves ours open
    close(fd);
    EXPECT_EQ(0u, pattern_mismatches(s, 6)) << "the parent does not see the child's bytes";
    EXPECT_EQ(0, child.finish());
    EXPECT_EQ(0u, pattern_mismatches(s, 6)); // the child is gone; the memory is the parent's
    unmap_and_release(&s);
}

TEST_F(VmmIpc, MemMapIpcPattern_FourChildrenComputeTheirSlicesAtOnce_ParentVerifies)
{
    constexpr uint32_t kChildren = 4;
    Shared s;
    create_and_map(&s, 4 * gran);
    uint32_t *words = (uint32_t *)s.bytes();
    size_t count = s.size / 4, per_child = count / kChildren;
    for (size_t w = 0; w < count; ++w)
        words[w] = (uint32_t)w;
    int fd = export_fd(s.handle);
    ASSERT_GE(fd, 0);

    std::vector<ChildProcess> children(kChildren);
    for (uint32_t i = 0; i < kChildren; ++i) {
        ASSERT_TRUE(children[i].start());
        vmm_child_request req{};
        req.op = VMM_CHILD_COMPUTE_SLICE;
        req.index = i;
        req.count = kChildren;
        req.size = s.size;
        EXPECT_TRUE(children[i].send(req, fd)); // all four run at once
    }
    close(fd);
    for (uint32_t i = 0; i < kChildren; ++i) {
        vmm_child_reply rep{};
        EXPECT_TRUE(children[i].receive(&rep)) << "child " << i;
        EXPECT_EQ(1, rep.fd_open_after_import);
    }
    size_t wrong = 0, first_wrong = count;
    for (size_t w = 0; w < count; ++w)
        if (words[w] != vmm_child_compute((uint32_t)w, (uint32_t)(w / per_child)) && wrong++ == 0)
            first_wrong = w;
    EXPECT_EQ(0u, wrong) << "first wrong word " << first_wrong << " is " << (first_wrong < count ? words[first_wrong] : 0);
    for (auto &c : children)
        EXPECT_EQ(0, c.finish());
    unmap_and_release(&s);
}

TEST_F(VmmIpc, ParentReleasesAndUnmapsBeforeTheChildMaps_TheFdKeepsTheMemoryAlive)
{
    Shared s;
    create_and_map(&s, gran);
    write_pattern(s, 9);
    int fd = export_fd(s.handle);
    ASSERT_GE(fd, 0);
    CUmemGenericAllocationHandle old = s.handle;
    unmap_and_release(&s); // the parent holds nothing but the fd now
    CUmemAllocationProp out;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAllocationPropertiesFromHandle(&out, old));

    ChildProcess child;
    ASSERT_TRUE(child.start());
    vmm_child_request req{};
    req.op = VMM_CHILD_ROUND_TRIP;
    req.size = gran;
    req.seed = 9;
    ASSERT_TRUE(child.send(req, fd));
    close(fd); // in flight, the socket's reference is the memory's only one
    vmm_child_reply rep{};
    int back = -1;
    EXPECT_TRUE(child.receive(&rep, &back));
    EXPECT_EQ(0, rep.mismatches) << "the memory did not survive the parent's release";
    ASSERT_GE(back, 0) << "the child sent no fd back";
    EXPECT_EQ(0, child.finish()); // the child has unmapped and released: only `back` is left

    Shared again;
    again.size = gran;
    ASSERT_OK(cuMemImportFromShareableHandle(&again.handle, (void *)(intptr_t)back,
                                             CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(back);
    map(&again);
    EXPECT_EQ(0u, pattern_mismatches(again, 10)) << "the child's bytes did not come back";
    unmap_and_release(&again);
}

TEST_F(VmmIpc, ManyExportsAndImports_LeakNoFdInParentOrChild)
{
    int parent_before = open_fd_count();
    Shared s;
    create_and_map(&s, gran);
    write_pattern(s, 3);
    ChildProcess child;
    ASSERT_TRUE(child.start());
    int child_before = child.count_fds();
    ASSERT_GT(child_before, 0);
    for (int i = 0; i < 16; ++i) {
        int fd = export_fd(s.handle);
        ASSERT_GE(fd, 0);
        vmm_child_request req{};
        req.op = i % 4 == 3 ? VMM_CHILD_READ_WRITE_BACK : VMM_CHILD_IMPORT_ONLY;
        req.size = s.size;
        req.seed = 3;
        vmm_child_reply rep{};
        EXPECT_TRUE(child.call(req, fd, &rep)) << "round " << i;
        EXPECT_EQ(1, rep.fd_open_after_import) << "round " << i;
        close(fd);
        write_pattern(s, 3); // READ_WRITE_BACK changed it
    }
    EXPECT_EQ(child_before, child.count_fds()) << "the child leaked descriptors";
    EXPECT_EQ(0, child.finish());
    unmap_and_release(&s);
    EXPECT_EQ(parent_before, open_fd_count()) << "the parent leaked descriptors";
}

TEST_F(VmmIpc, ChildGivenAForeignMemfd_RefusesItAndLeavesItOpen)
{
    int foreign = memfd_create("not-extmem", MFD_CLOEXEC);
    ASSERT_GE(foreign, 0);
    ASSERT_EQ(0, ftruncate(foreign, (off_t)gran));
    ChildProcess child;
    ASSERT_TRUE(child.start());
    int child_before = child.count_fds();
    vmm_child_request req{};
    req.op = VMM_CHILD_IMPORT_ONLY;
    req.size = gran;
    vmm_child_reply rep{};
    ASSERT_TRUE(child.send(req, foreign));
    close(foreign);
    EXPECT_FALSE(child.receive(&rep)); // the import failed
    EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, rep.result) << rep.detail;
    EXPECT_NE(std::string(rep.detail).find("is not memory exported by extmem"), std::string::npos) << rep.detail;
    EXPECT_EQ(1, rep.fd_open_after_import) << "a failed import must leave the fd open";
    EXPECT_EQ(child_before, child.count_fds());
    EXPECT_EQ(0, child.finish());
}

TEST_F(VmmIpc, ChildExitsWithoutUnmapping_ParentKeepsItsMappingAndTheChildsBytes)
{
    Shared s;
    create_and_map(&s, gran);
    write_pattern(s, 20);
    int fd = export_fd(s.handle);
    ASSERT_GE(fd, 0);
    ChildProcess child;
    ASSERT_TRUE(child.start());
    vmm_child_request req{};
    req.op = VMM_CHILD_WRITE_AND_EXIT;
    req.size = gran;
    req.seed = 20;
    ASSERT_TRUE(child.send(req, fd));
    close(fd);
    EXPECT_EQ(0, child.finish(false)); // it exits with its mapping in place
    EXPECT_EQ(0u, pattern_mismatches(s, 21));
    unmap_and_release(&s);
}
