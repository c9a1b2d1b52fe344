// Runtime results probed on an H100 with NVIDIA's CUDA 13.0 runtime (issue 14): the codes
// src/runtime/{register,kernel,managed,device,mempool}.c follow. Build: nvcc -cudart shared
// -gencode arch=compute_90,code=sm_90 -o runtime_probe runtime_probe.cu. Calls NVIDIA's runtime
// crashes on (NULL output pointers, a NULL launch configuration) are left out; extmem answers
// those with cudaErrorInvalidValue. Output: runtime_probe.h100.txt.
#include <cstdio>
#include <cstring>
__global__ void kern(int *p) { if (p) p[0] = 1; }
__global__ void __launch_bounds__(256) bounded(int *p) { if (p) p[0] = 1; }
__device__ int dvar;
#define P(call) do { cudaError_t e = (call); printf("%-70s %s\n", #call, cudaGetErrorName(e)); cudaGetLastError(); } while (0)
int main() {
  int x = 0; cudaFuncAttributes a; void *p = nullptr; int c = -1; size_t v = 0; unsigned f = 0;
  setvbuf(stdout, NULL, _IONBF, 0);
  cudaFree(0);
  P(cudaGetDeviceFlags(&f)); printf("flags 0x%x\n", f);
  P(cudaFuncGetAttributes(&a, (const void*)&x));
  P(cudaFuncGetAttributes(&a, (const void*)nullptr));
  P(cudaFuncGetAttributes(nullptr, (const void*)kern));
  P(cudaFuncSetAttribute((const void*)&x, cudaFuncAttributeMaxDynamicSharedMemorySize, 10));
  P(cudaFuncSetAttribute((const void*)kern, (cudaFuncAttribute)3, 1));
  P(cudaFuncSetCacheConfig((const void*)kern, (cudaFuncCache)9));
  P(cudaFuncSetCacheConfig((const void*)&x, cudaFuncCachePreferL1));
  int nb = 0;
  P(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, (const void*)&x, 128, 0));
  P(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, (const void*)kern, 128, 0, 4));
  P(cudaOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, (const void*)kern, 128, 0));
  P(cudaLaunchKernel((const void*)&x, dim3(1), dim3(1), nullptr, 0, 0));
  P(cudaLaunchKernel((const void*)nullptr, dim3(1), dim3(1), nullptr, 0, 0));
  int *np = nullptr; void *args[] = {&np};
  P(cudaLaunchKernel((const void*)kern, dim3(0), dim3(1), args, 0, 0));
  P(cudaLaunchKernel((const void*)kern, dim3(1), dim3(2048), args, 0, 0));
  P(cudaLaunchKernel((const void*)bounded, dim3(1), dim3(512), args, 0, 0));
  P(cudaLaunchKernel((const void*)kern, dim3(1), dim3(1), args, 1<<20, 0));
  cudaLaunchAttribute at; memset(&at, 0, sizeof at); at.id = cudaLaunchAttributeCooperative; at.val.cooperative = 1;
  cudaLaunchConfig_t cfg{}; cfg.gridDim = dim3(1); cfg.blockDim = dim3(1); cfg.attrs = &at; cfg.numAttrs = 1;
  P(cudaLaunchKernelExC(&cfg, (const void*)kern, args));
  cfg.attrs = nullptr; P(cudaLaunchKernelExC(&cfg, (const void*)kern, args));
  P(cudaMemcpyToSymbol(dvar, &x, 4, 4));
  P(cudaMemcpyToSymbol(dvar, &x, 4, 0, cudaMemcpyDeviceToHost));
  P(cudaMemcpyFromSymbol(&x, dvar, 4, 0, cudaMemcpyHostToDevice));
  P(cudaGetSymbolAddress(&p, (const void*)&x));
  P(cudaMallocManaged(&p, 0)); printf("p %p\n", p);
  P(cudaMallocManaged(&p, 16, cudaMemAttachSingle));
  P(cudaMallocManaged(&p, 4096));
  cudaMemLocation d1 = {cudaMemLocationTypeDevice, 1}, h = {cudaMemLocationTypeHost, 0}, d0 = {cudaMemLocationTypeDevice, 0};
  P(cudaMemPrefetchAsync(p, 4096, d1, 0, 0));
  P(cudaMemPrefetchAsync(p, 8192, h, 0, 0));
  P(cudaMemPrefetchAsync(p, 4096, h, 1, 0));
  P(cudaMemPrefetchAsync(p, 0, h, 0, 0));
  P(cudaMemPrefetchAsync(&x, 4, d0, 0, 0));
  P(cudaMemAdvise(p, 4096, (cudaMemoryAdvise)0, h));
  P(cudaMemAdvise(&x, 4, cudaMemAdviseSetAccessedBy, h));
  P(cudaMemAdvise(p, 4096, cudaMemAdviseSetReadMostly, d1));
  P(cudaMemAdvise(p, 4096, cudaMemAdviseSetPreferredLocation, d1));
  P(cudaFree(p));
  P(cudaDeviceCanAccessPeer(&c, 0, 0)); printf("can %d\n", c);
  P(cudaDeviceCanAccessPeer(&c, 0, 1));
  P(cudaDeviceEnablePeerAccess(0, 0));
  P(cudaDeviceEnablePeerAccess(1, 0));
  P(cudaDeviceEnablePeerAccess(0, 1));
  P(cudaDeviceDisablePeerAccess(0));
  P(cudaDeviceDisablePeerAccess(1));
  P(cudaDeviceGetLimit(&v, (cudaLimit)42));
  P(cudaDeviceSetLimit((cudaLimit)42, 1));
  P(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 256));
  P(cudaDeviceSetLimit(cudaLimitStackSize, 0));
  for (int l = 0; l < 7; ++l) { v = 0; cudaDeviceGetLimit(&v, (cudaLimit)l); printf("limit %d = %zu\n", l, v); }
  P(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
  P(cudaSetDeviceFlags(0x100));
  P(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
  P(cudaGetDeviceFlags(&f)); printf("flags 0x%x\n", f);
  P(cudaStreamAddCallback(0, nullptr, nullptr, 0));
  int dev = -1; cudaDeviceProp pr; memset(&pr, 0, sizeof pr);
  cudaMemPool_t pool;
  P(cudaDeviceGetDefaultMemPool(&pool, 1));
  P(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long u = 5;
  P(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &u));
  P(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &u));
  P(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &u)); printf("threshold %llu\n", u);
  void *q = &q;
  P(cudaMallocAsync(&q, 0, 0)); printf("q %p\n", q);
  P(cudaMallocAsync(&q, 16, 0));
  P(cudaFreeAsync(q, 0));
  cudaDeviceSynchronize();
  P(cudaFreeAsync(q, 0));
  P(cudaFreeAsync(nullptr, 0));
  P(cudaDeviceSynchronize());
  return 0;
}
