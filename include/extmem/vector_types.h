/*
 * extmem/vector_types.h: the built-in vector types of CUDA C++ (char1 .. double4, uint3,
 * dim3), written for extmem from the CUDA C++ Programming Guide ("Built-in Vector Types").
 *
 * Sizes and alignments are the Guide's table, so that a vector passed to a kernel has the
 * layout the PTX parameter expects. dim3 is a uint3 whose unspecified components are 1; in
 * C++ it converts to and from uint3 as in the Guide. Under clang's CUDA mode (__CUDA__) the
 * constructors are callable on host and device.
 */
#ifndef EXTMEM_VECTOR_TYPES_H
#define EXTMEM_VECTOR_TYPES_H

/* Code tests for NVIDIA's include guard. */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#endif

#if defined(__CUDA__)
#define EXTMEM_HD __attribute__((host)) __attribute__((device))
#else
#define EXTMEM_HD
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#define EXTMEM_ALIGN(n) __declspec(align(n))
#else
#define EXTMEM_ALIGN(n) __attribute__((aligned(n)))
#endif

/* One vector family: name1..name4 of component type t, with the Guide's alignments a1..a4
 * (a 3-vector is aligned as its component). */
#define EXTMEM_VEC(name, t, a1, a2, a4) \
    struct EXTMEM_ALIGN(a1) name##1 { t x; }; \
    struct EXTMEM_ALIGN(a2) name##2 { t x, y; }; \
    struct name##3 { t x, y, z; }; \
    struct EXTMEM_ALIGN(a4) name##4 { t x, y, z, w; }; \
    typedef struct name##1 name##1; \
    typedef struct name##2 name##2; \
    typedef struct name##3 name##3; \
    typedef struct name##4 name##4;

EXTMEM_VEC(char, signed char, 1, 2, 4)
EXTMEM_VEC(uchar, unsigned char, 1, 2, 4)
EXTMEM_VEC(short, short, 2, 4, 8)
EXTMEM_VEC(ushort, unsigned short, 2, 4, 8)
EXTMEM_VEC(int, int, 4, 8, 16)
EXTMEM_VEC(float, float, 4, 8, 16)
EXTMEM_VEC(longlong, long long, 8, 16, 16)
EXTMEM_VEC(ulonglong, unsigned long long, 8, 16, 16)
EXTMEM_VEC(double, double, 8, 16, 16)

/* uint3 is declared by hand: dim3 converts to it. */
struct EXTMEM_ALIGN(4) uint1 { unsigned int x; };
struct EXTMEM_ALIGN(8) uint2 { unsigned int x, y; };
struct uint3 { unsigned int x, y, z; };
struct EXTMEM_ALIGN(16) uint4 { unsigned int x, y, z, w; };
typedef struct uint1 uint1;
typedef struct uint2 uint2;
typedef struct uint3 uint3;
typedef struct uint4 uint4;

#undef EXTMEM_VEC

/* A launch's grid or block shape. Its layout is three unsigned ints, as the runtime's
 * cudaLaunchKernel receives it by value. */
struct dim3 {
    unsigned int x, y, z;
#if defined(__cplusplus)
    EXTMEM_HD constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    EXTMEM_HD constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    EXTMEM_HD constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};
typedef struct dim3 dim3;

#if defined(__cplusplus)
/* The make_<type>N helpers of the Guide, for the types the project's programs use. */
static inline EXTMEM_HD int2 make_int2(int x, int y) { return int2{x, y}; }
static inline EXTMEM_HD int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
static inline EXTMEM_HD uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
static inline EXTMEM_HD float2 make_float2(float x, float y) { return float2{x, y}; }
static inline EXTMEM_HD float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
static inline EXTMEM_HD float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
static inline EXTMEM_HD double2 make_double2(double x, double y) { return double2{x, y}; }
#endif

#endif /* EXTMEM_VECTOR_TYPES_H */
