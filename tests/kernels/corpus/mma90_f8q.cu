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

static __device__ __noinline__ uint f8_byte(uint b, int e5, int scen, int j, int big)
{
    uint s = b & 0x80u, e, m;
    if (e5) { e = (b >> 2) & 31u; m = b & 3u; } else { e = (b >> 3) & 15u; m = b & 7u; }
    uint emax = e5 ? 30u : 15u, mid = e5 ? 14u : 6u;
    switch (scen) {
    case 0: case 2: case 3: case 4: e = mid + (e & 3u); break;
    case 1: e = big ? emax - 1u : 1u + (e & 3u); break;
    case 5: if (j & 1) { e = 0; m = 0; } else { e = mid + (e & 1u); } break;
    case 6: e = (j & 1) ? 0u : 1u + (e & 1u); break;
    case 7: e = emax - (e & 3u); break;
    default: if (e5 && e > emax) e = emax; break;
    }
    if (!e5 && e == 15u && m == 7u) m = 6u; /* e4m3's NaN */
    return e5 ? (s | (e << 2) | m) : (s | (e << 3) | m);
}
static __device__ __noinline__ uint f8_reg(uint w, int e5, int scen, int reg, int isb)
{
    uint r = 0;
    for (int j = 0; j < 4; ++j)
        r |= f8_byte((w >> (8 * j)) & 0xffu, e5, scen, j, j == 0 && reg == 0 && !isb) << (8 * j);
    if (scen == 4) r = (r & 0xffffu) | ((r & 0xffffu) << 16) ^ (isb ? 0x80800000u : 0u);
    return r;
}
static __device__ __noinline__ uint c_f32(uint w, int scen)
{
    uint s = w & 0x80000000u, m = w & 0x7fffffu, e;
    switch (scen) {
    case 2: e = 127u + 24u + ((w >> 23) & 7u); break;
    case 3: e = 127u - 40u + ((w >> 23) & 7u); break;
    case 5: return (w & 0x100000u) ? s : (s | ((127u + ((w >> 23) & 3u)) << 23) | m);
    default: e = 127u - 4u + ((w >> 23) & 7u); break;
    }
    return s | (e << 23) | m;
}
static __device__ __noinline__ uint c_f16(uint w, int scen)
{
    uint r = 0;
    for (int h = 0; h < 2; ++h) {
        uint v = (w >> (16 * h)) & 0xffffu, s = v & 0x8000u, m = v & 0x3ffu, e;
        switch (scen) {
        case 2: e = 15u + 12u + ((v >> 10) & 1u); break;
        case 3: e = 1u + ((v >> 10) & 3u); break;
        case 5: e = (v & 0x400u) ? 0u : 15u; if (!e) m = 0; break;
        case 7: e = 15u + 10u + ((v >> 10) & 3u); break;
        default: e = 15u - 2u + ((v >> 10) & 3u); break;
        }
        r |= (s | (e << 10) | m) << (16 * h);
    }
    return r;
}

KERNEL mma_f8p_e4m3_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    int scen = (i >> 5) & 7;
    const uint *pa = (const uint *)a_ + (long long)i * 4, *pb = (const uint *)b_ + (long long)i * 2, *pc = (const uint *)c_ + (long long)i * 4;
    uint a[4], b[2];
    for (int k = 0; k < 4; ++k) a[k] = f8_reg(pa[k], 0, scen, k, 0);
    for (int k = 0; k < 2; ++k) b[k] = f8_reg(pb[k], 0, scen, k, 1);
    uint c[2], d[2];
    for (int k = 0; k < 2; ++k) c[k] = c_f16(pc[k], scen);
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

KERNEL mma_f8p_e5m2_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    int scen = (i >> 5) & 7;
    const uint *pa = (const uint *)a_ + (long long)i * 4, *pb = (const uint *)b_ + (long long)i * 2, *pc = (const uint *)c_ + (long long)i * 4;
    uint a[4], b[2];
    for (int k = 0; k < 4; ++k) a[k] = f8_reg(pa[k], 1, scen, k, 0);
    for (int k = 0; k < 2; ++k) b[k] = f8_reg(pb[k], 1, scen, k, 1);
    uint c[2], d[2];
    for (int k = 0; k < 2; ++k) c[k] = c_f16(pc[k], scen);
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

KERNEL mma_f8p_e5m2_k16_f16(KPARAMS) {
    int i = GID;
    if (i >= n) return;
    int scen = (i >> 5) & 7;
    const uint *pa = (const uint *)a_ + (long long)i * 4, *pb = (const uint *)b_ + (long long)i * 2, *pc = (const uint *)c_ + (long long)i * 4;
    uint a[2], b[1];
    for (int k = 0; k < 2; ++k) a[k] = f8_reg(pa[k], 1, scen, k, 0);
    for (int k = 0; k < 1; ++k) b[k] = f8_reg(pb[k], 1, scen, k, 1);
    uint c[2], d[2];
    for (int k = 0; k < 2; ++k) c[k] = c_f16(pc[k], scen);
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
