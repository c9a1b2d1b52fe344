// Probe: the H100's floating-point results where the PTX ISA leaves the bits open (NaN
// payloads and signs, canonical NaNs, -0 in min/max, ftz of results, approximate functions'
// special values, cvt's NaN and saturation). Build: nvcc -arch=sm_90 -o float_probe float_probe.cu
// Prints one line per case: "op a [b [c]] -> d" in hex (float_probe.h100.txt is an H100's
// output). The cases are in float_probe_cases.h; operands and results are bit patterns.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>

#define F32U(op) case __LINE__: { float d; asm volatile(op " %0, %1;" : "=f"(d) : "f"(__uint_as_float(a))); r = __float_as_uint(d); } break;
#define F32B(op) case __LINE__: { float d; asm volatile(op " %0, %1, %2;" : "=f"(d) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); r = __float_as_uint(d); } break;
#define F32T(op) case __LINE__: { float d; asm volatile(op " %0, %1, %2, %3;" : "=f"(d) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b)), "f"(__uint_as_float(c))); r = __float_as_uint(d); } break;
#define F64U(op) case __LINE__: { double d; asm volatile(op " %0, %1;" : "=d"(d) : "d"(__longlong_as_double(a))); r = __double_as_longlong(d); } break;
#define F64B(op) case __LINE__: { double d; asm volatile(op " %0, %1, %2;" : "=d"(d) : "d"(__longlong_as_double(a)), "d"(__longlong_as_double(b))); r = __double_as_longlong(d); } break;
#define H16U(op) case __LINE__: { unsigned short d; asm volatile(op " %0, %1;" : "=h"(d) : "h"((unsigned short)a)); r = d; } break;
#define H16B(op) case __LINE__: { unsigned short d; asm volatile(op " %0, %1, %2;" : "=h"(d) : "h"((unsigned short)a), "h"((unsigned short)b)); r = d; } break;
#define H16T(op) case __LINE__: { unsigned short d; asm volatile(op " %0, %1, %2, %3;" : "=h"(d) : "h"((unsigned short)a), "h"((unsigned short)b), "h"((unsigned short)c)); r = d; } break;
#define R32B(op) case __LINE__: { unsigned d; asm volatile(op " %0, %1, %2;" : "=r"(d) : "r"((unsigned)a), "r"((unsigned)b)); r = d; } break;
// cvt moves bits: a float operand is passed and returned by its bit pattern.
template <class T> __device__ T frombits(unsigned long long a) { return (T)a; }
template <> __device__ float frombits<float>(unsigned long long a) { return __uint_as_float((unsigned)a); }
template <> __device__ double frombits<double>(unsigned long long a) { return __longlong_as_double((long long)a); }
template <class T> __device__ unsigned long long tobits(T v) { return (unsigned long long)v; }
template <> __device__ unsigned long long tobits<int>(int v) { return (unsigned)v; }
template <> __device__ unsigned long long tobits<float>(float v) { return __float_as_uint(v); }
template <> __device__ unsigned long long tobits<double>(double v) { return (unsigned long long)__double_as_longlong(v); }
#define CVT(op, dc, dt, sc, st) case __LINE__: { dt d; asm volatile(op " %0, %1;" : "=" dc(d) : sc(frombits<st>(a))); r = tobits<dt>(d); } break;
#define F2H(op) case __LINE__: { unsigned d; asm volatile(op " %0, %1, %2;" : "=r"(d) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); r = d; } break;
#define F64T(op) case __LINE__: { double d; asm volatile(op " %0, %1, %2, %3;" : "=d"(d) : "d"(__longlong_as_double(a)), "d"(__longlong_as_double(b)), "d"(__longlong_as_double(c))); r = __double_as_longlong(d); } break;

// The cases: each line number is its id (listed by the host through the table below).
__device__ unsigned long long run(int op, unsigned long long a, unsigned long long b, unsigned long long c)
{
    unsigned long long r = 0;
    switch (op) {
#include "float_probe_cases.h"
    default: r = 0xdeadbeefull;
    }
    return r;
}

__global__ void k(int op, const unsigned long long *a, const unsigned long long *b, const unsigned long long *c,
                  unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = run(op, a[i], b[i], c[i]);
}

struct pcase { int id; const char *name; int arity; int set; };
#undef F32U
#undef F32B
#undef F32T
#undef F64U
#undef F64B
#undef H16U
#undef H16B
#undef H16T
#undef R32B
#undef CVT
#undef F2H
#undef F64T
#define F2H(op) {__LINE__, op, 2, 0},
#define F64T(op) {__LINE__, op, 3, 1},
#define F32U(op) {__LINE__, op, 1, 0},
#define F32B(op) {__LINE__, op, 2, 0},
#define F32T(op) {__LINE__, op, 3, 0},
#define F64U(op) {__LINE__, op, 1, 1},
#define F64B(op) {__LINE__, op, 2, 1},
#define H16U(op) {__LINE__, op, 1, 2},
#define H16B(op) {__LINE__, op, 2, 2},
#define H16T(op) {__LINE__, op, 3, 2},
#define R32B(op) {__LINE__, op, 2, 3},
#define CVT(op, dc, dt, sc, st) {__LINE__, op, 1, (sc[0] == 'd' ? 1 : sc[0] == 'h' ? 2 : sc[0] == 'f' ? 0 : sc[0] == 'l' ? 5 : 4)},
static const pcase cases[] = {
#include "float_probe_cases.h"
};

static const unsigned long long s32[] = {0x0, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x1, 0x80000001, 0x7fffff,
    0x800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00123, 0x7f7fffff, 0x3f7fffff, 0x40400000};
static const unsigned long long s64[] = {0x0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000, 0x1,
    0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000000000123,
    0x7fefffffffffffff, 0x000fffffffffffff, 0x4008000000000000, 0x401c000000000000, 0x3ff0000000000001};
static const unsigned long long s16[] = {0x0, 0x8000, 0x3c00, 0xbc00, 0x1, 0x8001, 0x3ff, 0x7c00, 0xfc00, 0x7e00,
    0x7c01, 0xfe23, 0x7bff, 0x3e00, 0x4200, 0x7f80, 0x7fc0, 0xffa1};
static const unsigned long long s32i[] = {0x3c003c00, 0x7e00bc00, 0x7c01fc00, 0x80000001, 0x7fc13f80, 0xff81ffc0};
static const unsigned long long sint[] = {0, 1, 0xffffffffull, 0x80000000ull, 0x7fffffffull, 16777217, 0xfffffffffffffffful,
    0x8000000000000000ull, 0x7fffffffffffffffull, 0x20000000000001ull, 65505, 65520, 0xffff0001ull};

int main()
{
    const int N = 512;
    unsigned long long *da, *db, *dc, *dout;
    cudaMalloc(&da, N * 8); cudaMalloc(&db, N * 8); cudaMalloc(&dc, N * 8); cudaMalloc(&dout, N * 8);
    for (const pcase &pc : cases) {
        const unsigned long long *s; int ns;
        switch (pc.set) {
        case 0: s = s32; ns = sizeof(s32) / 8; break;
        case 1: s = s64; ns = sizeof(s64) / 8; break;
        case 2: s = s16; ns = sizeof(s16) / 8; break;
        case 3: s = s32i; ns = sizeof(s32i) / 8; break;
        default: s = sint; ns = sizeof(sint) / 8; break;
        }
        unsigned long long ha[N], hb[N], hc[N], ho[N];
        int n = 0;
        if (pc.arity == 1)
            for (int i = 0; i < ns; ++i) { ha[n] = s[i]; hb[n] = hc[n] = 0; n++; }
        else if (pc.arity == 2)
            for (int i = 0; i < ns; ++i) for (int j = 0; j < ns; ++j) { ha[n] = s[i]; hb[n] = s[j]; hc[n] = 0; n++; }
        else
            for (int i = 0; i < ns && n + ns <= N; i += 1) for (int j = 0; j < ns; j += 3) { ha[n] = s[i]; hb[n] = s[j]; hc[n] = s[(i + j) % ns]; n++; }
        cudaMemcpy(da, ha, n * 8, cudaMemcpyHostToDevice);
        cudaMemcpy(db, hb, n * 8, cudaMemcpyHostToDevice);
        cudaMemcpy(dc, hc, n * 8, cudaMemcpyHostToDevice);
        k<<<(n + 127) / 128, 128>>>(pc.id, da, db, dc, dout, n);
        cudaError_t e = cudaMemcpy(ho, dout, n * 8, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) { printf("%s: error %s\n", pc.name, cudaGetErrorString(e)); return 1; }
        for (int i = 0; i < n; ++i) {
            if (pc.arity == 1) printf("%s %llx -> %llx\n", pc.name, ha[i], ho[i]);
            else if (pc.arity == 2) printf("%s %llx %llx -> %llx\n", pc.name, ha[i], hb[i], ho[i]);
            else printf("%s %llx %llx %llx -> %llx\n", pc.name, ha[i], hb[i], hc[i], ho[i]);
        }
    }
    return 0;
}
