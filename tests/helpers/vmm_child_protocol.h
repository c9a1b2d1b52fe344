/*
 * tests/helpers/vmm_child_protocol.h: what tests/vmm_ipc_test.cpp and its child process,
 * extmem-vmm-child (vmm_child.c), say to each other over a Unix SOCK_SEQPACKET socket pair.
 *
 * The test starts the child with posix_spawn; the child's end of the pair is its fd 3
 * (argv[1] says so). Each request may carry one fd (SCM_RIGHTS): the fd of an allocation
 * exported with cuMemExportToShareableHandle. Each reply may carry one fd back.
 */
#ifndef EXTMEM_TESTS_VMM_CHILD_PROTOCOL_H
#define EXTMEM_TESTS_VMM_CHILD_PROTOCOL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#define VMM_CHILD_SOCKET_FD 3

enum vmm_child_op {
    /* Reply with the number of open fds. */
    VMM_CHILD_COUNT_FDS = 1,
    /* Import the fd (size bytes), close it, reserve, map, set access; check that byte i is
     * vmm_child_pattern(seed, i); write vmm_child_pattern(seed + 1, i); unmap, free, release. */
    VMM_CHILD_READ_WRITE_BACK,
    /* The memMapIPC pattern: import and map the whole allocation (size bytes, count slices of
     * 32-bit words); a kernel (extmem_launch_kernel) turns word w of slice index into
     * vmm_child_compute(w, index); unmap, free, release. */
    VMM_CHILD_COMPUTE_SLICE,
    /* As READ_WRITE_BACK, then export the child's own handle and send that fd back with the
     * reply before cleaning up: the memory lives on in the parent through it. */
    VMM_CHILD_ROUND_TRIP,
    /* Import the fd and release the handle; the reply's result is the import's. */
    VMM_CHILD_IMPORT_ONLY,
    /* Import, map, set access, write vmm_child_pattern(seed + 1, i), then _exit(0) without
     * unmapping or releasing anything (no reply). */
    VMM_CHILD_WRITE_AND_EXIT,
    /* Clean up and exit 0. */
    VMM_CHILD_QUIT
};

struct vmm_child_request {
    uint32_t op;
    uint32_t index; /* COMPUTE_SLICE: which slice */
    uint32_t count; /* COMPUTE_SLICE: how many slices */
    uint32_t seed;
    uint64_t size;  /* bytes of the allocation */
};

struct vmm_child_reply {
    int32_t result;                /* CUresult of the first call that failed, or 0 */
    int32_t fd_open_after_import;  /* 1 when the received fd was still open after the import */
    int32_t fds;                   /* COUNT_FDS: open fds of the child */
    int32_t mismatches;            /* bytes that differed from the expected pattern */
    char step[160];                /* the call or check that failed */
    char detail[256];              /* extmem_error_detail() after it */
};

/* The byte a writer puts at offset i. */
static inline unsigned char vmm_child_pattern(uint32_t seed, size_t i)
{
    return (unsigned char)((i * 131u + (i >> 12) * 7u + seed * 29u) & 0xffu);
}

/* What the kernel of COMPUTE_SLICE leaves in word w (the parent wrote w there). */
static inline uint32_t vmm_child_compute(uint32_t w, uint32_t index) { return w * 2u + index + 1u; }

/* Sends len bytes and, when fd >= 0, the fd. Returns 0 or an errno value. */
static inline int vmm_child_send(int sock, const void *msg, size_t len, int fd)
{
    struct iovec iov;
    iov.iov_base = (void *)msg;
    iov.iov_len = len;
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr mh;
    memset(&mh, 0, sizeof(mh));
    memset(&control, 0, sizeof(control));
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    if (fd >= 0) {
        mh.msg_control = control.buf;
        mh.msg_controllen = sizeof(control.buf);
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    ssize_t n;
    do
        n = sendmsg(sock, &mh, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n == (ssize_t)len ? 0 : n < 0 ? errno : EPROTO;
}

/* Receives one message of exactly len bytes; *fd gets a passed fd (close-on-exec) or -1.
 * Returns 0, ECONNRESET when the peer closed its end, or another errno value. */
static inline int vmm_child_recv(int sock, void *msg, size_t len, int *fd)
{
    struct iovec iov;
    iov.iov_base = msg;
    iov.iov_len = len;
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr mh;
    memset(&mh, 0, sizeof(mh));
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = control.buf;
    mh.msg_controllen = sizeof(control.buf);
    *fd = -1;
    ssize_t n;
    do
        n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return errno;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
            memcpy(fd, CMSG_DATA(c), sizeof(int));
    if (n == 0)
        return ECONNRESET;
    return n == (ssize_t)len && !(mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) ? 0 : EPROTO;
}

#endif
