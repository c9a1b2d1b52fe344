/*
 * tests/kernels/cases.h: the kernel corpus's cases, shared by corpus_runner.c and cases.c.
 *
 * A case names a kernel of a corpus module (tests/kernels/corpus/<module>.cu, compiled to
 * <module>.ptx), its launch geometry, how its three inputs are generated (deterministically:
 * special values first, then a fixed PRNG), the size of its output buffer and how each output
 * element compares with the GPU's. Every kernel takes (out, a, b, c, n) (corpus.h).
 */
#ifndef CORPUS_CASES_H
#define CORPUS_CASES_H

#include <stddef.h>
#include <stdint.h>

/* Input generators. The specials of each type come first: element i < m*m of input a is
 * special[i % m], of b special[(i / m) % m], of c special[(7 i + 3) % m], so a and b meet in
 * every pair of specials; later elements are random. */
enum gen {
    GEN_NONE, /* no buffer: the kernel gets 0 */
    GEN_U8,
    GEN_U16,
    GEN_U32,
    GEN_U64,
    GEN_F16,   /* IEEE binary16 bit patterns (also read as bf16) */
    GEN_F32,   /* special values, then random bit patterns and random "ordinary" numbers */
    GEN_F64,
    GEN_F32_RANGE,      /* uniform in [lo, hi]; elements 0..3 are lo, hi, +0, -0 */
    GEN_F32_RANGE_SPEC, /* the same, then +inf, -inf, NaN, -NaN at 4..7 */
};

/* How an output element compares with the expected one. */
enum cmp {
    CMP_EXACT, /* every byte */
    CMP_EXACT_NAN_ANY, /* every byte, except that a NaN matches any NaN (f32 and f64 elements) */
    CMP_F32_ULP,  /* f32 elements within `tol` units in the last place */
    CMP_F32_ABS,  /* f32 elements within `tol` absolutely */
    CMP_F32_REL,  /* f32 elements within `tol` relatively (absolutely below 2^-126) */
};

struct input {
    enum gen gen;
    unsigned per_thread; /* elements per thread (0 counts 1) */
    double lo, hi;       /* GEN_F32_RANGE* */
};

struct kcase {
    const char *name;   /* the ctest is kernel_corpus.<compiler>.<name> */
    const char *module; /* <ptxdir>/<module>.ptx */
    const char *kernel;
    unsigned n;         /* threads with work: the kernel's n parameter */
    unsigned grid[3];   /* grid[0] 0: ceil(n / block[0]) */
    unsigned block[3];  /* 0 counts 1 */
    unsigned shared;    /* dynamic shared memory bytes */
    struct input in[3];
    size_t out_bytes;   /* the output buffer */
    unsigned elem;      /* output element size: 1, 2, 4 or 8, for printing and comparing */
    unsigned per_thread; /* output elements per thread (0: per-block or global outputs) */
    uint32_t out_init;  /* the output buffer's 32-bit words before the launch */
    const char *global; /* a __device__ variable read back after the launch (appended) */
    size_t global_bytes;
    enum cmp cmp;
    double tol;
    const char *why; /* where the comparison is not exact: the bound and its source */
};

extern const struct kcase corpus_cases[];
extern const size_t corpus_case_count;

#endif
