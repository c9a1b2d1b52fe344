// A memory pool shared between two processes the stream-ordered way: the exporter makes an
// exportable pool, hands its fd to the importer over a Unix socket (SCM_RIGHTS), allocates
// from it, fills the memory with a kernel and sends the pointer's export data; the importer
// imports the pool and the pointer, reads the bytes with a kernel of its own and writes back.
// Both processes are made before either touches CUDA (a fork child of an initialised process
// may not use it). The expected output is what NVIDIA's runtime printed on an H200
// (pool_ipc.expected: nvcc -arch=sm_90 -cudart shared pool_ipc.cu, run there).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

__global__ void fill(unsigned *p, unsigned n, unsigned base)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = base + i;
}

__global__ void sum(const unsigned *p, unsigned n, unsigned long long *total)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, (unsigned long long)p[i]);
}

__global__ void mark(unsigned *p) { *p = 0xfeedu; }

static void send_fd(int sock, int fd, const void *data, size_t len)
{
    char control[CMSG_SPACE(sizeof(int))] = {};
    struct iovec iov = {const_cast<void *>(data), len};
    struct msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (fd >= 0) {
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    REQUIRE(sendmsg(sock, &msg, 0) == (ssize_t)len);
}

static int recv_fd(int sock, void *data, size_t len)
{
    char control[CMSG_SPACE(sizeof(int))] = {};
    struct iovec iov = {data, len};
    struct msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    REQUIRE(recvmsg(sock, &msg, MSG_WAITALL) == (ssize_t)len);
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    int fd = -1;
    if (c && c->cmsg_type == SCM_RIGHTS)
        memcpy(&fd, CMSG_DATA(c), sizeof(int));
    return fd;
}

static const unsigned kCount = 4096;

static int importer(int sock)
{
    char tag = 0;
    int fd = recv_fd(sock, &tag, 1);
    REQUIRE(fd >= 0);
    cudaMemPool_t pool;
    CHECK(cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)fd, cudaMemHandleTypePosixFileDescriptor, 0));
    close(fd); // the import does not take the caller's fd
    cudaMemPoolPtrExportData data;
    recv_fd(sock, &data, sizeof data);
    void *p = nullptr;
    CHECK(cudaMemPoolImportPointer(&p, pool, &data));
    unsigned long long *total = nullptr;
    CHECK(cudaMalloc(&total, sizeof *total));
    CHECK(cudaMemset(total, 0, sizeof *total));
    sum<<<kCount / 256, 256>>>((const unsigned *)p, kCount, total);
    mark<<<1, 1>>>((unsigned *)p + kCount - 1);
    CHECK(cudaDeviceSynchronize());
    unsigned long long host_sum = 0;
    CHECK(cudaMemcpy(&host_sum, total, sizeof host_sum, cudaMemcpyDeviceToHost));
    printf("importer: sum of the exporter's words %llu\n", host_sum);
    fflush(stdout);
    CHECK(cudaFree(p)); // an imported pointer is freed in the importer
    CHECK(cudaFree(total));
    send_fd(sock, -1, "d", 1);
    REQUIRE(recv_fd(sock, &tag, 1) < 0); // the exporter is done with the pool
    CHECK(cudaMemPoolDestroy(pool));
    return 0;
}

int main()
{
    setvbuf(stdout, nullptr, _IOLBF, 0);
    int socks[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, socks) == 0);
    pid_t pid = fork(); // before any CUDA call, in either process
    if (pid == 0) {
        close(socks[0]);
        exit(importer(socks[1]));
    }
    close(socks[1]);
    int sock = socks[0];
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool;
    CHECK(cudaMemPoolCreate(&pool, &props));
    int fd = -1;
    CHECK(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
    send_fd(sock, fd, "p", 1);
    close(fd);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned *p = nullptr;
    CHECK(cudaMallocFromPoolAsync((void **)&p, kCount * sizeof(unsigned), pool, s));
    fill<<<kCount / 256, 256, 0, s>>>(p, kCount, 1000);
    CHECK(cudaStreamSynchronize(s));
    cudaMemPoolPtrExportData data;
    CHECK(cudaMemPoolExportPointer(&data, p));
    send_fd(sock, -1, &data, sizeof data);
    char tag = 0;
    recv_fd(sock, &tag, 1); // the importer read and wrote the memory
    unsigned last = 0;
    CHECK(cudaMemcpy(&last, p + kCount - 1, sizeof last, cudaMemcpyDeviceToHost));
    printf("exporter: the importer's mark 0x%x\n", last);
    CHECK(cudaFreeAsync(p, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemPoolDestroy(pool));
    send_fd(sock, -1, "x", 1);
    int status = 0;
    waitpid(pid, &status, 0);
    printf("importer exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
