// tests/cuda/clusters.cu: thread block clusters (compute capability 9.0) as CUDA programs use
// them: __cluster_dims__ and the launch's cluster dimension, cooperative_groups' cluster group
// (block_rank, sync, map_shared_rank), distributed shared memory read and written through
// .shared::cluster addresses (mapa, ld.shared::cluster) and generic pointers, atomics on another
// block's shared memory, an mbarrier that the other blocks arrive on remotely, st.async and
// red.async completing on another block's mbarrier, the cluster
// special registers, the launch checks and the occupancy calls. nvcc only (cooperative_groups.h),
// built for compute_90 and run with the device claiming 9.0. Every line it prints is the H100's:
// shared addresses are printed as their offsets and the ranks they name, since the software
// device numbers the blocks of a .shared::cluster address from the block that uses it
// (docs/kernels.md, "Clusters"). The last case (a rank past the cluster) ends the context.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>

#include "check.h"

namespace cg = cooperative_groups;

#define SREG(name, var) asm volatile("mov.u32 %0, %%" #name ";" : "=r"(var))

struct info {
    unsigned ctarank, nctarank, cx, cy, cz, ncx, ncy, ncz, clx, cly, clz, nclx, ncly, nclz, expl;
    unsigned mapa_off[4], rank_of_mapa[4], rank_of_sa, remote_read[4], after_write;
    unsigned is_cta[4], is_cluster[4], rank_of_generic[4], same_generic[4];
    unsigned atom, mbar_ok, sum;
};

// The program is built for compute_80 too (tests/cuda's flags): there the kernels are empty.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define SM90 1
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#else
#define CLUSTER_DIMS(x, y, z)
#endif

__device__ void fill(info *o)
{
#ifdef SM90
    unsigned p;
    SREG(cluster_ctarank, o->ctarank);
    SREG(cluster_nctarank, o->nctarank);
    SREG(cluster_ctaid.x, o->cx);
    SREG(cluster_ctaid.y, o->cy);
    SREG(cluster_ctaid.z, o->cz);
    SREG(cluster_nctaid.x, o->ncx);
    SREG(cluster_nctaid.y, o->ncy);
    SREG(cluster_nctaid.z, o->ncz);
    SREG(clusterid.x, o->clx);
    SREG(clusterid.y, o->cly);
    SREG(clusterid.z, o->clz);
    SREG(nclusterid.x, o->nclx);
    SREG(nclusterid.y, o->ncly);
    SREG(nclusterid.z, o->nclz);
    asm volatile("{ .reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q; }" : "=r"(p));
    o->expl = p;
#endif
}

// Four blocks a cluster: each writes its shared memory, reads every block's, writes its
// neighbour's, adds into rank 0's counter, and ranks 1 to 3 arrive on rank 0's mbarrier.
__global__ void CLUSTER_DIMS(4, 1, 1) dsmem(info *out)
{
#ifdef SM90
    __shared__ unsigned s[64];
    __shared__ unsigned long long bar;
    __shared__ unsigned counter;
    cg::cluster_group c = cg::this_cluster();
    unsigned rank = c.block_rank();
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    info *o = &out[b];
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[0]);
    if (threadIdx.x == 0) {
        s[0] = 100 + rank + 10 * b;
        s[1] = 0;
        counter = 0;
        fill(o);
        asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(o->rank_of_sa) : "r"(sa));
        if (rank == 0)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&bar)),
                         "r"(3));
    }
    // every thread adds its rank into its own s[2 + tid % 8], through the cluster's window
    c.sync();
    if (threadIdx.x == 0) {
        for (unsigned r = 0; r < 4; ++r) {
            unsigned m, v, g;
            asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(m) : "r"(sa), "r"(r));
            o->mapa_off[r] = (m & 0xffffff) - (sa & 0xffffff); // the offset's change: none
            asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(g) : "r"(m));
            o->rank_of_mapa[r] = g;
            asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(m));
            o->remote_read[r] = v;
            unsigned *gp = c.map_shared_rank(&s[0], r);
            o->same_generic[r] = gp == &s[0];
            unsigned q1, q2, gr;
            asm volatile("{ .reg .pred q; isspacep.shared::cta q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(q1) : "l"(gp));
            asm volatile("{ .reg .pred q; isspacep.shared::cluster q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(q2) : "l"(gp));
            asm volatile("getctarank.u64 %0, %1;" : "=r"(gr) : "l"(gp));
            o->is_cta[r] = q1;
            o->is_cluster[r] = q2;
            o->rank_of_generic[r] = gr;
        }
        unsigned *next = c.map_shared_rank(&s[1], (rank + 1) % 4);
        *next = 1000 + rank;
        if (rank != 0) {
            unsigned remote = 0;
            unsigned local = (unsigned)__cvta_generic_to_shared(&bar);
            asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote) : "r"(local));
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
        }
    }
    atomicAdd(c.map_shared_rank(&counter, 0), 1u + rank);
    c.sync();
    if (threadIdx.x == 0) {
        o->after_write = s[1];
        o->atom = counter;
        o->mbar_ok = 1;
        if (rank == 0) {
            unsigned ok = 0;
            unsigned local = (unsigned)__cvta_generic_to_shared(&bar);
            asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 q, [%1], 0; "
                         "selp.u32 %0, 1, 0, q; }"
                         : "=r"(ok)
                         : "r"(local)
                         : "memory");
            o->mbar_ok = ok;
        }
    }
    // a reduction over the cluster: rank 0 sums every block's s[0] through generic pointers
    c.sync();
    if (threadIdx.x == 0 && rank == 0) {
        unsigned t = 0;
        for (unsigned r = 0; r < c.num_blocks(); ++r)
            t += *c.map_shared_rank(&s[0], r);
        o->sum = t;
    }
    c.sync(); // no block leaves while another may read its shared memory
#endif
}

__global__ void plain(info *out)
{
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0)
        fill(&out[b]);
#ifdef SM90
    cg::this_cluster().sync();
#endif
}

// st.async and red.async: each block stores into the next block's word[0] and adds into its
// word[1], both completing on the next block's mbarrier, then waits on its own.
__global__ void CLUSTER_DIMS(2, 1, 1) async_store(unsigned *out)
{
#ifdef SM90
    __shared__ unsigned word[2];
    __shared__ unsigned long long bar;
    unsigned rank, n;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    unsigned wa = (unsigned)__cvta_generic_to_shared(&word[0]);
    unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        word[0] = 1;
        word[1] = 7;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(ba));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 8;" ::"r"(ba) : "memory");
    }
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
    if (threadIdx.x == 0) {
        unsigned t = (rank + 1) % n, ra, rb;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(wa), "r"(t));
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(ba), "r"(t));
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(ra),
                     "r"(100 + rank), "r"(rb)
                     : "memory");
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" ::"r"(
                         ra + 4),
                     "r"(rank + 1), "r"(rb)
                     : "memory");
        unsigned ok = 0;
        for (int i = 0; i < 1000000 && !ok; ++i)
            asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 q, [%1], 0; "
                         "selp.u32 %0, 1, 0, q; }"
                         : "=r"(ok)
                         : "r"(ba)
                         : "memory");
        out[3 * blockIdx.x] = word[0];
        out[3 * blockIdx.x + 1] = word[1];
        out[3 * blockIdx.x + 2] = ok;
    }
    asm volatile("barrier.cluster.arrive; barrier.cluster.wait;" ::: "memory");
#endif
}

__global__ void CLUSTER_DIMS(2, 1, 1) bad_rank(unsigned *o)
{
#ifdef SM90
    __shared__ unsigned s[4];
    s[0] = 1;
    unsigned m, v;
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[0]);
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(m) : "r"(sa), "r"(5));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(m));
    o[0] = v;
#endif
}

__global__ void big_cluster(unsigned *o)
{
#ifdef SM90
    unsigned r;
    SREG(cluster_nctarank, r);
    if (threadIdx.x == 0)
        o[blockIdx.x] = r;
#endif
}

static void dump(const char *what, const info *h, unsigned n, bool full)
{
    for (unsigned b = 0; b < n; ++b) {
        const info *o = &h[b];
        std::printf("%s b%u: rank %u/%u cluster_ctaid %u,%u,%u cluster_nctaid %u,%u,%u clusterid %u,%u,%u "
                    "nclusterid %u,%u,%u explicit %u\n",
                    what, b, o->ctarank, o->nctarank, o->cx, o->cy, o->cz, o->ncx, o->ncy, o->ncz, o->clx, o->cly,
                    o->clz, o->nclx, o->ncly, o->nclz, o->expl);
        if (!full)
            continue;
        std::printf("  rank_of_sa %u after_write %u atom %u mbar_ok %u sum %u\n", o->rank_of_sa, o->after_write, o->atom,
                    o->mbar_ok, o->sum);
        for (unsigned r = 0; r < 4; ++r)
            std::printf("  r%u: mapa offset change %u names rank %u reads %u; generic: own %u is_cta %u is_cluster %u "
                        "rank %u\n",
                        r, o->mapa_off[r], o->rank_of_mapa[r], o->remote_read[r], o->same_generic[r], o->is_cta[r],
                        o->is_cluster[r], o->rank_of_generic[r]);
    }
}

static cudaError_t launch_cluster(const void *fn, dim3 grid, dim3 block, dim3 cl, void **args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cl.x;
    at[0].val.clusterDim.y = cl.y;
    at[0].val.clusterDim.z = cl.z;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cudaLaunchKernelExC(&cfg, fn, args);
}

int main()
{
    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0));
    std::printf("cudaDevAttrClusterLaunch %d\n", v);
    info *d;
    CHECK(cudaMalloc(&d, sizeof(info) * 64));
    static info h[64];
    void *args[] = {&d};

    CHECK(cudaMemset(d, 0, sizeof(info) * 64));
    dsmem<<<8, 64>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof(info) * 8, cudaMemcpyDeviceToHost));
    dump("dsmem", h, 8, true);

    CHECK(cudaMemset(d, 0, sizeof(info) * 64));
    CHECK(launch_cluster((const void *)plain, dim3(4, 2, 2), dim3(32), dim3(2, 1, 2), args));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof(info) * 16, cudaMemcpyDeviceToHost));
    dump("plain cluster(2,1,2)", h, 16, false);
    CHECK(cudaMemset(d, 0, sizeof(info) * 64));
    plain<<<dim3(2, 2), 32>>>(d);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof(info) * 4, cudaMemcpyDeviceToHost));
    dump("plain", h, 4, false);
    CHECK(cudaMemset(d, 0, sizeof(info) * 64));
    CHECK(launch_cluster((const void *)plain, dim3(2), dim3(32), dim3(1, 1, 1), args));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof(info) * 2, cudaMemcpyDeviceToHost));
    dump("plain cluster(1,1,1)", h, 2, false);

    // the launch checks
    std::printf("grid 6 cluster 4: %s\n", cudaGetErrorName(launch_cluster((const void *)plain, dim3(6), dim3(32), dim3(4, 1, 1), args)));
    std::printf("grid 9 cluster 3: %s\n", cudaGetErrorName(launch_cluster((const void *)plain, dim3(9), dim3(32), dim3(3, 1, 1), args)));
    std::printf("grid 16 cluster 16: %s\n", cudaGetErrorName(launch_cluster((const void *)plain, dim3(16), dim3(32), dim3(16, 1, 1), args)));
    std::printf("grid 8 cluster 0: %s\n", cudaGetErrorName(launch_cluster((const void *)plain, dim3(8), dim3(32), dim3(0, 1, 1), args)));
    std::printf("grid 4,2,2 cluster 2,2,2: %s\n", cudaGetErrorName(launch_cluster((const void *)plain, dim3(4, 2, 2), dim3(32), dim3(2, 2, 2), args)));
    std::printf("dsmem with cluster 2: %s\n", cudaGetErrorName(launch_cluster((const void *)dsmem, dim3(8), dim3(64), dim3(2, 1, 1), args)));
    std::printf("dsmem with cluster 4: %s\n", cudaGetErrorName(launch_cluster((const void *)dsmem, dim3(8), dim3(64), dim3(4, 1, 1), args)));
    dsmem<<<6, 64>>>(d);
    std::printf("dsmem <<<6>>>: %s\n", cudaGetErrorName(cudaGetLastError()));
    std::printf("plain 1024 threads cluster 8: %s\n", cudaGetErrorName(launch_cluster((const void *)plain, dim3(8), dim3(1024), dim3(8, 1, 1), args)));
    std::printf("  sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    unsigned *o;
    CHECK(cudaMalloc(&o, 4096));
    void *args2[] = {&o};
    std::printf("big cluster 16 (portable): %s\n", cudaGetErrorName(launch_cluster((const void *)big_cluster, dim3(16), dim3(32), dim3(16, 1, 1), args2)));
    CHECK(cudaFuncSetAttribute((const void *)big_cluster, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    std::printf("big cluster 16 (non-portable): %s\n", cudaGetErrorName(launch_cluster((const void *)big_cluster, dim3(16), dim3(32), dim3(16, 1, 1), args2)));
    CHECK(cudaDeviceSynchronize());
    unsigned ho[16] = {0};
    CHECK(cudaMemcpy(ho, o, sizeof(ho), cudaMemcpyDeviceToHost));
    std::printf("  nctarank %u %u\n", ho[0], ho[15]);
    std::printf("big cluster 17 (non-portable): %s\n", cudaGetErrorName(launch_cluster((const void *)big_cluster, dim3(17), dim3(32), dim3(17, 1, 1), args2)));

    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, (const void *)dsmem));
    std::printf("dsmem attributes: clusterDimMustBeSet %d requiredCluster %d,%d,%d nonPortable %d\n",
                fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.requiredClusterHeight, fa.requiredClusterDepth,
                fa.nonPortableClusterSizeAllowed);
    CHECK(cudaFuncGetAttributes(&fa, (const void *)plain));
    std::printf("plain attributes: clusterDimMustBeSet %d requiredCluster %d,%d,%d nonPortable %d\n",
                fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.requiredClusterHeight, fa.requiredClusterDepth,
                fa.nonPortableClusterSizeAllowed);

    // occupancy: the size answers are the same on any device; the counts only positive
    for (unsigned cs = 1; cs <= 16; cs *= 2) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(cs * 4);
        cfg.blockDim = dim3(128);
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeClusterDimension;
        at[0].val.clusterDim.x = cs;
        at[0].val.clusterDim.y = 1;
        at[0].val.clusterDim.z = 1;
        cfg.attrs = at;
        cfg.numAttrs = 1;
        int n = -1;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (const void *)big_cluster, &cfg);
        std::printf("maxActiveClusters cluster %u: %s %s\n", cs, cudaGetErrorName(e), n > 0 ? "positive" : "not positive");
    }
    for (unsigned bs = 32; bs <= 1024; bs *= 4) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(64);
        cfg.blockDim = dim3(bs);
        int n = -1;
        cudaError_t e = cudaOccupancyMaxPotentialClusterSize(&n, (const void *)big_cluster, &cfg);
        std::printf("maxPotentialClusterSize block %u: %s %d\n", bs, cudaGetErrorName(e), n);
        cfg.dynamicSmemBytes = 100 * 1024;
        e = cudaOccupancyMaxPotentialClusterSize(&n, (const void *)big_cluster, &cfg);
        std::printf("maxPotentialClusterSize block %u smem 100K: %s %d\n", bs, cudaGetErrorName(e), n);
        cfg.dynamicSmemBytes = 0;
        e = cudaOccupancyMaxPotentialClusterSize(&n, (const void *)plain, &cfg);
        std::printf("maxPotentialClusterSize plain block %u: %s %d\n", bs, cudaGetErrorName(e), n);
    }

    // cooperative and clustered at once
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(8);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute at2[2];
    at2[0].id = cudaLaunchAttributeClusterDimension;
    at2[0].val.clusterDim.x = 2;
    at2[0].val.clusterDim.y = 1;
    at2[0].val.clusterDim.z = 1;
    at2[1].id = cudaLaunchAttributeCooperative;
    at2[1].val.cooperative = 1;
    cfg.attrs = at2;
    cfg.numAttrs = 2;
    CHECK(cudaMemset(d, 0, sizeof(info) * 64));
    std::printf("cooperative + cluster 2: %s\n", cudaGetErrorName(cudaLaunchKernelExC(&cfg, (const void *)plain, args)));
    std::printf("  sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    CHECK(cudaMemcpy(h, d, sizeof(info) * 8, cudaMemcpyDeviceToHost));
    dump("cooperative cluster(2)", h, 8, false);

    // st.async and red.async across a cluster of 2, four clusters
    (void)cudaGetLastError(); // the launch errors above
    CHECK(cudaMemset(o, 0, 4096));
    async_store<<<8, 32>>>(o);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unsigned ha[24] = {0};
    CHECK(cudaMemcpy(ha, o, sizeof(ha), cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < 8; ++b)
        std::printf("async_store b%u: word0 %u word1 %u mbarrier %u\n", b, ha[3 * b], ha[3 * b + 1], ha[3 * b + 2]);

    // last: a .shared::cluster address of a rank past the cluster ends the context
    bad_rank<<<2, 32>>>(o);
    std::printf("bad rank: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
