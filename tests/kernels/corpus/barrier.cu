// Barriers (PTX ISA bar.sync / barrier.sync, bar.red) and thread geometry: __syncthreads in
// loops, the counting/and/or forms, a shared-memory tree reduction, 1024-thread blocks, 2D/3D
// blocks and grids.
#include "corpus.h"

// A 1D stencil iterated 8 times in shared memory: every step reads neighbours written in the
// previous step, so a missing barrier changes the result.
KERNEL bar_stencil(KPARAMS) {
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    __shared__ int buf[2][256];
    int t = threadIdx.x, nt = blockDim.x;
    buf[0][t] = a[blockIdx.x * nt + t];
    __syncthreads();
    int cur = 0;
    for (int step = 0; step < 8; ++step) {
        int l = buf[cur][(t + nt - 1) % nt], r = buf[cur][(t + 1) % nt];
        buf[cur ^ 1][t] = l + 2 * buf[cur][t] - r + step;
        cur ^= 1;
        __syncthreads();
    }
    out[blockIdx.x * nt + t] = buf[cur][t];
}

KERNEL bar_reduce_ops(KPARAMS) {
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    int t = threadIdx.x;
    int v = a[blockIdx.x * blockDim.x + t];
    int c = __syncthreads_count(v & 1);
    int al = __syncthreads_and(v != 12345);
    int an = __syncthreads_and(v & 1);
    int o1 = __syncthreads_or(v == a[blockIdx.x * blockDim.x]);
    int o2 = __syncthreads_or(0);
    int *o = out + (blockIdx.x * blockDim.x + t) * 5;
    o[0] = c; o[1] = al; o[2] = an; o[3] = o1; o[4] = o2;
}

// Tree reduction over a block of 1024 threads: sum, min and xor.
KERNEL bar_tree_1024(KPARAMS) {
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    __shared__ int s_sum[1024], s_min[1024], s_xor[1024];
    int t = threadIdx.x;
    int v = a[blockIdx.x * blockDim.x + t];
    s_sum[t] = v; s_min[t] = v; s_xor[t] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            s_sum[t] += s_sum[t + s];
            s_min[t] = min(s_min[t], s_min[t + s]);
            s_xor[t] ^= s_xor[t + s];
        }
        __syncthreads();
    }
    if (t == 0) { out[blockIdx.x * 3] = s_sum[0]; out[blockIdx.x * 3 + 1] = s_min[0]; out[blockIdx.x * 3 + 2] = s_xor[0]; }
}

// Every thread of a 3D grid of 3D blocks writes its coordinates at its linear index.
KERNEL geometry_3d(KPARAMS) {
    uint *out = (uint *)out_;
    uint bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
    uint block = (bz * gridDim.y + by) * gridDim.x + bx;
    uint thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    uint nthreads = blockDim.x * blockDim.y * blockDim.z;
    uint *o = out + (block * nthreads + thread) * 3;
    o[0] = threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20;
    o[1] = bx | by << 10 | bz << 20;
    o[2] = blockDim.x | blockDim.y << 10 | blockDim.z << 20 | (gridDim.x * gridDim.y * gridDim.z) << 26;
}

// A barrier inside a loop whose trip count is the same for the block but differs by block.
KERNEL bar_loop_by_block(KPARAMS) {
    int *out = (int *)out_;
    __shared__ int acc[128];
    int t = threadIdx.x;
    acc[t] = t;
    __syncthreads();
    for (uint k = 0; k < blockIdx.x + 1; ++k) {
        int x = acc[(t + 1) & 127];
        __syncthreads();
        acc[t] = x + (int)k;
        __syncthreads();
    }
    out[blockIdx.x * 128 + t] = acc[t];
}
