// Sparse mma (mma.sp, sm_80) (PTX ISA 9.0, "Warp-level matrix multiply-accumulate
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

static __device__ __noinline__ uint sp_meta(uint w)
{
    const uint pairs[6] = {0x4u, 0x8u, 0xcu, 0x9u, 0xdu, 0xeu}; /* (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) */
    uint e = 0;
    for (int j = 0; j < 8; ++j) e |= pairs[((w >> (4 * j)) & 0xfu) % 6u] << (4 * j);
    return e;
}

KERNEL mma_sp_f16_k16_f32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 3, *pb = (const uint *)b_ + (long long)i * 2, *pc = (const uint *)c_ + (long long)i * 4;
    uint a[2], b[2], e = sp_meta(pa[2]);
    for (int k = 0; k < 2; ++k) a[k] = pa[k];
    for (int k = 0; k < 2; ++k) b[k] = pb[k];
    float c[4]; for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 0;"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_sp_f16_k16_f32_sel1(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 3, *pb = (const uint *)b_ + (long long)i * 2, *pc = (const uint *)c_ + (long long)i * 4;
    uint a[2], b[2], e = sp_meta(pa[2]);
    for (int k = 0; k < 2; ++k) a[k] = pa[k];
    for (int k = 0; k < 2; ++k) b[k] = pb[k];
    float c[4]; for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 1;"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_sp_f16_k32_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 5, *pb = (const uint *)b_ + (long long)i * 4, *pc = (const uint *)c_ + (long long)i * 2;
    uint a[4], b[4], e = sp_meta(pa[4]);
    for (int k = 0; k < 4; ++k) a[k] = pa[k];
    for (int k = 0; k < 4; ++k) b[k] = pb[k];
    uint c[2]; for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, {%10, %11}, %12, 0;"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(e));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_sp_f16_k16_f32_sel2(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 3, *pb = (const uint *)b_ + (long long)i * 2, *pc = (const uint *)c_ + (long long)i * 4;
    uint a[2], b[2], e = sp_meta(pa[2]);
    for (int k = 0; k < 2; ++k) a[k] = pa[k];
    for (int k = 0; k < 2; ++k) b[k] = pb[k];
    float c[4]; for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 2;"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_sp_f16_k16_f32_sel3(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 3, *pb = (const uint *)b_ + (long long)i * 2, *pc = (const uint *)c_ + (long long)i * 4;
    uint a[2], b[2], e = sp_meta(pa[2]);
    for (int k = 0; k < 2; ++k) a[k] = pa[k];
    for (int k = 0; k < 2; ++k) b[k] = pb[k];
    float c[4]; for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11}, %12, 3;"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_sp_f16_k32_f16_sel1(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 5, *pb = (const uint *)b_ + (long long)i * 4, *pc = (const uint *)c_ + (long long)i * 2;
    uint a[4], b[4], e = sp_meta(pa[4]);
    for (int k = 0; k < 4; ++k) a[k] = pa[k];
    for (int k = 0; k < 4; ++k) b[k] = pb[k];
    uint c[2]; for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, {%10, %11}, %12, 1;"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(e));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_sp_bf16_k32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 5, *pb = (const uint *)b_ + (long long)i * 4, *pc = (const uint *)c_ + (long long)i * 4;
    uint a[4], b[4], e = sp_meta(pa[4]);
    for (int k = 0; k < 4; ++k) a[k] = pa[k];
    for (int k = 0; k < 4; ++k) b[k] = pb[k];
    float c[4]; for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 0;"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}
