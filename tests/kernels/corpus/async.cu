// Asynchronous copies and barriers (issue 25; PTX ISA "cp.async", "mbarrier", "bar"): cp.async
// pipelines with zero fill, mbarrier phases, arrive_drop and pending counts, cp.async completing
// on an mbarrier, named barriers with thread counts, bar.arrive producers and consumers, and a
// warp-specialised producer/consumer loop whose consumers spin on mbarrier.test_wait. Inline PTX
// of PTX ISA 7.0 (sm_80), so that nvcc and clang (which writes .version 7.0) compile the same
// instructions; the later forms (ignore-src, .parity, try_wait, expect_tx, bulk copies) are in
// tests/cuda/async_bulk.cu.
#include "corpus.h"

#define TID threadIdx.x
#define AD static __device__ __forceinline__

AD uint smem(const void *p)
{
    uint r;
    asm volatile("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
    return r;
}
AD void cp_ca4(uint d, const void *s, uint n) { asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(d), "l"(s), "r"(n) : "memory"); }
AD void cp_ca8(uint d, const void *s, uint n) { asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(d), "l"(s), "r"(n) : "memory"); }
AD void cp_ca16(uint d, const void *s) { asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(d), "l"(s) : "memory"); }
AD void cp_cg16(uint d, const void *s, uint n) { asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(s), "r"(n) : "memory"); }
AD void cp_commit(void) { asm volatile("cp.async.commit_group;" ::: "memory"); }
AD void cp_wait0(void) { asm volatile("cp.async.wait_group 0;" ::: "memory"); }
AD void cp_wait1(void) { asm volatile("cp.async.wait_group 1;" ::: "memory"); }
AD void cp_wait_all(void) { asm volatile("cp.async.wait_all;" ::: "memory"); }
AD void bsync(void) { asm volatile("bar.sync 0;" ::: "memory"); }

AD void mb_init(uint b, uint count) { asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(count) : "memory"); }
AD void mb_inval(uint b) { asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(b) : "memory"); }
AD ull mb_arrive(uint b)
{
    ull s;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    return s;
}
AD ull mb_arrive_nc(uint b, uint count)
{
    ull s;
    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(count) : "memory");
    return s;
}
AD ull mb_arrive_drop(uint b)
{
    ull s;
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    return s;
}
AD uint mb_pending(ull s)
{
    uint c;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(s));
    return c;
}
AD uint mb_test(uint b, ull s)
{
    uint r;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"(b), "l"(s) : "memory");
    return r;
}
// Spins until the phase of `s` has completed; returns how many tests failed (which depends on
// scheduling: no output records it).
AD uint mb_wait(uint b, ull s)
{
    uint fails = 0;
    while (!mb_test(b, s))
        fails++;
    return fails;
}

// A two-stage cp.async pipeline over tiles of 4 words per thread: the next tile's copy is in
// flight (wait_group 1) while the current one is summed. Copies of every size and kind, with
// zero fill: 4 and 8 bytes through .ca with a src-size from the input, 16 bytes through .cg
// with src-size 0..16.
KERNEL async_pipeline(KPARAMS) {
    const uint *a = (const uint *)a_;
    const uint *b = (const uint *)b_;
    uint *out = (uint *)out_;
    __shared__ __attribute__((aligned(16))) uint buf[2][128 * 4];
    __shared__ __attribute__((aligned(16))) uint small[128 * 4];
    const int tiles = 4;
    uint t = TID, base = blockIdx.x * tiles * 128 * 4;
    cp_cg16(smem(&buf[0][4 * t]), &a[base + 4 * t], 16);
    cp_commit();
    uint acc = 0;
    #pragma unroll 1
    for (int k = 0; k < tiles; ++k) {
        if (k + 1 < tiles) {
            uint keep = (b[base + (k + 1) * 512 + t] % 5) * 4; // 0, 4, 8, 12 or 16 bytes
            cp_cg16(smem(&buf[(k + 1) & 1][4 * t]), &a[base + (k + 1) * 512 + 4 * t], keep);
        }
        cp_commit();
        cp_wait1();
        bsync();
        for (int j = 0; j < 4; ++j)
            acc = acc * 31 + buf[k & 1][(4 * t + 4 * 37 * j + j) % 512];
        bsync();
    }
    cp_wait_all();
    // Small copies: 4 bytes with src-size 0 or 4, 8 bytes with src-size 0, 4 or 8; 16 through .ca.
    uint sz = b[t] & 7;
    small[4 * t + 1] = 0; // no copy below writes this word
    cp_ca4(smem(&small[4 * t]), &a[4 * t], sz & 4);
    cp_ca8(smem(&small[4 * t + 2]), &a[4 * t + 2], sz & 1 ? 8 : sz & 4);
    cp_commit();
    cp_wait0();
    uint x[4] = {small[4 * t], small[4 * t + 1], small[4 * t + 2], small[4 * t + 3]};
    cp_ca16(smem(&small[4 * t]), &a[4 * ((t + 3) & 127)]);
    cp_commit();
    cp_wait0();
    uint *o = out + (blockIdx.x * blockDim.x + t) * 9;
    o[0] = acc;
    for (int j = 0; j < 4; ++j) {
        o[1 + j] = x[j];
        o[5 + j] = small[4 * t + j];
    }
}

// mbarrier phases: a barrier for the whole block, arrive and test in eight phases (the state of
// one phase tests complete after it, the state of the next tests not complete before the last
// thread arrives); pending counts of noComplete arrivals; arrive_drop shrinking the expected
// count; a second barrier of half the block re-initialised after inval.
KERNEL async_mbarrier_phases(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    __shared__ __attribute__((aligned(8))) ull bars[2];
    __shared__ uint log[8][128];
    uint t = TID, nt = blockDim.x;
    uint bar = smem(&bars[0]), half = smem(&bars[1]);
    if (t == 0) {
        mb_init(bar, nt);
        mb_init(half, nt / 2);
    }
    bsync();
    uint *o = out + (blockIdx.x * nt + t) * 12;
    uint v = a[blockIdx.x * nt + t], fails_first = 0;
    #pragma unroll 1
    for (int ph = 0; ph < 8; ++ph) {
        log[ph][t] = v + ph;
        ull s = mb_arrive(bar);
        mb_wait(bar, s);
        // Everything written before the phase completed is visible after it.
        v += log[ph][(t + 1 + ph) % nt];
        if (ph == 0)
            fails_first = mb_test(bar, s); // 1: the phase of s completed
    }
    o[0] = v;
    o[1] = fails_first;
    // noComplete: every thread but thread 0 arrives with count 1, whose pending counts say how
    // many were pending; then thread 0 arrives with what is left.
    bsync();
    ull s1 = 0;
    if (t != 0)
        s1 = mb_arrive_nc(bar, 1);
    bsync();
    uint before_last = t != 0 ? mb_test(bar, s1) : 7; // 0: the phase is not complete yet
    bsync();
    if (t == 0)
        s1 = mb_arrive(bar);
    mb_wait(bar, s1);
    o[2] = t != 0 ? mb_pending(s1) : 0xffffffffu; // the counts depend on arrival order: compared as a set below
    o[3] = before_last;
    // arrive_drop: the upper half of the block drops out; later phases need only the lower half.
    bsync();
    ull s2 = t >= nt / 2 ? mb_arrive_drop(bar) : mb_arrive(bar);
    mb_wait(bar, s2);
    uint after = 0;
    if (t < nt / 2) {
        #pragma unroll 1
        for (int ph = 0; ph < 3; ++ph) {
            ull s3 = mb_arrive(bar);
            mb_wait(bar, s3);
            after += (ph + 1) * mb_test(bar, s3);
        }
    }
    o[4] = after;
    // The half barrier: threads t and t + nt/2 share it; inval, init again with count 2, and
    // two threads complete a phase.
    bsync();
    ull s4 = 0;
    if (t < nt / 2)
        s4 = mb_arrive(half);
    if (t < nt / 2)
        mb_wait(half, s4);
    bsync();
    if (t == 0) {
        mb_inval(half);
        mb_init(half, 2);
    }
    bsync();
    uint r5 = 9;
    if (t == 1 || t == 2) {
        ull s5 = mb_arrive(half);
        mb_wait(half, s5);
        r5 = mb_test(half, s5);
    }
    o[5] = r5;
    // Whether the pending count of thread t's noComplete arrival is among the values 1..nt-1
    // (each appears once): sum and xor of all of them, computed by thread 0.
    __shared__ uint pend[128];
    pend[t] = o[2];
    bsync();
    uint sum = 0, x = 0;
    if (t == 0)
        for (uint i = 1; i < nt; ++i) {
            sum += pend[i];
            x ^= pend[i];
        }
    o[6] = t == 0 ? sum : 0;
    o[7] = t == 0 ? x : 0;
    o[2] = 0;
    o[8] = nt;
    o[9] = 0;
    o[10] = 0;
    o[11] = 0;
}

// cp.async completing on an mbarrier: each thread copies 16 bytes and triggers
// cp.async.mbarrier.arrive.noinc (counted among the expected arrivals: init with 2 * nt) and
// arrives itself; a second round uses the incrementing form (init with nt).
KERNEL async_cp_mbarrier(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    __shared__ __attribute__((aligned(16))) uint tile[128 * 4];
    __shared__ __attribute__((aligned(8))) ull bars[2];
    uint t = TID, nt = blockDim.x;
    uint b0 = smem(&bars[0]), b1 = smem(&bars[1]);
    if (t == 0) {
        mb_init(b0, 2 * nt);
        mb_init(b1, nt);
    }
    bsync();
    cp_cg16(smem(&tile[4 * ((t + 5) % nt)]), &a[blockIdx.x * nt * 4 + 4 * t], 16);
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(b0) : "memory");
    ull s = mb_arrive(b0);
    mb_wait(b0, s);
    uint *o = out + (blockIdx.x * nt + t) * 8;
    for (int j = 0; j < 4; ++j)
        o[j] = tile[4 * t + j];
    bsync();
    cp_ca16(smem(&tile[4 * t]), &a[blockIdx.x * nt * 4 + 4 * ((t * 7) % nt)]);
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(b1) : "memory");
    s = mb_arrive(b1);
    mb_wait(b1, s);
    for (int j = 0; j < 4; ++j)
        o[4 + j] = tile[4 * ((t + 1) % nt) + j];
}

// Named barriers with thread counts: warps 0-1 produce into a ring of 4 slots for warps 2-3,
// bar.arrive on "full" (id 1 + slot % 2, 128 threads) and bar.sync on "empty" (id 3 + slot % 2);
// warps 0 and 1 also sync among themselves on barrier 5 with 64 threads.
KERNEL async_named_barriers(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    __shared__ uint ring[2][64];
    __shared__ uint prod[64];
    uint t = TID, warp = t / 32;
    const int rounds = 6;
    uint acc = 0;
    if (warp < 2) {
        #pragma unroll 1
        for (int r = 0; r < rounds; ++r) {
            uint slot = r & 1;
            if (r >= 2)
                asm volatile("bar.sync %0, 128;" ::"r"(3 + slot) : "memory"); // wait until consumed
            ring[slot][t] = a[blockIdx.x * 64 * rounds + r * 64 + t] * (r + 1);
            asm volatile("bar.arrive %0, 128;" ::"r"(1 + slot) : "memory");
            prod[t] = t * r;
            asm volatile("bar.sync 5, 64;" ::: "memory");
            acc += prod[63 - t];
            asm volatile("bar.sync 5, 64;" ::: "memory");
        }
    } else {
        uint c = t - 64;
        #pragma unroll 1
        for (int r = 0; r < rounds; ++r) {
            uint slot = r & 1;
            asm volatile("bar.sync %0, 128;" ::"r"(1 + slot) : "memory");
            acc = acc * 7 + ring[slot][(c * 5 + r) & 63];
            if (r + 2 < rounds)
                asm volatile("bar.arrive %0, 128;" ::"r"(3 + slot) : "memory");
        }
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

// Warp specialisation on mbarriers: warp 0 copies tiles with cp.async into a ring of 2 stages
// and signals "full" through cp.async.mbarrier.arrive.noinc; warps 1-3 arrive on "full" and spin
// on mbarrier.test_wait until the copy has landed, consume, and arrive on "empty", which the
// producer waits on before it reuses a stage (every barrier: 128 arrivals a phase). A consumer
// that spins never lets the producer run on a scheduler that does not switch warps at a failed
// wait.
KERNEL async_producer_consumer(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    __shared__ __attribute__((aligned(16))) uint stage[2][128];
    __shared__ __attribute__((aligned(8))) ull full[2], empty[2];
    uint t = TID, warp = t / 32, lane = t % 32;
    const int tiles = 8;
    if (t == 0)
        for (int s = 0; s < 2; ++s) {
            mb_init(smem(&full[s]), 128);
            mb_init(smem(&empty[s]), 128);
        }
    bsync();
    const uint *src = a + blockIdx.x * tiles * 128;
    uint acc = 0;
    if (warp == 0) {
        ull es[2] = {0, 0};
        #pragma unroll 1
        for (int k = 0; k < tiles; ++k) {
            int s = k & 1;
            if (k >= 2)
                acc += mb_wait(smem(&empty[s]), es[s]) ? 1 : 1;
            cp_cg16(smem(&stage[s][4 * lane]), &src[k * 128 + 4 * lane], 16);
            asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(smem(&full[s])) : "memory");
            es[s] = mb_arrive(smem(&empty[s]));
        }
    } else {
        uint c = t - 32;
        #pragma unroll 1
        for (int k = 0; k < tiles; ++k) {
            int s = k & 1;
            ull st = mb_arrive(smem(&full[s]));
            mb_wait(smem(&full[s]), st);
            acc = acc * 3 + stage[s][(c * 11 + k) & 127];
            mb_arrive(smem(&empty[s]));
        }
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
