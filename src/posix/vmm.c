/* Address space for VMM on Linux (DESIGN.md §8): a reservation is PROT_NONE anonymous
 * memory; a mapping replaces part of it with MAP_FIXED | MAP_SHARED over a memfd. */
#include "os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define RESERVE_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

int os_reserve(size_t size, size_t alignment, uintptr_t hint, void **addr)
{
    if (hint && hint % alignment == 0) {
        void *p = mmap((void *)hint, size, PROT_NONE, RESERVE_FLAGS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p != MAP_FAILED) {
            *addr = p;
            return 0;
        }
    }
    /* Over-reserve, then trim to the alignment. */
    size_t span = size + alignment;
    if (span < size)
        return ENOMEM;
    void *p = mmap(NULL, span, PROT_NONE, RESERVE_FLAGS, -1, 0);
    if (p == MAP_FAILED)
        return errno;
    uintptr_t start = ((uintptr_t)p + alignment - 1) & ~(uintptr_t)(alignment - 1);
    size_t head = start - (uintptr_t)p, tail = span - head - size;
    if (head)
        munmap(p, head);
    if (tail)
        munmap((void *)(start + size), tail);
    *addr = (void *)start;
    return 0;
}

int os_unreserve(void *addr, size_t size) { return munmap(addr, size) == 0 ? 0 : errno; }

int os_map_fixed(const os_memory *mem, size_t offset, void *addr, size_t size)
{
    void *p = mmap(addr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, mem->handle, (off_t)offset);
    if (p == MAP_FAILED)
        return errno;
    /* Device memory: not the fork child's (os.h). The reservation around it is inherited as
     * the driver's is, inaccessible. */
    os_memory_keep_from_fork(p, size);
    return 0;
}

int os_unmap_fixed(void *addr, size_t size)
{
    void *p = mmap(addr, size, PROT_NONE, RESERVE_FLAGS | MAP_FIXED, -1, 0);
    if (p != MAP_FAILED)
        return 0;
    /* At the process's mapping limit (vm.max_map_count) the replacement can be refused: unmap
     * (which never needs a new mapping) and reserve the hole again. */
    int err = errno;
    if (munmap(addr, size) != 0)
        return errno;
    p = mmap(addr, size, PROT_NONE, RESERVE_FLAGS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED || p != addr) {
        if (p != MAP_FAILED)
            munmap(p, size);
        return err; /* unmapped, but the range is no longer reserved */
    }
    return 0;
}

const char *os_vmm_method(void) { return "mmap(MAP_FIXED | MAP_SHARED) of memfds over PROT_NONE reservations"; }

int os_protect(void *addr, size_t size, int access)
{
    int prot = access == OS_ACCESS_READWRITE ? PROT_READ | PROT_WRITE : access == OS_ACCESS_READ ? PROT_READ : PROT_NONE;
    if (os_fault_injected("os_protect", addr, size))
        return ENOMEM; /* what mprotect says when a split would pass vm.max_map_count */
    return mprotect(addr, size, prot) == 0 ? 0 : errno;
}

int os_handle_dup(os_handle h, os_handle *out)
{
    int fd = fcntl(h, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return errno;
    *out = fd;
    return 0;
}

int os_memory_export(const os_memory *mem, os_handle *out) { return os_handle_dup(mem->handle, out); }

int os_memory_open_token(uint32_t token, os_memory *mem)
{
    (void)token;
    (void)mem;
    return ENOTSUP; /* KMT tokens are Windows's */
}

int os_memory_open(os_handle h, os_memory *mem, char *why, size_t why_size)
{
    struct stat st;
    if (fstat(h, &st) != 0)
        return errno;
    /* extmem's memory objects are memfds named "extmem-...", sealed against resizing. The
     * name survives being passed to another process. */
    char link[64], target[256];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", h);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    target[n > 0 ? n : 0] = '\0';
    int seals = fcntl(h, F_GET_SEALS);
    const int need = F_SEAL_SHRINK | F_SEAL_GROW;
    if (!S_ISREG(st.st_mode) || strncmp(target, "/memfd:extmem-", 14) != 0 || seals < 0 || (seals & need) != need) {
        snprintf(why, why_size, "is not memory exported by extmem (it is %s)", target[0] ? target : "unnamed");
        return EINVAL;
    }
    int flags = fcntl(h, F_GETFL);
    int fd = flags < 0 ? -1 : fcntl(h, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return errno;
    /* A MAP_SHARED mapping of a read-only fd can never get PROT_WRITE (mprotect: EACCES). */
    *mem = (os_memory){.handle = fd, .size = (size_t)st.st_size, .read_only = (flags & O_ACCMODE) == O_RDONLY};
    return 0;
}
