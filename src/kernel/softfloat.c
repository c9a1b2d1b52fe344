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

#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 ksf_u128;

static int clz128(ksf_u128 v)
{
    uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
    if (hi)
        return __builtin_clzll(hi);
    return lo ? 64 + __builtin_clzll(lo) : 128;
}

/* A finite nonzero double as m * 2^e with m an integer (53 bits at most). */
static void split64(uint64_t bits, uint64_t *m, int *e)
{
    uint64_t exp = (bits >> 52) & 0x7ff;
    *m = (bits & 0xfffffffffffffull) | (exp ? 1ull << 52 : 0);
    *e = (int)(exp ? exp : 1) - 1075;
}

bool ksf_fma64(uint64_t a, uint64_t b, uint64_t c, enum ksf_mode mode, uint64_t *out)
{
    const uint64_t abs = 0x7fffffffffffffffull, inf = 0x7ff0000000000000ull;
    if ((a & abs) < inf && (b & abs) < inf && (c & abs) == inf) {
        *out = c; /* the exact product is finite, however large: the infinite addend wins */
        return true;
    }
    if ((a & abs) >= inf || (b & abs) >= inf || (c & abs) >= inf || !(a & abs) || !(b & abs))
        return false; /* infinities, NaNs and zero products: the host's operations get them right */
    uint64_t ma, mb, mc;
    int ea, eb, ec;
    split64(a, &ma, &ea);
    split64(b, &mb, &eb);
    bool sp = ((a ^ b) >> 63) != 0, sc = (c >> 63) != 0;
    if (!(c & abs)) {
        /* A nonzero product plus a zero: the product rounded once, its sign kept even when it
         * rounds to zero (0.5 * 2^-1074 rounding down is +0, whatever the zero's sign). */
        ksf_u128 p = (ksf_u128)ma * mb;
        int top = 127 - clz128(p), k = top > 63 ? top - 63 : 0;
        bool sticky = k && (p & (((ksf_u128)1 << k) - 1)) != 0;
        *out = ksf_round(&ksf_f64, sp, (uint64_t)(p >> k) | (uint64_t)sticky, ea + eb + k, mode);
        return true;
    }
    split64(c, &mc, &ec);
    /* The exact product, and c, each with its top bit at 126 (one bit of headroom for a carry). */
    ksf_u128 p = (ksf_u128)ma * mb, q = mc;
    int ep = ea + eb, eq = ec;
    int sh = clz128(p) - 1;
    p <<= sh;
    ep -= sh;
    sh = clz128(q) - 1;
    q <<= sh;
    eq -= sh;
    /* x is the operand of larger magnitude; y is aligned to it, what falls off kept as a sticky bit. */
    bool p_larger = ep > eq || (ep == eq && p >= q);
    ksf_u128 x = p_larger ? p : q, y = p_larger ? q : p;
    int ex = p_larger ? ep : eq, d = p_larger ? ep - eq : eq - ep;
    bool sx = p_larger ? sp : sc, sy = p_larger ? sc : sp;
    if (d >= 127) {
        y = y != 0;
    } else if (d > 0) {
        bool sticky = (y & (((ksf_u128)1 << d) - 1)) != 0;
        y = (y >> d) | (ksf_u128)sticky;
    }
    ksf_u128 s = sx == sy ? x + y : x - y;
    if (s == 0) {
        *out = mode == KSF_RM ? 1ull << 63 : 0; /* an exact zero sum: +0, or -0 rounding down */
        return true;
    }
    /* Down to 64 bits with the rest as a sticky bit: enough to round to f64's 53 exactly. */
    int top = 127 - clz128(s);
    uint64_t m;
    if (top > 63) {
        int k = top - 63;
        bool sticky = (s & (((ksf_u128)1 << k) - 1)) != 0;
        m = (uint64_t)(s >> k) | (uint64_t)sticky;
    } else {
        m = (uint64_t)s << (63 - top);
    }
    *out = ksf_round(&ksf_f64, sx, m, ex + top - 63, mode);
    return true;
}
#else
bool ksf_fma64(uint64_t a, uint64_t b, uint64_t c, enum ksf_mode mode, uint64_t *out)
{
    (void)a, (void)b, (void)c, (void)mode, (void)out;
    return false;
}
#endif
