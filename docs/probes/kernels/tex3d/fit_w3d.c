/* Replays tex3d_probe's 3D weight sweep against the rule src/kernel/ops_tex.c implements (part
 * tex3d). w3d_miss.bin lists the samples that differ from the rule before it ("x and z paired
 * first, then y", every tie up); every other sample is that rule's.
 *   cc -O2 -o fit_w3d fit_w3d.c && ./fit_w3d DIR/w3d_miss.bin
 * Printed on the H100's records: "16777216 / 16777216 weight triples" (the rule before: 16070088). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint16_t T[1 << 24][8];

/* index x + 2y + 4z; weights in 1/256 */
static void before(int wx, int wy, int wz, int *p)
{
    int w11 = (wx * wz + 128) >> 8, a[4] = {256 - wx - wz + w11, wx - w11, wz - w11, w11};
    for (int q = 0; q < 4; ++q) {
        int hi = (a[q] * wy + 128) >> 8, x = q & 1, z = q >> 1;
        p[x + 4 * z] = a[q] - hi;
        p[x + 2 + 4 * z] = hi;
    }
}
static void rule(int wx, int wy, int wz, int *p)
{
    int a[4];
    a[3] = (wx * wz + 128) >> 8;         /* x = 1, z = 1: ties up */
    a[1] = (wx * (256 - wz) + 128) >> 8; /* x = 1, z = 0: ties up */
    a[2] = wz - a[3];                    /* x = 0, z = 1: the rest of z */
    a[0] = 256 - a[1] - a[2] - a[3];
    for (int q = 0; q < 4; ++q) {
        int x = q & 1, z = q >> 1, hi = (a[q] * wy + (x ? 128 : 127)) >> 8; /* ties toward x = 1 */
        p[x + 4 * z] = a[q] - hi;
        p[x + 2 + 4 * z] = hi;
    }
}
int main(int argc, char **argv)
{
    FILE *f = fopen(argc > 1 ? argv[1] : "w3d_miss.bin", "rb");
    if (!f)
        return 1;
    for (int i = 0; i < (1 << 24); ++i) {
        int p[8];
        before(i & 255, (i >> 8) & 255, i >> 16, p);
        for (int k = 0; k < 8; ++k)
            T[i][k] = (uint16_t)p[k];
    }
    unsigned char r[20];
    while (fread(r, 20, 1, f) == 1)
        memcpy(T[r[0] | r[1] << 8 | r[2] << 16], r + 4, 16);
    fclose(f);
    long ok = 0;
    for (int i = 0; i < (1 << 24); ++i) {
        int p[8], same = 1;
        rule(i & 255, (i >> 8) & 255, i >> 16, p);
        for (int k = 0; k < 8; ++k)
            same &= p[k] == T[i][k];
        ok += same;
    }
    printf("%ld / %d weight triples\n", ok, 1 << 24);
    return 0;
}
