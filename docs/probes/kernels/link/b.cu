__device__ unsigned counter = 100;
__device__ int add_one_impl(int x) { return x + 1; }
extern "C" __device__ int add_one(int x) { return add_one_impl(x); }
