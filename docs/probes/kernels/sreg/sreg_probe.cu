// Probe of PTX's special registers on the GPU (issue 25, isa part): what each reads in a few
// launch shapes, %globaltimer's resolution and %clock64's rate against it, %gridid across
// launches, %current_graph_exec in and out of a graph, and the cluster registers with and
// without an explicit cluster of 1. Built with: nvcc -arch=sm_90 -std=c++17 -o sreg_probe sreg_probe.cu
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define R32(name) ({ uint32_t v_; asm volatile("mov.u32 %0, %%" name ";" : "=r"(v_)); v_; })
#define R64(name) ({ uint64_t v_; asm volatile("mov.u64 %0, %%" name ";" : "=l"(v_)); v_; })

enum { NV = 64 };
__global__ void sregs(uint64_t *out)
{
    extern __shared__ uint32_t dyn[];
    uint32_t t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    uint32_t b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    uint64_t *o = out + ((uint64_t)b * blockDim.x * blockDim.y * blockDim.z + t) * NV;
    uint32_t ws;
    asm volatile("mov.u32 %0, WARP_SZ;" : "=r"(ws));
    o[0] = ws;
    o[1] = R32("laneid");
    o[2] = R32("warpid");
    o[3] = R32("nwarpid");
    o[4] = R32("smid");
    o[5] = R32("nsmid");
    o[6] = R64("gridid");
    o[7] = R32("lanemask_eq");
    o[8] = R32("lanemask_le");
    o[9] = R32("lanemask_lt");
    o[10] = R32("lanemask_ge");
    o[11] = R32("lanemask_gt");
    o[12] = R32("dynamic_smem_size");
    o[13] = R32("total_smem_size");
    o[14] = R32("aggr_smem_size");
    o[15] = R32("reserved_smem_offset_begin");
    o[16] = R32("reserved_smem_offset_end");
    o[17] = R32("reserved_smem_offset_cap");
    o[18] = R32("reserved_smem_offset_0");
    o[19] = R32("reserved_smem_offset_1");
    o[20] = R32("clusterid.x");
    o[21] = R32("clusterid.y");
    o[22] = R32("clusterid.z");
    o[23] = R32("nclusterid.x");
    o[24] = R32("nclusterid.y");
    o[25] = R32("nclusterid.z");
    o[26] = R32("cluster_ctaid.x");
    o[27] = R32("cluster_ctaid.y");
    o[28] = R32("cluster_ctaid.z");
    o[29] = R32("cluster_nctaid.x");
    o[30] = R32("cluster_nctaid.y");
    o[31] = R32("cluster_nctaid.z");
    o[32] = R32("cluster_ctarank");
    o[33] = R32("cluster_nctarank");
    uint32_t p;
    asm volatile("{ .reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q; }" : "=r"(p));
    o[34] = p;
    o[35] = R32("pm0");
    o[36] = R32("pm1");
    o[37] = R32("pm2");
    o[38] = R32("pm3");
    o[39] = R32("pm4");
    o[40] = R32("pm5");
    o[41] = R32("pm6");
    o[42] = R32("pm7");
    o[43] = R64("pm0_64");
    o[44] = R64("pm7_64");
    o[45] = R64("current_graph_exec");
    o[46] = R32("clock_hi");
    o[47] = R64("clock64");
    o[48] = R32("clock");
    o[49] = R64("globaltimer");
    o[50] = R32("globaltimer_lo");
    o[51] = R32("globaltimer_hi");
    o[52] = R32("tid.x") | R32("tid.y") << 10 | R32("tid.z") << 20;
    o[53] = R32("ctaid.x") | R32("ctaid.y") << 10 | R32("ctaid.z") << 20;
    o[54] = R32("ntid.x") | R32("ntid.y") << 10 | R32("ntid.z") << 20;
    o[55] = R32("nctaid.x") | R32("nctaid.y") << 10 | R32("nctaid.z") << 20;
    // shared addresses: where the static and dynamic windows start
    __shared__ uint32_t stat[STATIC_WORDS];
    stat[t % STATIC_WORDS] = t;
    if (o[12] >= 4)
        dyn[0] = 0; // only where there is dynamic shared memory
    o[56] = (uint32_t)__cvta_generic_to_shared(stat);
    o[57] = (uint32_t)__cvta_generic_to_shared(dyn);
    o[58] = stat[0];
}

__global__ void timer(uint64_t *out)
{
    // %globaltimer's steps: the smallest and largest non-zero change over many reads, and how
    // many changes; %clock64 and %globaltimer across a spin, for the clock's rate.
    uint64_t g0 = R64("globaltimer"), c0 = R64("clock64"), prev = g0, minstep = ~0ull, maxstep = 0, changes = 0;
    for (int i = 0; i < 200000; ++i) {
        uint64_t g = R64("globaltimer");
        if (g != prev) {
            uint64_t d = g - prev;
            minstep = d < minstep ? d : minstep;
            maxstep = d > maxstep ? d : maxstep;
            changes++;
            prev = g;
        }
    }
    uint64_t g1 = R64("globaltimer"), c1 = R64("clock64");
    out[0] = g1 - g0;
    out[1] = c1 - c0;
    out[2] = minstep;
    out[3] = maxstep;
    out[4] = changes;
    out[5] = g0 % 1000;
    out[6] = g0;
}

static void dump(const char *what, uint64_t *d, int threads, int blocks, const int *show, int nshow)
{
    static uint64_t h[4096 * NV];
    cudaMemcpy(h, d, (size_t)threads * blocks * NV * 8, cudaMemcpyDeviceToHost);
    for (int s = 0; s < nshow; ++s) {
        int i = show[s];
        if (i >= threads * blocks)
            continue;
        printf("%s t%d:", what, i);
        for (int j = 0; j < 59; ++j)
            printf(" %d=%llx", j, (unsigned long long)h[(size_t)i * NV + j]);
        printf("\n");
    }
    // smid range and distinct warpids over all threads
    uint64_t smin = ~0ull, smax = 0, wmax = 0;
    for (int i = 0; i < threads * blocks; ++i) {
        uint64_t s = h[(size_t)i * NV + 4], w = h[(size_t)i * NV + 2];
        smin = s < smin ? s : smin;
        smax = s > smax ? s : smax;
        wmax = w > wmax ? w : wmax;
    }
    printf("%s smid %llu..%llu warpid max %llu\n", what, (unsigned long long)smin, (unsigned long long)smax,
           (unsigned long long)wmax);
}

int main()
{
    uint64_t *d;
    cudaMalloc(&d, 4096ull * NV * 8);
    int dev;
    cudaGetDevice(&dev);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, dev);
    printf("device %s sms %d clock %d kHz reservedSharedMemPerBlock %zu sharedMemPerBlock %zu\n", prop.name,
           prop.multiProcessorCount, 0, prop.reservedSharedMemPerBlock, prop.sharedMemPerBlock);
    const int show[] = {0, 1, 31, 32, 33, 95, 96, 200, 1023, 1500};
    sregs<<<3, 96>>>(d);
    printf("launch A err %d\n", (int)cudaDeviceSynchronize());
    dump("A(3x96,dyn0)", d, 96, 3, show, 10);
    sregs<<<2, 64, 1000>>>(d);
    printf("launch B err %d\n", (int)cudaDeviceSynchronize());
    dump("B(2x64,dyn1000)", d, 64, 2, show, 10);
    cudaFuncSetAttribute(sregs, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
    sregs<<<dim3(2, 1, 1), dim3(8, 4, 2), 50000>>>(d);
    printf("launch C err %d\n", (int)cudaDeviceSynchronize());
    dump("C(2x(8,4,2),dyn50000)", d, 64, 2, show, 4);
    sregs<<<1, 1024, 4>>>(d);
    printf("launch D err %d\n", (int)cudaDeviceSynchronize());
    dump("D(1x1024,dyn4)", d, 1024, 1, show, 10);
    // an explicit cluster of 1, then of 2 (sm_90)
    for (int cx = 1; cx <= 2; ++cx) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(4, 1, 1);
        cfg.blockDim = dim3(32, 1, 1);
        cfg.dynamicSmemBytes = 16;
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeClusterDimension;
        at[0].val.clusterDim.x = cx;
        at[0].val.clusterDim.y = 1;
        at[0].val.clusterDim.z = 1;
        cfg.attrs = at;
        cfg.numAttrs = 1;
        cudaError_t e = cudaLaunchKernelEx(&cfg, sregs, d);
        printf("launch cluster%d err %d %d\n", cx, (int)e, (int)cudaDeviceSynchronize());
        const int s2[] = {0, 32, 64, 96};
        dump(cx == 1 ? "E(cluster1)" : "F(cluster2)", d, 32, 4, s2, 4);
    }
    // a graph launch: %current_graph_exec
    cudaStream_t st;
    cudaStreamCreate(&st);
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal);
    sregs<<<1, 32, 0, st>>>(d);
    cudaStreamEndCapture(st, &g);
    cudaGraphInstantiate(&ge, g, 0);
    cudaGraphLaunch(ge, st);
    printf("graph err %d graphExec %p\n", (int)cudaStreamSynchronize(st), (void *)ge);
    const int s1[] = {0};
    dump("G(graph)", d, 32, 1, s1, 1);
    // %gridid across launches
    for (int i = 0; i < 3; ++i) {
        sregs<<<1, 32>>>(d);
        cudaDeviceSynchronize();
        uint64_t h[NV];
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("gridid launch %d: %llu\n", i, (unsigned long long)h[6]);
    }
    for (int i = 0; i < 2; ++i) {
        timer<<<1, 1>>>(d);
        cudaDeviceSynchronize();
        uint64_t h[8];
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("timer: globaltimer delta %llu ns clock64 delta %llu (%.1f MHz) minstep %llu maxstep %llu changes %llu "
               "g0%%1000 %llu g0 %llu\n",
               (unsigned long long)h[0], (unsigned long long)h[1], h[0] ? (double)h[1] * 1000.0 / h[0] : 0.0,
               (unsigned long long)h[2], (unsigned long long)h[3], (unsigned long long)h[4], (unsigned long long)h[5],
               (unsigned long long)h[6]);
    }
    return 0;
}
