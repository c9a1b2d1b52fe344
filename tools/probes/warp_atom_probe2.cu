// Second probe: bf16 NaN results of atom.add.noftz.bf16, f64 add with two NaN operands, and a
// shfl whose source lane is live but on another path of divergent code.
// Build: nvcc -arch=sm_90 -o warp_atom_probe2 warp_atom_probe2.cu
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__global__ void halves(uint16_t *m, const uint16_t *b, unsigned long long *d, const unsigned long long *db, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        unsigned short old, v = b[i];
        asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "l"(m + i), "h"(v) : "memory");
        (void)old;
    }
    if (i < 2) {
        unsigned long long o;
        asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=l"(o) : "l"(d + i), "l"(db[i]) : "memory");
        (void)o;
    }
}

__global__ void divergent(uint32_t *out)
{
    uint32_t lane = threadIdx.x & 31, r = 0xdddddddd, v = lane * 100 + 7;
    asm volatile("" : "+r"(v));
    if (lane < 16) {
        asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffff;" : "=r"(r) : "r"(v), "r"(lane + 16));
    } else {
        v += 1;
        asm volatile("" : "+r"(v));
    }
    out[lane] = r;
}

int main()
{
    const uint16_t m[] = {0x7fc1, 0x3f80, 0x7f80, 0x0001, 0xffc1, 0x7f81};
    const uint16_t b[] = {0x3f80, 0xffc1, 0xff80, 0x0001, 0x7fc2, 0x3f80};
    const int n = 6;
    const unsigned long long dm[] = {0x7ff8000000000001ull, 0xfff0000000000000ull};
    const unsigned long long db[] = {0x7ff8000000000002ull, 0xfff0000000000000ull};
    uint16_t *gm, *gb;
    unsigned long long *gd, *gdb;
    uint32_t *go, o[32];
    cudaMalloc(&gm, 64); cudaMalloc(&gb, 64); cudaMalloc(&gd, 64); cudaMalloc(&gdb, 64); cudaMalloc(&go, 128);
    cudaMemcpy(gm, m, sizeof m, cudaMemcpyHostToDevice);
    cudaMemcpy(gb, b, sizeof b, cudaMemcpyHostToDevice);
    cudaMemcpy(gd, dm, sizeof dm, cudaMemcpyHostToDevice);
    cudaMemcpy(gdb, db, sizeof db, cudaMemcpyHostToDevice);
    halves<<<1, 32>>>(gm, gb, gd, gdb, n);
    printf("halves: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    uint16_t r[8];
    unsigned long long rd[2];
    cudaMemcpy(r, gm, sizeof m, cudaMemcpyDeviceToHost);
    cudaMemcpy(rd, gd, sizeof rd, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
        printf("bf16 mem %04x + %04x: %04x\n", m[i], b[i], r[i]);
    for (int i = 0; i < 2; ++i)
        printf("f64 mem %016llx + %016llx: %016llx\n", dm[i], db[i], rd[i]);
    divergent<<<1, 32>>>(go);
    printf("divergent: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaMemcpy(o, go, sizeof o, cudaMemcpyDeviceToHost);
    printf("shfl from a live lane on another path:");
    for (int l = 0; l < 32; ++l)
        printf(" %x", o[l]);
    printf("\n");
    return 0;
}
