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

KERNEL mma_f16_k8_f32(KPARAMS) {
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
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_f16_k8_f32_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_f16_k8_f16(KPARAMS) {
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
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_f16_k8_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_f16_k16_f32(KPARAMS) {
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
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_f16_k16_f32_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_f16_k16_f16(KPARAMS) {
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
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_f16_k16_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[2];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_bf16_k8(KPARAMS) {
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
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_bf16_k8_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_bf16_k16(KPARAMS) {
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
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_bf16_k16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}
