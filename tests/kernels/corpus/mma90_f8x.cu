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

KERNEL mma_e4m3_k32_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e4m3_k32_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e5m2_k32_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e5m2_k32_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e4m3e5m2_k32_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e4m3e5m2_k32_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e5m2e4m3_k32_f32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xffffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_e5m2e4m3_k32_f32_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_e4m3_k16_f32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xffffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_e4m3_k16_f32_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_e5m2_k16_f32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xffffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e5m2.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_e5m2_k16_f32_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e5m2.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_e5m2e4m3_k16_f32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xffffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_e5m2e4m3_k16_f32_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_e4m3_k16_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e4m3.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e4m3_k16_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e4m3.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e5m2_k16_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e5m2.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_e5m2_k16_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e5m2.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
#else
    for (int k = 0; k < 2; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}
