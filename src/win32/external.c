/*
 * External memory objects on Windows: which handles extmem can import, and where their bytes
 * are. A section (a file mapping object) is memory as it is: extmem's own (recognised by their
 * name, memory.c) and any other program's, whole, from offset 0. The Linux kinds (Mesa's memory
 * fds with their header, dma-bufs) do not exist here (DESIGN.md §7). Nothing here takes or
 * changes the caller's handle.
 */
#include "os.h"
#include "win32.h"

#include <stdio.h>
#include <string.h>

int os_external_identify(os_handle h, bool dmabuf, os_external *out, char *why, size_t why_size)
{
    if (dmabuf) {
        snprintf(why, why_size, "is not a dma-buf: dma-bufs are Linux kernel objects, which Windows does not have");
        return ERROR_NOT_SUPPORTED;
    }
    uint64_t size = 0;
    char name[256];
    bool not_section;
    int err = win32_section_info(h, &size, name, sizeof(name), &not_section);
    if (err && not_section) {
        snprintf(why, why_size, "is not a section (a file mapping object)");
        return err;
    }
    if (err)
        return err;
    bool ours = strncmp(name, WIN32_EXTMEM_PREFIX, sizeof(WIN32_EXTMEM_PREFIX) - 1) == 0;
    out->kind = ours ? OS_EXTERNAL_EXTMEM : OS_EXTERNAL_SECTION;
    out->data_offset = 0;
    out->data_size = (size_t)size;
    return 0;
}

/* The access an importer needs: views for reading and writing, and SECTION_QUERY for the
 * size (win32_section_info). */
#define IMPORT_ACCESS (FILE_MAP_READ | FILE_MAP_WRITE | SECTION_QUERY)

int os_external_open_name(const uint16_t *name, os_handle *out)
{
    HANDLE h = OpenFileMappingW(IMPORT_ACCESS, FALSE, (const WCHAR *)name);
    if (!h)
        return (int)GetLastError();
    *out = h;
    return 0;
}

int os_external_open_token(uint32_t token, os_handle *out)
{
    char name[64];
    win32_kmt_name(name, sizeof(name), token);
    HANDLE h = OpenFileMappingA(IMPORT_ACCESS, FALSE, name);
    if (!h)
        return (int)GetLastError();
    *out = h;
    return 0;
}

int os_external_map(os_handle h, uint64_t offset, size_t size, void **ptr, void **base, size_t *len)
{
    /* A view starts at a multiple of the allocation granularity, not of the page size. */
    uint64_t gran = win32_allocation_granularity();
    uint64_t start = offset / gran * gran;
    size_t span = (size_t)(offset - start) + size;
    void *p = MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, (DWORD)(start >> 32), (DWORD)start, span);
    if (!p)
        return (int)GetLastError();
    *base = p;
    *len = span;
    *ptr = (char *)p + (offset - start);
    return 0;
}

void os_handle_close(os_handle h)
{
    if (h && h != INVALID_HANDLE_VALUE)
        CloseHandle(h);
}
