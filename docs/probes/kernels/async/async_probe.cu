// What the H100 does with bad asynchronous copies and mbarriers (issue 25), and what the opaque
// mbarrier state holds. One case per process (a fault is sticky): ./async_probe <case>.
// Built with: nvcc -arch=sm_90 -o async_probe async_probe.cu -lcuda
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

typedef unsigned long long ull;
#define AD static __device__ __forceinline__
AD unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__global__ void k_cp_misaligned_src(const int *g, int *out)
{
    __shared__ alignas(16) int s[64];
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&s[threadIdx.x])), "l"((const char *)g + 2) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_cp_misaligned_dst(const int *g, int *out)
{
    __shared__ alignas(16) int s[64];
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem(&s[2])), "l"(g) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_cp_null_srcsize0(const int *g, int *out)
{
    __shared__ alignas(16) int s[64];
    s[threadIdx.x] = 77;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem(&s[threadIdx.x])), "l"((const int *)0), "r"(0) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_cp_srcsize_big(const int *g, int *out, unsigned big)
{
    __shared__ alignas(16) int s[64];
    s[threadIdx.x] = 77;
    if (threadIdx.x == 0)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(smem(&s[0])), "l"(g), "r"(big) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_cp4_srcsize(const int *g, int *out, unsigned big)
{
    __shared__ alignas(16) int s[64];
    s[threadIdx.x] = 77;
    __syncthreads();
    if (threadIdx.x == 0)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem(&s[0])), "l"(g), "r"(big) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_cp16_srcsize(const int *g, int *out, unsigned big)
{
    __shared__ alignas(16) int s[64];
    s[threadIdx.x] = 77;
    __syncthreads();
    if (threadIdx.x == 0)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(&s[0])), "l"(g), "r"(big) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_bulk_sizes(const int *g, int *out, unsigned size, unsigned expect)
{
    __shared__ alignas(128) int s[256];
    __shared__ alignas(8) ull b;
    s[threadIdx.x] = 0x77777777;
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&b)) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&b)), "r"(expect) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(smem(s)), "l"(g), "r"(size), "r"(smem(&b)) : "memory");
        unsigned ok = 0;
        for (int i = 0; i < 2000 && !ok; ++i)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(ok) : "r"(smem(&b)) : "memory");
        out[0] = ok;
        for (int i = 0; i < 10; ++i)
            out[1 + i] = s[i];
    }
}
__global__ void k_cp_bad_global(const int *g, int *out)
{
    __shared__ alignas(16) int s[64];
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&s[threadIdx.x])), "l"((const int *)16) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_mb_init_global(const int *g, int *out)
{
    asm volatile("mbarrier.init.b64 [%0], %1;" ::"l"(out), "r"(1) : "memory");
    out[1] = 5;
}
__global__ void k_mb_arrive_global(const int *g, int *out)
{
    ull st;
    asm volatile("mbarrier.arrive.b64 %0, [%1];" : "=l"(st) : "l"(out) : "memory");
    out[2] = (int)st;
}
__global__ void k_mb_shared_oob(const int *g, int *out)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(0x100000u), "r"(1) : "memory");
    out[1] = 5;
}
__global__ void k_mb_misaligned(const int *g, int *out)
{
    __shared__ alignas(16) ull b[2];
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(&b[0]) + 4), "r"(1) : "memory");
    out[1] = 5;
}
__global__ void k_bulk_size(const int *g, int *out, unsigned size)
{
    __shared__ alignas(128) int s[256];
    __shared__ alignas(8) ull b;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&b)) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&b)), "r"(size) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(smem(s)), "l"(g), "r"(size), "r"(smem(&b)) : "memory");
        unsigned ok = 0;
        for (int i = 0; i < 2000 && !ok; ++i)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(ok) : "r"(smem(&b)) : "memory");
        out[0] = ok;
        out[1] = s[0];
    }
}
__global__ void k_bulk_misaligned(const int *g, int *out)
{
    __shared__ alignas(128) int s[256];
    __shared__ alignas(8) ull b;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&b)) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16;" ::"r"(smem(&b)) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];"
                     ::"r"(smem(s)), "l"((const char *)g + 4), "r"(smem(&b)) : "memory");
        unsigned ok = 0;
        for (int i = 0; i < 2000 && !ok; ++i)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                         : "=r"(ok) : "r"(smem(&b)) : "memory");
        out[0] = ok;
        out[1] = s[0];
    }
}
// The raw words: an mbarrier after init(5), the state of arrivals, pending counts.
__global__ void k_mb_state(const int *g, ull *out)
{
    __shared__ alignas(8) ull b;
    unsigned a = smem(&b);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], 5;" ::"r"(a) : "memory");
        out[0] = b;
        ull s1, s2, s3;
        unsigned c1, c2, c3;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s1) : "r"(a) : "memory");
        out[1] = b;
        out[2] = s1;
        asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 2;" : "=l"(s2) : "r"(a) : "memory");
        out[3] = b;
        out[4] = s2;
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c1) : "l"(s1));
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c2) : "l"(s2));
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 48;" ::"r"(a) : "memory");
        out[5] = b;
        asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(s3) : "r"(a) : "memory");
        out[6] = b;
        out[7] = s3;
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c3) : "l"(s3));
        out[8] = c1 | (ull)c2 << 32;
        out[9] = c3;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s3) : "r"(a) : "memory");
        out[10] = b; // pending 0, tx 48: not complete
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 48;" ::"r"(a) : "memory");
        out[11] = b; // the next phase, expected 4
        unsigned p0, p1;
        asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(p0) : "r"(a), "l"(s1) : "memory");
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }" : "=r"(p1) : "r"(a) : "memory");
        out[12] = p0 | (ull)p1 << 32;
        asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(a) : "memory");
        out[13] = b;
    }
}

static const char *const load_ptx[] = {
    // cp-size 2
    ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p){\n.reg .b64 %rd<2>;\n.shared .align 16 .b8 s[64];\n"
    "ld.param.u64 %rd1, [p];\ncp.async.ca.shared.global [s], [%rd1], 2;\nret;\n}\n",
    // .cg with 8
    ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p){\n.reg .b64 %rd<2>;\n.shared .align 16 .b8 s[64];\n"
    "ld.param.u64 %rd1, [p];\ncp.async.cg.shared.global [s], [%rd1], 8;\nret;\n}\n",
    // src-size 20 > cp-size 16 (an immediate)
    ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p){\n.reg .b64 %rd<2>;\n.shared .align 16 .b8 s[64];\n"
    "ld.param.u64 %rd1, [p];\ncp.async.ca.shared.global [s], [%rd1], 16, 20;\nret;\n}\n",
    // mbarrier.init.b32
    ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p){\n.shared .align 8 .b8 s[64];\n"
    "mbarrier.init.shared.b32 [s], 1;\nret;\n}\n",
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: async_probe case\n");
        return 2;
    }
    const char *c = argv[1];
    int *g, *out;
    cudaMalloc(&g, 4096);
    cudaMalloc(&out, 4096);
    cudaMemset(g, 0x11, 4096);
    cudaMemset(out, 0, 4096);
    if (!strncmp(c, "load", 4)) {
        int i = atoi(c + 4);
        cuInit(0);
        CUmodule m;
        char log[1024] = {0};
        CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void *v[] = {log, (void *)(size_t)sizeof(log)};
        CUresult r = cuModuleLoadDataEx(&m, load_ptx[i], 2, o, v);
        const char *name = "?";
        cuGetErrorName(r, &name);
        printf("%s: cuModuleLoadDataEx: %s; log: %s\n", c, name, log);
        return 0;
    }
    if (!strcmp(c, "cp_misaligned_src")) k_cp_misaligned_src<<<1, 32>>>(g, out);
    else if (!strcmp(c, "cp_misaligned_dst")) k_cp_misaligned_dst<<<1, 32>>>(g, out);
    else if (!strcmp(c, "cp_null_srcsize0")) k_cp_null_srcsize0<<<1, 32>>>(g, out);
    else if (!strcmp(c, "cp_srcsize_big")) k_cp_srcsize_big<<<1, 32>>>(g, out, 20);
    else if (!strcmp(c, "cp8_ss12")) k_cp_srcsize_big<<<1, 32>>>(g, out, 12);
    else if (!strcmp(c, "cp4_ss6")) k_cp4_srcsize<<<1, 32>>>(g, out, 6);
    else if (!strcmp(c, "cp4_ss5")) k_cp4_srcsize<<<1, 32>>>(g, out, 5);
    else if (!strcmp(c, "cp16_ss17")) k_cp16_srcsize<<<1, 32>>>(g, out, 17);
    else if (!strcmp(c, "cp16_ss40")) k_cp16_srcsize<<<1, 32>>>(g, out, 40);
    else if (!strcmp(c, "bulk24_expect16")) k_bulk_sizes<<<1, 32>>>(g, out, 24, 16);
    else if (!strcmp(c, "bulk24_expect24")) k_bulk_sizes<<<1, 32>>>(g, out, 24, 24);
    else if (!strcmp(c, "bulk8_expect0")) k_bulk_sizes<<<1, 32>>>(g, out, 8, 0);
    else if (!strcmp(c, "bulk40_expect32")) k_bulk_sizes<<<1, 32>>>(g, out, 40, 32);
    else if (!strcmp(c, "cp_bad_global")) k_cp_bad_global<<<1, 32>>>(g, out);
    else if (!strcmp(c, "mb_init_global")) k_mb_init_global<<<1, 1>>>(g, out);
    else if (!strcmp(c, "mb_arrive_global")) k_mb_arrive_global<<<1, 1>>>(g, out);
    else if (!strcmp(c, "mb_shared_oob")) k_mb_shared_oob<<<1, 1>>>(g, out);
    else if (!strcmp(c, "mb_misaligned")) k_mb_misaligned<<<1, 1>>>(g, out);
    else if (!strcmp(c, "bulk_size8")) k_bulk_size<<<1, 32>>>(g, out, 8);
    else if (!strcmp(c, "bulk_size24")) k_bulk_size<<<1, 32>>>(g, out, 24);
    else if (!strcmp(c, "bulk_misaligned")) k_bulk_misaligned<<<1, 32>>>(g, out);
    else if (!strcmp(c, "mb_state")) k_mb_state<<<1, 32>>>(g, (ull *)out);
    else {
        fprintf(stderr, "unknown case %s\n", c);
        return 2;
    }
    cudaError_t e1 = cudaGetLastError();
    cudaError_t e2 = cudaDeviceSynchronize();
    printf("%s: launch %s, synchronize %s", c, cudaGetErrorName(e1), cudaGetErrorName(e2));
    if (e2 == cudaSuccess) {
        unsigned h[32];
        cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
        printf(", out:");
        int n = !strcmp(c, "mb_state") ? 28 : !strncmp(c, "bulk", 4) ? 11 : 8;
        for (int i = 0; i < n; ++i)
            printf(" %08x", h[i]);
    }
    printf("\n");
    return 0;
}
