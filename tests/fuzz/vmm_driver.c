/*
 * tests/fuzz/vmm_driver.c: VMM operations checked against a reference model (vmm_driver.h).
 *
 * The model knows which ranges are reserved, which are mapped to which allocation with which
 * access, which handles are live and how many references each has, which exported fds are
 * open, and a stamp for every granule of every piece of memory. The rules it predicts result
 * codes with are those of src/vmm_*.c, which follow ../../../shared/seeds/003_3a96fd0a7bd408ba.txt
 * and the VMM tables of BEHAVIOR.md and docs/driver-observations.md §15:
 *   cuMemMap: flags (INVALID_VALUE), then the handle (INVALID_VALUE), size or ptr 0
 *   (INVALID_VALUE), offset / size / alignment / size > allocation / not inside one reservation
 *   (NOT_SUPPORTED), an overlap with a mapping last (INVALID_VALUE);
 *   cuMemUnmap: an aligned range starting in a reservation; every mapping it touches must lie
 *   wholly inside it; unmapped granules are no error;
 *   cuMemSetAccess: whole mappings, covering the range without a gap;
 *   a handle lives while the application holds a reference or the memory is mapped.
 * Any difference between extmem and the model is a failure, reported with the operations
 * that led to it.
 */
#define _GNU_SOURCE
#include "vmm_driver.h"

#include "extmem/extmem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

enum {
    MAX_RES = 6,
    MAX_ALLOC = 8,
    MAX_MEM = MAX_ALLOC + 4, /* memory outlives its handles while an exported fd is open */
    MAX_MAP = 24,
    MAX_FD = 4,
    MAX_STALE = 8,
    MAX_ALLOC_GRANULES = 3,
    MAX_RES_GRANULES = 8,
    POSITIONS = 3, /* words checked in every granule: the first, one in the middle, the last */
    TRACE_LINES = 16,
    LINE = 200
};

#define ACCESS_NONE ((int)CU_MEM_ACCESS_FLAGS_PROT_NONE)
#define ACCESS_READ ((int)CU_MEM_ACCESS_FLAGS_PROT_READ)
#define ACCESS_RW ((int)CU_MEM_ACCESS_FLAGS_PROT_READWRITE)

struct model_mem {
    bool live;
    size_t granules;
    uint32_t stamp[MAX_ALLOC_GRANULES]; /* every checked word of granule g holds stamp[g] */
    int holders;                        /* allocations and open fds */
};

struct model_alloc {
    bool live;
    CUmemGenericAllocationHandle handle;
    int mem;
    size_t granules;
    int user_refs;
    int mappings;
    unsigned long long types; /* what the properties and ALLOWED_HANDLE_TYPES report */
    bool exportable;
};

struct model_res {
    bool live;
    uintptr_t base;
    size_t size;
};

struct model_map {
    bool live;
    uintptr_t base;
    size_t size;
    int alloc;
    int access;
};

struct model_fd {
    bool live;
    int fd;
    int mem;
};

struct driver {
    const uint8_t *data;
    size_t size, pos;
    bool exhausted;
    size_t gran;
    CUcontext ctx;
    struct model_mem mem[MAX_MEM];
    struct model_alloc alloc[MAX_ALLOC];
    struct model_res res[MAX_RES];
    struct model_map map[MAX_MAP];
    struct model_fd fd[MAX_FD];
    CUmemGenericAllocationHandle stale[MAX_STALE];
    size_t stale_count;
    uintptr_t unreserved; /* an address in no reservation: a freed one, or the program's data */
    int foreign_fd;       /* a memfd extmem did not make */
    int last_written_mem;
    uint32_t next_stamp;
    size_t step;
    char op[LINE];
    char trace[TRACE_LINES][LINE];
    vmm_driver_result *out;
    int cur_op;
    bool counted; /* the step's first checked call decides whether it counts as a success */
    bool failed;
};

static char unreserved_anchor[64]; /* its address is in no reservation */

static const char *const op_names[VMM_OP_COUNT] = {
    "create", "release", "reserve", "address_free", "map", "unmap", "set_access", "get_access",
    "write", "read", "lookup", "retain", "properties", "export", "import", "close_fd",
};

/* How often each operation is chosen (out of the sum). */
static const unsigned op_weights[VMM_OP_COUNT] = {8, 5, 6, 3, 16, 6, 10, 4, 10, 10, 5, 3, 3, 4, 4, 3};

const char *vmm_driver_op_name(int op) { return op >= 0 && op < VMM_OP_COUNT ? op_names[op] : "?"; }

/* ---- Input ---- */

/* A choice in [0, bound). When the bytes run out every choice is 0 and the run ends after
 * the current operation. */
static unsigned take(struct driver *d, unsigned bound)
{
    if (bound <= 1)
        return 0;
    if (d->pos >= d->size) {
        d->exhausted = true;
        return 0;
    }
    unsigned v = d->data[d->pos++];
    if (bound > 256 && d->pos < d->size)
        v = v << 8 | d->data[d->pos++];
    return v % bound;
}

void vmm_driver_random_bytes(uint64_t seed, uint8_t *out, size_t n)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        for (size_t k = 0; k < 8 && i + k < n; ++k)
            out[i + k] = (uint8_t)(z >> (8 * k));
    }
}

/* ---- Reporting ---- */

static const char *code_name(CUresult r)
{
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        return "an unknown code";
    return name;
}

static void note(struct driver *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->op, sizeof(d->op), fmt, ap);
    va_end(ap);
    snprintf(d->trace[d->step % TRACE_LINES], LINE, "%zu: %.180s", d->step, d->op);
}

static void failf(struct driver *d, const char *fmt, ...)
{
    if (d->failed)
        return;
    d->failed = true;
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    char *m = d->out->message;
    size_t cap = sizeof(d->out->message), n = 0;
    n += (size_t)snprintf(m + n, cap - n, "step %zu (%s): %s\n  extmem's last error detail: %s\n  the operations "
                          "before it:\n", d->step, d->op, what, extmem_error_detail());
    size_t first = d->step + 1 > TRACE_LINES ? d->step + 1 - TRACE_LINES : 0;
    for (size_t s = first; s <= d->step && n < cap; ++s)
        n += (size_t)snprintf(m + n, cap - n, "    %s\n", d->trace[s % TRACE_LINES]);
}

/* Compares a result code with the model's; on a difference the run fails. */
static bool code(struct driver *d, const char *call, CUresult want, CUresult got)
{
    if (!d->counted) {
        d->counted = true;
        d->out->successes[d->cur_op] += want == CUDA_SUCCESS && got == CUDA_SUCCESS;
    }
    if (want == got)
        return true;
    failf(d, "%s returned %s (%d), the model expected %s (%d)", call, code_name(got), (int)got, code_name(want),
          (int)want);
    return false;
}

#define CHECK_EQ(d, what, want, got)                                                                          \
    do {                                                                                                      \
        unsigned long long want_ = (unsigned long long)(want), got_ = (unsigned long long)(got);              \
        if (want_ != got_)                                                                                    \
            failf(d, "%s is 0x%llx, the model expected 0x%llx", what, got_, want_);                           \
    } while (0)

/* ---- The OS's view: can this address be read or written? ---- */

/* process_vm_readv/writev on our own process answer EFAULT for an inaccessible page
 * instead of raising SIGSEGV, so the driver can check protections it expects to refuse. */
static int probe_read(uintptr_t addr, uint32_t *value)
{
    struct iovec local = {value, sizeof(*value)}, remote = {(void *)addr, sizeof(*value)};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)sizeof(*value) ? 0 : errno;
}

static int probe_write(uintptr_t addr, uint32_t value)
{
    struct iovec local = {&value, sizeof(value)}, remote = {(void *)addr, sizeof(value)};
    return process_vm_writev(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)sizeof(value) ? 0 : errno;
}

static size_t position(size_t gran, unsigned k)
{
    return k == 0 ? 0 : k == 1 ? gran / 2 + 1024 : gran - sizeof(uint32_t);
}

static int open_fds(void)
{
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(dir));)
        n += e->d_name[0] != '.';
    closedir(dir);
    return n - 1;
}

/* Lines of /proc/self/maps naming extmem's VMM memfds: mappings the OS still has. */
static int os_vmm_mappings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof(line), f))
        n += strstr(line, "/memfd:extmem-vmm") != NULL;
    fclose(f);
    return n;
}

/* ---- Model lookups ---- */

static int res_at(const struct driver *d, uintptr_t p)
{
    for (int i = 0; i < MAX_RES; ++i)
        if (d->res[i].live && p - d->res[i].base < d->res[i].size)
            return i;
    return -1;
}

static int map_at(const struct driver *d, uintptr_t p)
{
    for (int i = 0; i < MAX_MAP; ++i)
        if (d->map[i].live && p - d->map[i].base < d->map[i].size)
            return i;
    return -1;
}

static bool map_overlaps(const struct driver *d, uintptr_t p, size_t size)
{
    for (int i = 0; i < MAX_MAP; ++i)
        if (d->map[i].live && d->map[i].base < p + size && p < d->map[i].base + d->map[i].size)
            return true;
    return false;
}

static int alloc_of(const struct driver *d, CUmemGenericAllocationHandle h)
{
    for (int i = 0; i < MAX_ALLOC; ++i)
        if (d->alloc[i].live && d->alloc[i].handle == h)
            return i;
    return -1;
}

static int free_slot_alloc(const struct driver *d)
{
    for (int i = 0; i < MAX_ALLOC; ++i)
        if (!d->alloc[i].live)
            return i;
    return -1;
}

static int free_slot_mem(const struct driver *d)
{
    for (int i = 0; i < MAX_MEM; ++i)
        if (!d->mem[i].live)
            return i;
    return -1;
}

static int free_slot_map(const struct driver *d)
{
    for (int i = 0; i < MAX_MAP; ++i)
        if (!d->map[i].live)
            return i;
    return -1;
}

static int free_slot_res(const struct driver *d)
{
    for (int i = 0; i < MAX_RES; ++i)
        if (!d->res[i].live)
            return i;
    return -1;
}

static int free_slot_fd(const struct driver *d)
{
    for (int i = 0; i < MAX_FD; ++i)
        if (!d->fd[i].live)
            return i;
    return -1;
}

/* pick_map, pick_res, pick_alloc, pick_fd: the k-th live entry (k chosen from the input),
 * or -1 when there is none. */
#define DEFINE_PICK(name, array, count)                                                                       \
    static int name(struct driver *d)                                                                         \
    {                                                                                                         \
        int n = 0;                                                                                            \
        for (int i = 0; i < (count); ++i)                                                                     \
            n += d->array[i].live;                                                                            \
        if (n == 0)                                                                                           \
            return -1;                                                                                        \
        int k = (int)take(d, (unsigned)n);                                                                    \
        for (int i = 0; i < (count); ++i)                                                                     \
            if (d->array[i].live && k-- == 0)                                                                 \
                return i;                                                                                     \
        return -1;                                                                                            \
    }
DEFINE_PICK(pick_map, map, MAX_MAP)
DEFINE_PICK(pick_res, res, MAX_RES)
DEFINE_PICK(pick_alloc, alloc, MAX_ALLOC)
DEFINE_PICK(pick_fd, fd, MAX_FD)

/* Mostly a mapping that allows the access (so writes and reads happen), sometimes any. */
static int pick_map_allowing(struct driver *d, int access)
{
    if (take(d, 4) == 0)
        return pick_map(d);
    int n = 0;
    for (int i = 0; i < MAX_MAP; ++i)
        n += d->map[i].live && (d->map[i].access & access) == access;
    if (n == 0)
        return pick_map(d);
    int k = (int)take(d, (unsigned)n);
    for (int i = 0; i < MAX_MAP; ++i)
        if (d->map[i].live && (d->map[i].access & access) == access && k-- == 0)
            return i;
    return -1;
}

static void mem_unhold(struct driver *d, int m)
{
    if (--d->mem[m].holders == 0)
        d->mem[m].live = false;
}

static void remember_stale(struct driver *d, CUmemGenericAllocationHandle h)
{
    d->stale[d->stale_count++ % MAX_STALE] = h;
}

/* The driver's rule: the handle dies when neither the application nor a mapping holds it. */
static void alloc_drop_if_unheld(struct driver *d, int a)
{
    struct model_alloc *al = &d->alloc[a];
    if (al->user_refs == 0 && al->mappings == 0) {
        al->live = false;
        remember_stale(d, al->handle);
        mem_unhold(d, al->mem);
    }
}

static void map_remove(struct driver *d, int i)
{
    struct model_map *m = &d->map[i];
    m->live = false;
    d->alloc[m->alloc].mappings--;
    alloc_drop_if_unheld(d, m->alloc);
}

static size_t live_mappings(const struct driver *d)
{
    size_t n = 0;
    for (int i = 0; i < MAX_MAP; ++i)
        n += d->map[i].live;
    return n;
}

/* A handle to pass: mostly a live one; sometimes a stale, garbage or wrong-type one. *a is
 * the live allocation's index, or -1. */
static CUmemGenericAllocationHandle choose_handle(struct driver *d, int *a)
{
    unsigned v = take(d, 12);
    *a = -1;
    if (v < 9) {
        *a = pick_alloc(d);
        if (*a >= 0)
            return d->alloc[*a].handle;
    }
    if (v == 9 && d->stale_count) {
        size_t n = d->stale_count < MAX_STALE ? d->stale_count : MAX_STALE;
        return d->stale[take(d, (unsigned)n)];
    }
    if (v == 10)
        return (CUmemGenericAllocationHandle)(uintptr_t)d->ctx; /* a context, not an allocation */
    static const CUmemGenericAllocationHandle garbage[] = {0, 0x12345, ~0ull};
    return garbage[take(d, 3)];
}

/* ---- Operations ---- */

static void op_create(struct driver *d)
{
    unsigned variant = take(d, 12);
    size_t granules = 1 + take(d, MAX_ALLOC_GRANULES);
    bool exportable = take(d, 4) != 0;
    size_t size = granules * d->gran;
    unsigned long long flags = 0;
    CUresult want = CUDA_SUCCESS;
    if (variant == 10) {
        size += 4096;
        want = CUDA_ERROR_INVALID_VALUE;
    } else if (variant == 11) {
        flags = 1;
        want = CUDA_ERROR_INVALID_VALUE;
    }
    int a = free_slot_alloc(d), m = free_slot_mem(d);
    if (want == CUDA_SUCCESS && (a < 0 || m < 0)) {
        note(d, "create: skipped, the model's table is full");
        return;
    }
    note(d, "cuMemCreate(size %zu, %s, flags %llu)", size, exportable ? "POSIX_FD" : "no handle types", flags);
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = exportable ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : CU_MEM_HANDLE_TYPE_NONE;
    CUmemGenericAllocationHandle h = 0;
    CUresult got = cuMemCreate(&h, size, &prop, flags);
    if (!code(d, "cuMemCreate", want, got)) {
        if (got == CUDA_SUCCESS)
            cuMemRelease(h);
        return;
    }
    if (got != CUDA_SUCCESS)
        return;
    if (h == 0 || alloc_of(d, h) >= 0)
        failf(d, "cuMemCreate gave handle 0x%llx, which is 0 or already live", (unsigned long long)h);
    d->mem[m] = (struct model_mem){.live = true, .granules = granules, .holders = 1};
    d->alloc[a] = (struct model_alloc){.live = true, .handle = h, .mem = m, .granules = granules, .user_refs = 1,
                                       .types = exportable ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : 0,
                                       .exportable = exportable};
}

static void op_release(struct driver *d)
{
    int a;
    CUmemGenericAllocationHandle h = choose_handle(d, &a);
    CUresult want = a >= 0 && d->alloc[a].user_refs > 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    note(d, "cuMemRelease(0x%llx) [%s]", (unsigned long long)h,
         a < 0 ? "not live" : d->alloc[a].user_refs ? "referenced" : "held by mappings only");
    if (code(d, "cuMemRelease", want, cuMemRelease(h)) && want == CUDA_SUCCESS) {
        d->alloc[a].user_refs--;
        alloc_drop_if_unheld(d, a);
    }
}

static void op_reserve(struct driver *d)
{
    size_t granules = 1 + take(d, MAX_RES_GRANULES);
    unsigned variant = take(d, 16);
    size_t size = granules * d->gran, alignment = 0;
    uintptr_t hint = 0;
    unsigned long long flags = 0;
    CUresult want = CUDA_SUCCESS;
    int near = pick_res(d);
    switch (variant) {
    case 6: alignment = 2 * d->gran; break;
    case 7: alignment = 4 * d->gran; break;
    case 8: alignment = 4096; break; /* smaller than the granularity: the granularity applies */
    case 9: /* right after an existing reservation: often free, so adjacent reservations happen */
        if (near >= 0)
            hint = d->res[near].base + d->res[near].size;
        break;
    case 10: /* a reserved address: a hint, not an error; the range lands elsewhere */
        if (near >= 0)
            hint = d->res[near].base;
        break;
    case 11:
        if (near >= 0) {
            hint = d->res[near].base + d->res[near].size + 4096;
            want = CUDA_ERROR_INVALID_VALUE;
        }
        break;
    case 12: alignment = 3 * d->gran; want = CUDA_ERROR_INVALID_VALUE; break;
    case 13: size = 0; want = CUDA_ERROR_INVALID_VALUE; break;
    case 14: size += 4096; want = CUDA_ERROR_INVALID_VALUE; break;
    case 15: flags = 1; want = CUDA_ERROR_INVALID_VALUE; break;
    default: break;
    }
    int r = free_slot_res(d);
    if (want == CUDA_SUCCESS && r < 0) {
        note(d, "reserve: skipped, the model's table is full");
        return;
    }
    note(d, "cuMemAddressReserve(size %zu, alignment %zu, hint 0x%llx, flags %llu)", size, alignment,
         (unsigned long long)hint, flags);
    CUdeviceptr p = 0;
    CUresult got = cuMemAddressReserve(&p, size, alignment, (CUdeviceptr)hint, flags);
    if (!code(d, "cuMemAddressReserve", want, got)) {
        if (got == CUDA_SUCCESS)
            cuMemAddressFree(p, size);
        return;
    }
    if (got != CUDA_SUCCESS)
        return;
    size_t need = alignment > d->gran ? alignment : d->gran;
    if (p == 0 || p % need)
        failf(d, "cuMemAddressReserve gave 0x%llx, not aligned to %zu", (unsigned long long)p, need);
    for (int i = 0; i < MAX_RES; ++i)
        if (d->res[i].live && d->res[i].base < p + size && p < d->res[i].base + d->res[i].size)
            failf(d, "cuMemAddressReserve gave [0x%llx, +%zu), which overlaps the live reservation [0x%llx, +%zu)",
                  (unsigned long long)p, size, (unsigned long long)d->res[i].base, d->res[i].size);
    d->res[r] = (struct model_res){.live = true, .base = (uintptr_t)p, .size = size};
}

static void op_address_free(struct driver *d)
{
    int r = pick_res(d);
    uintptr_t p = d->unreserved;
    size_t size = d->gran;
    if (r >= 0) {
        p = d->res[r].base;
        size = d->res[r].size;
    }
    switch (take(d, 8)) {
    case 5: size -= d->gran; break;
    case 6: size += d->gran; break;
    case 7: p += d->gran; size -= d->gran; break; /* the tail; with one granule, whatever is after it */
    default: break;
    }
    int at = res_at(d, p);
    bool has_mappings = false;
    if (at >= 0)
        for (int i = 0; i < MAX_MAP; ++i)
            has_mappings |= d->map[i].live && d->map[i].base - d->res[at].base < d->res[at].size;
    CUresult want = at < 0 || d->res[at].base != p || d->res[at].size != size || has_mappings
                        ? CUDA_ERROR_INVALID_VALUE
                        : CUDA_SUCCESS;
    note(d, "cuMemAddressFree(0x%llx, %zu)%s", (unsigned long long)p, size, has_mappings ? " [has mappings]" : "");
    if (code(d, "cuMemAddressFree", want, cuMemAddressFree((CUdeviceptr)p, size)) && want == CUDA_SUCCESS) {
        d->res[at].live = false;
        d->unreserved = p;
        uint32_t v;
        if (probe_read(p, &v) != EFAULT)
            failf(d, "0x%llx can still be read after cuMemAddressFree", (unsigned long long)p);
    }
}

static void op_map(struct driver *d)
{
    int a;
    CUmemGenericAllocationHandle h = choose_handle(d, &a);
    size_t alloc_granules = a >= 0 ? d->alloc[a].granules : 1;
    uintptr_t p = d->unreserved;
    int r = pick_res(d);
    unsigned where = take(d, 16);
    if (r >= 0) {
        size_t k = take(d, (unsigned)(d->res[r].size / d->gran));
        p = d->res[r].base + k * d->gran;
        if (where == 10)
            p = d->res[r].base + d->res[r].size; /* just past the end: adjacent or unreserved */
        else if (where == 11)
            p += 4096;
    }
    if (where == 12)
        p = d->unreserved;
    else if (where == 13)
        p = 0;
    size_t size = (1 + take(d, (unsigned)alloc_granules)) * d->gran, offset = 0;
    switch (take(d, 16)) {
    case 12: size = (alloc_granules + 1) * d->gran; break;
    case 13: size = 0; break;
    case 14: size += 4096; break;
    default: break;
    }
    unsigned o = take(d, 20);
    offset = o == 0 ? 4096 : o == 1 ? d->gran : 0;
    unsigned long long flags = take(d, 24) == 0 ? 1 : 0;

    int rp = res_at(d, p);
    CUresult want;
    if (flags)
        want = CUDA_ERROR_INVALID_VALUE;
    else if (a < 0)
        want = CUDA_ERROR_INVALID_VALUE;
    else if (size == 0 || p == 0)
        want = CUDA_ERROR_INVALID_VALUE;
    else if (offset || size % d->gran || p % d->gran || size > d->alloc[a].granules * d->gran || rp < 0 ||
             size > d->res[rp].size - (p - d->res[rp].base))
        want = CUDA_ERROR_NOT_SUPPORTED;
    else if (map_overlaps(d, p, size))
        want = CUDA_ERROR_INVALID_VALUE;
    else
        want = CUDA_SUCCESS;
    int slot = free_slot_map(d);
    if (want == CUDA_SUCCESS && slot < 0) {
        note(d, "map: skipped, the model's table is full");
        return;
    }
    note(d, "cuMemMap(0x%llx, %zu, offset %zu, 0x%llx, flags %llu)", (unsigned long long)p, size, offset,
         (unsigned long long)h, flags);
    CUresult got = cuMemMap((CUdeviceptr)p, size, offset, h, flags);
    if (!code(d, "cuMemMap", want, got)) {
        if (got == CUDA_SUCCESS)
            cuMemUnmap((CUdeviceptr)p, size);
        return;
    }
    if (got != CUDA_SUCCESS)
        return;
    d->map[slot] = (struct model_map){.live = true, .base = p, .size = size, .alloc = a, .access = ACCESS_NONE};
    d->alloc[a].mappings++;
    size_t n = live_mappings(d);
    if (n > d->out->max_mappings)
        d->out->max_mappings = n;
}

/* After a successful unmap every granule of the mappings must be gone from the OS too. */
static void check_unmapped(struct driver *d, uintptr_t base, size_t size)
{
    for (uintptr_t g = base; g < base + size; g += d->gran) {
        uint32_t v;
        if (probe_read(g, &v) != EFAULT)
            failf(d, "0x%llx can still be read after cuMemUnmap reported SUCCESS", (unsigned long long)g);
    }
}

static void op_unmap(struct driver *d)
{
    int m = pick_map(d), r = pick_res(d);
    uintptr_t p = d->unreserved;
    size_t size = d->gran;
    unsigned variant = take(d, 16);
    if (m >= 0) {
        p = d->map[m].base;
        size = d->map[m].size;
    }
    switch (variant) {
    case 8: /* this mapping and the one right after it, if any */
        if (m >= 0) {
            int next = map_at(d, p + size);
            if (next >= 0 && d->map[next].base == p + size)
                size += d->map[next].size;
        }
        break;
    case 9:
    case 10:
        if (r >= 0) {
            p = d->res[r].base;
            size = d->res[r].size + (variant == 10 ? 2 * d->gran : 0); /* 10: past the end, as the driver allows */
        }
        break;
    case 11: /* part of one mapping */
        if (m >= 0 && size > d->gran)
            size -= d->gran;
        break;
    case 12: /* one granule of a reservation, mapped or not */
        if (r >= 0) {
            p = d->res[r].base + take(d, (unsigned)(d->res[r].size / d->gran)) * d->gran;
            size = d->gran;
        }
        break;
    case 13: p += 4096; break;
    case 14: size = 0; break;
    case 15: p = d->unreserved; size = d->gran; break;
    default: break;
    }
    CUresult want = CUDA_SUCCESS;
    if (size == 0 || size % d->gran || p % d->gran || p + size < p || res_at(d, p) < 0)
        want = CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < MAX_MAP && want == CUDA_SUCCESS; ++i) {
        const struct model_map *mm = &d->map[i];
        if (mm->live && mm->base < p + size && p < mm->base + mm->size && (mm->base < p || mm->base + mm->size > p + size))
            want = CUDA_ERROR_INVALID_VALUE;
    }
    note(d, "cuMemUnmap(0x%llx, %zu)", (unsigned long long)p, size);
    if (!code(d, "cuMemUnmap", want, cuMemUnmap((CUdeviceptr)p, size)) || want != CUDA_SUCCESS)
        return;
    for (int i = 0; i < MAX_MAP; ++i) {
        if (d->map[i].live && d->map[i].base >= p && d->map[i].base < p + size) {
            uintptr_t base = d->map[i].base;
            size_t msize = d->map[i].size;
            map_remove(d, i);
            check_unmapped(d, base, msize);
        }
    }
}

/* Reads the stamps of every granule of mapping m directly and compares them with the model. */
static void check_contents(struct driver *d, int m, const char *how)
{
    const struct model_map *mm = &d->map[m];
    const struct model_mem *mem = &d->mem[d->alloc[mm->alloc].mem];
    for (size_t g = 0; g < mm->size / d->gran; ++g)
        for (unsigned k = 0; k < POSITIONS; ++k) {
            uintptr_t at = mm->base + g * d->gran + position(d->gran, k);
            uint32_t v = *(volatile const uint32_t *)at;
            if (v != mem->stamp[g]) {
                failf(d, "%s: the word at 0x%llx (granule %zu of a mapping of allocation 0x%llx) is 0x%x, the model "
                      "expected 0x%x", how, (unsigned long long)at, g,
                      (unsigned long long)d->alloc[mm->alloc].handle, v, mem->stamp[g]);
                return;
            }
        }
}

/* Does the OS protection of mapping m match the model's access? */
static void check_protection(struct driver *d, int m)
{
    const struct model_map *mm = &d->map[m];
    uint32_t v = 0;
    int rd = probe_read(mm->base, &v);
    if (mm->access == ACCESS_NONE) {
        if (rd != EFAULT)
            failf(d, "the mapping at 0x%llx has no access in the model, but the OS lets it be read",
                  (unsigned long long)mm->base);
        return;
    }
    if (rd != 0) {
        failf(d, "the mapping at 0x%llx is readable in the model, but reading it fails: %s", (unsigned long long)mm->base,
              strerror(rd));
        return;
    }
    int wr = probe_write(mm->base, v); /* the same value back: nothing changes */
    if (mm->access == ACCESS_READ && wr != EFAULT)
        failf(d, "the mapping at 0x%llx is read-only in the model, but the OS lets it be written",
              (unsigned long long)mm->base);
    if (mm->access == ACCESS_RW && wr != 0)
        failf(d, "the mapping at 0x%llx is writable in the model, but writing it fails: %s",
              (unsigned long long)mm->base, strerror(wr));
}

static void op_set_access(struct driver *d)
{
    int m = pick_map(d), r = pick_res(d);
    uintptr_t p = d->unreserved;
    size_t size = d->gran;
    if (m >= 0) {
        p = d->map[m].base;
        size = d->map[m].size;
    }
    switch (take(d, 16)) {
    case 9:
    case 10: /* the mapping and up to two that follow it without a gap */
        for (int k = 0; k < 2 && m >= 0; ++k) {
            int next = map_at(d, p + size);
            if (next < 0 || d->map[next].base != p + size)
                break;
            size += d->map[next].size;
        }
        break;
    case 11:
        if (size > d->gran)
            size = d->gran; /* part of a mapping */
        break;
    case 12:
        if (r >= 0) {
            p = d->res[r].base + take(d, (unsigned)(d->res[r].size / d->gran)) * d->gran;
            size = d->gran;
        }
        break;
    case 13: p += 4096; break;
    case 14: size = 0; break;
    case 15: size += d->gran; break;
    default: break;
    }
    static const int flag_choice[16] = {3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 7};
    int flags = flag_choice[take(d, 16)];
    CUmemAccessDesc desc[2];
    memset(desc, 0, sizeof(desc));
    desc[0].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    desc[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CUmemAccessDesc *last = &desc[0];
    size_t count = 1;
    const CUmemAccessDesc *arg = desc;
    unsigned shape = take(d, 24);
    if (shape == 0)
        count = 0;
    else if (shape == 1)
        arg = NULL;
    else if (shape == 2) {
        count = 2; /* one device: the last description wins */
        last = &desc[1];
    }
    CUresult loc_want = CUDA_SUCCESS;
    last->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    switch (take(d, 24)) {
    case 0: last->location.type = CU_MEM_LOCATION_TYPE_HOST; loc_want = CUDA_ERROR_NOT_SUPPORTED; break;
    case 1: last->location.id = 1; loc_want = CUDA_ERROR_INVALID_VALUE; break;
    case 2: last->location.type = CU_MEM_LOCATION_TYPE_INVALID; loc_want = CUDA_ERROR_INVALID_VALUE; break;
    default: break;
    }
    last->flags = (CUmemAccess_flags)flags;

    CUresult want = CUDA_SUCCESS;
    if (!arg || count == 0)
        want = CUDA_ERROR_INVALID_VALUE;
    else if (loc_want)
        want = loc_want;
    else if (flags != ACCESS_NONE && flags != ACCESS_READ && flags != ACCESS_RW)
        want = CUDA_ERROR_INVALID_VALUE;
    else if (size == 0 || size % d->gran || p % d->gran || p + size < p)
        want = CUDA_ERROR_INVALID_VALUE;
    else {
        /* Mappings must cover the range without a gap, and start and end with it. */
        uintptr_t cur = p;
        int first = map_at(d, p);
        while (cur < p + size) {
            int at = map_at(d, cur);
            if (at < 0) {
                want = CUDA_ERROR_INVALID_VALUE;
                break;
            }
            cur = d->map[at].base + d->map[at].size;
        }
        if (want == CUDA_SUCCESS && (d->map[first].base != p || cur != p + size))
            want = CUDA_ERROR_INVALID_VALUE;
    }
    note(d, "cuMemSetAccess(0x%llx, %zu, %s, count %zu, last: location %d/%d flags %d)", (unsigned long long)p, size,
         arg ? "desc" : "NULL", count, (int)last->location.type, last->location.id, flags);
    if (!code(d, "cuMemSetAccess", want, cuMemSetAccess((CUdeviceptr)p, size, arg, count)) || want != CUDA_SUCCESS)
        return;
    for (int i = 0; i < MAX_MAP; ++i)
        if (d->map[i].live && d->map[i].base >= p && d->map[i].base < p + size) {
            d->map[i].access = flags;
            check_protection(d, i);
        }
}

static void op_get_access(struct driver *d)
{
    int m = pick_map(d), r = pick_res(d);
    uintptr_t p = d->unreserved;
    unsigned variant = take(d, 16);
    if (m >= 0)
        p = d->map[m].base + take(d, (unsigned)(d->map[m].size / 4096)) * 4096 + take(d, 4096);
    if (variant == 12 && r >= 0)
        p = d->res[r].base + take(d, (unsigned)(d->res[r].size / d->gran)) * d->gran;
    else if (variant == 13)
        p = d->unreserved;
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    unsigned long long flags = 99;
    int at = map_at(d, p);
    CUresult want = at >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    note(d, "cuMemGetAccess(0x%llx)%s", (unsigned long long)p, variant == 14 ? " NULL flags" : variant == 15 ? " NULL location" : "");
    if (variant == 14) {
        code(d, "cuMemGetAccess(NULL flags)", CUDA_ERROR_INVALID_VALUE, cuMemGetAccess(NULL, &loc, (CUdeviceptr)p));
        return;
    }
    if (variant == 15) {
        code(d, "cuMemGetAccess(NULL location)", CUDA_ERROR_INVALID_VALUE, cuMemGetAccess(&flags, NULL, (CUdeviceptr)p));
        return;
    }
    if (!code(d, "cuMemGetAccess", want, cuMemGetAccess(&flags, &loc, (CUdeviceptr)p)))
        return;
    /* The driver writes 0 for an address that is not mapped. */
    CHECK_EQ(d, "cuMemGetAccess's flags", at >= 0 ? (unsigned long long)d->map[at].access : 0ull, flags);
}

struct stamp_args {
    uintptr_t base;
    size_t gran;
    uint32_t stamp;
};

/* One block per checked word. */
static void stamp_kernel(const extmem_block *block, void *p)
{
    const struct stamp_args *a = p;
    size_t g = block->blockIdx.x / POSITIONS;
    unsigned k = block->blockIdx.x % POSITIONS;
    *(volatile uint32_t *)(a->base + g * a->gran + position(a->gran, k)) = a->stamp;
}

static void op_write(struct driver *d)
{
    int m = pick_map_allowing(d, ACCESS_RW);
    unsigned via = take(d, 8);
    if (m < 0) {
        note(d, "write: skipped, nothing is mapped");
        return;
    }
    struct model_map *mm = &d->map[m];
    struct model_mem *mem = &d->mem[d->alloc[mm->alloc].mem];
    size_t granules = mm->size / d->gran;
    d->next_stamp = d->next_stamp * 1664525u + 1013904223u;
    uint32_t stamp = d->next_stamp | 1; /* never 0, the value of fresh memory */
    static const char *const how[8] = {"stores", "stores", "stores", "stores", "cuMemcpyHtoD", "cuMemsetD32",
                                       "a kernel", "stores"};
    note(d, "write 0x%x into the mapping at 0x%llx (access %d) by %s", stamp, (unsigned long long)mm->base, mm->access,
         how[via]);
    if (mm->access != ACCESS_RW) {
        /* The OS must refuse, and so must extmem's copies (INVALID_VALUE, as on the driver). */
        if (probe_write(mm->base, stamp) != EFAULT)
            failf(d, "the OS let the mapping at 0x%llx be written with access %d", (unsigned long long)mm->base,
                  mm->access);
        if (via == 5)
            code(d, "cuMemsetD32", CUDA_ERROR_INVALID_VALUE, cuMemsetD32((CUdeviceptr)mm->base, stamp, mm->size / 4));
        else
            code(d, "cuMemcpyHtoD", CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD((CUdeviceptr)mm->base, &stamp, sizeof(stamp)));
        return;
    }
    bool ok = true;
    if (via == 4) {
        for (size_t g = 0; g < granules && ok; ++g)
            for (unsigned k = 0; k < POSITIONS && ok; ++k)
                ok = code(d, "cuMemcpyHtoD", CUDA_SUCCESS,
                          cuMemcpyHtoD((CUdeviceptr)(mm->base + g * d->gran + position(d->gran, k)), &stamp,
                                       sizeof(stamp)));
    } else if (via == 5) {
        ok = code(d, "cuMemsetD32", CUDA_SUCCESS, cuMemsetD32((CUdeviceptr)mm->base, stamp, mm->size / 4));
    } else if (via == 6) {
        struct stamp_args args = {mm->base, d->gran, stamp};
        extmem_dim3 grid = {(unsigned)(granules * POSITIONS), 1, 1}, block = {1, 1, 1};
        ok = code(d, "extmem_launch_kernel", CUDA_SUCCESS, extmem_launch_kernel(stamp_kernel, grid, block, &args,
                                                                                sizeof(args), NULL)) &&
             code(d, "cuCtxSynchronize", CUDA_SUCCESS, cuCtxSynchronize());
    } else {
        for (size_t g = 0; g < granules; ++g)
            for (unsigned k = 0; k < POSITIONS; ++k)
                *(volatile uint32_t *)(mm->base + g * d->gran + position(d->gran, k)) = stamp;
    }
    if (!ok)
        return;
    for (size_t g = 0; g < granules; ++g)
        mem->stamp[g] = stamp;
    d->last_written_mem = d->alloc[mm->alloc].mem;
}

static void op_read(struct driver *d)
{
    int m = pick_map_allowing(d, ACCESS_READ);
    bool other = take(d, 2) == 0, copy = take(d, 4) == 0;
    if (other) {
        /* Prefer another mapping of the memory written last: the write must show there. */
        for (int i = 0; i < MAX_MAP; ++i)
            if (d->map[i].live && i != m && d->alloc[d->map[i].alloc].mem == d->last_written_mem) {
                m = i;
                break;
            }
    }
    if (m < 0) {
        note(d, "read: skipped, nothing is mapped");
        return;
    }
    const struct model_map *mm = &d->map[m];
    note(d, "read the mapping at 0x%llx (access %d) by %s", (unsigned long long)mm->base, mm->access,
         copy ? "cuMemcpyDtoH" : "loads");
    uint32_t v = 0;
    if (mm->access == ACCESS_NONE) {
        if (probe_read(mm->base, &v) != EFAULT)
            failf(d, "the OS let the mapping at 0x%llx be read without access", (unsigned long long)mm->base);
        code(d, "cuMemcpyDtoH", CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(&v, (CUdeviceptr)mm->base, sizeof(v)));
        return;
    }
    if (!copy) {
        check_contents(d, m, "a load");
        return;
    }
    const struct model_mem *mem = &d->mem[d->alloc[mm->alloc].mem];
    for (size_t g = 0; g < mm->size / d->gran; ++g)
        for (unsigned k = 0; k < POSITIONS; ++k) {
            uintptr_t at = mm->base + g * d->gran + position(d->gran, k);
            if (!code(d, "cuMemcpyDtoH", CUDA_SUCCESS, cuMemcpyDtoH(&v, (CUdeviceptr)at, sizeof(v))))
                return;
            if (v != mem->stamp[g]) {
                failf(d, "cuMemcpyDtoH of 0x%llx gave 0x%x, the model expected 0x%x", (unsigned long long)at, v,
                      mem->stamp[g]);
                return;
            }
        }
}

/* A reserved granule no mapping covers, or 0 when there is none. */
static uintptr_t unmapped_granule(struct driver *d)
{
    int r = pick_res(d);
    if (r < 0)
        return 0;
    for (uintptr_t g = d->res[r].base; g < d->res[r].base + d->res[r].size; g += d->gran)
        if (map_at(d, g) < 0)
            return g;
    return 0;
}

static void op_lookup(struct driver *d)
{
    int m = pick_map(d);
    unsigned variant = take(d, 8);
    uintptr_t p = d->unreserved + 8;
    if (m >= 0)
        p = variant == 7 ? d->map[m].base + d->map[m].size - 1
                         : d->map[m].base + take(d, (unsigned)(d->map[m].size / 4096)) * 4096 + take(d, 256);
    if (variant == 5) {
        uintptr_t g = unmapped_granule(d);
        if (g)
            p = g + 100;
    } else if (variant == 6) {
        p = d->unreserved + 8;
    }
    int at = map_at(d, p);
    note(d, "lookups of 0x%llx [%s]", (unsigned long long)p, at >= 0 ? "mapped" : res_at(d, p) >= 0 ? "reserved" : "unreserved");
    CUdeviceptr base = 1;
    size_t size = 1;
    bool found = at >= 0 && d->map[at].access != ACCESS_NONE; /* the driver counts a mapping once it has access */
    if (!code(d, "cuMemGetAddressRange", found ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND,
              cuMemGetAddressRange(&base, &size, (CUdeviceptr)p)))
        return;
    CHECK_EQ(d, "cuMemGetAddressRange's base", found ? d->map[at].base : 0, base);
    CHECK_EQ(d, "cuMemGetAddressRange's size", found ? d->map[at].size : 0, size);

    CUresult want = at >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    CUdeviceptr start = 0, mbase = 0;
    size_t rsize = 0, msize = 0;
    int mapped = 0, access = -1;
    unsigned long long types = 99;
    if (!code(d, "cuPointerGetAttribute(RANGE_START_ADDR)", want,
              cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, (CUdeviceptr)p)) ||
        !code(d, "cuPointerGetAttribute(RANGE_SIZE)", want,
              cuPointerGetAttribute(&rsize, CU_POINTER_ATTRIBUTE_RANGE_SIZE, (CUdeviceptr)p)) ||
        !code(d, "cuPointerGetAttribute(MAPPING_BASE_ADDR)", want,
              cuPointerGetAttribute(&mbase, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, (CUdeviceptr)p)) ||
        !code(d, "cuPointerGetAttribute(MAPPING_SIZE)", want,
              cuPointerGetAttribute(&msize, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, (CUdeviceptr)p)) ||
        !code(d, "cuPointerGetAttribute(MAPPED)", want,
              cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, (CUdeviceptr)p)) ||
        !code(d, "cuPointerGetAttribute(ACCESS_FLAGS)", want,
              cuPointerGetAttribute(&access, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, (CUdeviceptr)p)) ||
        !code(d, "cuPointerGetAttribute(ALLOWED_HANDLE_TYPES)", want,
              cuPointerGetAttribute(&types, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, (CUdeviceptr)p)) ||
        at < 0)
        return;
    const struct model_map *mm = &d->map[at];
    const struct model_res *rr = &d->res[res_at(d, mm->base)];
    /* The driver reports the reservation as the range, the mapping as the mapping. */
    CHECK_EQ(d, "RANGE_START_ADDR", rr->base, start);
    CHECK_EQ(d, "RANGE_SIZE", rr->size, rsize);
    CHECK_EQ(d, "MAPPING_BASE_ADDR", mm->base, mbase);
    CHECK_EQ(d, "MAPPING_SIZE", mm->size, msize);
    CHECK_EQ(d, "MAPPED", 1, mapped);
    CHECK_EQ(d, "ACCESS_FLAGS", mm->access, access);
    CHECK_EQ(d, "ALLOWED_HANDLE_TYPES", d->alloc[mm->alloc].types, types);
}

static void op_retain(struct driver *d)
{
    int m = pick_map(d);
    unsigned variant = take(d, 16);
    uintptr_t p = d->unreserved;
    if (m >= 0)
        p = d->map[m].base + take(d, (unsigned)(d->map[m].size / 4096)) * 4096;
    if (variant == 13) {
        uintptr_t g = unmapped_granule(d);
        p = g ? g : p;
    } else if (variant == 14) {
        p = d->unreserved;
    }
    int at = map_at(d, p);
    note(d, "cuMemRetainAllocationHandle(%s, 0x%llx)", variant == 15 ? "NULL" : "&h", (unsigned long long)p);
    CUmemGenericAllocationHandle h = 7;
    if (variant == 15) {
        code(d, "cuMemRetainAllocationHandle(NULL)", CUDA_ERROR_INVALID_VALUE, cuMemRetainAllocationHandle(NULL, (void *)p));
        return;
    }
    if (!code(d, "cuMemRetainAllocationHandle", at >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE,
              cuMemRetainAllocationHandle(&h, (void *)p)) || at < 0)
        return;
    struct model_alloc *a = &d->alloc[d->map[at].alloc];
    CHECK_EQ(d, "the retained handle", a->handle, h);
    a->user_refs++;
}

static void op_properties(struct driver *d)
{
    int a;
    CUmemGenericAllocationHandle h = choose_handle(d, &a);
    bool null_prop = take(d, 16) == 0;
    note(d, "cuMemGetAllocationPropertiesFromHandle(%s, 0x%llx)", null_prop ? "NULL" : "&prop", (unsigned long long)h);
    CUmemAllocationProp prop;
    memset(&prop, 0xee, sizeof(prop));
    if (!code(d, "cuMemGetAllocationPropertiesFromHandle", a >= 0 && !null_prop ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE,
              cuMemGetAllocationPropertiesFromHandle(null_prop ? NULL : &prop, h)) ||
        a < 0 || null_prop)
        return;
    CHECK_EQ(d, "prop.type", CU_MEM_ALLOCATION_TYPE_PINNED, prop.type);
    CHECK_EQ(d, "prop.location.type", CU_MEM_LOCATION_TYPE_DEVICE, prop.location.type);
    CHECK_EQ(d, "prop.location.id", 0, prop.location.id);
    CHECK_EQ(d, "prop.requestedHandleTypes", d->alloc[a].types, prop.requestedHandleTypes);
}

static void op_export(struct driver *d)
{
    int a;
    CUmemGenericAllocationHandle h = choose_handle(d, &a);
    unsigned variant = take(d, 16);
    CUmemAllocationHandleType type = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    unsigned long long flags = 0;
    int fd = -7;
    void *out = &fd;
    if (variant == 13)
        type = CU_MEM_HANDLE_TYPE_WIN32;
    else if (variant == 14)
        flags = 1;
    else if (variant == 15)
        out = NULL;
    CUresult want = a >= 0 && d->alloc[a].exportable && variant < 13 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    note(d, "cuMemExportToShareableHandle(%s, 0x%llx, type %d, flags %llu)", out ? "&fd" : "NULL",
         (unsigned long long)h, (int)type, flags);
    CUresult got = cuMemExportToShareableHandle(out, h, type, flags);
    if (!code(d, "cuMemExportToShareableHandle", want, got)) {
        if (got == CUDA_SUCCESS && out)
            close(fd);
        return;
    }
    if (got != CUDA_SUCCESS) {
        CHECK_EQ(d, "the fd after a failed export", (unsigned)-7, (unsigned)fd);
        return;
    }
    int fdflags = fcntl(fd, F_GETFD);
    if (fdflags < 0 || !(fdflags & FD_CLOEXEC)) {
        failf(d, "the exported fd %d is not open with FD_CLOEXEC (F_GETFD: %d)", fd, fdflags);
        if (fdflags >= 0)
            close(fd);
        return;
    }
    int slot = free_slot_fd(d);
    if (slot < 0) {
        close(fd); /* the model keeps a few; this one has done its job */
        return;
    }
    int m = d->alloc[a].mem;
    d->fd[slot] = (struct model_fd){.live = true, .fd = fd, .mem = m};
    d->mem[m].holders++;
}

static void op_import(struct driver *d)
{
    int f = pick_fd(d);
    unsigned variant = take(d, 16);
    intptr_t fd = f >= 0 ? d->fd[f].fd : -1;
    CUmemAllocationHandleType type = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUresult want = f >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    bool null_out = false;
    switch (variant) {
    case 10: fd = d->foreign_fd; want = CUDA_ERROR_INVALID_VALUE; break;
    case 11: { /* a number that was an fd a moment ago */
        int dup_fd = dup(d->foreign_fd);
        if (dup_fd >= 0)
            close(dup_fd);
        fd = dup_fd;
        want = CUDA_ERROR_INVALID_VALUE;
        break;
    }
    case 12: fd = -1; want = CUDA_ERROR_INVALID_VALUE; break;
    case 13: type = CU_MEM_HANDLE_TYPE_WIN32; want = CUDA_ERROR_NOT_SUPPORTED; break;
    case 14: type = CU_MEM_HANDLE_TYPE_NONE; want = CUDA_ERROR_INVALID_VALUE; break;
    case 15: null_out = true; want = CUDA_ERROR_INVALID_VALUE; break;
    default: break;
    }
    int a = free_slot_alloc(d);
    if (want == CUDA_SUCCESS && a < 0) {
        note(d, "import: skipped, the model's table is full");
        return;
    }
    note(d, "cuMemImportFromShareableHandle(%s, fd %lld, type %d)", null_out ? "NULL" : "&h", (long long)fd, (int)type);
    CUmemGenericAllocationHandle h = 0;
    CUresult got = cuMemImportFromShareableHandle(null_out ? NULL : &h, (void *)fd, type);
    if (!code(d, "cuMemImportFromShareableHandle", want, got)) {
        if (got == CUDA_SUCCESS && !null_out)
            cuMemRelease(h);
        return;
    }
    if (fd >= 0 && variant != 11 && fcntl((int)fd, F_GETFD) < 0)
        failf(d, "cuMemImportFromShareableHandle closed the caller's fd %lld", (long long)fd);
    if (got != CUDA_SUCCESS)
        return;
    if (h == 0 || alloc_of(d, h) >= 0)
        failf(d, "the import gave handle 0x%llx, which is 0 or already live", (unsigned long long)h);
    int m = d->fd[f].mem;
    /* Each import is a new handle; its properties report no handle types, as on the driver. */
    d->alloc[a] = (struct model_alloc){.live = true, .handle = h, .mem = m, .granules = d->mem[m].granules,
                                       .user_refs = 1, .types = 0, .exportable = true};
    d->mem[m].holders++;
}

static void op_close_fd(struct driver *d)
{
    int f = pick_fd(d);
    if (f < 0) {
        note(d, "close: skipped, no fd is open");
        return;
    }
    note(d, "close(%d)", d->fd[f].fd);
    if (close(d->fd[f].fd) != 0)
        failf(d, "close(%d) failed: %s", d->fd[f].fd, strerror(errno));
    d->fd[f].live = false;
    mem_unhold(d, d->fd[f].mem);
}

/* After every step: each mapping's access as extmem reports it and as the OS enforces it,
 * and the contents of every readable mapping. */
static void check_state(struct driver *d)
{
    for (int i = 0; i < MAX_MAP && !d->failed; ++i) {
        if (!d->map[i].live)
            continue;
        CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
        unsigned long long flags = 99;
        if (!code(d, "cuMemGetAccess (state check)", CUDA_SUCCESS, cuMemGetAccess(&flags, &loc, d->map[i].base)))
            return;
        CHECK_EQ(d, "cuMemGetAccess's flags (state check)", d->map[i].access, flags);
        if (d->map[i].access == ACCESS_NONE) {
            uint32_t v;
            if (probe_read(d->map[i].base, &v) != EFAULT)
                failf(d, "the mapping at 0x%llx has no access in the model, but the OS lets it be read",
                      (unsigned long long)d->map[i].base);
        } else {
            check_contents(d, i, "the state check after the step");
        }
    }
}

typedef void (*op_fn)(struct driver *);
static const op_fn ops[VMM_OP_COUNT] = {
    op_create, op_release, op_reserve, op_address_free, op_map,    op_unmap,  op_set_access, op_get_access,
    op_write,  op_read,    op_lookup,  op_retain,       op_properties, op_export, op_import, op_close_fd,
};

static int choose_op(struct driver *d)
{
    static unsigned total;
    if (!total)
        for (int i = 0; i < VMM_OP_COUNT; ++i)
            total += op_weights[i];
    unsigned v = take(d, total);
    for (int i = 0; i < VMM_OP_COUNT; ++i) {
        if (v < op_weights[i])
            return i;
        v -= op_weights[i];
    }
    return 0;
}

/* Undoes everything, checking each call; after a mismatch it only cleans up. */
static void teardown(struct driver *d)
{
    bool check = !d->failed;
    d->step++;
    d->counted = true;
    note(d, "teardown");
    for (int i = 0; i < MAX_MAP; ++i)
        if (d->map[i].live) {
            uintptr_t base = d->map[i].base;
            size_t size = d->map[i].size;
            CUresult r = cuMemUnmap((CUdeviceptr)base, size);
            if (check && code(d, "cuMemUnmap (teardown)", CUDA_SUCCESS, r))
                check_unmapped(d, base, size);
            map_remove(d, i);
        }
    for (int i = 0; i < MAX_RES; ++i)
        if (d->res[i].live) {
            CUresult r = cuMemAddressFree((CUdeviceptr)d->res[i].base, d->res[i].size);
            if (check)
                code(d, "cuMemAddressFree (teardown)", CUDA_SUCCESS, r);
            d->res[i].live = false;
        }
    for (int i = 0; i < MAX_ALLOC; ++i)
        while (d->alloc[i].live && d->alloc[i].user_refs > 0) {
            CUresult r = cuMemRelease(d->alloc[i].handle);
            if (check)
                code(d, "cuMemRelease (teardown)", CUDA_SUCCESS, r);
            d->alloc[i].user_refs--;
            alloc_drop_if_unheld(d, i);
        }
    for (int i = 0; i < MAX_FD; ++i)
        if (d->fd[i].live) {
            close(d->fd[i].fd);
            d->fd[i].live = false;
            mem_unhold(d, d->fd[i].mem);
        }
    if (!check)
        return;
    /* Every handle the run saw die must stay dead. */
    size_t n = d->stale_count < MAX_STALE ? d->stale_count : MAX_STALE;
    for (size_t i = 0; i < n; ++i) {
        CUmemAllocationProp prop;
        code(d, "cuMemGetAllocationPropertiesFromHandle of a released handle (teardown)", CUDA_ERROR_INVALID_VALUE,
             cuMemGetAllocationPropertiesFromHandle(&prop, d->stale[i]));
    }
    for (int i = 0; i < MAX_MEM; ++i)
        if (d->mem[i].live)
            failf(d, "the model still holds memory %d after the teardown (a bug in the model)", i);
    int left = os_vmm_mappings();
    if (left != 0)
        failf(d, "%d mapping(s) of extmem's VMM memory are still in /proc/self/maps after everything was unmapped "
              "and freed", left);
}

int vmm_driver_setup(char *why, size_t why_size)
{
    CUresult r = cuInit(0);
    CUdevice dev;
    CUcontext ctx = NULL;
    if (r == CUDA_SUCCESS)
        r = cuCtxGetCurrent(&ctx);
    if (r == CUDA_SUCCESS && !ctx && (r = cuDeviceGet(&dev, 0)) == CUDA_SUCCESS)
        r = cuCtxCreate(&ctx, NULL, 0, dev);
    if (r != CUDA_SUCCESS) {
        snprintf(why, why_size, "setting up a context failed: %s: %s", code_name(r), extmem_error_detail());
        return -1;
    }
    return 0;
}

int vmm_driver_run(const uint8_t *data, size_t size, size_t max_steps, vmm_driver_result *out)
{
    static struct driver d; /* large; one run at a time */
    memset(&d, 0, sizeof(d));
    memset(out, 0, sizeof(*out));
    d.data = data;
    d.size = size;
    d.out = out;
    d.next_stamp = 12345;
    d.last_written_mem = -1;
    d.step = 0;
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    if (cuCtxGetCurrent(&d.ctx) != CUDA_SUCCESS || !d.ctx ||
        cuMemGetAllocationGranularity(&d.gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS) {
        snprintf(out->message, sizeof(out->message), "no current context: call vmm_driver_setup first");
        return 0;
    }
    d.unreserved = (uintptr_t)unreserved_anchor & ~(uintptr_t)(d.gran - 1);
    int fds_before = open_fds();
    d.foreign_fd = memfd_create("not-extmem", MFD_CLOEXEC);
    if (d.foreign_fd < 0 || ftruncate(d.foreign_fd, (off_t)d.gran) != 0) {
        snprintf(out->message, sizeof(out->message), "memfd_create failed: %s", strerror(errno));
        return 0;
    }
    while (!d.exhausted && !d.failed && (max_steps == 0 || out->steps < max_steps)) {
        int op = choose_op(&d);
        if (d.exhausted)
            break;
        d.cur_op = op;
        d.counted = false;
        ops[op](&d);
        out->calls[op]++;
        check_state(&d);
        if (!d.failed && strstr(d.op, "skipped") == NULL)
            out->steps++;
        d.step++;
    }
    teardown(&d);
    close(d.foreign_fd);
    int fds_after = open_fds();
    if (!d.failed && fds_after != fds_before)
        failf(&d, "the process had %d fds before the run and %d after it", fds_before, fds_after);
    out->ok = !d.failed;
    return out->ok;
}
