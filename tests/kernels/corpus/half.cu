// f16 and bf16 arithmetic (PTX ISA "Half Precision Floating-Point Instructions"): packed
// f16x2 add/mul/fma/max, scalar f16 add/sub/mul, bf16x2 fma. NaN results of f16 arithmetic
// are canonical (0x7fff) on the GPU.
#include "corpus.h"

KERNEL half2_arith(KPARAMS) {
    const __half2 *a = (const __half2 *)a_, *b = (const __half2 *)b_, *c = (const __half2 *)c_;
    __half2 *out = (__half2 *)out_;
    int i = GID;
    if (i >= n) return;
    __half2 *o = out + i * 4;
    o[0] = __hadd2(a[i], b[i]);
    o[1] = __hmul2(a[i], b[i]);
    o[2] = __hfma2(a[i], b[i], c[i]);
    o[3] = __hmax2(a[i], b[i]);
}

KERNEL half_arith(KPARAMS) {
    const __half *a = (const __half *)a_, *b = (const __half *)b_;
    __half *out = (__half *)out_;
    int i = GID;
    if (i >= n) return;
    __half *o = out + i * 4;
    o[0] = __hadd(a[i], b[i]);
    o[1] = __hsub(a[i], b[i]);
    o[2] = __hmul(a[i], b[i]);
    o[3] = __float2half_rn(__half2float(a[i]) * 0.5f);
}

KERNEL bf16x2_fma(KPARAMS) {
    const __nv_bfloat162 *a = (const __nv_bfloat162 *)a_, *b = (const __nv_bfloat162 *)b_, *c = (const __nv_bfloat162 *)c_;
    __nv_bfloat162 *out = (__nv_bfloat162 *)out_;
    int i = GID;
    if (i >= n) return;
    out[i] = __hfma2(a[i], b[i], c[i]);
}
