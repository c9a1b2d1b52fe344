// The sm_90 asynchronous copies and barriers (issue 25; PTX ISA 9.0 "cp.async.bulk",
// "cp.reduce.async.bulk", "mbarrier", "barrier.cluster", "fence"): bulk copies from global to
// shared memory completing on an mbarrier (expect_tx / complete_tx byte counting), from shared
// to global memory in bulk groups, bulk reductions, try_wait and test_wait with .parity,
// arrive with a count, arrive.expect_tx, mbarrier.expect_tx and complete_tx, ignore-src and
// .L2::128B on cp.async, barrier.cluster on a cluster of one block, and the proxy fences.
// nvcc only, built for compute_90 (run with EXTMEM_COMPUTE_CAPABILITY=9.0 on the software
// device, natively on the H100).
#include "check.h"

#include <cstdint>

#define AD static __device__ __forceinline__
typedef unsigned long long ull;

AD unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
AD void mb_init(unsigned b, unsigned n) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(n) : "memory"); }
AD void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
AD void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
AD ull arrive_tx(unsigned b, unsigned tx)
{
    ull s;
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(tx) : "memory");
    return s;
}
AD ull arrive_n(unsigned b, unsigned n)
{
    ull s;
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(n) : "memory");
    return s;
}
AD ull arrive1(unsigned b)
{
    ull s;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    return s;
}
AD unsigned try_parity(unsigned b, unsigned parity)
{
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2, 1000; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"(b), "r"(parity) : "memory");
    return r;
}
AD unsigned test_parity(unsigned b, unsigned parity)
{
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"(b), "r"(parity) : "memory");
    return r;
}
AD unsigned try_state(unsigned b, ull s)
{
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"(b), "l"(s) : "memory");
    return r;
}
AD void wait_parity(unsigned b, unsigned parity) { while (!try_parity(b, parity)) { } }
AD void bulk_g2s(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}
AD void bulk_s2g(void *dst, unsigned src, unsigned bytes)
{
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(src), "r"(bytes) : "memory");
}
AD void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
AD void bulk_wait0() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
AD void bulk_wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }

constexpr int N = 1024; // words a block moves

// Warp 0's lane 0 copies a block's 4 KiB in four bulk copies of 1 KiB onto one mbarrier whose
// transaction count it sets with arrive.expect_tx; the block waits with try_wait.parity, adds,
// and writes back with bulk copies from shared memory, then a bulk reduction adds the tile into
// a second output. Phases 1 and 2 repeat the copy with mbarrier.expect_tx + complete_tx
// counting and an arrival count of 2.
__global__ void bulk_roundtrip(const int *in, int *out, int *red)
{
    __shared__ alignas(128) int tile[N];
    __shared__ alignas(8) ull bar;
    unsigned b = smem(&bar);
    unsigned t = threadIdx.x;
    if (t == 0) {
        mb_init(b, 1);
        fence_init();
    }
    __syncthreads();
    const int *src = in + blockIdx.x * N;
    unsigned before = test_parity(b, 1); // the phase before phase 0 (parity 1) counts as complete
    __syncthreads();
    if (t == 0) {
        arrive_tx(b, N * 4);
        for (int k = 0; k < 4; ++k)
            bulk_g2s(smem(&tile[k * 256]), src + k * 256, 1024, b);
    }
    wait_parity(b, 0);
    for (int i = t; i < N; i += blockDim.x)
        tile[i] = tile[i] * 2 + (int)blockIdx.x;
    fence_async(); // the generic writes above, before the async proxy reads them
    __syncthreads();
    if (t == 0) {
        bulk_s2g(out + blockIdx.x * N, smem(tile), N * 4);
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s32 [%0], [%1], %2;"
                     ::"l"(red), "r"(smem(tile)), "r"(N * 4) : "memory");
        bulk_commit();
        bulk_wait_read0();
        bulk_wait0();
    }
    __syncthreads();
    // Phase 1: expect_tx then two arrivals (count 2 in one instruction), the copy completing
    // the transactions; phase 2: complete_tx by hand.
    if (t == 0) {
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(b) : "memory");
        mb_init(b, 2);
        fence_init();
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(512) : "memory");
        bulk_g2s(smem(&tile[512]), src, 512, b);
    }
    __syncthreads();
    unsigned mid = test_parity(b, 0); // not complete: no arrival yet
    __syncthreads();
    ull st = 0;
    if (t == 0)
        st = arrive_n(b, 2);
    wait_parity(b, 0);
    unsigned st_done = t == 0 ? try_state(b, st) : 1;
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(64) : "memory");
        arrive1(b);
        arrive1(b);
    }
    __syncthreads();
    unsigned pending_tx = test_parity(b, 1); // 64 bytes expected, none complete: 0
    __syncthreads();
    if (t == 32)
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(64) : "memory");
    wait_parity(b, 1);
    int *o = out + gridDim.x * N + (blockIdx.x * blockDim.x + t) * 6;
    o[0] = before;
    o[1] = mid;
    o[2] = st_done;
    o[3] = pending_tx;
    o[4] = tile[512 + (t % 128)];
    o[5] = test_parity(b, 0) * 10 + test_parity(b, 1);
}

// cp.async with ignore-src (a predicate: zeros instead of the source) and .L2::128B, waited on
// with cp.async.wait_all; then barrier.cluster.arrive/wait (a cluster of one block) between the
// copy and the read, with the relaxed and acquire forms.
__global__ void cp_ignore_cluster(const int4 *in, int4 *out)
{
    __shared__ alignas(16) int4 tile[256];
    unsigned t = threadIdx.x;
    unsigned ign = (t % 3) == 0;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; cp.async.cg.shared.global.L2::128B [%0], [%1], 16, p; }"
                 ::"r"(smem(&tile[t])), "l"(&in[t]), "r"(ign) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    int4 v = tile[(t + 1) % 256];
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    out[t] = v;
}

int main()
{
    const int blocks = 3;
    int *h_in = (int *)malloc(sizeof(int) * N * blocks);
    REQUIRE(h_in);
    for (int i = 0; i < N * blocks; ++i)
        h_in[i] = (int)((unsigned)i * 2246822519u >> 9) - 3000000;
    int *d_in, *d_out, *d_red;
    const size_t out_words = (size_t)blocks * N + (size_t)blocks * 128 * 6;
    CHECK(cudaMalloc(&d_in, sizeof(int) * N * blocks));
    CHECK(cudaMalloc(&d_out, sizeof(int) * out_words));
    CHECK(cudaMalloc(&d_red, sizeof(int) * N));
    CHECK(cudaMemcpy(d_in, h_in, sizeof(int) * N * blocks, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0xff, sizeof(int) * out_words));
    CHECK(cudaMemset(d_red, 0, sizeof(int) * N));
    bulk_roundtrip<<<blocks, 128>>>(d_in, d_out, d_red);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int *h_out = (int *)malloc(sizeof(int) * out_words), *h_red = (int *)malloc(sizeof(int) * N);
    REQUIRE(h_out && h_red);
    CHECK(cudaMemcpy(h_out, d_out, sizeof(int) * out_words, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_red, d_red, sizeof(int) * N, cudaMemcpyDeviceToHost));
    int bad = 0, badr = 0;
    for (int b = 0; b < blocks; ++b)
        for (int i = 0; i < N; ++i)
            bad += h_out[b * N + i] != h_in[b * N + i] * 2 + b;
    for (int i = 0; i < N; ++i) {
        int s = 0;
        for (int b = 0; b < blocks; ++b)
            s += h_in[b * N + i] * 2 + b;
        badr += h_red[i] != s;
    }
    printf("bulk copies: %d wrong, bulk reduction: %d wrong\n", bad, badr);
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < 128; t += 37) {
            const int *o = h_out + blocks * N + (b * 128 + t) * 6;
            printf("block %d thread %3d: before %d mid %d state %d tx %d word %d parity %d\n", b, t, o[0], o[1], o[2],
                   o[3], o[4], o[5]);
        }
    int wrong_word = 0;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < 128; ++t)
            wrong_word += h_out[blocks * N + (b * 128 + t) * 6 + 4] != h_in[b * N + (t % 128)];
    printf("expect_tx copy: %d wrong\n", wrong_word);

    CHECK(cudaMemset(d_out, 0x55, sizeof(int) * 4 * 256));
    cp_ignore_cluster<<<1, 256>>>((const int4 *)d_in, (int4 *)d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof(int) * 4 * 256, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int t = 0; t < 256; ++t) {
        int src = (t + 1) % 256;
        for (int k = 0; k < 4; ++k) {
            int want = src % 3 == 0 ? 0 : h_in[4 * src + k];
            bad += h_out[4 * t + k] != want;
        }
    }
    printf("cp.async ignore-src and barrier.cluster: %d wrong\n", bad);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_red));
    free(h_in);
    free(h_out);
    free(h_red);
    printf("done\n");
    return 0;
}
