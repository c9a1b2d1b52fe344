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

KERNEL mma_f64_m16n8k4(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const ull *pa = (const ull *)a_ + (long long)i * 2;
    double a[2];
    for (int k = 0; k < 2; ++k) { ull v = pa[k] & 0xffffffffu; a[k] = __longlong_as_double((long long)v); }
    const ull *pb = (const ull *)b_ + (long long)i * 1;
    double b[1];
    for (int k = 0; k < 1; ++k) { ull v = pb[k] & 0xffffffffu; b[k] = __longlong_as_double((long long)v); }
    const ull *pc = (const ull *)c_ + (long long)i * 4;
    double c[4];
    for (int k = 0; k < 4; ++k) { ull v = pc[k] & 0xffffffffu; c[k] = __longlong_as_double((long long)v); }
    double d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    ull *o = (ull *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (ull)__double_as_longlong(d[k]);
}

KERNEL mma_f64_m16n8k4_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const ull *pa = (const ull *)a_ + (long long)i * 2;
    double a[2];
    for (int k = 0; k < 2; ++k) { ull v = pa[k] & 0xbfffffffffffffffull; a[k] = __longlong_as_double((long long)v); }
    const ull *pb = (const ull *)b_ + (long long)i * 1;
    double b[1];
    for (int k = 0; k < 1; ++k) { ull v = pb[k] & 0xbfffffffffffffffull; b[k] = __longlong_as_double((long long)v); }
    const ull *pc = (const ull *)c_ + (long long)i * 4;
    double c[4];
    for (int k = 0; k < 4; ++k) { ull v = pc[k] & 0xbfffffffffffffffull; c[k] = __longlong_as_double((long long)v); }
    double d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    ull *o = (ull *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (ull)__double_as_longlong(d[k]);
}

KERNEL mma_f64_m16n8k8(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const ull *pa = (const ull *)a_ + (long long)i * 4;
    double a[4];
    for (int k = 0; k < 4; ++k) { ull v = pa[k] & 0xffffffffu; a[k] = __longlong_as_double((long long)v); }
    const ull *pb = (const ull *)b_ + (long long)i * 2;
    double b[2];
    for (int k = 0; k < 2; ++k) { ull v = pb[k] & 0xffffffffu; b[k] = __longlong_as_double((long long)v); }
    const ull *pc = (const ull *)c_ + (long long)i * 4;
    double c[4];
    for (int k = 0; k < 4; ++k) { ull v = pc[k] & 0xffffffffu; c[k] = __longlong_as_double((long long)v); }
    double d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    ull *o = (ull *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (ull)__double_as_longlong(d[k]);
}

KERNEL mma_f64_m16n8k8_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const ull *pa = (const ull *)a_ + (long long)i * 4;
    double a[4];
    for (int k = 0; k < 4; ++k) { ull v = pa[k] & 0xbfffffffffffffffull; a[k] = __longlong_as_double((long long)v); }
    const ull *pb = (const ull *)b_ + (long long)i * 2;
    double b[2];
    for (int k = 0; k < 2; ++k) { ull v = pb[k] & 0xbfffffffffffffffull; b[k] = __longlong_as_double((long long)v); }
    const ull *pc = (const ull *)c_ + (long long)i * 4;
    double c[4];
    for (int k = 0; k < 4; ++k) { ull v = pc[k] & 0xbfffffffffffffffull; c[k] = __longlong_as_double((long long)v); }
    double d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    ull *o = (ull *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (ull)__double_as_longlong(d[k]);
}

KERNEL mma_f64_m16n8k16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const ull *pa = (const ull *)a_ + (long long)i * 8;
    double a[8];
    for (int k = 0; k < 8; ++k) { ull v = pa[k] & 0xffffffffu; a[k] = __longlong_as_double((long long)v); }
    const ull *pb = (const ull *)b_ + (long long)i * 4;
    double b[4];
    for (int k = 0; k < 4; ++k) { ull v = pb[k] & 0xffffffffu; b[k] = __longlong_as_double((long long)v); }
    const ull *pc = (const ull *)c_ + (long long)i * 4;
    double c[4];
    for (int k = 0; k < 4; ++k) { ull v = pc[k] & 0xffffffffu; c[k] = __longlong_as_double((long long)v); }
    double d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    ull *o = (ull *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (ull)__double_as_longlong(d[k]);
}

KERNEL mma_f64_m16n8k16_tame(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    const ull *pa = (const ull *)a_ + (long long)i * 8;
    double a[8];
    for (int k = 0; k < 8; ++k) { ull v = pa[k] & 0xbfffffffffffffffull; a[k] = __longlong_as_double((long long)v); }
    const ull *pb = (const ull *)b_ + (long long)i * 4;
    double b[4];
    for (int k = 0; k < 4; ++k) { ull v = pb[k] & 0xbfffffffffffffffull; b[k] = __longlong_as_double((long long)v); }
    const ull *pc = (const ull *)c_ + (long long)i * 4;
    double c[4];
    for (int k = 0; k < 4; ++k) { ull v = pc[k] & 0xbfffffffffffffffull; c[k] = __longlong_as_double((long long)v); }
    double d[4];
#if NVCC_ONLY
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
#else
    for (int k = 0; k < 4; ++k) d[k] = 0;
#endif
    ull *o = (ull *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = (ull)__double_as_longlong(d[k]);
}
