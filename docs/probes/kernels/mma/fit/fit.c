#include <stdio.h>
#include <stdlib.h>
#include "model.h"
static int bits_of(int t) { switch (t) { case MT_F16: case MT_BF16: return 16; case MT_E4M3: case MT_E5M2: return 8; case MT_F64: return 64; default: return 32; } }
static void A_pos(int M, int E, int lane, int i, int *r, int *c) { int g = lane >> 2, t = lane & 3, rg = i / E, j = i % E;
    if (M == 8) { *r = g; *c = t * E + j; } else { *r = g + 8 * (rg & 1); *c = t * E + j + 4 * E * (rg >> 1); } }
static void B_pos(int E, int lane, int i, int *r, int *c) { int g = lane >> 2, t = lane & 3, rg = i / E, j = i % E; *r = t * E + j + 4 * E * rg; *c = g; }
static void C_pos(int M, int lane, int i, int *r, int *c) { int g = lane >> 2, t = lane & 3; if (M == 8) { *r = g; *c = 2 * t + i; } else { *r = g + 8 * (i >> 1); *c = 2 * t + (i & 1); } }
static unsigned char *rd(const char *p, size_t *n) { FILE *f = fopen(p, "rb"); if (!f) return NULL; fseek(f, 0, 2); *n = ftell(f); fseek(f, 0, 0); unsigned char *b = malloc(*n); fread(b, 1, *n, f); fclose(f); return b; }
/* element e of a lane's registers (regs of 32 bits, or 64 for f64) */
static uint64_t MASK = ~0ull;
static uint64_t elem(const unsigned char *buf, int lanei, int nregs, int bits, int e) {
    if (bits == 64) { uint64_t v; memcpy(&v, buf + ((size_t)lanei * nregs + e) * 8, 8); return v & MASK; }
    int per = 32 / bits; uint32_t w; memcpy(&w, buf + ((size_t)lanei * nregs + e / per) * 4, 4); w &= (uint32_t)MASK;
    return bits == 32 ? w : (w >> ((e % per) * bits)) & ((1u << bits) - 1); }
static int fmt_eb(int t) { return t == MT_F16 ? 5 : t == MT_F64 ? 11 : 8; }
static int fmt_fb(int t) { return t == MT_F16 ? 10 : t == MT_F64 ? 52 : 23; }
static uint64_t canon_nan(int t) { return t == MT_F16 ? 0x7fff : t == MT_F64 ? 0xfff8000000000000ull : 0x7fffffff; }
int HMODE = -1;
static int F64H = 0;
static uint64_t dot(int K, const uint64_t *a, int ta, const uint64_t *b, int tb, uint64_t c, int tc, int td) {
    if (ta == MT_F64 && F64H) {
        double d, x, y; memcpy(&d, &c, 8);
        if (F64H == 1) for (int k = 0; k < K; ++k) { memcpy(&x, &a[k], 8); memcpy(&y, &b[k], 8); d = fma(x, y, d); }
        if (F64H == 2) for (int k = K - 1; k >= 0; --k) { memcpy(&x, &a[k], 8); memcpy(&y, &b[k], 8); d = fma(x, y, d); }
        if (F64H == 3) { for (int k0 = 0; k0 < K; k0 += 4) for (int k = k0; k < k0 + 4; ++k) { memcpy(&x, &a[k], 8); memcpy(&y, &b[k], 8); d = fma(x, y, d); } }
        uint64_t r; memcpy(&r, &d, 8);
        if (d != d) r = 0x7fffffffffffffffull;
        return r;
    }
    struct term acc; struct fnum fc = decode(tc, c);
    acc.cls = fc.cls; acc.sign = fc.sign; acc.m = fc.m; acc.e = fc.e; acc.top = fc.top;
    int G = P.group > K ? K : P.group;
    for (int k0 = 0; k0 < K; k0 += G) {
        struct term t[65]; int n = 0; int allneg0 = 1, anyfin = 0;
        for (int k = k0; k < k0 + G; ++k) {
            struct fnum x = decode(ta, a[k]), y = decode(tb, b[k]);
            struct term p; p.sign = x.sign ^ y.sign;
            if (x.cls == FC_NAN || y.cls == FC_NAN) p.cls = FC_NAN;
            else if ((x.cls == FC_INF && y.cls == FC_ZERO) || (y.cls == FC_INF && x.cls == FC_ZERO)) p.cls = FC_NAN;
            else if (x.cls == FC_INF || y.cls == FC_INF) p.cls = FC_INF;
            else if (x.cls == FC_ZERO || y.cls == FC_ZERO) { p.cls = FC_ZERO; p.m = 0; }
            else { p.cls = FC_FIN; p.m = (unsigned __int128)x.m * y.m; p.e = x.e + y.e; p.top = x.top + y.top; }
            if (!(p.cls == FC_ZERO && p.sign)) allneg0 = 0;
            t[n++] = p;
        }
        if (!(acc.cls == FC_ZERO && acc.sign)) allneg0 = 0;
        t[n++] = acc; (void)anyfin;
        int cls, sign = 0, eo = 0; unsigned __int128 mo = 0;
        fused(t, n, &cls, &sign, &mo, &eo, NULL);
        if (cls == FC_ZERO) sign = allneg0;
        acc.cls = cls; acc.sign = sign;
        if (cls == FC_FIN) {
            int last = k0 + G >= K;
            int ot = getenv("INTD") ? td : (last ? td : MT_F32);
            if (last && td == MT_F16 && HMODE >= 0) {
                uint64_t b32 = encode(sign, mo, eo, 8, 23, P.rn, P.ftz_out);
                struct fnum r = decode(MT_F32, b32);
                return encode(r.sign, r.m, r.e, 5, 10, HMODE, 0);
            }
            uint64_t bits = encode(sign, mo, eo, fmt_eb(ot), fmt_fb(ot), P.rn, P.ftz_out);
            if (last) return bits;
            struct fnum r = decode(ot, bits); acc.cls = r.cls; acc.m = r.m; acc.e = r.e; acc.sign = r.sign; acc.top = r.top;
        }
    }
    if (acc.cls == FC_NAN) return canon_nan(td);
    int eb = fmt_eb(td), fb = fmt_fb(td);
    uint64_t sb = (uint64_t)acc.sign << (eb + fb);
    if (acc.cls == FC_INF) return sb | (((1ull << eb) - 1) << fb);
    return sb;
}
int verbose = 0; int64_t maxulp = 0; double maxabs = 0;
static double h2d(uint64_t h) { int e = (h >> 10) & 31, f = h & 1023; double v = e ? ldexp(1024 + f, e - 25) : ldexp(f, -24); if (e == 31) v = f ? NAN : INFINITY; return (h & 0x8000) ? -v : v; }
static long run(const char *cs, int M, int N, int K, int ta, int tb, int tc, int td, int na, int nb, int nc, int nd) {
    char p[256]; size_t n0, n1, n2, n3;
    snprintf(p, sizeof p, "/tmp/mma/ins/%s.in0", cs); unsigned char *A = rd(p, &n0);
    snprintf(p, sizeof p, "/tmp/mma/ins/%s.in1", cs); unsigned char *B = rd(p, &n1);
    snprintf(p, sizeof p, "/tmp/mma/ins/%s.in2", cs); unsigned char *C = rd(p, &n2);
    snprintf(p, sizeof p, "/tmp/mma/gpu/expected/nvcc/%s.bin", cs); unsigned char *D = rd(p, &n3);
    if (!A || !D) { printf("missing %s\n", cs); return -1; }
    long bad = 0, tot = 0;
    int ba = bits_of(ta), bb = bits_of(tb), bc = bits_of(tc), bd = bits_of(td);
    int Ea = ba == 64 ? 1 : 32 / ba, Eb = bb == 64 ? 1 : 32 / bb;
    int nce = bc == 16 ? nc * 2 : nc;
    for (int w = 0; w < 64; ++w) {
        static uint64_t Am[16][256], Bm[256][8], Cm[16][8];
        for (int l = 0; l < 32; ++l) {
            int li = w * 32 + l, r, c;
            int tame = strstr(cs, "_tame") != NULL;
            uint64_t mab = !tame ? ~0ull : ba == 64 ? 0xbfffffffffffffffull : ba == 16 ? 0xbfffbfffull : ba == 32 ? 0xbfffffffull : ~0ull;
            uint64_t mc = !tame ? ~0ull : bc == 64 ? 0xbfffffffffffffffull : bc == 16 ? 0xbfffbfffull : 0xbfffffffull;
            MASK = mab;
            for (int i = 0; i < na * Ea; ++i) { A_pos(M, Ea, l, i, &r, &c); Am[r][c] = elem(A, li, na, ba, i); }
            for (int i = 0; i < nb * Eb; ++i) { B_pos(Eb, l, i, &r, &c); Bm[r][c] = elem(B, li, nb, bb, i); }
            MASK = mc;
            for (int i = 0; i < nce; ++i) { C_pos(M, l, i, &r, &c); Cm[r][c] = elem(C, li, nc, bc, i); }
        }
        MASK = ~0ull;
        for (int l = 0; l < 32; ++l) {
            int li = w * 32 + l, r, c;
            int nde = bd == 16 ? nd * 2 : nd;
            for (int i = 0; i < nde; ++i) {
                C_pos(M, l, i, &r, &c);
                uint64_t bcol[256]; for (int k = 0; k < K; ++k) bcol[k] = Bm[k][c];
                uint64_t got = dot(K, Am[r], ta, bcol, tb, Cm[r][c], tc, td);
                uint64_t exp = elem(D, li, nd, bd, i);
                tot++;
                { int64_t ig, ie; int bitsd = bd;
                  uint64_t sm = bitsd == 16 ? 0x8000 : 0x80000000u;
                  ig = (got & sm) ? -(int64_t)(got & (sm - 1)) : (int64_t)got; ie = (exp & sm) ? -(int64_t)(exp & (sm - 1)) : (int64_t)exp;
                  int64_t dd = ig > ie ? ig - ie : ie - ig; if (dd > maxulp && dd < 1000000) maxulp = dd; }
                { double g, e2; if (bd == 16) { g = h2d(got); e2 = h2d(exp); } else { float gf, ef; uint32_t g32 = (uint32_t)got, e32 = (uint32_t)exp; memcpy(&gf, &g32, 4); memcpy(&ef, &e32, 4); g = gf; e2 = ef; }
                  double dd = fabs(g - e2); if (dd == dd && dd > maxabs && isfinite(e2)) maxabs = dd; }
                if (got != exp) { bad++; if (verbose && bad <= verbose && (getenv("BIG") == NULL || llabs((long long)((int64_t)(int32_t)got - (int64_t)(int32_t)exp)) > 16)) { printf("  w%d l%d i%d got %llx exp %llx  c=%llx a:", w, l, i, (unsigned long long)got, (unsigned long long)exp, (unsigned long long)Cm[r][c]);
                    for (int k = 0; k < K; ++k) printf(" %llx*%llx", (unsigned long long)Am[r][k], (unsigned long long)bcol[k]); printf("\n"); } }
            }
        }
    }
    return bad;
}
struct cs { const char *name; int M, N, K, ta, tb, tc, td, na, nb, nc, nd; };
static const struct cs cases[] = {
    {"mma_f16_k8_f32", 16, 8, 8, MT_F16, MT_F16, MT_F32, MT_F32, 2, 1, 4, 4},
    {"mma_f16_k8_f32_tame", 16, 8, 8, MT_F16, MT_F16, MT_F32, MT_F32, 2, 1, 4, 4},
    {"mma_f16_k16_f32", 16, 8, 16, MT_F16, MT_F16, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_f16_k16_f32_tame", 16, 8, 16, MT_F16, MT_F16, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_f16_k8_f16", 16, 8, 8, MT_F16, MT_F16, MT_F16, MT_F16, 2, 1, 2, 2},
    {"mma_f16_k8_f16_tame", 16, 8, 8, MT_F16, MT_F16, MT_F16, MT_F16, 2, 1, 2, 2},
    {"mma_f16_k16_f16", 16, 8, 16, MT_F16, MT_F16, MT_F16, MT_F16, 4, 2, 2, 2},
    {"mma_f16_k16_f16_tame", 16, 8, 16, MT_F16, MT_F16, MT_F16, MT_F16, 4, 2, 2, 2},
    {"mma_bf16_k8", 16, 8, 8, MT_BF16, MT_BF16, MT_F32, MT_F32, 2, 1, 4, 4},
    {"mma_bf16_k8_tame", 16, 8, 8, MT_BF16, MT_BF16, MT_F32, MT_F32, 2, 1, 4, 4},
    {"mma_bf16_k16", 16, 8, 16, MT_BF16, MT_BF16, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_bf16_k16_tame", 16, 8, 16, MT_BF16, MT_BF16, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_tf32_k4", 16, 8, 4, MT_TF32, MT_TF32, MT_F32, MT_F32, 2, 1, 4, 4},
    {"mma_tf32_k4_tame", 16, 8, 4, MT_TF32, MT_TF32, MT_F32, MT_F32, 2, 1, 4, 4},
    {"mma_tf32_k8", 16, 8, 8, MT_TF32, MT_TF32, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_tf32_k8_tame", 16, 8, 8, MT_TF32, MT_TF32, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_e4m3_f32", 16, 8, 32, MT_E4M3, MT_E4M3, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_e4m3_f32_tame", 16, 8, 32, MT_E4M3, MT_E4M3, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_e5m2_f32_tame", 16, 8, 32, MT_E5M2, MT_E5M2, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_e4m3e5m2_f32_tame", 16, 8, 32, MT_E4M3, MT_E5M2, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_e4m3_f16", 16, 8, 32, MT_E4M3, MT_E4M3, MT_F16, MT_F16, 4, 2, 2, 2},
    {"mma_e5m2_f16", 16, 8, 32, MT_E5M2, MT_E5M2, MT_F16, MT_F16, 4, 2, 2, 2},
    {"mma_e5m2_f16_tame", 16, 8, 32, MT_E5M2, MT_E5M2, MT_F16, MT_F16, 4, 2, 2, 2},
    {"mma_e5m2_f32", 16, 8, 32, MT_E5M2, MT_E5M2, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_e4m3e5m2_f32", 16, 8, 32, MT_E4M3, MT_E5M2, MT_F32, MT_F32, 4, 2, 4, 4},
    {"mma_e4m3_f16_tame", 16, 8, 32, MT_E4M3, MT_E4M3, MT_F16, MT_F16, 4, 2, 2, 2},
    {"mma_f64_k4", 8, 8, 4, MT_F64, MT_F64, MT_F64, MT_F64, 1, 1, 2, 2},
    {"mma_f64_m16n8k8", 16, 8, 8, MT_F64, MT_F64, MT_F64, MT_F64, 4, 2, 4, 4},
    {"mma_f64_k4_tame", 8, 8, 4, MT_F64, MT_F64, MT_F64, MT_F64, 1, 1, 2, 2},
    {"mma_f64_m16n8k4_tame", 16, 8, 4, MT_F64, MT_F64, MT_F64, MT_F64, 2, 1, 4, 4},
    {"mma_f64_m16n8k16_tame", 16, 8, 16, MT_F64, MT_F64, MT_F64, MT_F64, 8, 4, 4, 4},
};
int main(int argc, char **argv) {
    const char *only = argc > 1 ? argv[1] : NULL;
    if (argc > 2) verbose = atoi(argv[2]);
    if (getenv("HMODE")) HMODE = atoi(getenv("HMODE"));
    if (getenv("F64H")) F64H = atoi(getenv("F64H"));
    if (argc > 3) sscanf(argv[3], "%d,%d,%d,%d,%d,%d,%d,%d", &P.F, &P.floor_trunc, &P.rn, &P.group, &P.tf32_round, &P.ftz_out, &P.c_exact, &P.ftz_in);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const struct cs *c = &cases[i];
        if (only && strcmp(only, "all") && (only[0] == 61 ? strcmp(c->name, only + 1) : !strstr(c->name, only))) continue;
        long b = run(c->name, c->M, c->N, c->K, c->ta, c->tb, c->tc, c->td, c->na, c->nb, c->nc, c->nd);
        printf("maxulp %lld maxabs %g ", (long long)maxulp, maxabs); maxulp = 0; maxabs = 0;
        printf("%-24s F=%d floor=%d rn=%d G=%d tf32rna=%d ftzo=%d ftzi=%d: bad %ld\n", c->name, P.F, P.floor_trunc, P.rn, P.group, P.tf32_round, P.ftz_out, P.ftz_in, b);
    }
}
