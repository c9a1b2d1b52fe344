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
