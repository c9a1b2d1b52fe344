// Probe (H100, driver 580): what cooperative launches answer. nvcc -std=c++17 -arch=sm_90 coop_probe.cu -lcuda
#include <cooperative_groups.h>
#include <cuda.h>
#include <cstdio>
namespace cg = cooperative_groups;
#define P(call) do { CUresult r_ = (call); const char *n_ = 0; cuGetErrorName(r_, &n_); printf("%-70s -> %d %s\n", #call, (int)r_, n_ ? n_ : "?"); } while (0)
#define PR(call) do { cudaError_t r_ = (call); printf("%-70s -> %d %s\n", #call, (int)r_, cudaGetErrorName(r_)); cudaGetLastError(); } while (0)

__device__ unsigned envregs[2][32];
template <int I> __device__ void rd(unsigned *o) { unsigned v; asm volatile("mov.u32 %0, %%envreg" "%c1" ";" : "=r"(v) : "n"(I)); o[I] = v; }
__global__ void env(int slot) {
    if (threadIdx.x || blockIdx.x) return;
    unsigned *o = envregs[slot];
#define R(i) { unsigned v; asm volatile("mov.u32 %0, %%envreg" #i ";" : "=r"(v)); o[i] = v; }
    R(0) R(1) R(2) R(3) R(4) R(5) R(6) R(7) R(8) R(9) R(10) R(11) R(12) R(13) R(14) R(15)
    R(16) R(17) R(18) R(19) R(20) R(21) R(22) R(23) R(24) R(25) R(26) R(27) R(28) R(29) R(30) R(31)
}
__device__ unsigned ws_seen[4];
__global__ void sync_k(unsigned *out) {
    cg::grid_group g = cg::this_grid();
    if (g.thread_rank() == 0) {
        unsigned long long p = ((unsigned long long)0);
        unsigned hi, lo; asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi)); asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
        p = ((unsigned long long)hi << 32) | lo;
        if (p) { ws_seen[0] = ((unsigned *)p)[0]; ws_seen[1] = ((unsigned *)p)[1]; }
    }
    g.sync();
    if (g.thread_rank() == 0) { unsigned hi, lo; asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi)); asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
        unsigned long long p = ((unsigned long long)hi << 32) | lo; if (p) { ws_seen[2] = ((unsigned *)p)[0]; ws_seen[3] = ((unsigned *)p)[1]; } }
    if (out) out[g.thread_rank()] = 1;
}
__global__ void valid_k(unsigned *o) { *o = cg::this_grid().is_valid(); }

int main() {
    setvbuf(stdout, NULL, _IONBF, 0); cudaFree(0);
    CUdevice d; cuDeviceGet(&d, 0);
    int v;
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, d); printf("COOPERATIVE_LAUNCH %d\n", v);
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH, d); printf("COOPERATIVE_MULTI_DEVICE_LAUNCH %d\n", v);
    int sms; cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d); printf("SMs %d\n", sms);
    CUfunction f, fe; cudaGetFuncBySymbol(&f, (void *)sync_k); cudaGetFuncBySymbol(&fe, (void *)env);
    // envregs: normal then cooperative
    int slot0 = 0, slot1 = 1;
    void *a0[] = {&slot0}, *a1[] = {&slot1};
    P(cuLaunchKernel(fe, 2, 1, 1, 64, 1, 1, 0, 0, a0, 0));
    P(cuLaunchCooperativeKernel(fe, 2, 1, 1, 64, 1, 1, 0, 0, a1));
    cuCtxSynchronize();
    unsigned h[2][32]; cudaMemcpyFromSymbol(h, envregs, sizeof(h));
    for (int s = 0; s < 2; ++s) { printf("%s envregs:", s ? "cooperative" : "normal"); for (int i = 0; i < 32; ++i) printf(" %x", h[s][i]); printf("\n"); }
    P(cuLaunchCooperativeKernel(fe, 2, 1, 1, 64, 1, 1, 0, 0, a1)); cuCtxSynchronize();
    cudaMemcpyFromSymbol(h, envregs, sizeof(h)); printf("cooperative again envreg1,2: %x %x\n", h[1][1], h[1][2]);
    // workspace contents
    unsigned *nul = 0; void *as[] = {&nul};
    int per; cuOccupancyMaxActiveBlocksPerMultiprocessor(&per, f, 256, 0); printf("occupancy 256: %d per SM\n", per);
    int per1k; cuOccupancyMaxActiveBlocksPerMultiprocessor(&per1k, f, 1024, 0); printf("occupancy 1024: %d per SM\n", per1k);
    P(cuLaunchCooperativeKernel(f, per * sms, 1, 1, 256, 1, 1, 0, 0, as));
    P(cuCtxSynchronize());
    unsigned w[4]; cudaMemcpyFromSymbol(w, ws_seen, sizeof(w)); printf("workspace words before/after sync: %x %x / %x %x\n", w[0], w[1], w[2], w[3]);
    P(cuLaunchCooperativeKernel(f, per * sms + 1, 1, 1, 256, 1, 1, 0, 0, as));
    P(cuLaunchCooperativeKernel(f, per * sms / 2, 2, 1, 256, 1, 1, 0, 0, as)); P(cuCtxSynchronize());
    P(cuLaunchCooperativeKernel(f, per * sms / 2, 2, 2, 256, 1, 1, 0, 0, as));
    P(cuLaunchCooperativeKernel(f, per1k * sms, 1, 1, 1024, 1, 1, 0, 0, as)); P(cuCtxSynchronize());
    P(cuLaunchCooperativeKernel(f, per1k * sms + 1, 1, 1, 1024, 1, 1, 0, 0, as));
    P(cuLaunchCooperativeKernel(0, 1, 1, 1, 32, 1, 1, 0, 0, as));
    P(cuLaunchCooperativeKernel(f, 0, 1, 1, 32, 1, 1, 0, 0, as));
    P(cuLaunchCooperativeKernel(f, 1, 1, 1, 2048, 1, 1, 0, 0, as));
    P(cuLaunchCooperativeKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, 0));
    P(cuLaunchCooperativeKernel(f, 1, 1, 1, 32, 1, 1, 100000, 0, as));
    P(cuCtxSynchronize());
    // with shared memory: the limit follows occupancy with dyn smem
    int pers; cuOccupancyMaxActiveBlocksPerMultiprocessor(&pers, f, 256, 100000); printf("occupancy 256 + 100000 B: %d per SM\n", pers);
    P(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000));
    P(cuLaunchCooperativeKernel(f, pers * sms, 1, 1, 256, 1, 1, 100000, 0, as)); P(cuCtxSynchronize());
    P(cuLaunchCooperativeKernel(f, pers * sms + 1, 1, 1, 256, 1, 1, 100000, 0, as));
    // multi device
    CUDA_LAUNCH_PARAMS lp = {}; lp.function = f; lp.gridDimX = 2; lp.gridDimY = 1; lp.gridDimZ = 1; lp.blockDimX = 32; lp.blockDimY = 1; lp.blockDimZ = 1; lp.hStream = 0; lp.kernelParams = as;
    P(cuLaunchCooperativeKernelMultiDevice(&lp, 1, 0)); P(cuCtxSynchronize());
    CUstream st; cuStreamCreate(&st, CU_STREAM_NON_BLOCKING); lp.hStream = st;
    P(cuLaunchCooperativeKernelMultiDevice(&lp, 1, 0)); P(cuCtxSynchronize());
    P(cuLaunchCooperativeKernelMultiDevice(&lp, 1, 3)); P(cuCtxSynchronize());
    P(cuLaunchCooperativeKernelMultiDevice(&lp, 1, 4));
    P(cuLaunchCooperativeKernelMultiDevice(&lp, 0, 0));
    P(cuLaunchCooperativeKernelMultiDevice(&lp, 2, 0));
    P(cuLaunchCooperativeKernelMultiDevice(0, 1, 0));
    lp.gridDimX = per * sms + 1; lp.blockDimX = 256;
    P(cuLaunchCooperativeKernelMultiDevice(&lp, 1, 0));
    // cuLaunchKernelEx
    CUlaunchAttribute at[2] = {}; CUlaunchConfig c = {}; c.gridDimX = per * sms; c.gridDimY = 1; c.gridDimZ = 1; c.blockDimX = 256; c.blockDimY = 1; c.blockDimZ = 1; c.attrs = at; c.numAttrs = 1;
    at[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE; at[0].value.cooperative = 1;
    P(cuLaunchKernelEx(&c, f, as, 0)); P(cuCtxSynchronize());
    c.gridDimX = per * sms + 1; P(cuLaunchKernelEx(&c, f, as, 0));
    c.gridDimX = 2; at[0].value.cooperative = 2; P(cuLaunchKernelEx(&c, f, as, 0)); P(cuCtxSynchronize());
    at[0].value.cooperative = -1; P(cuLaunchKernelEx(&c, f, as, 0)); P(cuCtxSynchronize());
    at[0].value.cooperative = 1; at[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION; at[1].value.clusterDim.x = 2; at[1].value.clusterDim.y = 1; at[1].value.clusterDim.z = 1; c.numAttrs = 2;
    P(cuLaunchKernelEx(&c, f, as, 0)); P(cuCtxSynchronize());
    at[1].value.clusterDim.x = 1; P(cuLaunchKernelEx(&c, f, as, 0)); P(cuCtxSynchronize());
    at[0].value.cooperative = 0; c.numAttrs = 1; c.gridDimX = per * sms + 1; P(cuLaunchKernelEx(&c, f, as, 0)); P(cuCtxSynchronize());
    // graphs: explicit kernel node with the attribute; too large grid
    CUgraph g; cuGraphCreate(&g, 0);
    CUDA_KERNEL_NODE_PARAMS kp = {}; kp.func = f; kp.gridDimX = per * sms; kp.gridDimY = 1; kp.gridDimZ = 1; kp.blockDimX = 256; kp.blockDimY = 1; kp.blockDimZ = 1; kp.kernelParams = as;
    CUgraphNode n; P(cuGraphAddKernelNode(&n, g, 0, 0, &kp));
    CUkernelNodeAttrValue av = {}; P(cuGraphKernelNodeGetAttribute(n, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &av)); printf("node cooperative default %d\n", av.cooperative);
    av.cooperative = 1; P(cuGraphKernelNodeSetAttribute(n, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &av));
    CUgraphExec ge; P(cuGraphInstantiate(&ge, g, 0)); P(cuGraphLaunch(ge, 0)); P(cuCtxSynchronize());
    kp.gridDimX = per * sms + 1; P(cuGraphKernelNodeSetParams(n, &kp));
    CUgraphExec ge2; P(cuGraphInstantiate(&ge2, g, 0)); P(cuGraphLaunch(ge2, 0)); P(cuCtxSynchronize());
    P(cuGraphExecKernelNodeSetParams(ge, n, &kp)); P(cuGraphLaunch(ge, 0)); P(cuCtxSynchronize());
    av.cooperative = 2; P(cuGraphKernelNodeSetAttribute(n, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &av));
    P(cuGraphKernelNodeGetAttribute(n, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &av)); printf("node cooperative after 2: %d\n", av.cooperative);
    // capture
    CUstream cs; cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING);
    P(cuStreamBeginCapture(cs, CU_STREAM_CAPTURE_MODE_GLOBAL));
    P(cuLaunchCooperativeKernel(f, 2, 1, 1, 256, 1, 1, 0, cs, as));
    P(cuLaunchCooperativeKernel(f, per * sms + 1, 1, 1, 256, 1, 1, 0, cs, as));
    CUgraph cg2; P(cuStreamEndCapture(cs, &cg2));
    // is_valid in a normal launch
    unsigned *dv; cudaMalloc(&dv, 4); valid_k<<<1, 1>>>(dv); cudaDeviceSynchronize(); unsigned hv; cudaMemcpy(&hv, dv, 4, cudaMemcpyDeviceToHost); printf("is_valid normal launch: %u\n", hv);
    // runtime
    void *ra[] = {&nul};
    PR(cudaLaunchCooperativeKernel((void *)sync_k, dim3(per * sms + 1), dim3(256), ra, 0, 0));
    PR(cudaLaunchCooperativeKernel((void *)0, dim3(1), dim3(32), ra, 0, 0));
    PR(cudaLaunchCooperativeKernel((void *)sync_k, dim3(1), dim3(32), ra, 0, 0)); PR(cudaDeviceSynchronize());
    int rv; PR(cudaDeviceGetAttribute(&rv, cudaDevAttrCooperativeLaunch, 0)); printf("cudaDevAttrCooperativeLaunch %d\n", rv);
    // grid sync in a non cooperative launch: traps?
    sync_k<<<2, 32>>>(0); PR(cudaDeviceSynchronize());
    return 0;
}
