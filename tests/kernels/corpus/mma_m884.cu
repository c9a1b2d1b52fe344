// f16 mma.m8n8k4 (PTX ISA 9.0, "Warp-level matrix multiply-accumulate instructions": sm_70's form,
// in which each quad pair of lanes computes its own 8x8x4 product; issue 25). Written by
// scripts/gen-mma-corpus.py. Each thread reads its fragment registers of A, B and C from the
// inputs, runs one mma.sync and writes its D registers. The _tame kernels clear the top exponent
// bit of every input (magnitudes below 2) so that the sums show their rounding.
#include "corpus.h"

KERNEL mma_m884_row_col_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_m884_row_col_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_m884_col_row_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_m884_col_row_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_m884_row_row_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_m884_row_row_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_m884_col_col_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_m884_col_col_f16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xbfffbfffu;
    uint d[4];
    asm volatile("mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = d[k];
}

KERNEL mma_m884_row_col_f32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 8;
    float c[8];
    for (int k = 0; k < 8; ++k) c[k] = __int_as_float((int)(pc[k] & 0xffffffffu));
    float d[8];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "f"(c[4]), "f"(c[5]), "f"(c[6]), "f"(c[7]));
    uint *o = (uint *)out_ + (long long)i * 8;
    for (int k = 0; k < 8; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_m884_row_col_f32_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 8;
    float c[8];
    for (int k = 0; k < 8; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[8];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "f"(c[4]), "f"(c[5]), "f"(c[6]), "f"(c[7]));
    uint *o = (uint *)out_ + (long long)i * 8;
    for (int k = 0; k < 8; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_m884_col_row_f32(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 8;
    float c[8];
    for (int k = 0; k < 8; ++k) c[k] = __int_as_float((int)(pc[k] & 0xffffffffu));
    float d[8];
    asm volatile("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "f"(c[4]), "f"(c[5]), "f"(c[6]), "f"(c[7]));
    uint *o = (uint *)out_ + (long long)i * 8;
    for (int k = 0; k < 8; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_m884_col_row_f32_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 8;
    float c[8];
    for (int k = 0; k < 8; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));
    float d[8];
    asm volatile("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "f"(c[4]), "f"(c[5]), "f"(c[6]), "f"(c[7]));
    uint *o = (uint *)out_ + (long long)i * 8;
    for (int k = 0; k < 8; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_m884_f32_f16c(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xffffffffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xffffffffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xffffffffu;
    float d[8];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 8;
    for (int k = 0; k < 8; ++k) o[k] = (uint)__float_as_int(d[k]);
}

KERNEL mma_m884_f32_f16c_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const uint *pa = (const uint *)a_ + (long long)i * 2;
    uint a[2];
    for (int k = 0; k < 2; ++k) a[k] = pa[k] & 0xbfffbfffu;
    const uint *pb = (const uint *)b_ + (long long)i * 2;
    uint b[2];
    for (int k = 0; k < 2; ++k) b[k] = pb[k] & 0xbfffbfffu;
    const uint *pc = (const uint *)c_ + (long long)i * 4;
    uint c[4];
    for (int k = 0; k < 4; ++k) c[k] = pc[k] & 0xbfffbfffu;
    float d[8];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    uint *o = (uint *)out_ + (long long)i * 8;
    for (int k = 0; k < 8; ++k) o[k] = (uint)__float_as_int(d[k]);
}
