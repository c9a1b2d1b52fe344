// tests/cuda/cooperative.cu: cooperative launches and grid-wide synchronisation as CUDA programs
// write them (cooperative_groups' this_grid().sync(), which reads the grid's workspace from
// %envreg1/%envreg2 and meets on it with atomics). nvcc only: it includes CUDA's
// cooperative_groups.h. Every line it prints is the same on any device: the grids are sized
// from the occupancy the device reports, the sums do not depend on the grid's size.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

#include "check.h"

namespace cg = cooperative_groups;

#define THREADS 256

// Each round: every thread sums a grid-stride part of in[] (times the round), the block adds its
// threads' sums into partial[block]; after a grid sync thread 0 of the grid adds the partials
// into out[round]; after another grid sync every thread checks that it sees out[round]
// (mismatches counted in out[rounds]). Without a working grid barrier the sums come out wrong.
__global__ void phases(const unsigned *in, unsigned n, unsigned *partial, unsigned *out, unsigned rounds)
{
    cg::grid_group g = cg::this_grid();
    __shared__ unsigned s[THREADS];
    for (unsigned r = 0; r < rounds; ++r) {
        unsigned acc = 0;
        for (unsigned long long i = g.thread_rank(); i < n; i += g.size())
            acc += in[i] * (r + 1);
        s[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned w = THREADS / 2; w; w /= 2) {
            if (threadIdx.x < w)
                s[threadIdx.x] += s[threadIdx.x + w];
            __syncthreads();
        }
        if (threadIdx.x == 0)
            partial[blockIdx.x] = s[0];
        g.sync();
        if (g.thread_rank() == 0) {
            unsigned t = 0;
            for (unsigned b = 0; b < gridDim.x; ++b)
                t += partial[b];
            out[r] = t;
        }
        g.sync();
        if (((volatile unsigned *)out)[r] != out[r] || out[r] == 0)
            atomicAdd(&out[rounds], 1);
    }
}

// The grid group's view of itself: each thread's rank once, the grid's size and validity.
__global__ void ranks(unsigned *seen, unsigned *info)
{
    cg::grid_group g = cg::this_grid();
    atomicAdd(&seen[g.thread_rank()], 1);
    if (g.thread_rank() == 0) {
        info[0] = g.is_valid();
        info[1] = (unsigned)g.size() == gridDim.x * blockDim.x;
        info[2] = (unsigned)g.num_blocks() == gridDim.x;
    }
    g.sync();
    if (g.thread_rank() == 0)
        info[3] = 1;
}

// is_valid() in a launch that is not cooperative (no grid.sync: that would trap).
__global__ void validity(unsigned *info) { info[0] = cg::this_grid().is_valid(); }

static unsigned expected_round(const std::vector<unsigned> &in, unsigned r)
{
    unsigned t = 0;
    for (unsigned v : in)
        t += v * (r + 1);
    return t;
}

int main()
{
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, THREADS, 0));
    std::printf("cooperative launch attribute: %d\n", coop);
    REQUIRE(per_sm > 0 && sms > 0);
    unsigned grid = (unsigned)(per_sm * sms);

    const unsigned n = 1u << 20, rounds = 4;
    std::vector<unsigned> h(n);
    for (unsigned i = 0; i < n; ++i)
        h[i] = (i * 2654435761u) >> 24;
    unsigned *in, *partial, *out;
    CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&partial, grid * sizeof(unsigned)));
    CHECK(cudaMalloc(&out, (rounds + 1) * sizeof(unsigned)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

    // The largest grid the device allows, through cudaLaunchCooperativeKernel.
    unsigned nn = n, rr = rounds;
    void *args[] = {&in, &nn, &partial, &out, &rr};
    CHECK(cudaMemset(out, 0, (rounds + 1) * sizeof(unsigned)));
    CHECK(cudaLaunchCooperativeKernel((void *)phases, dim3(grid), dim3(THREADS), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    unsigned res[rounds + 1];
    CHECK(cudaMemcpy(res, out, sizeof(res), cudaMemcpyDeviceToHost));
    for (unsigned r = 0; r < rounds; ++r)
        std::printf("largest grid, round %u: %u (%s)\n", r, res[r], res[r] == expected_round(h, r) ? "right" : "WRONG");
    std::printf("largest grid, threads that saw a stale sum: %u\n", res[rounds]);

    // One block more than the device holds at once.
    EXPECT_ERR(cudaErrorCooperativeLaunchTooLarge,
               cudaLaunchCooperativeKernel((void *)phases, dim3(grid + 1), dim3(THREADS), args, 0, 0));
    std::printf("grid of one block more than resident: cudaErrorCooperativeLaunchTooLarge\n");

    // A small grid through cudaLaunchKernelExC and the cooperative attribute.
    CHECK(cudaMemset(out, 0, (rounds + 1) * sizeof(unsigned)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid < 3 ? grid : 3); // at most what the device holds at once
    cfg.blockDim = dim3(THREADS);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelExC(&cfg, (const void *)phases, args));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(res, out, sizeof(res), cudaMemcpyDeviceToHost));
    for (unsigned r = 0; r < rounds; ++r)
        std::printf("attribute launch, round %u: %s\n", r, res[r] == expected_round(h, r) ? "right" : "WRONG");
    std::printf("attribute launch, stale: %u\n", res[rounds]);

    // Ranks and the group's size.
    unsigned total = grid * THREADS, *seen, *info;
    CHECK(cudaMalloc(&seen, total * sizeof(unsigned)));
    CHECK(cudaMalloc(&info, 4 * sizeof(unsigned)));
    CHECK(cudaMemset(seen, 0, total * sizeof(unsigned)));
    CHECK(cudaMemset(info, 0, 4 * sizeof(unsigned)));
    void *rargs[] = {&seen, &info};
    CHECK(cudaLaunchCooperativeKernel((void *)ranks, dim3(grid), dim3(THREADS), rargs, 0, 0));
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> hs(total);
    unsigned hi[4];
    CHECK(cudaMemcpy(hs.data(), seen, total * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hi, info, sizeof(hi), cudaMemcpyDeviceToHost));
    unsigned once = 0;
    for (unsigned v : hs)
        once += v == 1;
    std::printf("ranks seen once: %s; is_valid %u, size %u, num_blocks %u, after sync %u\n",
                once == total ? "all" : "NOT ALL", hi[0], hi[1], hi[2], hi[3]);

    // A launch that is not cooperative has no grid workspace.
    CHECK(cudaMemset(info, 0xff, 4 * sizeof(unsigned)));
    validity<<<1, 32>>>(info);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hi, info, sizeof(hi), cudaMemcpyDeviceToHost));
    std::printf("is_valid in a launch that is not cooperative: %u\n", hi[0]);

    // Captured into a graph: the node keeps the cooperative attribute, and the graph runs it.
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemset(out, 0, (rounds + 1) * sizeof(unsigned)));
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaLaunchCooperativeKernel((void *)phases, dim3(grid), dim3(THREADS), args, 0, s));
    CHECK(cudaStreamEndCapture(s, &graph));
    size_t count = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &count));
    cudaGraphNode_t node;
    count = 1;
    CHECK(cudaGraphGetNodes(graph, &node, &count));
    cudaLaunchAttributeValue v = {};
    CHECK(cudaGraphKernelNodeGetAttribute(node, cudaLaunchAttributeCooperative, &v));
    std::printf("captured node: cooperative %d\n", v.cooperative);
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(res, out, sizeof(res), cudaMemcpyDeviceToHost));
    for (unsigned r = 0; r < rounds; ++r)
        std::printf("graph launch, round %u: %s\n", r, res[r] == expected_round(h, r) ? "right" : "WRONG");
    std::printf("graph launch, stale: %u\n", res[rounds]);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));

    CHECK(cudaFree(in));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(out));
    CHECK(cudaFree(seen));
    CHECK(cudaFree(info));
    std::printf("done\n");
    return 0;
}
