/*
 * External memory objects on Linux: which fds extmem can import, and where their bytes are.
 * OPAQUE_FD accepts extmem's own memfds and Mesa's memory fds (lavapipe); DMABUF_FD accepts
 * dma-bufs. Nothing here takes or changes the caller's fd.
 */
#include "os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Mesa's util/os_memory_fd.c puts this header at the start of the memfd it creates for
 * exportable memory (docs/lavapipe-memfd.md); the data begins at `offset`, and `offset` is
 * repeated in the 8 bytes before the data. */
struct mesa_memory_header {
    uint64_t size;    /* bytes in the whole object */
    uint64_t offset;  /* where the data starts */
    uint8_t uuid[16]; /* SHA-1 of the driver's id: "llvmpipe" for release builds */
};

/* The memfd name lavapipe gives its exportable memory. */
#define LAVAPIPE_MEMFD "/memfd:llvmpipe memory fd"

static void fd_target(os_handle h, char *target, size_t size)
{
    char link[64];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", h);
    ssize_t n = readlink(link, target, size - 1);
    target[n > 0 ? n : 0] = '\0';
}

static bool sealed(os_handle h)
{
    int seals = fcntl(h, F_GET_SEALS);
    return seals >= 0 && (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) == (F_SEAL_SHRINK | F_SEAL_GROW);
}

static bool identify_mesa(os_handle h, const struct stat *st, os_external *out)
{
    struct mesa_memory_header header;
    if (!sealed(h) || pread(h, &header, sizeof(header), 0) != (ssize_t)sizeof(header))
        return false;
    if (header.size != (uint64_t)st->st_size || header.offset < sizeof(header) || header.offset >= header.size)
        return false;
    /* Mesa repeats the offset in the 8 bytes just before the data. */
    uint64_t repeated;
    if (pread(h, &repeated, sizeof(repeated), (off_t)(header.offset - sizeof(repeated))) != (ssize_t)sizeof(repeated) ||
        repeated != header.offset)
        return false;
    out->kind = OS_EXTERNAL_MESA;
    out->data_offset = (size_t)header.offset;
    out->data_size = (size_t)(header.size - header.offset);
    return true;
}

int os_external_identify(os_handle h, bool dmabuf, os_external *out, char *why, size_t why_size)
{
    struct stat st;
    if (h < 0)
        return EBADF;
    if (fstat(h, &st) != 0)
        return errno;
    char target[256];
    fd_target(h, target, sizeof(target));
    if (dmabuf) {
        if (strncmp(target, "/dmabuf:", 8) != 0 && strncmp(target, "anon_inode:dmabuf", 17) != 0) {
            snprintf(why, why_size, "is not a dma-buf (it is %s)", target[0] ? target : "unnamed");
            return EINVAL;
        }
        off_t end = lseek(h, 0, SEEK_END);
        if (end <= 0) {
            snprintf(why, why_size, "is a dma-buf whose size cannot be read");
            return EINVAL;
        }
        lseek(h, 0, SEEK_SET);
        out->kind = OS_EXTERNAL_DMABUF;
        out->data_offset = 0;
        out->data_size = (size_t)end;
        return 0;
    }
    if (S_ISREG(st.st_mode) && strncmp(target, "/memfd:extmem-", 14) == 0 && sealed(h)) {
        out->kind = OS_EXTERNAL_EXTMEM;
        out->data_offset = 0;
        out->data_size = (size_t)st.st_size;
        return 0;
    }
    /* Mesa builds from git hash another driver id into the header's uuid, so the structure and
     * the name identify lavapipe's memory, not the uuid alone. */
    if (S_ISREG(st.st_mode) && strncmp(target, LAVAPIPE_MEMFD, sizeof(LAVAPIPE_MEMFD) - 1) == 0 &&
        identify_mesa(h, &st, out))
        return 0;
    snprintf(why, why_size, "is not memory from a compatible exporter (extmem or Mesa's lavapipe); it is %s",
             target[0] ? target : "unnamed");
    return EINVAL;
}

int os_external_map(os_handle h, uint64_t offset, size_t size, void **ptr, void **base, size_t *len)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t start = offset / page * page;
    size_t span = (size_t)(offset - start) + size;
    void *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_SHARED, h, (off_t)start);
    if (p == MAP_FAILED)
        return errno;
    os_memory_keep_from_fork(p, span); /* device memory: not the fork child's (os.h) */
    *base = p;
    *len = span;
    *ptr = (char *)p + (offset - start);
    return 0;
}

void os_handle_close(os_handle h)
{
    if (h >= 0)
        close(h);
}

int os_external_open_name(const uint16_t *name, os_handle *out)
{
    (void)name;
    (void)out;
    return ENOTSUP; /* named memory objects are Windows's */
}

int os_external_open_token(uint32_t token, os_handle *out)
{
    (void)token;
    (void)out;
    return ENOTSUP;
}
