// Asynchronous copies as CUDA C++ programs write them (issue 25): cuda::pipeline with
// cuda::memcpy_async in a double-buffered tiled kernel, cuda::barrier with memcpy_async,
// cooperative_groups::memcpy_async / wait, and cuda_pipeline.h's __pipeline_memcpy_async with
// zero fill. nvcc only: these are CUDA's own headers (libcu++, cooperative_groups), which
// Debian's clang does not have. Every result is checked against the host and printed.
#include "check.h"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

// The shared pipeline and barrier states are initialised by their first use, as CUDA's samples do.
#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int TILE = 256;   // elements a block copies per stage
constexpr int STAGES = 2;   // double buffering

// out[i] = 3 * in[i] + i % 7, reading tile after tile through a two-stage pipeline: the copy of
// the next tile is in flight while the current one is computed.
__global__ void pipelined_scale(const int *in, int *out, int tiles_per_block)
{
    __shared__ alignas(16) int buf[STAGES][TILE];
    auto block = cg::this_thread_block();
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto pipe = cuda::make_pipeline(block, &state);
    const int base = blockIdx.x * tiles_per_block * TILE;
    int fetch = 0;
    for (int t = 0; t < tiles_per_block; ++t) {
        for (; fetch < tiles_per_block && fetch < t + STAGES; ++fetch) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % STAGES], in + base + fetch * TILE, sizeof(int) * TILE, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        int i = base + t * TILE + threadIdx.x;
        out[i] = 3 * buf[t % STAGES][threadIdx.x] + i % 7;
        pipe.consumer_release();
    }
}

// A block sums its slice: the copy completes on a cuda::barrier (mbarrier on sm_80).
__global__ void barrier_sum(const int *in, int *out)
{
    __shared__ alignas(16) int tile[TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * TILE, cuda::aligned_size_t<16>(sizeof(int) * TILE), bar);
    bar.arrive_and_wait();
    // A phase more: arrive, then wait on the token.
    auto token = bar.arrive();
    bar.wait(std::move(token));
    int v = tile[(threadIdx.x * 5) % TILE];
    __shared__ int sum;
    if (threadIdx.x == 0)
        sum = 0;
    bar.arrive_and_wait();
    atomicAdd(&sum, v);
    bar.arrive_and_wait();
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

// cooperative_groups::memcpy_async into shared memory, cg::wait, then a reversal.
__global__ void cg_reverse(const int *in, int *out)
{
    __shared__ alignas(16) int tile[TILE];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, tile, in + blockIdx.x * TILE, sizeof(int) * TILE);
    cg::wait(block);
    out[blockIdx.x * TILE + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

// __pipeline_memcpy_async with a zero fill: each thread copies 16 bytes of which only
// `keep` come from global memory, the rest are zeros.
__global__ void pipeline_zero_fill(const int *in, int *out)
{
    __shared__ alignas(16) int tile[4 * TILE];
    int t = threadIdx.x;
    size_t keep = (size_t)(t % 5) * 4; // 0, 4, 8, 12, 16 bytes
    if (keep > 16)
        keep = 16;
    __pipeline_memcpy_async(&tile[4 * t], &in[4 * t], 16, 16 - keep);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int k = 0; k < 4; ++k)
        out[4 * t + k] = tile[4 * t + k];
}

static unsigned checksum(const int *v, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; ++i)
        h = (h ^ (unsigned)v[i]) * 16777619u;
    return h;
}

int main()
{
    const int blocks = 6, tiles = 5, n = blocks * tiles * TILE;
    int *h_in = (int *)malloc(sizeof(int) * n), *h_out = (int *)malloc(sizeof(int) * n);
    REQUIRE(h_in && h_out);
    for (int i = 0; i < n; ++i)
        h_in[i] = (int)((unsigned)i * 2654435761u >> 7) - 1000000;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof(int) * n));
    CHECK(cudaMalloc(&d_out, sizeof(int) * n));
    CHECK(cudaMemcpy(d_in, h_in, sizeof(int) * n, cudaMemcpyHostToDevice));

    CHECK(cudaMemset(d_out, 0, sizeof(int) * n));
    pipelined_scale<<<blocks, TILE>>>(d_in, d_out, tiles);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, sizeof(int) * n, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i)
        bad += h_out[i] != 3 * h_in[i] + i % 7;
    printf("pipelined_scale: %d elements, %d wrong, checksum %08x\n", n, bad, checksum(h_out, n));

    barrier_sum<<<blocks, TILE>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, sizeof(int) * blocks, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int b = 0; b < blocks; ++b) {
        int s = 0;
        for (int t = 0; t < TILE; ++t)
            s += h_in[b * TILE + (t * 5) % TILE];
        bad += h_out[b] != s;
        printf("barrier_sum: block %d: %d\n", b, h_out[b]);
    }
    printf("barrier_sum: %d wrong\n", bad);

    cg_reverse<<<blocks, TILE>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, sizeof(int) * blocks * TILE, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < TILE; ++t)
            bad += h_out[b * TILE + t] != h_in[b * TILE + TILE - 1 - t];
    printf("cg_reverse: %d wrong, checksum %08x\n", bad, checksum(h_out, blocks * TILE));

    pipeline_zero_fill<<<1, TILE>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, sizeof(int) * 4 * TILE, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int t = 0; t < TILE; ++t)
        for (int k = 0; k < 4; ++k) {
            int keep = (t % 5) * 4;
            int want = 4 * k < keep ? h_in[4 * t + k] : 0;
            bad += h_out[4 * t + k] != want;
        }
    printf("pipeline_zero_fill: %d wrong, first words %d %d %d %d / %d %d %d %d\n", bad, h_out[4], h_out[5], h_out[6],
           h_out[7], h_out[12], h_out[13], h_out[14], h_out[15]);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    printf("done\n");
    return 0;
}
