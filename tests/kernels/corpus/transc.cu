// Transcendental approximations (PTX ISA sin/cos/ex2/lg2/rsqrt/tanh .approx, div.approx).
// The ISA bounds their error, not their bits: the case table compares within a bound.
// One kernel per function, so each case has its own bound and input range.
#include "corpus.h"

#define UNARY(name, expr)                                                                                              \
    KERNEL name(KPARAMS) {                                                                                             \
        const float *a = (const float *)a_;                                                                            \
        float *out = (float *)out_;                                                                                    \
        int i = GID;                                                                                                   \
        if (i >= n) return;                                                                                            \
        float x = a[i];                                                                                                \
        out[i] = (expr);                                                                                               \
    }
UNARY(approx_sin, __sinf(x))
UNARY(approx_cos, __cosf(x))
UNARY(approx_exp2, exp2_approx(x))
UNARY(approx_log2, __log2f(x))
UNARY(approx_exp, __expf(x))
UNARY(approx_log, __logf(x))
UNARY(approx_rsqrt, rsqrtf(x))
UNARY(approx_tanh, tanh_approx(x))

KERNEL approx_div(KPARAMS) {
    const float *a = (const float *)a_, *b = (const float *)b_;
    float *out = (float *)out_;
    int i = GID;
    if (i >= n) return;
    out[i] = __fdividef(a[i], b[i]);
}
