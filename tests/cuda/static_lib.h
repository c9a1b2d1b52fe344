// The static library's interface, for tests/cuda/static_lib_main.cu.
#pragma once
cudaError_t library_saxpy(float a, const float *x, float *y, int n, cudaStream_t stream);
