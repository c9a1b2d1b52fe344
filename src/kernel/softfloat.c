/*
 * Exact rounding to narrow binary formats (IEEE 754-2008 section 4.3: roundTiesToEven,
 * roundTowardZero, roundTowardNegative, roundTowardPositive, roundTiesToAway), done on
 * integers so that the host's rounding mode and its compiler's optimizations play no part.
 */
#include "softfloat.h"

#include <math.h>
#include <string.h>

const struct ksf_fmt ksf_f16 = {10, 5}, ksf_bf16 = {7, 8}, ksf_f32 = {23, 8}, ksf_tf32 = {10, 8},
                     ksf_f64 = {52, 11};

static int bit_length(uint64_t m)
{
    int n = 0;
    while (m) {
        m >>= 1;
        n++;
    }
    return n;
}

uint64_t ksf_sign_bit(const struct ksf_fmt *fmt) { return 1ull << (fmt->mant + fmt->exp); }

uint64_t ksf_round(const struct ksf_fmt *fmt, bool sign, uint64_t m, int e, enum ksf_mode mode)
{
    const int bias = (1 << (fmt->exp - 1)) - 1, emin = 1 - bias, emax = bias;
    const uint64_t one = 1ull << fmt->mant;
    uint64_t s = sign ? ksf_sign_bit(fmt) : 0;
    if (m == 0)
        return s;
    int big_e = e + bit_length(m) - 1;           /* the exponent of the leading bit */
    int q = (big_e < emin ? emin : big_e) - fmt->mant; /* the exponent of the result's last bit */
    int shift = q - e;
    uint64_t r;
    bool round_bit = false, sticky = false;
    if (shift <= 0) {
        r = m << -shift; /* exact: fewer than mant + 1 bits */
    } else if (shift > 64) {
        r = 0;
        sticky = true;
    } else if (shift == 64) {
        r = 0;
        round_bit = (m >> 63) & 1;
        sticky = (m << 1) != 0;
    } else {
        r = m >> shift;
        round_bit = (m >> (shift - 1)) & 1;
        sticky = (m & ((1ull << (shift - 1)) - 1)) != 0;
    }
    bool inexact = round_bit || sticky, up = false;
    switch (mode) {
    case KSF_RN:
        up = round_bit && (sticky || (r & 1));
        break;
    case KSF_RNA:
        up = round_bit;
        break;
    case KSF_RZ:
        break;
    case KSF_RM:
        up = sign && inexact;
        break;
    case KSF_RP:
        up = !sign && inexact;
        break;
    }
    r += up;
    if (r >= 2 * one) { /* the mantissa carried into a new bit */
        r >>= 1;
        q++;
    }
    if (r < one) /* subnormal or zero: exponent field 0 */
        return s | r;
    int exp = q + fmt->mant;
    if (exp > emax) {
        bool to_inf = mode == KSF_RN || mode == KSF_RNA || (mode == KSF_RM && sign) || (mode == KSF_RP && !sign);
        uint64_t inf = (uint64_t)((1 << fmt->exp) - 1) << fmt->mant;
        return s | (to_inf ? inf : inf - 1);
    }
    return s | ((uint64_t)(exp + bias) << fmt->mant) | (r - one);
}

uint64_t ksf_from_double(const struct ksf_fmt *fmt, double d, enum ksf_mode mode)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    bool sign = b >> 63;
    int ef = (int)((b >> 52) & 0x7ff);
    uint64_t frac = b & ((1ull << 52) - 1);
    if (ef == 0x7ff) /* infinity (NaN is the caller's) */
        return (sign ? ksf_sign_bit(fmt) : 0) | ((uint64_t)((1 << fmt->exp) - 1) << fmt->mant);
    if (ef == 0)
        return ksf_round(fmt, sign, frac, -1074, mode);
    return ksf_round(fmt, sign, frac | (1ull << 52), ef - 1075, mode);
}

double ksf_to_double(const struct ksf_fmt *fmt, uint64_t bits)
{
    const int bias = (1 << (fmt->exp - 1)) - 1;
    bool sign = (bits & ksf_sign_bit(fmt)) != 0;
    int ef = (int)((bits >> fmt->mant) & ((1u << fmt->exp) - 1));
    uint64_t frac = bits & ((1ull << fmt->mant) - 1);
    double v;
    if (ef == (1 << fmt->exp) - 1)
        v = INFINITY;
    else if (ef == 0)
        v = ldexp((double)frac, 1 - bias - fmt->mant);
    else
        v = ldexp((double)(frac | (1ull << fmt->mant)), ef - bias - fmt->mant);
    return sign ? -v : v;
}

bool ksf_is_nan(const struct ksf_fmt *fmt, uint64_t bits)
{
    uint64_t inf = (uint64_t)((1 << fmt->exp) - 1) << fmt->mant;
    return (bits & (ksf_sign_bit(fmt) - 1)) > inf;
}

bool ksf_is_subnormal(const struct ksf_fmt *fmt, uint64_t bits)
{
    uint64_t mag = bits & (ksf_sign_bit(fmt) - 1);
    return mag != 0 && mag < (1ull << fmt->mant);
}

void ksf_two_sum(double a, double b, double *hi, double *lo)
{
    /* volatile keeps a compiler from reassociating the error term away. */
    volatile double s = a + b;
    volatile double bb = s - a;
    volatile double ea = a - (s - bb), eb = b - bb;
    *hi = s;
    *lo = ea + eb;
}

double ksf_round_odd(double hi, double lo)
{
    if (lo == 0 || !isfinite(hi))
        return hi;
    uint64_t b;
    memcpy(&b, &hi, 8);
    /* Truncate toward zero: hi itself when the exact value lies beyond it, else the next
     * double toward zero; then make the last bit odd to remember the inexactness. */
    if ((lo < 0) != (hi < 0))
        b -= 1;
    b |= 1;
    memcpy(&hi, &b, 8);
    return hi;
}
