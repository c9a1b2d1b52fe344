/*
 * bench/bench_os.h: the raw OS calls that bench.c sets beside extmem's calls: what the software
 * device is built from, on each OS (DESIGN.md §2, §8). Header-only, so that
 * `gcc -O2 bench/bench.c -lcuda` still builds the NVIDIA bench from the one file.
 *
 * Two sections, and nothing OS-specific outside them:
 *   POSIX   (src/posix/memory.c, vmm.c): a sealed memfd; mmap(MAP_SHARED) of it; VMM address
 *           space is a PROT_NONE mapping, a map is mmap(MAP_FIXED, PROT_NONE) of the memfd into
 *           it, access is mprotect, an unmap is an anonymous PROT_NONE mmap(MAP_FIXED) back.
 *   Windows (src/win32/memory.c, vmm.c): a named pagefile-backed section (CreateFileMapping,
 *           SEC_COMMIT); a view of it (MapViewOfFile). VMM follows vmm.c's fallback, the path
 *           wine 8 takes (it refuses placeholders): address space is a VirtualAlloc reservation;
 *           a map releases the reservation under the range, maps the view at its address
 *           (MapViewOfFileEx), reserves what is left around it again and takes all access away
 *           (VirtualProtect PAGE_NOACCESS: a new mapping has none until cuMemSetAccess); access is
 *           VirtualProtect; an unmap is UnmapViewOfFile and a reservation of the hole again.
 *
 * Every function dies with the OS's error on failure: a raw row that failed means nothing.
 */
#ifndef BENCH_OS_H
#define BENCH_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef _WIN32
/* ======================================== Windows ======================================== */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

typedef HANDLE bench_os_mem; /* a section handle; also what CU_MEM_HANDLE_TYPE_WIN32 exports */
#define BENCH_OS_NAME "Windows"
#define BENCH_HANDLE_TYPE CU_MEM_HANDLE_TYPE_WIN32
#define BENCH_TEXT_OS_CYCLE "OS: CreateFileMapping+MapView+UnmapView+CloseHandle, 2 MiB"
#define BENCH_TEXT_OS_MAP_ACCESS_UNMAP "OS: free+MapViewOfFileEx+protect x2+unmap+reserve, %s"
#define BENCH_TEXT_OS_FULL_CYCLE "OS: section, reserve, map, protect x2, unmap, free, close"
#define BENCH_TEXT_OS_BULK "OS: %d x free+MapViewOfFileEx+reserve+protect (total)"
#define BENCH_TEXT_OS_DUP_CLOSE "OS: DuplicateHandle + CloseHandle"
#define BENCH_TEXT_OS_MAP_LIVE "OS: free + MapViewOfFileEx + protect, %zu live mapping%s"
#define BENCH_TEXT_OS_MAP_SAME "OS: MapViewOfFile of a section of the size + UnmapView, %s"
/* The map-limit probe reads Linux's vm.max_map_count; Windows has no such count. */
#define BENCH_OS_NO_MAP_LIMIT                                                                                     \
    "limit: not probed: Windows has no per-process count of mappings (vm.max_map_count is Linux's; under wine "   \
    "each view is still a Linux mapping, so Linux's limit applies there)"

static void bench_os_die(const char *what)
{
    fprintf(stderr, "bench: %s failed: Windows error %lu\n", what, (unsigned long)GetLastError());
    exit(1);
}

/* Runs fn(arg, i) for i in [0, n) on n threads at once and waits for all: the machine's own
 * multi-threaded memcpy, the physical reference for large copies. */
struct bench_os_par {
    void (*fn)(void *arg, unsigned int i);
    void *arg;
    unsigned int i;
};
static DWORD WINAPI bench_os_par_main(LPVOID p)
{
    struct bench_os_par *t = p;
    t->fn(t->arg, t->i);
    return 0;
}
static void bench_os_parallel(void (*fn)(void *arg, unsigned int i), void *arg, unsigned int n)
{
    HANDLE h[256];
    struct bench_os_par t[256];
    if (n > 256)
        n = 256;
    for (unsigned int i = 1; i < n; ++i) {
        t[i] = (struct bench_os_par){fn, arg, i};
        if (!(h[i] = CreateThread(NULL, 0, bench_os_par_main, &t[i], 0, NULL)))
            bench_os_die("CreateThread");
    }
    fn(arg, 0);
    for (unsigned int i = 1; i < n; ++i) {
        WaitForSingleObject(h[i], INFINITE);
        CloseHandle(h[i]);
    }
}
static unsigned int bench_os_cpus(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors ? si.dwNumberOfProcessors : 1;
}


/* A named section, as extmem makes every one: Local\<name>-<pid>-<counter> (src/win32/memory.c). */
static bench_os_mem bench_os_mem_create(size_t size)
{
    static LONG counter;
    char name[96];
    snprintf(name, sizeof(name), "Local\\bench-%lu-%ld", (unsigned long)GetCurrentProcessId(), ++counter);
    uint64_t size64 = size;
    HANDLE h = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE | SEC_COMMIT, (DWORD)(size64 >> 32),
                                  (DWORD)size64, name);
    if (!h)
        bench_os_die("CreateFileMapping(SEC_COMMIT)");
    return h;
}

static void bench_os_mem_close(bench_os_mem m) { CloseHandle(m); }

/* A shareable handle the import did not take (an NT handle stays the caller's). */
static void bench_os_imported_close(bench_os_mem m) { CloseHandle(m); }

static void *bench_os_map_any(bench_os_mem m, size_t size)
{
    void *p = MapViewOfFile(m, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, size);
    if (!p)
        bench_os_die("MapViewOfFile");
    return p;
}

static void bench_os_unmap_any(void *p, size_t size)
{
    (void)size;
    if (!UnmapViewOfFile(p))
        bench_os_die("UnmapViewOfFile");
}

/* Unmaps every view in [at, at + size), which starts at one, and then either reserves each
 * view's hole again, as cuMemUnmap does (vmm.c: os_unmap_fixed), or releases the reservations
 * too. */
static void bench_os_clear(void *at, size_t size, bool reserve_holes)
{
    uintptr_t p = (uintptr_t)at, end = p + size;
    while (p < end) {
        MEMORY_BASIC_INFORMATION mbi;
        if (!VirtualQuery((void *)p, &mbi, sizeof(mbi)))
            bench_os_die("VirtualQuery");
        uintptr_t next = (uintptr_t)mbi.BaseAddress + mbi.RegionSize; /* views are uniform here */
        if (mbi.State != MEM_FREE && mbi.Type == MEM_MAPPED) {
            if (!UnmapViewOfFile(mbi.AllocationBase))
                bench_os_die("UnmapViewOfFile");
            if (reserve_holes && !VirtualAlloc(mbi.AllocationBase, next - (uintptr_t)mbi.AllocationBase, MEM_RESERVE,
                                               PAGE_NOACCESS))
                bench_os_die("VirtualAlloc(MEM_RESERVE) of the hole");
        } else if (mbi.State == MEM_RESERVE && !reserve_holes) {
            if (!VirtualFree(mbi.AllocationBase, 0, MEM_RELEASE))
                bench_os_die("VirtualFree(MEM_RELEASE)");
        }
        p = next;
    }
}

/* Reserved address space aligned to align: over-reserve, release, reserve the aligned range
 * inside (a reservation cannot be cut; vmm.c's fallback does the same). */
static void *bench_os_reserve(size_t size, size_t align)
{
    for (int attempt = 0; attempt < 16; ++attempt) {
        char *p = VirtualAlloc(NULL, size + align, MEM_RESERVE, PAGE_NOACCESS);
        if (!p)
            bench_os_die("VirtualAlloc(MEM_RESERVE)");
        uintptr_t start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
        VirtualFree(p, 0, MEM_RELEASE);
        void *q = VirtualAlloc((void *)start, size, MEM_RESERVE, PAGE_NOACCESS);
        if (q)
            return q;
    }
    bench_os_die("VirtualAlloc(MEM_RESERVE) at an aligned address");
    return NULL;
}

static void bench_os_unreserve(void *at, size_t size) { bench_os_clear(at, size, false); }

/* A view of m at `at`, inside one reservation, without access. */
static void bench_os_map_fixed(void *at, size_t size, bench_os_mem m)
{
    MEMORY_BASIC_INFORMATION mbi;
    if (!VirtualQuery(at, &mbi, sizeof(mbi)) || mbi.State != MEM_RESERVE)
        bench_os_die("VirtualQuery of the reservation");
    char *base = mbi.AllocationBase, *a = at, *end = (char *)mbi.BaseAddress + mbi.RegionSize;
    if (!VirtualFree(base, 0, MEM_RELEASE))
        bench_os_die("VirtualFree(MEM_RELEASE)");
    if (MapViewOfFileEx(m, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, size, at) != at)
        bench_os_die("MapViewOfFileEx at a fixed address");
    if ((base < a && !VirtualAlloc(base, (size_t)(a - base), MEM_RESERVE, PAGE_NOACCESS)) ||
        (a + size < end && !VirtualAlloc(a + size, (size_t)(end - a - size), MEM_RESERVE, PAGE_NOACCESS)))
        bench_os_die("VirtualAlloc(MEM_RESERVE) around the view");
    DWORD old;
    if (!VirtualProtect(at, size, PAGE_NOACCESS, &old))
        bench_os_die("VirtualProtect(PAGE_NOACCESS)");
}

static void bench_os_protect_rw(void *at, size_t size)
{
    DWORD old;
    if (!VirtualProtect(at, size, PAGE_READWRITE, &old))
        bench_os_die("VirtualProtect(PAGE_READWRITE)");
}

/* The views in [at, at + size) unmapped, each hole reserved again: the reservation is then in
 * pieces, as extmem's is after a cuMemUnmap, so the next map releases one piece. */
static void bench_os_map_back(void *at, size_t size) { bench_os_clear(at, size, true); }

/* What an export and its close cost at the least: a duplicate of the handle, closed. */
static void bench_os_dup_close(bench_os_mem m)
{
    HANDLE self = GetCurrentProcess(), dup;
    if (!DuplicateHandle(self, m, self, &dup, 0, FALSE, DUPLICATE_SAME_ACCESS))
        bench_os_die("DuplicateHandle");
    CloseHandle(dup);
}

#define BENCH_SET_EXTERNAL_HANDLE(desc, m)                                                                          \
    ((desc)->type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, (desc)->handle.win32.handle = (m))

static void bench_os_host(char *out, size_t size)
{
    char model[128] = "unknown CPU";
    DWORD got = sizeof(model);
    if (RegGetValueA(HKEY_LOCAL_MACHINE, "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", "ProcessorNameString",
                     RRF_RT_REG_SZ, NULL, model, &got) != ERROR_SUCCESS)
        snprintf(model, sizeof(model), "unknown CPU");
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    /* RtlGetVersion tells the truth whatever the manifest; wine_get_version is wine's own. */
    typedef LONG(WINAPI * rtl_get_version_fn)(OSVERSIONINFOW *);
    typedef const char *(CDECL * wine_get_version_fn)(void);
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    rtl_get_version_fn rtl = ntdll ? (rtl_get_version_fn)(void (*)(void))GetProcAddress(ntdll, "RtlGetVersion") : NULL;
    wine_get_version_fn wine =
        ntdll ? (wine_get_version_fn)(void (*)(void))GetProcAddress(ntdll, "wine_get_version") : NULL;
    OSVERSIONINFOW v = {sizeof(v), 0, 0, 0, 0, {0}};
    if (!rtl || rtl(&v) != 0)
        v.dwMajorVersion = v.dwMinorVersion = v.dwBuildNumber = 0;
    char under[64] = "";
    if (wine)
        snprintf(under, sizeof(under), " (wine %s, not Windows)", wine());
    snprintf(out, size, "%s, %lu CPUs, Windows %lu.%lu.%lu%s", model, (unsigned long)si.dwNumberOfProcessors,
             (unsigned long)v.dwMajorVersion, (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber, under);
}

#else
/* ========================================= POSIX ========================================= */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

typedef int bench_os_mem; /* a memfd; also what CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR exports */
#define BENCH_OS_NAME "Linux"
#define BENCH_HANDLE_TYPE CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
#define BENCH_TEXT_OS_CYCLE "OS: memfd+ftruncate+seals+mmap+munmap+close, 2 MiB"
#define BENCH_TEXT_OS_MAP_ACCESS_UNMAP "OS: mmap memfd MAP_FIXED + mprotect + mmap back, %s"
#define BENCH_TEXT_OS_FULL_CYCLE "OS: memfd, reserve, map, mprotect, map back, munmap, close"
#define BENCH_TEXT_OS_BULK "OS: %d x mmap memfd MAP_FIXED (total)"
#define BENCH_TEXT_OS_DUP_CLOSE "OS: fcntl(F_DUPFD_CLOEXEC) + close"
#define BENCH_TEXT_OS_MAP_LIVE "OS: mmap memfd MAP_FIXED, %zu live mapping%s"
#define BENCH_TEXT_OS_MAP_SAME "OS: mmap of a sealed memfd of the size + munmap, %s"

static void bench_os_die(const char *what)
{
    fprintf(stderr, "bench: %s failed: %s\n", what, strerror(errno));
    exit(1);
}

/* Runs fn(arg, i) for i in [0, n) on n threads at once and waits for all: the machine's own
 * multi-threaded memcpy, the physical reference for large copies. */
#include <pthread.h>
struct bench_os_par {
    void (*fn)(void *arg, unsigned int i);
    void *arg;
    unsigned int i;
};
static void *bench_os_par_main(void *p)
{
    struct bench_os_par *t = p;
    t->fn(t->arg, t->i);
    return NULL;
}
static void bench_os_parallel(void (*fn)(void *arg, unsigned int i), void *arg, unsigned int n)
{
    pthread_t h[256];
    struct bench_os_par t[256];
    if (n > 256)
        n = 256;
    for (unsigned int i = 1; i < n; ++i) {
        t[i] = (struct bench_os_par){fn, arg, i};
        if (pthread_create(&h[i], NULL, bench_os_par_main, &t[i]) != 0)
            bench_os_die("pthread_create");
    }
    fn(arg, 0);
    for (unsigned int i = 1; i < n; ++i)
        pthread_join(h[i], NULL);
}
static unsigned int bench_os_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned int)n : 1;
}


/* A sealed memfd of size bytes, as cuMemAlloc and cuMemCreate make (src/posix/memory.c). */
static bench_os_mem bench_os_mem_create(size_t size)
{
    int fd = memfd_create("bench", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
        bench_os_die("memfd_create + ftruncate + F_ADD_SEALS");
    return fd;
}

static void bench_os_mem_close(bench_os_mem m) { close(m); }

/* A shareable handle the import did not take: none, an imported fd is the driver's. */
static void bench_os_imported_close(bench_os_mem m) { (void)m; }

static void *bench_os_map_any(bench_os_mem m, size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
    if (p == MAP_FAILED)
        bench_os_die("mmap(MAP_SHARED)");
    return p;
}

static void bench_os_unmap_any(void *p, size_t size)
{
    if (munmap(p, size) != 0)
        bench_os_die("munmap");
}

#define BENCH_OS_RESERVE_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

/* PROT_NONE address space aligned to align: over-reserve, trim the ends (cuMemAddressReserve). */
static void *bench_os_reserve(size_t size, size_t align)
{
    unsigned char *p = mmap(NULL, size + align, PROT_NONE, BENCH_OS_RESERVE_FLAGS, -1, 0);
    if (p == MAP_FAILED)
        bench_os_die("mmap PROT_NONE");
    uintptr_t start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
    size_t head = start - (uintptr_t)p, tail = align - head;
    if ((head && munmap(p, head) != 0) || (tail && munmap((void *)(start + size), tail) != 0))
        bench_os_die("munmap");
    return (void *)start;
}

static void bench_os_unreserve(void *at, size_t size)
{
    if (munmap(at, size) != 0)
        bench_os_die("munmap");
}

static void bench_os_map_fixed(void *at, size_t size, bench_os_mem m)
{
    if (mmap(at, size, PROT_NONE, MAP_SHARED | MAP_FIXED, m, 0) == MAP_FAILED)
        bench_os_die("mmap MAP_FIXED of a memfd");
}

static void bench_os_protect_rw(void *at, size_t size)
{
    if (mprotect(at, size, PROT_READ | PROT_WRITE) != 0)
        bench_os_die("mprotect");
}

static void bench_os_map_back(void *at, size_t size)
{
    if (mmap(at, size, PROT_NONE, BENCH_OS_RESERVE_FLAGS | MAP_FIXED, -1, 0) == MAP_FAILED)
        bench_os_die("mmap PROT_NONE back");
}

static void bench_os_dup_close(bench_os_mem m)
{
    int fd = fcntl(m, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        bench_os_die("fcntl(F_DUPFD_CLOEXEC)");
    close(fd);
}

#define BENCH_SET_EXTERNAL_HANDLE(desc, m) ((desc)->type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD, (desc)->handle.fd = (m))

static void bench_os_host(char *out, size_t size)
{
    char model[128] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof(line), f)) {
            char *colon = strchr(line, ':');
            if (strncmp(line, "model name", 10) == 0 && colon) {
                snprintf(model, sizeof(model), "%s", colon + 2);
                model[strcspn(model, "\n")] = '\0';
                break;
            }
        }
        fclose(f);
    }
    struct utsname u;
    const char *release = uname(&u) == 0 ? u.release : "?";
    snprintf(out, size, "%s, %ld CPUs, Linux %s", model, sysconf(_SC_NPROCESSORS_ONLN), release);
}
#endif

#endif /* BENCH_OS_H */
