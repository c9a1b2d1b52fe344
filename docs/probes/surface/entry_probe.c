/*
 * entry_probe.c - what NVIDIA's cuGetProcAddress answers for every function libcuda.so exports.
 *
 * Reads exported symbol names (one per line, from nm -D) on stdin, strips the variant suffixes
 * (_ptds, _ptsz, _vN) to base names, and asks cuGetProcAddress_v2 for each base name at every
 * CUDA version 2.0..13.9, with the default and the per-thread flag. Prints one line each time
 * the answer changes: "E <base> <version> <flag> <symbol the pointer is>" (dladdr), so the
 * output is the table of which variant each version gets. Then the driver's answers for
 * names and versions it does not have.
 * Built against NVIDIA's cuda.h: gcc -std=gnu11 entry_probe.c -I/usr/local/cuda/include -lcuda -ldl
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

static void strip(char *s)
{
    for (;;) {
        size_t n = strlen(s);
        if (n > 5 && (!strcmp(s + n - 5, "_ptds") || !strcmp(s + n - 5, "_ptsz"))) {
            s[n - 5] = 0;
            continue;
        }
        char *u = strrchr(s, '_');
        if (u && u[1] == 'v' && u[2] >= '0' && u[2] <= '9' && strspn(u + 2, "0123456789") == strlen(u + 2)) {
            *u = 0;
            continue;
        }
        return;
    }
}

static const char *symname(void *p, char *buf, size_t n)
{
    Dl_info di;
    if (!p)
        return "NULL";
    if (!dladdr(p, &di) || !di.dli_sname)
        return "?";
    snprintf(buf, n, "%s%s", di.dli_sname, di.dli_saddr == p ? "" : "+off");
    return buf;
}

static void one(const char *sym, int ver, cuuint64_t flags)
{
    fflush(stdout);
    pid_t pid = fork(); /* a call may crash the driver: each in a child of its own */
    if (pid) {
        int st = 0;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st))
            printf("Q %s ver=%d flags=%llu -> crashed (signal %d)\n", sym ? sym : "(null)", ver,
                   (unsigned long long)flags, WTERMSIG(st));
        return;
    }
    void *p = (void *)1;
    CUdriverProcAddressQueryResult st = 77;
    CUresult r = cuGetProcAddress(sym, &p, ver, flags, &st);
    char b[256];
    printf("Q %s ver=%d flags=%llu -> %s status=%d p=%s\n", sym ? sym : "(null)", ver, (unsigned long long)flags,
           rn(r), (int)st, p == (void *)1 ? "untouched" : symname(p, b, sizeof b));
    fflush(stdout);
    _exit(0);
}

int main(void)
{
    cuInit(0);
    static char names[4096][128];
    int n = 0;
    char line[256];
    while (n < 4096 && fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n@ ")] = 0;
        if (strncmp(line, "cu", 2))
            continue;
        strip(line);
        int dup = 0;
        for (int i = 0; i < n && !dup; ++i)
            dup = !strcmp(names[i], line);
        if (!dup)
            snprintf(names[n++], 128, "%s", line);
    }
    for (int i = 0; i < n; ++i) {
        for (int f = 0; f < 2; ++f) {
            cuuint64_t flags = f ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : CU_GET_PROC_ADDRESS_DEFAULT;
            char last[256] = "";
            for (int major = 2; major <= 13; ++major)
                for (int minor = 0; minor <= 9; ++minor) {
                    int ver = major * 1000 + minor * 10;
                    void *p = NULL;
                    CUdriverProcAddressQueryResult st = 0;
                    CUresult r = cuGetProcAddress(names[i], &p, ver, flags, &st);
                    char b[256], now[256];
                    snprintf(now, sizeof now, "%s %s st=%d", r ? rn(r) : "", symname(p, b, sizeof b), (int)st);
                    if (strcmp(now, last)) {
                        printf("E %s %d %s %s\n", names[i], ver, f ? "ptds" : "default", now);
                        snprintf(last, sizeof last, "%s", now);
                    }
                }
        }
    }
    /* The answers for what the driver does not have. */
    one("cuNoSuchFunction", 13000, 0);
    one("cuMemAlloc_v2", 13000, 0); /* a versioned name */
    one("cuMemCreate", 10000, 0);   /* too old a version */
    one("cuMemAlloc", 99999, 0);    /* newer than the driver */
    one("cuMemAlloc", -1, 0);
    one("cuMemAlloc", 0, 0);
    one("cuMemAlloc", 13000, 4);    /* unknown flag */
    one(NULL, 13000, 0);
    {
        void *p = (void *)1;
        CUresult r = cuGetProcAddress("cuMemAlloc", NULL, 13000, 0, NULL);
        printf("Q pfn NULL -> %s\n", rn(r));
        r = cuGetProcAddress("cuMemAlloc", &p, 13000, 0, NULL);
        printf("Q status NULL -> %s p=%s\n", rn(r), p ? "set" : "NULL");
        r = cuGetProcAddress("cuNoSuchFunction", &p, 13000, 0, NULL);
        printf("Q nonexistent, status NULL -> %s p=%s\n", rn(r), p == (void *)1 ? "untouched" : p ? "set" : "NULL");
    }
    /* The CUDA 11.3 form (no status), reached through dlsym as old binaries do. */
    {
        CUresult (*v1)(const char *, void **, int, cuuint64_t) =
            (CUresult(*)(const char *, void **, int, cuuint64_t))dlsym(RTLD_DEFAULT, "cuGetProcAddress");
        void *p = (void *)1;
        if (v1) {
            printf("Q v1 nonexistent -> %s p=%s\n", rn(v1("cuNoSuchFunction", &p, 13000, 0)),
                   p == (void *)1 ? "untouched" : p ? "set" : "NULL");
            p = (void *)1;
            printf("Q v1 too old -> %s p=%s\n", rn(v1("cuMemCreate", &p, 10000, 0)),
                   p == (void *)1 ? "untouched" : p ? "set" : "NULL");
        }
    }
    return 0;
}
