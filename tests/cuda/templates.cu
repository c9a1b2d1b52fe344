// Template kernels: one kernel template launched for three types, and a functor argument.
#include "check.h"

template <typename T> __global__ void axpy(T a, const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

struct Square {
    __device__ int operator()(int v) const { return v * v; }
};

template <typename F> __global__ void map(F f, int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = f(p[i]);
}

template <typename T> static T run_axpy(T a, T xv, T yv)
{
    const int n = 300;
    T hx[n], hy[n];
    for (int i = 0; i < n; ++i) {
        hx[i] = xv;
        hy[i] = yv;
    }
    T *x, *y;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&y, sizeof hy));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    axpy<T><<<(n + 127) / 128, 128>>>(a, x, y, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    for (int i = 1; i < n; ++i)
        REQUIRE(hy[i] == hy[0]);
    return hy[n - 1];
}

int main()
{
    std::printf("axpy<int>: %d\n", run_axpy<int>(3, 4, 5));
    std::printf("axpy<float>: %.3f\n", run_axpy<float>(0.5f, 3.0f, 0.25f));
    std::printf("axpy<double>: %.6f\n", run_axpy<double>(1.0 / 3.0, 3.0, 1.0));

    int *p;
    int h[40];
    for (int i = 0; i < 40; ++i)
        h[i] = i;
    CHECK(cudaMalloc(&p, sizeof h));
    CHECK(cudaMemcpy(p, h, sizeof h, cudaMemcpyHostToDevice));
    map<<<1, 64>>>(Square{}, p, 40);
    CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("map(Square): %d %d %d\n", h[0], h[7], h[39]);
    CHECK(cudaFree(p));
    return 0;
}
