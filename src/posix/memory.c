/* Shareable memory on Linux: sealed memfds mapped MAP_SHARED (DESIGN.md §2). */
#include "os.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

size_t os_page_size(void)
{
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

int os_memory_create(os_memory *mem, size_t size, const char *name, const os_share *share)
{
    (void)share; /* os.h: a memfd reaches only the processes its fd is given to */
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return errno;
    if (ftruncate(fd, (off_t)size) != 0)
        goto fail;
    /* The size is fixed from now on: whoever receives the fd (an importer, a dma-buf
     * exporter) can trust it, and nobody can shrink it under a mapping (SIGBUS). */
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
        goto fail;
    *mem = (os_memory){.handle = fd, .size = size};
    return 0;
fail:;
    int err = errno;
    close(fd);
    return err;
}

int os_memory_map(const os_memory *mem, size_t offset, size_t size, void **addr)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, mem->handle, (off_t)offset);
    if (p == MAP_FAILED)
        return errno;
    os_memory_keep_from_fork(p, size);
    *addr = p;
    return 0;
}

void os_memory_keep_from_fork(void *addr, size_t size)
{
    /* A fork child gets a hole here: touching it faults, as the driver's device memory does in
     * its fork children. It cannot fail on a mapping just made; nothing to report if it did. */
    (void)madvise(addr, size, MADV_DONTFORK);
}

void os_memory_inherit(void *addr, size_t size) { (void)madvise(addr, size, MADV_DOFORK); }

int os_memory_unmap(void *addr, size_t size)
{
    return munmap(addr, size) == 0 ? 0 : errno;
}

void os_memory_close(os_memory *mem)
{
    if (mem->handle >= 0) {
        os_dmabuf_memory_closing(mem->handle); /* a dma-buf of it may still be mapped (dmabuf.c) */
        close(mem->handle);
    }
    mem->handle = OS_INVALID_HANDLE;
}

bool os_memory_size_is_fixed(os_handle h)
{
    /* Seals cannot be taken off again: once seen, they hold for the object's life. */
    int seals = fcntl(h, F_GET_SEALS);
    return seals >= 0 && (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) == (F_SEAL_SHRINK | F_SEAL_GROW);
}

bool os_memory_is_readable(const void *addr, size_t size)
{
    /* process_vm_readv on this very process reads one byte of each page through the kernel,
     * which reports EFAULT for a page it cannot read instead of faulting: 256 pages a call. */
    size_t page = os_page_size();
    uintptr_t p = (uintptr_t)addr, end = p + size;
    if (size == 0 || end < p)
        return size == 0;
    pid_t self = getpid();
    while (p < end) {
        struct iovec remote[256];
        unsigned char scratch[256];
        int n = 0;
        for (; n < 256 && p < end; ++n) {
            remote[n].iov_base = (void *)p;
            remote[n].iov_len = 1;
            p = (p & ~(uintptr_t)(page - 1)) + page;
        }
        struct iovec local = {scratch, (size_t)n};
        ssize_t got = process_vm_readv(self, &local, 1, remote, (unsigned long)n, 0);
        if (got < 0 && (errno == ENOSYS || errno == EPERM)) /* forbidden here (seccomp): map check */
            return os_memory_is_mapped(addr, size);
        if (got != n)
            return false;
    }
    return true;
}

bool os_memory_is_mapped(const void *addr, size_t size)
{
    size_t page = os_page_size();
    uintptr_t start = (uintptr_t)addr & ~(uintptr_t)(page - 1);
    uintptr_t end = (uintptr_t)addr + size;
    if (end < (uintptr_t)addr)
        return false;
    /* msync on a range answers ENOMEM when part of it is not mapped, without touching it. */
    return msync((void *)start, end - start, MS_ASYNC) == 0;
}

int os_share_check(const void *security, char *why, size_t why_size)
{
    (void)security;
    (void)why;
    (void)why_size;
    return 0; /* nothing to check: Linux has no security attributes for memfds */
}
