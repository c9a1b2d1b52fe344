/*
 * The tensor-core family (issue 25): mma.sync, wmma.load/store/mma, ldmatrix, stmatrix and
 * movmatrix (PTX ISA 9.0, "Warp-level matrix multiply-accumulate instructions" and "Warp Level
 * Matrix Multiply-Accumulate Instructions: wmma"; "Data Movement: ldmatrix, stmatrix, movmatrix").
 *
 * A warp's fragments are gathered into whole matrices (which lane holds which element is the
 * ISA's figures for mma.sync, section "Matrix Fragments for mma.m16n8k*"; for wmma the ISA leaves
 * the fragments' layout unspecified, see below), multiplied in software and scattered back.
 *
 * The arithmetic is the GPU's, bit for bit, as probed on an H200 (sm_90, the H100's tensor cores;
 * docs/probes/kernels/mma, docs/driver-observations.md "Tensor cores"):
 *  - f16, bf16 and tf32 inputs: every product is exact; the products and c are added in one
 *    fused sum in which each term is truncated (toward zero) to 25 bits below the largest
 *    "exponent" among the terms, where a product's exponent is the sum of its factors' exponents
 *    (a subnormal factor counts as the smallest normal exponent) and c's is its own; the sum of
 *    those truncated terms is exact, then rounded once: toward zero to an f32 accumulator, to
 *    nearest even to an f16 one. An overflow gives infinity; an f32 result below the normal range
 *    stays subnormal; a nonzero sum that rounds to zero is +0.
 *  - tf32 inputs are f32 registers of which the low 13 bits are ignored (truncated).
 *  - NaN in any input, inf * 0, or inf - inf: the canonical NaN (0x7fffffff, 0x7fff).
 *  - f64: an IEEE fma per k, in order k = 0, 1, ..., each rounded to nearest.
 *  - e4m3/e5m2 (sm_89 forms, run by sm_90's JIT on f16 tensor cores): every input converted to
 *    f16 (exactly; an e4m3 subnormal becomes a normal f16), then two f16 mma with a zero
 *    accumulator chained, the first over k % 4 = 0, 1 and the second over k % 4 = 2, 3 (the
 *    low and high halves of each register), each the fused sum above (toward zero to f32, to
 *    nearest to f16), then c added by an f32 add (an f16 add for f16 accumulators), rounded to
 *    nearest (docs/probes/kernels/mma-fp8: the SASS, F2FP.F16.E4M3.UNPACK_B, HMMA x2, FADD).
 *  - f16 mma.m8n8k4 (sm_70's quad-pair form, emulated by sm_90's JIT with f32 FMA): f32
 *    accumulators: s = a0 b0 + 0, then s = a_k b_k + s for k = 1, 2, 3, each rounded to nearest
 *    f32, then d = c + s; f16 accumulators: d = f16((c + (a0 b0 + a1 b1)) + (a2 b2 + a3 b3)),
 *    every + rounded to nearest f32, then to nearest f16 (the same probes).
 *  - integers: exact, wrapping to 32 bits, or clamped with .satfinite; b1: popcount of the xor
 *    or the and of the rows and columns.
 *  - mma.sp: the products of A's kept elements (placed by the metadata, sparse_expand) and c,
 *    added as the dense form adds its terms.
 */
#include "kernel.h"
#include "softfloat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- element types ---- */
enum mty { MT_NONE, MT_F16, MT_BF16, MT_TF32, MT_F32, MT_F64, MT_S8, MT_U8, MT_S4, MT_U4, MT_B1, MT_E4M3, MT_E5M2, MT_S32 };
static const char *const mty_names[] = {"", "f16", "bf16", "tf32", "f32", "f64", "s8", "u8",
                                        "s4", "u4", "b1", "e4m3", "e5m2", "s32"};
static unsigned mty_bits(int t)
{
    switch (t) {
    case MT_F16: case MT_BF16: return 16;
    case MT_S8: case MT_U8: case MT_E4M3: case MT_E5M2: return 8;
    case MT_S4: case MT_U4: return 4;
    case MT_B1: return 1;
    case MT_F64: return 64;
    default: return 32;
    }
}
static int mty_of(const char *s, size_t n)
{
    for (int t = 1; t < (int)(sizeof(mty_names) / sizeof(mty_names[0])); ++t)
        if (strlen(mty_names[t]) == n && memcmp(mty_names[t], s, n) == 0)
            return t;
    return MT_NONE;
}

/* ---- the decoded instruction (in->aux) ---- */
enum { MK_MMA, MK_WLOAD, MK_WSTORE, MK_WMMA, MK_LDMATRIX, MK_STMATRIX, MK_MOVMATRIX };
struct mma_aux {
    uint8_t kind;
    uint16_t m, n, k;
    uint8_t ta, tb, tc, td;
    uint8_t na, nb, nc, nd;  /* registers of each operand */
    uint8_t satfinite, bop;  /* bop: 0, 1 xor, 2 and (b1) */
    uint8_t alay, blay;      /* wmma.mma: 0 row, 1 col */
    uint8_t which;           /* wmma.load: 0 a, 1 b, 2 c */
    uint8_t lay;             /* wmma.load/store: 0 row, 1 col */
    uint8_t space;           /* kspace */
    uint8_t num, trans;      /* ldmatrix/stmatrix: matrices (1, 2, 4), .trans */
    kopnd a[8], b[8], c[8], d[8];
    kopnd addr, stride;      /* KOPND_NONE: no stride given */
    int64_t imm;
    /* the fp8 part: mma.sp */
    uint8_t sparse, sel;     /* mma.sp: the sparsity selector */
    uint8_t spunit, spgroups; /* elements per metadata index (2 for 4-bit types), 4-groups per row */
    kopnd meta;              /* the metadata register */
};

/* ---- reading and writing fragments ---- */
/* Element i of a lane's fragment of `nregs` registers of element type t. */
static uint64_t frag_get(struct kwarp *w, const kopnd *regs, int t, uint32_t lane, unsigned i)
{
    unsigned bits = mty_bits(t);
    if (bits == 64)
        return kw_slot(w, regs[i])[lane];
    unsigned per = 32 / bits;
    uint64_t v = kw_slot(w, regs[i / per])[lane] & 0xffffffffu;
    if (bits == 32)
        return v;
    return (v >> ((i % per) * bits)) & ((1ull << bits) - 1);
}
/* Writes element i into a lane's value array (the registers are written at the end, so that a
 * destination may also be a source). */
static void frag_put(uint64_t (*vals)[KLANES], int t, uint32_t lane, unsigned i, uint64_t v)
{
    unsigned bits = mty_bits(t);
    if (bits >= 32) {
        vals[i][lane] = bits == 32 ? (v & 0xffffffffu) : v;
        return;
    }
    unsigned per = 32 / bits, sh = (i % per) * bits;
    uint64_t m = ((1ull << bits) - 1) << sh;
    vals[i / per][lane] = (vals[i / per][lane] & ~m) | ((v << sh) & m);
}

/* ---- the mma.sync fragments (the ISA's figures). E is the elements per 32-bit register (1 for
 * tf32, f32 and f64), g = lane / 4, t = lane % 4; register r, element j of it. ---- */
static unsigned elems_per_reg(int t) { return mty_bits(t) >= 32 ? 1 : 32 / mty_bits(t); }
static void mma_a_pos(unsigned M, unsigned E, uint32_t lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3, r = i / E, j = i % E;
    if (M == 8) {
        *row = g;
        *col = t * E + j;
    } else {
        *row = g + 8 * (r & 1);
        *col = t * E + j + 4 * E * (r >> 1);
    }
}
static void mma_b_pos(unsigned E, uint32_t lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3, r = i / E, j = i % E;
    *row = t * E + j + 4 * E * r;
    *col = g;
}
static void mma_c_pos(unsigned M, uint32_t lane, unsigned i, unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    if (M == 8) {
        *row = g;
        *col = 2 * t + i;
    } else {
        *row = g + 8 * (i >> 1);
        *col = 2 * t + (i & 1);
    }
}

/* ---- floating point ---- */
enum { FC_ZERO, FC_FIN, FC_INF, FC_NAN };
struct fnum {
    int cls, sign;
    uint64_t m; /* value = (-1)^sign m 2^e */
    int e;
    int top;    /* the exponent the alignment counts (a subnormal's: the smallest normal one) */
};

static int bitlen64(uint64_t m)
{
    int n = 0;
    while (m) {
        n++;
        m >>= 1;
    }
    return n;
}

static struct fnum fdecode(int t, uint64_t x)
{
    struct fnum r = {FC_ZERO, 0, 0, 0, 0};
    int eb, fb, bias;
    switch (t) {
    case MT_F16: eb = 5; fb = 10; bias = 15; x &= 0xffff; break;
    case MT_BF16: eb = 8; fb = 7; bias = 127; x &= 0xffff; break;
    case MT_TF32: /* the low 13 bits of the register are ignored */
        x = (x & 0xffffffffu) >> 13;
        eb = 8; fb = 10; bias = 127;
        break;
    case MT_F32: eb = 8; fb = 23; bias = 127; x &= 0xffffffffu; break;
    case MT_E4M3:
        eb = 4; fb = 3; bias = 7; x &= 0xff;
        if ((x & 0x7f) == 0x7f) { /* e4m3 has no infinities; S.1111.111 is NaN */
            r.cls = FC_NAN;
            return r;
        }
        break;
    case MT_E5M2: eb = 5; fb = 2; bias = 15; x &= 0xff; break;
    default: return r;
    }
    r.sign = (int)((x >> (eb + fb)) & 1);
    uint64_t e = (x >> fb) & ((1ull << eb) - 1), f = x & ((1ull << fb) - 1);
    if (t != MT_E4M3 && e == (1ull << eb) - 1) {
        r.cls = f ? FC_NAN : FC_INF;
        return r;
    }
    r.cls = FC_FIN;
    if (e == 0) {
        if (!f) {
            r.cls = FC_ZERO;
            return r;
        }
        r.m = f;
        r.e = 1 - bias - fb;
        r.top = 1 - bias;
        if (t == MT_E4M3) /* a normal f16 once converted (the fp8 mma run on f16 tensor cores) */
            r.top = r.e + bitlen64(f) - 1;
        return r;
    }
    r.m = f | (1ull << fb);
    r.e = (int)e - bias - fb;
    r.top = (int)e - bias;
    return r;
}

/* Rounds (-1)^sign m 2^e (m > 0) to a float of eb exponent and fb fraction bits, toward zero or
 * to nearest even; an overflow is infinity; a result that rounds to zero is +0. */
static uint64_t fencode(int sign, uint64_t m, int e, int eb, int fb, bool rn)
{
    int bias = (1 << (eb - 1)) - 1;
    uint64_t sbit = (uint64_t)sign << (eb + fb), inf = sbit | (((1ull << eb) - 1) << fb);
    int top = e + bitlen64(m) - 1, emin = 1 - bias;
    int lsb = top < emin ? emin - fb : top - fb; /* weight of the last bit kept */
    uint64_t q;
    int sh = lsb - e;
    if (sh <= 0) {
        q = m << -sh;
    } else if (sh >= 64) {
        q = 0;
        if (rn && sh == 64 && m > (1ull << 63))
            q = 1;
    } else {
        q = m >> sh;
        uint64_t rem = m & ((1ull << sh) - 1), half = 1ull << (sh - 1);
        if (rn && (rem > half || (rem == half && (q & 1))))
            q++;
    }
    if (bitlen64(q) > fb + 1) {
        q >>= 1;
        lsb++;
    }
    if (!q)
        return 0;
    if (bitlen64(q) <= fb) /* subnormal */
        return sbit | q;
    int be = lsb + fb + bias;
    if (be >= (1 << eb) - 1)
        return inf;
    return sbit | ((uint64_t)be << fb) | (q & ((1ull << fb) - 1));
}

/* d = sum over k of a[k] b[k], plus c: the fused sum described at the top. */
#define MMA_ALIGN_BITS 25
static uint64_t fdot(unsigned K, const uint64_t *a, int ta, const uint64_t *b, int tb, uint64_t c, int tc, int td)
{
    struct fnum t[257];
    unsigned n = 0;
    bool nan = false, pinf = false, ninf = false, allneg0 = true;
    for (unsigned k = 0; k < K; ++k) {
        struct fnum x = fdecode(ta, a[k]), y = fdecode(tb, b[k]), p = {FC_ZERO, x.sign ^ y.sign, 0, 0, 0};
        if (x.cls == FC_NAN || y.cls == FC_NAN || (x.cls == FC_INF && y.cls == FC_ZERO) ||
            (y.cls == FC_INF && x.cls == FC_ZERO)) {
            nan = true;
        } else if (x.cls == FC_INF || y.cls == FC_INF) {
            if (p.sign)
                ninf = true;
            else
                pinf = true;
        } else if (x.cls == FC_FIN && y.cls == FC_FIN) {
            p.cls = FC_FIN;
            p.m = x.m * y.m; /* at most 22 bits by 22 */
            p.e = x.e + y.e;
            p.top = x.top + y.top;
        }
        if (!(p.cls == FC_ZERO && p.sign))
            allneg0 = false;
        if (p.cls == FC_FIN)
            t[n++] = p;
    }
    struct fnum fc = fdecode(tc, c);
    if (fc.cls == FC_NAN)
        nan = true;
    else if (fc.cls == FC_INF && fc.sign)
        ninf = true;
    else if (fc.cls == FC_INF)
        pinf = true;
    else if (fc.cls == FC_FIN)
        t[n++] = fc;
    if (!(fc.cls == FC_ZERO && fc.sign))
        allneg0 = false;
    int eb = td == MT_F16 ? 5 : 8, fb = td == MT_F16 ? 10 : 23;
    uint64_t sbit0 = 1ull << (eb + fb);
    if (nan || (pinf && ninf))
        return td == MT_F16 ? 0x7fff : 0x7fffffff;
    if (pinf || ninf)
        return (ninf ? sbit0 : 0) | (((1ull << eb) - 1) << fb);
    if (n == 0) /* every term zero: the sum is a zero, negative only if all were */
        return allneg0 ? sbit0 : 0;
    int T = INT32_MIN;
    for (unsigned i = 0; i < n; ++i)
        if (t[i].top > T)
            T = t[i].top;
    int L = T - MMA_ALIGN_BITS;
    int64_t s = 0;
    for (unsigned i = 0; i < n; ++i) {
        int sh = t[i].e - L; /* at most 25 + 2: the terms stay below 2^50 */
        uint64_t v = sh >= 0 ? t[i].m << sh : (-sh >= 64 ? 0 : t[i].m >> -sh);
        s += t[i].sign ? -(int64_t)v : (int64_t)v;
    }
    if (s == 0)
        return allneg0 ? sbit0 : 0;
    return fencode(s < 0, s < 0 ? (uint64_t)-s : (uint64_t)s, L, eb, fb, td == MT_F16);
}

/* f64: an fma per k in order, with the engine's NaN rules for fma.rn.f64 (docs/kernels.md): a NaN
 * operand's payload, quieted (b, then a, then c); an invalid operation gives 0xfff8000000000000. */
static uint64_t fma64_bits(uint64_t a, uint64_t b, uint64_t c)
{
    double x = kf64(a), y = kf64(b), z = kf64(c);
    if (y != y)
        return b | 0x0008000000000000ull;
    if (x != x)
        return a | 0x0008000000000000ull;
    if (z != z)
        return c | 0x0008000000000000ull;
    uint64_t soft;
#if defined(_WIN32)
    /* mingw-w64's fma() is not exact under wine (ops_float.c, SOFT_FMA64) */
    if (ksf_fma64(a, b, c, KSF_RN, &soft))
        return soft;
#else
    (void)soft;
#endif
    double r = fma(x, y, z);
    if (r != r)
        return 0xfff8000000000000ull;
    return kbits64(r);
}

/* x + y rounded to nearest f32, both f32 values held in doubles (infinities and NaN as IEEE
 * says; the caller makes NaN canonical). */
static double add32(double x, double y)
{
    double s = x + y;
    if (s != s || isinf(s) || s == 0)
        return s;
    double hi, lo;
    ksf_two_sum(x, y, &hi, &lo);
    return (double)kf32(ksf_from_double(&ksf_f32, ksf_round_odd(hi, lo), KSF_RN));
}
/* c + t as the GPU's FADD (f32) or HADD2 (f16) computes it: rounded to nearest, NaN canonical. */
static uint64_t add_rn(uint64_t c, uint64_t t, int td)
{
    const struct ksf_fmt *f = td == MT_F16 ? &ksf_f16 : &ksf_f32;
    uint64_t nan = td == MT_F16 ? 0x7fff : 0x7fffffff;
    if (ksf_is_nan(f, c) || ksf_is_nan(f, t))
        return nan;
    double x = ksf_to_double(f, c), y = ksf_to_double(f, t);
    double s = td == MT_F16 ? x + y : add32(x, y); /* two f16 add exactly in a double */
    if (s != s)
        return nan;
    return ksf_from_double(f, s, KSF_RN);
}
/* e4m3/e5m2: two chained f16 mma over k % 4 = 0, 1 and k % 4 = 2, 3 from a zero accumulator,
 * then + c (the top of the file). */
static uint64_t fdot_f8(unsigned K, const uint64_t *a, int ta, const uint64_t *b, int tb, uint64_t c, int td)
{
    uint64_t lo_a[16], lo_b[16], hi_a[16], hi_b[16];
    unsigned nl = 0, nh = 0;
    for (unsigned k = 0; k < K; ++k) {
        if (k & 2) {
            hi_a[nh] = a[k];
            hi_b[nh++] = b[k];
        } else {
            lo_a[nl] = a[k];
            lo_b[nl++] = b[k];
        }
    }
    uint64_t t = fdot(nl, lo_a, ta, lo_b, tb, 0, td, td);
    t = fdot(nh, hi_a, ta, hi_b, tb, t, td, td);
    return add_rn(c, t, td);
}

/* f16 mma.m8n8k4: one element of a quad pair's D from row a, column b and c (the top of the
 * file). */
static uint64_t fdot_884(const uint64_t *a, const uint64_t *b, uint64_t c, int tc, int td)
{
    double p[4], s;
    bool nan = false;
    for (unsigned k = 0; k < 4; ++k) {
        if (ksf_is_nan(&ksf_f16, a[k]) || ksf_is_nan(&ksf_f16, b[k]))
            nan = true;
        p[k] = ksf_to_double(&ksf_f16, a[k]) * ksf_to_double(&ksf_f16, b[k]); /* exact */
    }
    double cv = tc == MT_F16 ? ksf_to_double(&ksf_f16, c) : (double)kf32((uint32_t)c);
    if (nan || (tc == MT_F16 ? ksf_is_nan(&ksf_f16, c) : ksf_is_nan(&ksf_f32, c)))
        return td == MT_F16 ? 0x7fff : 0x7fffffff;
    if (td == MT_F32) {
        s = add32(p[0], 0.0);
        for (unsigned k = 1; k < 4; ++k)
            s = add32(p[k], s);
        s = add32(cv, s);
    } else {
        s = add32(add32(cv, add32(p[1], p[0])), add32(p[3], p[2]));
    }
    if (s != s)
        return td == MT_F16 ? 0x7fff : 0x7fffffff;
    return ksf_from_double(td == MT_F16 ? &ksf_f16 : &ksf_f32, s, KSF_RN);
}

/* ---- integers ---- */
static int64_t ival(int t, uint64_t v)
{
    switch (t) {
    case MT_S8: return (int8_t)(uint8_t)v;
    case MT_S4: return (v & 8) ? (int64_t)(v & 15) - 16 : (int64_t)(v & 15);
    default: return (int64_t)v;
    }
}

/* ---- mma.sync and wmma.mma: D = A B + C on whole matrices ---- */
struct mats {
    uint64_t A[16 * 256], B[256 * 32], C[32 * 32], D[32 * 32]; /* A[r * K + k], B[k * N + n], C[r * N + n] */
    uint8_t Apresent[16 * 256]; /* mma.sp: which elements of A are kept (the others take no part) */
};

static void compute(const struct mma_aux *x, struct mats *s)
{
    unsigned M = x->m, N = x->n, K0 = x->k;
    uint64_t bcol[256];
    for (unsigned r = 0; r < M; ++r) {
        for (unsigned n = 0; n < N; ++n) {
            unsigned K = K0;
            uint64_t c = s->C[r * N + n], d;
            const uint64_t *arow = &s->A[r * K];
            for (unsigned k = 0; k < K; ++k)
                bcol[k] = s->B[k * N + n];
            uint64_t acomp[128];
            if (x->sparse) { /* mma.sp: the kept elements of A and their rows of B only */
                unsigned kc = 0;
                for (unsigned k = 0; k < K; ++k)
                    if (s->Apresent[r * K + k]) {
                        acomp[kc] = arow[k];
                        bcol[kc++] = s->B[k * N + n];
                    }
                arow = acomp;
                K = kc;
            }
            if (x->ta == MT_F64) {
                d = c;
                for (unsigned k = 0; k < K; ++k)
                    d = fma64_bits(arow[k], bcol[k], d);
            } else if (x->ta == MT_B1) {
                int64_t acc = (int32_t)(uint32_t)c;
                for (unsigned k = 0; k < K; ++k)
                    acc += x->bop == 2 ? (arow[k] & bcol[k] & 1) : ((arow[k] ^ bcol[k]) & 1);
                d = (uint32_t)acc;
            } else if (x->td == MT_S32) {
                int64_t acc = (int32_t)(uint32_t)c;
                for (unsigned k = 0; k < K; ++k)
                    acc += ival(x->ta, arow[k]) * ival(x->tb, bcol[k]);
                if (x->satfinite)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                d = (uint32_t)acc;
            } else if (x->ta == MT_E4M3 || x->ta == MT_E5M2) {
                d = fdot_f8(K, arow, x->ta, bcol, x->tb, c, x->td);
            } else if (x->kind == MK_WMMA && x->ta == MT_TF32) {
                /* wmma.mma's m16n16k8 on .tf32 adds k = 0..3, then k = 4..7 to that (an f32 in
                 * between), as two m16n8k4 would (probed: tests/cuda/wmma.expected) */
                d = fdot(4, arow, x->ta, bcol, x->tb, c, x->tc, MT_F32);
                d = fdot(K - 4, arow + 4, x->ta, bcol + 4, x->tb, d, MT_F32, x->td);
            } else {
                d = fdot(K, arow, x->ta, bcol, x->tb, c, x->tc, x->td);
            }
            s->D[r * N + n] = d;
        }
    }
}

static void write_regs(struct kwarp *w, const kopnd *regs, unsigned nregs, uint64_t (*vals)[KLANES], uint32_t mask)
{
    for (unsigned i = 0; i < nregs; ++i) {
        uint64_t *d = kw_slot(w, regs[i]);
        KFOR_LANES(mask, l) d[l] = vals[i][l];
    }
}

/* mma.sp (PTX ISA 9.0, "Sparse matrix multiply-accumulate", 2:4 structured sparsity): A's
 * fragment holds the K/2 kept elements of each row (the layout of a dense A of K/2 columns);
 * the metadata gives, for each group of 4 columns of the full row, the two indices (2 bits each,
 * low one first) of the kept elements, 4 bits per group, groups in order from bit 0. For 4-bit
 * types the unit is a pair of elements. Whose metadata register holds row r's group G (fitted on
 * the H100, docs/probes/kernels/mma-fp8): f16 and bf16 (NG = 4 or 8 groups a row): lane
 * 4 (r % 8) + G / 4 + sel NG / 4, bits 16 (r >= 8) + 4 (G % 4); 8-bit m16n8k32 and 4-bit m16n8k64
 * (8 groups): lane 4 (r % 8) + (r >= 8) + 2 sel, bits 4 G; 8-bit m16n8k64 (16 groups): lane
 * 4 (r % 8) + (r >= 8) + 2 (G >= 8), bits 4 (G % 8).
 * The products of the kept elements and c are then added as a dense mma adds its terms: the
 * compressed A is expanded into a dense one here, with the other elements absent (s->Apresent). */
static void sparse_expand(struct kwarp *w, const struct mma_aux *x, struct mats *s)
{
    unsigned K = x->k, Kc = K / 2, u = x->spunit, NG = x->spgroups;
    uint64_t comp[16 * 32]; /* K is at most 64 */
    memcpy(comp, s->A, sizeof(uint64_t) * 16 * Kc);
    memset(s->A, 0, sizeof(uint64_t) * 16 * K);
    memset(s->Apresent, 0, sizeof(s->Apresent));
    const uint64_t *meta = kw_slot(w, x->meta);
    for (unsigned r = 0; r < 16; ++r)
        for (unsigned c = 0; c < Kc; ++c) {
            unsigned uc = c / u, G = uc / 2, pos = uc % 2, lane, sh;
            if (mty_bits(x->ta) == 16) { /* f16, bf16: 4 or 8 groups a row */
                lane = 4 * (r % 8) + G / 4 + x->sel * (NG / 4);
                sh = 16 * (r >= 8) + 4 * (G % 4) + 2 * pos;
            } else if (NG == 8) { /* 8-bit m16n8k32, 4-bit m16n8k64 */
                lane = 4 * (r % 8) + (r >= 8) + 2u * x->sel;
                sh = 4 * G + 2 * pos;
            } else { /* 8-bit m16n8k64: 16 groups a row */
                lane = 4 * (r % 8) + (r >= 8) + 2 * (G >= 8);
                sh = 4 * (G % 8) + 2 * pos;
            }
            unsigned idx = (unsigned)(meta[lane] >> sh) & 3;
            unsigned k = u * (4 * G + idx) + c % u;
            s->A[r * K + k] = comp[r * Kc + c];
            s->Apresent[r * K + k] = 1;
        }
}

static void mma_run(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct mma_aux *x = in->aux;
    struct mats *s = malloc(sizeof(*s));
    if (!s) {
        kfault(w, in, (uint32_t)kctz(mask), CUDA_ERROR_OUT_OF_MEMORY, "no memory for the matrices of '%s'", in->name);
        return;
    }
    unsigned M = x->m, N = x->n, K = x->k;
    unsigned Ea = elems_per_reg(x->ta), Eb = elems_per_reg(x->tb);
    unsigned ce = mty_bits(x->tc) == 16 ? 2 * x->nc : x->nc, de = mty_bits(x->td) == 16 ? 2 * x->nd : x->nd;
    /* Every lane's fragments take part, as on the GPU (.aligned: all lanes execute it). */
    unsigned Ka = x->sparse ? K / 2 : K; /* mma.sp: A's kept elements, K / 2 a row */
    for (uint32_t l = 0; l < KLANES; ++l) {
        unsigned r, c;
        for (unsigned i = 0; i < x->na * Ea; ++i) {
            mma_a_pos(M, Ea, l, i, &r, &c);
            s->A[r * Ka + c] = frag_get(w, x->a, x->ta, l, i);
        }
        for (unsigned i = 0; i < x->nb * Eb; ++i) {
            mma_b_pos(Eb, l, i, &r, &c);
            s->B[r * N + c] = frag_get(w, x->b, x->tb, l, i);
        }
        for (unsigned i = 0; i < ce; ++i) {
            mma_c_pos(M, l, i, &r, &c);
            s->C[r * N + c] = frag_get(w, x->c, x->tc, l, i);
        }
    }
    if (x->sparse)
        sparse_expand(w, x, s);
    compute(x, s);
    uint64_t vals[8][KLANES];
    memset(vals, 0, sizeof(vals));
    for (uint32_t l = 0; l < KLANES; ++l)
        for (unsigned i = 0; i < de; ++i) {
            unsigned r, c;
            mma_c_pos(M, l, i, &r, &c);
            frag_put(vals, x->td, l, i, s->D[r * N + c]);
        }
    write_regs(w, x->d, x->nd, vals, mask);
    free(s);
}

/* ---- f16 mma.m8n8k4 (PTX ISA 9.0, "Matrix Fragments for mma.m8n8k4 with .f16 floating point
 * type"): quad pair q (q = 0..3) is lanes 4q..4q+3 and 4q+16..4q+19, and multiplies its own 8x8x4
 * matrices. Its lane of index t = lane % 4 + 4 (lane >= 16) holds: of A, row t (.row) or column
 * t % 4, rows 4 (t / 4) .. +3 (.col), one element per k; of B, column t (.col) or row t % 4,
 * columns 4 (t / 4) .. +3 (.row); of an f16 C or D, row t; of an f32 C or D, element i at row
 * (t & 1) + (i & 2) + 4 (t / 4), column (i & 1) + (t & 2) + 4 (i / 4). ---- */
static void m884_cpos(bool f32, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
    if (!f32) {
        *row = t;
        *col = i;
    } else {
        *row = (t & 1) + (i & 2) + 4 * (t >> 2);
        *col = (i & 1) + (t & 2) + 4 * (i >> 2);
    }
}
static void mma884_run(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct mma_aux *x = in->aux;
    uint64_t vals[8][KLANES];
    memset(vals, 0, sizeof(vals));
    for (unsigned q = 0; q < 4; ++q) {
        uint64_t A[8][4], B[4][8], C[8][8];
        for (unsigned t = 0; t < 8; ++t) {
            uint32_t lane = (t & 3) + 4 * q + 16 * (t >> 2);
            for (unsigned i = 0; i < 4; ++i) {
                if (x->alay == 0)
                    A[t][i] = frag_get(w, x->a, MT_F16, lane, i);
                else
                    A[4 * (t >> 2) + i][t & 3] = frag_get(w, x->a, MT_F16, lane, i);
                if (x->blay == 1)
                    B[i][t] = frag_get(w, x->b, MT_F16, lane, i);
                else
                    B[t & 3][4 * (t >> 2) + i] = frag_get(w, x->b, MT_F16, lane, i);
            }
            for (unsigned i = 0; i < 8; ++i) {
                unsigned r, c;
                m884_cpos(x->tc == MT_F32, t, i, &r, &c);
                C[r][c] = frag_get(w, x->c, x->tc, lane, i);
            }
        }
        for (unsigned t = 0; t < 8; ++t) {
            uint32_t lane = (t & 3) + 4 * q + 16 * (t >> 2);
            for (unsigned i = 0; i < 8; ++i) {
                unsigned r, c;
                m884_cpos(x->td == MT_F32, t, i, &r, &c);
                uint64_t bcol[4] = {B[0][c], B[1][c], B[2][c], B[3][c]};
                frag_put(vals, x->td, lane, i, fdot_884(A[r], bcol, C[r][c], x->tc, x->td));
            }
        }
    }
    write_regs(w, x->d, x->nd, vals, mask);
}

/* ---- wmma: the fragments' layout is the software device's own (the ISA leaves it unspecified:
 * "the mapping of matrix elements into fragments is unspecified"). Lane l holds fragment elements
 * l * E .. l * E + E - 1 of the matrix in the order of its layout in memory (row after row for
 * .row, column after column for .col; accumulators always row after row), so that each lane's
 * registers are consecutive in memory; where a fragment has more elements than the matrix (f16's
 * A and B: 16 per lane for 256), the matrix repeats. Accesses are made a register at a time for
 * loads (4 bytes; f64 8) and two registers at a time for stores (8 bytes), which is where the GPU
 * faults on a misaligned address (docs/probes/kernels/mma: wmma.load.a.f16 at +2 faults, at +4
 * does not; wmma.store.d.f32 at +4 faults, at +8 does not). ---- */
static void wmma_dims(const struct mma_aux *x, unsigned which, unsigned *rows, unsigned *cols)
{
    if (which == 0) {
        *rows = x->m;
        *cols = x->k;
    } else if (which == 1) {
        *rows = x->k;
        *cols = x->n;
    } else {
        *rows = x->m;
        *cols = x->n;
    }
}
/* Fragment element q's place in the matrix. */
static void wmma_pos(unsigned rows, unsigned cols, bool colmajor, unsigned q, unsigned *r, unsigned *c)
{
    q %= rows * cols;
    if (colmajor) {
        *r = q % rows;
        *c = q / rows;
    } else {
        *r = q / cols;
        *c = q % cols;
    }
}

static void wmma_mem(struct kwarp *w, const struct kinsn *in, uint32_t mask, bool store)
{
    const struct mma_aux *x = in->aux;
    unsigned which = store ? 2 : x->which;
    int t = which == 0 ? x->ta : which == 1 ? x->tb : x->tc;
    unsigned nregs = which == 0 ? x->na : which == 1 ? x->nb : x->nc;
    unsigned rows, cols;
    wmma_dims(x, which, &rows, &cols);
    bool colmajor = x->lay == 1;
    unsigned bits = mty_bits(t), E = nregs * (bits == 64 ? 1 : 32 / bits);
    const uint64_t *base = kw_slot(w, x->addr), *st = x->stride != KOPND_NONE ? kw_slot(w, x->stride) : NULL;
    uint64_t vals[8][KLANES];
    memset(vals, 0, sizeof(vals));
    /* registers per access: one for loads (two halves, four bytes ...), two for stores */
    unsigned per_access = store && bits != 64 ? 2 : 1;
    unsigned epr = bits == 64 ? 1 : 32 / bits;         /* elements per register */
    unsigned chunk = per_access * epr;                  /* elements per access, consecutive in memory */
    unsigned abytes = bits == 64 ? 8 : 4 * per_access;  /* bytes per access */
    /* An accumulator's fragment is in row order whatever its layout in memory: stored in columns,
     * its elements are accessed one by one. */
    bool frag_col = which == 2 ? false : colmajor;
    if (which == 2 && colmajor) {
        chunk = 1;
        abytes = bits / 8;
    }
    KFOR_LANES(mask, l)
    {
        uint64_t ld = st ? (uint32_t)st[l] : (colmajor ? rows : cols); /* the stride, in elements */
        uint64_t a0 = base[l] + (uint64_t)x->imm;
        for (unsigned i0 = 0; i0 < E; i0 += chunk) {
            unsigned r, c;
            wmma_pos(rows, cols, frag_col, l * E + i0, &r, &c);
            uint64_t outer = colmajor ? c : r, inner = colmajor ? r : c;
            uint64_t bitoff = (outer * ld + inner) * bits;
            uint64_t addr = a0 + bitoff / 8;
            unsigned char *p = kmem(w, in, l, (kspace)x->space, addr, abytes, store);
            if (!p)
                return;
            for (unsigned j = 0; j < chunk && i0 + j < E; ++j) {
                if (store) {
                    uint64_t v = frag_get(w, x->c, t, l, i0 + j);
                    if (bits >= 8) {
                        memcpy(p + j * (bits / 8), &v, bits / 8); /* little-endian hosts */
                    } else {
                        unsigned bo = j * bits;
                        p[bo / 8] = (unsigned char)((p[bo / 8] & ~(((1u << bits) - 1) << (bo % 8))) |
                                                    ((v & ((1u << bits) - 1)) << (bo % 8)));
                    }
                } else {
                    uint64_t v = 0;
                    if (bits >= 8) {
                        memcpy(&v, p + j * (bits / 8), bits / 8);
                    } else {
                        unsigned bo = j * bits;
                        v = (p[bo / 8] >> (bo % 8)) & ((1u << bits) - 1);
                    }
                    frag_put(vals, t, l, i0 + j, v);
                }
            }
        }
    }
    if (!store)
        write_regs(w, x->d, nregs, vals, mask);
}
static void wmma_load_run(struct kwarp *w, const struct kinsn *in, uint32_t mask) { wmma_mem(w, in, mask, false); }
static void wmma_store_run(struct kwarp *w, const struct kinsn *in, uint32_t mask) { wmma_mem(w, in, mask, true); }

static void wmma_mma_run(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct mma_aux *x = in->aux;
    struct mats *s = malloc(sizeof(*s));
    if (!s) {
        kfault(w, in, (uint32_t)kctz(mask), CUDA_ERROR_OUT_OF_MEMORY, "no memory for the matrices of '%s'", in->name);
        return;
    }
    unsigned M = x->m, N = x->n, K = x->k;
    unsigned Ea = x->na * elems_per_reg(x->ta), Eb = x->nb * elems_per_reg(x->tb);
    unsigned Ec = mty_bits(x->tc) == 16 ? 2 * x->nc : x->nc, Ed = mty_bits(x->td) == 16 ? 2 * x->nd : x->nd;
    if (x->ta == MT_F64)
        Ea = x->na, Eb = x->nb;
    /* Later lanes' copies of a repeated element are the same as the first ones' after a
     * wmma.load; the first lanes' are used. */
    for (uint32_t l = KLANES; l-- > 0;) {
        unsigned r, c;
        for (unsigned i = Ea; i-- > 0;) {
            wmma_pos(M, K, x->alay == 1, l * Ea + i, &r, &c);
            s->A[r * K + c] = frag_get(w, x->a, x->ta, l, i);
        }
        for (unsigned i = Eb; i-- > 0;) {
            wmma_pos(K, N, x->blay == 1, l * Eb + i, &r, &c);
            s->B[r * N + c] = frag_get(w, x->b, x->tb, l, i);
        }
        for (unsigned i = 0; i < Ec; ++i) {
            wmma_pos(M, N, false, l * Ec + i, &r, &c);
            s->C[r * N + c] = frag_get(w, x->c, x->tc, l, i);
        }
    }
    compute(x, s);
    uint64_t vals[8][KLANES];
    memset(vals, 0, sizeof(vals));
    for (uint32_t l = 0; l < KLANES; ++l)
        for (unsigned i = 0; i < Ed; ++i) {
            unsigned r, c;
            wmma_pos(M, N, false, l * Ed + i, &r, &c);
            frag_put(vals, x->td, l, i, s->D[r * N + c]);
        }
    write_regs(w, x->d, x->nd, vals, mask);
    free(s);
}

/* ---- ldmatrix, stmatrix, movmatrix: 8x8 matrices of 16-bit elements; matrix i's row r is at the
 * address lane 8 i + r gives; lane l's register i holds row l / 4, elements 2 (l % 4) and
 * 2 (l % 4) + 1 (the low half first), or with .trans column l / 4, rows 2 (l % 4) and
 * 2 (l % 4) + 1. Each row is one 16-byte access, which must be aligned to 16 bytes (the GPU
 * faults at +2, +4 and +8). ---- */
static void ldmatrix_run(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct mma_aux *x = in->aux;
    const uint64_t *base = kw_slot(w, x->addr);
    uint16_t mat[4][8][8];
    for (unsigned i = 0; i < x->num; ++i)
        for (unsigned r = 0; r < 8; ++r) {
            uint32_t lane = 8 * i + r;
            const unsigned char *p = kmem(w, in, lane, (kspace)x->space, base[lane] + (uint64_t)x->imm, 16, false);
            if (!p)
                return;
            memcpy(mat[i][r], p, 16);
        }
    uint64_t vals[8][KLANES];
    memset(vals, 0, sizeof(vals));
    for (uint32_t l = 0; l < KLANES; ++l)
        for (unsigned i = 0; i < x->num; ++i) {
            unsigned a = l / 4, b = 2 * (l % 4);
            uint16_t lo = x->trans ? mat[i][b][a] : mat[i][a][b], hi = x->trans ? mat[i][b + 1][a] : mat[i][a][b + 1];
            vals[i][l] = (uint64_t)lo | (uint64_t)hi << 16;
        }
    write_regs(w, x->d, x->num, vals, mask);
}

static void stmatrix_run(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct mma_aux *x = in->aux;
    (void)mask;
    const uint64_t *base = kw_slot(w, x->addr);
    uint16_t mat[4][8][8];
    for (uint32_t l = 0; l < KLANES; ++l)
        for (unsigned i = 0; i < x->num; ++i) {
            uint32_t v = (uint32_t)kw_slot(w, x->a[i])[l];
            unsigned a = l / 4, b = 2 * (l % 4);
            if (x->trans) {
                mat[i][b][a] = (uint16_t)v;
                mat[i][b + 1][a] = (uint16_t)(v >> 16);
            } else {
                mat[i][a][b] = (uint16_t)v;
                mat[i][a][b + 1] = (uint16_t)(v >> 16);
            }
        }
    for (unsigned i = 0; i < x->num; ++i)
        for (unsigned r = 0; r < 8; ++r) {
            uint32_t lane = 8 * i + r;
            unsigned char *p = kmem(w, in, lane, (kspace)x->space, base[lane] + (uint64_t)x->imm, 16, true);
            if (!p)
                return;
            memcpy(p, mat[i][r], 16);
        }
}

static void movmatrix_run(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    const struct mma_aux *x = in->aux;
    const uint64_t *a = kw_slot(w, x->a[0]);
    uint16_t mat[8][8];
    for (uint32_t l = 0; l < KLANES; ++l) {
        mat[l / 4][2 * (l % 4)] = (uint16_t)a[l];
        mat[l / 4][2 * (l % 4) + 1] = (uint16_t)(a[l] >> 16);
    }
    uint64_t *d = kw_slot(w, x->d[0]);
    KFOR_LANES(mask, l)
    {
        unsigned r = l / 4, c = 2 * (l % 4);
        d[l] = (uint64_t)mat[c][r] | (uint64_t)mat[c + 1][r] << 16;
    }
}

/* ---- lowering ---- */
/* The suffixes of p->text, in order (the parser keeps types and modifiers apart). */
struct sfx {
    unsigned n;
    const char *s[24];
    size_t len[24];
};
static void split_text(const char *text, struct sfx *f)
{
    f->n = 0;
    const char *p = strchr(text, '.');
    while (p && f->n < 24) {
        const char *q = strchr(p + 1, '.');
        f->s[f->n] = p + 1;
        f->len[f->n] = q ? (size_t)(q - p - 1) : strlen(p + 1);
        f->n++;
        p = q;
    }
}
static bool sfx_is(const struct sfx *f, unsigned i, const char *s)
{
    return i < f->n && strlen(s) == f->len[i] && memcmp(f->s[i], s, f->len[i]) == 0;
}

static bool new_aux(struct klower *lw, struct kinsn *in, struct mma_aux **out)
{
    struct mma_aux *x = calloc(1, sizeof(*x));
    if (!x)
        return kl_refuse(lw, "out of memory");
    x->stride = KOPND_NONE;
    in->aux = x;
    in->flags |= KF_OWNS_AUX;
    in->kind = KK_OP;
    *out = x;
    return true;
}

/* A vector operand of exactly n registers of `bytes` bytes each (KT_NONE: any). */
static bool vec_regs(struct klower *lw, const struct kparsed *p, uint32_t i, unsigned n, unsigned bytes, bool dst,
                     kopnd *out, const char *what)
{
    if (i >= p->nops)
        return kl_refuse(lw, "'%s' needs more operands", p->text);
    const struct kparsed_op *op = &p->ops[i];
    if (op->kind == KO_REG && n == 1) {
        if (ktype_size(op->type) != bytes)
            return kl_refuse(lw, "'%s': %s must be a %u-bit register", p->text, what, bytes * 8);
        out[0] = op->slot;
        return true;
    }
    if (op->kind != KO_VEC || op->nvec != n)
        return kl_refuse(lw, "'%s': %s must be a vector of %u registers", p->text, what, n);
    for (unsigned k = 0; k < n; ++k) {
        if (op->vec[k] == KOPND_NONE) {
            if (!dst)
                return kl_refuse(lw, "'%s': '_' in %s", p->text, what);
            out[k] = KOPND_REG(kfunc_new_reg(lw->ps));
            continue;
        }
        if (op->vec_type[k] == KT_NONE || ktype_size(op->vec_type[k]) != bytes)
            return kl_refuse(lw, "'%s': the registers of %s must be %u-bit registers", p->text, what, bytes * 8);
        out[k] = op->vec[k];
    }
    return true;
}

/* mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype{.op} d, a, b, c
 * mma.sync.aligned.m8n8k4.alayout.blayout.dtype.f16.f16.ctype d, a, b, c
 * mma.sp{::ordered_metadata}.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype d, a, b, c, e, f */
struct mma_form {
    const char *shape;
    uint16_t m, n, k;
    uint8_t ab;   /* the input types it takes: see mma_ab_ok */
    uint8_t na, nb, nc; /* registers of A and B, accumulator elements (32-bit) per lane */
};
enum { AB_F16, AB_BF16, AB_TF32, AB_F64, AB_I8, AB_I4, AB_B1, AB_F8 };
static const struct mma_form mma_forms[] = {
    {"m16n8k8", 16, 8, 8, AB_F16, 2, 1, 4},   {"m16n8k16", 16, 8, 16, AB_F16, 4, 2, 4},
    {"m16n8k8", 16, 8, 8, AB_BF16, 2, 1, 4},  {"m16n8k16", 16, 8, 16, AB_BF16, 4, 2, 4},
    {"m16n8k4", 16, 8, 4, AB_TF32, 2, 1, 4},  {"m16n8k8", 16, 8, 8, AB_TF32, 4, 2, 4},
    {"m8n8k4", 8, 8, 4, AB_F64, 1, 1, 2},     {"m16n8k4", 16, 8, 4, AB_F64, 2, 1, 4},
    {"m16n8k8", 16, 8, 8, AB_F64, 4, 2, 4},   {"m16n8k16", 16, 8, 16, AB_F64, 8, 4, 4},
    {"m8n8k16", 8, 8, 16, AB_I8, 1, 1, 2},    {"m16n8k16", 16, 8, 16, AB_I8, 2, 1, 4},
    {"m16n8k32", 16, 8, 32, AB_I8, 4, 2, 4},  {"m8n8k32", 8, 8, 32, AB_I4, 1, 1, 2},
    {"m16n8k32", 16, 8, 32, AB_I4, 2, 1, 4},  {"m16n8k64", 16, 8, 64, AB_I4, 4, 2, 4},
    {"m8n8k128", 8, 8, 128, AB_B1, 1, 1, 2},  {"m16n8k128", 16, 8, 128, AB_B1, 2, 1, 4},
    {"m16n8k256", 16, 8, 256, AB_B1, 4, 2, 4}, {"m16n8k32", 16, 8, 32, AB_F8, 4, 2, 4},
    /* the fp8 part (issue 25) */
    {"m16n8k16", 16, 8, 16, AB_F8, 2, 1, 4},   {"m8n8k4", 8, 8, 4, AB_F16, 2, 2, 8},
};
/* mma.sp: (shape, types) -> registers of A (the kept half), B, accumulator elements; and the
 * largest sparsity selector ptxas takes for each */
static const struct mma_form mma_sp_forms[] = {
    {"m16n8k16", 16, 8, 16, AB_F16, 2, 2, 4},  {"m16n8k32", 16, 8, 32, AB_F16, 4, 4, 4},
    {"m16n8k16", 16, 8, 16, AB_BF16, 2, 2, 4}, {"m16n8k32", 16, 8, 32, AB_BF16, 4, 4, 4},
    {"m16n8k32", 16, 8, 32, AB_I8, 2, 2, 4},   {"m16n8k64", 16, 8, 64, AB_I8, 4, 4, 4},
    {"m16n8k64", 16, 8, 64, AB_I4, 2, 2, 4},
};
static const uint8_t mma_sp_selmax[] = {3, 1, 3, 1, 1, 0, 1};
static int ab_class(int t)
{
    switch (t) {
    case MT_F16: return AB_F16;
    case MT_BF16: return AB_BF16;
    case MT_TF32: return AB_TF32;
    case MT_F64: return AB_F64;
    case MT_S8: case MT_U8: return AB_I8;
    case MT_S4: case MT_U4: return AB_I4;
    case MT_B1: return AB_B1;
    case MT_E4M3: case MT_E5M2: return AB_F8;
    default: return -1;
    }
}

static bool lower_mma(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    struct sfx f;
    split_text(p->text, &f);
    unsigned i = 0;
    bool sparse = sfx_is(&f, 0, "sp") || sfx_is(&f, 0, "sp::ordered_metadata");
    if (sparse)
        i++;
    if (!sfx_is(&f, i++, "sync") || !sfx_is(&f, i++, "aligned"))
        return kl_refuse(lw, "'%s': the form is mma{.sp}.sync.aligned.shape...", p->text);
    if (i >= f.n)
        return kl_refuse(lw, "'%s': a shape is required", p->text);
    const char *shape = f.s[i];
    size_t shape_len = f.len[i++];
    /* .alayout.blayout: .row.col, or any of .row and .col for f16 m8n8k4 (checked below) */
    int alay = sfx_is(&f, i, "row") ? 0 : sfx_is(&f, i, "col") ? 1 : -1;
    int blay = sfx_is(&f, i + 1, "row") ? 0 : sfx_is(&f, i + 1, "col") ? 1 : -1;
    if (alay < 0 || blay < 0)
        return kl_refuse(lw, "'%s': mma.sync takes .row.col (A row-major, B column-major)", p->text);
    i += 2;
    struct mma_aux *x = NULL;
    int sat = 0;
    if (sfx_is(&f, i, "satfinite")) {
        sat = 1;
        i++;
    }
    int ty[4];
    for (unsigned k = 0; k < 4; ++k, ++i) {
        ty[k] = i < f.n ? mty_of(f.s[i], f.len[i]) : MT_NONE;
        if (ty[k] == MT_NONE)
            return kl_refuse(lw, "'%s': mma.sync needs four types (.dtype.atype.btype.ctype)", p->text);
    }
    int bop = 0;
    if (sfx_is(&f, i, "xor") && sfx_is(&f, i + 1, "popc")) {
        bop = 1;
        i += 2;
    } else if (sfx_is(&f, i, "and") && sfx_is(&f, i + 1, "popc")) {
        bop = 2;
        i += 2;
    }
    bool rn = false;
    if (sfx_is(&f, i, "rn")) { /* f64's only rounding */
        rn = true;
        i++;
    }
    if (i != f.n)
        return kl_refuse(lw, "'%s': unexpected modifier '.%.*s' for mma.sync", p->text, (int)f.len[i], f.s[i]);
    int td = ty[0], ta = ty[1], tb = ty[2], tc = ty[3];
    int cls = ab_class(ta);
    if (cls < 0 || ab_class(tb) != cls)
        return kl_refuse(lw, "'%s': .%s and .%s are not a pair of mma.sync input types", p->text, mty_names[ta],
                         mty_names[tb]);
    if ((cls == AB_F16 || cls == AB_BF16 || cls == AB_TF32 || cls == AB_F64) && ta != tb)
        return kl_refuse(lw, "'%s': A and B must have the same type", p->text);
    const struct mma_form *form = NULL;
    const struct mma_form *forms = sparse ? mma_sp_forms : mma_forms;
    size_t nforms = sparse ? sizeof(mma_sp_forms) / sizeof(mma_sp_forms[0]) : sizeof(mma_forms) / sizeof(mma_forms[0]);
    for (size_t k = 0; k < nforms; ++k)
        if (forms[k].ab == cls && strlen(forms[k].shape) == shape_len && memcmp(forms[k].shape, shape, shape_len) == 0)
            form = &forms[k];
    if (sparse && !form) {
        return kl_refuse(lw, "'%s': this mma.sp shape and type are not implemented by the software device (its "
                         "sparse forms are those fitted on the H100: f16/bf16 m16n8k16 and m16n8k32, s8/u8 m16n8k32 "
                         "and m16n8k64, s4/u4 m16n8k64; tf32's metadata did not fit, m16n8k128 s4/u4 and the "
                         "e4m3/e5m2 m16n8k64 were not probed)", p->text);
    }
    bool m884 = form && cls == AB_F16 && form->k == 4;
    if (form && !m884 && (alay != 0 || blay != 1))
        return kl_refuse(lw, "'%s': mma.sync takes .row.col (A row-major, B column-major)", p->text);
    if (!form) {
        return kl_refuse(lw, "'%s': shape .%.*s is not defined for .%s inputs", p->text, (int)shape_len, shape,
                         mty_names[ta]);
    }
    /* accumulators */
    bool ok;
    switch (cls) {
    case AB_F16:
    case AB_F8:
        ok = (td == MT_F32 || td == MT_F16) && tc == td;
        if (m884 && td == MT_F32 && tc == MT_F16) /* m8n8k4 also takes .f32.f16.f16.f16 */
            ok = true;
        break;
    case AB_BF16:
    case AB_TF32:
        ok = td == MT_F32 && tc == MT_F32;
        break;
    case AB_F64:
        ok = td == MT_F64 && tc == MT_F64;
        break;
    default:
        ok = td == MT_S32 && tc == MT_S32;
        break;
    }
    if (!ok)
        return kl_refuse(lw, "'%s': .%s.%s is not an accumulator pair for .%s inputs (ptxas: .dtype and .ctype must "
                         "match the inputs' accumulators)", p->text, mty_names[td], mty_names[tc], mty_names[ta]);
    if (sat && (cls != AB_I8 && cls != AB_I4))
        return kl_refuse(lw, "'%s': .satfinite is defined for integer mma only", p->text);
    if ((cls == AB_B1) != (bop != 0))
        return kl_refuse(lw, "'%s': .b1 takes .xor.popc or .and.popc, and only .b1 does", p->text);
    if (rn && cls != AB_F64)
        return kl_refuse(lw, "'%s': .rn is defined for .f64 mma only", p->text);
    if (!sparse && p->nops != 4)
        return kl_refuse(lw, "'%s' takes 4 operands (d, a, b, c), found %u", p->text, p->nops);
    if (sparse && p->nops != 6)
        return kl_refuse(lw, "'%s' takes 6 operands (d, a, b, c, e, f), found %u", p->text, p->nops);
    unsigned selmax = sparse ? mma_sp_selmax[form - mma_sp_forms] : 0;
    if (sparse && (p->ops[5].kind != KO_IMM || p->ops[5].imm < 0 || p->ops[5].imm > (int64_t)selmax))
        return kl_refuse(lw, "'%s': the sparsity selector must be a constant from 0 to %u for this shape and type "
                         "(as ptxas says)", p->text, selmax);
    if (!new_aux(lw, in, &x))
        return false;
    x->kind = MK_MMA;
    if (sparse) {
        x->sparse = 1;
        x->sel = (uint8_t)p->ops[5].imm;
        x->spunit = cls == AB_I4 ? 2 : 1;
        x->spgroups = (uint8_t)(form->k / x->spunit / 4);
        if (!kl_src(lw, p, 4, KT_B32, &x->meta))
            return false;
    }
    x->m = form->m;
    x->n = form->n;
    x->k = form->k;
    x->ta = (uint8_t)ta;
    x->tb = (uint8_t)tb;
    x->tc = (uint8_t)tc;
    x->td = (uint8_t)td;
    x->na = form->na;
    x->nb = form->nb;
    unsigned wide = cls == AB_F64 ? 8 : 4;
    x->nc = (uint8_t)(tc == MT_F16 ? form->nc / 2 : form->nc);
    x->nd = (uint8_t)(td == MT_F16 ? form->nc / 2 : form->nc);
    x->satfinite = (uint8_t)sat;
    x->bop = (uint8_t)bop;
    x->alay = (uint8_t)alay;
    x->blay = (uint8_t)blay;
    if (!vec_regs(lw, p, 0, x->nd, wide, true, x->d, "d") || !vec_regs(lw, p, 1, x->na, wide, false, x->a, "a") ||
        !vec_regs(lw, p, 2, x->nb, wide, false, x->b, "b") || !vec_regs(lw, p, 3, x->nc, wide, false, x->c, "c"))
        return false;
    in->exec = m884 ? mma884_run : mma_run;
    return true;
}

/* ---- wmma ---- */
struct wmma_shape {
    const char *name;
    uint16_t m, n, k;
};
static const struct wmma_shape wmma_shapes[] = {
    {"m16n16k16", 16, 16, 16}, {"m32n8k16", 32, 8, 16}, {"m8n32k16", 8, 32, 16}, {"m16n16k8", 16, 16, 8},
    {"m8n8k4", 8, 8, 4},       {"m8n8k32", 8, 8, 32},   {"m8n8k128", 8, 8, 128},
};
/* Registers of a wmma fragment (the ISA's table of fragments per shape and type). which: 0 a,
 * 1 b, 2 c/d; 0 when the shape and type do not go together. */
static unsigned wmma_regs(unsigned m, unsigned n, unsigned k, int t, unsigned which)
{
    if (which == 2) {
        if (k == 16 && (t == MT_F32 || t == MT_S32))
            return 8;
        if (k == 16 && t == MT_F16)
            return 4;
        if (k == 8 && m == 16 && t == MT_F32)
            return 8;
        if (k == 4 && t == MT_F64)
            return 2;
        if ((k == 32 || k == 128) && m == 8 && t == MT_S32)
            return 2;
        return 0;
    }
    if (k == 16) {
        unsigned rows = which == 0 ? m : n; /* A: m rows, B: n columns */
        switch (t) {
        case MT_F16: return 8;
        case MT_BF16: return rows == 16 ? 4 : rows == 32 ? 8 : 2;
        case MT_S8: case MT_U8: return rows == 16 ? 2 : rows == 32 ? 4 : 1;
        default: return 0;
        }
    }
    if (k == 8 && m == 16 && n == 16 && t == MT_TF32)
        return 4;
    if (k == 4 && m == 8 && t == MT_F64)
        return 1;
    if (k == 32 && m == 8 && (t == MT_S4 || t == MT_U4))
        return 1;
    if (k == 128 && m == 8 && t == MT_B1)
        return 1;
    return 0;
}

static bool wmma_address(struct klower *lw, const struct kparsed *p, uint32_t i, struct mma_aux *x)
{
    const struct kparsed_op *op = &p->ops[i];
    if (op->kind != KO_ADDR || op->image)
        return kl_refuse(lw, "'%s': operand %u must be an address [..]", p->text, i + 1);
    if (op->has_base && op->symbol && op->symbol->kind != KSYM_REG) {
        if (op->symbol->kind != KSYM_VAR || op->symbol->space == KS_LOCAL ||
            (op->symbol->space == KS_SHARED) != (x->space == KS_SHARED))
            return kl_refuse(lw, "'%s': '%s' cannot be the address of this state space", p->text, op->sym);
    }
    x->addr = op->has_base ? op->slot : kl_const(lw, 0);
    x->imm = op->imm;
    return !lw->ps->err;
}

static bool lower_wmma(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    struct sfx f;
    split_text(p->text, &f);
    unsigned i = 0;
    int op; /* 0 load, 1 store, 2 mma */
    unsigned which = 2;
    if (sfx_is(&f, 0, "load")) {
        op = 0;
        which = sfx_is(&f, 1, "a") ? 0 : sfx_is(&f, 1, "b") ? 1 : sfx_is(&f, 1, "c") ? 2 : 3;
        if (which == 3)
            return kl_refuse(lw, "'%s': wmma.load loads .a, .b or .c", p->text);
        i = 2;
    } else if (sfx_is(&f, 0, "store")) {
        op = 1;
        if (!sfx_is(&f, 1, "d"))
            return kl_refuse(lw, "'%s': wmma.store stores .d", p->text);
        i = 2;
    } else if (sfx_is(&f, 0, "mma")) {
        op = 2;
        i = 1;
    } else {
        return kl_refuse(lw, "'%s': wmma is .load, .store or .mma", p->text);
    }
    int bop = 0;
    if (op == 2 && (sfx_is(&f, i, "xor") || sfx_is(&f, i, "and")) && sfx_is(&f, i + 1, "popc")) {
        bop = sfx_is(&f, i, "xor") ? 1 : 2;
        i += 2;
    }
    if (!sfx_is(&f, i, "sync") || !sfx_is(&f, i + 1, "aligned"))
        return kl_refuse(lw, "'%s': wmma needs .sync.aligned", p->text);
    i += 2;
    int lay[2];
    unsigned nlay = op == 2 ? 2 : 1;
    for (unsigned k = 0; k < nlay; ++k, ++i) {
        lay[k] = sfx_is(&f, i, "row") ? 0 : sfx_is(&f, i, "col") ? 1 : -1;
        if (lay[k] < 0)
            return kl_refuse(lw, "'%s': a layout (.row or .col) is required", p->text);
    }
    const struct wmma_shape *shape = NULL;
    for (size_t k = 0; k < sizeof(wmma_shapes) / sizeof(wmma_shapes[0]); ++k)
        if (sfx_is(&f, i, wmma_shapes[k].name))
            shape = &wmma_shapes[k];
    if (!shape)
        return kl_refuse(lw, "'%s': .%.*s is not a wmma shape", p->text, i < f.n ? (int)f.len[i] : 0,
                         i < f.n ? f.s[i] : "");
    i++;
    struct mma_aux *x = NULL;
    if (op != 2) {
        kspace space = KS_GENERIC;
        if (sfx_is(&f, i, "global")) {
            space = KS_GLOBAL;
            i++;
        } else if (sfx_is(&f, i, "shared") || sfx_is(&f, i, "shared::cta")) {
            space = KS_SHARED;
            i++;
        }
        int t = i < f.n ? mty_of(f.s[i], f.len[i]) : MT_NONE;
        if (t == MT_NONE || i + 1 != f.n)
            return kl_refuse(lw, "'%s': the form is wmma.%s.sync.aligned.layout.shape{.ss}.type", p->text,
                             op ? "store.d" : "load.{a,b,c}");
        unsigned nregs = wmma_regs(shape->m, shape->n, shape->k, t, which);
        if (!nregs || (op == 1 && t != MT_F16 && t != MT_F32 && t != MT_S32 && t != MT_F64))
            return kl_refuse(lw, "'%s': .%s is not a type of the %s fragment of .%s", p->text, mty_names[t],
                             which == 0 ? "A" : which == 1 ? "B" : "accumulator", shape->name);
        if (p->nops != 2 && p->nops != 3)
            return kl_refuse(lw, "'%s' takes 2 or 3 operands, found %u", p->text, p->nops);
        if (!new_aux(lw, in, &x))
            return false;
        x->kind = op ? MK_WSTORE : MK_WLOAD;
        x->m = shape->m;
        x->n = shape->n;
        x->k = shape->k;
        x->which = (uint8_t)which;
        x->lay = (uint8_t)lay[0];
        x->space = (uint8_t)space;
        if (which == 0) {
            x->ta = (uint8_t)t;
            x->na = (uint8_t)nregs;
        } else if (which == 1) {
            x->tb = (uint8_t)t;
            x->nb = (uint8_t)nregs;
        } else {
            x->tc = (uint8_t)t;
            x->nc = (uint8_t)nregs;
        }
        unsigned bytes = t == MT_F64 ? 8 : 4;
        if (op == 0) {
            if (!vec_regs(lw, p, 0, nregs, bytes, true, x->d, "the fragment") || !wmma_address(lw, p, 1, x))
                return false;
        } else {
            if (!wmma_address(lw, p, 0, x) || !vec_regs(lw, p, 1, nregs, bytes, false, x->c, "the fragment"))
                return false;
        }
        if (p->nops == 3 && !kl_src(lw, p, 2, KT_U32, &x->stride))
            return false;
        in->exec = op ? wmma_store_run : wmma_load_run;
        return true;
    }
    /* wmma.mma: the types are .dtype.ctype (f16 inputs) or .dtype.atype.btype.ctype */
    int ty[4], nt = 0;
    while (i < f.n && nt < 4) {
        int t = mty_of(f.s[i], f.len[i]);
        if (t == MT_NONE)
            break;
        ty[nt++] = t;
        i++;
    }
    int sat = 0;
    if (sfx_is(&f, i, "satfinite")) {
        sat = 1;
        i++;
    }
    if (sfx_is(&f, i, "rn") && nt == 4 && ty[1] == MT_F64)
        i++;
    if (i != f.n || (nt != 2 && nt != 4))
        return kl_refuse(lw, "'%s': the form is wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype",
                         p->text);
    int td = ty[0], tc = ty[nt - 1], ta = nt == 4 ? ty[1] : MT_F16, tb = nt == 4 ? ty[2] : MT_F16;
    unsigned na = wmma_regs(shape->m, shape->n, shape->k, ta, 0), nb = wmma_regs(shape->m, shape->n, shape->k, tb, 1);
    unsigned nc = wmma_regs(shape->m, shape->n, shape->k, tc, 2), nd = wmma_regs(shape->m, shape->n, shape->k, td, 2);
    int cls = ab_class(ta);
    bool ok = na && nb && nc && nd && ab_class(tb) == cls;
    if (ok && (cls == AB_F16))
        ok = (td == MT_F16 || td == MT_F32) && (tc == MT_F16 || tc == MT_F32);
    else if (ok && (cls == AB_BF16 || cls == AB_TF32))
        ok = td == MT_F32 && tc == MT_F32;
    else if (ok && cls == AB_F64)
        ok = td == MT_F64 && tc == MT_F64;
    else if (ok)
        ok = td == MT_S32 && tc == MT_S32;
    if (ok && ((cls == AB_B1) != (bop != 0)))
        ok = false;
    if (ok && (cls == AB_I4 || cls == AB_B1) && (lay[0] != 0 || lay[1] != 1))
        ok = false; /* sub-byte types: .row.col only */
    if (ok && sat && cls != AB_I8 && cls != AB_I4) /* .satfinite on f16 wmma is not implemented */
        ok = false;
    if (!ok)
        return kl_refuse(lw, "'%s': these types, layouts or operation are not a wmma.mma form of .%s", p->text,
                         shape->name);
    if (p->nops != 4)
        return kl_refuse(lw, "'%s' takes 4 operands (d, a, b, c), found %u", p->text, p->nops);
    if (!new_aux(lw, in, &x))
        return false;
    x->kind = MK_WMMA;
    x->m = shape->m;
    x->n = shape->n;
    x->k = shape->k;
    x->ta = (uint8_t)ta;
    x->tb = (uint8_t)tb;
    x->tc = (uint8_t)tc;
    x->td = (uint8_t)td;
    x->na = (uint8_t)na;
    x->nb = (uint8_t)nb;
    x->nc = (uint8_t)nc;
    x->nd = (uint8_t)nd;
    x->alay = (uint8_t)lay[0];
    x->blay = (uint8_t)lay[1];
    x->satfinite = (uint8_t)sat;
    x->bop = (uint8_t)bop;
    unsigned ab = ta == MT_F64 ? 8 : 4, cd = tc == MT_F64 ? 8 : 4;
    if (!vec_regs(lw, p, 0, nd, cd, true, x->d, "d") || !vec_regs(lw, p, 1, na, ab, false, x->a, "a") ||
        !vec_regs(lw, p, 2, nb, ab, false, x->b, "b") || !vec_regs(lw, p, 3, nc, cd, false, x->c, "c"))
        return false;
    in->exec = wmma_mma_run;
    return true;
}

/* ldmatrix.sync.aligned.m8n8.num{.trans}{.shared{::cta}}.b16 d, [p];
 * stmatrix.sync.aligned.m8n8.num{.trans}{.shared{::cta}}.b16 [p], r; */
static bool lower_xmatrix(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool st)
{
    const char *opname = st ? "stmatrix" : "ldmatrix";
    struct sfx f;
    split_text(p->text, &f);
    unsigned i = 0;
    if (!sfx_is(&f, 0, "sync") || !sfx_is(&f, 1, "aligned"))
        return kl_refuse(lw, "'%s': %s needs .sync.aligned", p->text, opname);
    i = 2;
    if (sfx_is(&f, i, "m8n16") || sfx_is(&f, i, "m16n16") || (i + 3 < f.n && sfx_is(&f, f.n - 1, "b8")))
        return kl_refuse(lw, "'%s': the .b8 forms of %s (.m8n16, .m16n16: sm_100a and later) are not implemented "
                         "by the software device", p->text, opname);
    if (!sfx_is(&f, i++, "m8n8"))
        return kl_refuse(lw, "'%s': %s's shape is .m8n8", p->text, opname);
    unsigned num = sfx_is(&f, i, "x1") ? 1 : sfx_is(&f, i, "x2") ? 2 : sfx_is(&f, i, "x4") ? 4 : 0;
    if (!num)
        return kl_refuse(lw, "'%s': %s needs .x1, .x2 or .x4", p->text, opname);
    i++;
    bool trans = false;
    if (sfx_is(&f, i, "trans")) {
        trans = true;
        i++;
    }
    kspace space = KS_GENERIC;
    if (sfx_is(&f, i, "shared") || sfx_is(&f, i, "shared::cta")) {
        space = KS_SHARED;
        i++;
    }
    if (!sfx_is(&f, i, "b16") || i + 1 != f.n)
        return kl_refuse(lw, "'%s': the form is %s.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16", p->text,
                         opname);
    if (p->nops != 2)
        return kl_refuse(lw, "'%s' takes 2 operands, found %u", p->text, p->nops);
    struct mma_aux *x = NULL;
    if (!new_aux(lw, in, &x))
        return false;
    x->kind = st ? MK_STMATRIX : MK_LDMATRIX;
    x->num = (uint8_t)num;
    x->trans = trans;
    x->space = (uint8_t)space;
    if (st) {
        if (!wmma_address(lw, p, 0, x) || !vec_regs(lw, p, 1, num, 4, false, x->a, "the source"))
            return false;
        in->exec = stmatrix_run;
    } else {
        if (!vec_regs(lw, p, 0, num, 4, true, x->d, "the destination") || !wmma_address(lw, p, 1, x))
            return false;
        in->exec = ldmatrix_run;
    }
    return true;
}
static bool lower_ldmatrix(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return lower_xmatrix(lw, p, in, false);
}
static bool lower_stmatrix(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    return lower_xmatrix(lw, p, in, true);
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a */
static bool lower_movmatrix(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    struct sfx f;
    split_text(p->text, &f);
    if (f.n != 5 || !sfx_is(&f, 0, "sync") || !sfx_is(&f, 1, "aligned") || !sfx_is(&f, 2, "m8n8") ||
        !sfx_is(&f, 3, "trans") || !sfx_is(&f, 4, "b16"))
        return kl_refuse(lw, "'%s': the form is movmatrix.sync.aligned.m8n8.trans.b16", p->text);
    if (p->nops != 2)
        return kl_refuse(lw, "'%s' takes 2 operands, found %u", p->text, p->nops);
    struct mma_aux *x = NULL;
    if (!new_aux(lw, in, &x))
        return false;
    x->kind = MK_MOVMATRIX;
    if (!vec_regs(lw, p, 0, 1, 4, true, x->d, "d") || !vec_regs(lw, p, 1, 1, 4, false, x->a, "a"))
        return false;
    in->exec = movmatrix_run;
    return true;
}

/* wgmma.* (sm_90a): refused as a whole (ptx_insn.c hands it over before reading its operands). */
static bool lower_wgmma(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    (void)in;
    return kl_refuse(lw, "'%s': wgmma is sm_90a's warpgroup matrix multiply-accumulate (asynchronous, over four "
                     "warps), which the software device does not implement", p->text);
}

const struct klower_entry kops_mma[] = {
    {"mma", lower_mma},           {"wmma", lower_wmma},           {"ldmatrix", lower_ldmatrix},
    {"stmatrix", lower_stmatrix}, {"movmatrix", lower_movmatrix}, {"wgmma", lower_wgmma},
    {NULL, NULL},
};
