/* tests/fuzz/import_driver.c: see import_driver.h. */
#define _GNU_SOURCE
#include "import_driver.h"

#include <extmem/extmem.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_FDS 8
#define MAX_IMPORTS 8
#define MAX_BUFFERS 16

enum fd_kind { FD_NONE, FD_EXTMEM, FD_FOREIGN, FD_DEVNULL };

struct state {
    const uint8_t *data;
    size_t size, pos;
    size_t gran;
    struct { int fd; enum fd_kind kind; unsigned long long bytes; } fds[MAX_FDS];
    struct { CUexternalMemory handle; unsigned long long limit; int live; } imports[MAX_IMPORTS];
    struct { CUdeviceptr ptr; unsigned long long size; int live; } buffers[MAX_BUFFERS];
    char *message;
    size_t message_size;
};

static unsigned long imports_done, buffers_done;

void import_driver_counts(unsigned long *imports, unsigned long *buffers)
{
    *imports = imports_done;
    *buffers = buffers_done;
}

static unsigned int next(struct state *s)
{
    return s->pos < s->size ? s->data[s->pos++] : 0;
}

static int differs(struct state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, s->message_size, fmt, ap);
    va_end(ap);
    return 0;
}

static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n - 1;
}

static int fd_open(int fd) { return fd >= 0 && fcntl(fd, F_GETFD) != -1; }

/* Adds an fd of some kind to the pool (replacing, and closing, whatever was in the slot). */
static int make_fd(struct state *s)
{
    unsigned int slot = next(s) % MAX_FDS, kind = next(s) % 3;
    if (s->fds[slot].kind != FD_NONE)
        close(s->fds[slot].fd);
    s->fds[slot].kind = FD_NONE;
    if (kind == 0) {
        CUmemAllocationProp prop = {0};
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
        size_t bytes = s->gran * (1 + next(s) % 2);
        CUmemGenericAllocationHandle h;
        int fd = -1;
        if (cuMemCreate(&h, bytes, &prop, 0) ||
            cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) || cuMemRelease(h))
            return differs(s, "creating and exporting %zu bytes failed: %s\n", bytes, extmem_error_detail());
        s->fds[slot].fd = fd;
        s->fds[slot].kind = FD_EXTMEM;
        s->fds[slot].bytes = bytes;
    } else if (kind == 1) {
        int fd = memfd_create("not-extmem", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (fd < 0 || ftruncate(fd, (off_t)s->gran) != 0)
            return differs(s, "memfd_create failed\n");
        s->fds[slot].fd = fd;
        s->fds[slot].kind = FD_FOREIGN;
    } else {
        s->fds[slot].fd = open("/dev/null", O_RDWR | O_CLOEXEC);
        s->fds[slot].kind = FD_DEVNULL;
    }
    return 1;
}

static unsigned long long pick_size(struct state *s, unsigned long long object)
{
    switch (next(s) % 6) {
    case 0: return 0;
    case 1: return 1 + next(s);
    case 2: return object ? object : s->gran;
    case 3: return object + 4096;
    case 4: return s->gran / 2;
    default: return ~0ull - next(s);
    }
}

static CUresult expected_import(const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, enum fd_kind kind)
{
    int reserved = 0;
    for (int i = 0; i < 16; ++i)
        reserved |= d->reserved[i] != 0;
    if (d->type < 1 || d->type > 9 || d->size == 0 || (d->flags & ~1u) || reserved)
        return CUDA_ERROR_INVALID_VALUE;
    int dedicated = d->flags & CUDA_EXTERNAL_MEMORY_DEDICATED;
    if (!dedicated && (d->type == 5 || d->type == 6 || d->type == 7))
        return CUDA_ERROR_INVALID_VALUE;
    if (d->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD && d->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD) /* no dma-bufs in this pool */
        return CUDA_ERROR_INVALID_VALUE;
    return kind == FD_EXTMEM ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static int do_import(struct state *s)
{
    unsigned int slot = next(s) % MAX_FDS, which = next(s) % 4;
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
    memset(&d, 0, sizeof(d));
    enum fd_kind kind = s->fds[slot].kind;
    d.handle.fd = kind != FD_NONE ? s->fds[slot].fd : -1;
    if (which == 3) { /* a number that is not (or no longer) an fd */
        d.handle.fd = next(s) % 2 ? -1 : 1000 + (int)next(s);
        kind = FD_NONE;
    }
    d.type = (CUexternalMemoryHandleType)(next(s) % 4 ? CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD : next(s) % 12);
    d.size = pick_size(s, kind == FD_EXTMEM ? s->fds[slot].bytes : 0);
    unsigned int f = next(s);
    d.flags = f < 200 ? 0 : f < 240 ? CUDA_EXTERNAL_MEMORY_DEDICATED : f;
    if (next(s) > 250)
        d.reserved[next(s) % 16] = 1 + next(s);
    CUresult want = expected_import(&d, kind);
    CUexternalMemory e = NULL;
    CUresult got = cuImportExternalMemory(&e, &d);
    if (got != want)
        return differs(s, "import fd %d (%d) type %d size %llu flags 0x%x: got %d, want %d: %s\n", d.handle.fd, kind,
                       d.type, d.size, d.flags, got, want, extmem_error_detail());
    if (got != CUDA_SUCCESS) {
        if (kind != FD_NONE && !fd_open(d.handle.fd))
            return differs(s, "a failed import closed the caller's fd %d\n", d.handle.fd);
        return 1;
    }
    /* Success: the fd is extmem's now, and the caller's number is closed, as the driver does. */
    if (fd_open(d.handle.fd))
        return differs(s, "a successful import left the caller's fd %d open\n", d.handle.fd);
    imports_done++;
    unsigned long long object = s->fds[slot].bytes;
    s->fds[slot].kind = FD_NONE;
    for (int i = 0; i < MAX_IMPORTS; ++i)
        if (!s->imports[i].live) {
            s->imports[i].handle = e;
            s->imports[i].limit = d.size < object ? d.size : object;
            s->imports[i].live = 1;
            return 1;
        }
    return cuDestroyExternalMemory(e) == CUDA_SUCCESS ? 1 : differs(s, "destroy failed\n");
}

static int do_map(struct state *s)
{
    unsigned int i = next(s) % MAX_IMPORTS;
    if (!s->imports[i].live)
        return 1;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
    memset(&b, 0, sizeof(b));
    unsigned long long limit = s->imports[i].limit;
    unsigned int how = next(s) % 5;
    b.offset = how == 0 ? 0 : how == 1 ? next(s) * 4099ull : how == 2 ? limit - 1 : next(s) * s->gran / 8;
    b.size = how == 4 ? 0 : 1 + next(s) * 1021ull % (limit + 8192);
    if (next(s) > 245)
        b.flags = 1;
    CUresult want = b.flags || b.size == 0 || b.offset > limit || b.size > limit - b.offset ? CUDA_ERROR_INVALID_VALUE
                                                                                         : CUDA_SUCCESS;
    CUdeviceptr p = 0;
    CUresult got = cuExternalMemoryGetMappedBuffer(&p, s->imports[i].handle, &b);
    if (got != want)
        return differs(s, "map offset %llu size %llu of %llu: got %d, want %d: %s\n", b.offset, b.size, limit, got,
                       want, extmem_error_detail());
    if (got != CUDA_SUCCESS)
        return 1;
    /* Zero copy: a second buffer over the same bytes sees what the first writes. */
    CUdeviceptr q = 0;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC one = b;
    one.size = 1;
    unsigned char v = (unsigned char)next(s), w = 0;
    if (cuMemsetD8(p, v, 1) || cuExternalMemoryGetMappedBuffer(&q, s->imports[i].handle, &one) ||
        cuMemcpyDtoH(&w, q, 1) || cuMemFree(q) || w != v)
        return differs(s, "the bytes of two buffers over offset %llu differ (%u, %u): %s\n", b.offset, v, w,
                       extmem_error_detail());
    buffers_done++;
    for (int k = 0; k < MAX_BUFFERS; ++k)
        if (!s->buffers[k].live) {
            s->buffers[k].ptr = p;
            s->buffers[k].size = b.size;
            s->buffers[k].live = 1;
            return 1;
        }
    return cuMemFree(p) == CUDA_SUCCESS ? 1 : differs(s, "cuMemFree of a buffer failed\n");
}

static int do_free(struct state *s)
{
    unsigned int k = next(s) % MAX_BUFFERS;
    CUresult want = s->buffers[k].live ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    if (!s->buffers[k].live && !s->buffers[k].ptr)
        return 1;
    /* A freed buffer's address may belong to a newer buffer now: not a stale pointer then. */
    for (int other = 0; !s->buffers[k].live && other < MAX_BUFFERS; ++other)
        if (s->buffers[other].live && s->buffers[other].ptr == s->buffers[k].ptr)
            return 1;
    CUresult got = cuMemFree(s->buffers[k].ptr);
    if (got != want)
        return differs(s, "cuMemFree of buffer %u: got %d, want %d\n", k, got, want);
    s->buffers[k].live = 0;
    return 1;
}

static int do_destroy(struct state *s)
{
    unsigned int i = next(s) % MAX_IMPORTS;
    if (!s->imports[i].handle)
        return 1;
    CUresult want = s->imports[i].live ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    CUresult got = cuDestroyExternalMemory(s->imports[i].handle);
    if (got != want)
        return differs(s, "destroy of import %u: got %d, want %d\n", i, got, want);
    s->imports[i].live = 0; /* its buffers stay usable, as on the driver */
    return 1;
}

int import_driver_run(const uint8_t *data, size_t size, char *message, size_t message_size)
{
    static int ready;
    static CUcontext ctx;
    if (!ready) {
        if (cuInit(0) || cuCtxCreate(&ctx, NULL, 0, 0)) {
            snprintf(message, message_size, "no context: %s\n", extmem_error_detail());
            return 0;
        }
        ready = 1;
    }
    struct state s;
    memset(&s, 0, sizeof(s));
    s.data = data;
    s.size = size;
    s.message = message;
    s.message_size = message_size;
    CUmemAllocationProp prop = {0};
    cuMemGetAllocationGranularity(&s.gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    int fds = open_fds(), ok = 1;
    for (int steps = 0; ok && s.pos < s.size && steps < 400; ++steps) {
        switch (next(&s) % 5) {
        case 0: ok = make_fd(&s); break;
        case 1: ok = do_import(&s); break;
        case 2: ok = do_map(&s); break;
        case 3: ok = do_free(&s); break;
        default: ok = do_destroy(&s); break;
        }
    }
    for (int k = 0; k < MAX_BUFFERS; ++k)
        if (s.buffers[k].live && cuMemFree(s.buffers[k].ptr) && ok)
            ok = differs(&s, "cuMemFree at the end failed\n");
    for (int i = 0; i < MAX_IMPORTS; ++i)
        if (s.imports[i].live && cuDestroyExternalMemory(s.imports[i].handle) && ok)
            ok = differs(&s, "destroy at the end failed\n");
    for (int f = 0; f < MAX_FDS; ++f)
        if (s.fds[f].kind != FD_NONE)
            close(s.fds[f].fd);
    if (ok && open_fds() != fds)
        ok = differs(&s, "%d file descriptors leaked\n", open_fds() - fds);
    return ok;
}
