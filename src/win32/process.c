/*
 * Other processes on Windows, and what a section handle is.
 *
 * IPC handles (src/interop/ipc.c) name the exporter's section: its name (with the nonce), the
 * exporter's pid and the section's token make `Local\<name>-<pid>-<token>` (memory.c), which the
 * opener opens by name. The section's DACL admits its owner alone, and the nonce cannot be
 * guessed, so the handle is the capability: no process needs rights over another
 * (PROCESS_DUP_HANDLE), as DESIGN.md §9 asks.
 *
 * A section's identity is its object name, unique per live section (memory.c), read through
 * ntdll's NtQueryObject; its size through NtQuerySection. Both are reached with GetProcAddress:
 * ntdll's import library is not part of every toolchain's defaults.
 */
#include "os.h"
#include "win32.h"

#include <stdio.h>
#include <string.h>

typedef LONG nt_status;
#define NT_SUCCESS(s) ((s) >= 0)
#define NT_STATUS_INVALID_HANDLE ((nt_status)0xC0000008L)
#define NT_STATUS_OBJECT_TYPE_MISMATCH ((nt_status)0xC0000024L)
#define NT_STATUS_ACCESS_DENIED ((nt_status)0xC0000022L)

/* winternl.h's shapes, spelled out: mingw-w64 and the Windows SDK disagree on which of them
 * they declare. */
typedef struct {
    USHORT Length;
    USHORT MaximumLength;
    PWSTR Buffer;
} nt_unicode_string;
typedef struct {
    PVOID BaseAddress;
    ULONG AllocationAttributes;
    LARGE_INTEGER MaximumSize;
} nt_section_basic_information;
enum { NT_SECTION_BASIC_INFORMATION = 0, NT_OBJECT_NAME_INFORMATION = 1 };

typedef nt_status(NTAPI *nt_query_section_fn)(HANDLE, int, PVOID, SIZE_T, PSIZE_T);
typedef nt_status(NTAPI *nt_query_object_fn)(HANDLE, int, PVOID, ULONG, PULONG);

static FARPROC ntdll_proc(const char *name)
{
    HMODULE ntdll = GetModuleHandleA("ntdll.dll"); /* always loaded */
    return ntdll ? GetProcAddress(ntdll, name) : NULL;
}

/* A view of the whole section tells its size where the handle may not be queried (a handle
 * opened with FILE_MAP_READ | FILE_MAP_WRITE lacks SECTION_QUERY). */
static int size_from_view(HANDLE h, uint64_t *size)
{
    void *p = MapViewOfFile(h, FILE_MAP_READ, 0, 0, 0);
    if (!p)
        return (int)GetLastError();
    MEMORY_BASIC_INFORMATION mbi;
    int err = 0;
    if (VirtualQuery(p, &mbi, sizeof(mbi)))
        *size = mbi.RegionSize;
    else
        err = (int)GetLastError();
    UnmapViewOfFile(p);
    return err;
}

static void object_name(HANDLE h, char *name, size_t name_size)
{
    static nt_query_object_fn query;
    if (!query)
        query = (nt_query_object_fn)(void (*)(void))ntdll_proc("NtQueryObject");
    name[0] = '\0';
    union {
        nt_unicode_string s;
        unsigned char bytes[1024];
    } buf;
    ULONG got = 0;
    if (!query || !NT_SUCCESS(query(h, NT_OBJECT_NAME_INFORMATION, &buf, sizeof(buf), &got)) || !buf.s.Buffer)
        return;
    /* "\Sessions\1\BaseNamedObjects\extmem-device-...": the last component is the name memory.c
     * gave. */
    size_t len = buf.s.Length / sizeof(WCHAR), start = len;
    while (start > 0 && buf.s.Buffer[start - 1] != L'\\')
        start--;
    int n = WideCharToMultiByte(CP_UTF8, 0, buf.s.Buffer + start, (int)(len - start), name, (int)name_size - 1, NULL,
                                NULL);
    name[n > 0 ? n : 0] = '\0';
}

int win32_section_info(HANDLE h, uint64_t *size, char *name, size_t name_size, bool *not_section)
{
    static nt_query_section_fn query;
    if (!query)
        query = (nt_query_section_fn)(void (*)(void))ntdll_proc("NtQuerySection");
    *not_section = false;
    if (!h || h == INVALID_HANDLE_VALUE)
        return ERROR_INVALID_HANDLE;
    nt_section_basic_information info;
    nt_status st = query ? query(h, NT_SECTION_BASIC_INFORMATION, &info, sizeof(info), NULL) : NT_STATUS_ACCESS_DENIED;
    if (st == NT_STATUS_INVALID_HANDLE)
        return ERROR_INVALID_HANDLE;
    if (st == NT_STATUS_OBJECT_TYPE_MISMATCH) {
        *not_section = true;
        return ERROR_INVALID_PARAMETER;
    }
    int err = 0;
    if (NT_SUCCESS(st))
        *size = (uint64_t)info.MaximumSize.QuadPart;
    else if ((err = size_from_view(h, size)))
        return err;
    if (name)
        object_name(h, name, name_size);
    return 0;
}

void os_watch_fork(void (*in_child)(void)) { (void)in_child; /* Windows has no fork */ }

uint64_t os_process_start_time(int pid)
{
    HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
    if (!p)
        return 0;
    FILETIME created, exited, kernel, user;
    DWORD code = 0;
    uint64_t t = 0;
    /* A process that has exited lives on as an object while handles to it are open. Process
     * ids are multiples of 4 and OpenProcess ignores the low two bits, so pid + 1 opens the
     * same process: only the id the process has is its id. */
    if (GetProcessId(p) == (DWORD)pid && GetExitCodeProcess(p, &code) && code == STILL_ACTIVE &&
        GetProcessTimes(p, &created, &exited, &kernel, &user))
        t = (uint64_t)created.dwHighDateTime << 32 | created.dwLowDateTime;
    CloseHandle(p);
    return t;
}

int32_t os_ipc_token(const os_memory *mem) { return (int32_t)mem->token; }

int os_ipc_open(int pid, int32_t token, const char *name, os_handle *out)
{
    char full[160];
    win32_section_name(full, sizeof(full), name, (unsigned long)pid, (uint32_t)token);
    /* SECTION_QUERY lets win32_section_info read the size without mapping a view. */
    HANDLE h = OpenFileMappingA(FILE_MAP_READ | FILE_MAP_WRITE | SECTION_QUERY, FALSE, full);
    if (!h)
        return (int)GetLastError();
    *out = h;
    return 0;
}

/* FNV-1a: a section has no inode, so its unique name stands in for one. */
static uint64_t name_id(const char *s)
{
    uint64_t hash = 0xcbf29ce484222325ull;
    for (; *s; ++s)
        hash = (hash ^ (unsigned char)*s) * 0x100000001b3ull;
    return hash;
}

int os_handle_identity(os_handle h, uint64_t *id, uint64_t *size, char *name, size_t name_size)
{
    char own[256];
    bool not_section;
    int err = win32_section_info(h, size, own, sizeof(own), &not_section);
    if (err)
        return err;
    *id = own[0] ? name_id(own) : 0;
    if (name)
        snprintf(name, name_size, "%s", own);
    return 0;
}
