/*
 * printf_probe.cu - what the H100 does with device printf when the FIFO
 * (cudaLimitPrintfFifoSize) overflows, and with huge precisions and widths.
 *   nvcc -arch=sm_90 -o printf_probe printf_probe.cu
 *   ./printf_probe fifo > fifo.txt; ./printf_probe prec > prec.txt
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void lines(int per_thread)
{
    for (int i = 0; i < per_thread; ++i)
        printf("t%02d i%05d abcdefgh\n", threadIdx.x, i);
}

__global__ void precision(int p)
{
    printf("A[%.*f]\n", p, 1.5);
    printf("B[%*d]\n", p, 7);
    printf("C[%.*e]\n", p, 1.0e300);
    printf("D[%.*s]\n", p, "abc");
    printf("E[%.*g]\n", p, 1.0 / 3.0);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "fifo";
    if (!strcmp(what, "fifo")) {
        size_t want = argc > 2 ? strtoull(argv[2], 0, 0) : 65536;
        int per = argc > 3 ? atoi(argv[3]) : 1000;
        cudaError_t e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, want);
        size_t got = 0;
        cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize);
        fprintf(stderr, "set %zu: %s, limit now %zu\n", want, cudaGetErrorName(e), got);
        lines<<<1, 32>>>(per);
        e = cudaDeviceSynchronize();
        fprintf(stderr, "launch 1: %s\n", cudaGetErrorName(e));
        fflush(stdout);
        printf("--- between launches\n");
        fflush(stdout);
        lines<<<1, 2>>>(3);
        e = cudaDeviceSynchronize();
        fprintf(stderr, "launch 2: %s\n", cudaGetErrorName(e));
    } else {
        int p = argc > 2 ? atoi(argv[2]) : 100000;
        precision<<<1, 1>>>(p);
        cudaError_t e = cudaDeviceSynchronize();
        fflush(stdout);
        fprintf(stderr, "precision %d: %s\n", p, cudaGetErrorName(e));
    }
    return 0;
}
