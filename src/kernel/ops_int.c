/*
 * Integer and bit instructions (PTX ISA, "Integer Arithmetic", "Logic and Shift", "Extended
 * Precision"). One handler per operation and width, picked at lowering. Float types of the
 * shared names (add.f32 ...) belong to ops_float.c: these lowerings answer "not mine".
 *
 * Division by zero and the other cases the ISA leaves machine-specific give what the H100
 * gives (docs/kernels.md, "Integers"): x / 0 is all ones for unsigned types and -1 for signed
 * ones, x % 0 is x, INT_MIN / -1 is INT_MIN and INT_MIN % -1 is 0.
 */
#include "kernel.h"

/* ---- helpers: compiled here, and the same text (knat_int_helpers) into native kernels ----
 * mulhi: the high 64 bits of a 128-bit product, without __int128 (MSVC has none). bfind.s: the
 * most significant bit that differs from the sign bit. bfe as the ISA defines it: the field's
 * bits, then the sign bit (the field's top bit, or the input's msb when the field runs past it)
 * or zeros; a zero length gives 0. */
#define INT_HELPERS \
    static inline int64_t sx(uint64_t v, unsigned bits) { return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits); } \
    static inline uint64_t zx(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); } \
    static inline uint64_t mulhi_u64(uint64_t a, uint64_t b) \
    { \
        uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32; \
        uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1; \
        uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10; \
        return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32); \
    } \
    static inline int64_t mulhi_s64(int64_t a, int64_t b) \
    { \
        uint64_t hi = mulhi_u64((uint64_t)a, (uint64_t)b); \
        if (a < 0) \
            hi -= (uint64_t)b; \
        if (b < 0) \
            hi -= (uint64_t)a; \
        return (int64_t)hi; \
    } \
    static inline uint64_t clz32(uint32_t v) \
    { \
        if (!v) \
            return 32; \
        uint64_t n = 0; \
        while (!(v & 0x80000000u)) { \
            v <<= 1; \
            n++; \
    } \
        return n; \
    } \
    static inline uint64_t clz64(uint64_t v) { return (v >> 32) ? clz32((uint32_t)(v >> 32)) : 32 + clz32((uint32_t)v); } \
    static inline uint32_t brev32(uint32_t v) \
    { \
        v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1); \
        v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2); \
        v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4); \
        v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8); \
        return (v >> 16) | (v << 16); \
    } \
    static inline uint64_t bfind_s(int64_t v, unsigned bits) \
    { \
        uint64_t u = (uint64_t)(v < 0 ? ~v : v); \
        if (bits == 32) \
            u &= 0xffffffffu; \
        return u ? (bits == 32 ? 31 - clz32((uint32_t)u) : 63 - clz64(u)) : 0xffffffffu; \
    } \
    static inline uint64_t bfind_sa_s(int64_t v, unsigned bits) \
    { \
        uint64_t p = bfind_s(v, bits); \
        return p == 0xffffffffu ? p : bits - 1 - p; \
    } \
    static inline uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned bits, bool sign) \
    { \
        pos &= 0xff; \
        len &= 0xff; \
        if (len == 0) \
            return 0; \
        uint32_t msb = bits - 1; \
        uint32_t top = pos + len - 1 < msb ? pos + len - 1 : msb; \
        uint64_t sbit = sign ? (a >> top) & 1 : 0; \
        uint64_t d = 0; \
        for (uint32_t i = 0; i <= msb; ++i) { \
            uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit; \
            d |= bit << i; \
    } \
        return bits == 32 ? (uint32_t)d : d; \
    } \
    static inline uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, unsigned bits) \
    { \
        pos &= 0xff; \
        len &= 0xff; \
        uint64_t d = b; \
        for (uint32_t i = 0; i < len && pos + i < bits; ++i) \
            d = (d & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i)); \
        return bits == 32 ? (uint32_t)d : d; \
    }
INT_HELPERS
const char knat_int_helpers[] = KSTR(INT_HELPERS);

static bool is_int(ktype t) { return t >= KT_B8 && t <= KT_S64 && t != KT_B128; }

/* Operand sizes by type: 16, 32 or 64 bits. */
static unsigned bits_of(ktype t) { return ktype_size(t) * 8; }

/* ---- add, sub (with .sat for s32, .cc carry out) ---- */
#define INT_BINOPS(X)                                                                                                  \
    X(add16, zx(a + b, 16)) X(add32, (uint32_t)(a + b)) X(add64, a + b) X(sub16, zx(a - b, 16))                      \
    X(sub32, (uint32_t)(a - b)) X(sub64, a - b) X(mullo16, zx(a * b, 16)) X(mullo32, (uint32_t)(a * b))              \
    X(mullo64, a * b) X(mulhi_u16, (zx(a, 16) * zx(b, 16)) >> 16) X(mulhi_s16, zx((uint64_t)((sx(a, 16) * sx(b, 16)) >> 16), 16)) \
    X(mulhi_u32, (zx(a, 32) * zx(b, 32)) >> 32) X(mulhi_s32, (uint32_t)((sx(a, 32) * sx(b, 32)) >> 32))              \
    X(mulhi_u64, mulhi_u64(a, b)) X(mulhi_s64, (uint64_t)mulhi_s64((int64_t)a, (int64_t)b))                          \
    X(mulwide_u16, zx(a, 16) * zx(b, 16)) X(mulwide_s16, (uint32_t)(sx(a, 16) * sx(b, 16)))                          \
    X(mulwide_u32, zx(a, 32) * zx(b, 32)) X(mulwide_s32, (uint64_t)(sx(a, 32) * sx(b, 32)))                          \
    X(min_u16, zx(a, 16) < zx(b, 16) ? zx(a, 16) : zx(b, 16)) X(min_s16, zx(sx(a, 16) < sx(b, 16) ? a : b, 16))      \
    X(min_u32, zx(a, 32) < zx(b, 32) ? zx(a, 32) : zx(b, 32)) X(min_s32, zx(sx(a, 32) < sx(b, 32) ? a : b, 32))      \
    X(min_u64, a < b ? a : b) X(min_s64, (int64_t)a < (int64_t)b ? a : b)                                            \
    X(max_u16, zx(a, 16) > zx(b, 16) ? zx(a, 16) : zx(b, 16)) X(max_s16, zx(sx(a, 16) > sx(b, 16) ? a : b, 16))      \
    X(max_u32, zx(a, 32) > zx(b, 32) ? zx(a, 32) : zx(b, 32)) X(max_s32, zx(sx(a, 32) > sx(b, 32) ? a : b, 32))      \
    X(max_u64, a > b ? a : b) X(max_s64, (int64_t)a > (int64_t)b ? a : b)                                            \
    X(max_relu_s32, (uint32_t)(sx(a, 32) > sx(b, 32) ? (sx(a, 32) > 0 ? sx(a, 32) : 0) : (sx(b, 32) > 0 ? sx(b, 32) : 0))) \
    X(min_relu_s32, (uint32_t)(sx(a, 32) < sx(b, 32) ? (sx(a, 32) > 0 ? sx(a, 32) : 0) : (sx(b, 32) > 0 ? sx(b, 32) : 0))) \
    X(and_, a & b) X(or_, a | b) X(xor_, a ^ b) X(and_pred, (a != 0) & (b != 0)) X(or_pred, (a != 0) | (b != 0))      \
    X(xor_pred, (a != 0) ^ (b != 0))                                                                                  \
    X(shl16, (b & 0xffffffffu) >= 16 ? 0 : zx(a << (b & 31), 16)) X(shl32, (uint32_t)b >= 32 ? 0 : (uint32_t)(a << (uint32_t)b)) \
    X(shl64, (uint32_t)b >= 64 ? 0 : a << (uint32_t)b)                                                               \
    X(shr_u16, (uint32_t)b >= 16 ? 0 : zx(a, 16) >> (uint32_t)b) X(shr_u32, (uint32_t)b >= 32 ? 0 : zx(a, 32) >> (uint32_t)b) \
    X(shr_u64, (uint32_t)b >= 64 ? 0 : a >> (uint32_t)b)                                                             \
    X(shr_s16, zx((uint64_t)(sx(a, 16) >> ((uint32_t)b >= 15 ? 15 : (uint32_t)b)), 16))                             \
    X(shr_s32, (uint32_t)(sx(a, 32) >> ((uint32_t)b >= 31 ? 31 : (uint32_t)b)))                                     \
    X(shr_s64, (uint64_t)((int64_t)a >> ((uint32_t)b >= 63 ? 63 : (uint32_t)b)))                                    \
    X(add_sat_s32, (uint32_t)(sx(a, 32) + sx(b, 32) > INT32_MAX ? INT32_MAX : sx(a, 32) + sx(b, 32) < INT32_MIN ? INT32_MIN : sx(a, 32) + sx(b, 32))) \
    X(sub_sat_s32, (uint32_t)(sx(a, 32) - sx(b, 32) > INT32_MAX ? INT32_MAX : sx(a, 32) - sx(b, 32) < INT32_MIN ? INT32_MIN : sx(a, 32) - sx(b, 32))) \
    X(mul24lo_u32, (uint32_t)(zx(a, 24) * zx(b, 24))) X(mul24hi_u32, (uint32_t)((zx(a, 24) * zx(b, 24)) >> 16))     \
    X(mul24lo_s32, (uint32_t)(sx(a, 24) * sx(b, 24))) X(mul24hi_s32, (uint32_t)((uint64_t)(sx(a, 24) * sx(b, 24)) >> 16))
#define DEF(name, expr) KOP2(op_##name, expr)
INT_BINOPS(DEF)
#undef DEF

#define INT_UNOPS(X)                                                                                                   \
    X(not16, zx(~a, 16)) X(not32, (uint32_t)~a) X(not64, ~a) X(not_pred, a == 0) X(cnot16, zx(a, 16) == 0)           \
    X(cnot32, (uint32_t)a == 0) X(cnot64, a == 0) X(neg16, zx(0 - a, 16)) X(neg32, (uint32_t)(0 - a)) X(neg64, 0 - a)  \
    X(abs16, zx((uint64_t)(sx(a, 16) < 0 ? -sx(a, 16) : sx(a, 16)), 16))                                             \
    X(abs32, (uint32_t)(sx(a, 32) < 0 ? 0u - (uint32_t)a : (uint32_t)a)) X(abs64, (int64_t)a < 0 ? 0 - a : a)          \
    X(popc32, (uint64_t)kpopc((uint32_t)a)) X(popc64, (uint64_t)(kpopc((uint32_t)a) + kpopc((uint32_t)(a >> 32))))    \
    X(clz32, clz32((uint32_t)a)) X(clz64, clz64(a)) X(brev32, brev32((uint32_t)a))                                     \
    X(brev64, (uint64_t)brev32((uint32_t)a) << 32 | brev32((uint32_t)(a >> 32)))                                       \
    X(bfind_u32, (uint32_t)a ? 31 - clz32((uint32_t)a) : 0xffffffffu)                                                 \
    X(bfind_s32, bfind_s((int64_t)sx(a, 32), 32)) X(bfind_u64, a ? 63 - clz64(a) : 0xffffffffu)                      \
    X(bfind_s64, bfind_s((int64_t)a, 64)) X(bfind_sa_u32, (uint32_t)a ? clz32((uint32_t)a) : 0xffffffffu)            \
    X(bfind_sa_u64, a ? clz64(a) : 0xffffffffu) X(bfind_sa_s32, bfind_sa_s((int64_t)sx(a, 32), 32))                   \
    X(bfind_sa_s64, bfind_sa_s((int64_t)a, 64))

#define DEF(name, expr) KOP1(op_##name, expr)
INT_UNOPS(DEF)
#undef DEF

/* ---- three-source ---- */
#define INT_TERNOPS(X)  \
    X(bfe_u32, bfe(a, (uint32_t)b, (uint32_t)c, 32, false)) \
    X(bfe_s32, bfe(a, (uint32_t)b, (uint32_t)c, 32, true)) \
    X(bfe_u64, bfe(a, (uint32_t)b, (uint32_t)c, 64, false)) \
    X(bfe_s64, bfe(a, (uint32_t)b, (uint32_t)c, 64, true)) \
    X(madlo16, zx(a * b + c, 16)) \
    X(madlo32, (uint32_t)(a * b + c)) \
    X(madlo64, a * b + c) \
    X(madhi_u32, (uint32_t)(((zx(a, 32) * zx(b, 32)) >> 32) + c)) \
    X(madhi_s32, (uint32_t)(((sx(a, 32) * sx(b, 32)) >> 32) + sx(c, 32))) \
    X(madhi_u64, mulhi_u64(a, b) + c) \
    X(madhi_s64, (uint64_t)mulhi_s64((int64_t)a, (int64_t)b) + c) \
    X(madwide_u32, zx(a, 32) * zx(b, 32) + c) \
    X(madwide_s32, (uint64_t)(sx(a, 32) * sx(b, 32)) + c) \
    X(madwide_u16, (uint32_t)(zx(a, 16) * zx(b, 16) + c)) \
    X(madwide_s16, (uint32_t)(sx(a, 16) * sx(b, 16) + (int64_t)sx(c, 32))) \
    X(mad24lo_u32, (uint32_t)(zx(a, 24) * zx(b, 24) + c)) \
    X(mad24lo_s32, (uint32_t)(sx(a, 24) * sx(b, 24) + sx(c, 32))) \
    X(mad24hi_u32, (uint32_t)(((zx(a, 24) * zx(b, 24)) >> 16) + c)) \
    X(mad24hi_s32, (uint32_t)(((uint64_t)(sx(a, 24) * sx(b, 24)) >> 16) + c)) \
    X(sad_u32, (uint32_t)(c + (zx(a, 32) > zx(b, 32) ? zx(a, 32) - zx(b, 32) : zx(b, 32) - zx(a, 32)))) \
    X(sad_s32, (uint32_t)(c + (uint64_t)(sx(a, 32) > sx(b, 32) ? sx(a, 32) - sx(b, 32) : sx(b, 32) - sx(a, 32)))) \
    X(sad_u64, c + (a > b ? a - b : b - a)) \
    X(sad_s64, c + ((int64_t)a > (int64_t)b ? a - b : b - a)) \
    X(shf_l_wrap, (uint32_t)((((uint64_t)(uint32_t)b << 32) | (uint32_t)a) << ((uint32_t)c & 31) >> 32)) \
    X(shf_l_clamp, (uint32_t)((((uint64_t)(uint32_t)b << 32) | (uint32_t)a) << ((uint32_t)c > 32 ? 32 : (uint32_t)c) >> 32)) \
    X(shf_r_wrap, (uint32_t)((((uint64_t)(uint32_t)b << 32) | (uint32_t)a) >> ((uint32_t)c & 31))) \
    X(shf_r_clamp, (uint32_t)((((uint64_t)(uint32_t)b << 32) | (uint32_t)a) >> ((uint32_t)c > 32 ? 32 : (uint32_t)c)))
#define DEF(name, expr) KOP3(op_##name, expr)
INT_TERNOPS(DEF)
#undef DEF

static uint64_t dp4a(uint32_t a, uint32_t b, uint32_t c, bool as, bool bs)
{
    int64_t sum = (int32_t)c;
    for (int i = 0; i < 4; ++i) {
        int64_t x = as ? (int8_t)(a >> (8 * i)) : (uint8_t)(a >> (8 * i));
        int64_t y = bs ? (int8_t)(b >> (8 * i)) : (uint8_t)(b >> (8 * i));
        sum += x * y;
    }
    return (uint32_t)sum;
}
static uint64_t dp2a(uint32_t a, uint32_t b, uint32_t c, bool as, bool bs, bool hi)
{
    int64_t sum = (int32_t)c;
    for (int i = 0; i < 2; ++i) {
        int64_t x = as ? (int16_t)(a >> (16 * i)) : (uint16_t)(a >> (16 * i));
        int64_t y = bs ? (int8_t)(b >> (8 * (i + (hi ? 2 : 0)))) : (uint8_t)(b >> (8 * (i + (hi ? 2 : 0))));
        sum += x * y;
    }
    return (uint32_t)sum;
}
KOP3(op_dp4a_uu, dp4a((uint32_t)a, (uint32_t)b, (uint32_t)c, false, false))
KOP3(op_dp4a_us, dp4a((uint32_t)a, (uint32_t)b, (uint32_t)c, false, true))
KOP3(op_dp4a_su, dp4a((uint32_t)a, (uint32_t)b, (uint32_t)c, true, false))
KOP3(op_dp4a_ss, dp4a((uint32_t)a, (uint32_t)b, (uint32_t)c, true, true))

static void op_dp2a(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2);
    bool as = in->mods & 1, bs = in->mods & 2, hi = in->mods & 4;
    KFOR_LANES(mask, l) d[l] = dp2a((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], as, bs, hi);
}

static void op_bfi(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2), *e = KSRC(w, in, 3);
    unsigned bits = (unsigned)in->imm;
    KFOR_LANES(mask, l) d[l] = bfi(a[l], b[l], (uint32_t)c[l], (uint32_t)e[l], bits);
}

static void op_lop3(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2);
    uint32_t lut = (uint32_t)in->imm;
    KFOR_LANES(mask, l)
    {
        uint32_t x = (uint32_t)a[l], y = (uint32_t)b[l], z = (uint32_t)c[l], r = 0;
        /* The ISA's truth table: bit i of the LUT is F(a,b,c) for a = 0xF0, b = 0xCC, c = 0xAA */
        for (int k = 0; k < 8; ++k)
            if (lut >> k & 1) {
                uint32_t tx = (k & 4) ? x : ~x, ty = (k & 2) ? y : ~y, tz = (k & 1) ? z : ~z;
                r |= tx & ty & tz;
            }
        d[l] = r;
    }
}

/* prmt: bytes of {b, a} picked by the selector c (PTX ISA "prmt"). */
static void op_prmt(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1), *c = KSRC(w, in, 2);
    uint32_t mode = (uint32_t)in->imm;
    KFOR_LANES(mask, l)
    {
        uint64_t x = (uint64_t)(uint32_t)b[l] << 32 | (uint32_t)a[l];
        uint32_t s = (uint32_t)c[l], r = 0;
        uint8_t byte[8];
        for (int i = 0; i < 8; ++i)
            byte[i] = (uint8_t)(x >> (8 * i));
        uint32_t sel[4];
        switch (mode) {
        case 0: /* default: 4 selector nibbles, bit 3 replicates the sign */
            for (int i = 0; i < 4; ++i) {
                uint32_t n = (s >> (4 * i)) & 15;
                uint8_t v = byte[n & 7];
                if (n & 8)
                    v = (v & 0x80) ? 0xff : 0;
                r |= (uint32_t)v << (8 * i);
            }
            d[l] = r;
            continue;
        case 1: /* f4e: forward 4 extract from byte c[1:0] (isa: the H200 reads two bits, not three) */
            for (int i = 0; i < 4; ++i)
                sel[i] = ((s & 3) + (uint32_t)i) & 7;
            break;
        case 2: /* b4e: backward 4 extract from byte c[1:0] */
            for (int i = 0; i < 4; ++i)
                sel[i] = ((s & 3) - (uint32_t)i + 8) & 7;
            break;
        case 3: /* rc8: replicate byte */
            for (int i = 0; i < 4; ++i)
                sel[i] = s & 3;
            break;
        case 4: /* ecl: edge clamp left, byte i is max(i, c[1:0]) (isa: the ISA's table "3211" for 1, as the
                 * H200 computes; the two clamps were swapped) */
            for (int i = 0; i < 4; ++i)
                sel[i] = (uint32_t)i < (s & 3) ? (s & 3) : (uint32_t)i;
            break;
        case 5: /* ecr: edge clamp right, byte i is min(i, c[1:0]) ("1110" for 1) */
            for (int i = 0; i < 4; ++i)
                sel[i] = (uint32_t)i > (s & 3) ? (s & 3) : (uint32_t)i;
            break;
        default: /* rc16: replicate 16 bits */
            sel[0] = sel[2] = (s & 1) * 2;
            sel[1] = sel[3] = (s & 1) * 2 + 1;
            break;
        }
        for (int i = 0; i < 4; ++i)
            r |= (uint32_t)byte[sel[i]] << (8 * i);
        d[l] = r;
    }
}

/* ---- division (by zero: see the file comment) ---- */
static void op_div(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1);
    unsigned bits = (unsigned)in->imm;
    bool sign = in->mods & 1, rem = in->mods & 2;
    KFOR_LANES(mask, l)
    {
        uint64_t r;
        if (sign) {
            int64_t x = sx(a[l], bits), y = sx(b[l], bits);
            if (y == 0)
                r = rem ? (uint64_t)x : ~0ull;
            else if (y == -1)
                r = rem ? 0 : (uint64_t)(0 - (uint64_t)x); /* INT_MIN / -1 wraps to INT_MIN */
            else
                r = rem ? (uint64_t)(x % y) : (uint64_t)(x / y);
        } else {
            uint64_t x = zx(a[l], bits), y = zx(b[l], bits);
            r = y == 0 ? (rem ? x : ~0ull) : rem ? x % y : x / y;
        }
        d[l] = zx(r, bits);
    }
}

/* ---- carries: add.cc, addc, sub.cc, subc, mad.cc, madc ---- */
static void op_carry(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    uint64_t *d = KDST(w, in, 0);
    const uint64_t *a = KSRC(w, in, 0), *b = KSRC(w, in, 1);
    const uint64_t *c = in->src[2] != KOPND_NONE ? KSRC(w, in, 2) : NULL;
    unsigned bits = (unsigned)in->imm;
    /* mods: 1 = carry in, 2 = carry out, 4 = subtract, 8 = mad.lo, 16 = mad.hi */
    uint32_t m = in->mods;
    KFOR_LANES(mask, l)
    {
        uint64_t x = zx(a[l], bits), y = zx(b[l], bits);
        if (m & 24) {
            /* mad: the product's low or high half plus c */
            uint64_t prod = bits == 32 ? ((m & 16) ? (x * y) >> 32 : zx(x * y, 32))
                                       : ((m & 16) ? mulhi_u64(x, y) : x * y);
            x = zx(prod, bits);
            y = zx(c[l], bits);
        }
        uint64_t cin = (m & 1) ? w->cc[l] : 0, r, cout;
        if (m & 4) {
            /* subtraction: the carry flag holds the borrow */
            uint64_t t = x - y - cin;
            cout = bits == 64 ? (x < y || (x - y) < cin) : ((x - y - cin) >> 32) & 1;
            r = t;
        } else {
            uint64_t t = x + y + cin;
            cout = bits == 64 ? (t < x || (t == x && (y | cin))) : (t >> 32) & 1;
            r = t;
        }
        d[l] = zx(r, bits);
        if (m & 2)
            w->cc[l] = (uint8_t)cout;
    }
}

/* ---- lowering ---- */
/* The integer form's handler for (name, type, modifiers), or NULL. */
static bool lower_binop(struct klower *lw, const struct kparsed *p, struct kinsn *in, kexec_fn fn, ktype t)
{
    if (!fn)
        return kl_refuse(lw, "'%s' is not implemented for .%s", p->text, ktype_name(t));
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, t, &in->src[1]))
        return false;
    in->exec = fn;
    in->type = (uint8_t)t;
    return true;
}

static bool float_type(const struct kparsed *p) { return p->ntypes && ktype_float(p->types[p->ntypes - 1]); }

#define NOT_MINE(lw) (((lw)->why[0] = 0), false)

static kexec_fn by_size(unsigned bits, kexec_fn f16, kexec_fn f32, kexec_fn f64)
{
    return bits == 16 ? f16 : bits == 32 ? f32 : bits == 64 ? f64 : NULL;
}

static bool lower_addsub(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_u16x2) || kp_has(p, KM_s16x2))
        return kisa_lower_int16x2(lw, p, in); /* isa (issue 25): ops_isa.c */
    if (float_type(p))
        return NOT_MINE(lw);
    ktype t = kl_type(p, 0);
    if (!is_int(t))
        return kl_refuse(lw, "'%s': .%s is not an integer type", p->text, ktype_name(t));
    bool sub = p->opcode[0] == 's';
    unsigned bits = bits_of(t);
    if (kp_has(p, KM_cc) || strcmp(p->opcode, "addc") == 0 || strcmp(p->opcode, "subc") == 0) {
        if (bits != 32 && bits != 64)
            return kl_refuse(lw, "'%s': carries need 32 or 64 bits", p->text);
        in->mods = (p->opcode[3] == 'c' ? 1u : 0) | (kp_has(p, KM_cc) ? 2u : 0) | (sub ? 4u : 0);
        in->imm = bits;
        return lower_binop(lw, p, in, op_carry, t);
    }
    if (kp_has(p, KM_sat)) {
        if (t != KT_S32)
            return kl_refuse(lw, "'%s': .sat is for .s32", p->text);
        return lower_binop(lw, p, in, sub ? op_sub_sat_s32 : op_add_sat_s32, t);
    }
    if (p->nmods)
        return kl_refuse(lw, "'%s': modifier .%s is not allowed", p->text, kmod_name(p->mods[0]));
    return lower_binop(lw, p, in, sub ? by_size(bits, op_sub16, op_sub32, op_sub64) : by_size(bits, op_add16, op_add32, op_add64), t);
}

static bool lower_mul(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (float_type(p))
        return NOT_MINE(lw);
    ktype t = kl_type(p, 0);
    if (!is_int(t))
        return kl_refuse(lw, "'%s': .%s is not an integer type", p->text, ktype_name(t));
    unsigned bits = bits_of(t);
    bool s = ktype_signed(t);
    kexec_fn f = NULL;
    if (kp_has(p, KM_hi))
        f = bits == 16 ? (s ? op_mulhi_s16 : op_mulhi_u16)
            : bits == 32 ? (s ? op_mulhi_s32 : op_mulhi_u32)
            : bits == 64 ? (s ? op_mulhi_s64 : op_mulhi_u64)
                         : NULL;
    else if (kp_has(p, KM_wide))
        f = bits == 16 ? (s ? op_mulwide_s16 : op_mulwide_u16) : bits == 32 ? (s ? op_mulwide_s32 : op_mulwide_u32) : NULL;
    else
        f = by_size(bits, op_mullo16, op_mullo32, op_mullo64);
    return lower_binop(lw, p, in, f, t);
}

static bool lower_mad(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (float_type(p))
        return NOT_MINE(lw);
    ktype t = kl_type(p, 0);
    if (!is_int(t))
        return kl_refuse(lw, "'%s': .%s is not an integer type", p->text, ktype_name(t));
    unsigned bits = bits_of(t);
    bool s = ktype_signed(t), wide = kp_has(p, KM_wide);
    kexec_fn f = NULL;
    if (kp_has(p, KM_cc) || strcmp(p->opcode, "madc") == 0) {
        if (s || (bits != 32 && bits != 64))
            return kl_refuse(lw, "'%s': carries need .u32/.u64 (or .s32 without them)", p->text);
        in->mods = (strcmp(p->opcode, "madc") == 0 ? 1u : 0) | (kp_has(p, KM_cc) ? 2u : 0) | (kp_has(p, KM_hi) ? 16u : 8u);
        in->imm = bits;
        f = op_carry;
    } else if (kp_has(p, KM_sat)) {
        return kl_refuse(lw, "'%s': mad.hi.sat is not implemented", p->text);
    } else if (kp_has(p, KM_hi)) {
        f = bits == 32 ? (s ? op_madhi_s32 : op_madhi_u32) : bits == 64 ? (s ? op_madhi_s64 : op_madhi_u64) : NULL;
    } else if (wide) {
        f = bits == 32 ? (s ? op_madwide_s32 : op_madwide_u32) : bits == 16 ? (s ? op_madwide_s16 : op_madwide_u16) : NULL;
    } else {
        f = by_size(bits, op_madlo16, op_madlo32, op_madlo64);
    }
    if (!f)
        return kl_refuse(lw, "'%s' is not implemented", p->text);
    ktype ct = wide ? (bits == 32 ? (s ? KT_S64 : KT_U64) : (s ? KT_S32 : KT_U32)) : t;
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, t, &in->src[1]) ||
        !kl_src(lw, p, 3, ct, &in->src[2]))
        return false;
    in->exec = f;
    return true;
}

static bool lower_24(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    bool s = t == KT_S32, hi = kp_has(p, KM_hi), mad = p->opcode[1] == 'a';
    if (t != KT_U32 && t != KT_S32)
        return kl_refuse(lw, "'%s': .u32 or .s32 only", p->text);
    if (kp_has(p, KM_sat))
        return kl_refuse(lw, "'%s': .sat is not implemented", p->text);
    kexec_fn f = mad ? (hi ? (s ? op_mad24hi_s32 : op_mad24hi_u32) : (s ? op_mad24lo_s32 : op_mad24lo_u32))
                     : (hi ? (s ? op_mul24hi_s32 : op_mul24hi_u32) : (s ? op_mul24lo_s32 : op_mul24lo_u32));
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, t, &in->src[1]))
        return false;
    if (mad && !kl_src(lw, p, 3, t, &in->src[2]))
        return false;
    in->exec = f;
    return true;
}

static bool lower_sad(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    unsigned bits = bits_of(t);
    bool s = ktype_signed(t);
    kexec_fn f = bits == 32 ? (s ? op_sad_s32 : op_sad_u32) : bits == 64 ? (s ? op_sad_s64 : op_sad_u64) : NULL;
    if (!f)
        return kl_refuse(lw, "'%s' is not implemented for .%s", p->text, ktype_name(t));
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, t, &in->src[1]) ||
        !kl_src(lw, p, 3, t, &in->src[2]))
        return false;
    in->exec = f;
    return true;
}

static bool lower_divrem(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (float_type(p))
        return NOT_MINE(lw);
    ktype t = kl_type(p, 0);
    if (!is_int(t) || bits_of(t) < 16)
        return kl_refuse(lw, "'%s': .%s is not an integer type", p->text, ktype_name(t));
    in->imm = bits_of(t);
    in->mods = (ktype_signed(t) ? 1u : 0) | (p->opcode[0] == 'r' ? 2u : 0);
    return lower_binop(lw, p, in, op_div, t);
}

static bool lower_minmax(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kp_has(p, KM_u16x2) || kp_has(p, KM_s16x2))
        return kisa_lower_int16x2(lw, p, in); /* isa (issue 25): ops_isa.c */
    if (float_type(p))
        return NOT_MINE(lw);
    ktype t = kl_type(p, 0);
    if (!is_int(t))
        return kl_refuse(lw, "'%s': .%s is not an integer type", p->text, ktype_name(t));
    bool mx = p->opcode[1] == 'a', s = ktype_signed(t);
    unsigned bits = bits_of(t);
    kexec_fn f;
    if (kp_has(p, KM_relu)) {
        if (t != KT_S32)
            return kl_refuse(lw, "'%s': .relu is for .s32", p->text);
        f = mx ? op_max_relu_s32 : op_min_relu_s32;
    } else {
        f = mx ? (s ? by_size(bits, op_max_s16, op_max_s32, op_max_s64) : by_size(bits, op_max_u16, op_max_u32, op_max_u64))
               : (s ? by_size(bits, op_min_s16, op_min_s32, op_min_s64) : by_size(bits, op_min_u16, op_min_u32, op_min_u64));
    }
    return lower_binop(lw, p, in, f, t);
}

static bool lower_unop(struct klower *lw, const struct kparsed *p, struct kinsn *in, kexec_fn f, ktype t, ktype st)
{
    if (!f)
        return kl_refuse(lw, "'%s' is not implemented for .%s", p->text, ktype_name(t));
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, st, &in->src[0]))
        return false;
    in->exec = f;
    return true;
}

static bool lower_absneg(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (float_type(p))
        return NOT_MINE(lw);
    ktype t = kl_type(p, 0);
    unsigned bits = bits_of(t);
    if (!ktype_signed(t))
        return kl_refuse(lw, "'%s': .%s is not a signed type", p->text, ktype_name(t));
    kexec_fn f = p->opcode[0] == 'a' ? by_size(bits, op_abs16, op_abs32, op_abs64) : by_size(bits, op_neg16, op_neg32, op_neg64);
    return lower_unop(lw, p, in, f, t, t);
}

static bool lower_logic(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    const char *op = p->opcode;
    bool pred = t == KT_PRED;
    if (!pred && (bits_of(t) < 16 || !is_int(t)))
        return kl_refuse(lw, "'%s' is not implemented for .%s", p->text, ktype_name(t));
    unsigned bits = bits_of(t);
    if (strcmp(op, "not") == 0)
        return lower_unop(lw, p, in, pred ? op_not_pred : by_size(bits, op_not16, op_not32, op_not64), t, t);
    if (strcmp(op, "cnot") == 0)
        return lower_unop(lw, p, in, by_size(bits, op_cnot16, op_cnot32, op_cnot64), t, t);
    kexec_fn f = op[0] == 'a' ? (pred ? op_and_pred : op_and_) : op[0] == 'o' ? (pred ? op_or_pred : op_or_) : (pred ? op_xor_pred : op_xor_);
    /* and.pred p, a, !b: a negated predicate source */
    if (pred && p->nops == 3 && (p->ops[1].neg || p->ops[2].neg))
        return kl_refuse(lw, "'%s': negated predicate sources are not implemented", p->text);
    return lower_binop(lw, p, in, f, t);
}

static bool lower_shift(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    unsigned bits = bits_of(t);
    if (!is_int(t) || bits < 16)
        return kl_refuse(lw, "'%s' is not implemented for .%s", p->text, ktype_name(t));
    kexec_fn f;
    if (p->opcode[2] == 'l')
        f = by_size(bits, op_shl16, op_shl32, op_shl64);
    else if (ktype_signed(t))
        f = by_size(bits, op_shr_s16, op_shr_s32, op_shr_s64);
    else
        f = by_size(bits, op_shr_u16, op_shr_u32, op_shr_u64);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, KT_U32, &in->src[1]))
        return false;
    in->exec = f;
    return true;
}

static bool lower_bits(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    unsigned bits = bits_of(t);
    const char *op = p->opcode;
    kexec_fn f = NULL;
    if (strcmp(op, "popc") == 0)
        f = bits == 32 ? op_popc32 : bits == 64 ? op_popc64 : NULL;
    else if (strcmp(op, "clz") == 0)
        f = bits == 32 ? op_clz32 : bits == 64 ? op_clz64 : NULL;
    else if (strcmp(op, "brev") == 0)
        f = bits == 32 ? op_brev32 : bits == 64 ? op_brev64 : NULL;
    else if (strcmp(op, "bfind") == 0) {
        bool sa = kp_has(p, KM_shiftamt), s = ktype_signed(t);
        if (bits == 32)
            f = sa ? (s ? op_bfind_sa_s32 : op_bfind_sa_u32) : (s ? op_bfind_s32 : op_bfind_u32);
        else if (bits == 64)
            f = sa ? (s ? op_bfind_sa_s64 : op_bfind_sa_u64) : (s ? op_bfind_s64 : op_bfind_u64);
    }
    return lower_unop(lw, p, in, f, t, t);
}

static bool lower_bfe(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    unsigned bits = bits_of(t);
    bool s = ktype_signed(t);
    kexec_fn f = bits == 32 ? (s ? op_bfe_s32 : op_bfe_u32) : bits == 64 ? (s ? op_bfe_s64 : op_bfe_u64) : NULL;
    if (!f)
        return kl_refuse(lw, "'%s' is not implemented for .%s", p->text, ktype_name(t));
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, KT_U32, &in->src[1]) ||
        !kl_src(lw, p, 3, KT_U32, &in->src[2]))
        return false;
    in->exec = f;
    return true;
}

static bool lower_bfi(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    ktype t = kl_type(p, 0);
    unsigned bits = bits_of(t);
    if (bits != 32 && bits != 64)
        return kl_refuse(lw, "'%s' is not implemented for .%s", p->text, ktype_name(t));
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, t, &in->src[0]) || !kl_src(lw, p, 2, t, &in->src[1]) ||
        !kl_src(lw, p, 3, KT_U32, &in->src[2]) || !kl_src(lw, p, 4, KT_U32, &in->src[3]))
        return false;
    in->imm = bits;
    in->exec = op_bfi;
    return true;
}

static bool lower_shf(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    bool left = kp_has(p, KM_l), clamp = kp_has(p, KM_clamp);
    if (kl_type(p, 0) != KT_B32 || (!left && !kp_has(p, KM_r)))
        return kl_refuse(lw, "'%s': shf.l/.r .b32 only", p->text);
    kexec_fn f = left ? (clamp ? op_shf_l_clamp : op_shf_l_wrap) : (clamp ? op_shf_r_clamp : op_shf_r_wrap);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B32, &in->src[0]) || !kl_src(lw, p, 2, KT_B32, &in->src[1]) ||
        !kl_src(lw, p, 3, KT_U32, &in->src[2]))
        return false;
    in->exec = f;
    return true;
}

static bool lower_lop3(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (kl_type(p, 0) != KT_B32 || p->nops != 5 || p->ops[4].kind != KO_IMM)
        return kl_refuse(lw, "'%s': lop3.b32 d, a, b, c, immLut only", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B32, &in->src[0]) || !kl_src(lw, p, 2, KT_B32, &in->src[1]) ||
        !kl_src(lw, p, 3, KT_B32, &in->src[2]))
        return false;
    in->imm = p->ops[4].imm & 0xff;
    in->exec = op_lop3;
    return true;
}

static bool lower_prmt(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    static const kmod modes[] = {KM_f4e, KM_b4e, KM_rc8, KM_ecl, KM_ecr, KM_rc16};
    in->imm = 0;
    for (int i = 0; i < 6; ++i)
        if (kp_has(p, modes[i]))
            in->imm = i + 1;
    if (kl_type(p, 0) != KT_B32)
        return kl_refuse(lw, "'%s': prmt.b32 only", p->text);
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B32, &in->src[0]) || !kl_src(lw, p, 2, KT_B32, &in->src[1]) ||
        !kl_src(lw, p, 3, KT_B32, &in->src[2]))
        return false;
    in->exec = op_prmt;
    return true;
}

static bool lower_dp(struct klower *lw, const struct kparsed *p, struct kinsn *in)
{
    if (p->ntypes != 2)
        return kl_refuse(lw, "'%s' takes two types", p->text);
    bool as = kl_type(p, 0) == KT_S32, bs = kl_type(p, 1) == KT_S32;
    bool four = p->opcode[2] == '4';
    kexec_fn f;
    if (four) {
        f = as ? (bs ? op_dp4a_ss : op_dp4a_su) : (bs ? op_dp4a_us : op_dp4a_uu);
    } else {
        if (!kp_has(p, KM_lo) && !kp_has(p, KM_hi))
            return kl_refuse(lw, "'%s' needs .lo or .hi", p->text);
        in->mods = (as ? 1u : 0) | (bs ? 2u : 0) | (kp_has(p, KM_hi) ? 4u : 0);
        f = op_dp2a;
    }
    ktype ct = as || bs ? KT_S32 : KT_U32;
    if (!kl_dst(lw, p, 0, &in->dst[0]) || !kl_src(lw, p, 1, KT_B32, &in->src[0]) || !kl_src(lw, p, 2, KT_B32, &in->src[1]) ||
        !kl_src(lw, p, 3, ct, &in->src[2]))
        return false;
    in->exec = f;
    return true;
}

const struct klower_entry kops_int[] = {
    {"add", lower_addsub},   {"sub", lower_addsub},  {"addc", lower_addsub}, {"subc", lower_addsub},
    {"mul", lower_mul},      {"mad", lower_mad},     {"madc", lower_mad},    {"mul24", lower_24},
    {"mad24", lower_24},     {"sad", lower_sad},     {"div", lower_divrem},  {"rem", lower_divrem},
    {"min", lower_minmax},   {"max", lower_minmax},  {"abs", lower_absneg},  {"neg", lower_absneg},
    {"and", lower_logic},    {"or", lower_logic},    {"xor", lower_logic},   {"not", lower_logic},
    {"cnot", lower_logic},   {"shl", lower_shift},   {"shr", lower_shift},   {"popc", lower_bits},
    {"clz", lower_bits},     {"brev", lower_bits},   {"bfind", lower_bits},  {"bfe", lower_bfe},
    {"bfi", lower_bfi},      {"shf", lower_shf},     {"lop3", lower_lop3},   {"prmt", lower_prmt},
    {"dp4a", lower_dp},      {"dp2a", lower_dp},     {NULL, NULL},
};

/* ---- What the native tier writes as C (native_emit.c): the handlers' own expressions ---- */
#define NAT2(name, expr) {op_##name, KN_EXPR, 2, KSTR(expr)},
#define NAT1(name, expr) {op_##name, KN_EXPR, 1, KSTR(expr)},
#define NAT3(name, expr) {op_##name, KN_EXPR, 3, KSTR(expr)},
const struct knat_desc knat_int[] = {
    INT_BINOPS(NAT2) INT_UNOPS(NAT1) INT_TERNOPS(NAT3)
    {NULL, 0, 0, NULL},
};
#undef NAT1
#undef NAT3
#undef NAT2
