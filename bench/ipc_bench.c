/*
 * extmem-bench-ipc: the cost of CUDA IPC, as BEHAVIOR.md measures it on the real driver:
 * cudaIpcGetMemHandle in the exporter, and cudaIpcOpenMemHandle + cudaIpcCloseMemHandle in a
 * second process (real driver: 67 us for the pair; a later probe saw 60 us). Beside them, the
 * raw OS calls an open is built from (the physical limit): on Linux open(/proc/<pid>/fd/<n>) +
 * fstat + mmap + close + munmap; on Windows (src/win32/process.c, os_ipc_open) OpenFileMappingA
 * of the exporter's named section Local\<name>-<pid>-<token> + MapViewOfFile + UnmapViewOfFile
 * + CloseHandle.
 *
 * The same source builds against NVIDIA's headers and libcudart:
 *   gcc -O2 bench/ipc_bench.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -o ipc-nv
 * (the raw row then opens the exporter's descriptor of an ordinary memfd).
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define SIZE (2u << 20)

static int runs = 41;

/* ---- What is OS-specific: the raw open and close, and starting the second process ----
 * raw_create: the object the raw row opens, in the exporter; its number (an fd, a token) goes
 * to the second process. raw_open_close: one raw open and close of it there, 0 or failure.
 * run_importer: runs this program again as "importer <handle> <pid> <number>", its status. */
#ifdef _WIN32
/* ========== Windows ========== */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

typedef HANDLE raw_object;
#define RAW_TEXT "  raw: OpenFileMappingA+MapViewOfFile+Unmap+CloseHandle"

/* Named as extmem names a section: Local\<name>-<pid>-<token> (src/win32/memory.c). */
static int raw_create(long *number, raw_object *object)
{
    char name[96];
    *number = 1;
    snprintf(name, sizeof(name), "Local\\bench-raw-%lu-%ld", (unsigned long)GetCurrentProcessId(), *number);
    *object = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE | SEC_COMMIT, 0, SIZE, name);
    return *object ? 0 : -1;
}

static void raw_destroy(raw_object object) { CloseHandle(object); }

/* What os_ipc_open does, with the same access, and then what a view of it is. */
static int raw_open_close(int pid, long number)
{
    char name[96];
    snprintf(name, sizeof(name), "Local\\bench-raw-%d-%ld", pid, number);
    HANDLE h = OpenFileMappingA(FILE_MAP_READ | FILE_MAP_WRITE | SECTION_QUERY, FALSE, name);
    void *m = h ? MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, SIZE) : NULL;
    if (m)
        UnmapViewOfFile(m);
    if (h)
        CloseHandle(h);
    return m ? 0 : -1;
}

/* Windows cannot fork: CreateProcess of this program's own file, with its standard handles. */
static int run_importer(const char *argv0, const char *hex, int pid, long number)
{
    (void)argv0;
    char exe[MAX_PATH], line[2 * MAX_PATH + 256];
    DWORD n = GetModuleFileNameA(NULL, exe, sizeof(exe));
    if (n == 0 || n >= sizeof(exe))
        return 1;
    snprintf(line, sizeof(line), "\"%s\" importer %s %d %ld", exe, hex, pid, number);
    STARTUPINFOA si;
    memset(&si, 0, sizeof(si));
    si.cb = sizeof(si);
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
    si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    PROCESS_INFORMATION pi;
    if (!CreateProcessA(exe, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
        fprintf(stderr, "CreateProcess failed: Windows error %lu\n", (unsigned long)GetLastError());
        return 1;
    }
    CloseHandle(pi.hThread);
    DWORD status = 1;
    WaitForSingleObject(pi.hProcess, INFINITE);
    GetExitCodeProcess(pi.hProcess, &status);
    CloseHandle(pi.hProcess);
    return (int)status;
}

static int self_pid(void) { return (int)GetCurrentProcessId(); }
#else
/* ========== POSIX ========== */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int raw_object;
#define RAW_TEXT "  raw: open /proc/pid/fd + fstat + mmap + close + munmap"

/* A memfd of the same size: the descriptor the second process opens. */
static int raw_create(long *number, raw_object *object)
{
    *object = memfd_create("bench-raw", MFD_CLOEXEC);
    *number = *object;
    return *object < 0 || ftruncate(*object, SIZE) != 0 ? -1 : 0;
}

static void raw_destroy(raw_object object) { close(object); }

static int raw_open_close(int pid, long number)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%ld", pid, number);
    int f = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    void *m = f >= 0 && fstat(f, &st) == 0 ? mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0) : MAP_FAILED;
    if (f >= 0)
        close(f);
    if (m == MAP_FAILED)
        return -1;
    munmap(m, SIZE);
    return 0;
}

static int run_importer(const char *argv0, const char *hex, int pid, long number)
{
    char pid_text[16], number_text[24];
    snprintf(pid_text, sizeof(pid_text), "%d", pid);
    snprintf(number_text, sizeof(number_text), "%ld", number);
    pid_t child = fork();
    if (child == 0) {
        execl("/proc/self/exe", argv0, "importer", hex, pid_text, number_text, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int self_pid(void) { return (int)getpid(); }
#endif
/* ---- end of the OS-specific part ---- */

static void hex_to(char *out, const void *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        snprintf(out + 2 * i, 3, "%02x", ((const unsigned char *)p)[i]);
}

static int hex_in(const char *s, void *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        unsigned int b;
        if (sscanf(s + 2 * i, "%2x", &b) != 1)
            return -1;
        ((unsigned char *)p)[i] = (unsigned char)b;
    }
    return 0;
}

static void report(const char *what, double *samples, int n, const char *reference)
{
    bench_stats s = bench_summarise(samples, (size_t)n);
    printf("%-58s %9.2f %9.2f %9.2f   %s\n", what, s.median, s.p10, s.p90, reference);
}

/* The second process: opens and closes the handle `runs` times, and the raw OS path as many. */
static int importer(const char *handle_hex, int pid, long number)
{
    cudaIpcMemHandle_t h;
    if (hex_in(handle_hex, &h, sizeof(h)))
        return 2;
    cudaFree(0); /* the runtime's lazy initialisation, outside the timings */
    double *t = calloc((size_t)runs, sizeof(double));
    for (int i = 0; i < runs; ++i) {
        void *p = NULL;
        double t0 = bench_now_us();
        if (cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess ||
            cudaIpcCloseMemHandle(p) != cudaSuccess) {
            fprintf(stderr, "ipc open/close failed\n");
            return 3;
        }
        t[i] = bench_now_us() - t0;
    }
    report("cudaIpcOpenMemHandle + cudaIpcCloseMemHandle (2nd process)", t, runs, "real driver: 67 (60)");
    for (int i = 0; i < runs; ++i) {
        double t0 = bench_now_us();
        if (raw_open_close(pid, number) != 0)
            return 4;
        t[i] = bench_now_us() - t0;
    }
    report(RAW_TEXT, t, runs, "the physical limit");
    free(t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "importer") == 0)
        return importer(argv[2], atoi(argv[3]), atol(argv[4]));
    if (argc > 1 && strcmp(argv[1], "--quick") == 0)
        runs = 5;

    void *p = NULL;
    if (cudaMalloc(&p, SIZE) != cudaSuccess)
        return 1;
    double *t = calloc((size_t)runs, sizeof(double));
    cudaIpcMemHandle_t h;
    for (int i = 0; i < runs; ++i) {
        double t0 = bench_now_us();
        if (cudaIpcGetMemHandle(&h, p) != cudaSuccess)
            return 1;
        t[i] = bench_now_us() - t0;
    }
    printf("%-58s %9s %9s %9s   %s\n", "sequence (microseconds)", "median", "p10", "p90", "reference");
    report("cudaIpcGetMemHandle, 2 MiB", t, runs, "real driver: 0.09");
    free(t);

    /* The object of the same size that the raw row opens. */
    raw_object raw;
    long number;
    if (raw_create(&number, &raw) != 0)
        return 1;
    char hex[2 * sizeof(h) + 1];
    hex_to(hex, &h, sizeof(h));
    fflush(stdout);
    int status = run_importer(argv[0], hex, self_pid(), number);
    raw_destroy(raw);
    cudaFree(p);
    return status;
}
