// Probe: thread block clusters on the H100 (issue 25, clusters of several blocks).
#include <cooperative_groups.h>
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
namespace cg = cooperative_groups;

#define SREG(name, var) asm volatile("mov.u32 %0, %%" #name ";" : "=r"(var))

struct info {
    unsigned ctarank, nctarank, cx, cy, cz, ncx, ncy, ncz, clx, cly, clz, nclx, ncly, nclz, expl;
    unsigned sa, mapa[4], rank_of_mapa[4], rank_of_sa, remote_read[4], after_write;
    long long gdelta[4];
    unsigned is_cta[4], is_cluster[4], rank_of_generic[4];
    unsigned atom, mbar_ok;
};

__device__ void fill(info *o)
{
    unsigned p;
    SREG(cluster_ctarank, o->ctarank); SREG(cluster_nctarank, o->nctarank);
    SREG(cluster_ctaid.x, o->cx); SREG(cluster_ctaid.y, o->cy); SREG(cluster_ctaid.z, o->cz);
    SREG(cluster_nctaid.x, o->ncx); SREG(cluster_nctaid.y, o->ncy); SREG(cluster_nctaid.z, o->ncz);
    SREG(clusterid.x, o->clx); SREG(clusterid.y, o->cly); SREG(clusterid.z, o->clz);
    SREG(nclusterid.x, o->nclx); SREG(nclusterid.y, o->ncly); SREG(nclusterid.z, o->nclz);
    asm volatile("{ .reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q; }" : "=r"(p));
    o->expl = p;
}

__global__ void __cluster_dims__(4, 1, 1) dsmem(info *out)
{
    __shared__ unsigned s[64];
    __shared__ unsigned long long bar;
    __shared__ unsigned counter;
    cg::cluster_group c = cg::this_cluster();
    unsigned rank = c.block_rank();
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    info *o = &out[b];
    if (threadIdx.x == 0) {
        s[0] = 100 + rank + 10 * b;
        s[1] = 0;
        counter = 0;
        fill(o);
        o->sa = (unsigned)__cvta_generic_to_shared(&s[0]);
        asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(o->rank_of_sa) : "r"(o->sa));
        if (rank == 0)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&bar)), "r"(3));
    }
    c.sync();
    if (threadIdx.x == 0) {
        for (unsigned r = 0; r < 4; ++r) {
            unsigned m, v, g;
            asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(m) : "r"(o->sa), "r"(r));
            o->mapa[r] = m;
            asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(g) : "r"(m));
            o->rank_of_mapa[r] = g;
            asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(m));
            o->remote_read[r] = v;
            unsigned *gp = c.map_shared_rank(&s[0], r);
            o->gdelta[r] = (long long)((char *)gp - (char *)&s[0]);
            unsigned q1, q2, gr;
            asm volatile("{ .reg .pred q; isspacep.shared::cta q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(q1) : "l"(gp));
            asm volatile("{ .reg .pred q; isspacep.shared::cluster q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(q2) : "l"(gp));
            asm volatile("getctarank.u64 %0, %1;" : "=r"(gr) : "l"(gp));
            o->is_cta[r] = q1;
            o->is_cluster[r] = q2;
            o->rank_of_generic[r] = gr;
        }
        // write into the next block's s[1] through a generic pointer
        unsigned *next = c.map_shared_rank(&s[1], (rank + 1) % 4);
        *next = 1000 + rank;
        atomicAdd(c.map_shared_rank(&counter, 0), 1u + rank);
        if (rank != 0) {
            unsigned long long st;
            unsigned remote = 0;
            unsigned local = (unsigned)__cvta_generic_to_shared(&bar);
            asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote) : "r"(local));
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
            (void)st;
        }
    }
    c.sync();
    if (threadIdx.x == 0) {
        o->after_write = s[1];
        o->atom = counter;
        if (rank == 0) {
            unsigned ok = 0;
            unsigned local = (unsigned)__cvta_generic_to_shared(&bar);
            asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }" : "=r"(ok) : "r"(local) : "memory");
            o->mbar_ok = ok;
        }
    }
}

__global__ void plain(info *out)
{
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0) {
        fill(&out[b]);
        __shared__ unsigned s[4];
        out[b].sa = (unsigned)__cvta_generic_to_shared(&s[0]);
        unsigned m;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(m) : "r"(out[b].sa), "r"(0));
        out[b].mapa[0] = m;
    }
    cg::this_cluster().sync();
}

__global__ void __cluster_dims__(2, 1, 1) bad_rank(unsigned *o)
{
    __shared__ unsigned s[4];
    s[0] = 1;
    unsigned m, v;
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[0]);
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(m) : "r"(sa), "r"(5));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(m));
    o[0] = m;
    o[1] = v;
}

__global__ void big_cluster(unsigned *o)
{
    unsigned r;
    SREG(cluster_nctarank, r);
    if (threadIdx.x == 0)
        o[blockIdx.x] = r;
}

static void dump(const char *what, info *h, unsigned n)
{
    for (unsigned b = 0; b < n; ++b) {
        info *o = &h[b];
        printf("%s b%u: rank %u/%u ctaid %u,%u,%u nctaid %u,%u,%u clusterid %u,%u,%u nclusterid %u,%u,%u explicit %u sa 0x%x rank_of_sa %u\n",
               what, b, o->ctarank, o->nctarank, o->cx, o->cy, o->cz, o->ncx, o->ncy, o->ncz, o->clx, o->cly, o->clz,
               o->nclx, o->ncly, o->nclz, o->expl, o->sa, o->rank_of_sa);
        if (strcmp(what, "dsmem") == 0) {
            for (unsigned r = 0; r < 4; ++r)
                printf("  r%u: mapa 0x%x rank %u read %u gdelta %lld is_cta %u is_cluster %u generic_rank %u\n", r,
                       o->mapa[r], o->rank_of_mapa[r], o->remote_read[r], o->gdelta[r], o->is_cta[r], o->is_cluster[r],
                       o->rank_of_generic[r]);
            printf("  after_write %u atom %u mbar_ok %u\n", o->after_write, o->atom, o->mbar_ok);
        } else {
            printf("  mapa0 0x%x\n", o->mapa[0]);
        }
    }
}

static const char *ename(cudaError_t e) { return cudaGetErrorName(e); }

static cudaError_t launch_cluster(void *fn, dim3 grid, dim3 block, dim3 cl, void **args, bool cluster_attr = true)
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
    cfg.numAttrs = cluster_attr ? 1 : 0;
    return cudaLaunchKernelExC(&cfg, fn, args);
}

int main(int argc, char **argv)
{
    info *d;
    cudaMalloc(&d, sizeof(info) * 64);
    info h[64];
    if (argc > 1 && strcmp(argv[1], "bad") == 0) {
        unsigned *o;
        cudaMalloc(&o, 16);
        bad_rank<<<2, 32>>>(o);
        cudaError_t e = cudaDeviceSynchronize();
        printf("bad rank: %s\n", ename(e));
        return 0;
    }
    cudaMemset(d, 0, sizeof(info) * 64);
    dsmem<<<8, 64>>>(d);
    printf("dsmem <<<8,64>>>: %s\n", ename(cudaDeviceSynchronize()));
    cudaMemcpy(h, d, sizeof(info) * 8, cudaMemcpyDeviceToHost);
    dump("dsmem", h, 8);

    // a plain kernel with cluster dims from the launch
    void *args[] = {&d};
    cudaMemset(d, 0, sizeof(info) * 64);
    printf("plain grid(4,2,2) cluster(2,1,2): %s\n", ename(launch_cluster((void *)plain, dim3(4, 2, 2), dim3(32), dim3(2, 1, 2), args)));
    printf("  sync: %s\n", ename(cudaDeviceSynchronize()));
    cudaMemcpy(h, d, sizeof(info) * 16, cudaMemcpyDeviceToHost);
    dump("plain-cl", h, 16);
    cudaMemset(d, 0, sizeof(info) * 64);
    plain<<<dim3(2, 2), 32>>>(d);
    printf("plain <<<(2,2)>>>: %s\n", ename(cudaDeviceSynchronize()));
    cudaMemcpy(h, d, sizeof(info) * 4, cudaMemcpyDeviceToHost);
    dump("plain", h, 4);
    printf("plain cluster(1,1,1): %s\n", ename(launch_cluster((void *)plain, dim3(2), dim3(32), dim3(1, 1, 1), args)));
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof(info) * 2, cudaMemcpyDeviceToHost);
    dump("plain-cl1", h, 2);

    // errors
    printf("grid 6 cluster 4: %s\n", ename(launch_cluster((void *)plain, dim3(6), dim3(32), dim3(4, 1, 1), args)));
    printf("grid 8 cluster 3: %s\n", ename(launch_cluster((void *)plain, dim3(9), dim3(32), dim3(3, 1, 1), args)));
    printf("grid 16 cluster 16: %s\n", ename(launch_cluster((void *)plain, dim3(16), dim3(32), dim3(16, 1, 1), args)));
    printf("grid 32 cluster 32: %s\n", ename(launch_cluster((void *)plain, dim3(32), dim3(32), dim3(32, 1, 1), args)));
    printf("grid 8 cluster 0: %s\n", ename(launch_cluster((void *)plain, dim3(8), dim3(32), dim3(0, 1, 1), args)));
    printf("grid 16 cluster 2,2,2: %s\n", ename(launch_cluster((void *)plain, dim3(4, 2, 2), dim3(32), dim3(2, 2, 2), args)));
    printf("  sync: %s\n", ename(cudaDeviceSynchronize()));
    printf("grid 9 cluster 9: %s\n", ename(launch_cluster((void *)plain, dim3(9), dim3(32), dim3(9, 1, 1), args)));
    printf("dsmem with cluster 2: %s\n", ename(launch_cluster((void *)dsmem, dim3(8), dim3(64), dim3(2, 1, 1), args)));
    printf("dsmem with cluster 4 attr: %s\n", ename(launch_cluster((void *)dsmem, dim3(8), dim3(64), dim3(4, 1, 1), args)));
    printf("  sync: %s\n", ename(cudaDeviceSynchronize()));
    dsmem<<<6, 64>>>(d);
    printf("dsmem <<<6>>>: %s\n", ename(cudaGetLastError()));
    printf("  sync: %s\n", ename(cudaDeviceSynchronize()));
    printf("plain 1024 threads cluster 8: %s\n", ename(launch_cluster((void *)plain, dim3(8), dim3(1024), dim3(8, 1, 1), args)));
    printf("  sync: %s\n", ename(cudaDeviceSynchronize()));
    // non-portable
    unsigned *o;
    cudaMalloc(&o, 4096);
    void *args2[] = {&o};
    printf("big cluster 16 (no attr): %s\n", ename(launch_cluster((void *)big_cluster, dim3(16), dim3(32), dim3(16, 1, 1), args2)));
    printf("set nonportable: %s\n", ename(cudaFuncSetAttribute((void *)big_cluster, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)));
    printf("big cluster 16 (attr): %s\n", ename(launch_cluster((void *)big_cluster, dim3(16), dim3(32), dim3(16, 1, 1), args2)));
    printf("  sync: %s\n", ename(cudaDeviceSynchronize()));
    unsigned ho[16] = {0};
    cudaMemcpy(ho, o, 64, cudaMemcpyDeviceToHost);
    printf("  nctarank %u %u\n", ho[0], ho[15]);
    printf("big cluster 17 (attr): %s\n", ename(launch_cluster((void *)big_cluster, dim3(17), dim3(32), dim3(17, 1, 1), args2)));
    printf("big cluster 32 (attr): %s\n", ename(launch_cluster((void *)big_cluster, dim3(32), dim3(32), dim3(32, 1, 1), args2)));
    cudaGetLastError();
    // attributes
    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, (void *)dsmem);
    printf("dsmem attrs: clusterDimMustBeSet %d requiredClusterWidth %d height %d depth %d nonPortable %d policy %d\n",
           fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.requiredClusterHeight, fa.requiredClusterDepth,
           fa.nonPortableClusterSizeAllowed, fa.clusterSchedulingPolicyPreference);
    cudaFuncGetAttributes(&fa, (void *)plain);
    printf("plain attrs: clusterDimMustBeSet %d requiredClusterWidth %d height %d depth %d nonPortable %d\n",
           fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.requiredClusterHeight, fa.requiredClusterDepth,
           fa.nonPortableClusterSizeAllowed);
    printf("set requiredClusterWidth on plain: %s\n", ename(cudaFuncSetAttribute((void *)plain, cudaFuncAttributeRequiredClusterWidth, 2)));
    cudaGetLastError();
    // occupancy
    for (unsigned cs = 1; cs <= 16; cs *= 2) {
        for (unsigned bs = 32; bs <= 1024; bs *= 4) {
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = dim3(cs * 4);
            cfg.blockDim = dim3(bs);
            cudaLaunchAttribute at[1];
            at[0].id = cudaLaunchAttributeClusterDimension;
            at[0].val.clusterDim.x = cs;
            at[0].val.clusterDim.y = 1;
            at[0].val.clusterDim.z = 1;
            cfg.attrs = at;
            cfg.numAttrs = 1;
            int n = -1;
            cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (void *)big_cluster, &cfg);
            printf("maxActiveClusters cluster %u block %u: %s %d\n", cs, bs, ename(e), n);
        }
    }
    for (unsigned bs = 32; bs <= 1024; bs *= 4) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(64);
        cfg.blockDim = dim3(bs);
        int n = -1;
        cudaError_t e = cudaOccupancyMaxPotentialClusterSize(&n, (void *)big_cluster, &cfg);
        printf("maxPotentialClusterSize block %u: %s %d\n", bs, ename(e), n);
        cfg.dynamicSmemBytes = 100 * 1024;
        e = cudaOccupancyMaxPotentialClusterSize(&n, (void *)big_cluster, &cfg);
        printf("maxPotentialClusterSize block %u smem 100K: %s %d\n", bs, ename(e), n);
    }
    int v;
    cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0);
    printf("cudaDevAttrClusterLaunch %d\n", v);
    // driver API forms
    CUfunction f;
    cudaGetFuncBySymbol(&f, (void *)dsmem);
    int a;
    cuFuncGetAttribute(&a, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f);
    printf("cu REQUIRED_CLUSTER_WIDTH dsmem %d\n", a);
    cuFuncGetAttribute(&a, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, f);
    printf("cu CLUSTER_SIZE_MUST_BE_SET dsmem %d\n", a);
    CUlaunchConfig lc = {};
    lc.gridDimX = 8; lc.gridDimY = 1; lc.gridDimZ = 1; lc.blockDimX = 64; lc.blockDimY = 1; lc.blockDimZ = 1;
    CUlaunchAttribute la[1];
    la[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    la[0].value.clusterDim.x = 2; la[0].value.clusterDim.y = 1; la[0].value.clusterDim.z = 1;
    lc.attrs = la; lc.numAttrs = 1;
    void *pa[] = {&d};
    CUresult r = cuLaunchKernelEx(&lc, f, pa, NULL);
    const char *s = 0; cuGetErrorName(r, &s);
    printf("cuLaunchKernelEx dsmem cluster 2: %s\n", s);
    // cooperative + cluster
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(8);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute at2[2];
    at2[0].id = cudaLaunchAttributeClusterDimension;
    at2[0].val.clusterDim.x = 2; at2[0].val.clusterDim.y = 1; at2[0].val.clusterDim.z = 1;
    at2[1].id = cudaLaunchAttributeCooperative;
    at2[1].val.cooperative = 1;
    cfg.attrs = at2; cfg.numAttrs = 2;
    printf("cooperative + cluster 2: %s\n", ename(cudaLaunchKernelExC(&cfg, (void *)plain, args)));
    printf("  sync: %s\n", ename(cudaDeviceSynchronize()));
    return 0;
}
