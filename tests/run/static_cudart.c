/*
 * static_cudart: a program linked with NVIDIA's static CUDA runtime (libcudart_static.a), as
 * nvcc links by default. extmem-run must refuse it, saying what to rebuild. The runtime's
 * declaration is written here, so that the program needs the archive alone, not the headers.
 */
#include <stdio.h>

int cudaGetDeviceCount(int *count);

int main(void)
{
    int count = -1;
    const int e = cudaGetDeviceCount(&count);
    printf("cudaGetDeviceCount: error %d, %d devices\n", e, count);
    return e != 0;
}
