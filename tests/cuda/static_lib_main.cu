// Calls a kernel that lives in a static library (static_lib_kernels.cu).
#include "check.h"
#include "static_lib.h"

int main()
{
    const int n = 1000;
    float hx[n], hy[n];
    for (int i = 0; i < n; ++i) {
        hx[i] = (float)i;
        hy[i] = 1.0f;
    }
    float *x, *y;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&y, sizeof hy));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    CHECK(library_saxpy(2.0f, x, y, n, 0));
    CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    std::printf("saxpy from a static library: %.1f %.1f\n", hy[0], hy[n - 1]);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return 0;
}
