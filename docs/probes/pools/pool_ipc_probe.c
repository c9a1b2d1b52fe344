/*
 * docs/probes/pools/pool_ipc_probe.c: exportable pools between two processes, the fd passed
 * with SCM_RIGHTS as programs pass it (a CUDA pool's fd cannot be reopened through /proc).
 *   gcc -std=gnu11 -O1 pool_ipc_probe.c -I/usr/local/cuda/include -lcuda -o pool_ipc_probe
 * Output: pool_ipc_probe.out (H200, 580.159.04). Forged export data crashed the driver at some
 * byte after 32, so a second run forged bytes 0..20 only, to reach the cases after it.
 */
#include <cuda.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}
#define P(call) printf("%-72s -> %s\n", #call, rn(call))

struct msg {
    CUmemPoolPtrExportData ea, eb, ec, einner_try;
    CUresult inner, before_export;
};

static void send_fd(int sock, int fd, const struct msg *m)
{
    struct iovec iov = {(void *)m, sizeof *m};
    char ctl[CMSG_SPACE(sizeof(int))];
    struct msghdr h = {0};
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    h.msg_control = ctl;
    h.msg_controllen = sizeof ctl;
    struct cmsghdr *c = CMSG_FIRSTHDR(&h);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    sendmsg(sock, &h, 0);
}

static int recv_fd(int sock, struct msg *m)
{
    struct iovec iov = {m, sizeof *m};
    char ctl[CMSG_SPACE(sizeof(int))];
    struct msghdr h = {0};
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    h.msg_control = ctl;
    h.msg_controllen = sizeof ctl;
    if (recvmsg(sock, &h, 0) <= 0)
        return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&h)), sizeof fd);
    return fd;
}

static int exporter(int sock)
{
    CUcontext ctx;
    if (cuInit(0) || cuCtxCreate(&ctx, NULL, 0, 0))
        return 1;
    CUmemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    pp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    CUmemoryPool xp;
    cuMemPoolCreate(&xp, &pp);
    CUdeviceptr a, b, c;
    cuMemAllocFromPoolAsync(&a, 1 << 16, xp, NULL);
    cuMemAllocFromPoolAsync(&b, 1 << 16, xp, NULL);
    cuMemAllocFromPoolAsync(&c, 1 << 16, xp, NULL);
    cuMemsetD32(a, 500, (1 << 16) / 4);
    cuMemsetD32(b, 501, (1 << 16) / 4);
    cuCtxSynchronize();
    struct msg m;
    memset(&m, 0, sizeof m);
    m.before_export = cuMemPoolExportPointer(&m.ea, a); /* before the pool's handle exists */
    int fd = -1;
    cuMemPoolExportToShareableHandle(&fd, xp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    m.inner = cuMemPoolExportPointer(&m.einner_try, a + 4096);
    cuMemPoolExportPointer(&m.ea, a);
    cuMemPoolExportPointer(&m.eb, b);
    cuMemPoolExportPointer(&m.ec, c);
    cuMemFreeAsync(c, NULL);
    cuCtxSynchronize();
    send_fd(sock, fd, &m);
    char go;
    if (read(sock, &go, 1) < 0)
        return 4;
    unsigned int w = 0;
    cuMemcpyDtoH(&w, a + 4, 4);
    printf("exporter reads the importer's word: %u\n", w);
    fflush(stdout);
    _exit(0);
}

int main(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        return 1;
    pid_t child = fork();
    if (child == 0)
        return exporter(sv[1]);
    struct msg m;
    int fd = recv_fd(sv[0], &m);
    printf("exporter: ExportPointer before ExportToShareableHandle -> %s; of a + 4096 -> %s\n", rn(m.before_export),
           rn(m.inner));
    CUcontext ctx;
    P(cuInit(0));
    P(cuCtxCreate(&ctx, NULL, 0, 0));
    CUmemoryPool ip;
    P(cuMemPoolImportFromShareableHandle(&ip, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    printf("  the caller's fd after import: %s\n", fcntl(fd, F_GETFD) >= 0 ? "open" : "closed");
    CUdeviceptr ia = 0, ib = 0, ic = 0, x = 0;
    P(cuMemPoolImportPointer(&ia, ip, &m.ea));
    unsigned int w = 0;
    P(cuMemcpyDtoH(&w, ia, 4));
    printf("  word %u\n", w);
    w = 7;
    P(cuMemcpyHtoD(ia + 4, &w, 4));
    P(cuMemPoolImportPointer(&x, ip, &m.ea)); /* the same data twice */
    printf("  second import %s the first\n", x == ia ? "==" : "!=");
    P(cuMemPoolImportPointer(&ic, ip, &m.ec)); /* freed by the exporter before it sent it */
    for (int byte = 0; byte < 64; byte += 4) {
        CUmemPoolPtrExportData f = m.ea;
        f.reserved[byte] ^= 0x10;
        CUdeviceptr y = 0;
        CUresult r = cuMemPoolImportPointer(&y, ip, &f);
        printf("forged byte %2d -> %s%s\n", byte, rn(r), r ? "" : (y == ia ? " (the same pointer)" : " (another)"));
    }
    unsigned int pv;
    P(cuPointerGetAttribute(&pv, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, ia));
    printf("  legacy ipc %u\n", pv);
    void *ph = 0;
    P(cuPointerGetAttribute(&ph, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, ia));
    printf("  mempool handle %s the imported pool\n", ph == (void *)ip ? "==" : "!=");
    if (write(sv[0], "x", 1) < 0)
        return 1;
    int status;
    waitpid(child, &status, 0);
    printf("exporter exited\n");
    P(cuMemPoolImportPointer(&ib, ip, &m.eb));
    w = 0;
    P(cuMemcpyDtoH(&w, ia, 4));
    printf("  word after the exporter exited %u\n", w);
    CUstream st;
    cuStreamCreate(&st, 0);
    P(cuMemFreeAsync(ia, st));
    P(cuStreamSynchronize(st));
    if (x && x != ia)
        P(cuMemFree(x));
    P(cuMemPoolDestroy(ip));
    printf("  the caller's fd after destroy: %s\n", fcntl(fd, F_GETFD) >= 0 ? "open" : "closed");
    P(cuCtxDestroy(ctx));
    return 0;
}
