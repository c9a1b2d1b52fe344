/*
 * printf_fifo_probe.cu - how much of the printf FIFO one printf record takes on the H100, by
 * the shape of its arguments: each case fills a FIFO of a known size from one warp and counts
 * the records that came out (the FIFO keeps the last ones). Also the default FIFO size, the
 * smallest it can be set to, and literal (not '*') huge precisions.
 *   nvcc -arch=sm_90 -o printf_fifo_probe printf_fifo_probe.cu
 *   ./printf_fifo_probe CASE   (cases: sizes, 0..9; 'prec' for the precisions)
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void fill(int which, int per)
{
    for (int i = 0; i < per; ++i) {
        switch (which) {
        case 0: printf("x\n"); break;                                   /* no arguments */
        case 1: printf("%d\n", i); break;                                /* one int */
        case 2: printf("%d %d\n", threadIdx.x, i); break;                /* two ints */
        case 3: printf("%f\n", 1.0 * i); break;                          /* one double */
        case 4: printf("%d %d %d %d %d %d %d %d\n", i, i, i, i, i, i, i, i); break;
        case 5: printf("%f %f %f %f %f %f %f %f\n", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, (double)i); break;
        case 6: printf("%s %d\n", "a string argument of some length, 48 bytes....", i); break;
        case 7: printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n",
                       i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i); break;
        case 8: printf("%lld %lld\n", (long long)i, (long long)i); break;
        case 9: printf("%c%c%c%c\n", 'a', 'b', 'c', 'd'); break;
        }
    }
}

__global__ void prec()
{
    printf("A[%.100f]\n", 1.5);
    printf("B[%.5000f]\n", 1.5);
    printf("C[%.1000000f]\n", 1.5);
    printf("D[%.100000000f]\n", 1.5);
    printf("E[%1000000d]\n", 7);
    printf("F[%.1000000d]\n", 7);
    printf("G[%*.*f]\n", 10, 3, 1.5);
    printf("H[%.3f %.*d]\n", 1.5, 4, 7);
    printf("I[%.2000e]\n", 1.0e300);
    printf("J[%.600s]\n", "abc");
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "sizes";
    size_t got = 0;
    if (!strcmp(what, "sizes")) {
        cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize);
        printf("default %zu\n", got);
        size_t tries[] = {1, 4096, 524287, 524288, 600000, 1 << 20, (size_t)1 << 30, (size_t)1 << 36};
        for (size_t t : tries) {
            cudaError_t e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, t);
            cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize);
            printf("set %zu: %s, reads %zu\n", t, cudaGetErrorName(e), got);
        }
        return 0;
    }
    if (!strcmp(what, "prec")) {
        prec<<<1, 1>>>();
        cudaError_t e = cudaDeviceSynchronize();
        fflush(stdout);
        fprintf(stderr, "prec: %s\n", cudaGetErrorName(e));
        return 0;
    }
    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
    fill<<<1, 32>>>(atoi(what), 4000);
    cudaError_t e = cudaDeviceSynchronize();
    fflush(stdout);
    fprintf(stderr, "case %s: %s\n", what, cudaGetErrorName(e));
    return 0;
}
