// Atomics on global and shared memory (PTX ISA atom, red). Many threads hit one address;
// only results that do not depend on the order of the threads are kept: sums of integers or of
// exactly representable floats, min/max, and/or/xor, inc/dec wrap counts, and "which old values
// were seen" marks (every old value of a counter is seen exactly once, in some order).
#include "corpus.h"

// out (u32 words, zero on entry): [0] add int, [1] add uint, [2..3] add ull, [4] add float,
// [6..7] add double, [8] sub, [9] or, [10] xor, [11] max signed, [12] max unsigned,
// [13] inc with wrap 17, [14] CAS-loop add, [16..17] CAS-loop 64-bit add, [18] min signed,
// [32 ..] marks of atomicAdd(&counter, 1)'s old values (the counter is [19]).
KERNEL atomic_global(KPARAMS) {
    const int *a = (const int *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    int v = a[i];
    atomicAdd((int *)&out[0], v);
    atomicAdd(&out[1], (uint)v * 3u);
    atomicAdd((ull *)&out[2], (ull)(long long)v * 0x10001ull);
    atomicAdd((float *)&out[4], (float)(v & 0xff)); // every partial sum an integer below 2^24: exact
    atomicAdd((double *)&out[6], (double)v * 0.5);
    atomicSub((int *)&out[8], v & 0xff);
    atomicOr((int *)&out[9], 1 << (v & 31));
    atomicXor((int *)&out[10], v);
    atomicMax((int *)&out[11], v);
    atomicMax(&out[12], (uint)v);
    atomicInc(&out[13], 17u);
    int *p = (int *)&out[14];
    int old = *(volatile int *)p, seen;
    while ((seen = atomicCAS(p, old, old + (v & 0xfff))) != old) old = seen;
    ull *q = (ull *)&out[16];
    ull o64 = *(volatile ull *)q, s64;
    while ((s64 = atomicCAS(q, o64, o64 + (ull)(uint)v)) != o64) o64 = s64;
    atomicMin((int *)&out[18], v);
    uint k = atomicAdd(&out[19], 1u);
    if (k < (uint)n) out[32 + k] = 1u;
}

// The same counter from the other start: every word 0xffffffff on entry.
// [0] and, [1] min unsigned, [2] dec with wrap 1000 (from 0xffffffff: 1000, then down),
// [4..5] min signed 64-bit, [6..7] max signed 64-bit, [8..9] min unsigned 64-bit, [10] exch+add.
KERNEL atomic_global_ones(KPARAMS) {
    const int *a = (const int *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    int v = a[i];
    atomicAnd((int *)&out[0], ~(1 << (v & 31)) | (v & 0x10000));
    atomicMin(&out[1], (uint)v);
    atomicDec(&out[2], 1000u);
    atomicMin((long long *)&out[4], (long long)v * 77777);
    atomicMax((long long *)&out[6], (long long)v * 77777);
    atomicMin((ull *)&out[8], (ull)(uint)v << 20);
}

// Shared memory: thread 0 clears, everybody adds, thread 0 writes the block's totals.
// atomicExch passes a token around: every thread's old value is marked once, the last holder
// by thread 0 after the barrier, so every mark ends 1 whatever the order.
KERNEL atomic_shared(KPARAMS) {
    const int *a = (const int *)a_;
    uint *out = (uint *)out_;
    __shared__ int s_add, s_max, s_min, s_or, s_tok;
    __shared__ unsigned s_inc;
    __shared__ float s_f;
    __shared__ ull s_u64;
    __shared__ uint marks[256];
    int t = threadIdx.x;
    int v = a[blockIdx.x * blockDim.x + t];
    if (t == 0) { s_add = 0; s_max = -2147483647 - 1; s_min = 2147483647; s_or = 0; s_tok = -1; s_inc = 0; s_f = 0.0f; s_u64 = 0; }
    marks[t] = 0;
    __syncthreads();
    atomicAdd(&s_add, v);
    atomicMax(&s_max, v);
    atomicMin(&s_min, v);
    atomicOr(&s_or, v & 0x0f0f0f0f);
    atomicInc(&s_inc, 9u);
    atomicAdd(&s_f, (float)(v & 0xff) * 0.25f);
    atomicAdd(&s_u64, (ull)(uint)v);
    int prev = atomicExch(&s_tok, t);
    if (prev >= 0) marks[prev] = 1;
    __syncthreads();
    uint *o = out + blockIdx.x * (8 + 256);
    if (t == 0) {
        marks[s_tok] = 1; // the last holder
        o[0] = (uint)s_add; o[1] = (uint)s_max; o[2] = (uint)s_min; o[3] = (uint)s_or;
        o[4] = s_inc; o[5] = __float_as_uint(s_f); o[6] = (uint)s_u64; o[7] = (uint)(s_u64 >> 32);
    }
    __syncthreads();
    o[8 + t] = marks[t];
}
