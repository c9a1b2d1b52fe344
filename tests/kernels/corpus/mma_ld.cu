// Tensor-core instructions in software (PTX ISA 9.0, "Warp-level matrix multiply-accumulate
// instructions"; issue 25): one kernel per mma.sync form, ldmatrix and movmatrix. Written by
// scripts/gen-mma-corpus.py (edit that, not this). Each thread reads its fragment registers of A, B
// and C from the inputs a, b, c, runs one instruction and writes its D registers: the H100's D
// for the same registers is the expected result. The _tame kernels clear the top exponent bit of
// every floating-point input (magnitudes below 2, no infinities or NaNs) so that the sums are finite
// and show how the tensor cores align, add and round.
#include "corpus.h"

#if defined(__NVCC__)
#define NVCC_ONLY 1
#else
#define NVCC_ONLY 0
#endif

static __device__ __forceinline__ uint smem_addr(const void *p) {
    ull g = (ull)p, s;
    asm("cvta.to.shared.u64 %0, %1;" : "=l"(s) : "l"(g));
    return (uint)s;
}

KERNEL ldmatrix_x1(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) rows[w][lane * 4 + k] = pa[k];
    __syncwarp(0xffffffffu);
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    uint d[1];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(d[0]) : "r"(addr) : "memory");
    uint *o = (uint *)out_ + (long long)i * 1;
    for (int k = 0; k < 1; ++k) o[k] = d[k];
}

KERNEL ldmatrix_x1_trans(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) rows[w][lane * 4 + k] = pa[k];
    __syncwarp(0xffffffffu);
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    uint d[1];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(d[0]) : "r"(addr) : "memory");
    uint *o = (uint *)out_ + (long long)i * 1;
    for (int k = 0; k < 1; ++k) o[k] = d[k];
}

KERNEL ldmatrix_x2(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) rows[w][lane * 4 + k] = pa[k];
    __syncwarp(0xffffffffu);
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    uint d[2];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(d[0]), "=r"(d[1]) : "r"(addr) : "memory");
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL ldmatrix_x2_trans(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) rows[w][lane * 4 + k] = pa[k];
    __syncwarp(0xffffffffu);
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    uint d[2];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(d[0]), "=r"(d[1]) : "r"(addr) : "memory");
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL ldmatrix_x4(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) rows[w][lane * 4 + k] = pa[k];
    __syncwarp(0xffffffffu);
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    uint d[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(addr) : "memory");
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL ldmatrix_x4_trans(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) rows[w][lane * 4 + k] = pa[k];
    __syncwarp(0xffffffffu);
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    uint d[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(addr) : "memory");
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

// movmatrix is PTX ISA 7.8: nvcc's PTX only (clang's writes 0).
KERNEL movmatrix_trans(KPARAMS) {
    int i = GID;
    uint a = ((const uint *)a_)[i], d;
#if NVCC_ONLY
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
#else
    d = 0;
#endif
    ((uint *)out_)[i] = d;
}
