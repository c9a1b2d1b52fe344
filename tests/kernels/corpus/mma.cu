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

KERNEL mma_tf32_k4(KPARAMS) {
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
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_tf32_k4_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xbfffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_tf32_k8(KPARAMS) {
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
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_tf32_k8_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xbfffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[4];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_f64_k4(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const ull *pa = (const ull *)a_ + (long long)i * 1;
    double a[1];
    for (int k = 0; k < 1; ++k) { ull v = pa[k] & 0xffffffffu; a[k] = __longlong_as_double((long long)v); }
    const ull *pb = (const ull *)b_ + (long long)i * 1;
    double b[1];
    for (int k = 0; k < 1; ++k) { ull v = pb[k] & 0xffffffffu; b[k] = __longlong_as_double((long long)v); }
    const ull *pc = (const ull *)c_ + (long long)i * 2;
    double c[2];
    for (int k = 0; k < 2; ++k) { ull v = pc[k] & 0xffffffffu; c[k] = __longlong_as_double((long long)v); }
    double d[2];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=d"(d[0]), "=d"(d[1])
                 : "d"(a[0]), "d"(b[0]), "d"(c[0]), "d"(c[1]));
    ull *o = (ull *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = (ull)__double_as_longlong(d[k]);
}

KERNEL mma_f64_k4_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const ull *pa = (const ull *)a_ + (long long)i * 1;
    double a[1];
    for (int k = 0; k < 1; ++k) { ull v = pa[k] & 0xbfffffffffffffffull; a[k] = __longlong_as_double((long long)v); }
    const ull *pb = (const ull *)b_ + (long long)i * 1;
    double b[1];
    for (int k = 0; k < 1; ++k) { ull v = pb[k] & 0xbfffffffffffffffull; b[k] = __longlong_as_double((long long)v); }
    const ull *pc = (const ull *)c_ + (long long)i * 2;
    double c[2];
    for (int k = 0; k < 2; ++k) { ull v = pc[k] & 0xbfffffffffffffffull; c[k] = __longlong_as_double((long long)v); }
    double d[2];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=d"(d[0]), "=d"(d[1])
                 : "d"(a[0]), "d"(b[0]), "d"(c[0]), "d"(c[1]));
    ull *o = (ull *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = (ull)__double_as_longlong(d[k]);
}

KERNEL mma_s8_m8n8k16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 1;
    uint a[1];
    for (int k = 0; k < 1; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_u8s8_m8n8k16_sat(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 1;
    uint a[1];
    for (int k = 0; k < 1; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
    asm volatile("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_s8_k16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_s8u8_k16_sat(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.u8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_u8_k32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_s8_k32_sat(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_s4_m8n8k32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 1;
    uint a[1];
    for (int k = 0; k < 1; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_u4s4_m8n8k32_sat(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 1;
    uint a[1];
    for (int k = 0; k < 1; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
    asm volatile("mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.s4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_u4_k32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_s4_k64_sat(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_b1_m8n8k128(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 1;
    uint a[1];
    for (int k = 0; k < 1; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 2;
    uint c[2];
    for (int k = 0; k < 2; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[2];
    asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
    uint *o = (uint *)out_ + (long long)i * 2;
    for (int k = 0; k < 2; ++k) o[k] = d[k];
}

KERNEL mma_b1_k128(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 1;
    uint b[1];
    for (int k = 0; k < 1; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_b1_k256(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_b1_k256_and(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint a[4];
    for (int k = 0; k < 4; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

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
