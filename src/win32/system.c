/* System facts on Windows: clocks, CPUs, memory, randomness, the environment, limits. */
#include "os.h"
#include "win32.h"

#include <bcrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t os_time_ns(void)
{
    static LARGE_INTEGER freq;
    if (!freq.QuadPart)
        QueryPerformanceFrequency(&freq); /* never fails since Windows XP */
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    uint64_t c = (uint64_t)now.QuadPart, f = (uint64_t)freq.QuadPart;
    /* Split so that the multiplication cannot overflow. */
    return c / f * 1000000000u + c % f * 1000000000u / f;
}

uint64_t os_wall_time_ns(void)
{
    FILETIME ft;
    GetSystemTimePreciseAsFileTime(&ft); /* 100 ns units since 1601-01-01 */
    uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    return (t - 116444736000000000ull) * 100u;
}

unsigned int os_cpu_count(void)
{
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n ? (unsigned int)n : 1u;
}

static bool memory_status(MEMORYSTATUSEX *ms)
{
    /* One call at a time: wine 8 caches the answer for a second without a lock, and a thread
     * that comes in while the first call fills the cache gets zeros (and TRUE). */
    static SRWLOCK lock = SRWLOCK_INIT;
    ms->dwLength = sizeof(*ms);
    AcquireSRWLockExclusive(&lock);
    bool ok = GlobalMemoryStatusEx(ms) && ms->ullTotalPhys != 0;
    ReleaseSRWLockExclusive(&lock);
    return ok;
}

uint64_t os_memory_total(void)
{
    MEMORYSTATUSEX ms;
    return memory_status(&ms) ? ms.ullTotalPhys : 0;
}

uint64_t os_memory_available(void)
{
    MEMORYSTATUSEX ms;
    return memory_status(&ms) ? ms.ullAvailPhys : 0;
}

/* Windows' available figure (free, zeroed and standby pages) is already the cheap one: there
 * is no separate "free without cache" number to fall back on. */
uint64_t os_memory_free(void) { return os_memory_available(); }

int os_random_bytes(void *buf, size_t size)
{
    unsigned char *p = buf;
    while (size) {
        ULONG n = size > 0x40000000u ? 0x40000000u : (ULONG)size;
        NTSTATUS st = BCryptGenRandom(NULL, p, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG);
        if (st < 0)
            return ERROR_GEN_FAILURE;
        p += n;
        size -= n;
    }
    return 0;
}

/* The process environment (GetEnvironmentVariable), not the C runtime's copy of it, so that
 * SetEnvironmentVariable and _putenv both reach extmem. The text lives in a per-thread buffer
 * until this thread's next call, which is how the core uses it (read, parse, forget). */
const char *os_getenv(const char *name)
{
    static OS_THREAD_LOCAL char value[1024];
    DWORD n = GetEnvironmentVariableA(name, value, sizeof(value));
    if (n == 0 || n >= sizeof(value))
        return n == 0 && GetLastError() != ERROR_ENVVAR_NOT_FOUND ? "" : NULL;
    return value;
}

int os_process_id(void) { return (int)GetCurrentProcessId(); }

bool os_library_loaded(const char *name) { return GetModuleHandleA(name) != NULL; }

/* A Windows process may hold about 16 million handles: there is no soft limit to raise. */
void os_raise_handle_limit(void) {}

#define CPU_KEY "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0"

unsigned int os_cpu_clock_khz(void)
{
    /* The nominal clock, as Windows measured it at boot (wine fills it from /proc/cpuinfo). */
    DWORD mhz = 0, size = sizeof(mhz);
    if (RegGetValueA(HKEY_LOCAL_MACHINE, CPU_KEY, "~MHz", RRF_RT_REG_DWORD, NULL, &mhz, &size) != ERROR_SUCCESS)
        return 0;
    return (unsigned int)mhz * 1000u;
}

size_t os_l2_cache_size(void)
{
    DWORD bytes = 0;
    GetLogicalProcessorInformation(NULL, &bytes);
    if (GetLastError() != ERROR_INSUFFICIENT_BUFFER || bytes == 0)
        return 0;
    SYSTEM_LOGICAL_PROCESSOR_INFORMATION *info = malloc(bytes);
    size_t l2 = 0;
    if (info && GetLogicalProcessorInformation(info, &bytes)) {
        for (size_t i = 0; i < bytes / sizeof(*info); ++i)
            if (info[i].Relationship == RelationCache && info[i].Cache.Level == 2 &&
                (info[i].Cache.Type == CacheUnified || info[i].Cache.Type == CacheData)) {
                l2 = info[i].Cache.Size; /* one core's (or one cluster's) L2, as Linux reports */
                break;
            }
    }
    free(info);
    return l2;
}

const char *os_cpu_model(void)
{
    static char model[128];
    if (model[0])
        return model;
    DWORD size = sizeof(model);
    if (RegGetValueA(HKEY_LOCAL_MACHINE, CPU_KEY, "ProcessorNameString", RRF_RT_REG_SZ, NULL, model, &size) !=
            ERROR_SUCCESS ||
        !model[0])
        snprintf(model, sizeof(model), "unknown CPU");
    /* Some firmware pads the name with leading spaces. */
    size_t lead = strspn(model, " ");
    if (lead)
        memmove(model, model + lead, strlen(model + lead) + 1);
    return model;
}
