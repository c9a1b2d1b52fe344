/*
 * dma-bufs on Linux through udmabuf (DESIGN.md §10, docs/dmabuf.md): the kernel's udmabuf
 * driver turns pages of sealed memfds into a real dma-buf, so a range of device memory (which
 * is memfds, src/posix/memory.c) becomes a dma-buf over the very same pages, without a copy.
 * udmabuf wants memfds sealed against shrinking and not against writing: extmem's carry
 * F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL and nothing else.
 */
#include "os.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/udmabuf.h>)
#include <linux/udmabuf.h>
#endif
#endif
#ifndef UDMABUF_CREATE_LIST
/* The kernel's user ABI (include/uapi/linux/udmabuf.h, stable since Linux 4.20), for C
 * libraries whose kernel headers predate it. */
#include <linux/ioctl.h>
#include <linux/types.h>
#define UDMABUF_FLAGS_CLOEXEC 0x01
struct udmabuf_create {
    __u32 memfd;
    __u32 flags;
    __u64 offset;
    __u64 size;
};
struct udmabuf_create_item {
    __u32 memfd;
    __u32 __pad;
    __u64 offset;
    __u64 size;
};
struct udmabuf_create_list {
    __u32 flags;
    __u32 count;
    struct udmabuf_create_item list[];
};
#define UDMABUF_CREATE _IOW('u', 0x42, struct udmabuf_create)
#define UDMABUF_CREATE_LIST _IOW('u', 0x43, struct udmabuf_create_list)
#endif

#define DEFAULT_DEVICE "/dev/udmabuf"
#define PARAMETERS "/sys/module/udmabuf/parameters/"

/* EXTMEM_UDMABUF names another device node (tests point it at a missing path to see the
 * unsupported path on a machine that has udmabuf). */
static const char *device_path(void)
{
    const char *env = os_getenv("EXTMEM_UDMABUF");
    return env && env[0] ? env : DEFAULT_DEVICE;
}

static int open_device(int *fd)
{
    *fd = open(device_path(), O_RDWR | O_CLOEXEC);
    return *fd < 0 ? errno : 0;
}

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static bool probe_ok;
static char probe_why[320];

/* A dma-buf provider works when it makes a dma-buf of one sealed page: a device node that
 * opens but is something else, or a driver that refuses extmem's seals, does not count. */
static void probe(void)
{
    const char *path = device_path();
    struct stat st;
    if (stat(path, &st) != 0) {
        int err = errno;
        if (err == ENOENT && strcmp(path, DEFAULT_DEVICE) == 0)
            snprintf(probe_why, sizeof(probe_why),
                     "%s does not exist: this kernel has no udmabuf driver (CONFIG_UDMABUF; `modprobe udmabuf` "
                     "where it is a module)", path);
        else
            snprintf(probe_why, sizeof(probe_why), "%s: %s (errno %d)", path, strerror(err), err);
        return;
    }
    int dev = -1;
    int err = open_device(&dev);
    if (err) {
        snprintf(probe_why, sizeof(probe_why), "%s cannot be opened for reading and writing: %s (errno %d)%s", path,
                 strerror(err), err, err == EACCES ? "; it needs the permission to open it (root, or a udev rule)" : "");
        return;
    }
    int memfd = memfd_create("extmem-udmabuf-probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    long page = sysconf(_SC_PAGESIZE);
    if (memfd < 0 || ftruncate(memfd, page) != 0 ||
        fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        err = errno;
        snprintf(probe_why, sizeof(probe_why), "a sealed memfd for the probe failed: %s (errno %d)", strerror(err), err);
        goto out;
    }
    struct udmabuf_create create = {.memfd = (__u32)memfd, .flags = UDMABUF_FLAGS_CLOEXEC, .offset = 0,
                                    .size = (__u64)page};
    int buf = ioctl(dev, UDMABUF_CREATE, &create);
    if (buf < 0) {
        err = errno;
        snprintf(probe_why, sizeof(probe_why), "%s refused to make a dma-buf of one sealed memfd page: %s (errno %d)%s",
                 path, strerror(err), err, err == ENOTTY ? ": it is not a udmabuf device" : "");
        goto out;
    }
    close(buf);
    probe_ok = true;
out:
    if (memfd >= 0)
        close(memfd);
    close(dev);
}

bool os_dmabuf_supported(const char **why)
{
    pthread_once(&probe_once, probe);
    if (why)
        *why = probe_ok ? "" : probe_why;
    return probe_ok;
}

/* A udmabuf parameter (/sys/module/udmabuf/parameters/NAME), or -1 when it cannot be read. */
static long parameter(const char *name)
{
    char path[128];
    snprintf(path, sizeof(path), PARAMETERS "%s", name);
    FILE *f = fopen(path, "re");
    long v = -1;
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* udmabuf answers EINVAL for its own limits as for bad arguments; the arguments extmem passes
 * are right by construction, so a limit is the likely cause: name it. */
static void explain_einval(size_t count, uint64_t total, char *why, size_t why_size)
{
    long list_limit = parameter("list_limit"), size_limit_mb = parameter("size_limit_mb");
    if (list_limit >= 0 && count > (size_t)list_limit)
        snprintf(why, why_size,
                 "the range is backed by %zu pieces, more than the udmabuf driver's list_limit of %ld "
                 "(" PARAMETERS "list_limit)", count, list_limit);
    else if (size_limit_mb >= 0 && total > (uint64_t)size_limit_mb << 20)
        snprintf(why, why_size,
                 "the range is %llu bytes, more than the udmabuf driver's size_limit_mb of %ld MiB "
                 "(" PARAMETERS "size_limit_mb; root can raise it)", (unsigned long long)total, size_limit_mb);
    else
        snprintf(why, why_size, "the udmabuf driver refused the range (EINVAL)");
}

/*
 * A memfd must outlive every mapping of a dma-buf made from it. udmabuf keeps references to
 * the pages, not to the memfd: when the memfd's last reference goes (cuMemFree, cuMemRelease),
 * its inode is evicted and its pages leave the page cache, and if a mapping of the dma-buf still
 * maps them (Vulkan's import of it through extmem's layer, an mmap), the kernel (Linux 6.1,
 * Debian 12's, seen in tests/dmabuf_vm) reports "BUG: Bad page cache", takes the mapping's
 * references off the pages and frees them under the live mapping, whose unmap is then "BUG: Bad
 * page map": memory corruption.
 *
 * So extmem remembers which memfds it exported as which dma-bufs (by inode), and when such a
 * memfd is closed while a mapping of one of its dma-bufs exists in this process (read from
 * /proc/self/maps), one PROT_NONE shared page of the memfd keeps its file (no descriptor, no
 * memory of its own) until those mappings are gone; that is looked at again at every export and
 * every close of an exported memfd. Mappings in other processes cannot be seen: there the
 * exporter must keep the allocation until they unmap (docs/dmabuf.md).
 */
struct exported { /* a memfd some dma-buf was made from, and that dma-buf */
    dev_t memfd_dev;
    ino_t memfd_ino;
    dev_t buf_dev;
    ino_t buf_ino;
    void *pin; /* the memfd's kept page once the memfd was closed under a mapping, else NULL */
};
static pthread_mutex_t exported_lock = PTHREAD_MUTEX_INITIALIZER;
static struct exported *exported;
static size_t exported_count, exported_cap;

/* The files mapped in this process, read once from /proc/self/maps per look (a process maps
 * thousands of lines; the records to check are few, but each used to read the whole file). */
struct mapped_files {
    bool unknown; /* /proc/self/maps could not be read: every file counts as mapped */
    size_t count, cap;
    struct mapped_file {
        dev_t dev;
        ino_t ino;
    } *files;
};

static void read_mapped_files(struct mapped_files *m)
{
    *m = (struct mapped_files){0};
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f) {
        m->unknown = true;
        return;
    }
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        unsigned long long inode = 0;
        unsigned maj = 0, min = 0;
        bool whole = strchr(line, '\n') != NULL;
        if (sscanf(line, "%*x-%*x %*4s %*x %x:%x %llu", &maj, &min, &inode) == 3 && inode != 0) {
            if (m->count == m->cap) {
                size_t cap = m->cap ? m->cap * 2 : 64;
                struct mapped_file *n = realloc(m->files, cap * sizeof(*n));
                if (!n) {
                    m->unknown = true; /* cannot tell: keep everything */
                    break;
                }
                m->files = n;
                m->cap = cap;
            }
            m->files[m->count++] = (struct mapped_file){makedev(maj, min), (ino_t)inode};
        }
        /* a line longer than the buffer: skip the rest of it */
        while (!whole && fgets(line, sizeof(line), f))
            whole = strchr(line, '\n') != NULL;
    }
    fclose(f);
}

static bool mapped_here(const struct mapped_files *m, dev_t dev, ino_t ino)
{
    if (m->unknown)
        return true;
    for (size_t i = 0; i < m->count; ++i)
        if (m->files[i].ino == ino && m->files[i].dev == dev)
            return true;
    return false;
}

/* Drops the kept pages whose dma-bufs are no longer mapped here, and their records. */
static void drop_unmapped_pins(const struct mapped_files *m)
{
    size_t j = 0;
    for (size_t i = 0; i < exported_count; ++i) {
        struct exported *e = &exported[i];
        if (e->pin && !mapped_here(m, e->buf_dev, e->buf_ino)) {
            /* another record may keep the same memfd for another dma-buf: each has its own page */
            munmap(e->pin, (size_t)sysconf(_SC_PAGESIZE));
            continue;
        }
        exported[j++] = *e;
    }
    exported_count = j;
}

/* Whether any record keeps a page (only then is /proc/self/maps worth reading at an export). */
static bool any_pin(void)
{
    for (size_t i = 0; i < exported_count; ++i)
        if (exported[i].pin)
            return true;
    return false;
}

static int remember_export(const os_dmabuf_piece *pieces, size_t count, int buf)
{
    struct stat bs;
    if (fstat(buf, &bs) != 0)
        return errno;
    pthread_mutex_lock(&exported_lock);
    if (any_pin()) {
        struct mapped_files m;
        read_mapped_files(&m);
        drop_unmapped_pins(&m);
        free(m.files);
    }
    int err = 0;
    for (size_t i = 0; i < count && !err; ++i) {
        struct stat ms;
        if (fstat(pieces[i].memory, &ms) != 0) {
            err = errno;
            break;
        }
        if (exported_count == exported_cap) {
            size_t cap = exported_cap ? exported_cap * 2 : 16;
            struct exported *e = realloc(exported, cap * sizeof(*e));
            if (!e) {
                err = ENOMEM;
                break;
            }
            exported = e;
            exported_cap = cap;
        }
        exported[exported_count++] = (struct exported){ms.st_dev, ms.st_ino, bs.st_dev, bs.st_ino, NULL};
    }
    pthread_mutex_unlock(&exported_lock);
    return err;
}

void os_dmabuf_memory_closing(os_handle memfd)
{
    pthread_mutex_lock(&exported_lock);
    if (exported_count == 0) {
        pthread_mutex_unlock(&exported_lock);
        return;
    }
    struct mapped_files m;
    read_mapped_files(&m);
    drop_unmapped_pins(&m);
    struct stat ms;
    if (fstat(memfd, &ms) == 0) {
        size_t j = 0;
        for (size_t i = 0; i < exported_count; ++i) {
            struct exported *e = &exported[i];
            if (!e->pin && e->memfd_dev == ms.st_dev && e->memfd_ino == ms.st_ino) {
                if (!mapped_here(&m, e->buf_dev, e->buf_ino))
                    continue; /* no mapping here to protect: forget it */
                void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE, MAP_SHARED, memfd, 0);
                if (p == MAP_FAILED)
                    continue; /* nothing else can keep it: as without the record */
                e->pin = p;
            }
            exported[j++] = *e;
        }
        exported_count = j;
    }
    free(m.files);
    pthread_mutex_unlock(&exported_lock);
}

int os_dmabuf_create(const os_dmabuf_piece *pieces, size_t count, os_handle *out, char *why, size_t why_size)
{
    why[0] = '\0';
    if (count == 0 || count > UINT32_MAX / sizeof(struct udmabuf_create_item))
        return EINVAL;
    struct udmabuf_create_list *list = malloc(sizeof(*list) + count * sizeof(list->list[0]));
    if (!list)
        return ENOMEM;
    list->flags = UDMABUF_FLAGS_CLOEXEC;
    list->count = (__u32)count;
    uint64_t total = 0;
    for (size_t i = 0; i < count; ++i) {
        list->list[i].memfd = (__u32)pieces[i].memory;
        list->list[i].__pad = 0;
        list->list[i].offset = pieces[i].offset;
        list->list[i].size = pieces[i].size;
        total += pieces[i].size;
    }
    int dev = -1, err = open_device(&dev);
    if (!err) {
        int fd = ioctl(dev, UDMABUF_CREATE_LIST, list);
        err = fd < 0 ? errno : 0;
        if (!err) {
            err = remember_export(pieces, count, fd);
            if (err) {
                close(fd);
                snprintf(why, why_size, "remembering the dma-buf's memfds failed: %s", strerror(err));
            } else {
                *out = fd;
            }
        }
        close(dev);
    }
    free(list);
    if (err == EINVAL)
        explain_einval(count, total, why, why_size);
    return err;
}
