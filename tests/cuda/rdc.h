// What the units of the rdc test share (compiled with nvcc -rdc=true, clang -fgpu-rdc): device
// functions and variables defined in one translation unit and used in another, and in a static
// library of device code.
#pragma once

// rdc_math.cu
extern __device__ int scale(int v);
extern __device__ int rdc_calls;
extern __device__ float rdc_table[4];
cudaError_t math_unit_kernel(int *out, int n);
// rdc_lib.cu, built into a static library
extern __device__ int lib_offset(int v);
extern __device__ int lib_hits;
cudaError_t library_kernel(int *out, int n);

// Defined in every unit that uses it (inline: a weak definition in each, one kept).
__device__ inline int shared_inline(int v) { return v * 3 + 1; }
