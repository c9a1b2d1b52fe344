// tests/cuda/check.h: what every CUDA test program of tests/cuda shares. The programs are
// written as CUDA programs are, for nvcc and clang alike; each prints what it found and exits
// non-zero at the first failed check, naming it.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        cudaError_t check_err_ = (call);                                                                 \
        if (check_err_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,               \
                         cudaGetErrorName(check_err_), cudaGetErrorString(check_err_));                  \
            std::exit(1);                                                                                \
        }                                                                                                \
    } while (0)

#define EXPECT_ERR(expected, call)                                                                       \
    do {                                                                                                 \
        cudaError_t check_err_ = (call);                                                                 \
        if (check_err_ != (expected)) {                                                                  \
            std::fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call,      \
                         cudaGetErrorName(check_err_), cudaGetErrorName(expected));                      \
            std::exit(1);                                                                                \
        }                                                                                                \
        (void)cudaGetLastError();                                                                        \
    } while (0)

#define REQUIRE(cond)                                                                                    \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            std::fprintf(stderr, "%s:%d: %s is false\n", __FILE__, __LINE__, #cond);                     \
            std::exit(1);                                                                                \
        }                                                                                                \
    } while (0)
