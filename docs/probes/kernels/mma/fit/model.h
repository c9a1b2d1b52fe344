/* model of the tensor-core float arithmetic: parameters fitted to the GPU */
#include <stdint.h>
#include <string.h>
#include <stdbool.h>
#include <math.h>
enum mty { MT_NONE, MT_F16, MT_BF16, MT_TF32, MT_F32, MT_F64, MT_S8, MT_U8, MT_S4, MT_U4, MT_B1, MT_E4M3, MT_E5M2, MT_S32 };
enum { FC_ZERO, FC_FIN, FC_INF, FC_NAN };
struct fnum { int cls; int sign; uint64_t m; int e; int top; }; /* value = (-1)^sign m 2^e */

struct params { int F; int floor_trunc; int rn; int group; int tf32_round; int ftz_out; int c_exact; int ftz_in; };
static struct params P = {25, 0, 0, 16, 0, 0, 0, 0};

static int bitlen(uint64_t m) { int n = 0; while (m) { n++; m >>= 1; } return n; }
static struct fnum decode(int t, uint64_t x)
{
    struct fnum r = {FC_ZERO, 0, 0, 0};
    int eb, fb, bias;
    switch (t) {
    case MT_F16: eb = 5; fb = 10; bias = 15; x &= 0xffff; break;
    case MT_BF16: eb = 8; fb = 7; bias = 127; x &= 0xffff; break;
    case MT_TF32:
        x &= 0xffffffffu;
        if (P.tf32_round && ((x >> 23) & 0xff) != 0xff) x += 0x1000u; /* rna */
        x &= 0xffffe000u; eb = 8; fb = 23; bias = 127; break;
    case MT_F32: eb = 8; fb = 23; bias = 127; x &= 0xffffffffu; break;
    case MT_F64: eb = 11; fb = 52; bias = 1023; break;
    case MT_E4M3: eb = 4; fb = 3; bias = 7; x &= 0xff;
        r.sign = (int)(x >> 7);
        if ((x & 0x7f) == 0x7f) { r.cls = FC_NAN; return r; }
        break;
    case MT_E5M2: eb = 5; fb = 2; bias = 15; x &= 0xff; break;
    default: return r;
    }
    int tot = eb + fb;
    r.sign = (int)((x >> tot) & 1);
    uint64_t e = (x >> fb) & ((1ull << eb) - 1), f = x & ((1ull << fb) - 1);
    if (t != MT_E4M3 && e == (1ull << eb) - 1) { r.cls = f ? FC_NAN : FC_INF; return r; }
    if (e == 0) {
        if (f == 0 || P.ftz_in) return r;
        r.cls = FC_FIN; r.m = f; r.e = 1 - bias - fb; r.top = 1 - bias;
        if (t == MT_E4M3) r.top = r.e + bitlen(f) - 1; /* a normal f16 once converted */
        return r;
    }
    r.cls = FC_FIN; r.m = f | (1ull << fb); r.e = (int)e - bias - fb; r.top = (int)e - bias; return r;
}

static int bitlen128(unsigned __int128 m) { int n = 0; while (m) { n++; m >>= 1; } return n; }

/* rounds sign * m * 2^e (m > 0, 128-bit) to a float of fb fraction bits, eb exponent bits */
static uint64_t encode(int sign, unsigned __int128 m, int e, int eb, int fb, int rn, int ftz)
{
    int bias = (1 << (eb - 1)) - 1;
    uint64_t sbit = (uint64_t)sign << (eb + fb);
    uint64_t infb = sbit | (((1ull << eb) - 1) << fb);
    if (!m) return sbit;
    int top = e + bitlen128(m) - 1; /* exponent of the leading bit */
    int emin = 1 - bias;
    int lsb = top - fb;             /* weight of the last kept bit */
    if (top < emin) { if (ftz) return 0; lsb = emin - fb; }
    unsigned __int128 q; bool inexact_half = false, sticky = false;
    int sh = lsb - e;
    if (sh <= 0) { q = m << (-sh); }
    else if (sh >= 127) { q = 0; inexact_half = false; sticky = m != 0; if (sh == 127) { } }
    else {
        q = m >> sh;
        unsigned __int128 rem = m & (((unsigned __int128)1 << sh) - 1), half = (unsigned __int128)1 << (sh - 1);
        inexact_half = rem >= half; sticky = rem != half && rem != 0;
        if (rn == 1 && (rem > half || (rem == half && (q & 1)))) q++;
        if (rn == 2 && sign && rem) q++; /* toward -inf */
        (void)sticky; (void)inexact_half;
    }
    /* q has fb+1 bits (or fb+2 after a carry, or fewer when subnormal) */
    int lsb2 = lsb;
    if (bitlen128(q) > fb + 1) { q >>= 1; lsb2++; }
    int be = lsb2 + fb + bias; /* biased exponent if normal */
    if (bitlen128(q) <= fb) { /* subnormal */
        if (ftz || !q) return 0;
        return sbit | (uint64_t)q;
    }
    if (be >= (1 << eb) - 1) return infb; /* overflow: infinity, also when truncating */
    return sbit | ((uint64_t)be << fb) | ((uint64_t)q & ((1ull << fb) - 1));
}

struct term { int cls; int sign; unsigned __int128 m; int e; int top; };

/* fused sum of n terms with one rounding: aligned to the largest with F bits below its leading bit */
static void fused(const struct term *t, int n, int *cls, int *sign, unsigned __int128 *mo, int *eo, int *has_inf_sign)
{
    int nan = 0, pinf = 0, ninf = 0;
    int top = -100000;
    for (int i = 0; i < n; ++i) {
        if (t[i].cls == FC_NAN) nan = 1;
        else if (t[i].cls == FC_INF) { if (t[i].sign) ninf = 1; else pinf = 1; }
        else if (t[i].cls == FC_FIN && t[i].m) { int tp = t[i].top; if (tp > top) top = tp; }
    }
    if (nan || (pinf && ninf)) { *cls = FC_NAN; return; }
    if (pinf || ninf) { *cls = FC_INF; *sign = ninf; return; }
    if (top == -100000) { *cls = FC_ZERO; *sign = 0; for (int i = 0; i < n; ++i) if (t[i].cls == FC_ZERO) {} ; return; }
    int L = top - P.F;
    __int128 s = 0;
    for (int i = 0; i < n; ++i) {
        if (t[i].cls != FC_FIN || !t[i].m) continue;
        int sh = t[i].e - L;
        unsigned __int128 v;
        if (sh >= 0) v = t[i].m << sh;
        else if (-sh >= 127) v = P.floor_trunc && t[i].sign ? 1 : 0;
        else {
            v = t[i].m >> (-sh);
            if (P.floor_trunc && t[i].sign && (t[i].m & (((unsigned __int128)1 << (-sh)) - 1))) v++;
        }
        s += t[i].sign ? -(__int128)v : (__int128)v;
    }
    if (s == 0) { *cls = FC_ZERO; *sign = 0; return; }
    *cls = FC_FIN; *sign = s < 0; *mo = (unsigned __int128)(s < 0 ? -s : s); *eo = L;
    (void)has_inf_sign;
}
