/*
 * extmem-sample-mem-map-ipc: the memMapIPC pattern of NVIDIA's CUDA samples, with the
 * virtual memory management calls and POSIX file descriptors.
 *
 * The parent process creates one shareable allocation (cuMemCreate with
 * CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR), maps it, writes the input, and exports it as a
 * file descriptor (cuMemExportToShareableHandle). It starts PROCESSES children (this program
 * again, "child" role) and sends each the fd over a Unix socket (SCM_RIGHTS). Each child
 * imports the fd (cuMemImportFromShareableHandle), reserves address space, maps the
 * allocation, sets access and runs a kernel over its own slice; the parent waits for all
 * of them and checks every word. No data is copied: all the processes map the same pages.
 *
 * On the software device the fd is a sealed memfd and the kernel a C function; the same
 * sequence of calls runs on the NVIDIA driver with a CUDA kernel in place of the C one.
 */
#define _GNU_SOURCE
#include <extmem/extmem.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROCESSES 4
#define CHILD_SOCKET 3 /* the child's end of its socket */

extern char **environ;

#define CHECK(call)                                                                                \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char *name_ = NULL;                                                              \
            cuGetErrorName(r_, &name_);                                                            \
            fprintf(stderr, "%s failed: %s\n  why: %s\n", #call, name_ ? name_ : "?",              \
                    extmem_error_detail());                                                        \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* What a child leaves in word w of its slice (the parent wrote w there). */
static unsigned int expected(unsigned int w, unsigned int child) { return w * 3u + child + 1u; }

struct slice_args {
    unsigned int *words;
    unsigned int first, count, child;
};

/* The kernel: one block of 256 threads per 256 words of the slice. */
static void compute(const extmem_block *b, void *p)
{
    const struct slice_args *a = p;
    EXTMEM_FOR_EACH_THREAD(b, tx, ty, tz)
    {
        (void)ty;
        (void)tz;
        unsigned int i = b->blockIdx.x * b->blockDim.x + tx;
        if (i < a->count)
            a->words[a->first + i] = expected(a->words[a->first + i], a->child);
    }
}

/* ---- Passing an fd over a Unix socket ---- */

static int send_fd(int sock, int fd)
{
    char byte = 'f';
    struct iovec iov = {&byte, 1};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof(control));
    struct msghdr mh = {0};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = control.buf;
    mh.msg_controllen = sizeof(control.buf);
    struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    return sendmsg(sock, &mh, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
    char byte;
    struct iovec iov = {&byte, 1};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr mh = {0};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = control.buf;
    mh.msg_controllen = sizeof(control.buf);
    if (recvmsg(sock, &mh, MSG_CMSG_CLOEXEC) != 1)
        return -1;
    int fd = -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
    if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
        memcpy(&fd, CMSG_DATA(c), sizeof(int));
    return fd;
}

static void init_context(CUcontext *ctx)
{
    CUdevice dev;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuCtxCreate(ctx, NULL, 0, dev));
}

/* Read-write access for the device, on a whole mapping. */
static void set_rw(CUdeviceptr p, size_t size)
{
    CUmemAccessDesc rw;
    memset(&rw, 0, sizeof(rw));
    rw.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    rw.location.id = 0;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CHECK(cuMemSetAccess(p, size, &rw, 1));
}

/* ---- A child: import, map, compute its slice ---- */

static int child(unsigned int index, unsigned int count, size_t size)
{
    CUcontext ctx;
    init_context(&ctx);
    int fd = recv_fd(CHILD_SOCKET);
    if (fd < 0) {
        fprintf(stderr, "[child %u] receiving the fd failed\n", index);
        return 1;
    }
    CUmemGenericAllocationHandle handle;
    CHECK(cuMemImportFromShareableHandle(&handle, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(fd); /* the import leaves the fd to its caller; the handle keeps the memory */
    CUdeviceptr p;
    CHECK(cuMemAddressReserve(&p, size, 0, 0, 0));
    CHECK(cuMemMap(p, size, 0, handle, 0));
    set_rw(p, size);
    unsigned int words = (unsigned int)(size / sizeof(unsigned int) / count);
    struct slice_args args = {(unsigned int *)(uintptr_t)p, index * words, words, index};
    extmem_dim3 grid = {(words + 255) / 256, 1, 1}, block = {256, 1, 1};
    CHECK(extmem_launch_kernel(compute, grid, block, &args, sizeof(args), NULL));
    CHECK(cuCtxSynchronize());
    printf("[child %u, pid %d] imported fd %d, mapped it at 0x%llx, computed words [%u, %u)\n", index, (int)getpid(),
           fd, (unsigned long long)p, index * words, (index + 1) * words);
    fflush(stdout);
    CHECK(cuMemUnmap(p, size));
    CHECK(cuMemAddressFree(p, size));
    CHECK(cuMemRelease(handle));
    CHECK(cuCtxDestroy(ctx));
    char done = 'd';
    return write(CHILD_SOCKET, &done, 1) == 1 ? 0 : 1;
}

/* ---- The parent ---- */

struct process {
    pid_t pid;
    int sock;
};

/* Starts this program as child index, its socket end as fd CHILD_SOCKET. */
static int spawn_child(struct process *proc, unsigned int index, size_t size)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        return errno;
    int theirs = sv[1];
    if (theirs == CHILD_SOCKET) { /* dup2 onto itself would keep close-on-exec */
        theirs = fcntl(sv[1], F_DUPFD_CLOEXEC, 10);
        close(sv[1]);
    }
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n < 0)
        return errno;
    self[n] = '\0';
    char idx[16], cnt[16], sz[32], role[] = "child";
    snprintf(idx, sizeof(idx), "%u", index);
    snprintf(cnt, sizeof(cnt), "%u", PROCESSES);
    snprintf(sz, sizeof(sz), "%zu", size);
    char *argv[] = {self, role, idx, cnt, sz, NULL};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, theirs, CHILD_SOCKET);
    int err = posix_spawn(&proc->pid, self, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(theirs);
    proc->sock = sv[0];
    return err;
}

static int parent(void)
{
    CUcontext ctx;
    init_context(&ctx);
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t gran;
    CHECK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    size_t want = (size_t)PROCESSES * 1024 * 1024; /* 1 MiB per process */
    size_t size = (want + gran - 1) / gran * gran;

    CUmemGenericAllocationHandle handle;
    CUdeviceptr p;
    CHECK(cuMemCreate(&handle, size, &prop, 0));
    CHECK(cuMemAddressReserve(&p, size, 0, 0, 0));
    CHECK(cuMemMap(p, size, 0, handle, 0));
    set_rw(p, size);
    unsigned int *words = (unsigned int *)(uintptr_t)p;
    unsigned int count = (unsigned int)(size / sizeof(unsigned int)), per_child = count / PROCESSES;
    for (unsigned int w = 0; w < count; ++w)
        words[w] = w;
    printf("[parent] created a %zu-byte shareable allocation (granularity %zu), mapped it at 0x%llx, wrote %u words\n",
           size, gran, (unsigned long long)p, count);

    int fd;
    CHECK(cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    printf("[parent] exported it as fd %d; starting %d processes\n", fd, PROCESSES);
    fflush(stdout);

    struct process procs[PROCESSES];
    for (unsigned int i = 0; i < PROCESSES; ++i) {
        int err = spawn_child(&procs[i], i, size);
        if (err || send_fd(procs[i].sock, fd) != 0) {
            fprintf(stderr, "[parent] starting child %u failed: %s\n", i, strerror(err ? err : errno));
            return 1;
        }
    }
    close(fd); /* each child has its own copy now */
    int status = 0;
    for (unsigned int i = 0; i < PROCESSES; ++i) {
        char done = 0;
        if (read(procs[i].sock, &done, 1) != 1 || done != 'd') {
            fprintf(stderr, "[parent] child %u failed\n", i);
            status = 1;
        }
        close(procs[i].sock);
        int ws = 0;
        if (waitpid(procs[i].pid, &ws, 0) != procs[i].pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
            status = 1;
    }
    if (status) {
        fprintf(stderr, "[parent] a child process failed\n");
        return 1;
    }

    unsigned int wrong = 0;
    for (unsigned int w = 0; w < count; ++w)
        if (words[w] != expected(w, w / per_child) && wrong++ < 5)
            fprintf(stderr, "[parent] word %u is %u, expected %u\n", w, words[w], expected(w, w / per_child));
    CHECK(cuMemUnmap(p, size));
    CHECK(cuMemAddressFree(p, size));
    CHECK(cuMemRelease(handle));
    CHECK(cuCtxDestroy(ctx));
    if (wrong) {
        printf("[parent] %u of %u words are wrong: FAILED\n", wrong, count);
        return 1;
    }
    printf("[parent] verified all %u words computed by %d processes: PASSED\n", count, PROCESSES);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "child") == 0)
        return child((unsigned int)atoi(argv[2]), (unsigned int)atoi(argv[3]), (size_t)strtoull(argv[4], NULL, 10));
    return parent();
}
