/*
 * extmem/cuda_builtins.h: what device code sees, for clang compiling CUDA with -nocudainc.
 *
 * Written for extmem from the CUDA C++ Programming Guide (built-in variables, synchronisation,
 * warp functions, atomic functions, mathematical functions) over clang's NVPTX builtins
 * (__nvvm_*), which clang lowers to the PTX instructions the engine runs. Included by
 * extmem/cuda_runtime.h under clang's CUDA mode only; it is parsed for both the host and the
 * device side of a translation unit, as CUDA headers are.
 *
 * Mathematical functions: single precision sqrtf, fmaf, fabsf, fminf, fmaxf, floorf, ceilf,
 * truncf, roundf, rintf are exact (one PTX instruction each); expf, exp2f, logf, log2f,
 * log10f, powf, sinf, cosf, tanf, tanhf are built on the PTX approximations (ex2.approx,
 * lg2.approx, sin.approx, cos.approx), like nvcc's -use_fast_math versions: within a few ulp
 * for moderate arguments, not CUDA's libdevice accuracy. There is no libdevice without a CUDA
 * installation.
 */
#ifndef EXTMEM_CUDA_BUILTINS_H
#define EXTMEM_CUDA_BUILTINS_H

#if !defined(__CUDA__)
#error "extmem/cuda_builtins.h is for CUDA sources compiled by clang (-x cuda)"
#endif

#include <stddef.h>

#include "extmem/vector_types.h"

#define EXTMEM_DEV static __device__ __inline__ __attribute__((always_inline))

/* ---- Built-in variables ----------------------------------------------------------------
 * Each is an object whose x, y and z are properties reading a PTX special register
 * (%tid, %ntid, %ctaid, %nctaid), the way clang's own CUDA headers expose them: no storage,
 * one register read per use. */
#define EXTMEM_SREG(type, name, reg)                                                                   \
    struct type {                                                                                      \
        __declspec(property(get = get_x)) unsigned int x;                                              \
        __declspec(property(get = get_y)) unsigned int y;                                              \
        __declspec(property(get = get_z)) unsigned int z;                                              \
        static __device__ __inline__ unsigned int get_x() { return __nvvm_read_ptx_sreg_##reg##_x(); } \
        static __device__ __inline__ unsigned int get_y() { return __nvvm_read_ptx_sreg_##reg##_y(); } \
        static __device__ __inline__ unsigned int get_z() { return __nvvm_read_ptx_sreg_##reg##_z(); } \
        __device__ operator dim3() const { return dim3(get_x(), get_y(), get_z()); }                   \
        __device__ operator uint3() const { return uint3{get_x(), get_y(), get_z()}; }                 \
                                                                                                       \
      private:                                                                                         \
        __device__ type() = delete;                                                                    \
        __device__ type(const type &) = delete;                                                        \
        __device__ void operator=(const type &) const = delete;                                        \
        __device__ type *operator&() const = delete;                                                   \
    };                                                                                                 \
    extern const __device__ __attribute__((weak)) type name;

EXTMEM_SREG(extmem_thread_idx, threadIdx, tid)
EXTMEM_SREG(extmem_block_dim, blockDim, ntid)
EXTMEM_SREG(extmem_block_idx, blockIdx, ctaid)
EXTMEM_SREG(extmem_grid_dim, gridDim, nctaid)
#undef EXTMEM_SREG

/* The warp's width, a constant of the architecture (usable on both sides, as CUDA's). */
static constexpr int warpSize = 32;

/* ---- Synchronisation ---- */
EXTMEM_DEV void __syncwarp(unsigned int mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
EXTMEM_DEV void __threadfence_block(void) { __nvvm_membar_cta(); }
EXTMEM_DEV void __threadfence(void) { __nvvm_membar_gl(); }
EXTMEM_DEV void __threadfence_system(void) { __nvvm_membar_sys(); }
EXTMEM_DEV int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
EXTMEM_DEV int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
EXTMEM_DEV int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }

/* ---- Warp functions (sm_70 and later: the _sync forms) ---- */
EXTMEM_DEV unsigned int __activemask(void)
{
    unsigned int m;
    __asm__ volatile("activemask.b32 %0;" : "=r"(m));
    return m;
}
EXTMEM_DEV unsigned int __ballot_sync(unsigned int mask, int p) { return __nvvm_vote_ballot_sync(mask, p); }
EXTMEM_DEV int __all_sync(unsigned int mask, int p) { return __nvvm_vote_all_sync(mask, p); }
EXTMEM_DEV int __any_sync(unsigned int mask, int p) { return __nvvm_vote_any_sync(mask, p); }
EXTMEM_DEV int __uni_sync(unsigned int mask, int p) { return __nvvm_vote_uni_sync(mask, p); }

/* The shuffle's c operand packs the segment mask ((32 - width) << 8) and the clamp lane
 * (PTX ISA, shfl.sync). */
#define EXTMEM_SHFL(T, suffix)                                                                          \
    EXTMEM_DEV T __shfl_sync(unsigned int mask, T v, int lane, int width = 32)                          \
    {                                                                                                   \
        return __nvvm_shfl_sync_idx_##suffix(mask, v, lane, ((32 - width) << 8) | 0x1f);                \
    }                                                                                                   \
    EXTMEM_DEV T __shfl_up_sync(unsigned int mask, T v, unsigned int d, int width = 32)                 \
    {                                                                                                   \
        return __nvvm_shfl_sync_up_##suffix(mask, v, (int)d, (32 - width) << 8);                        \
    }                                                                                                   \
    EXTMEM_DEV T __shfl_down_sync(unsigned int mask, T v, unsigned int d, int width = 32)               \
    {                                                                                                   \
        return __nvvm_shfl_sync_down_##suffix(mask, v, (int)d, ((32 - width) << 8) | 0x1f);             \
    }                                                                                                   \
    EXTMEM_DEV T __shfl_xor_sync(unsigned int mask, T v, int lane_mask, int width = 32)                 \
    {                                                                                                   \
        return __nvvm_shfl_sync_bfly_##suffix(mask, v, lane_mask, ((32 - width) << 8) | 0x1f);          \
    }
EXTMEM_SHFL(int, i32)
EXTMEM_SHFL(float, f32)
#undef EXTMEM_SHFL
EXTMEM_DEV unsigned int __shfl_sync(unsigned int mask, unsigned int v, int lane, int width = 32)
{
    return (unsigned int)__shfl_sync(mask, (int)v, lane, width);
}
EXTMEM_DEV unsigned int __shfl_down_sync(unsigned int mask, unsigned int v, unsigned int d, int width = 32)
{
    return (unsigned int)__shfl_down_sync(mask, (int)v, d, width);
}
EXTMEM_DEV unsigned int __shfl_xor_sync(unsigned int mask, unsigned int v, int lane_mask, int width = 32)
{
    return (unsigned int)__shfl_xor_sync(mask, (int)v, lane_mask, width);
}

/* ---- Atomic functions (device scope, relaxed, on generic addresses) ---- */
EXTMEM_DEV int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
EXTMEM_DEV unsigned int atomicAdd(unsigned int *p, unsigned int v)
{
    return (unsigned int)__nvvm_atom_add_gen_i((int *)p, (int)v);
}
EXTMEM_DEV unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}
EXTMEM_DEV float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
EXTMEM_DEV double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
EXTMEM_DEV int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
EXTMEM_DEV unsigned int atomicSub(unsigned int *p, unsigned int v)
{
    return (unsigned int)__nvvm_atom_add_gen_i((int *)p, -(int)v);
}
EXTMEM_DEV int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
EXTMEM_DEV unsigned int atomicExch(unsigned int *p, unsigned int v)
{
    return (unsigned int)__nvvm_atom_xchg_gen_i((int *)p, (int)v);
}
EXTMEM_DEV float atomicExch(float *p, float v)
{
    return __nvvm_bitcast_i2f(__nvvm_atom_xchg_gen_i((int *)p, __nvvm_bitcast_f2i(v)));
}
EXTMEM_DEV int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
EXTMEM_DEV unsigned int atomicMin(unsigned int *p, unsigned int v) { return __nvvm_atom_min_gen_ui(p, v); }
EXTMEM_DEV int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
EXTMEM_DEV unsigned int atomicMax(unsigned int *p, unsigned int v) { return __nvvm_atom_max_gen_ui(p, v); }
EXTMEM_DEV unsigned int atomicInc(unsigned int *p, unsigned int v) { return __nvvm_atom_inc_gen_ui(p, v); }
EXTMEM_DEV unsigned int atomicDec(unsigned int *p, unsigned int v) { return __nvvm_atom_dec_gen_ui(p, v); }
EXTMEM_DEV int atomicCAS(int *p, int cmp, int v) { return __nvvm_atom_cas_gen_i(p, cmp, v); }
EXTMEM_DEV unsigned int atomicCAS(unsigned int *p, unsigned int cmp, unsigned int v)
{
    return (unsigned int)__nvvm_atom_cas_gen_i((int *)p, (int)cmp, (int)v);
}
EXTMEM_DEV unsigned long long atomicCAS(unsigned long long *p, unsigned long long cmp, unsigned long long v)
{
    return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)cmp, (long long)v);
}
EXTMEM_DEV int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
EXTMEM_DEV unsigned int atomicAnd(unsigned int *p, unsigned int v)
{
    return (unsigned int)__nvvm_atom_and_gen_i((int *)p, (int)v);
}
EXTMEM_DEV int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
EXTMEM_DEV unsigned int atomicOr(unsigned int *p, unsigned int v)
{
    return (unsigned int)__nvvm_atom_or_gen_i((int *)p, (int)v);
}
EXTMEM_DEV int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
EXTMEM_DEV unsigned int atomicXor(unsigned int *p, unsigned int v)
{
    return (unsigned int)__nvvm_atom_xor_gen_i((int *)p, (int)v);
}

/* ---- Integer and bit intrinsics ---- */
EXTMEM_DEV int __popc(unsigned int x) { return __builtin_popcount(x); }
EXTMEM_DEV int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
/* PTX clz of 0 is the width; C's __builtin_clz leaves 0 undefined. */
EXTMEM_DEV int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
EXTMEM_DEV int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
EXTMEM_DEV int __ffs(int x) { return __builtin_ffs(x); }
EXTMEM_DEV unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
EXTMEM_DEV int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
EXTMEM_DEV int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
EXTMEM_DEV unsigned int __umulhi(unsigned int a, unsigned int b) { return __nvvm_mulhi_ui(a, b); }
EXTMEM_DEV int min(int a, int b) { return a < b ? a : b; }
EXTMEM_DEV int max(int a, int b) { return a > b ? a : b; }
EXTMEM_DEV unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
EXTMEM_DEV unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
EXTMEM_DEV float __int_as_float(int x) { return __nvvm_bitcast_i2f(x); }
EXTMEM_DEV int __float_as_int(float x) { return __nvvm_bitcast_f2i(x); }
EXTMEM_DEV unsigned int __float_as_uint(float x) { return (unsigned int)__nvvm_bitcast_f2i(x); }
EXTMEM_DEV float __uint_as_float(unsigned int x) { return __nvvm_bitcast_i2f((int)x); }
EXTMEM_DEV int __float2int_rn(float x) { return __nvvm_f2i_rn(x); }
EXTMEM_DEV int __float2int_rz(float x) { return __nvvm_f2i_rz(x); }
EXTMEM_DEV float __int2float_rn(int x) { return __nvvm_i2f_rn(x); }

/* ---- Mathematical functions (see the file comment for their accuracy) ---- */
EXTMEM_DEV float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
EXTMEM_DEV double sqrt(double x) { return __nvvm_sqrt_rn_d(x); }
EXTMEM_DEV float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
EXTMEM_DEV float fabsf(float x) { return __nvvm_fabs_f(x); }
EXTMEM_DEV double fabs(double x) { return __nvvm_fabs_d(x); }
EXTMEM_DEV float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
EXTMEM_DEV float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
EXTMEM_DEV double fmin(double a, double b) { return __nvvm_fmin_d(a, b); }
EXTMEM_DEV double fmax(double a, double b) { return __nvvm_fmax_d(a, b); }
EXTMEM_DEV float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
EXTMEM_DEV double fma(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
EXTMEM_DEV float floorf(float x) { return __nvvm_floor_f(x); }
EXTMEM_DEV float ceilf(float x) { return __nvvm_ceil_f(x); }
EXTMEM_DEV float truncf(float x) { return __nvvm_trunc_f(x); }
EXTMEM_DEV float rintf(float x) { return __nvvm_round_f(x); } /* cvt.rni: to nearest even */
EXTMEM_DEV float roundf(float x)
{
    /* Halves away from zero (C's round), unlike rintf. */
    float t = __nvvm_trunc_f(x);
    return __nvvm_fabs_f(x - t) >= 0.5f ? t + (x < 0.0f ? -1.0f : 1.0f) : t;
}
EXTMEM_DEV float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
EXTMEM_DEV float __saturatef(float x) { return __nvvm_saturate_f(x); }
EXTMEM_DEV float exp2f(float x) { return __nvvm_ex2_approx_f(x); }
EXTMEM_DEV float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
EXTMEM_DEV float expf(float x) { return __expf(x); }
EXTMEM_DEV float log2f(float x) { return __nvvm_lg2_approx_f(x); }
EXTMEM_DEV float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
EXTMEM_DEV float logf(float x) { return __logf(x); }
EXTMEM_DEV float log10f(float x) { return __nvvm_lg2_approx_f(x) * 0.30102999566398120f; }
EXTMEM_DEV float __powf(float a, float b) { return __nvvm_ex2_approx_f(b * __nvvm_lg2_approx_f(a)); }
EXTMEM_DEV float powf(float a, float b) { return __powf(a, b); }
EXTMEM_DEV float __sinf(float x) { return __nvvm_sin_approx_f(x); }
EXTMEM_DEV float __cosf(float x) { return __nvvm_cos_approx_f(x); }
EXTMEM_DEV float sinf(float x) { return __sinf(x); }
EXTMEM_DEV float cosf(float x) { return __cosf(x); }
EXTMEM_DEV float tanf(float x) { return __sinf(x) / __cosf(x); }
EXTMEM_DEV float tanhf(float x)
{
    float e = __expf(2.0f * x);
    return x > 20.0f ? 1.0f : x < -20.0f ? -1.0f : (e - 1.0f) / (e + 1.0f);
}

/* ---- printf, assert and the device heap ----
 * clang turns printf in device code into vprintf(format, packed arguments), the PTX-level
 * interface the engine implements; assert reaches __assertfail through glibc's __assert_fail. */
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ int printf(const char *, ...);
__device__ void __assertfail(const char *message, const char *file, unsigned int line, const char *function,
                             size_t charSize);
__device__ void *malloc(size_t) __attribute__((nothrow));
__device__ void free(void *) __attribute__((nothrow));
}
__device__ static __inline__ void __assert_fail(const char *message, const char *file, unsigned int line,
                                                const char *function)
{
    __assertfail(message, file, line, function, sizeof(char));
}

#undef EXTMEM_DEV

#endif /* EXTMEM_CUDA_BUILTINS_H */
