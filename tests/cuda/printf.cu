// Device printf: formats of each argument type, from one thread and in a loop, flushed by
// cudaDeviceSynchronize.
#include "check.h"

__global__ void say(int i, float f, double d, const char *s)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        printf("int %d, hex %x, float %.2f, double %.3f, string %s\n", i, i, f, d, s);
        for (int k = 0; k < 3; ++k)
            printf("line %d of 3\n", k + 1);
        printf("char %c, long %lld, unsigned %u\n", 'x', -1234567890123ll, 4000000000u);
    }
}

int main()
{
    char *s;
    const char text[] = "from the host";
    CHECK(cudaMalloc(&s, sizeof text));
    CHECK(cudaMemcpy(s, text, sizeof text, cudaMemcpyHostToDevice));
    say<<<2, 32>>>(42, 1.25f, 3.14159, s);
    CHECK(cudaDeviceSynchronize());
    std::fflush(stdout);
    std::printf("host: after the kernel\n");
    CHECK(cudaFree(s));
    return 0;
}
