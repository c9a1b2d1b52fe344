// The four benchmark kernels (issue 13's bench/): saxpy, a shared-memory reduction, a shuffle
// reduction and a transcendental-heavy kernel.
#include "corpus.h"

// out = 2.5 * a + b (the scalar in c[0]).
KERNEL saxpy(KPARAMS) {
    const float *a = (const float *)a_, *b = (const float *)b_, *c = (const float *)c_;
    float *out = (float *)out_;
    int i = GID;
    if (i < n) out[i] = c[0] * a[i] + b[i];
}

// Block sums of 256 elements in shared memory (integers: the sums are exact).
KERNEL reduce_shared(KPARAMS) {
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    __shared__ int s[256];
    int t = threadIdx.x, i = GID;
    s[t] = i < n ? a[i] : 0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// Block sums with warp shuffles, then one warp over the warps' sums.
KERNEL reduce_shfl(KPARAMS) {
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    __shared__ int warps[32];
    int t = threadIdx.x, i = GID;
    int v = i < n ? a[i] : 0;
    for (int k = 16; k > 0; k >>= 1) v += __shfl_down_sync(0xffffffffu, v, k, 32);
    if ((t & 31) == 0) warps[t >> 5] = v;
    __syncthreads();
    if (t < 32) {
        v = t < (int)(blockDim.x >> 5) ? warps[t] : 0;
        for (int k = 16; k > 0; k >>= 1) v += __shfl_xor_sync(0xffffffffu, v, k, 32);
        if (t == 0) out[blockIdx.x] = v;
    }
}

// 64 rounds of sin/exp/log/rsqrt per element.
KERNEL transc_heavy(KPARAMS) {
    const float *a = (const float *)a_;
    float *out = (float *)out_;
    int i = GID;
    if (i >= n) return;
    float x = a[i], acc = 0.0f;
    for (int k = 0; k < 64; ++k) {
        acc += __sinf(x) * __expf(-x * x) + __logf(1.0f + x * x) * rsqrtf(1.0f + acc * acc);
        x = x * 0.99f + 0.01f;
    }
    out[i] = acc;
}
