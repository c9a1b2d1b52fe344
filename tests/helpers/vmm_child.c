/*
 * extmem-vmm-child: the other process of tests/vmm_ipc_test.cpp. A separate program (started
 * with posix_spawn, not a fork of the test) that initialises extmem itself, receives
 * allocation fds over a Unix socket and works on the memory they share
 * (vmm_child_protocol.h says what each request does).
 *
 * Usage: extmem-vmm-child SOCKET_FD
 * Exits 0 after VMM_CHILD_QUIT or when the test closes its end; 2 when it cannot start.
 */
#define _GNU_SOURCE
#include "vmm_child_protocol.h"

#include "extmem/extmem.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1;
}

/* Records the first failure of a request in its reply. */
static bool failed(struct vmm_child_reply *rep, const char *step, CUresult r)
{
    if (r == CUDA_SUCCESS)
        return false;
    if (rep->result == 0) {
        rep->result = (int32_t)r;
        snprintf(rep->step, sizeof(rep->step), "%s", step);
        snprintf(rep->detail, sizeof(rep->detail), "%s", extmem_error_detail());
    }
    return true;
}

#define TRY(rep, call) (!failed((rep), #call, (call)))

/* Memory imported from an fd and mapped with read-write access. */
struct shared {
    CUmemGenericAllocationHandle handle;
    CUdeviceptr ptr;
    size_t size;
    int stage; /* 0 nothing, 1 imported, 2 reserved, 3 mapped */
};

static bool shared_open(struct shared *s, int fd, size_t size, struct vmm_child_reply *rep)
{
    s->size = size;
    s->stage = 0;
    CUmemAccessDesc rw;
    memset(&rw, 0, sizeof(rw));
    rw.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (!TRY(rep, cuMemImportFromShareableHandle(&s->handle, (void *)(intptr_t)fd,
                                                 CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)))
        return false;
    s->stage = 1;
    rep->fd_open_after_import = fcntl(fd, F_GETFD) != -1;
    if (!TRY(rep, cuMemAddressReserve(&s->ptr, size, 0, 0, 0)))
        return false;
    s->stage = 2;
    if (!TRY(rep, cuMemMap(s->ptr, size, 0, s->handle, 0)))
        return false;
    s->stage = 3;
    return TRY(rep, cuMemSetAccess(s->ptr, size, &rw, 1));
}

static void shared_close(struct shared *s, struct vmm_child_reply *rep)
{
    if (s->stage >= 3)
        (void)TRY(rep, cuMemUnmap(s->ptr, s->size));
    if (s->stage >= 2)
        (void)TRY(rep, cuMemAddressFree(s->ptr, s->size));
    if (s->stage >= 1)
        (void)TRY(rep, cuMemRelease(s->handle));
    s->stage = 0;
}

static void check_pattern(const struct shared *s, uint32_t seed, struct vmm_child_reply *rep)
{
    const unsigned char *p = (const unsigned char *)(uintptr_t)s->ptr;
    for (size_t i = 0; i < s->size; ++i)
        rep->mismatches += p[i] != vmm_child_pattern(seed, i);
    if (rep->mismatches && rep->result == 0) {
        rep->result = -1;
        snprintf(rep->step, sizeof(rep->step), "checking the parent's bytes");
        snprintf(rep->detail, sizeof(rep->detail), "%d bytes differ from the pattern", rep->mismatches);
    }
}

static void write_pattern(const struct shared *s, uint32_t seed)
{
    unsigned char *p = (unsigned char *)(uintptr_t)s->ptr;
    for (size_t i = 0; i < s->size; ++i)
        p[i] = vmm_child_pattern(seed, i);
}

struct slice_args {
    uint32_t *words;
    uint32_t first, count, index;
};

/* One block of 256 threads per 256 words of the slice. */
static void compute_slice(const extmem_block *b, void *p)
{
    const struct slice_args *a = p;
    EXTMEM_FOR_EACH_THREAD(b, tx, ty, tz)
    {
        (void)ty;
        (void)tz;
        uint32_t i = b->blockIdx.x * b->blockDim.x + tx;
        if (i < a->count)
            a->words[a->first + i] = vmm_child_compute(a->words[a->first + i], a->index);
    }
}

static void serve(const struct vmm_child_request *req, int fd, struct vmm_child_reply *rep, int sock)
{
    struct shared s = {0};
    int back = -1;
    switch (req->op) {
    case VMM_CHILD_COUNT_FDS:
        rep->fds = open_fds();
        break;
    case VMM_CHILD_READ_WRITE_BACK:
    case VMM_CHILD_ROUND_TRIP:
        if (shared_open(&s, fd, req->size, rep)) {
            check_pattern(&s, req->seed, rep);
            write_pattern(&s, req->seed + 1);
            if (req->op == VMM_CHILD_ROUND_TRIP)
                (void)TRY(rep, cuMemExportToShareableHandle(&back, s.handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
        }
        break;
    case VMM_CHILD_COMPUTE_SLICE:
        if (shared_open(&s, fd, req->size, rep)) {
            uint32_t words = (uint32_t)(req->size / 4 / req->count);
            struct slice_args args = {(uint32_t *)(uintptr_t)s.ptr, req->index * words, words, req->index};
            extmem_dim3 grid = {(words + 255) / 256, 1, 1}, block = {256, 1, 1};
            if (TRY(rep, extmem_launch_kernel(compute_slice, grid, block, &args, sizeof(args), NULL)))
                (void)TRY(rep, cuCtxSynchronize());
        }
        break;
    case VMM_CHILD_IMPORT_ONLY:
        if (TRY(rep, cuMemImportFromShareableHandle(&s.handle, (void *)(intptr_t)fd,
                                                    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)))
            s.stage = 1;
        rep->fd_open_after_import = fd >= 0 && fcntl(fd, F_GETFD) != -1;
        break;
    case VMM_CHILD_WRITE_AND_EXIT:
        if (shared_open(&s, fd, req->size, rep)) {
            write_pattern(&s, req->seed + 1);
            _exit(0); /* no unmap, no release, no reply: the OS cleans up */
        }
        break;
    default:
        rep->result = -1;
        snprintf(rep->step, sizeof(rep->step), "unknown request %u", req->op);
        break;
    }
    shared_close(&s, rep);
    if (fd >= 0)
        close(fd); /* the import left it open: it is ours to close */
    int err = vmm_child_send(sock, rep, sizeof(*rep), back);
    if (back >= 0)
        close(back);
    if (err) {
        fprintf(stderr, "extmem-vmm-child: sending the reply failed: %s\n", strerror(err));
        exit(2);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s SOCKET_FD\n", argv[0]);
        return 2;
    }
    int sock = atoi(argv[1]);
    CUdevice dev;
    CUcontext ctx;
    CUresult r = cuInit(0);
    if (r == CUDA_SUCCESS && (r = cuDeviceGet(&dev, 0)) == CUDA_SUCCESS)
        r = cuCtxCreate(&ctx, NULL, 0, dev);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "extmem-vmm-child: starting extmem failed: %s\n", extmem_error_detail());
        return 2;
    }
    for (;;) {
        struct vmm_child_request req;
        int fd = -1;
        int err = vmm_child_recv(sock, &req, sizeof(req), &fd);
        if (err == ECONNRESET || (err == 0 && req.op == VMM_CHILD_QUIT)) {
            if (fd >= 0)
                close(fd);
            break;
        }
        if (err) {
            fprintf(stderr, "extmem-vmm-child: receiving a request failed: %s\n", strerror(err));
            return 2;
        }
        struct vmm_child_reply rep;
        memset(&rep, 0, sizeof(rep));
        serve(&req, fd, &rep, sock);
    }
    cuCtxDestroy(ctx);
    close(sock);
    return 0;
}
