// Probe: st.async / red.async on the H100: in a launch without clusters, to the own block and to
// another block of a cluster, and what the mbarrier sees.
#include <cstdio>
#include <cstdlib>
#include <cstring>
__global__ void k(unsigned *out, int target_other, int red)
{
    __shared__ unsigned word[4];
    __shared__ unsigned long long bar;
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    unsigned n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    unsigned wa = (unsigned)__cvta_generic_to_shared(&word[0]);
    unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        word[0] = 7;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(ba));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4;" ::"r"(ba) : "memory");
    }
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
    if (threadIdx.x == 0) {
        unsigned t = target_other ? (rank + 1) % n : rank;
        unsigned ra, rb;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(wa), "r"(t));
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(ba), "r"(t));
        if (red)
            asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" ::"r"(ra), "r"(100 + rank), "r"(rb) : "memory");
        else
            asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(ra), "r"(100 + rank), "r"(rb) : "memory");
        unsigned ok = 0;
        for (int i = 0; i < 1000000 && !ok; ++i)
            asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }" : "=r"(ok) : "r"(ba) : "memory");
        out[blockIdx.x * 2] = word[0];
        out[blockIdx.x * 2 + 1] = ok;
    }
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
}
int main(int argc, char **argv)
{
    int cluster = atoi(argv[1]), other = atoi(argv[2]), red = atoi(argv[3]);
    unsigned *d;
    cudaMalloc(&d, 64);
    cudaMemset(d, 0, 64);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(2);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cluster;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = cluster ? 1 : 0;
    void *args[] = {&d, &other, &red};
    cudaError_t e = cudaLaunchKernelExC(&cfg, (const void *)k, args);
    cudaError_t s = cudaDeviceSynchronize();
    unsigned h[4] = {0};
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
    printf("cluster %d other %d red %d: launch %s sync %s; block0 word %u ok %u; block1 word %u ok %u\n", cluster, other, red,
           cudaGetErrorName(e), cudaGetErrorName(s), h[0], h[1], h[2], h[3]);
    return 0;
}
