/*
 * Shareable memory on Windows: pagefile-backed sections mapped as views (DESIGN.md §2).
 *
 * Every section is named, `Local\<name>-<pid>-<n>`: the name is how extmem recognises its own
 * sections when a handle comes back to it (external.c, process.c), as the memfd's name is on
 * Linux. The pid and a counter make the name unique, since some callers pass the same name for
 * every object ("extmem-vmm"). The section is created with the process token's default DACL,
 * which grants the user, SYSTEM and administrators; DESIGN.md §9's owner-only DACL is for the
 * IPC sections that do not exist yet.
 */
#include "os.h"
#include "win32.h"

#include <stdio.h>

size_t os_page_size(void)
{
    static size_t page;
    if (!page) {
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        page = si.dwPageSize;
    }
    return page;
}

size_t win32_allocation_granularity(void)
{
    static size_t gran;
    if (!gran) {
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        gran = si.dwAllocationGranularity;
    }
    return gran;
}

int os_memory_create(os_memory *mem, size_t size, const char *name)
{
    static volatile LONG counter;
    char full[128];
    snprintf(full, sizeof(full), "Local\\%s-%lu-%ld", name, (unsigned long)GetCurrentProcessId(),
             (long)InterlockedIncrement(&counter));
    uint64_t size64 = size;
    /* SEC_COMMIT charges the whole size against the commit limit now, so running out shows up
     * here (ERROR_COMMITMENT_LIMIT) and not as an access violation later. */
    HANDLE h = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE | SEC_COMMIT, (DWORD)(size64 >> 32),
                                  (DWORD)size64, full);
    if (!h)
        return (int)GetLastError();
    if (GetLastError() == ERROR_ALREADY_EXISTS) {
        /* Somebody else made an object of this name first: never share memory with it. */
        CloseHandle(h);
        return ERROR_ALREADY_EXISTS;
    }
    mem->handle = h;
    mem->size = size;
    return 0;
}

int os_memory_map(const os_memory *mem, size_t offset, size_t size, void **addr)
{
    uint64_t off = offset;
    void *p = MapViewOfFile(mem->handle, FILE_MAP_READ | FILE_MAP_WRITE, (DWORD)(off >> 32), (DWORD)off, size);
    if (!p)
        return (int)GetLastError();
    *addr = p;
    return 0;
}

int os_memory_unmap(void *addr, size_t size)
{
    (void)size; /* a view goes as a whole */
    return UnmapViewOfFile(addr) ? 0 : (int)GetLastError();
}

void os_memory_close(os_memory *mem)
{
    if (mem->handle)
        CloseHandle(mem->handle);
    mem->handle = OS_INVALID_HANDLE;
}

/* Walks [addr, addr + size) region by region; `ok` decides for each. */
static bool every_region(const void *addr, size_t size, bool (*ok)(const MEMORY_BASIC_INFORMATION *))
{
    uintptr_t p = (uintptr_t)addr, end = p + size;
    if (size == 0)
        return true;
    if (end < p)
        return false;
    while (p < end) {
        MEMORY_BASIC_INFORMATION mbi;
        if (VirtualQuery((const void *)p, &mbi, sizeof(mbi)) == 0 || !ok(&mbi))
            return false;
        p = (uintptr_t)mbi.BaseAddress + mbi.RegionSize;
    }
    return true;
}

/* As on Linux, where a PROT_NONE reservation is a mapping too: anything but free address space. */
static bool in_use(const MEMORY_BASIC_INFORMATION *mbi) { return mbi->State != MEM_FREE; }

static bool readable(const MEMORY_BASIC_INFORMATION *mbi)
{
    DWORD p = mbi->Protect & 0xff;
    return mbi->State == MEM_COMMIT && !(mbi->Protect & PAGE_GUARD) && p != PAGE_NOACCESS && p != PAGE_EXECUTE;
}

bool os_memory_is_mapped(const void *addr, size_t size) { return every_region(addr, size, in_use); }

bool os_memory_is_readable(const void *addr, size_t size) { return every_region(addr, size, readable); }
