/*
 * Shareable memory on Windows: pagefile-backed sections mapped as views (DESIGN.md §2).
 *
 * Every section is named: the name is how extmem recognises its own sections when a handle
 * comes back to it (external.c, process.c), as the memfd's name is on Linux, and how another
 * process opens it. An ordinary section is `Local\<name>-<pid>-<token>`, the token a counter
 * of this process (the pid and the counter make it unique, since some callers pass the same
 * name for every object, "extmem-vmm"); memory and events shared through IPC carry a 128-bit
 * nonce in <name>, so their full name cannot be guessed (DESIGN.md §9). A section that can be
 * exported as a KMT handle is `Local\extmem-kmt-<token>`, the token random: the KMT handle is
 * the token, and like a real KMT handle it holds no reference: the name goes with the object.
 *
 * Unless the application gives security attributes (CUmemAllocationProp::win32HandleMetaData),
 * a section's DACL admits the creating user alone: other users cannot open it by name, and
 * processes of this user need the name.
 */
#include "os.h"
#include "win32.h"

#include <stdio.h>

static SYSTEM_INFO si;

static BOOL CALLBACK read_system_info(PINIT_ONCE once, void *param, void **context)
{
    (void)once, (void)param, (void)context;
    GetSystemInfo(&si);
    return TRUE;
}

static const SYSTEM_INFO *system_info(void)
{
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    InitOnceExecuteOnce(&once, read_system_info, NULL, NULL);
    return &si;
}

size_t os_page_size(void) { return system_info()->dwPageSize; }

size_t win32_allocation_granularity(void) { return system_info()->dwAllocationGranularity; }

void win32_section_name(char *out, size_t size, const char *name, unsigned long pid, uint32_t token)
{
    snprintf(out, size, "Local\\%s-%lu-%lu", name, pid, (unsigned long)token);
}

void win32_kmt_name(char *out, size_t size, uint32_t token)
{
    snprintf(out, size, "Local\\extmem-kmt-%08lx", (unsigned long)token);
}

/* The owner-only security descriptor: one ACE, all access for the process token's user. Made
 * once; NULL when the token cannot be read (then the token's default DACL applies, which
 * grants the user, SYSTEM and administrators). */
SECURITY_ATTRIBUTES *win32_owner_only(void)
{
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    static SECURITY_ATTRIBUTES sa;
    static SECURITY_DESCRIPTOR sd;
    static union {
        TOKEN_USER user;
        unsigned char bytes[256];
    } token_user;
    static union {
        ACL acl;
        unsigned char bytes[256];
    } dacl;
    static bool ok;
    BOOL pending;
    if (!InitOnceBeginInitialize(&once, 0, &pending, NULL))
        return NULL;
    if (pending) {
        HANDLE token;
        DWORD got;
        if (OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
            ok = GetTokenInformation(token, TokenUser, &token_user, sizeof(token_user), &got) &&
                 InitializeAcl(&dacl.acl, sizeof(dacl), ACL_REVISION) &&
                 AddAccessAllowedAce(&dacl.acl, ACL_REVISION, GENERIC_ALL, token_user.user.User.Sid) &&
                 InitializeSecurityDescriptor(&sd, SECURITY_DESCRIPTOR_REVISION) &&
                 SetSecurityDescriptorDacl(&sd, TRUE, &dacl.acl, FALSE);
            CloseHandle(token);
        }
        sa = (SECURITY_ATTRIBUTES){sizeof(sa), &sd, FALSE};
        InitOnceComplete(&once, 0, NULL);
    }
    return ok ? &sa : NULL;
}

/* winternl.h's OBJECT_ATTRIBUTES, spelled out (mingw-w64 and the Windows SDK differ on it). */
typedef struct {
    ULONG Length;
    HANDLE RootDirectory;
    void *ObjectName;
    ULONG Attributes;
    PVOID SecurityDescriptor;
    PVOID SecurityQualityOfService;
} nt_object_attributes;
#define NT_OBJ_INHERIT 0x2

/* CUDA's header calls win32HandleMetaData an OBJECT_ATTRIBUTES, its programming guide a
 * SECURITY_ATTRIBUTES: both are taken, told apart by their first field, their size. */
static int security_from(const void *security, SECURITY_ATTRIBUTES *out, char *why, size_t why_size)
{
    const SECURITY_ATTRIBUTES *sa = security;
    const nt_object_attributes *oa = security;
    if (sa->nLength == sizeof(SECURITY_ATTRIBUTES)) {
        *out = *sa;
    } else if (oa->Length == sizeof(nt_object_attributes)) {
        *out = (SECURITY_ATTRIBUTES){sizeof(*out), oa->SecurityDescriptor, (oa->Attributes & NT_OBJ_INHERIT) != 0};
    } else {
        snprintf(why, why_size, "is neither a SECURITY_ATTRIBUTES (nLength %u) nor an OBJECT_ATTRIBUTES (Length %u): "
                 "its first field is %lu", (unsigned)sizeof(SECURITY_ATTRIBUTES),
                 (unsigned)sizeof(nt_object_attributes), (unsigned long)sa->nLength);
        return ERROR_INVALID_PARAMETER;
    }
    if (out->lpSecurityDescriptor && !IsValidSecurityDescriptor(out->lpSecurityDescriptor)) {
        snprintf(why, why_size, "holds a security descriptor that is not valid (IsValidSecurityDescriptor)");
        return ERROR_INVALID_PARAMETER;
    }
    return 0;
}

int os_share_check(const void *security, char *why, size_t why_size)
{
    SECURITY_ATTRIBUTES sa;
    return security ? security_from(security, &sa, why, why_size) : 0;
}

static HANDLE create_section(size_t size, const char *name, SECURITY_ATTRIBUTES *sa, int *err)
{
    uint64_t size64 = size;
    /* SEC_COMMIT charges the whole size against the commit limit now, so running out shows up
     * here (ERROR_COMMITMENT_LIMIT) and not as an access violation later. */
    HANDLE h = CreateFileMappingA(INVALID_HANDLE_VALUE, sa, PAGE_READWRITE | SEC_COMMIT, (DWORD)(size64 >> 32),
                                  (DWORD)size64, name);
    *err = h ? 0 : (int)GetLastError();
    if (h && GetLastError() == ERROR_ALREADY_EXISTS) {
        /* Somebody else made an object of this name first: never share memory with it. */
        CloseHandle(h);
        *err = ERROR_ALREADY_EXISTS;
        return NULL;
    }
    return h;
}

int os_memory_create(os_memory *mem, size_t size, const char *name, const os_share *share)
{
    static volatile LONG counter;
    SECURITY_ATTRIBUTES given, *sa = win32_owner_only();
    char why[160];
    if (share && share->security) {
        if (security_from(share->security, &given, why, sizeof(why)))
            return ERROR_INVALID_PARAMETER; /* os_share_check said why, before */
        sa = &given;
    }
    bool global = share && share->global;
    /* extmem's own handle is never inherited; exported handles are, when the attributes ask. */
    SECURITY_ATTRIBUTES own = {sizeof(own), sa ? sa->lpSecurityDescriptor : NULL, FALSE};
    char full[128];
    HANDLE h = NULL;
    uint32_t token = 0;
    int err = 0;
    /* A random KMT token is taken already once in four billion times: then another one. */
    for (int attempt = 0; attempt < 16 && !h; ++attempt) {
        if (global) {
            if ((err = os_random_bytes(&token, sizeof(token))))
                return err;
            token |= 0x40000000u; /* never 0, which means "no handle" */
            win32_kmt_name(full, sizeof(full), token);
        } else {
            token = (uint32_t)InterlockedIncrement(&counter);
            win32_section_name(full, sizeof(full), name, GetCurrentProcessId(), token);
        }
        h = create_section(size, full, &own, &err);
        if (err != ERROR_ALREADY_EXISTS)
            break;
    }
    if (!h)
        return err;
    *mem = (os_memory){.handle = h, .size = size, .token = token, .global = global,
                       .inheritable = sa && sa->bInheritHandle};
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

/* Windows has no fork: every process starts with nothing of another's mapped. */
void os_memory_inherit(void *addr, size_t size)
{
    (void)addr;
    (void)size;
}

void os_memory_keep_from_fork(void *addr, size_t size)
{
    (void)addr;
    (void)size;
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

bool os_memory_size_is_fixed(os_handle h)
{
    (void)h; /* a pagefile-backed section keeps the size it was created with */
    return true;
}

bool os_memory_is_mapped(const void *addr, size_t size) { return every_region(addr, size, in_use); }

bool os_memory_is_readable(const void *addr, size_t size) { return every_region(addr, size, readable); }
