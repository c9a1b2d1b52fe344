/*
 * tests/kernels/corpus/corpus.h: what the corpus kernels use, for both compilers.
 *
 * nvcc brings the CUDA runtime's device declarations itself (it includes cuda_runtime.h before
 * the source); only the f16/bf16 types need their headers. Debian's clang compiles with
 * -nocudainc -nocudalib (there is no CUDA installation on the CI machines), so this header
 * declares the few CUDA names the corpus uses, in terms of clang's NVPTX builtins
 * (clang/include/clang/Basic/BuiltinsNVPTX.def) or, where clang 14 has no builtin, one PTX
 * instruction in inline asm. Each definition follows the CUDA Math API / Programming Guide
 * description of the function it stands for, so both compilers' PTX computes the same thing.
 *
 * Every kernel has the same parameters (out, a, b, c, n): the runner (corpus_runner.c) passes
 * three input buffers and one output buffer to every case; a kernel casts them to its types.
 */
#ifndef CORPUS_H
#define CORPUS_H

#define KPARAMS void *out_, const void *a_, const void *b_, const void *c_, int n
#define KERNEL extern "C" __global__ void

#if defined(__NVCC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#else

#include <__clang_cuda_builtin_vars.h> /* threadIdx, blockIdx, blockDim, gridDim (clang's own) */

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __attribute__((always_inline)) inline
#define DI static __device__ __forceinline__

typedef unsigned int uint;
typedef unsigned long long ull;
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((aligned(8))) int2 { int x, y; };
struct __attribute__((aligned(16))) double2 { double x, y; };

/* ---- barriers and votes ---- */
DI int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
DI int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
DI int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
DI void __syncwarp(uint m) { __nvvm_bar_warp_sync(m); }
DI void __threadfence(void) { __nvvm_membar_gl(); }
DI int __shfl_sync(uint m, int v, int l, int w) { return __nvvm_shfl_sync_idx_i32(m, v, l, ((32 - w) << 8) | 0x1f); }
DI int __shfl_up_sync(uint m, int v, uint d, int w) { return __nvvm_shfl_sync_up_i32(m, v, d, (32 - w) << 8); }
DI int __shfl_down_sync(uint m, int v, uint d, int w) { return __nvvm_shfl_sync_down_i32(m, v, d, ((32 - w) << 8) | 0x1f); }
DI int __shfl_xor_sync(uint m, int v, int l, int w) { return __nvvm_shfl_sync_bfly_i32(m, v, l, ((32 - w) << 8) | 0x1f); }
DI float __shfl_down_sync(uint m, float v, uint d, int w) { return __nvvm_shfl_sync_down_f32(m, v, d, ((32 - w) << 8) | 0x1f); }
DI float __shfl_xor_sync(uint m, float v, int l, int w) { return __nvvm_shfl_sync_bfly_f32(m, v, l, ((32 - w) << 8) | 0x1f); }
DI uint __ballot_sync(uint m, int p) { return __nvvm_vote_ballot_sync(m, p); }
DI int __all_sync(uint m, int p) { return __nvvm_vote_all_sync(m, p); }
DI int __any_sync(uint m, int p) { return __nvvm_vote_any_sync(m, p); }
DI uint __activemask(void) { uint r; asm volatile("activemask.b32 %0;" : "=r"(r)); return r; }
DI uint __match_any_sync(uint m, uint v) { return __nvvm_match_any_sync_i32(m, v); }
DI uint __match_all_sync(uint m, uint v, int *p) { return __nvvm_match_all_sync_i32p(m, v, p); }
DI uint __reduce_add_sync(uint m, uint v) { return __nvvm_redux_sync_add(v, m); }
DI uint __reduce_min_sync(uint m, uint v) { return __nvvm_redux_sync_umin(v, m); }
DI uint __reduce_max_sync(uint m, uint v) { return __nvvm_redux_sync_umax(v, m); }
DI int __reduce_min_sync(uint m, int v) { return __nvvm_redux_sync_min(v, m); }
DI int __reduce_max_sync(uint m, int v) { return __nvvm_redux_sync_max(v, m); }
DI uint __reduce_and_sync(uint m, uint v) { return __nvvm_redux_sync_and(v, m); }
DI uint __reduce_or_sync(uint m, uint v) { return __nvvm_redux_sync_or(v, m); }
DI uint __reduce_xor_sync(uint m, uint v) { return __nvvm_redux_sync_xor(v, m); }

/* ---- atomics (generic addresses; the compiler may narrow them to .global/.shared) ---- */
DI int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
DI uint atomicAdd(uint *p, uint v) { return (uint)__nvvm_atom_add_gen_i((int *)p, (int)v); }
DI ull atomicAdd(ull *p, ull v) { return (ull)__nvvm_atom_add_gen_ll((long long *)p, (long long)v); }
DI float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
DI double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
DI int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
DI int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
DI int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
DI int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
DI uint atomicMin(uint *p, uint v) { return __nvvm_atom_min_gen_ui(p, v); }
DI uint atomicMax(uint *p, uint v) { return __nvvm_atom_max_gen_ui(p, v); }
DI long long atomicMin(long long *p, long long v) { return __nvvm_atom_min_gen_ll(p, v); }
DI long long atomicMax(long long *p, long long v) { return __nvvm_atom_max_gen_ll(p, v); }
DI ull atomicMin(ull *p, ull v) { return __nvvm_atom_min_gen_ull(p, v); }
DI ull atomicMax(ull *p, ull v) { return __nvvm_atom_max_gen_ull(p, v); }
DI uint atomicInc(uint *p, uint v) { return __nvvm_atom_inc_gen_ui(p, v); }
DI uint atomicDec(uint *p, uint v) { return __nvvm_atom_dec_gen_ui(p, v); }
DI int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
DI int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
DI int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
DI int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
DI ull atomicCAS(ull *p, ull c, ull v) { return (ull)__nvvm_atom_cas_gen_ll((long long *)p, (long long)c, (long long)v); }

/* ---- integer intrinsics (CUDA Math API, integer intrinsics) ---- */
DI int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
DI uint __umulhi(uint a, uint b) { return __nvvm_mulhi_ui(a, b); }
DI long long __mul64hi(long long a, long long b) { return __nvvm_mulhi_ll(a, b); }
DI ull __umul64hi(ull a, ull b) { return __nvvm_mulhi_ull(a, b); }
DI int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
DI uint __umul24(uint a, uint b) { return __nvvm_mul24_ui(a, b); }
DI int __popc(uint x) { return __builtin_popcount(x); }
DI int __popcll(ull x) { return __builtin_popcountll(x); }
/* clz of 0 is 32 (CUDA), which LLVM's ctlz with a defined zero gives: clz.b32 */
DI int __clz(int x) { return x == 0 ? 32 : __builtin_clz((uint)x); }
DI int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((ull)x); }
DI uint __brev(uint x) { return __builtin_bitreverse32(x); }
DI ull __brevll(ull x) { return __builtin_bitreverse64(x); }
DI int __ffs(int x) { return __builtin_ffs(x); }
/* CUDA's __byte_perm reads three bits of each selector nibble (no sign replication): nvcc
 * masks the selector with 0x7777 before its prmt.b32, and so does this. */
DI uint __byte_perm(uint x, uint y, uint s) { return (uint)__nvvm_prmt((int)x, (int)y, (int)(s & 0x7777u)); }
DI uint __sad(int x, int y, uint z) { return (uint)__nvvm_sad_i(x, y, (int)z); }
DI uint __usad(uint x, uint y, uint z) { return __nvvm_sad_ui(x, y, z); }
/* (x + y) >> 1 and (x + y + 1) >> 1 without overflow (CUDA Math API) */
DI int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
DI int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
DI uint __uhadd(uint x, uint y) { return (uint)(((ull)x + y) >> 1); }
DI uint __funnelshift_l(uint lo, uint hi, uint s) { uint r; asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r; }
DI uint __funnelshift_lc(uint lo, uint hi, uint s) { uint r; asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r; }
DI uint __funnelshift_r(uint lo, uint hi, uint s) { uint r; asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r; }
DI uint __funnelshift_rc(uint lo, uint hi, uint s) { uint r; asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r; }
DI int __dp4a(int a, int b, int c) { int r; asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
DI uint __dp4a(uint a, uint b, uint c) { uint r; asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
DI int __dp2a_lo(int a, int b, int c) { int r; asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
DI int min(int a, int b) { return a < b ? a : b; }
DI int max(int a, int b) { return a > b ? a : b; }
DI uint umin(uint a, uint b) { return a < b ? a : b; }
DI uint umax(uint a, uint b) { return a > b ? a : b; }
DI int abs(int a) { return a < 0 ? -a : a; }
DI long long llabs(long long a) { return a < 0 ? -a : a; }

/* ---- float arithmetic with a rounding (CUDA Math API, single/double intrinsics) ---- */
#define R4(F, B) DI float F##_rn(float a, float b) { return B##_rn_f(a, b); } \
    DI float F##_rz(float a, float b) { return B##_rz_f(a, b); } DI float F##_rd(float a, float b) { return B##_rm_f(a, b); } \
    DI float F##_ru(float a, float b) { return B##_rp_f(a, b); }
R4(__fadd, __nvvm_add) R4(__fmul, __nvvm_mul) R4(__fdiv, __nvvm_div)
#undef R4
#define R4(F, B) DI double F##_rn(double a, double b) { return B##_rn_d(a, b); } \
    DI double F##_rz(double a, double b) { return B##_rz_d(a, b); } DI double F##_rd(double a, double b) { return B##_rm_d(a, b); } \
    DI double F##_ru(double a, double b) { return B##_rp_d(a, b); }
R4(__dadd, __nvvm_add) R4(__dmul, __nvvm_mul) R4(__ddiv, __nvvm_div)
#undef R4
/* __fsub_*: a + (-b) under the same rounding, as CUDA defines it (sub.rz.f32 is the same). */
DI float __fsub_rn(float a, float b) { return __nvvm_add_rn_f(a, -b); }
DI float __fsub_rz(float a, float b) { return __nvvm_add_rz_f(a, -b); }
DI float __fsub_rd(float a, float b) { return __nvvm_add_rm_f(a, -b); }
DI float __fsub_ru(float a, float b) { return __nvvm_add_rp_f(a, -b); }
DI float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
DI float __fmaf_rz(float a, float b, float c) { return __nvvm_fma_rz_f(a, b, c); }
DI float __fmaf_rd(float a, float b, float c) { return __nvvm_fma_rm_f(a, b, c); }
DI float __fmaf_ru(float a, float b, float c) { return __nvvm_fma_rp_f(a, b, c); }
DI double __fma_rn(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
DI double __fma_rz(double a, double b, double c) { return __nvvm_fma_rz_d(a, b, c); }
DI double __fma_rd(double a, double b, double c) { return __nvvm_fma_rm_d(a, b, c); }
DI double __fma_ru(double a, double b, double c) { return __nvvm_fma_rp_d(a, b, c); }
DI float __frcp_rn(float a) { return __nvvm_rcp_rn_f(a); }
DI float __frcp_rz(float a) { return __nvvm_rcp_rz_f(a); }
DI float __frcp_rd(float a) { return __nvvm_rcp_rm_f(a); }
DI float __frcp_ru(float a) { return __nvvm_rcp_rp_f(a); }
DI float __fsqrt_rn(float a) { return __nvvm_sqrt_rn_f(a); }
DI float __fsqrt_rz(float a) { return __nvvm_sqrt_rz_f(a); }
DI float __fsqrt_rd(float a) { return __nvvm_sqrt_rm_f(a); }
DI float __fsqrt_ru(float a) { return __nvvm_sqrt_rp_f(a); }
DI double __drcp_rn(double a) { return __nvvm_rcp_rn_d(a); }
DI double __dsqrt_rn(double a) { return __nvvm_sqrt_rn_d(a); }
DI double __dsqrt_rz(double a) { return __nvvm_sqrt_rz_d(a); }
DI float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
DI float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
DI double fmin(double a, double b) { return __nvvm_fmin_d(a, b); }
DI double fmax(double a, double b) { return __nvvm_fmax_d(a, b); }
DI float fabsf(float a) { return __builtin_fabsf(a); }
DI double fabs(double a) { return __builtin_fabs(a); }
DI float copysignf(float a, float b) { return __builtin_copysignf(a, b); }
DI double copysign(double a, double b) { return __builtin_copysign(a, b); }
DI float floorf(float a) { return __builtin_floorf(a); }
DI float ceilf(float a) { return __builtin_ceilf(a); }
DI float truncf(float a) { return __builtin_truncf(a); }
DI float rintf(float a) { return __builtin_rintf(a); }
DI float roundf(float a) { return __builtin_roundf(a); }
DI double floor(double a) { return __builtin_floor(a); }
DI double ceil(double a) { return __builtin_ceil(a); }
DI double trunc(double a) { return __builtin_trunc(a); }
DI double rint(double a) { return __builtin_rint(a); }
DI float __saturatef(float a) { return __nvvm_saturate_f(a); }
DI float __int_as_float(int a) { return __builtin_bit_cast(float, a); }
DI int __float_as_int(float a) { return __builtin_bit_cast(int, a); }
DI uint __float_as_uint(float a) { return __builtin_bit_cast(uint, a); }
DI double __longlong_as_double(long long a) { return __builtin_bit_cast(double, a); }
DI long long __double_as_longlong(double a) { return __builtin_bit_cast(long long, a); }

/* ---- conversions (CUDA Math API, type casting intrinsics) ---- */
#define CV4(F, B, T, S) DI T F##_rn(S a) { return B##_rn(a); } DI T F##_rz(S a) { return B##_rz(a); } \
    DI T F##_rd(S a) { return B##_rm(a); } DI T F##_ru(S a) { return B##_rp(a); }
CV4(__float2int, __nvvm_f2i, int, float)
CV4(__float2uint, __nvvm_f2ui, uint, float)
CV4(__float2ll, __nvvm_f2ll, long long, float)
CV4(__float2ull, __nvvm_f2ull, ull, float)
CV4(__double2int, __nvvm_d2i, int, double)
CV4(__double2uint, __nvvm_d2ui, uint, double)
CV4(__double2ll, __nvvm_d2ll, long long, double)
CV4(__double2float, __nvvm_d2f, float, double)
#undef CV4
/* Integer to float: clang 14 turns __nvvm_i2f_rz and the other .rz builtins into
 * round-to-nearest conversions (found on the H100: cvt_int_float's rz outputs differed from
 * nvcc's), so these are one cvt each, written out. */
#define CV4(F, T, S, DT, ST, C, SC)                                                                 \
    DI T F##_rn(S a) { T r; asm("cvt.rn." DT "." ST " %0, %1;" : "=" C(r) : SC(a)); return r; }    \
    DI T F##_rz(S a) { T r; asm("cvt.rz." DT "." ST " %0, %1;" : "=" C(r) : SC(a)); return r; }    \
    DI T F##_rd(S a) { T r; asm("cvt.rm." DT "." ST " %0, %1;" : "=" C(r) : SC(a)); return r; }    \
    DI T F##_ru(S a) { T r; asm("cvt.rp." DT "." ST " %0, %1;" : "=" C(r) : SC(a)); return r; }
CV4(__int2float, float, int, "f32", "s32", "f", "r")
CV4(__uint2float, float, uint, "f32", "u32", "f", "r")
CV4(__ll2float, float, long long, "f32", "s64", "f", "l")
CV4(__ll2double, double, long long, "f64", "s64", "d", "l")
#undef CV4

/* ---- f16 and bf16 (cuda_fp16.h / cuda_bf16.h): bit patterns in 16-bit integers ---- */
struct __half { unsigned short x; };
struct __half2 { uint x; };
struct __nv_bfloat16 { unsigned short x; };
struct __nv_bfloat162 { uint x; };
DI __half __float2half_rn(float f) { __half h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.x) : "f"(f)); return h; }
DI __half __float2half_rz(float f) { __half h; asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h.x) : "f"(f)); return h; }
DI float __half2float(__half h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.x)); return f; }
DI __nv_bfloat16 __float2bfloat16(float f) { __nv_bfloat16 h; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h.x) : "f"(f)); return h; }
DI __nv_bfloat16 __float2bfloat16_rz(float f) { __nv_bfloat16 h; asm("cvt.rz.bf16.f32 %0, %1;" : "=h"(h.x) : "f"(f)); return h; }
DI float __bfloat162float(__nv_bfloat16 h) { return __builtin_bit_cast(float, (uint)h.x << 16); }
DI __half2 __hadd2(__half2 a, __half2 b) { __half2 r; asm("add.rn.f16x2 %0, %1, %2;" : "=r"(r.x) : "r"(a.x), "r"(b.x)); return r; }
DI __half2 __hmul2(__half2 a, __half2 b) { __half2 r; asm("mul.rn.f16x2 %0, %1, %2;" : "=r"(r.x) : "r"(a.x), "r"(b.x)); return r; }
DI __half2 __hfma2(__half2 a, __half2 b, __half2 c) { __half2 r; asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r.x) : "r"(a.x), "r"(b.x), "r"(c.x)); return r; }
DI __half2 __hmax2(__half2 a, __half2 b) { __half2 r; asm("max.f16x2 %0, %1, %2;" : "=r"(r.x) : "r"(a.x), "r"(b.x)); return r; }
DI __half __hadd(__half a, __half b) { __half r; asm("add.f16 %0, %1, %2;" : "=h"(r.x) : "h"(a.x), "h"(b.x)); return r; }
DI __half __hmul(__half a, __half b) { __half r; asm("mul.f16 %0, %1, %2;" : "=h"(r.x) : "h"(a.x), "h"(b.x)); return r; }
DI __half __hsub(__half a, __half b) { __half r; asm("sub.f16 %0, %1, %2;" : "=h"(r.x) : "h"(a.x), "h"(b.x)); return r; }
DI __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) { __nv_bfloat162 r; asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(r.x) : "r"(a.x), "r"(b.x), "r"(c.x)); return r; }
DI __half __ushort_as_half(unsigned short x) { __half h; h.x = x; return h; }
DI unsigned short __half_as_ushort(__half h) { return h.x; }
DI __nv_bfloat16 __ushort_as_bfloat16(unsigned short x) { __nv_bfloat16 h; h.x = x; return h; }
DI unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.x; }

/* ---- fast approximations (CUDA Math API "intrinsic functions"; PTX .approx, without .ftz as nvcc
 * emits them when -ftz is off) ---- */
DI float __sinf(float x) { return __nvvm_sin_approx_f(x); }
DI float __cosf(float x) { return __nvvm_cos_approx_f(x); }
DI float __log2f(float x) { return __nvvm_lg2_approx_f(x); }
/* __expf(x) is 2^(x log2 e) and __logf(x) is log2(x) ln 2 (Programming Guide, intrinsic functions). */
DI float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
DI float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
DI float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
DI float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
DI float tanh_approx(float x) { float r; asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
DI float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }

/* ---- read-only loads ---- */
DI float __ldg(const float *p) { return __nvvm_ldg_f(p); }
DI int __ldg(const int *p) { return __nvvm_ldg_i(p); }
DI float4 __ldg(const float4 *p) { float4 r; asm("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(p)); return r; }
#undef DI
#endif /* !__NVCC__ */

#if defined(__NVCC__)
typedef unsigned int uint;
typedef unsigned long long ull;
/* CUDA has no public intrinsic for PTX tanh.approx.f32 (sm_75): the same asm for both compilers. */
static __device__ __forceinline__ float tanh_approx(float x) { float r; asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
#endif

/* 2^x as one ex2.approx.ftz.f32 (CUDA's exp2f is the accurate function; there is no __exp2f). */
static __device__ __forceinline__ float exp2_approx(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }

/* The thread's index in the whole (1D) grid. */
#define GID ((int)(blockIdx.x * blockDim.x + threadIdx.x))

#endif
