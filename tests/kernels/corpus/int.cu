// Integer arithmetic, bit manipulation and shifts (PTX ISA "Integer Arithmetic Instructions",
// "Logic and Shift Instructions"). Inputs come with the runner's special values: 0, 1, -1,
// INT_MIN, INT_MAX, shift amounts 31..64 ...
#include "corpus.h"

// 32-bit arithmetic: add/sub/mul.lo/mul.hi/mul.wide/mul24/mad, signed and unsigned.
KERNEL int_arith(KPARAMS) {
    const uint *a = (const uint *)a_, *b = (const uint *)b_, *c = (const uint *)c_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    uint x = a[i], y = b[i], z = c[i];
    int sx = (int)x, sy = (int)y;
    uint *o = out + i * 16;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = (uint)__mulhi(sx, sy);
    o[4] = __umulhi(x, y);
    long long w = (long long)sx * sy; // mul.wide.s32
    o[5] = (uint)w;
    o[6] = (uint)(w >> 32);
    ull uw = (ull)x * y; // mul.wide.u32
    o[7] = (uint)(uw >> 32);
    o[8] = (uint)__mul24(sx, sy);
    o[9] = __umul24(x, y);
    o[10] = x * y + z; // mad.lo
    o[11] = (uint)(-sx);
    o[12] = (uint)abs(sx);
    o[13] = (uint)min(sx, sy);
    o[14] = umax(x, y);
    o[15] = (uint)__hadd(sx, sy) ^ (uint)__rhadd(sx, sy) * 3u ^ __uhadd(x, y) * 5u;
}

// Division and remainder: the divisor 0 and INT_MIN / -1 are in the inputs. PTX leaves both
// machine-specific; the expected values are what the H100 computes for this PTX.
KERNEL int_div(KPARAMS) {
    const uint *a = (const uint *)a_, *b = (const uint *)b_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    uint x = a[i], y = b[i];
    uint *o = out + i * 4;
    o[0] = x / y;
    o[1] = x % y;
    o[2] = (uint)((int)x / (int)y);
    o[3] = (uint)((int)x % (int)y);
}

// Division by values that are never 0 and never -1 with INT_MIN: defined everywhere.
KERNEL int_div_defined(KPARAMS) {
    const uint *a = (const uint *)a_, *b = (const uint *)b_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    uint x = a[i], y = b[i] | 2u; // never 0, never -1
    uint *o = out + i * 4;
    o[0] = x / y;
    o[1] = x % y;
    o[2] = (uint)((int)x / (int)y);
    o[3] = (uint)((int)x % (int)y);
}

// Shifts with amounts up to 63: PTX clamps amounts above the width (shl/shr give 0, shr.s
// the sign), shf's wrap mode takes the amount mod 32 and clamp mode clamps to 32.
KERNEL int_shift(KPARAMS) {
    const uint *a = (const uint *)a_, *b = (const uint *)b_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    uint x = a[i], y = b[i];
    uint s = y & 63u;
    uint *o = out + i * 10;
    uint r;
    asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(s));
    o[0] = r;
    asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(s));
    o[1] = r;
    asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(s));
    o[2] = r;
    o[3] = x << (s & 31u);
    o[4] = (uint)((int)x >> (s & 31u));
    o[5] = __funnelshift_l(x, y, s);
    o[6] = __funnelshift_r(x, y, s);
    o[7] = __funnelshift_lc(x, y, s);
    o[8] = __funnelshift_rc(x, y, s);
    o[9] = (x >> (s & 31u)) | (x << ((32u - s) & 31u)); // a rotate
}

// Bit manipulation: popc, clz, brev, ffs (bfind), prmt, sad, dp4a, bfe/bfi patterns.
KERNEL int_bits(KPARAMS) {
    const uint *a = (const uint *)a_, *b = (const uint *)b_, *c = (const uint *)c_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    uint x = a[i], y = b[i], z = c[i];
    uint *o = out + i * 16;
    o[0] = (uint)__popc(x);
    o[1] = (uint)__clz((int)x);
    o[2] = __brev(x);
    o[3] = (uint)__ffs((int)x);
    uint r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); // sign-replicate mode included
    o[4] = r;
    o[5] = __byte_perm(x, y, z);
    o[6] = __sad((int)x, (int)y, z);
    o[7] = __usad(x, y, z);
    o[8] = (uint)__dp4a((int)x, (int)y, (int)z);
    o[9] = __dp4a(x, y, z);
    o[10] = (x >> (y & 31u)) & ((1u << (z & 15u)) - 1u); // bfe.u32 shape
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y & 255u), "r"(z & 255u));
    o[11] = r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y & 255u), "r"(z & 255u));
    o[12] = r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(z & 255u), "r"((z >> 8) & 255u));
    o[13] = r;
    asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x));
    o[14] = r;
    asm("bfind.shiftamt.s32 %0, %1;" : "=r"(r) : "r"(x));
    o[15] = r;
}

// 64-bit arithmetic: add/sub/mul/mul.hi/div/rem/shifts/popc/clz/brev.
KERNEL int64_arith(KPARAMS) {
    const ull *a = (const ull *)a_, *b = (const ull *)b_;
    ull *out = (ull *)out_;
    int i = GID;
    if (i >= n) return;
    ull x = a[i], y = b[i];
    ull yd = y | 2u; // never 0 or -1
    ull *o = out + i * 14;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __umul64hi(x, y);
    o[4] = (ull)__mul64hi((long long)x, (long long)y);
    o[5] = x / yd;
    o[6] = x % yd;
    o[7] = (ull)((long long)x / (long long)yd);
    o[8] = (ull)((long long)x % (long long)yd);
    o[9] = x << (y & 63u);
    o[10] = (ull)((long long)x >> (y & 63u));
    o[11] = x >> (y & 63u);
    o[12] = (ull)__popcll(x) | (ull)__clzll((long long)x) << 8 | (ull)llabs((long long)x) << 16;
    o[13] = __brevll(x);
}

// Narrow types: 8- and 16-bit loads/stores, sign extension, and selp/slct shapes.
KERNEL int_narrow(KPARAMS) {
    const signed char *a = (const signed char *)a_;
    const unsigned short *b = (const unsigned short *)b_;
    int *out = (int *)out_;
    int i = GID;
    if (i >= n) return;
    int *o = out + i * 6;
    o[0] = a[i];
    o[1] = (unsigned char)a[i];
    o[2] = (short)b[i];
    o[3] = b[i];
    o[4] = (signed char)(a[i] * 3 + b[i]);
    o[5] = a[i] < 0 ? (int)b[i] : -(int)b[i];
}
