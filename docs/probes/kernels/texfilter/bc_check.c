/* Replays filter_probe's bc.bin (the H100's decoding of every BC format) against the engine's
 * decoder (src/kernel/tex_bc.c) and prints, per record, how many texels agree bit for bit.
 *   sed -n '/^static const uint16_t srgb_table/,/^};/p' src/kernel/ops_tex.c > /tmp/srgb_table.h
 *   cc -O2 -Isrc -Iinclude -Ibuild/include -Isrc/kernel -DSRGB_TABLE='"/tmp/srgb_table.h"' \
 *      docs/probes/kernels/texfilter/bc_check.c -o /tmp/bc_check -lm
 *   /tmp/bc_check bc.bin            (bc.bin: filter_probe's output, not kept in the tree) */
#include "../../../../src/kernel/tex_bc.c"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
/* ops_tex.c's sRGB table (the H100's decoding of 0..255, high 16 bits of the f32), pulled out of
 * the source by the build command: -DSRGB_TABLE='"/tmp/srgb_table.h"' (see the header). */
#ifdef SRGB_TABLE
#include SRGB_TABLE
#endif

/* the float a texel reads as (point sampling, normalized read), as ops_tex.c's decode makes it */
static uint32_t as_float(enum kbc_repr r, uint32_t v)
{
    switch (r) {
    case KBC_UNORM8: return fbits((float)((double)v / 255.0));
    case KBC_UNORM16: return fbits((float)((double)v / 65535.0));
    case KBC_SNORM16: { double d = (double)(int32_t)v / 32767.0; return fbits((float)(d < -1 ? -1 : d)); }
    default: {
        uint16_t h = (uint16_t)v; uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31, m = h & 1023;
        if (e == 31) return s | 0x7f800000u | (m << 13);
        if (e) return s | ((e + 112) << 23) | (m << 13);
        if (!m) return s;
        int k = 0; while (!(m & 0x400)) { m <<= 1; k++; }
        return s | ((uint32_t)(113 - k) << 23) | ((m & 1023) << 13);
    }
    }
}

int main(int argc, char **argv)
{
    FILE *f = fopen(argc > 1 ? argv[1] : "bc.bin", "rb");
    if (!f) return 1;
    char name[33];
    uint32_t n, esz;
    while (fread(name, 32, 1, f) == 1 && fread(&n, 4, 1, f) == 1 && fread(&esz, 4, 1, f) == 1) {
        name[32] = 0;
        uint32_t *d = malloc((size_t)n * esz);
        if (fread(d, esz, n, f) != n) return 1;
        unsigned bc = 0; bool sgn = false; int chan = -1;
        if (!strcmp(name, "bc4u") || !strcmp(name, "bc4s") || !strcmp(name, "bc3a")) {
            /* tables: block b = (a0 = b & 255, a1 = b >> 8), texel k has index k */
            bc = name[2] == '4' ? 4 : 3; sgn = name[3] == 's'; chan = bc == 3 ? 3 : 0;
            unsigned ok = 0, shown = 0;
            for (uint32_t b = 0; b < 65536; ++b) {
                unsigned char blk[16] = {0};
                uint64_t idx = 0;
                for (int k = 0; k < 16; ++k) idx |= (uint64_t)(k % 8) << (3 * k);
                blk[0] = (unsigned char)b; blk[1] = (unsigned char)(b >> 8);
                for (int q = 0; q < 6; ++q) blk[2 + q] = (unsigned char)(idx >> (8 * q));
                for (unsigned k = 0; k < 8; ++k) {
                    uint32_t o[4];
                    enum kbc_repr r = kimg_bc_decode(bc, sgn, blk, k % 4, k / 4, o);
                    uint32_t got = as_float(r, o[chan]);
                    ok += got == d[b * 8 + k];
                    if (got != d[b * 8 + k] && shown++ < 3)
                        printf("  %s a0 %u a1 %u index %u: GPU %08x engine %08x\n", name, b & 255, b >> 8, k, d[b * 8 + k], got);
                }
            }
            printf("%-20s %u / %u\n", name, ok, 65536 * 8);
        } else if (!strstr(name, "lin")) {
            /* random blocks: per block 4 words of bytes, 16 texels x 4 channels */
            char fmt[16]; int rm, s;
            sscanf(name, "%15s rm%d s%d", fmt, &rm, &s);
            bc = (unsigned)(fmt[2] - '0'); sgn = fmt[3] == 's';
            unsigned ok = 0, tot = 0, shown = 0;
            for (uint32_t b = 0; b < n / 68; ++b) {
                const uint32_t *r = d + b * 68;
                const unsigned char *blk = (const unsigned char *)r;
                for (unsigned k = 0; k < 16; ++k) {
                    uint32_t o[4];
                    enum kbc_repr rp = kimg_bc_decode(bc, sgn, blk, k % 4, k / 4, o);
                    bool same = true;
                    uint32_t g[4];
                    for (int c = 0; c < 4; ++c) {
                        g[c] = as_float(rp, o[c]);
                        if (rp == KBC_UNORM8 && s && c < 3) {
#ifdef SRGB_TABLE
                            g[c] = (uint32_t)srgb_table[o[c]] << 16;
#else
                            g[c] = r[4 + 4 * k + c]; /* not checked without the table */
#endif
                        }
                        same &= g[c] == r[4 + 4 * k + c];
                    }
                    ok += same; tot++;
                    if (!same && shown++ < 3) {
                        printf("  %s block", name);
                        for (int q = 0; q < (bc == 1 || bc == 4 ? 8 : 16); ++q) printf("%02x", blk[q]);
                        printf(" texel %u: GPU %08x %08x %08x %08x engine %08x %08x %08x %08x\n", k, r[4 + 4 * k],
                               r[5 + 4 * k], r[6 + 4 * k], r[7 + 4 * k], g[0], g[1], g[2], g[3]);
                    }
                }
            }
            printf("%-20s %u / %u\n", name, ok, tot);
        }
        free(d);
    }
    return 0;
}
