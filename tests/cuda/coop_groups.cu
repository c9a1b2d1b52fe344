// cooperative_groups as CUDA's headers implement it (issue 25): warpSize, thread_block,
// tiled_partition (static and dynamic sizes), cg::reduce and the scans, coalesced groups,
// labeled_partition, binary_partition, and the warp functions they compile to (shfl, vote,
// match, redux). nvcc-only (cooperative_groups is CUDA's own header). The H100 printed the same
// (coop_groups.expected).
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdint>
namespace cg = cooperative_groups;

__global__ void groups(const uint32_t *in, uint32_t *out)
{
    cg::thread_block block = cg::this_thread_block();
    uint32_t t = block.thread_rank(), v = in[blockIdx.x * blockDim.x + t];
    uint32_t *o = out + (blockIdx.x * blockDim.x + t) * 16;
    o[0] = warpSize;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    o[1] = cg::reduce(warp, v, cg::plus<uint32_t>());
    o[2] = cg::reduce(warp, v, cg::greater<uint32_t>());
    o[3] = cg::inclusive_scan(warp, v);
    o[4] = cg::exclusive_scan(warp, v, cg::bit_xor<uint32_t>());
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    o[5] = cg::reduce(tile8, v, cg::bit_or<uint32_t>()) ^ (tile8.meta_group_rank() << 24);
    o[6] = tile8.shfl_down(v, 3) + tile8.any(v & 1) * 2 + tile8.all(v > 5) * 4;
    cg::thread_group tile4 = cg::tiled_partition(block, 4); // dynamic size
    o[7] = tile4.thread_rank() | (tile4.size() << 8);
    tile4.sync();
    if (v & 1) { // a coalesced group of the odd lanes
        cg::coalesced_group odd = cg::coalesced_threads();
        o[8] = odd.thread_rank() | (odd.size() << 8);
        o[9] = cg::reduce(odd, v, cg::plus<uint32_t>());
        o[10] = odd.shfl(v, 0);
    } else {
        o[8] = o[9] = o[10] = 0xdead;
    }
    cg::coalesced_group all = cg::coalesced_threads();
    cg::coalesced_group part = cg::labeled_partition(all, (int)(v % 3));
    o[11] = part.thread_rank() | (part.size() << 8);
    o[12] = cg::reduce(part, v, cg::plus<uint32_t>());
    cg::coalesced_group bin = cg::binary_partition(all, v > 100);
    o[13] = bin.size() | (bin.thread_rank() << 8);
    o[14] = warp.match_any(v % 5) ^ (uint32_t)warp.ballot(v & 2);
#if __CUDA_ARCH__ >= 800
    o[15] = __reduce_add_sync(0xffffffffu, v) ^ __reduce_max_sync(0xffffffffu, v) ^ __reduce_and_sync(~0u, v | 1);
#else
    o[15] = 0;
#endif
}

__global__ void block_reduce(const int *in, long long *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    __shared__ int partial[32];
    int v = 0;
    for (int i = block.thread_rank(); i < n; i += block.size())
        v += in[i];
    v = cg::reduce(warp, v, cg::plus<int>());
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        int w = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
        w = cg::reduce(warp, w, cg::plus<int>());
        if (warp.thread_rank() == 0)
            *out = w;
    }
}

int main()
{
    const int threads = 128, blocks = 2, n = threads * blocks;
    uint32_t h[n];
    uint32_t s = 99;
    for (int i = 0; i < n; ++i)
        h[i] = (s = s * 1664525u + 1013904223u) >> 22;
    uint32_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h));
    CHECK(cudaMalloc(&d_out, n * 16 * 4));
    CHECK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));
    groups<<<blocks, threads>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    static uint32_t out[n * 16];
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 17) {
        std::printf("thread %3d:", i);
        for (int j = 0; j < 16; ++j)
            std::printf(" %x", out[i * 16 + j]);
        std::printf("\n");
    }
    uint64_t sum = 1469598103934665603ull;
    for (int i = 0; i < n * 16; ++i)
        sum = (sum ^ out[i]) * 1099511628211ull;
    std::printf("groups checksum %016llx\n", (unsigned long long)sum);

    const int m = 100000;
    int *d_vals;
    long long *d_res;
    static int hv[m];
    long long want = 0;
    for (int i = 0; i < m; ++i) {
        hv[i] = (i * 37) % 1001 - 500;
        want += hv[i];
    }
    CHECK(cudaMalloc(&d_vals, sizeof hv));
    CHECK(cudaMalloc(&d_res, sizeof(long long)));
    CHECK(cudaMemcpy(d_vals, hv, sizeof hv, cudaMemcpyHostToDevice));
    block_reduce<<<1, 512>>>(d_vals, d_res, m);
    CHECK(cudaGetLastError());
    long long got;
    CHECK(cudaMemcpy(&got, d_res, sizeof got, cudaMemcpyDeviceToHost));
    std::printf("block reduce of %d: %lld (host %lld)\n", m, got, want);
    CHECK(cudaDeviceSynchronize());
    std::printf("done\n");
    return 0;
}
