/*
 * Floating-point instructions (PTX ISA, "Floating-Point Instructions", "Half Precision
 * Floating-Point Instructions"): add sub mul fma mad div abs neg min max rcp sqrt rsqrt sin cos
 * lg2 ex2 tanh copysign testp on .f32 and .f64, and add sub mul fma neg abs min max ex2 tanh on
 * .f16, .f16x2, .bf16 and .bf16x2.
 *
 * What the ISA leaves to the machine is what an H100 gives (docs/kernels.md, "Floating point",
 * measured with tools/probes/float_probe.cu):
 *  - f32, f16 and bf16 results that are NaN are the canonical NaN (0x7fffffff, 0x7fff), also
 *    for neg, abs, min and max; copysign moves bits.
 *  - f64 results that are NaN keep a NaN operand's payload, quieted: the second operand's
 *    first (fma: b, then a, then c), else the default NaN 0xfff8000000000000; neg and abs of a
 *    NaN give the operand quieted, its sign unchanged.
 *  - min/max of -0 and +0: min gives -0, max +0; one NaN operand gives the other operand.
 *  - .ftz flushes subnormal operands, and results whose exact value is below the smallest
 *    normal, to zero of the same sign.
 *
 * Rounding: .rn is the host's own (IEEE 754 round to nearest even; the build is ISO C, so
 * nothing is contracted, and the fused f32 forms are done in software, fma32). .rz .rm .rp run
 * the lanes under fesetround with the operands read through volatile, so no compiler folds or
 * moves an operation across the mode change.
 * Half-precision arithmetic is done in double (exact for add, sub and mul; fma is rounded to odd
 * first) and rounded once by softfloat.c.
 */
#include "kernel.h"
#include "softfloat.h"

#include <fenv.h>
#include <float.h>
#include <math.h>

#if defined(__clang__)
#pragma STDC FENV_ACCESS ON
#pragma STDC FP_CONTRACT OFF
#elif defined(_MSC_VER)
#pragma fenv_access(on)
#pragma fp_contract(off)
#endif

/* in->mods: the family's flags; the rounding mode (enum ksf_mode) in bits 8..10. */
#define FM_FTZ 0x1u
#define FM_SAT 0x2u
#define FM_RELU 0x4u
#define FM_NAN 0x8u
#define FM_XORSIGN 0x10u
#define FM_MODE(m) (((m) >> 8) & 7u)

#define QNAN32 0x7fffffffu
#define QNAN16 0x7fffu
#define DNAN64 0xfff8000000000000ull
#define QUIET64 0x0008000000000000ull

/* ---- f32 ---- */
/* ---- f32 helpers: compiled here, and the same text (knat_float_helpers) into native kernels.
 * fin32: the bits of an f32 result under the instruction's flags; `exact` is the result computed
 * in double, read only to decide whether a result at the smallest normal was below it before
 * rounding (.ftz flushes by the exact value). f32res: a .rn result (NaN canonical).
 * turns: sin and cos first scale the operand to turns in f32 (the H100 then flushes a subnormal
 * product, and a product without a fraction is a whole number of turns): sin(x) of x in
 * [2^-126, 2^-125) is 0, sin(FLT_MAX) is 0 and cos(FLT_MAX) is 1. The result is the exact sine
 * of the operand otherwise, well within the ISA's absolute error. Approximate functions
 * (F32_APPROX) are computed in double and rounded to f32, well inside the ISA's stated errors;
 * sin and cos flush subnormal operands, as the H100. ---- */
#define F32_APPROX(X)                                                                                                  \
    X(sin, sin(turns(a)), FM_FTZ) X(cos, cos(turns(a)), FM_FTZ) X(lg2, log2(a), 0) X(ex2, exp2(a), 0)                  \
    X(rsqrt, 1.0 / sqrt(a), 0) X(sqrt_approx, sqrt(a), 0) X(tanh, tanh(a), 0) X(rcp_approx, 1.0 / a, 0)
#define F32_APPROX_LANE(name, expr, always)                                                                            \
    static inline uint64_t f32_##name##_lane(uint64_t s, uint32_t mods)                                                \
    {                                                                                                                  \
        uint32_t ab = (uint32_t)s;                                                                                     \
        if ((mods | (always)) & FM_FTZ)                                                                                \
            ab = ftz32(ab);                                                                                            \
        double a = kf32(ab);                                                                                           \
        double v = expr;                                                                                               \
        return fin32((float)v, v, mods);                                                                               \
    }
#define FLOAT_HELPERS                                                                                                  \
    static inline uint32_t ftz32(uint32_t x) { return (x & 0x7f800000u) == 0 ? x & 0x80000000u : x; }                 \
    static inline bool isnan32(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }                                \
    static inline uint64_t f32res(float r) { return r != r ? QNAN32 : kbits32(r); }                                    \
    static inline uint64_t fin32(float r, double exact, uint32_t flags)                                                \
    {                                                                                                                  \
        if (r != r)                                                                                                    \
            return (flags & FM_SAT) ? 0 : QNAN32;                                                                      \
        if ((flags & FM_FTZ) && fabsf(r) <= FLT_MIN && r != 0 && (fabsf(r) < FLT_MIN || fabs(exact) < FLT_MIN))       \
            return kbits32(r) & 0x80000000u;                                                                           \
        if (flags & FM_SAT) {                                                                                          \
            if (!(r > 0))                                                                                              \
                return 0;                                                                                              \
            if (r > 1)                                                                                                 \
                return 0x3f800000u;                                                                                    \
        }                                                                                                              \
        return kbits32(r);                                                                                             \
    }                                                                                                                  \
    static inline double turns(double a)                                                                               \
    {                                                                                                                  \
        float t = (float)a * 0.159154943091895335768883763372514362f;                                                  \
        if (fabsf(t) < FLT_MIN)                                                                                        \
            return copysign(0.0, a);                                                                                   \
        if (isfinite(t) && fabsf(t) >= 0x1p23f)                                                                        \
            return copysign(0.0, a);                                                                                   \
        return a;                                                                                                      \
    }                                                                                                                  \
    F32_APPROX(F32_APPROX_LANE)
FLOAT_HELPERS
const char knat_float_helpers[] = KSTR(FLOAT_HELPERS);

static int fe_of(unsigned mode)
{
    switch (mode) {
    case KSF_RZ:
        return FE_TOWARDZERO;
    case KSF_RM:
        return FE_DOWNWARD;
    case KSF_RP:
        return FE_UPWARD;
    default:
        return FE_TONEAREST;
    }
}

/* Binary f32 operations: X(name, float expression of x and y, double expression of dx, dy). */
#define F32_BINARY(X)                                                                                                  \
    X(add, x + y, dx + dy) X(sub, x - y, dx - dy) X(mul, x * y, dx * dy) X(div, x / y, dx / dy)

#define DEF(name, fexpr, dexpr)                                                                                        \
    static void f32_##name##_rn(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);                                                     \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            float x = kf32(a_[l]), y = kf32(b_[l]);                                                                    \
            d_[l] = f32res(fexpr);                                                                                     \
        }                                                                                                              \
    }                                                                                                                  \
    static void f32_##name##_gen(struct kwarp *w, const struct kinsn *in, uint32_t mask)                               \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);                                                     \
        uint32_t flags = in->mods;                                                                                     \
        int mode_ = (int)FM_MODE(flags), old = mode_ ? fegetround() : 0;                                               \
        if (mode_)                                                                                                     \
            fesetround(fe_of((unsigned)mode_));                                                                        \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            uint32_t ab = (uint32_t)a_[l], bb = (uint32_t)b_[l];                                                       \
            if (flags & FM_FTZ) {                                                                                      \
                ab = ftz32(ab);                                                                                        \
                bb = ftz32(bb);                                                                                        \
            }                                                                                                          \
            volatile float x = kf32(ab), y = kf32(bb);                                                                 \
            volatile float r = fexpr;                                                                                  \
            double dx = x, dy = y;                                                                                     \
            d_[l] = fin32(r, dexpr, flags);                                                                            \
        }                                                                                                              \
        if (mode_)                                                                                                     \
            fesetround(old);                                                                                           \
    }
F32_BINARY(DEF)
#undef DEF

/* fma.f32 in software, portable to every C library: the product of two floats is exact in a
 * double, the sum's error is exact too (TwoSum), and the double rounded to odd rounds to f32
 * once, in any mode. `exact` gets the double (for .ftz's decision). */
static inline float fma32(float x, float y, float z, enum ksf_mode mode, double *exact)
{
    double p = (double)x * (double)y, hi, lo;
    ksf_two_sum(p, (double)z, &hi, &lo);
    double o = ksf_round_odd(hi, lo);
    *exact = o;
    if (o != o)
        return NAN;
    if (o == 0) { /* an exact zero: -0 only from two -0s, or in .rm from anything but two +0s */
        bool neg_zeros = p == 0 && z == 0 && signbit(p) && signbit(z);
        bool pos_zeros = p == 0 && z == 0 && !signbit(p) && !signbit(z);
        return neg_zeros || (!pos_zeros && mode == KSF_RM) ? -0.0f : 0.0f;
    }
    if (mode == KSF_RN)
        return (float)o;
    return kf32(ksf_from_double(&ksf_f32, o, mode));
}
static void f32_fma_rn(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1), *c_ = KSRC(w, in, 2);
    KFOR_LANES(mask, l)
    {
        double e;
        float r = fma32(kf32(a_[l]), kf32(b_[l]), kf32(c_[l]), KSF_RN, &e);
        d_[l] = r != r ? QNAN32 : kbits32(r);
    }
}
static void f32_fma_gen(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1), *c_ = KSRC(w, in, 2);
    uint32_t flags = in->mods;
    enum ksf_mode mode = (enum ksf_mode)FM_MODE(flags);
    KFOR_LANES(mask, l)
    {
        uint32_t ab = (uint32_t)a_[l], bb = (uint32_t)b_[l], cb = (uint32_t)c_[l];
        if (flags & FM_FTZ) {
            ab = ftz32(ab);
            bb = ftz32(bb);
            cb = ftz32(cb);
        }
        double e;
        float r = fma32(kf32(ab), kf32(bb), kf32(cb), mode, &e);
        d_[l] = fin32(r, e, flags);
    }
}

/* sqrt and rcp, IEEE (.rn .rz .rm .rp) or approximate. */
static void f32_sqrt_gen(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0);
    uint32_t flags = in->mods;
    int mode_ = (int)FM_MODE(flags), old = mode_ ? fegetround() : 0;
    if (mode_)
        fesetround(fe_of((unsigned)mode_));
    KFOR_LANES(mask, l)
    {
        uint32_t ab = (uint32_t)a_[l];
        if (flags & FM_FTZ)
            ab = ftz32(ab);
        volatile float x = kf32(ab);
        volatile float r = sqrtf(x);
        d_[l] = fin32(r, r, flags);
    }
    if (mode_)
        fesetround(old);
}
static void f32_rcp_gen(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0);
    uint32_t flags = in->mods;
    int mode_ = (int)FM_MODE(flags), old = mode_ ? fegetround() : 0;
    if (mode_)
        fesetround(fe_of((unsigned)mode_));
    KFOR_LANES(mask, l)
    {
        uint32_t ab = (uint32_t)a_[l];
        if (flags & FM_FTZ)
            ab = ftz32(ab);
        volatile float x = kf32(ab);
        volatile float r = 1.0f / x;
        d_[l] = fin32(r, 1.0 / (double)x, flags);
    }
    if (mode_)
        fesetround(old);
}

/* div.approx.f32 is a * (1 / b) with the reciprocal flushed when subnormal (the ISA: for
 * 2^126 < |b| < 2^128 the result is zero; the H100 also gives NaN for inf / such b). */
static void f32_div_approx(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);
    uint32_t flags = in->mods;
    KFOR_LANES(mask, l)
    {
        uint32_t ab = (uint32_t)a_[l], bb = (uint32_t)b_[l];
        if (flags & FM_FTZ) {
            ab = ftz32(ab);
            bb = ftz32(bb);
        }
        float y = kf32(bb), x = kf32(ab);
        float rcp = 1.0f / y;
        if (fabsf(rcp) < FLT_MIN)
            rcp = copysignf(0.0f, rcp);
        float r = (fabsf(y) > 0x1p126f && isfinite(y)) ? x * rcp : x / y;
        d_[l] = fin32(r, r, flags);
    }
}

/* Approximate functions (F32_APPROX, above). */
#define DEF(name, expr, always)                                                                                        \
    static void f32_##name(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                     \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *s_ = KSRC(w, in, 0);                                                                           \
        KFOR_LANES(mask, l) d_[l] = f32_##name##_lane(s_[l], in->mods);                                                \
    }
F32_APPROX(DEF)
#undef DEF

static inline uint64_t f32_min_max(uint32_t a, uint32_t b, uint32_t flags, bool mx)
{
    if (flags & FM_FTZ) {
        a = ftz32(a);
        b = ftz32(b);
    }
    bool na = isnan32(a), nb = isnan32(b);
    uint32_t sign = (flags & FM_XORSIGN) ? (a ^ b) & 0x80000000u : 0;
    if (flags & FM_XORSIGN) {
        a &= 0x7fffffffu;
        b &= 0x7fffffffu;
    }
    uint32_t r;
    if (na || nb) {
        if ((flags & FM_NAN) || (na && nb))
            return QNAN32;
        r = na ? b : a;
    } else {
        float x = kf32(a), y = kf32(b);
        if (x == y) /* -0 and +0: min takes the negative one, max the positive one */
            r = mx ? (a & b) : (a | b);
        else
            r = (mx ? x > y : x < y) ? a : b;
    }
    return r ^ sign;
}
static void f32_min(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);
    KFOR_LANES(mask, l) d_[l] = f32_min_max((uint32_t)a_[l], (uint32_t)b_[l], in->mods, false);
}
static void f32_max(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);
    KFOR_LANES(mask, l) d_[l] = f32_min_max((uint32_t)a_[l], (uint32_t)b_[l], in->mods, true);
}

KOP1(f32_neg, isnan32((uint32_t)a) ? QNAN32 : (uint32_t)a ^ 0x80000000u)
KOP1(f32_neg_ftz, isnan32((uint32_t)a) ? QNAN32 : ftz32((uint32_t)a) ^ 0x80000000u)
KOP1(f32_abs, isnan32((uint32_t)a) ? QNAN32 : (uint32_t)a & 0x7fffffffu)
KOP1(f32_abs_ftz, isnan32((uint32_t)a) ? QNAN32 : ftz32((uint32_t)a) & 0x7fffffffu)
/* copysign d, a, b: b with a's sign (payloads kept). */
KOP2(f32_copysign, ((uint32_t)b & 0x7fffffffu) | ((uint32_t)a & 0x80000000u))
KOP2(f64_copysign, (b & ~(1ull << 63)) | (a & (1ull << 63)))

/* ---- f64 ---- */
static inline bool isnan64(uint64_t x) { return (x & ~(1ull << 63)) > 0x7ff0000000000000ull; }
/* The NaN an f64 operation gives: the second operand's payload, then the first's, quieted. */
static inline uint64_t nan64(uint64_t a, uint64_t b)
{
    if (isnan64(b))
        return b | QUIET64;
    if (isnan64(a))
        return a | QUIET64;
    return DNAN64;
}
/* Division is a sequence on the GPU: there the dividend's NaN comes first. */
static inline uint64_t nan64_div(uint64_t a, uint64_t b) { return isnan64(a) ? a | QUIET64 : nan64(a, b); }
#define nan64_add nan64
#define nan64_sub nan64
#define nan64_mul nan64
#define F64_BINARY(X) X(add, x + y) X(sub, x - y) X(mul, x * y) X(div, x / y)
#define DEF(name, expr)                                                                                                \
    static void f64_##name##_rn(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);                                                     \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            double x = kf64(a_[l]), y = kf64(b_[l]);                                                                   \
            double r = expr;                                                                                           \
            d_[l] = r != r ? nan64_##name(a_[l], b_[l]) : kbits64(r);                                                  \
        }                                                                                                              \
    }                                                                                                                  \
    static void f64_##name##_gen(struct kwarp *w, const struct kinsn *in, uint32_t mask)                               \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);                                                     \
        int mode_ = (int)FM_MODE(in->mods), old = mode_ ? fegetround() : 0;                                            \
        if (mode_)                                                                                                     \
            fesetround(fe_of((unsigned)mode_));                                                                        \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            volatile double x = kf64(a_[l]), y = kf64(b_[l]);                                                          \
            volatile double r = expr;                                                                                  \
            d_[l] = r != r ? nan64_##name(a_[l], b_[l]) : kbits64(r);                                                  \
        }                                                                                                              \
        if (mode_)                                                                                                     \
            fesetround(old);                                                                                           \
    }
F64_BINARY(DEF)
#undef DEF
#undef nan64_add
#undef nan64_sub
#undef nan64_mul

static inline uint64_t nan64_3(uint64_t a, uint64_t b, uint64_t c)
{
    if (isnan64(b))
        return b | QUIET64;
    if (isnan64(a))
        return a | QUIET64;
    if (isnan64(c))
        return c | QUIET64;
    return DNAN64;
}
/* glibc's fma() is exact in every rounding mode; mingw-w64's, under wine, rounds to nearest
 * only and overflows in the product (fma(2.5, DBL_MAX, -inf) is NaN there): on Windows every
 * fma.f64 is rounded in software. The corpus case f64_round checks fma.f64 in the four modes
 * against the H100 on both platforms. */
#if defined(_WIN32)
#define SOFT_FMA64 1
#else
#define SOFT_FMA64 0
#endif
static void f64_fma_gen(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1), *c_ = KSRC(w, in, 2);
    int mode_ = (int)FM_MODE(in->mods), old = mode_ ? fegetround() : 0;
    if (mode_)
        fesetround(fe_of((unsigned)mode_));
    KFOR_LANES(mask, l)
    {
        uint64_t bits;
        if ((mode_ || SOFT_FMA64) && ksf_fma64(a_[l], b_[l], c_[l], (enum ksf_mode)mode_, &bits)) {
            d_[l] = bits; /* rounded in software, whatever the C library does */
            continue;
        }
        volatile double x = kf64(a_[l]), y = kf64(b_[l]), z = kf64(c_[l]);
        volatile double r = fma(x, y, z);
        d_[l] = r != r ? nan64_3(a_[l], b_[l], c_[l]) : kbits64(r);
    }
    if (mode_)
        fesetround(old);
}
static void f64_fma_rn(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d_ = KDST(w, in, 0);
    const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1), *c_ = KSRC(w, in, 2);
    KFOR_LANES(mask, l)
    {
        uint64_t bits;
        if (SOFT_FMA64 && ksf_fma64(a_[l], b_[l], c_[l], KSF_RN, &bits)) {
            d_[l] = bits;
            continue;
        }
        double r = fma(kf64(a_[l]), kf64(b_[l]), kf64(c_[l]));
        d_[l] = r != r ? nan64_3(a_[l], b_[l], c_[l]) : kbits64(r);
    }
}
#define F64_UNARY(X) X(sqrt, sqrt(x)) X(rcp, 1.0 / x)
#define DEF(name, expr)                                                                                                \
    static void f64_##name##_gen(struct kwarp *w, const struct kinsn *in, uint32_t mask)                               \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0);                                                                           \
        int mode_ = (int)FM_MODE(in->mods), old = mode_ ? fegetround() : 0;                                            \
        if (mode_)                                                                                                     \
            fesetround(fe_of((unsigned)mode_));                                                                        \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            volatile double x = kf64(a_[l]);                                                                           \
            volatile double r = expr;                                                                                  \
            d_[l] = r != r ? nan64(0, a_[l]) : kbits64(r);                                                             \
        }                                                                                                              \
        if (mode_)                                                                                                     \
            fesetround(old);                                                                                           \
    }
F64_UNARY(DEF)
#undef DEF

/* rcp.approx.ftz.f64 and rsqrt.approx(.ftz).f64: the H100 reads only the operand's upper 32
 * bits and gives a result whose lower 32 bits are zero (a NaN gives 0x7fffffff00000000); the
 * .ftz forms flush subnormal operands and results. */
static inline uint64_t hi_word_approx(uint64_t a, bool rsq)
{
    uint64_t x = a & 0xffffffff00000000ull;
    if (isnan64(x))
        return 0x7fffffff00000000ull;
    double v = kf64(x);
    if (fabs(v) < DBL_MIN)
        v = copysign(0.0, v);
    double r = rsq ? 1.0 / sqrt(v) : 1.0 / v;
    if (r != r)
        return 0x7fffffff00000000ull;
    if (fabs(r) < DBL_MIN)
        r = copysign(0.0, r);
    return kbits64(r) & 0xffffffff00000000ull;
}
KOP1(f64_rcp_approx, hi_word_approx(a, false))
KOP1(f64_rsqrt_approx, hi_word_approx(a, true))

KOP1(f64_neg, isnan64(a) ? a | QUIET64 : a ^ (1ull << 63))
KOP1(f64_abs, isnan64(a) ? a | QUIET64 : a & ~(1ull << 63))

static inline uint64_t f64_min_max(uint64_t a, uint64_t b, uint32_t flags, bool mx)
{
    bool na = isnan64(a), nb = isnan64(b);
    uint64_t sign = (flags & FM_XORSIGN) ? (a ^ b) & (1ull << 63) : 0;
    if (na || nb) {
        if ((flags & FM_NAN) || (na && nb))
            return nan64(a, b);
        return na ? b : a;
    }
    if (flags & FM_XORSIGN) {
        a &= ~(1ull << 63);
        b &= ~(1ull << 63);
    }
    double x = kf64(a), y = kf64(b);
    uint64_t r;
    if (x == y)
        r = mx ? (a & b) : (a | b);
    else
        r = (mx ? x > y : x < y) ? a : b;
    return r ^ sign;
}
KOP2(f64_min, f64_min_max(a, b, in->mods, false))
KOP2(f64_max, f64_min_max(a, b, in->mods, true))

/* ---- testp ---- */
#define TESTP(X)                                                                                                       \
    X(finite, isfinite(v)) X(infinite, isinf(v)) X(number, !isnan(v)) X(notanumber, isnan(v))                          \
    X(normal, isnormal(v)) X(subnormal, fpclassify(v) == FP_SUBNORMAL)
#define DEF(name, expr)                                                                                                \
    static void testp_##name##_f32(struct kwarp *w, const struct kinsn *in, uint32_t mask)                             \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0);                                                                           \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            float v = kf32(a_[l]);                                                                                     \
            d_[l] = (expr) ? 1 : 0;                                                                                    \
        }                                                                                                              \
    }                                                                                                                  \
    static void testp_##name##_f64(struct kwarp *w, const struct kinsn *in, uint32_t mask)                             \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0);                                                                           \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            double v = kf64(a_[l]);                                                                                    \
            d_[l] = (expr) ? 1 : 0;                                                                                    \
        }                                                                                                              \
    }
TESTP(DEF)
#undef DEF

/* ---- f16 and bf16 (and their x2 pairs: the low half is the first element) ---- */
static inline double h_min_normal(const struct ksf_fmt *f) { return f->exp == 5 ? 0x1p-14 : 0x1p-126; }

/* An operand as a double, flushed under .ftz; NaN is handled by the callers. */
static inline double h_in(const struct ksf_fmt *f, uint64_t bits, uint32_t flags)
{
    if ((flags & FM_FTZ) && ksf_is_subnormal(f, bits))
        bits &= ksf_sign_bit(f);
    return ksf_to_double(f, bits);
}

/* The result x (exact, or rounded to odd in double) rounded to the format with the flags. */
static inline uint64_t h_out(const struct ksf_fmt *f, double x, uint32_t flags)
{
    if (flags & FM_SAT) {
        if (!(x > 0))
            return 0;
        if (x >= 1)
            return ksf_from_double(f, 1.0, KSF_RN);
    }
    if ((flags & FM_RELU) && (x < 0 || (x == 0 && signbit(x))))
        return 0;
    if ((flags & FM_FTZ) && x != 0 && fabs(x) < h_min_normal(f))
        return signbit(x) ? ksf_sign_bit(f) : 0;
    return ksf_from_double(f, x, KSF_RN);
}

static inline uint64_t h_add(const struct ksf_fmt *f, uint64_t a, uint64_t b, uint32_t flags, bool sub)
{
    if (ksf_is_nan(f, a) || ksf_is_nan(f, b))
        return (flags & FM_SAT) ? 0 : QNAN16;
    double x = h_in(f, a, flags), y = h_in(f, b, flags);
    double r = sub ? x - y : x + y; /* exact: the operands' bits span fewer than 53 places */
    if (r != r)
        return (flags & FM_SAT) ? 0 : QNAN16;
    return h_out(f, r, flags);
}
static inline uint64_t h_mul(const struct ksf_fmt *f, uint64_t a, uint64_t b, uint32_t flags)
{
    if (ksf_is_nan(f, a) || ksf_is_nan(f, b))
        return (flags & FM_SAT) ? 0 : QNAN16;
    double r = h_in(f, a, flags) * h_in(f, b, flags); /* exact */
    if (r != r)
        return (flags & FM_SAT) ? 0 : QNAN16;
    return h_out(f, r, flags);
}
static inline uint64_t h_fma(const struct ksf_fmt *f, uint64_t a, uint64_t b, uint64_t c, uint32_t flags)
{
    if (ksf_is_nan(f, a) || ksf_is_nan(f, b) || ksf_is_nan(f, c))
        return (flags & FM_SAT) ? 0 : QNAN16;
    double p = h_in(f, a, flags) * h_in(f, b, flags); /* exact */
    double z = h_in(f, c, flags);
    double hi, lo;
    ksf_two_sum(p, z, &hi, &lo);
    if (hi != hi)
        return (flags & FM_SAT) ? 0 : QNAN16;
    return h_out(f, ksf_round_odd(hi, lo), flags);
}
static inline uint64_t h_neg_abs(const struct ksf_fmt *f, uint64_t a, uint32_t flags, bool abs_)
{
    if (ksf_is_nan(f, a))
        return QNAN16;
    if ((flags & FM_FTZ) && ksf_is_subnormal(f, a))
        a &= ksf_sign_bit(f);
    return abs_ ? a & (ksf_sign_bit(f) - 1) : a ^ ksf_sign_bit(f);
}
static inline uint64_t h_min_max(const struct ksf_fmt *f, uint64_t a, uint64_t b, uint32_t flags, bool mx)
{
    uint64_t sb = ksf_sign_bit(f);
    if ((flags & FM_FTZ) && ksf_is_subnormal(f, a))
        a &= sb;
    if ((flags & FM_FTZ) && ksf_is_subnormal(f, b))
        b &= sb;
    bool na = ksf_is_nan(f, a), nb = ksf_is_nan(f, b);
    uint64_t sign = (flags & FM_XORSIGN) ? (a ^ b) & sb : 0;
    if (flags & FM_XORSIGN) {
        a &= sb - 1;
        b &= sb - 1;
    }
    uint64_t r;
    if (na || nb) {
        if ((flags & FM_NAN) || (na && nb))
            return QNAN16;
        r = na ? b : a;
    } else {
        double x = ksf_to_double(f, a), y = ksf_to_double(f, b);
        if (x == y)
            r = mx ? (a & b) : (a | b);
        else
            r = (mx ? x > y : x < y) ? a : b;
    }
    return r ^ sign;
}
static inline uint64_t h_unary_fn(const struct ksf_fmt *f, uint64_t a, uint32_t flags, int fn)
{
    if (ksf_is_nan(f, a))
        return QNAN16;
    double x = h_in(f, a, flags);
    double r = fn == 0 ? exp2(x) : tanh(x);
    return h_out(f, r, flags);
}

/* Handlers: scalar (f16, bf16) and pair (f16x2, bf16x2) forms of each operation. */
#define HALF_FORMS(X) X(f16, &ksf_f16) X(bf16, &ksf_bf16)
#define H2(expr_lo, expr_hi) ((uint64_t)(expr_lo) | ((uint64_t)(expr_hi) << 16))
#define LO(v) ((v)&0xffffu)
#define HI(v) (((v) >> 16) & 0xffffu)
#define DEF(tn, fmt)                                                                                                   \
    KOP2(tn##_add, h_add(fmt, a, b, in->mods, false))                                                                  \
    KOP2(tn##x2_add, H2(h_add(fmt, LO(a), LO(b), in->mods, false), h_add(fmt, HI(a), HI(b), in->mods, false)))         \
    KOP2(tn##_sub, h_add(fmt, a, b, in->mods, true))                                                                   \
    KOP2(tn##x2_sub, H2(h_add(fmt, LO(a), LO(b), in->mods, true), h_add(fmt, HI(a), HI(b), in->mods, true)))           \
    KOP2(tn##_mul, h_mul(fmt, a, b, in->mods))                                                                         \
    KOP2(tn##x2_mul, H2(h_mul(fmt, LO(a), LO(b), in->mods), h_mul(fmt, HI(a), HI(b), in->mods)))                       \
    KOP3(tn##_fma, h_fma(fmt, a, b, c, in->mods))                                                                      \
    KOP3(tn##x2_fma, H2(h_fma(fmt, LO(a), LO(b), LO(c), in->mods), h_fma(fmt, HI(a), HI(b), HI(c), in->mods)))         \
    KOP1(tn##_neg, h_neg_abs(fmt, a, in->mods, false))                                                                 \
    KOP1(tn##x2_neg, H2(h_neg_abs(fmt, LO(a), in->mods, false), h_neg_abs(fmt, HI(a), in->mods, false)))               \
    KOP1(tn##_abs, h_neg_abs(fmt, a, in->mods, true))                                                                  \
    KOP1(tn##x2_abs, H2(h_neg_abs(fmt, LO(a), in->mods, true), h_neg_abs(fmt, HI(a), in->mods, true)))                 \
    KOP2(tn##_min, h_min_max(fmt, a, b, in->mods, false))                                                              \
    KOP2(tn##x2_min, H2(h_min_max(fmt, LO(a), LO(b), in->mods, false), h_min_max(fmt, HI(a), HI(b), in->mods, false))) \
    KOP2(tn##_max, h_min_max(fmt, a, b, in->mods, true))                                                               \
    KOP2(tn##x2_max, H2(h_min_max(fmt, LO(a), LO(b), in->mods, true), h_min_max(fmt, HI(a), HI(b), in->mods, true)))   \
    KOP1(tn##_ex2, h_unary_fn(fmt, a, in->mods, 0))                                                                    \
    KOP1(tn##x2_ex2, H2(h_unary_fn(fmt, LO(a), in->mods, 0), h_unary_fn(fmt, HI(a), in->mods, 0)))                     \
    KOP1(tn##_tanh, h_unary_fn(fmt, a, in->mods, 1))                                                                   \
    KOP1(tn##x2_tanh, H2(h_unary_fn(fmt, LO(a), in->mods, 1), h_unary_fn(fmt, HI(a), in->mods, 1)))
HALF_FORMS(DEF)
#undef DEF

/* ---- Lowering ---- */
enum fop {
    OP_ADD, OP_SUB, OP_MUL, OP_FMA, OP_MAD, OP_DIV, OP_MIN, OP_MAX, OP_NEG, OP_ABS, OP_RCP, OP_SQRT, OP_RSQRT, OP_SIN,
    OP_COS, OP_LG2, OP_EX2, OP_TANH, OP_COPYSIGN, OP_COUNT
};
static const struct {
    const char *name;
    uint8_t nsrc;
    bool shared_with_int; /* the integer family also has it: integer types are not ours */
} fops[OP_COUNT] = {
    [OP_ADD] = {"add", 2, true},   [OP_SUB] = {"sub", 2, true},   [OP_MUL] = {"mul", 2, true},
    [OP_FMA] = {"fma", 3, false},  [OP_MAD] = {"mad", 3, true},   [OP_DIV] = {"div", 2, true},
    [OP_MIN] = {"min", 2, true},   [OP_MAX] = {"max", 2, true},   [OP_NEG] = {"neg", 1, true},
    [OP_ABS] = {"abs", 1, true},   [OP_RCP] = {"rcp", 1, false},  [OP_SQRT] = {"sqrt", 1, false},
    [OP_RSQRT] = {"rsqrt", 1, false}, [OP_SIN] = {"sin", 1, false}, [OP_COS] = {"cos", 1, false},
    [OP_LG2] = {"lg2", 1, false},  [OP_EX2] = {"ex2", 1, false},  [OP_TANH] = {"tanh", 1, false},
    [OP_COPYSIGN] = {"copysign", 2, false},
};

/* The modifiers an instruction carries, decoded. */
struct fmods {
    int mode;      /* -1: none given */
    bool ftz, sat, approx, full, nan, xorsign_abs, relu;
};

static bool decode_mods(struct klower *lw, const struct kparsed *p, struct fmods *m)
{
    memset(m, 0, sizeof(*m));
    m->mode = -1;
    bool xs = false, ab = false;
    for (uint32_t i = 0; i < p->nmods; ++i) {
        int mode = -1;
        switch (p->mods[i]) {
        case KM_rn:
            mode = KSF_RN;
            break;
        case KM_rz:
            mode = KSF_RZ;
            break;
        case KM_rm:
            mode = KSF_RM;
            break;
        case KM_rp:
            mode = KSF_RP;
            break;
        case KM_ftz:
            m->ftz = true;
            break;
        case KM_sat:
            m->sat = true;
            break;
        case KM_approx:
            m->approx = true;
            break;
        case KM_full:
            m->full = true;
            break;
        case KM_NaN:
            m->nan = true;
            break;
        case KM_xorsign:
            xs = true;
            break;
        case KM_abs:
            ab = true;
            break;
        case KM_relu:
            m->relu = true;
            break;
        default:
            return kl_refuse(lw, "'%s': modifier .%s is not supported by the software device", p->text,
                             kmod_name(p->mods[i]));
        }
        if (mode >= 0) {
            if (m->mode >= 0)
                return kl_refuse(lw, "'%s': two rounding modifiers", p->text);
            m->mode = mode;
        }
    }
    if (xs != ab)
        return kl_refuse(lw, "'%s': .xorsign and .abs go together", p->text);
    m->xorsign_abs = xs;
    return true;
}

/* Refuses a modifier the operation does not take with this type. */
#define NOT_WITH(cond, what)                                                                                           \
    do {                                                                                                               \
        if (cond)                                                                                                      \
            return kl_refuse(lw, "'%s': %s is not implemented for .%s", p->text, what, ktype_name(t));                 \
    } while (0)

static bool lower_operands(struct klower *lw, const struct kparsed *p, struct kinsn *in, ktype t, unsigned nsrc)
{
    if (p->nops != nsrc + 1)
        return kl_refuse(lw, "'%s' takes %u operands", p->text, nsrc + 1);
    if (!kl_dst(lw, p, 0, &in->dst[0]))
        return false;
    for (unsigned i = 0; i < nsrc; ++i)
        if (!kl_src(lw, p, i + 1, t, &in->src[i]))
            return false;
    in->ndst = 1;
    in->nsrc = (uint8_t)nsrc;
    in->type = (uint8_t)t;
    in->kind = KK_OP;
    return true;
}

static kexec_fn pick_f32(enum fop op, const struct fmods *m, bool plain)
{
    switch (op) {
    case OP_ADD:
        return plain ? f32_add_rn : f32_add_gen;
    case OP_SUB:
        return plain ? f32_sub_rn : f32_sub_gen;
    case OP_MUL:
        return plain ? f32_mul_rn : f32_mul_gen;
    case OP_FMA:
    case OP_MAD:
        return plain ? f32_fma_rn : f32_fma_gen;
    case OP_DIV:
        if (m->approx)
            return f32_div_approx;
        /* div.full.f32 is within 2 ulp on the GPU; the correctly rounded quotient is. */
        return plain ? f32_div_rn : f32_div_gen;
    case OP_MIN:
        return f32_min;
    case OP_MAX:
        return f32_max;
    case OP_NEG:
        return m->ftz ? f32_neg_ftz : f32_neg;
    case OP_ABS:
        return m->ftz ? f32_abs_ftz : f32_abs;
    case OP_RCP:
        return m->approx ? f32_rcp_approx : f32_rcp_gen;
    case OP_SQRT:
        return m->approx ? f32_sqrt_approx : f32_sqrt_gen;
    case OP_RSQRT:
        return f32_rsqrt;
    case OP_SIN:
        return f32_sin;
    case OP_COS:
        return f32_cos;
    case OP_LG2:
        return f32_lg2;
    case OP_EX2:
        return f32_ex2;
    case OP_TANH:
        return f32_tanh;
    case OP_COPYSIGN:
        return f32_copysign;
    default:
        return NULL;
    }
}

static kexec_fn pick_f64(enum fop op, bool plain)
{
    switch (op) {
    case OP_ADD:
        return plain ? f64_add_rn : f64_add_gen;
    case OP_SUB:
        return plain ? f64_sub_rn : f64_sub_gen;
    case OP_MUL:
        return plain ? f64_mul_rn : f64_mul_gen;
    case OP_FMA:
    case OP_MAD:
        return plain ? f64_fma_rn : f64_fma_gen;
    case OP_DIV:
        return plain ? f64_div_rn : f64_div_gen;
    case OP_MIN:
        return f64_min;
    case OP_MAX:
        return f64_max;
    case OP_NEG:
        return f64_neg;
    case OP_ABS:
        return f64_abs;
    case OP_RCP:
        return f64_rcp_gen;
    case OP_SQRT:
        return f64_sqrt_gen;
    case OP_COPYSIGN:
        return f64_copysign;
    default:
        return NULL;
    }
}

#define HPICK(tn)                                                                                                      \
    static kexec_fn pick_##tn(enum fop op, bool pair)                                                                  \
    {                                                                                                                  \
        switch (op) {                                                                                                  \
        case OP_ADD:                                                                                                   \
            return pair ? tn##x2_add : tn##_add;                                                                       \
        case OP_SUB:                                                                                                   \
            return pair ? tn##x2_sub : tn##_sub;                                                                       \
        case OP_MUL:                                                                                                   \
            return pair ? tn##x2_mul : tn##_mul;                                                                       \
        case OP_FMA:                                                                                                   \
            return pair ? tn##x2_fma : tn##_fma;                                                                       \
        case OP_NEG:                                                                                                   \
            return pair ? tn##x2_neg : tn##_neg;                                                                       \
        case OP_ABS:                                                                                                   \
            return pair ? tn##x2_abs : tn##_abs;                                                                       \
        case OP_MIN:                                                                                                   \
            return pair ? tn##x2_min : tn##_min;                                                                       \
        case OP_MAX:                                                                                                   \
            return pair ? tn##x2_max : tn##_max;                                                                       \
        case OP_EX2:                                                                                                   \
            return pair ? tn##x2_ex2 : tn##_ex2;                                                                       \
        case OP_TANH:                                                                                                  \
            return pair ? tn##x2_tanh : tn##_tanh;                                                                     \
        default:                                                                                                       \
            return NULL;                                                                                               \
        }                                                                                                              \
    }
HPICK(f16)
HPICK(bf16)
#undef HPICK

static bool lower_fop(struct klower *lw, const struct kparsed *p, struct kinsn *in, enum fop op)
{
    ktype t = kl_type(p, 0);
    if (!ktype_float(t)) {
        if (fops[op].shared_with_int)
            return false; /* the integer family's (lw->why stays empty) */
        return kl_refuse(lw, "'%s': .%s is not a floating-point type", p->text, ktype_name(t));
    }
    if (p->ntypes != 1)
        return kl_refuse(lw, "'%s' takes one type", p->text);
    struct fmods m;
    if (!decode_mods(lw, p, &m))
        return false;
    bool is_minmax = op == OP_MIN || op == OP_MAX;
    bool is_approx_fn = op == OP_RSQRT || op == OP_SIN || op == OP_COS || op == OP_LG2 || op == OP_EX2 ||
                        op == OP_TANH;
    bool rounds = op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_FMA || op == OP_MAD ||
                  (op == OP_DIV && !m.approx && !m.full) || ((op == OP_RCP || op == OP_SQRT) && !m.approx);
    NOT_WITH(m.nan && !is_minmax, ".NaN");
    NOT_WITH(m.xorsign_abs && !is_minmax, ".xorsign.abs");
    NOT_WITH(m.nan && m.xorsign_abs, ".NaN with .xorsign.abs");
    NOT_WITH(m.mode >= 0 && !rounds, "a rounding modifier");
    NOT_WITH(m.approx && !(is_approx_fn || op == OP_DIV || op == OP_RCP || op == OP_SQRT), ".approx");
    NOT_WITH(is_approx_fn && !m.approx, "the operation without .approx");
    NOT_WITH(m.full && op != OP_DIV, ".full");
    NOT_WITH(m.relu && op != OP_FMA, ".relu");
    NOT_WITH(op == OP_COPYSIGN && (m.ftz || m.sat), "a modifier");
    uint32_t flags = (m.ftz ? FM_FTZ : 0) | (m.sat ? FM_SAT : 0) | (m.relu ? FM_RELU : 0) | (m.nan ? FM_NAN : 0) |
                     (m.xorsign_abs ? FM_XORSIGN : 0);
    int mode = m.mode < 0 ? KSF_RN : m.mode;
    kexec_fn f = NULL;
    switch (t) {
    case KT_F32:
        NOT_WITH(m.relu, ".relu");
        NOT_WITH(m.sat && !(op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_FMA || op == OP_MAD), ".sat");
        NOT_WITH(is_minmax && m.sat, ".sat");
        f = pick_f32(op, &m, !m.ftz && !m.sat && mode == KSF_RN);
        break;
    case KT_F64:
        NOT_WITH(m.sat || m.relu, ".sat and .relu");
        NOT_WITH(m.ftz && !(m.approx && (op == OP_RCP || op == OP_RSQRT)), ".ftz");
        NOT_WITH(m.approx && op != OP_RCP && op != OP_RSQRT, ".approx");
        NOT_WITH(m.approx && op == OP_RCP && !m.ftz, ".approx without .ftz");
        NOT_WITH(is_minmax && m.xorsign_abs, ".xorsign.abs");
        if (op == OP_RCP && m.approx)
            f = f64_rcp_approx;
        else if (op == OP_RSQRT)
            f = f64_rsqrt_approx;
        else
            f = pick_f64(op, mode == KSF_RN);
        break;
    case KT_F16:
    case KT_F16X2:
    case KT_BF16:
    case KT_BF16X2: {
        bool pair = t == KT_F16X2 || t == KT_BF16X2, bf = t == KT_BF16 || t == KT_BF16X2;
        /* Half-precision arithmetic rounds to nearest only (the ISA's .rnd is .rn). */
        NOT_WITH(mode != KSF_RN, "a rounding mode other than .rn");
        NOT_WITH(op == OP_MAD || op == OP_DIV || op == OP_RCP || op == OP_SQRT || op == OP_RSQRT || op == OP_SIN ||
                     op == OP_COS || op == OP_LG2 || op == OP_COPYSIGN,
                 "the operation");
        NOT_WITH(m.sat && !(op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_FMA), ".sat");
        NOT_WITH(m.sat && m.relu, ".sat with .relu");
        f = bf ? pick_bf16(op, pair) : pick_f16(op, pair);
        break;
    }
    default:
        break;
    }
    if (!f)
        return kl_refuse(lw, "'%s' is not implemented for .%s by the software device", p->text, ktype_name(t));
    if (!lower_operands(lw, p, in, t, fops[op].nsrc))
        return false;
    in->exec = f;
    in->mods = flags | ((uint32_t)mode << 8);
    return true;
}

#define LOWERERS(X)                                                                                                    \
    X(add, OP_ADD) X(sub, OP_SUB) X(mul, OP_MUL) X(fma, OP_FMA) X(mad, OP_MAD) X(div, OP_DIV) X(min, OP_MIN)           \
    X(max, OP_MAX) X(neg, OP_NEG) X(abs, OP_ABS) X(rcp, OP_RCP) X(sqrt, OP_SQRT) X(rsqrt, OP_RSQRT) X(sin, OP_SIN)     \
    X(cos, OP_COS) X(lg2, OP_LG2) X(ex2, OP_EX2) X(tanh, OP_TANH) X(copysign, OP_COPYSIGN)
#define DEF(name, op)                                                                                                  \
    static bool lower_##name(struct klower *lw, const struct kparsed *p, struct kinsn *in)                             \
    {                                                                                                                  \
        return lower_fop(lw, p, in, op);                                                                               \
    }
LOWERERS(DEF)
#undef DEF

static bool lower_testp(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    if (p->ntypes != 1 || (t != KT_F32 && t != KT_F64))
        return kl_refuse(lw, "'%s': testp takes .f32 or .f64", p->text);
    if (p->nmods != 1)
        return kl_refuse(lw, "'%s': testp takes one of .finite .infinite .number .notanumber .normal .subnormal",
                         p->text);
    bool d = t == KT_F64;
    kexec_fn f;
    switch (p->mods[0]) {
#define CASE(name, expr)                                                                                               \
    case KM_##name:                                                                                                    \
        f = d ? testp_##name##_f64 : testp_##name##_f32;                                                               \
        break;
        TESTP(CASE)
#undef CASE
    default:
        return kl_refuse(lw, "'%s': .%s is not a testp operation", p->text, kmod_name(p->mods[0]));
    }
    if (!lower_operands(lw, p, in, t, 1))
        return false;
    in->exec = f;
    return true;
}

const struct klower_entry kops_float[] = {
#define ENTRY(name, op) {#name, lower_##name},
    LOWERERS(ENTRY)
#undef ENTRY
    {"testp", lower_testp},
    {NULL, NULL},
};

/* ---- What the native tier writes as C (native_emit.c). The lane's sources are a, b, c, and
 * x, y, z as floats. fma.rn.f32 there is the C library's fmaf, correctly rounded as fma32 is
 * (the corpus runs both tiers and compares their bits). ---- */
#define NAT_RN(name, fexpr, dexpr) {f32_##name##_rn, KN_EXPR, 2, "f32res(" KSTR(fexpr) ")"},
#define NAT_APPROX(name, expr, always) {f32_##name, KN_EXPR, 1, "f32_" #name "_lane(a, in_mods)"},
const struct knat_desc knat_float[] = {
    F32_BINARY(NAT_RN) F32_APPROX(NAT_APPROX)
    {f32_fma_rn, KN_EXPR, 3, "f32res(fmaf(x, y, z))"},
    {NULL, 0, 0, NULL},
};
#undef NAT_RN
#undef NAT_APPROX
