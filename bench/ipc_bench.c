/*
 * extmem-bench-ipc: the cost of CUDA IPC, as BEHAVIOR.md measures it on the real driver:
 * cudaIpcGetMemHandle in the exporter, and cudaIpcOpenMemHandle + cudaIpcCloseMemHandle in a
 * second process (real driver: 67 us for the pair; a later probe saw 60 us). Beside them, the
 * raw OS calls an open is built from on Linux: open(/proc/<pid>/fd/<n>) + fstat + mmap + close
 * + munmap (the physical limit).
 *
 * The same source builds against NVIDIA's headers and libcudart:
 *   gcc -O2 bench/ipc_bench.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -o ipc-nv
 * (the raw row then opens the exporter's descriptor of an ordinary memfd).
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timing.h"

#define SIZE (2u << 20)

static int runs = 41;

static void hex_out(FILE *f, const void *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        fprintf(f, "%02x", ((const unsigned char *)p)[i]);
    fputc('\n', f);
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
static int importer(const char *handle_hex, int pid, int fd)
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
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
    for (int i = 0; i < runs; ++i) {
        double t0 = bench_now_us();
        int f = open(path, O_RDWR | O_CLOEXEC);
        struct stat st;
        void *m = f >= 0 && fstat(f, &st) == 0 ? mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0) : MAP_FAILED;
        if (f >= 0)
            close(f);
        if (m == MAP_FAILED)
            return 4;
        munmap(m, SIZE);
        t[i] = bench_now_us() - t0;
    }
    report("  raw: open /proc/pid/fd + fstat + mmap + close + munmap", t, runs, "the physical limit");
    free(t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "importer") == 0)
        return importer(argv[2], atoi(argv[3]), atoi(argv[4]));
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

    /* A memfd of the same size for the raw row: the descriptor the second process opens. */
    int raw = memfd_create("bench-raw", MFD_CLOEXEC);
    if (raw < 0 || ftruncate(raw, SIZE) != 0)
        return 1;
    char hex[2 * sizeof(h) + 2], pid[16], fd[16];
    FILE *mem = fmemopen(hex, sizeof(hex), "w");
    hex_out(mem, &h, sizeof(h));
    fclose(mem);
    hex[2 * sizeof(h)] = '\0';
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    snprintf(fd, sizeof(fd), "%d", raw);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        execl("/proc/self/exe", argv[0], "importer", hex, pid, fd, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    close(raw);
    cudaFree(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
