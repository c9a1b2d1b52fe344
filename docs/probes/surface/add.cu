extern "C" __global__ void add(int *p, int v, float f) { p[blockIdx.x * blockDim.x + threadIdx.x] += v + (int)f + blockIdx.x * 1000; }
