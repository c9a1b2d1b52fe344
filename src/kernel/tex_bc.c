/*
 * Block-compressed texels (issue 23, part texfilter): one texel of a 4x4 block of BC1 to BC7,
 * decoded as an H100 decodes it for its texture unit (docs/images.md, "Block-compressed
 * textures"; probes in docs/probes/kernels/texfilter and docs/probes/images/sampling).
 *
 * The layouts are the ones the Khronos Data Format Specification 1.3 gives (chapter "BC1 to BC7"
 * / S3TC, RGTC, BPTC) and Direct3D 11's functional specification describes; the arithmetic that
 * turns a block into values where the formats leave it open (the interpolated BC1-BC5 values) is
 * the H100's, fitted bit for bit from its outputs:
 * - BC1 to BC3 colour: endpoints widened by bit replication, red and blue interpolants
 *   ((2 a + b) * 22) >> 3 on the 5-bit values (three-colour mode ((a + b) * 33) >> 3), green on the
 *   widened values (256 A + floor(d / 4) + 128 + 80 d) >> 8 and so on (every texel of 2048 random blocks of
 *   BC1, BC2 and BC3 each);
 * - BC3 alpha: (a0 * (2048 - W) + a1 * W + 1024) >> 11 with the H100's weights W (every one of
 *   the 65536 endpoint pairs at each index, filter_probe's bc3a table);
 * - BC4 and BC5 unsigned: 16 bits, a0 * 257 + (a1 - a0) * W with W in 1/257 (every pair and
 *   index: exact); signed: endpoints widened as m * 258 + (m >> 6), each interpolant an endpoint
 *   plus the 8-bit difference times a weight of 258 (every pair and index: exact, part tex3d);
 * - BC6H and BC7: the specification's decoding (BC6H's unquantization and its * 31 / 64 finish,
 *   BC7's 6-bit weights with (a * (64 - w) + b * w + 32) >> 6).
 */
#include "ops_image.h"

/* ---- BC1 to BC3 colour, BC3 alpha ---- */

/* floor(v / 4) */
static int quarter(int v)
{
    return v >= 0 ? v / 4 : -((-v + 3) / 4);
}

static void bc_colour(const unsigned char *cb, bool four_always, unsigned k, int out[4])
{
    uint32_t c0 = (uint32_t)cb[0] | (uint32_t)cb[1] << 8, c1 = (uint32_t)cb[2] | (uint32_t)cb[3] << 8;
    uint32_t idx = (uint32_t)cb[4] | (uint32_t)cb[5] << 8 | (uint32_t)cb[6] << 16 | (uint32_t)cb[7] << 24;
    unsigned sel = (idx >> (2 * k)) & 3;
    int r0 = (int)(c0 >> 11) & 31, g0 = (int)(c0 >> 5) & 63, b0 = (int)c0 & 31;
    int r1 = (int)(c1 >> 11) & 31, g1 = (int)(c1 >> 5) & 63, b1 = (int)c1 & 31;
    int A = (g0 << 2) | (g0 >> 4), B = (g1 << 2) | (g1 >> 4), d = B - A;
    int r = 0, g = 0, b = 0, a = 255;
    bool four = four_always || c0 > c1;
    switch (sel) {
    case 0: r = (r0 << 3) | (r0 >> 2); g = A; b = (b0 << 3) | (b0 >> 2); break;
    case 1: r = (r1 << 3) | (r1 >> 2); g = B; b = (b1 << 3) | (b1 >> 2); break;
    case 2:
        if (four) {
            r = ((2 * r0 + r1) * 22) >> 3;
            g = (256 * A + quarter(d) + 128 + d * 80) >> 8;
            b = ((2 * b0 + b1) * 22) >> 3;
        } else {
            r = ((r0 + r1) * 33) >> 3;
            g = (256 * A + quarter(d) + 128 + d * 128) >> 8;
            b = ((b0 + b1) * 33) >> 3;
        }
        break;
    default:
        if (four) {
            r = ((r0 + 2 * r1) * 22) >> 3;
            g = (256 * A + quarter(3 * d) + 128 + d * 175) >> 8;
            b = ((b0 + 2 * b1) * 22) >> 3;
        } else {
            a = 0; /* BC1's transparent black */
        }
        break;
    }
    out[0] = r;
    out[1] = g;
    out[2] = b;
    out[3] = a;
}

/* The 3-bit index of texel k of a BC3/BC4/BC5 channel block (2 endpoint bytes, 6 index bytes). */
static unsigned bc_index3(const unsigned char *p, unsigned k)
{
    uint64_t bits = 0;
    for (int q = 0; q < 6; ++q)
        bits |= (uint64_t)p[2 + q] << (8 * q);
    return (unsigned)(bits >> (3 * k)) & 7;
}

/* BC3's alpha, as the H100 interpolates it (weights in 1/2048, fitted on every endpoint pair). */
static int bc3_alpha(const unsigned char *p, unsigned k)
{
    static const int w8[8] = {0, 0, 289, 578, 892, 1156, 1470, 1759}, w6[6] = {0, 0, 385, 770, 1278, 1663};
    int a0 = p[0], a1 = p[1];
    unsigned ai = bc_index3(p, k);
    if (ai == 0)
        return a0;
    if (ai == 1)
        return a1;
    if (a0 <= a1 && ai >= 6)
        return ai == 6 ? 0 : 255;
    int w = a0 > a1 ? w8[ai] : w6[ai];
    return (a0 * (2048 - w) + a1 * w + 1024) >> 11;
}

/* One BC4 channel (a BC5 half) as 16 bits: unsigned of 65535, signed of 32767 (two's
 * complement in the low 32 bits). */
static uint32_t bc4_channel(const unsigned char *p, unsigned k, bool sgn)
{
    /* The H100's interpolation weights of 257 (unsigned). */
    static const int u8w[8] = {0, 0, 36, 72, 113, 144, 185, 221}, u6w[6] = {0, 0, 48, 96, 161, 209};
    unsigned ai = bc_index3(p, k);
    if (!sgn) {
        int a0 = p[0], a1 = p[1];
        if (ai == 0)
            return (uint32_t)a0 * 257;
        if (ai == 1)
            return (uint32_t)a1 * 257;
        if (a0 <= a1 && ai >= 6)
            return ai == 6 ? 0 : 65535;
        int w = a0 > a1 ? u8w[ai] : u6w[ai];
        return (uint32_t)(a0 * 257 + (a1 - a0) * w);
    }
    int s0 = (int8_t)p[0], s1 = (int8_t)p[1];
    int e[2];
    for (int q = 0; q < 2; ++q) {
        int sv = q ? s1 : s0;
        int m = sv < 0 ? (sv < -127 ? 127 : -sv) : sv;
        int v = m * 258 + (m >> 6); /* 127 -> 32767 */
        e[q] = sv < 0 ? -v : v;
    }
    if (ai == 0)
        return (uint32_t)e[0];
    if (ai == 1)
        return (uint32_t)e[1];
    /* tex3d: -128 is -127 here too, in the mode test as well ((-127, -128) is the six-value
     * mode). Each interpolant is one widened endpoint plus the 8-bit difference times a weight
     * of 258 (the widening's correction term is not interpolated): eight values 36, 72 and
     * 144 from e0 (indices 2, 3, 5) and from e1 (7, 6, 4); six values 48 and 96 from e0
     * (2, 3) and from e1 (5, 4). Every index of every endpoint pair of signed BC4, both
     * channels of signed BC5 (docs/probes/kernels/tex3d). */
    int c0 = s0 < -127 ? -127 : s0, c1 = s1 < -127 ? -127 : s1, d = c1 - c0;
    if (c0 <= c1 && ai >= 6)
        return (uint32_t)(ai == 6 ? -32767 : 32767);
    int v;
    if (c0 > c1) {
        static const int from0[8] = {0, 0, 36, 72, 0, 144, 0, 0}, from1[8] = {0, 0, 0, 0, 144, 0, 72, 36};
        v = from0[ai] ? e[0] + d * from0[ai] : e[1] - d * from1[ai];
    } else {
        static const int from0[6] = {0, 0, 48, 96, 0, 0}, from1[6] = {0, 0, 0, 0, 96, 48};
        v = from0[ai] ? e[0] + d * from0[ai] : e[1] - d * from1[ai];
    }
    return (uint32_t)(int32_t)v;
}

/* ---- BC6H and BC7 (BPTC) ---- */

/* Bits of a 128-bit block, least significant first. */
struct kbits {
    const unsigned char *p;
    unsigned at;
};
static uint32_t take(struct kbits *b, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; ++i, ++b->at)
        v |= (uint32_t)((b->p[b->at >> 3] >> (b->at & 7)) & 1) << i;
    return v;
}

/* The specification's partition tables: two subsets (bit i: texel i's subset) and three
 * subsets (2 bits per texel), with the anchor texels of the second and third subsets. */
static const uint16_t part2[64] = {
    0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80, 0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8,
    0xff00, 0xfff0, 0xf000, 0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce, 0x088c, 0x3110,
    0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c, 0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696,
    0xa55a, 0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660, 0x0272, 0x04e4, 0x4e40, 0x2720,
    0xc936, 0x936c, 0x39c6, 0x639c, 0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
};
static const uint32_t part3[64] = {
    0xaa685050u, 0x6a5a5040u, 0x5a5a4200u, 0x5450a0a8u, 0xa5a50000u, 0xa0a05050u, 0x5555a0a0u, 0x5a5a5050u,
    0xaa550000u, 0xaa555500u, 0xaaaa5500u, 0x90909090u, 0x94949494u, 0xa4a4a4a4u, 0xa9a59450u, 0x2a0a4250u,
    0xa5945040u, 0x0a425054u, 0xa5a5a500u, 0x55a0a0a0u, 0xa8a85454u, 0x6a6a4040u, 0xa4a45000u, 0x1a1a0500u,
    0x0050a4a4u, 0xaaa59090u, 0x14696914u, 0x69691400u, 0xa08585a0u, 0xaa821414u, 0x50a4a450u, 0x6a5a0200u,
    0xa9a58000u, 0x5090a0a8u, 0xa8a09050u, 0x24242424u, 0x00aa5500u, 0x24924924u, 0x24499224u, 0x50a50a50u,
    0x500aa550u, 0xaaaa4444u, 0x66660000u, 0xa5a0a5a0u, 0x50a050a0u, 0x69286928u, 0x44aaaa44u, 0x66666600u,
    0xaa444444u, 0x54a854a8u, 0x95809580u, 0x96969600u, 0xa85454a8u, 0x80959580u, 0xaa141414u, 0x96960000u,
    0xaaaa1414u, 0xa05050a0u, 0xa0a5a5a0u, 0x96000000u, 0x40804080u, 0xa9a8a9a8u, 0xaaaaaa44u, 0x2a4a5254u,
};
static const uint8_t anchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2,  8, 2,  2, 8,  8,  15, 2, 8, 2, 2,
    8,  8,  2,  2,  15, 15, 6,  8,  2,  8,  15, 15, 2,  8,  2,  2,  2,  15, 15, 6, 6, 2,  6,  8,  15, 15, 2, 2,
    15, 15, 15, 15, 15, 2,  2,  15,
};
static const uint8_t anchor3a[64] = {
    3, 3, 15, 15, 8, 3,  15, 15, 8, 8, 6, 6,  6, 5, 3,  3,  3,  3,  8,  15, 3,  3,  6,  10, 5,  8,  8, 6,
    8, 5, 15, 15, 8, 15, 3,  5,  6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5,  5,  5,  8,  5, 10,
    5, 10, 8, 13, 15, 12, 3, 3,
};
static const uint8_t anchor3b[64] = {
    15, 8,  8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,  15, 8,  15, 3,  15, 8,  15, 8,  3,  15, 6, 10,
    15, 15, 10, 8,  15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15, 3,  6,  6,  8,  15, 3,  15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 3,  15, 15, 8,
};
static const int weights2[4] = {0, 21, 43, 64}, weights3[8] = {0, 9, 18, 27, 37, 46, 55, 64},
                 weights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
static const int *weights_of(unsigned bits)
{
    return bits == 2 ? weights2 : bits == 3 ? weights3 : weights4;
}

/* The subset of texel k and whether it is an anchor (its index has one bit less). */
static unsigned subset_of(unsigned nsub, unsigned part, unsigned k, bool *anchor)
{
    if (nsub == 1) {
        *anchor = k == 0;
        return 0;
    }
    if (nsub == 2) {
        *anchor = k == 0 || k == anchor2[part];
        return (part2[part] >> k) & 1;
    }
    *anchor = k == 0 || k == anchor3a[part] || k == anchor3b[part];
    return (part3[part] >> (2 * k)) & 3;
}

/* Skips the indices of texels before k and returns texel k's (bits per index, anchors one less). */
static uint32_t index_of(struct kbits *b, unsigned nsub, unsigned part, unsigned bits, unsigned k)
{
    for (unsigned t = 0; t < 16; ++t) {
        bool anchor;
        subset_of(nsub, part, t, &anchor);
        unsigned n = anchor ? bits - 1 : bits;
        if (t == k)
            return take(b, n);
        b->at += n;
    }
    return 0;
}

static int lerp64(int a, int b, int w)
{
    return (a * (64 - w) + b * w + 32) >> 6;
}

/* BC7: RGBA 8 bits each. */
static void bc7_texel(const unsigned char *p, unsigned k, int out[4])
{
    /* per mode: subsets, partition bits, rotation bits, index-selection bits, colour bits,
     * alpha bits, P-bits per endpoint, shared P-bits, index bits, second index bits */
    static const uint8_t modes[8][10] = {
        {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
        {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
        {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
    };
    unsigned mode = 0;
    while (mode < 8 && !((p[0] >> mode) & 1))
        mode++;
    if (mode == 8) { /* reserved: zeros */
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    const uint8_t *m = modes[mode];
    struct kbits b = {p, mode + 1};
    unsigned nsub = m[0], part = take(&b, m[1]), rot = take(&b, m[2]), isb = take(&b, m[3]);
    unsigned cb = m[4], ab = m[5];
    int ep[6][4];
    for (unsigned c = 0; c < 3; ++c)
        for (unsigned e = 0; e < 2 * nsub; ++e)
            ep[e][c] = (int)take(&b, cb);
    for (unsigned e = 0; e < 2 * nsub; ++e)
        ep[e][3] = ab ? (int)take(&b, ab) : 255;
    unsigned pbits = m[6] ? 1 : m[7] ? 1 : 0;
    if (pbits) {
        unsigned pb[6];
        for (unsigned e = 0; e < 2 * nsub; ++e)
            pb[e] = m[6] ? take(&b, 1) : 0;
        if (m[7]) {
            unsigned s0 = take(&b, 1), s1 = take(&b, 1);
            for (unsigned e = 0; e < 2 * nsub; ++e)
                pb[e] = e < 2 ? s0 : s1;
        }
        for (unsigned e = 0; e < 2 * nsub; ++e)
            for (unsigned c = 0; c < 4; ++c)
                if (c < 3 || ab)
                    ep[e][c] = (ep[e][c] << 1) | (int)pb[e];
    }
    /* widened to 8 bits by replicating the high bits */
    for (unsigned e = 0; e < 2 * nsub; ++e)
        for (unsigned c = 0; c < 4; ++c) {
            if (c == 3 && !ab)
                continue;
            unsigned n = (c < 3 ? cb : ab) + pbits;
            ep[e][c] = (ep[e][c] << (8 - n)) | (ep[e][c] >> (2 * n - 8));
        }
    bool anchor;
    unsigned s = subset_of(nsub, part, k, &anchor);
    unsigned ib = m[8], ib2 = m[9];
    struct kbits bi = b;
    uint32_t i1 = index_of(&bi, nsub, part, ib, k);
    int wc = weights_of(ib)[i1], wa = wc;
    if (ib2) {
        struct kbits b2 = b;
        b2.at += 16 * ib - 1; /* past the first indices (one anchor) */
        uint32_t i2 = index_of(&b2, 1, 0, ib2, k);
        if (isb)
            wc = weights_of(ib2)[i2];
        else
            wa = weights_of(ib2)[i2];
    }
    for (unsigned c = 0; c < 4; ++c)
        out[c] = lerp64(ep[2 * s][c], ep[2 * s + 1][c], c < 3 ? wc : wa);
    if (rot) {
        int t = out[3];
        out[3] = out[rot - 1];
        out[rot - 1] = t;
    }
}

/* BC6H's header layouts: for each of the 14 modes, the fields in the order the bits come, as
 * {field, first bit, count} (field: 0-3 rw rx ry rz, 4-7 gw gx gy gz, 8-11 bw bx by bz; a count
 * with 0x80 set: the bits come most significant first), ending with {0xff}. */
struct kseg {
    uint8_t field, first, count;
};
#define RW 0
#define RX 1
#define RY 2
#define RZ 3
#define GW 4
#define GX 5
#define GY 6
#define GZ 7
#define BW 8
#define BX 9
#define BY 10
#define BZ 11
#define END {0xff, 0, 0}
static const struct kseg bc6_m1[] = {{GY, 4, 1}, {BY, 4, 1}, {BZ, 4, 1}, {RW, 0, 10}, {GW, 0, 10}, {BW, 0, 10},
                                     {RX, 0, 5}, {GZ, 4, 1}, {GY, 0, 4}, {GX, 0, 5}, {BZ, 0, 1}, {GZ, 0, 4},
                                     {BX, 0, 5}, {BZ, 1, 1}, {BY, 0, 4}, {RY, 0, 5}, {BZ, 2, 1}, {RZ, 0, 5},
                                     {BZ, 3, 1}, END};
static const struct kseg bc6_m2[] = {{GY, 5, 1}, {GZ, 4, 1}, {GZ, 5, 1}, {RW, 0, 7}, {BZ, 0, 1}, {BZ, 1, 1},
                                     {BY, 4, 1}, {GW, 0, 7}, {BY, 5, 1}, {BZ, 2, 1}, {GY, 4, 1}, {BW, 0, 7},
                                     {BZ, 3, 1}, {BZ, 5, 1}, {BZ, 4, 1}, {RX, 0, 6}, {GY, 0, 4}, {GX, 0, 6},
                                     {GZ, 0, 4}, {BX, 0, 6}, {BY, 0, 4}, {RY, 0, 6}, {RZ, 0, 6}, END};
static const struct kseg bc6_m3[] = {{RW, 0, 10}, {GW, 0, 10}, {BW, 0, 10}, {RX, 0, 5}, {RW, 10, 1}, {GY, 0, 4},
                                     {GX, 0, 4},  {GW, 10, 1}, {BZ, 0, 1},  {GZ, 0, 4}, {BX, 0, 4},  {BW, 10, 1},
                                     {BZ, 1, 1},  {BY, 0, 4},  {RY, 0, 5},  {BZ, 2, 1}, {RZ, 0, 5},  {BZ, 3, 1}, END};
static const struct kseg bc6_m4[] = {{RW, 0, 10}, {GW, 0, 10}, {BW, 0, 10}, {RX, 0, 4}, {RW, 10, 1}, {GZ, 4, 1},
                                     {GY, 0, 4},  {GX, 0, 5},  {GW, 10, 1}, {GZ, 0, 4}, {BX, 0, 4},  {BW, 10, 1},
                                     {BZ, 1, 1},  {BY, 0, 4},  {RY, 0, 4},  {BZ, 0, 1}, {BZ, 2, 1},  {RZ, 0, 4},
                                     {GY, 4, 1},  {BZ, 3, 1},  END};
static const struct kseg bc6_m5[] = {{RW, 0, 10}, {GW, 0, 10}, {BW, 0, 10}, {RX, 0, 4}, {RW, 10, 1}, {BY, 4, 1},
                                     {GY, 0, 4},  {GX, 0, 4},  {GW, 10, 1}, {BZ, 0, 1}, {GZ, 0, 4},  {BX, 0, 5},
                                     {BW, 10, 1}, {BY, 0, 4},  {RY, 0, 4},  {BZ, 1, 1}, {BZ, 2, 1},  {RZ, 0, 4},
                                     {BZ, 4, 1},  {BZ, 3, 1},  END};
static const struct kseg bc6_m6[] = {{RW, 0, 9}, {BY, 4, 1}, {GW, 0, 9}, {GY, 4, 1}, {BW, 0, 9}, {BZ, 4, 1},
                                     {RX, 0, 5}, {GZ, 4, 1}, {GY, 0, 4}, {GX, 0, 5}, {BZ, 0, 1}, {GZ, 0, 4},
                                     {BX, 0, 5}, {BZ, 1, 1}, {BY, 0, 4}, {RY, 0, 5}, {BZ, 2, 1}, {RZ, 0, 5},
                                     {BZ, 3, 1}, END};
static const struct kseg bc6_m7[] = {{RW, 0, 8}, {GZ, 4, 1}, {BY, 4, 1}, {GW, 0, 8}, {BZ, 2, 1}, {GY, 4, 1},
                                     {BW, 0, 8}, {BZ, 3, 1}, {BZ, 4, 1}, {RX, 0, 6}, {GY, 0, 4}, {GX, 0, 5},
                                     {BZ, 0, 1}, {GZ, 0, 4}, {BX, 0, 5}, {BZ, 1, 1}, {BY, 0, 4}, {RY, 0, 6},
                                     {RZ, 0, 6}, END};
static const struct kseg bc6_m8[] = {{RW, 0, 8}, {BZ, 0, 1}, {BY, 4, 1}, {GW, 0, 8}, {GY, 5, 1}, {GY, 4, 1},
                                     {BW, 0, 8}, {GZ, 5, 1}, {BZ, 4, 1}, {RX, 0, 5}, {GZ, 4, 1}, {GY, 0, 4},
                                     {GX, 0, 6}, {GZ, 0, 4}, {BX, 0, 5}, {BZ, 1, 1}, {BY, 0, 4}, {RY, 0, 5},
                                     {BZ, 2, 1}, {RZ, 0, 5}, {BZ, 3, 1}, END};
static const struct kseg bc6_m9[] = {{RW, 0, 8}, {BZ, 1, 1}, {BY, 4, 1}, {GW, 0, 8}, {BY, 5, 1}, {GY, 4, 1},
                                     {BW, 0, 8}, {BZ, 5, 1}, {BZ, 4, 1}, {RX, 0, 5}, {GZ, 4, 1}, {GY, 0, 4},
                                     {GX, 0, 5}, {BZ, 0, 1}, {GZ, 0, 4}, {BX, 0, 6}, {BY, 0, 4}, {RY, 0, 5},
                                     {BZ, 2, 1}, {RZ, 0, 5}, {BZ, 3, 1}, END};
static const struct kseg bc6_m10[] = {{RW, 0, 6}, {GZ, 4, 1}, {BZ, 0, 1}, {BZ, 1, 1}, {BY, 4, 1}, {GW, 0, 6},
                                      {GY, 5, 1}, {BY, 5, 1}, {BZ, 2, 1}, {GY, 4, 1}, {BW, 0, 6}, {GZ, 5, 1},
                                      {BZ, 3, 1}, {BZ, 5, 1}, {BZ, 4, 1}, {RX, 0, 6}, {GY, 0, 4}, {GX, 0, 6},
                                      {GZ, 0, 4}, {BX, 0, 6}, {BY, 0, 4}, {RY, 0, 6}, {RZ, 0, 6}, END};
static const struct kseg bc6_m11[] = {{RW, 0, 10}, {GW, 0, 10}, {BW, 0, 10}, {RX, 0, 10}, {GX, 0, 10}, {BX, 0, 10}, END};
static const struct kseg bc6_m12[] = {{RW, 0, 10}, {GW, 0, 10}, {BW, 0, 10}, {RX, 0, 9}, {RW, 10, 1},
                                      {GX, 0, 9},  {GW, 10, 1}, {BX, 0, 9},  {BW, 10, 1}, END};
static const struct kseg bc6_m13[] = {{RW, 0, 10}, {GW, 0, 10}, {BW, 0, 10}, {RX, 0, 8}, {RW, 10, 0x82},
                                      {GX, 0, 8},  {GW, 10, 0x82}, {BX, 0, 8}, {BW, 10, 0x82}, END};
static const struct kseg bc6_m14[] = {{RW, 0, 10}, {GW, 0, 10}, {BW, 0, 10}, {RX, 0, 4}, {RW, 10, 0x86},
                                      {GX, 0, 4},  {GW, 10, 0x86}, {BX, 0, 4}, {BW, 10, 0x86}, END};

struct kbc6_mode {
    const struct kseg *seg;
    uint8_t epb;      /* bits of the base endpoint */
    uint8_t delta[3]; /* bits of the other endpoints, per channel */
    uint8_t transformed, regions;
};
/* Indexed by the mode bits: 2 bits (00, 01) or 5 bits (the others; reserved: NULL). */
static const struct kbc6_mode *bc6_mode(unsigned bits5)
{
    static const struct kbc6_mode m[14] = {
        {bc6_m1, 10, {5, 5, 5}, 1, 2},   {bc6_m2, 7, {6, 6, 6}, 1, 2},    {bc6_m3, 11, {5, 4, 4}, 1, 2},
        {bc6_m4, 11, {4, 5, 4}, 1, 2},   {bc6_m5, 11, {4, 4, 5}, 1, 2},   {bc6_m6, 9, {5, 5, 5}, 1, 2},
        {bc6_m7, 8, {6, 5, 5}, 1, 2},    {bc6_m8, 8, {5, 6, 5}, 1, 2},    {bc6_m9, 8, {5, 5, 6}, 1, 2},
        {bc6_m10, 6, {6, 6, 6}, 0, 2},   {bc6_m11, 10, {10, 10, 10}, 0, 1}, {bc6_m12, 11, {9, 9, 9}, 1, 1},
        {bc6_m13, 12, {8, 8, 8}, 1, 1},  {bc6_m14, 16, {4, 4, 4}, 1, 1},
    };
    if ((bits5 & 3) == 0)
        return &m[0];
    if ((bits5 & 3) == 1)
        return &m[1];
    switch (bits5) {
    case 0x02: return &m[2];
    case 0x06: return &m[3];
    case 0x0a: return &m[4];
    case 0x0e: return &m[5];
    case 0x12: return &m[6];
    case 0x16: return &m[7];
    case 0x1a: return &m[8];
    case 0x1e: return &m[9];
    case 0x03: return &m[10];
    case 0x07: return &m[11];
    case 0x0b: return &m[12];
    case 0x0f: return &m[13];
    default: return NULL;
    }
}

static int sext(int v, unsigned bits)
{
    return bits >= 32 ? v : (int)((uint32_t)v << (32 - bits)) >> (32 - bits);
}

static int bc6_unquantize(int v, unsigned bits, bool sgn)
{
    if (!sgn) {
        if (bits >= 15 || v == 0)
            return v;
        if (v == (1 << bits) - 1)
            return 0xffff;
        return ((v << 16) + 0x8000) >> bits;
    }
    if (bits >= 16)
        return v;
    bool neg = v < 0;
    int m = neg ? -v : v, u;
    if (m == 0)
        u = 0;
    else if (m >= (1 << (bits - 1)) - 1)
        u = 0x7fff;
    else
        u = ((m << 15) + 0x4000) >> (bits - 1);
    return neg ? -u : u;
}

static uint32_t bc6_finish(int v, bool sgn)
{
    if (!sgn)
        return (uint32_t)((v * 31) >> 6);
    int m = v < 0 ? ((-v) * 31) >> 5 : (v * 31) >> 5;
    return (uint32_t)((v < 0 ? 0x8000 : 0) | m);
}

/* BC6H: RGB as half bits. */
static void bc6_texel(const unsigned char *p, unsigned k, bool sgn, uint32_t out[4])
{
    struct kbits b = {p, 0};
    unsigned mb = take(&b, 2);
    if (mb >= 2)
        mb |= take(&b, 3) << 2;
    const struct kbc6_mode *m = bc6_mode(mb);
    out[3] = 0x3c00; /* 1.0 */
    if (!m) {
        out[0] = out[1] = out[2] = 0;
        return;
    }
    int f[12] = {0};
    for (const struct kseg *s = m->seg; s->field != 0xff; ++s) {
        unsigned n = s->count & 0x7f;
        uint32_t v = take(&b, n);
        if (s->count & 0x80) { /* most significant first */
            uint32_t r = 0;
            for (unsigned i = 0; i < n; ++i)
                r |= ((v >> i) & 1) << (n - 1 - i);
            v = r;
        }
        f[s->field] |= (int)(v << s->first);
    }
    unsigned part = m->regions == 2 ? take(&b, 5) : 0;
    unsigned nend = m->regions * 2;
    int e[4][3];
    for (unsigned c = 0; c < 3; ++c) {
        int w = f[4 * c];
        if (sgn)
            w = sext(w, m->epb);
        e[0][c] = w;
        for (unsigned q = 1; q < nend; ++q) {
            int d = f[4 * c + q];
            if (m->transformed) {
                d = sext(d, m->delta[c]);
                int v = (f[4 * c] + d) & ((1 << m->epb) - 1);
                e[q][c] = sgn ? sext(v, m->epb) : v;
            } else {
                e[q][c] = sgn ? sext(d, m->epb) : d;
            }
        }
    }
    bool anchor;
    unsigned s = m->regions == 2 ? subset_of(2, part, k, &anchor) : 0;
    unsigned ib = m->regions == 2 ? 3 : 4;
    struct kbits bi = b;
    uint32_t idx = index_of(&bi, m->regions, part, ib, k);
    int w = weights_of(ib)[idx];
    for (unsigned c = 0; c < 3; ++c) {
        int a = bc6_unquantize(e[2 * s][c], m->epb, sgn), z = bc6_unquantize(e[2 * s + 1][c], m->epb, sgn);
        out[c] = bc6_finish(lerp64(a, z, w), sgn);
    }
}

enum kbc_repr kimg_bc_decode(unsigned bc, bool sgn, const unsigned char *p, unsigned i, unsigned j, uint32_t out[4])
{
    unsigned k = j * 4 + i;
    int v[4];
    switch (bc) {
    case 1:
    case 2:
    case 3:
        bc_colour(bc == 1 ? p : p + 8, bc != 1, k, v);
        if (bc == 2)
            v[3] = ((p[k / 2] >> (4 * (k & 1))) & 15) * 17;
        else if (bc == 3)
            v[3] = bc3_alpha(p, k);
        for (int c = 0; c < 4; ++c)
            out[c] = (uint32_t)v[c];
        return KBC_UNORM8;
    case 4:
    case 5:
        out[0] = bc4_channel(p, k, sgn);
        out[1] = bc == 5 ? bc4_channel(p + 8, k, sgn) : 0;
        out[2] = 0;
        out[3] = sgn ? 32767 : 65535;
        return sgn ? KBC_SNORM16 : KBC_UNORM16;
    case 6:
        bc6_texel(p, k, sgn, out);
        return KBC_HALF;
    default:
        bc7_texel(p, k, v);
        for (int c = 0; c < 4; ++c)
            out[c] = (uint32_t)v[c];
        return KBC_UNORM8;
    }
}
