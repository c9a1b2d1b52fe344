/*
 * Address space for VMM on Windows (DESIGN.md §8).
 *
 * The way Windows means it: placeholders (Windows 10 1803). A reservation is a placeholder
 * (VirtualAlloc2 with MEM_RESERVE | MEM_RESERVE_PLACEHOLDER); a mapping splits the placeholders
 * there to the mapped range exactly (VirtualFree with MEM_PRESERVE_PLACEHOLDER, after joining
 * neighbours with MEM_COALESCE_PLACEHOLDERS where the range spans several) and replaces it with
 * a view of the section (MapViewOfFile3 with MEM_REPLACE_PLACEHOLDER); an unmap turns the view
 * back into a placeholder (UnmapViewOfFile2 with MEM_PRESERVE_PLACEHOLDER). The address range
 * stays reserved throughout, so nothing else in the process can take it.
 *
 * The calls are looked up in kernelbase.dll and tried once, on a small placeholder, before
 * extmem relies on them: older Windows lacks them, and wine 8 exports them but refuses
 * MEM_RESERVE_PLACEHOLDER. Where the trial fails, the fallback: a reservation is ordinary
 * reserved memory (VirtualAlloc with MEM_RESERVE); a mapping releases the reserved pieces under
 * the range, maps the view at its exact address (MapViewOfFileEx) and reserves what is left of
 * the pieces around it again; an unmap reserves the hole again. Between the release and the
 * map, another thread of the process that allocates address space can take the range: the map
 * then fails with ERROR_INVALID_ADDRESS and the range is reserved again as it was (a narrow
 * race, and the reason placeholders exist). os_vmm_method() says which of the two is in use.
 */
#include "os.h"
#include "win32.h"

#include <stdio.h>
#include <string.h>

typedef PVOID(WINAPI *virtual_alloc2_fn)(HANDLE, PVOID, SIZE_T, ULONG, ULONG, void *, ULONG);
typedef PVOID(WINAPI *map_view3_fn)(HANDLE, HANDLE, PVOID, ULONG64, SIZE_T, ULONG, ULONG, void *, ULONG);
typedef BOOL(WINAPI *unmap_view2_fn)(HANDLE, PVOID, ULONG);

static struct {
    virtual_alloc2_fn alloc2;
    map_view3_fn map3;
    unmap_view2_fn unmap2;
    bool placeholders;
    char method[256];
} vmm;
static INIT_ONCE probe_once = INIT_ONCE_STATIC_INIT;

/* Maps one 64 KiB view into a two-granule placeholder and back: what every cuMemMap does.
 * Returns NULL, or which step failed with the error. */
static const char *try_placeholders(void)
{
    static char failed_text[160];
    size_t gran = win32_allocation_granularity();
    HANDLE process = GetCurrentProcess();
    HANDLE section = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE | SEC_COMMIT, 0, (DWORD)gran, NULL);
    if (!section)
        return "CreateFileMapping failed";
    const char *failed = NULL;
    DWORD err = 0;
    char *view = NULL;
    char *p = vmm.alloc2(process, NULL, 2 * gran, MEM_RESERVE | MEM_RESERVE_PLACEHOLDER, PAGE_NOACCESS, NULL, 0);
    if (!p) {
        failed = "VirtualAlloc2(MEM_RESERVE_PLACEHOLDER) failed";
        err = GetLastError();
        goto out;
    }
    if (!VirtualFree(p, gran, MEM_RELEASE | MEM_PRESERVE_PLACEHOLDER)) {
        failed = "splitting a placeholder (VirtualFree(MEM_PRESERVE_PLACEHOLDER)) failed";
        err = GetLastError();
        goto release;
    }
    view = vmm.map3(section, process, p, 0, gran, MEM_REPLACE_PLACEHOLDER, PAGE_READWRITE, NULL, 0);
    if (view != p) {
        failed = "MapViewOfFile3(MEM_REPLACE_PLACEHOLDER) failed";
        err = GetLastError();
        if (view)
            UnmapViewOfFile(view);
        goto release;
    }
    view[0] = 1;
    if (!vmm.unmap2(process, p, MEM_PRESERVE_PLACEHOLDER)) {
        failed = "UnmapViewOfFile2(MEM_PRESERVE_PLACEHOLDER) failed";
        err = GetLastError();
        UnmapViewOfFile(p);
        goto release;
    }
    if (!VirtualFree(p, 2 * gran, MEM_RELEASE | MEM_COALESCE_PLACEHOLDERS)) {
        failed = "joining placeholders (VirtualFree(MEM_COALESCE_PLACEHOLDERS)) failed";
        err = GetLastError();
    }
release:
    for (int i = 0; i < 2; ++i) /* one placeholder, or two when the join failed */
        VirtualFree(p + i * gran, 0, MEM_RELEASE);
out:
    CloseHandle(section);
    if (!failed)
        return NULL;
    snprintf(failed_text, sizeof(failed_text), "%s (Windows error %lu)", failed, (unsigned long)err);
    return failed_text;
}

static BOOL CALLBACK probe(PINIT_ONCE once, PVOID param, PVOID *context)
{
    (void)once, (void)param, (void)context;
    HMODULE kernelbase = GetModuleHandleA("kernelbase.dll");
    if (kernelbase) {
        vmm.alloc2 = (virtual_alloc2_fn)(void (*)(void))GetProcAddress(kernelbase, "VirtualAlloc2");
        vmm.map3 = (map_view3_fn)(void (*)(void))GetProcAddress(kernelbase, "MapViewOfFile3");
        vmm.unmap2 = (unmap_view2_fn)(void (*)(void))GetProcAddress(kernelbase, "UnmapViewOfFile2");
    }
    const char *env = os_getenv("EXTMEM_WIN32_PLACEHOLDERS"); /* "0": use the fallback (tests) */
    bool off = env && env[0] == '0';
    const char *failed = off ? "EXTMEM_WIN32_PLACEHOLDERS=0"
                         : !(vmm.alloc2 && vmm.map3 && vmm.unmap2) ? "kernelbase.dll does not export them"
                                                                    : try_placeholders();
    vmm.placeholders = failed == NULL;
    if (vmm.placeholders)
        snprintf(vmm.method, sizeof(vmm.method), "placeholders (VirtualAlloc2, MapViewOfFile3, UnmapViewOfFile2)");
    else
        snprintf(vmm.method, sizeof(vmm.method),
                 "fallback: VirtualAlloc reservations released and re-reserved around MapViewOfFileEx "
                 "(placeholders unusable: %s)", failed);
    return TRUE;
}

static void probe_once_only(void) { InitOnceExecuteOnce(&probe_once, probe, NULL, NULL); }

const char *os_vmm_method(void)
{
    probe_once_only();
    return vmm.method;
}

static MEMORY_BASIC_INFORMATION query(uintptr_t p)
{
    MEMORY_BASIC_INFORMATION mbi = {0};
    if (!VirtualQuery((const void *)p, &mbi, sizeof(mbi)))
        mbi.State = MEM_FREE;
    return mbi;
}

/* The end of the allocation (placeholder, reservation or view) that starts at base. */
static uintptr_t allocation_end(uintptr_t base)
{
    uintptr_t p = base;
    for (;;) {
        MEMORY_BASIC_INFORMATION mbi = query(p);
        if (mbi.State == MEM_FREE || (uintptr_t)mbi.AllocationBase != base)
            return p;
        p = (uintptr_t)mbi.BaseAddress + mbi.RegionSize;
    }
}

static void *reserve_at(void *addr, size_t size)
{
    if (vmm.placeholders)
        return vmm.alloc2(GetCurrentProcess(), addr, size, MEM_RESERVE | MEM_RESERVE_PLACEHOLDER, PAGE_NOACCESS, NULL, 0);
    return VirtualAlloc(addr, size, MEM_RESERVE, PAGE_NOACCESS);
}

int os_reserve(size_t size, size_t alignment, uintptr_t hint, void **addr)
{
    probe_once_only();
    size_t gran = win32_allocation_granularity();
    if (alignment < gran)
        alignment = gran; /* every allocation starts at a multiple of it anyway */
    if (hint && hint % alignment == 0) {
        void *p = reserve_at((void *)hint, size);
        if (p) {
            *addr = p;
            return 0;
        }
    }
    size_t span = size + alignment - gran;
    if (span < size)
        return ERROR_NOT_ENOUGH_MEMORY;
    for (int attempt = 0; attempt < 16; ++attempt) {
        char *p = reserve_at(NULL, span);
        if (!p)
            return (int)GetLastError();
        uintptr_t start = ((uintptr_t)p + alignment - 1) & ~(uintptr_t)(alignment - 1);
        size_t head = start - (uintptr_t)p, tail = span - head - size;
        if (vmm.placeholders) {
            /* Cut the placeholder to the aligned range and give the ends back. */
            if (head) {
                VirtualFree(p, head, MEM_RELEASE | MEM_PRESERVE_PLACEHOLDER);
                VirtualFree(p, 0, MEM_RELEASE);
            }
            if (tail) {
                VirtualFree((void *)(start + size), tail, MEM_RELEASE | MEM_PRESERVE_PLACEHOLDER);
                VirtualFree((void *)(start + size), 0, MEM_RELEASE);
            }
            *addr = (void *)start;
            return 0;
        }
        /* A reservation cannot be cut: release it and reserve the aligned range inside, which
         * another thread may take in between (then try again). */
        VirtualFree(p, 0, MEM_RELEASE);
        void *q = VirtualAlloc((void *)start, size, MEM_RESERVE, PAGE_NOACCESS);
        if (q) {
            *addr = q;
            return 0;
        }
    }
    return ERROR_NOT_ENOUGH_MEMORY;
}

int os_unreserve(void *addr, size_t size)
{
    uintptr_t p = (uintptr_t)addr, end = p + size;
    int err = 0;
    while (p < end) {
        MEMORY_BASIC_INFORMATION mbi = query(p);
        uintptr_t next = (uintptr_t)mbi.BaseAddress + mbi.RegionSize;
        if (mbi.State == MEM_FREE) {
            if (!mbi.RegionSize)
                break;
        } else if (mbi.Type == MEM_MAPPED) {
            if (!UnmapViewOfFile(mbi.AllocationBase))
                err = (int)GetLastError();
            next = allocation_end((uintptr_t)mbi.AllocationBase);
        } else {
            next = allocation_end((uintptr_t)mbi.AllocationBase);
            if (!VirtualFree(mbi.AllocationBase, 0, MEM_RELEASE))
                err = (int)GetLastError();
        }
        p = next;
    }
    return err;
}

/* The reserved pieces (placeholders or reservations) under [a, e), with no view among them:
 * [*first, *last_end) is their union. */
static int reserved_pieces(uintptr_t a, uintptr_t e, uintptr_t *first, uintptr_t *last_end, int *count)
{
    MEMORY_BASIC_INFORMATION mbi = query(a);
    if (mbi.State != MEM_RESERVE)
        return ERROR_INVALID_ADDRESS;
    *first = (uintptr_t)mbi.AllocationBase;
    *count = 0;
    uintptr_t q = *first;
    while (q < e) {
        mbi = query(q);
        if (mbi.State != MEM_RESERVE || (uintptr_t)mbi.AllocationBase != q)
            return ERROR_INVALID_ADDRESS;
        q = allocation_end(q);
        ++*count;
    }
    *last_end = q;
    return 0;
}

static int map_placeholder(HANDLE section, uint64_t offset, uintptr_t a, size_t size)
{
    uintptr_t e = a + size, pb, pe;
    int pieces;
    int err = reserved_pieces(a, e, &pb, &pe, &pieces);
    if (err)
        return err;
    if (pieces > 1 && !VirtualFree((void *)pb, pe - pb, MEM_RELEASE | MEM_COALESCE_PLACEHOLDERS))
        return (int)GetLastError();
    if (pb < a && !VirtualFree((void *)pb, a - pb, MEM_RELEASE | MEM_PRESERVE_PLACEHOLDER))
        return (int)GetLastError();
    if (e < pe && !VirtualFree((void *)a, size, MEM_RELEASE | MEM_PRESERVE_PLACEHOLDER))
        return (int)GetLastError();
    void *p = vmm.map3(section, GetCurrentProcess(), (void *)a, offset, size, MEM_REPLACE_PLACEHOLDER, PAGE_READWRITE,
                       NULL, 0);
    return p ? 0 : (int)GetLastError();
}

static int map_fallback(HANDLE section, uint64_t offset, uintptr_t a, size_t size)
{
    uintptr_t e = a + size, rb, re;
    int pieces;
    int err = reserved_pieces(a, e, &rb, &re, &pieces);
    if (err)
        return err;
    for (uintptr_t q = rb; q < re;) {
        uintptr_t next = allocation_end(q);
        VirtualFree((void *)q, 0, MEM_RELEASE);
        q = next;
    }
    /* From here until the pieces are reserved again, the range is free address space. */
    void *p = MapViewOfFileEx(section, FILE_MAP_READ | FILE_MAP_WRITE, (DWORD)(offset >> 32), (DWORD)offset, size,
                              (void *)a);
    if (!p) {
        err = (int)GetLastError();
        VirtualAlloc((void *)rb, re - rb, MEM_RESERVE, PAGE_NOACCESS);
        return err;
    }
    bool head = rb == a || VirtualAlloc((void *)rb, a - rb, MEM_RESERVE, PAGE_NOACCESS);
    bool tail = re == e || VirtualAlloc((void *)e, re - e, MEM_RESERVE, PAGE_NOACCESS);
    if (head && tail)
        return 0;
    /* Lost a race for the space around the view: put the reservation back as it was. */
    UnmapViewOfFile(p);
    if (head && rb < a)
        VirtualFree((void *)rb, 0, MEM_RELEASE);
    if (tail && e < re)
        VirtualFree((void *)e, 0, MEM_RELEASE);
    VirtualAlloc((void *)rb, re - rb, MEM_RESERVE, PAGE_NOACCESS);
    return ERROR_INVALID_ADDRESS;
}

int os_map_fixed(const os_memory *mem, size_t offset, void *addr, size_t size)
{
    probe_once_only();
    int err = vmm.placeholders ? map_placeholder(mem->handle, offset, (uintptr_t)addr, size)
                               : map_fallback(mem->handle, offset, (uintptr_t)addr, size);
    if (err)
        return err;
    /* os.h: a new mapping has no access until cuMemSetAccess gives it some. */
    DWORD old;
    if (!VirtualProtect(addr, size, PAGE_NOACCESS, &old)) {
        err = (int)GetLastError();
        os_unmap_fixed(addr, size);
    }
    return err;
}

int os_unmap_fixed(void *addr, size_t size)
{
    probe_once_only();
    uintptr_t p = (uintptr_t)addr, end = p + size;
    while (p < end) {
        MEMORY_BASIC_INFORMATION mbi = query(p);
        if (mbi.State == MEM_FREE || mbi.Type != MEM_MAPPED)
            return ERROR_INVALID_ADDRESS;
        uintptr_t base = (uintptr_t)mbi.AllocationBase, next = allocation_end(base);
        if (vmm.placeholders) {
            if (!vmm.unmap2(GetCurrentProcess(), (void *)base, MEM_PRESERVE_PLACEHOLDER))
                return (int)GetLastError();
        } else {
            if (!UnmapViewOfFile((void *)base))
                return (int)GetLastError();
            /* Unmapped, and now free: reserve the hole again (the same race as in map). */
            if (!VirtualAlloc((void *)base, next - base, MEM_RESERVE, PAGE_NOACCESS))
                return (int)GetLastError();
        }
        p = next;
    }
    return 0;
}

int os_protect(void *addr, size_t size, int access)
{
    DWORD prot = access == OS_ACCESS_READWRITE ? PAGE_READWRITE : access == OS_ACCESS_READ ? PAGE_READONLY : PAGE_NOACCESS;
    if (os_fault_injected("os_protect", addr, size))
        return ERROR_NOT_ENOUGH_MEMORY;
    /* VirtualProtect stays inside one allocation: protect view by view. */
    uintptr_t p = (uintptr_t)addr, end = p + size;
    while (p < end) {
        MEMORY_BASIC_INFORMATION mbi = query(p);
        if (mbi.State != MEM_COMMIT)
            return ERROR_INVALID_ADDRESS;
        uintptr_t next = (uintptr_t)mbi.BaseAddress + mbi.RegionSize;
        if (next > end)
            next = end;
        DWORD old;
        if (!VirtualProtect((void *)p, next - p, prot, &old))
            return (int)GetLastError();
        p = next;
    }
    return 0;
}

int os_handle_dup(os_handle h, os_handle *out)
{
    HANDLE self = GetCurrentProcess(), dup = NULL;
    if (!DuplicateHandle(self, h, self, &dup, 0, FALSE, DUPLICATE_SAME_ACCESS))
        return (int)GetLastError();
    *out = dup;
    return 0;
}

int os_memory_export(const os_memory *mem, os_handle *out)
{
    HANDLE self = GetCurrentProcess(), dup = NULL;
    if (!DuplicateHandle(self, mem->handle, self, &dup, 0, mem->inheritable, DUPLICATE_SAME_ACCESS))
        return (int)GetLastError();
    *out = dup;
    return 0;
}

int os_memory_open_token(uint32_t token, os_memory *mem)
{
    HANDLE h;
    int err = os_external_open_token(token, &h);
    if (err)
        return err;
    uint64_t size = 0;
    bool not_section;
    if ((err = win32_section_info(h, &size, NULL, 0, &not_section))) {
        CloseHandle(h);
        return err;
    }
    *mem = (os_memory){.handle = h, .size = (size_t)size, .token = token, .global = true};
    return 0;
}

int os_memory_open(os_handle h, os_memory *mem, char *why, size_t why_size)
{
    uint64_t size = 0;
    char name[256];
    bool not_section;
    int err = win32_section_info(h, &size, name, sizeof(name), &not_section);
    if (err) {
        if (not_section)
            snprintf(why, why_size, "is not memory exported by extmem (it is not a section)");
        return err;
    }
    if (strncmp(name, WIN32_EXTMEM_PREFIX, sizeof(WIN32_EXTMEM_PREFIX) - 1) != 0) {
        snprintf(why, why_size, "is not memory exported by extmem (it is the section %s)", name[0] ? name : "without a name");
        return ERROR_INVALID_PARAMETER;
    }
    os_handle dup = OS_INVALID_HANDLE;
    if ((err = os_handle_dup(h, &dup)))
        return err;
    *mem = (os_memory){.handle = dup, .size = (size_t)size};
    return 0;
}
