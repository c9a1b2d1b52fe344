/*
 * tests/kernels/cases.c: the corpus's cases (cases.h says what each field means).
 *
 * Comparisons are exact (every bit, NaN payloads included) wherever PTX defines the result.
 * The .approx instructions are bounded by the PTX ISA ("Floating-Point Instructions", each
 * instruction's description of its maximum error); the GPU's result and extmem's may each be
 * off by the bound in opposite directions, so a case allows twice the ISA's bound, plus one
 * ulp for the rounding of each result to f32 (corpus_runner.c adds that ulp).
 * tests/kernels/expected/README.md lists the cases with their bounds.
 */
#include "cases.h"

#define PI 3.14159265358979323846
#define N1(g) {{g, 1, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}
#define N2(g) {{g, 1, 0, 0}, {g, 1, 0, 0}, {GEN_NONE, 0, 0, 0}}
#define N3(g) {{g, 1, 0, 0}, {g, 1, 0, 0}, {g, 1, 0, 0}}
#define RANGE(lo, hi) {{GEN_F32_RANGE_SPEC, 1, lo, hi}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}
#define B1(x) {x, 1, 1}
#define G0 {0, 1, 1}

/* Per-thread outputs: n threads, k elements of s bytes each. */
#define OUT(n, k, s) .out_bytes = (size_t)(n) * (k) * (s), .elem = s, .per_thread = k

/* mma: the e4m3/e5m2 forms are not bit-exact (docs/kernels.md, "Tensor cores"). */
#define FP8_WHY                                                                                                        \
    "the H100's e4m3/e5m2 sums were not fitted: the software device adds them as f16's (terms truncated 25 bits "     \
    "below the largest exponent, one rounding), the GPU keeps fewer bits; within 256 ulps of f32"

const struct kcase corpus_cases[] = {
    /* ---- integer arithmetic (int.cu) ---- */
    { .name = "int_arith", .module = "int", .kernel = "int_arith", .n = 1024, .grid = G0, .block = B1(128),
      .in = N3(GEN_U32), OUT(1024, 16, 4) },
    { .name = "int_div", .module = "int", .kernel = "int_div", .n = 1024, .grid = G0, .block = B1(128),
      .in = N2(GEN_U32), OUT(1024, 4, 4),
      .why = "exact: PTX leaves x/0 and INT_MIN/-1 machine-specific; these are the H100's values for this PTX" },
    { .name = "int_div_defined", .module = "int", .kernel = "int_div_defined", .n = 1024, .grid = G0, .block = B1(128),
      .in = N2(GEN_U32), OUT(1024, 4, 4) },
    { .name = "int_shift", .module = "int", .kernel = "int_shift", .n = 1024, .grid = G0, .block = B1(128),
      .in = N2(GEN_U32), OUT(1024, 10, 4) },
    { .name = "int_bits", .module = "int", .kernel = "int_bits", .n = 1024, .grid = G0, .block = B1(128),
      .in = N3(GEN_U32), OUT(1024, 16, 4) },
    { .name = "int64_arith", .module = "int", .kernel = "int64_arith", .n = 1024, .grid = G0, .block = B1(128),
      .in = N2(GEN_U64), OUT(1024, 14, 8) },
    { .name = "int_narrow", .module = "int", .kernel = "int_narrow", .n = 1024, .grid = G0, .block = B1(128),
      .in = {{GEN_U8, 1, 0, 0}, {GEN_U16, 1, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(1024, 6, 4) },

    /* ---- f32/f64 arithmetic (float.cu) ---- */
    { .name = "f32_round", .module = "float", .kernel = "f32_round", .n = 2048, .grid = G0, .block = B1(256),
      .in = N3(GEN_F32), OUT(2048, 20, 4) },
    { .name = "f32_unary", .module = "float", .kernel = "f32_unary", .n = 2048, .grid = G0, .block = B1(256),
      .in = N2(GEN_F32), OUT(2048, 24, 4), .cmp = CMP_EXACT_NAN_ANY,
      .why = "the PTX ISA leaves the NaN that abs and neg give unspecified: a lone abs.f32 gives the canonical "
             "NaN on the H100, but ptxas folds clang's abs-neg-selp copysign into a select that keeps the payload" },
    { .name = "f32_compare", .module = "float", .kernel = "f32_compare", .n = 2048, .grid = G0, .block = B1(256),
      .in = N2(GEN_F32), OUT(2048, 2, 4) },
    { .name = "f32_ftz_sat", .module = "float", .kernel = "f32_ftz_sat", .n = 2048, .grid = G0, .block = B1(256),
      .in = N2(GEN_F32), OUT(2048, 8, 4) },
    { .name = "f64_round", .module = "float", .kernel = "f64_round", .n = 2048, .grid = G0, .block = B1(256),
      .in = N3(GEN_F64), OUT(2048, 28, 8), .cmp = CMP_EXACT_NAN_ANY,
      .why = "which operand's payload a NaN result carries when several operands are NaN is left open by the PTX "
             "ISA and IEEE 754, and the H100's choice follows ptxas's operand order (clang and nvcc differ)" },

    /* ---- conversions (cvt.cu) ---- */
    { .name = "cvt_f32_int", .module = "cvt", .kernel = "cvt_f32_int", .n = 2048, .grid = G0, .block = B1(256),
      .in = N1(GEN_F32), OUT(2048, 18, 8) },
    { .name = "cvt_f32_narrow", .module = "cvt", .kernel = "cvt_f32_narrow", .n = 2048, .grid = G0, .block = B1(256),
      .in = N1(GEN_F32), OUT(2048, 6, 4) },
    { .name = "cvt_f64", .module = "cvt", .kernel = "cvt_f64", .n = 2048, .grid = G0, .block = B1(256),
      .in = N1(GEN_F64), OUT(2048, 16, 8) },
    { .name = "cvt_int_float", .module = "cvt", .kernel = "cvt_int_float", .n = 2048, .grid = G0, .block = B1(256),
      .in = N1(GEN_U64), OUT(2048, 16, 4) },
    { .name = "cvt_half_float", .module = "cvt", .kernel = "cvt_half_float", .n = 2048, .grid = G0, .block = B1(256),
      .in = N1(GEN_F16), OUT(2048, 2, 4) },

    /* ---- f16/bf16 (half.cu) ---- */
    { .name = "half2_arith", .module = "half", .kernel = "half2_arith", .n = 1024, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 2, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_F16, 2, 0, 0}}, OUT(1024, 8, 2) },
    { .name = "half_arith", .module = "half", .kernel = "half_arith", .n = 1024, .grid = G0, .block = B1(128),
      .in = N2(GEN_F16), OUT(1024, 4, 2) },
    { .name = "bf16x2_fma", .module = "half", .kernel = "bf16x2_fma", .n = 1024, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 2, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_F16, 2, 0, 0}}, OUT(1024, 2, 2) },

    /* ---- transcendental approximations (transc.cu): bounds from the PTX ISA ---- */
    { .name = "approx_sin", .module = "transc", .kernel = "approx_sin", .n = 4096, .grid = G0, .block = B1(256),
      .in = RANGE(-100 * PI, 100 * PI), OUT(4096, 1, 4), .cmp = CMP_F32_ABS, .tol = 6.1e-5,
      .why = "sin.approx.f32 is bounded by the PTX ISA only near 0 (2^-20.9 in [-pi, pi]); the H100 reduces the "
             "argument to turns in f32, so its error grows with |x|, up to 2^-14.8 near +-100pi against the engine's "
             "correctly rounded sine: 2^-14" },
    { .name = "approx_cos", .module = "transc", .kernel = "approx_cos", .n = 4096, .grid = G0, .block = B1(256),
      .in = RANGE(-100 * PI, 100 * PI), OUT(4096, 1, 4), .cmp = CMP_F32_ABS, .tol = 6.1e-5,
      .why = "cos.approx.f32 is bounded by the PTX ISA only near 0 (2^-20.9 in [-pi, pi]); the H100 reduces the "
             "argument to turns in f32, so its error grows with |x|, up to 2^-14.8 near +-100pi against the engine's "
             "correctly rounded cose: 2^-14" },
    { .name = "approx_exp2", .module = "transc", .kernel = "approx_exp2", .n = 4096, .grid = G0, .block = B1(256),
      .in = RANGE(-130, 130), OUT(4096, 1, 4), .cmp = CMP_F32_ULP, .tol = 4,
      .why = "ex2.approx.ftz.f32: at most 2 ulp from the correctly rounded result over the full range (PTX ISA); twice that" },
    { .name = "approx_exp", .module = "transc", .kernel = "approx_exp", .n = 4096, .grid = G0, .block = B1(256),
      .in = RANGE(-90, 90), OUT(4096, 1, 4), .cmp = CMP_F32_ULP, .tol = 4,
      .why = "__expf is mul.f32 (exact rounding) then ex2.approx.f32: 2 ulp each side (PTX ISA ex2)" },
    { .name = "approx_log2", .module = "transc", .kernel = "approx_log2", .n = 4096, .grid = G0, .block = B1(256),
      .in = RANGE(-1, 1000), OUT(4096, 1, 4), .cmp = CMP_F32_ABS, .tol = 4.8e-7,
      .why = "lg2.approx.f32: absolute error at most 2^-22 (PTX ISA); twice that: 2^-21" },
    { .name = "approx_log", .module = "transc", .kernel = "approx_log", .n = 4096, .grid = G0, .block = B1(256),
      .in = RANGE(-1, 1000), OUT(4096, 1, 4), .cmp = CMP_F32_ABS, .tol = 9.6e-7,
      .why = "__logf is lg2.approx.f32 (2^-22.6 absolute, PTX ISA) then mul.f32 by ln 2, whose rounding adds half an "
             "ulp of results up to 6.9: 2^-20" },
    { .name = "approx_rsqrt", .module = "transc", .kernel = "approx_rsqrt", .n = 4096, .grid = G0, .block = B1(256),
      .in = RANGE(-1, 1e6), OUT(4096, 1, 4), .cmp = CMP_F32_REL, .tol = 2.5e-7,
      .why = "rsqrt.approx.f32: relative error at most 2^-22.9 (PTX ISA); twice that, rounded up: 2^-21.9" },
    { .name = "approx_tanh", .module = "transc", .kernel = "approx_tanh", .n = 4096, .grid = G0, .block = B1(256),
      .in = RANGE(-10, 10), OUT(4096, 1, 4), .cmp = CMP_F32_REL, .tol = 9.8e-4,
      .why = "tanh.approx.f32: relative error at most 2^-11 (PTX ISA); twice that: 2^-10" },
    { .name = "approx_div", .module = "transc", .kernel = "approx_div", .n = 4096, .grid = G0, .block = B1(256),
      .in = {{GEN_F32_RANGE_SPEC, 1, -1e4, 1e4}, {GEN_F32_RANGE, 1, -100, 100}, {GEN_NONE, 0, 0, 0}},
      OUT(4096, 1, 4), .cmp = CMP_F32_ULP, .tol = 4,
      .why = "div.approx.f32: at most 2 ulp for |b| in [2^-126, 2^126] (PTX ISA); twice that" },

    /* ---- warp functions (warp.cu): whole warps, n = every thread ---- */
    { .name = "warp_shuffle", .module = "warp", .kernel = "warp_shuffle", .n = 256, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(256, 16, 4) },
    { .name = "warp_vote", .module = "warp", .kernel = "warp_vote", .n = 256, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(256, 12, 4) },
    { .name = "warp_reduce", .module = "warp", .kernel = "warp_reduce", .n = 256, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(256, 8, 4) },

    /* ---- atomics (atomic.cu): order-independent results only ---- */
    { .name = "atomic_global", .module = "atomic", .kernel = "atomic_global", .n = 4096, .grid = G0, .block = B1(256),
      .in = N1(GEN_U32), .out_bytes = (32 + 4096) * 4, .elem = 4 },
    { .name = "atomic_global_ones", .module = "atomic", .kernel = "atomic_global_ones", .n = 4096, .grid = G0,
      .block = B1(256), .in = N1(GEN_U32), .out_bytes = 16 * 4, .elem = 4, .out_init = 0xffffffffu },
    { .name = "atomic_shared", .module = "atomic", .kernel = "atomic_shared", .n = 2048, .grid = G0, .block = B1(256),
      .in = N1(GEN_U32), .out_bytes = 8 * (8 + 256) * 4, .elem = 4 },

    /* ---- barriers and geometry (barrier.cu) ---- */
    { .name = "bar_stencil", .module = "barrier", .kernel = "bar_stencil", .n = 1024, .grid = G0, .block = B1(256),
      .in = N1(GEN_U32), OUT(1024, 1, 4) },
    { .name = "bar_reduce_ops", .module = "barrier", .kernel = "bar_reduce_ops", .n = 1024, .grid = G0, .block = B1(256),
      .in = N1(GEN_U32), OUT(1024, 5, 4) },
    { .name = "bar_tree_1024", .module = "barrier", .kernel = "bar_tree_1024", .n = 3072, .grid = G0, .block = B1(1024),
      .in = N1(GEN_U32), .out_bytes = 3 * 3 * 4, .elem = 4 },
    { .name = "geometry_3d", .module = "barrier", .kernel = "geometry_3d", .n = 0, .grid = {3, 2, 2},
      .block = {8, 4, 3}, .in = N1(GEN_NONE), .out_bytes = 12 * 96 * 3 * 4, .elem = 4 },
    { .name = "geometry_2d", .module = "barrier", .kernel = "geometry_3d", .n = 0, .grid = {5, 3, 1},
      .block = {16, 16, 1}, .in = N1(GEN_NONE), .out_bytes = 15 * 256 * 3 * 4, .elem = 4 },
    { .name = "bar_loop_by_block", .module = "barrier", .kernel = "bar_loop_by_block", .n = 0, .grid = {5, 1, 1},
      .block = B1(128), .in = N1(GEN_NONE), .out_bytes = 5 * 128 * 4, .elem = 4 },

    /* ---- memory (memory.cu) ---- */
    { .name = "mem_vector", .module = "memory", .kernel = "mem_vector", .n = 1024, .grid = G0, .block = B1(128),
      .in = {{GEN_F32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_NONE, 0, 0, 0}}, .out_bytes = 1024 * 24, .elem = 4 },
    { .name = "mem_local", .module = "memory", .kernel = "mem_local", .n = 1024, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(1024, 1, 4) },
    { .name = "mem_dyn_shared", .module = "memory", .kernel = "mem_dyn_shared", .n = 1024, .grid = G0, .block = B1(256),
      .shared = 2 * 256 * 4, .in = N1(GEN_U32), OUT(1024, 1, 4) },
    { .name = "mem_globals", .module = "memory", .kernel = "mem_globals", .n = 1024, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(1024, 1, 4), .global = "d_counter", .global_bytes = 4 },
    { .name = "mem_switch", .module = "memory", .kernel = "mem_switch", .n = 1024, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(1024, 1, 4) },
    { .name = "mem_recursion", .module = "memory", .kernel = "mem_recursion", .n = 1024, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(1024, 2, 4) },
    { .name = "mem_funcptr", .module = "memory", .kernel = "mem_funcptr", .n = 1024, .grid = G0, .block = B1(128),
      .in = N2(GEN_U32), OUT(1024, 1, 4) },
    { .name = "mem_brx", .module = "memory", .kernel = "mem_brx", .n = 1024, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(1024, 1, 4) },

    /* ---- the benchmark kernels (bench.cu) ---- */
    { .name = "saxpy", .module = "bench", .kernel = "saxpy", .n = 4096, .grid = G0, .block = B1(256),
      .in = {{GEN_F32_RANGE, 1, -100, 100}, {GEN_F32_RANGE, 1, -100, 100}, {GEN_F32_RANGE, 1, 2, 3}},
      OUT(4096, 1, 4) },
    { .name = "reduce_shared", .module = "bench", .kernel = "reduce_shared", .n = 4096, .grid = G0, .block = B1(256),
      .in = N1(GEN_U32), .out_bytes = 16 * 4, .elem = 4 },
    { .name = "reduce_shfl", .module = "bench", .kernel = "reduce_shfl", .n = 4096, .grid = G0, .block = B1(256),
      .in = N1(GEN_U32), .out_bytes = 16 * 4, .elem = 4 },
    { .name = "transc_heavy", .module = "bench", .kernel = "transc_heavy", .n = 2048, .grid = G0, .block = B1(256),
      .in = {{GEN_F32_RANGE, 1, -2, 2}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(2048, 1, 4),
      .cmp = CMP_F32_ABS, .tol = 9.8e-4,
      .why = "64 rounds of sin/exp/log/rsqrt approximations (bounds above, each term <= 2^-19 apart) and the "
             "f32 roundings of a sum below 128 (<= 2^-17 a round): 2^-10 absolutely" },

    /* ---- mma (issue 25, the tensor-core part): mma.sync, ldmatrix, movmatrix (mma_*.cu, sm_80) and
     * the sm_89/sm_90 forms, stmatrix (mma90_*.cu, nvcc's PTX for compute_90; clang's writes zeros).
     * Written by scripts/gen-mma-corpus.py. ---- */
    { .name = "mma_f16_k8_f32", .module = "mma_f16", .kernel = "mma_f16_k8_f32", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 4, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_f16_k8_f32_tame", .module = "mma_f16", .kernel = "mma_f16_k8_f32_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 4, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_f16_k8_f16", .module = "mma_f16", .kernel = "mma_f16_k8_f16", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 4, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_F16, 4, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_f16_k8_f16_tame", .module = "mma_f16", .kernel = "mma_f16_k8_f16_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 4, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_F16, 4, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_f16_k16_f32", .module = "mma_f16", .kernel = "mma_f16_k16_f32", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 8, 0, 0}, {GEN_F16, 4, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_f16_k16_f32_tame", .module = "mma_f16", .kernel = "mma_f16_k16_f32_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 8, 0, 0}, {GEN_F16, 4, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_f16_k16_f16", .module = "mma_f16", .kernel = "mma_f16_k16_f16", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 8, 0, 0}, {GEN_F16, 4, 0, 0}, {GEN_F16, 4, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_f16_k16_f16_tame", .module = "mma_f16", .kernel = "mma_f16_k16_f16_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 8, 0, 0}, {GEN_F16, 4, 0, 0}, {GEN_F16, 4, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_bf16_k8", .module = "mma_f16", .kernel = "mma_bf16_k8", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 4, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_bf16_k8_tame", .module = "mma_f16", .kernel = "mma_bf16_k8_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 4, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_bf16_k16", .module = "mma_f16", .kernel = "mma_bf16_k16", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 8, 0, 0}, {GEN_F16, 4, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_bf16_k16_tame", .module = "mma_f16", .kernel = "mma_bf16_k16_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F16, 8, 0, 0}, {GEN_F16, 4, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_tf32_k4", .module = "mma_tf32", .kernel = "mma_tf32_k4", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F32, 2, 0, 0}, {GEN_F32, 1, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_tf32_k4_tame", .module = "mma_tf32", .kernel = "mma_tf32_k4_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F32, 2, 0, 0}, {GEN_F32, 1, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_tf32_k8", .module = "mma_tf32", .kernel = "mma_tf32_k8", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F32, 4, 0, 0}, {GEN_F32, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_tf32_k8_tame", .module = "mma_tf32", .kernel = "mma_tf32_k8_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F32, 4, 0, 0}, {GEN_F32, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_f64_k4", .module = "mma_tf32", .kernel = "mma_f64_k4", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F64, 1, 0, 0}, {GEN_F64, 1, 0, 0}, {GEN_F64, 2, 0, 0}}, OUT(2048, 2, 8) },
    { .name = "mma_f64_k4_tame", .module = "mma_tf32", .kernel = "mma_f64_k4_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F64, 1, 0, 0}, {GEN_F64, 1, 0, 0}, {GEN_F64, 2, 0, 0}}, OUT(2048, 2, 8) },
    { .name = "mma_s8_m8n8k16", .module = "mma_int", .kernel = "mma_s8_m8n8k16", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 1, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 2, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_u8s8_m8n8k16_sat", .module = "mma_int", .kernel = "mma_u8s8_m8n8k16_sat", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 1, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 2, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_s8_k16", .module = "mma_int", .kernel = "mma_s8_k16", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 2, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_s8u8_k16_sat", .module = "mma_int", .kernel = "mma_s8u8_k16_sat", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 2, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_u8_k32", .module = "mma_int", .kernel = "mma_u8_k32", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_s8_k32_sat", .module = "mma_int", .kernel = "mma_s8_k32_sat", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_s4_m8n8k32", .module = "mma_int", .kernel = "mma_s4_m8n8k32", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 1, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 2, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_u4s4_m8n8k32_sat", .module = "mma_int", .kernel = "mma_u4s4_m8n8k32_sat", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 1, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 2, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_u4_k32", .module = "mma_int", .kernel = "mma_u4_k32", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 2, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_s4_k64_sat", .module = "mma_int", .kernel = "mma_s4_k64_sat", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_b1_m8n8k128", .module = "mma_int", .kernel = "mma_b1_m8n8k128", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 1, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 2, 0, 0}}, OUT(2048, 2, 4) },
    { .name = "mma_b1_k128", .module = "mma_int", .kernel = "mma_b1_k128", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 2, 0, 0}, {GEN_U32, 1, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_b1_k256", .module = "mma_int", .kernel = "mma_b1_k256", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "mma_b1_k256_and", .module = "mma_int", .kernel = "mma_b1_k256_and", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, 4, 4) },
    { .name = "ldmatrix_x1", .module = "mma_ld", .kernel = "ldmatrix_x1", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 1, 4) },
    { .name = "ldmatrix_x1_trans", .module = "mma_ld", .kernel = "ldmatrix_x1_trans", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 1, 4) },
    { .name = "ldmatrix_x2", .module = "mma_ld", .kernel = "ldmatrix_x2", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 2, 4) },
    { .name = "ldmatrix_x2_trans", .module = "mma_ld", .kernel = "ldmatrix_x2_trans", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 2, 4) },
    { .name = "ldmatrix_x4", .module = "mma_ld", .kernel = "ldmatrix_x4", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },
    { .name = "ldmatrix_x4_trans", .module = "mma_ld", .kernel = "ldmatrix_x4_trans", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },
    { .name = "movmatrix_trans", .module = "mma_ld", .kernel = "movmatrix_trans", .n = 512, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(512, 1, 4) },
    { .name = "mma_e4m3_f32", .module = "mma90_f8", .kernel = "mma_e4m3_f32", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4), .cmp = CMP_F32_ULP, .tol = 256,
      .why = FP8_WHY },
    { .name = "mma_e4m3_f32_tame", .module = "mma90_f8", .kernel = "mma_e4m3_f32_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4), .cmp = CMP_F32_ULP, .tol = 256,
      .why = FP8_WHY },
    { .name = "mma_e5m2_f32", .module = "mma90_f8", .kernel = "mma_e5m2_f32", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4), .cmp = CMP_F32_ULP, .tol = 256,
      .why = FP8_WHY },
    { .name = "mma_e5m2_f32_tame", .module = "mma90_f8", .kernel = "mma_e5m2_f32_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4), .cmp = CMP_F32_ULP, .tol = 256,
      .why = FP8_WHY },
    { .name = "mma_e4m3e5m2_f32", .module = "mma90_f8", .kernel = "mma_e4m3e5m2_f32", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4), .cmp = CMP_F32_ULP, .tol = 256,
      .why = FP8_WHY },
    { .name = "mma_e4m3e5m2_f32_tame", .module = "mma90_f8", .kernel = "mma_e4m3e5m2_f32_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_F32, 4, 0, 0}}, OUT(2048, 4, 4), .cmp = CMP_F32_ULP, .tol = 256,
      .why = FP8_WHY },
    { .name = "mma_f64_m16n8k4", .module = "mma90_f64", .kernel = "mma_f64_m16n8k4", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F64, 2, 0, 0}, {GEN_F64, 1, 0, 0}, {GEN_F64, 4, 0, 0}}, OUT(2048, 4, 8) },
    { .name = "mma_f64_m16n8k4_tame", .module = "mma90_f64", .kernel = "mma_f64_m16n8k4_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F64, 2, 0, 0}, {GEN_F64, 1, 0, 0}, {GEN_F64, 4, 0, 0}}, OUT(2048, 4, 8) },
    { .name = "mma_f64_m16n8k8", .module = "mma90_f64", .kernel = "mma_f64_m16n8k8", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F64, 4, 0, 0}, {GEN_F64, 2, 0, 0}, {GEN_F64, 4, 0, 0}}, OUT(2048, 4, 8) },
    { .name = "mma_f64_m16n8k8_tame", .module = "mma90_f64", .kernel = "mma_f64_m16n8k8_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F64, 4, 0, 0}, {GEN_F64, 2, 0, 0}, {GEN_F64, 4, 0, 0}}, OUT(2048, 4, 8) },
    { .name = "mma_f64_m16n8k16", .module = "mma90_f64", .kernel = "mma_f64_m16n8k16", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F64, 8, 0, 0}, {GEN_F64, 4, 0, 0}, {GEN_F64, 4, 0, 0}}, OUT(2048, 4, 8) },
    { .name = "mma_f64_m16n8k16_tame", .module = "mma90_f64", .kernel = "mma_f64_m16n8k16_tame", .n = 2048, .grid = G0, .block = B1(128),
      .in = {{GEN_F64, 8, 0, 0}, {GEN_F64, 4, 0, 0}, {GEN_F64, 4, 0, 0}}, OUT(2048, 4, 8) },
    { .name = "stmatrix_x1", .module = "mma90_st", .kernel = "stmatrix_x1", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },
    { .name = "stmatrix_x1_trans", .module = "mma90_st", .kernel = "stmatrix_x1_trans", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },
    { .name = "stmatrix_x2", .module = "mma90_st", .kernel = "stmatrix_x2", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },
    { .name = "stmatrix_x2_trans", .module = "mma90_st", .kernel = "stmatrix_x2_trans", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },
    { .name = "stmatrix_x4", .module = "mma90_st", .kernel = "stmatrix_x4", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },
    { .name = "stmatrix_x4_trans", .module = "mma90_st", .kernel = "stmatrix_x4_trans", .n = 512, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },
    /* ---- asynchronous copies and barriers (async.cu; issue 25) ---- */
    { .name = "async_pipeline", .module = "async", .kernel = "async_pipeline", .n = 256, .grid = G0, .block = B1(128),
      .in = {{GEN_U32, 16, 0, 0}, {GEN_U32, 16, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(256, 9, 4) },
    { .name = "async_mbarrier_phases", .module = "async", .kernel = "async_mbarrier_phases", .n = 256, .grid = G0,
      .block = B1(128), .in = N1(GEN_U32), OUT(256, 12, 4) },
    { .name = "async_cp_mbarrier", .module = "async", .kernel = "async_cp_mbarrier", .n = 256, .grid = G0,
      .block = B1(128), .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(256, 8, 4) },
    { .name = "async_named_barriers", .module = "async", .kernel = "async_named_barriers", .n = 256, .grid = G0,
      .block = B1(128), .in = {{GEN_U32, 3, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(256, 1, 4) },
    { .name = "async_producer_consumer", .module = "async", .kernel = "async_producer_consumer", .n = 256, .grid = G0,
      .block = B1(128), .in = {{GEN_U32, 8, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(256, 1, 4) },
    /* ---- isa (issue 25): bit fields, SIMD video, half comparisons, WARP_SZ, special registers,
     * warp functions over tiles (isa.cu) ---- */
    { .name = "isa_bits", .module = "isa", .kernel = "isa_bits", .n = 1024, .grid = G0, .block = B1(128),
      .in = N2(GEN_U32), OUT(1024, 12, 4) },
    { .name = "isa_half_compare", .module = "isa", .kernel = "isa_half_compare", .n = 1024, .grid = G0,
      .block = B1(128), .in = {{GEN_F16, 2, 0, 0}, {GEN_F16, 2, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(1024, 8, 4) },
    { .name = "isa_sreg_tiles", .module = "isa", .kernel = "isa_sreg_tiles", .n = 256, .grid = G0, .block = B1(128),
      .in = N1(GEN_U32), OUT(256, 10, 4) },
};
const size_t corpus_case_count = sizeof corpus_cases / sizeof corpus_cases[0];
