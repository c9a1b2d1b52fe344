// Warp-level functions (PTX ISA shfl.sync, vote.sync, match.sync, activemask, redux.sync),
// with widths below 32 and with divergent code before them.
#include "corpus.h"

// Each lane's value is a[i]; every lane writes 16 results.
KERNEL warp_shuffle(KPARAMS) {
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    int i = GID;
    int lane = threadIdx.x & 31;
    int v = a[i];
    int *o = out + i * 16;
    o[0] = __shfl_sync(0xffffffffu, v, 5, 32);
    o[1] = __shfl_sync(0xffffffffu, v, lane + 3, 32);   // source beyond the warp wraps mod width
    o[2] = __shfl_sync(0xffffffffu, v, 3, 16);
    o[3] = __shfl_sync(0xffffffffu, v, 31 - lane, 8);
    o[4] = __shfl_up_sync(0xffffffffu, v, 1, 32);
    o[5] = __shfl_up_sync(0xffffffffu, v, 5, 16);
    o[6] = __shfl_up_sync(0xffffffffu, v, 3, 4);
    o[7] = __shfl_down_sync(0xffffffffu, v, 1, 32);
    o[8] = __shfl_down_sync(0xffffffffu, v, 7, 16);
    o[9] = __shfl_down_sync(0xffffffffu, v, 2, 8);
    o[10] = __shfl_xor_sync(0xffffffffu, v, 1, 32);
    o[11] = __shfl_xor_sync(0xffffffffu, v, 16, 32);
    o[12] = __shfl_xor_sync(0xffffffffu, v, 5, 8);
    o[13] = __shfl_xor_sync(0xffffffffu, v, lane, 32);
    float f = __int_as_float(v);
    o[14] = __float_as_int(__shfl_down_sync(0xffffffffu, f, 4, 32));
    o[15] = __float_as_int(__shfl_xor_sync(0xffffffffu, f, 2, 32));
}

// Votes, activemask and match, after the warp diverged and reconverged, and inside a branch.
KERNEL warp_vote(KPARAMS) {
    const int *a = (const int *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    int lane = threadIdx.x & 31;
    int v = a[i];
    uint *o = out + i * 12;
    int t;
    if (v & 1) t = v * 3; else t = v >> 2; // divergence, reconverged before the votes
    o[0] = __ballot_sync(0xffffffffu, t & 4);
    o[1] = (uint)__all_sync(0xffffffffu, v > -100000);
    o[2] = (uint)__any_sync(0xffffffffu, v == 7);
    o[3] = (uint)__all_sync(0xffffffffu, t & 1);
    o[4] = __match_any_sync(0xffffffffu, (uint)(v & 3));
    int pred = 0;
    o[5] = __match_all_sync(0xffffffffu, (uint)(v & 3), &pred);
    o[6] = (uint)pred;
    o[7] = __match_all_sync(0xffffffffu, 42u, &pred) ^ (uint)pred << 8;
    o[8] = __match_any_sync(0xffffffffu, (uint)v >> 28); // (clang 14 emits match.any.sync.b64 with a 64-bit destination, which ptxas rejects: 32-bit only)
    if (lane % 3 == 0) {
        o[9] = __activemask();
        o[10] = __ballot_sync(__activemask(), v & 2);
    } else {
        o[9] = __activemask() | 0x80000000u;
        o[10] = 0;
    }
    if (lane < 16) o[11] = __ballot_sync(0x0000ffffu, v & 8); // a partial mask: the lower half
    else o[11] = __ballot_sync(0xffff0000u, v & 16);
}

// redux.sync (sm_80): add/min/max/and/or/xor over the warp and over half of it.
KERNEL warp_reduce(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    int lane = threadIdx.x & 31;
    uint v = a[i];
    uint *o = out + i * 8;
    o[0] = __reduce_add_sync(0xffffffffu, v);
    o[1] = __reduce_min_sync(0xffffffffu, v);
    o[2] = __reduce_max_sync(0xffffffffu, v);
    o[3] = (uint)__reduce_min_sync(0xffffffffu, (int)v);
    o[4] = (uint)__reduce_max_sync(0xffffffffu, (int)v);
    o[5] = __reduce_and_sync(0xffffffffu, v) ^ __reduce_or_sync(0xffffffffu, v);
    o[6] = __reduce_xor_sync(0xffffffffu, v);
    if (lane < 16) o[7] = __reduce_add_sync(0x0000ffffu, v);
    else o[7] = __reduce_add_sync(0xffff0000u, v >> 3);
}
