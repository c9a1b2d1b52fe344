// The sm_89 and sm_90 tensor-core forms (PTX ISA 9.0, "Warp-level matrix multiply-accumulate
// instructions"; issue 25): mma.sync on e4m3/e5m2 (sm_89) and the f64 shapes m16n8k4/k8/k16
// (sm_90), and stmatrix (sm_90). Written by scripts/gen-mma-corpus.py. nvcc compiles this module for
// compute_90 (scripts/kernels-nvcc-ptx.sh); clang's PTX (.target sm_80) cannot carry these
// instructions, so its kernels write zeros.
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

KERNEL stmatrix_x1(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint v[4];
    for (int k = 0; k < 4; ++k) { v[k] = pa[k]; rows[w][lane * 4 + k] = 0xdeadbeefu; }
    __syncwarp(0xffffffffu);
#if NVCC_ONLY
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(addr), "r"(v[0]) : "memory");
#endif
    __syncwarp(0xffffffffu);
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = rows[w][lane * 4 + k];
}

KERNEL stmatrix_x1_trans(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint v[4];
    for (int k = 0; k < 4; ++k) { v[k] = pa[k]; rows[w][lane * 4 + k] = 0xdeadbeefu; }
    __syncwarp(0xffffffffu);
#if NVCC_ONLY
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(addr), "r"(v[0]) : "memory");
#endif
    __syncwarp(0xffffffffu);
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = rows[w][lane * 4 + k];
}

KERNEL stmatrix_x2(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint v[4];
    for (int k = 0; k < 4; ++k) { v[k] = pa[k]; rows[w][lane * 4 + k] = 0xdeadbeefu; }
    __syncwarp(0xffffffffu);
#if NVCC_ONLY
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(addr), "r"(v[0]), "r"(v[1]) : "memory");
#endif
    __syncwarp(0xffffffffu);
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = rows[w][lane * 4 + k];
}

KERNEL stmatrix_x2_trans(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint v[4];
    for (int k = 0; k < 4; ++k) { v[k] = pa[k]; rows[w][lane * 4 + k] = 0xdeadbeefu; }
    __syncwarp(0xffffffffu);
#if NVCC_ONLY
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(addr), "r"(v[0]), "r"(v[1]) : "memory");
#endif
    __syncwarp(0xffffffffu);
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = rows[w][lane * 4 + k];
}

KERNEL stmatrix_x4(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint v[4];
    for (int k = 0; k < 4; ++k) { v[k] = pa[k]; rows[w][lane * 4 + k] = 0xdeadbeefu; }
    __syncwarp(0xffffffffu);
#if NVCC_ONLY
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" :: "r"(addr), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]) : "memory");
#endif
    __syncwarp(0xffffffffu);
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = rows[w][lane * 4 + k];
}

KERNEL stmatrix_x4_trans(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint v[4];
    for (int k = 0; k < 4; ++k) { v[k] = pa[k]; rows[w][lane * 4 + k] = 0xdeadbeefu; }
    __syncwarp(0xffffffffu);
#if NVCC_ONLY
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" :: "r"(addr), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]) : "memory");
#endif
    __syncwarp(0xffffffffu);
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = rows[w][lane * 4 + k];
}
