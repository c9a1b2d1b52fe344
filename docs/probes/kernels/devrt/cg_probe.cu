// cg.cu (devrt probe): the legacy cooperative-groups entry points of the device runtime and
// device-side cudaGraphLaunch of a graph that is not device-launchable.
#include <cstdio>
__device__ unsigned long long g[2][16];
__global__ void k(cudaGraphExec_t ge, int which) {
  unsigned long long h = cudaCGGetIntrinsicHandle(cudaCGScopeGrid);
  unsigned a = 7, b = 7;
  unsigned t = (blockIdx.x * blockDim.x + threadIdx.x);
  if (t == 3) {
    g[which][0] = h; g[which][1] = cudaCGGetSize(&a, &b, h); g[which][2] = a; g[which][3] = b;
    g[which][4] = cudaCGGetRank(&a, &b, h); g[which][5] = a; g[which][6] = b;
    g[which][8] = cudaCGGetIntrinsicHandle((cudaCGScope)2);
    g[which][9] = cudaCGGetIntrinsicHandle((cudaCGScope)0);
    g[which][10] = cudaGraphLaunch(ge, cudaStreamGraphFireAndForget);
    g[which][11] = cudaGetLastError();
  }
  g[which][7] = cudaCGSynchronize(h, 0);
  if (t == 3) g[which][12] = cudaCGSynchronizeGrid(h, 0);
}
int main() {
  k<<<2, 32>>>(0, 0);
  printf("plain: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaGraphExec_t ge = 0; int which = 1;
  void *args[] = {&ge, &which};
  printf("coop launch: %s\n", cudaGetErrorName(cudaLaunchCooperativeKernel((void *)k, 2, 32, args, 0, 0)));
  printf("coop: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  unsigned long long h[2][16];
  cudaMemcpyFromSymbol(h, g, sizeof h);
  for (int w = 0; w < 2; ++w) { for (int i = 0; i < 13; i++) printf("%llx ", h[w][i]); printf("\n"); }
}
