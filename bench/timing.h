/*
 * bench/timing.h: a monotonic clock in microseconds and order statistics of a set of runs.
 * Plain C11 and POSIX (clock_gettime), or Windows (QueryPerformanceCounter), so the bench
 * builds the same against extmem and against libcuda, and for Windows with mingw-w64.
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stddef.h>
#include <stdlib.h>

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

static inline double bench_now_us(void)
{
    static LARGE_INTEGER freq; /* fixed at boot; a race to set it writes the same value */
    LARGE_INTEGER now;
    if (!freq.QuadPart)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    /* Whole seconds and the rest apart, so no precision is lost to a large count. */
    long long f = freq.QuadPart, c = now.QuadPart;
    return (double)(c / f) * 1e6 + (double)(c % f) * 1e6 / (double)f;
}
#else
#include <time.h>

static inline double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}
#endif

typedef struct bench_stats {
    size_t runs;
    double median, p10, p90; /* microseconds */
} bench_stats;

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted values: the smallest value with at least percent% of the
 * runs at or below it. For an odd count the 50th is the middle run. */
static inline double bench_percentile(const double *sorted, size_t n, unsigned int percent)
{
    size_t rank = (percent * n + 99) / 100;
    return sorted[rank ? rank - 1 : 0];
}

/* Sorts the n samples (microseconds) in place and summarises them. */
static inline bench_stats bench_summarise(double *samples, size_t n)
{
    bench_stats s = {n, 0, 0, 0};
    if (n == 0)
        return s;
    qsort(samples, n, sizeof(*samples), bench_cmp_double);
    s.median = bench_percentile(samples, n, 50);
    s.p10 = bench_percentile(samples, n, 10);
    s.p90 = bench_percentile(samples, n, 90);
    return s;
}

#endif /* BENCH_TIMING_H */
