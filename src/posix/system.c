/* System facts on Linux: clocks, CPUs, memory, randomness, limits. */
#include "os.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

uint64_t os_time_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t os_wall_time_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

unsigned int os_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned int)n : 1u;
}

uint64_t os_memory_total(void)
{
    struct sysinfo si;
    if (sysinfo(&si) != 0)
        return 0;
    return (uint64_t)si.totalram * si.mem_unit;
}

uint64_t os_memory_available(void)
{
    /* MemAvailable counts reclaimable cache too, which is what an allocation can get. */
    FILE *f = fopen("/proc/meminfo", "re");
    unsigned long long kib = 0;
    if (f) {
        char line[128];
        while (fgets(line, sizeof(line), f))
            if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
                break;
        fclose(f);
    }
    if (kib)
        return (uint64_t)kib * 1024u;
    struct sysinfo si;
    return sysinfo(&si) == 0 ? (uint64_t)si.freeram * si.mem_unit : 0;
}

uint64_t os_memory_free(void)
{
    struct sysinfo si;
    return sysinfo(&si) == 0 ? (uint64_t)si.freeram * si.mem_unit : 0;
}

int os_random_bytes(void *buf, size_t size)
{
    unsigned char *p = buf;
    while (size) {
        ssize_t n = getrandom(p, size, 0);
        if (n < 0 && errno == EINTR) /* a signal while the pool was still being seeded */
            continue;
        if (n < 0)
            return errno;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/* secure_getenv: in a set-uid, set-gid or capability-raised process (AT_SECURE) every variable
 * reads as unset, so no caller can point extmem at their compiler, cache or log settings
 * there (glibc's rule for its own variables). */
const char *os_getenv(const char *name) { return secure_getenv(name); }

int os_process_id(void) { return (int)getpid(); }

bool os_library_loaded(const char *name)
{
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (lib)
        dlclose(lib);
    return lib != NULL;
}

void os_raise_handle_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

unsigned int os_cpu_clock_khz(void)
{
    unsigned int khz = 0;
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "re");
    if (f) {
        if (fscanf(f, "%u", &khz) != 1)
            khz = 0;
        fclose(f);
    }
    if (khz)
        return khz;
    f = fopen("/proc/cpuinfo", "re");
    if (!f)
        return 0;
    char line[256];
    double mhz = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
            break;
    fclose(f);
    return (unsigned int)(mhz * 1000.0);
}

size_t os_l2_cache_size(void)
{
    long n = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return n > 0 ? (size_t)n : 0;
}

const char *os_cpu_model(void)
{
    static char model[128];
    if (model[0])
        return model;
    FILE *f = fopen("/proc/cpuinfo", "re");
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
    if (!model[0])
        snprintf(model, sizeof(model), "unknown CPU");
    return model;
}
