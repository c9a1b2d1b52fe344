// f32 and f64 arithmetic with every rounding modifier, min/max with NaN, copysign, abs,
// the rounding-to-integer family and comparisons (PTX ISA "Floating-Point Instructions").
// The inputs pair every special value (NaN, ±inf, ±0, subnormals, ±FLT_MAX ...) with every
// other, then random bit patterns.
#include "corpus.h"

KERNEL f32_round(KPARAMS) {
    const float *a = (const float *)a_, *b = (const float *)b_, *c = (const float *)c_;
    float *out = (float *)out_;
    int i = GID;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    float *o = out + i * 20;
    o[0] = __fadd_rn(x, y); o[1] = __fadd_rz(x, y); o[2] = __fadd_rd(x, y); o[3] = __fadd_ru(x, y);
    o[4] = __fsub_rn(x, y); o[5] = __fsub_rz(x, y); o[6] = __fsub_rd(x, y); o[7] = __fsub_ru(x, y);
    o[8] = __fmul_rn(x, y); o[9] = __fmul_rz(x, y); o[10] = __fmul_rd(x, y); o[11] = __fmul_ru(x, y);
    o[12] = __fmaf_rn(x, y, z); o[13] = __fmaf_rz(x, y, z); o[14] = __fmaf_rd(x, y, z); o[15] = __fmaf_ru(x, y, z);
    o[16] = __fdiv_rn(x, y); o[17] = __fdiv_rz(x, y); o[18] = __fdiv_rd(x, y); o[19] = __fdiv_ru(x, y);
}

KERNEL f32_unary(KPARAMS) {
    const float *a = (const float *)a_, *b = (const float *)b_;
    float *out = (float *)out_;
    int i = GID;
    if (i >= n) return;
    float x = a[i], y = b[i];
    float *o = out + i * 24;
    o[0] = __frcp_rn(x); o[1] = __frcp_rz(x); o[2] = __frcp_rd(x); o[3] = __frcp_ru(x);
    o[4] = __fsqrt_rn(x); o[5] = __fsqrt_rz(x); o[6] = __fsqrt_rd(x); o[7] = __fsqrt_ru(x);
    o[8] = fabsf(x); o[9] = -x; o[10] = floorf(x); o[11] = ceilf(x);
    o[12] = truncf(x); o[13] = rintf(x); o[14] = roundf(x); o[15] = __saturatef(x);
    o[16] = copysignf(x, y); o[17] = fminf(x, y); o[18] = fmaxf(x, y);
    o[19] = x + y; o[20] = x * y; o[21] = x / y; o[22] = sqrtf(x); o[23] = x * y + x; // contracted or not: each compiler's own PTX
}

// Comparisons: every ordered and unordered relation, as a bit mask per pair.
KERNEL f32_compare(KPARAMS) {
    const float *a = (const float *)a_, *b = (const float *)b_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    float x = a[i], y = b[i];
    uint m = 0;
    m |= (uint)(x < y) << 0; m |= (uint)(x <= y) << 1; m |= (uint)(x > y) << 2; m |= (uint)(x >= y) << 3;
    m |= (uint)(x == y) << 4; m |= (uint)(x != y) << 5; m |= (uint)!(x < y) << 6; m |= (uint)!(x >= y) << 7;
    m |= (uint)(x != x) << 8; m |= (uint)(x == x && y == y) << 9;
    uint r;
    asm("{ .reg .pred p; testp.subnormal.f32 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "f"(x));
    m |= r << 10;
    asm("{ .reg .pred p; testp.infinite.f32 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "f"(x));
    m |= r << 11;
    out[i * 2] = m;
    out[i * 2 + 1] = __float_as_uint(x < y ? x : y); // selp after setp
}

// Flush-to-zero and saturation modifiers written out: .ftz flushes subnormal inputs and
// results to sign-preserving zero; .sat clamps to [0, 1] with NaN giving +0.
KERNEL f32_ftz_sat(KPARAMS) {
    const float *a = (const float *)a_, *b = (const float *)b_;
    float *out = (float *)out_;
    int i = GID;
    if (i >= n) return;
    float x = a[i], y = b[i], r;
    float *o = out + i * 8;
    asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[0] = r;
    asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[1] = r;
    asm("add.rn.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[2] = r;
    asm("min.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[3] = r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[4] = r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[5] = r; // (.xorsign.abs needs sm_86)
    asm("fma.rn.ftz.sat.f32 %0, %1, %2, %1;" : "=f"(r) : "f"(x), "f"(y)); o[6] = r;
    asm("abs.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); o[7] = r;
}

KERNEL f64_round(KPARAMS) {
    const double *a = (const double *)a_, *b = (const double *)b_, *c = (const double *)c_;
    double *out = (double *)out_;
    int i = GID;
    if (i >= n) return;
    double x = a[i], y = b[i], z = c[i];
    double *o = out + i * 28;
    o[0] = __dadd_rn(x, y); o[1] = __dadd_rz(x, y); o[2] = __dadd_rd(x, y); o[3] = __dadd_ru(x, y);
    o[4] = __dmul_rn(x, y); o[5] = __dmul_rz(x, y); o[6] = __dmul_rd(x, y); o[7] = __dmul_ru(x, y);
    o[8] = __fma_rn(x, y, z); o[9] = __fma_rz(x, y, z); o[10] = __fma_rd(x, y, z); o[11] = __fma_ru(x, y, z);
    o[12] = __ddiv_rn(x, y); o[13] = __ddiv_rz(x, y); o[14] = __ddiv_rd(x, y); o[15] = __ddiv_ru(x, y);
    o[16] = fmin(x, y); o[17] = fmax(x, y); o[18] = floor(x); o[19] = ceil(x);
    o[20] = trunc(x); o[21] = rint(x); o[22] = __drcp_rn(x); o[23] = __dsqrt_rn(x);
    o[24] = __dsqrt_rz(x); o[25] = fabs(x); o[26] = copysign(x, y); o[27] = x - y;
}
