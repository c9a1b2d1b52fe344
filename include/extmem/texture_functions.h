/*
 * extmem/texture_functions.h: the device functions that read texture objects and read and
 * write surface objects, for clang compiling CUDA with -nocudainc (included by
 * extmem/cuda_runtime.h under clang's CUDA mode).
 *
 * Written for extmem from the CUDA C++ Programming Guide ("Texture Object API", "Surface Object
 * API") and the PTX ISA (tex, tld4, suld.b, sust.b). Each function is one PTX instruction in
 * inline assembly, the instruction nvcc emits for the same call:
 *   - tex1Dfetch<T>(t, i)                 tex.1d.v4.K.s32     [t, {i}]
 *   - tex1D, tex2D, tex3D<T>(t, x ...)      tex.{1d,2d,3d}.v4.K.f32
 *   - tex1DLayered, tex2DLayered            tex.{a1d,a2d}       (the layer first)
 *   - texCubemap, texCubemapLayered         tex.{cube,acube}
 *   - tex1DLod, tex2DLod, tex3DLod, ...     tex.level....       (an explicit level of detail)
 *   - tex1DGrad, tex2DGrad, tex3DGrad       tex.grad....        (gradients)
 *   - tex2Dgather<T>(t, x, y, comp)         tld4.{r,g,b,a}.2d
 *   - surf{1D,2D,3D,1DLayered,2DLayered}read / write
 *                                           suld.b / sust.b with .trap, .clamp or .zero
 * K, the fetch's element type, is .f32 for float results (floats, and integers read as
 * normalized floats), .s32 for signed and .u32 for unsigned integer results: T picks it, as in
 * CUDA. A 3D coordinate is passed as PTX's four-element vector, its last element ignored.
 * Surface x coordinates are in bytes (suld.b/sust.b do not scale them), as in CUDA.
 */
#ifndef EXTMEM_TEXTURE_FUNCTIONS_H
#define EXTMEM_TEXTURE_FUNCTIONS_H

#if !defined(__CUDA__)
#error "extmem/texture_functions.h is for CUDA sources compiled by clang (-x cuda)"
#endif

#include "extmem/surface_types.h"
#include "extmem/texture_types.h"
#include "extmem/vector_types.h"

#define EXTMEM_TEXDEV static __device__ __inline__ __attribute__((always_inline))

/* ---- Texture fetches: the four components of one instruction, by element kind ----
 * One overload per kind (float, int, unsigned int results); `g` picks the geometry's coordinate
 * list, the same string for every kind. */
#define EXTMEM_TEX_OUT "{%[a], %[b], %[c], %[d]}"
#define EXTMEM_TEX_KINDS(X) X(float, "f32", "f") X(int, "s32", "r") X(unsigned int, "u32", "r")

#define EXTMEM_TEX_FETCH_FNS(R, K, C)                                                                          \
    EXTMEM_TEXDEV void extmem_tex_1dfetch(R *v, cudaTextureObject_t t, int x)                                   \
    {                                                                                                           \
        __asm__("tex.1d.v4." K ".s32 " EXTMEM_TEX_OUT ", [%[t], {%[x]}];"                                      \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "r"(x));                                                                      \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_1d(R *v, cudaTextureObject_t t, float x)                                      \
    {                                                                                                           \
        __asm__("tex.1d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x]}];"                                      \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x));                                                                      \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_2d(R *v, cudaTextureObject_t t, float x, float y)                             \
    {                                                                                                           \
        __asm__("tex.2d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y]}];"                                \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y));                                                          \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_3d(R *v, cudaTextureObject_t t, float x, float y, float z)                    \
    {                                                                                                           \
        __asm__("tex.3d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y], %[z], %[z]}];"                    \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [z] "f"(z));                                              \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_a1d(R *v, cudaTextureObject_t t, float x, int layer)                          \
    {                                                                                                           \
        __asm__("tex.a1d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[l], %[x]}];"                               \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [l] "r"(layer));                                                      \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_a2d(R *v, cudaTextureObject_t t, float x, float y, int layer)                 \
    {                                                                                                           \
        __asm__("tex.a2d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[l], %[x], %[y], %[y]}];"                   \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [l] "r"(layer));                                          \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_cube(R *v, cudaTextureObject_t t, float x, float y, float z)                  \
    {                                                                                                           \
        __asm__("tex.cube.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y], %[z], %[z]}];"                  \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [z] "f"(z));                                              \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_acube(R *v, cudaTextureObject_t t, float x, float y, float z, int layer)      \
    {                                                                                                           \
        __asm__("tex.acube.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[l], %[x], %[y], %[z]}];"                 \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [z] "f"(z), [l] "r"(layer));                              \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_level_1d(R *v, cudaTextureObject_t t, float x, float lod)                     \
    {                                                                                                           \
        __asm__("tex.level.1d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x]}], %[lod];"                        \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [lod] "f"(lod));                                                      \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_level_2d(R *v, cudaTextureObject_t t, float x, float y, float lod)            \
    {                                                                                                           \
        __asm__("tex.level.2d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y]}], %[lod];"                  \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [lod] "f"(lod));                                          \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_level_3d(R *v, cudaTextureObject_t t, float x, float y, float z, float lod)   \
    {                                                                                                           \
        __asm__("tex.level.3d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y], %[z], %[z]}], %[lod];"      \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [z] "f"(z), [lod] "f"(lod));                              \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_level_a1d(R *v, cudaTextureObject_t t, float x, int layer, float lod)         \
    {                                                                                                           \
        __asm__("tex.level.a1d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[l], %[x]}], %[lod];"                 \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [l] "r"(layer), [lod] "f"(lod));                                      \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_level_a2d(R *v, cudaTextureObject_t t, float x, float y, int layer, float lod) \
    {                                                                                                           \
        __asm__("tex.level.a2d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[l], %[x], %[y], %[y]}], %[lod];"     \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [l] "r"(layer), [lod] "f"(lod));                          \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_level_cube(R *v, cudaTextureObject_t t, float x, float y, float z, float lod) \
    {                                                                                                           \
        __asm__("tex.level.cube.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y], %[z], %[z]}], %[lod];"    \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [z] "f"(z), [lod] "f"(lod));                              \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_grad_1d(R *v, cudaTextureObject_t t, float x, float dx, float dy)             \
    {                                                                                                           \
        __asm__("tex.grad.1d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x]}], {%[dx]}, {%[dy]};"               \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [dx] "f"(dx), [dy] "f"(dy));                                          \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_grad_2d(R *v, cudaTextureObject_t t, float x, float y, float2 dx, float2 dy)  \
    {                                                                                                           \
        __asm__("tex.grad.2d.v4." K ".f32 " EXTMEM_TEX_OUT                                                     \
                ", [%[t], {%[x], %[y]}], {%[dxx], %[dxy]}, {%[dyx], %[dyy]};"                                   \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [dxx] "f"(dx.x), [dxy] "f"(dx.y), [dyx] "f"(dy.x),        \
                  [dyy] "f"(dy.y));                                                                             \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_grad_3d(R *v, cudaTextureObject_t t, float x, float y, float z, float4 dx,    \
                                          float4 dy)                                                            \
    {                                                                                                           \
        __asm__("tex.grad.3d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y], %[z], %[z]}], "              \
                "{%[dxx], %[dxy], %[dxz], %[dxz]}, {%[dyx], %[dyy], %[dyz], %[dyz]};"                           \
                : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                            \
                : [t] "l"(t), [x] "f"(x), [y] "f"(y), [z] "f"(z), [dxx] "f"(dx.x), [dxy] "f"(dx.y),             \
                  [dxz] "f"(dx.z), [dyx] "f"(dy.x), [dyy] "f"(dy.y), [dyz] "f"(dy.z));                          \
    }                                                                                                           \
    EXTMEM_TEXDEV void extmem_tex_gather(R *v, cudaTextureObject_t t, float x, float y, int comp)               \
    {                                                                                                           \
        switch (comp) {                                                                                         \
        case 1:                                                                                                 \
            __asm__("tld4.g.2d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y]}];"                         \
                    : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                        \
                    : [t] "l"(t), [x] "f"(x), [y] "f"(y));                                                      \
            break;                                                                                              \
        case 2:                                                                                                 \
            __asm__("tld4.b.2d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y]}];"                         \
                    : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                        \
                    : [t] "l"(t), [x] "f"(x), [y] "f"(y));                                                      \
            break;                                                                                              \
        case 3:                                                                                                 \
            __asm__("tld4.a.2d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y]}];"                         \
                    : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                        \
                    : [t] "l"(t), [x] "f"(x), [y] "f"(y));                                                      \
            break;                                                                                              \
        default:                                                                                                \
            __asm__("tld4.r.2d.v4." K ".f32 " EXTMEM_TEX_OUT ", [%[t], {%[x], %[y]}];"                         \
                    : [a] "=" C(v[0]), [b] "=" C(v[1]), [c] "=" C(v[2]), [d] "=" C(v[3])                        \
                    : [t] "l"(t), [x] "f"(x), [y] "f"(y));                                                      \
            break;                                                                                              \
        }                                                                                                       \
    }
EXTMEM_TEX_KINDS(EXTMEM_TEX_FETCH_FNS)
#undef EXTMEM_TEX_FETCH_FNS
#undef EXTMEM_TEX_KINDS
#undef EXTMEM_TEX_OUT

/* ---- What each result type reads ----
 * raw: the fetch's element kind; make: T from the four components. */
template <class T> struct extmem_tex_traits;
#define EXTMEM_TEX_SCALAR(T, R)                                                                        \
    template <> struct extmem_tex_traits<T> {                                                          \
        typedef R raw;                                                                                 \
        static __device__ __inline__ T make(const R *v) { return (T)v[0]; }                            \
    };
#define EXTMEM_TEX_VEC1(T, R, E)                                                                       \
    template <> struct extmem_tex_traits<T> {                                                          \
        typedef R raw;                                                                                 \
        static __device__ __inline__ T make(const R *v) { T r; r.x = (E)v[0]; return r; }               \
    };
#define EXTMEM_TEX_VEC2(T, R, E)                                                                       \
    template <> struct extmem_tex_traits<T> {                                                          \
        typedef R raw;                                                                                 \
        static __device__ __inline__ T make(const R *v) { T r; r.x = (E)v[0]; r.y = (E)v[1]; return r; } \
    };
#define EXTMEM_TEX_VEC4(T, R, E)                                                                       \
    template <> struct extmem_tex_traits<T> {                                                          \
        typedef R raw;                                                                                 \
        static __device__ __inline__ T make(const R *v)                                                \
        {                                                                                              \
            T r;                                                                                       \
            r.x = (E)v[0];                                                                             \
            r.y = (E)v[1];                                                                             \
            r.z = (E)v[2];                                                                             \
            r.w = (E)v[3];                                                                             \
            return r;                                                                                  \
        }                                                                                              \
    };
#define EXTMEM_TEX_FAMILY(S, V, R)                                                                     \
    EXTMEM_TEX_VEC1(V##1, R, S) EXTMEM_TEX_VEC2(V##2, R, S) EXTMEM_TEX_VEC4(V##4, R, S)
EXTMEM_TEX_SCALAR(float, float)
EXTMEM_TEX_SCALAR(char, int)
EXTMEM_TEX_SCALAR(signed char, int)
EXTMEM_TEX_SCALAR(unsigned char, unsigned int)
EXTMEM_TEX_SCALAR(short, int)
EXTMEM_TEX_SCALAR(unsigned short, unsigned int)
EXTMEM_TEX_SCALAR(int, int)
EXTMEM_TEX_SCALAR(unsigned int, unsigned int)
EXTMEM_TEX_FAMILY(float, float, float)
EXTMEM_TEX_FAMILY(signed char, char, int)
EXTMEM_TEX_FAMILY(unsigned char, uchar, unsigned int)
EXTMEM_TEX_FAMILY(short, short, int)
EXTMEM_TEX_FAMILY(unsigned short, ushort, unsigned int)
EXTMEM_TEX_FAMILY(int, int, int)
EXTMEM_TEX_FAMILY(unsigned int, uint, unsigned int)
#undef EXTMEM_TEX_FAMILY
#undef EXTMEM_TEX_VEC4
#undef EXTMEM_TEX_VEC2
#undef EXTMEM_TEX_VEC1
#undef EXTMEM_TEX_SCALAR

/* ---- The texture object API ---- */
#define EXTMEM_TEX_CALL(fn, ...)                                                                       \
    typename extmem_tex_traits<T>::raw v[4];                                                           \
    fn(v, __VA_ARGS__);                                                                                \
    return extmem_tex_traits<T>::make(v)

template <class T> static __device__ __inline__ T tex1Dfetch(cudaTextureObject_t t, int x)
{
    EXTMEM_TEX_CALL(extmem_tex_1dfetch, t, x);
}
template <class T> static __device__ __inline__ T tex1D(cudaTextureObject_t t, float x)
{
    EXTMEM_TEX_CALL(extmem_tex_1d, t, x);
}
template <class T> static __device__ __inline__ T tex2D(cudaTextureObject_t t, float x, float y)
{
    EXTMEM_TEX_CALL(extmem_tex_2d, t, x, y);
}
template <class T> static __device__ __inline__ T tex3D(cudaTextureObject_t t, float x, float y, float z)
{
    EXTMEM_TEX_CALL(extmem_tex_3d, t, x, y, z);
}
template <class T> static __device__ __inline__ T tex1DLayered(cudaTextureObject_t t, float x, int layer)
{
    EXTMEM_TEX_CALL(extmem_tex_a1d, t, x, layer);
}
template <class T> static __device__ __inline__ T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer)
{
    EXTMEM_TEX_CALL(extmem_tex_a2d, t, x, y, layer);
}
template <class T> static __device__ __inline__ T texCubemap(cudaTextureObject_t t, float x, float y, float z)
{
    EXTMEM_TEX_CALL(extmem_tex_cube, t, x, y, z);
}
template <class T>
static __device__ __inline__ T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer)
{
    EXTMEM_TEX_CALL(extmem_tex_acube, t, x, y, z, layer);
}
template <class T> static __device__ __inline__ T tex1DLod(cudaTextureObject_t t, float x, float level)
{
    EXTMEM_TEX_CALL(extmem_tex_level_1d, t, x, level);
}
template <class T> static __device__ __inline__ T tex2DLod(cudaTextureObject_t t, float x, float y, float level)
{
    EXTMEM_TEX_CALL(extmem_tex_level_2d, t, x, y, level);
}
template <class T>
static __device__ __inline__ T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float level)
{
    EXTMEM_TEX_CALL(extmem_tex_level_3d, t, x, y, z, level);
}
template <class T>
static __device__ __inline__ T tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float level)
{
    EXTMEM_TEX_CALL(extmem_tex_level_a1d, t, x, layer, level);
}
template <class T>
static __device__ __inline__ T tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float level)
{
    EXTMEM_TEX_CALL(extmem_tex_level_a2d, t, x, y, layer, level);
}
template <class T>
static __device__ __inline__ T texCubemapLod(cudaTextureObject_t t, float x, float y, float z, float level)
{
    EXTMEM_TEX_CALL(extmem_tex_level_cube, t, x, y, z, level);
}
template <class T> static __device__ __inline__ T tex1DGrad(cudaTextureObject_t t, float x, float dx, float dy)
{
    EXTMEM_TEX_CALL(extmem_tex_grad_1d, t, x, dx, dy);
}
template <class T>
static __device__ __inline__ T tex2DGrad(cudaTextureObject_t t, float x, float y, float2 dx, float2 dy)
{
    EXTMEM_TEX_CALL(extmem_tex_grad_2d, t, x, y, dx, dy);
}
template <class T>
static __device__ __inline__ T tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4 dx, float4 dy)
{
    EXTMEM_TEX_CALL(extmem_tex_grad_3d, t, x, y, z, dx, dy);
}
/* comp: the channel gathered from each of the four texels (0 r, 1 g, 2 b, 3 a). */
template <class T> static __device__ __inline__ T tex2Dgather(cudaTextureObject_t t, float x, float y, int comp = 0)
{
    EXTMEM_TEX_CALL(extmem_tex_gather, t, x, y, comp);
}
/* The forms that write through a pointer. */
template <class T> static __device__ __inline__ void tex1Dfetch(T *r, cudaTextureObject_t t, int x)
{
    *r = tex1Dfetch<T>(t, x);
}
template <class T> static __device__ __inline__ void tex1D(T *r, cudaTextureObject_t t, float x) { *r = tex1D<T>(t, x); }
template <class T> static __device__ __inline__ void tex2D(T *r, cudaTextureObject_t t, float x, float y)
{
    *r = tex2D<T>(t, x, y);
}
template <class T> static __device__ __inline__ void tex3D(T *r, cudaTextureObject_t t, float x, float y, float z)
{
    *r = tex3D<T>(t, x, y, z);
}
template <class T> static __device__ __inline__ void tex2DLod(T *r, cudaTextureObject_t t, float x, float y, float l)
{
    *r = tex2DLod<T>(t, x, y, l);
}
#undef EXTMEM_TEX_CALL

/* ---- Surfaces: suld.b and sust.b ----
 * One overload per element size (b8 and b16 in 16-bit registers, b32, b64) and count (1, 2, 4:
 * .v2, .v4); the geometry and the boundary mode are constants the caller's call folds. */
#define EXTMEM_SU_GEOMS(X, ...)                                                                        \
    X(0, "1d", "{%[x]}", __VA_ARGS__)                                                                  \
    X(1, "2d", "{%[x], %[y]}", __VA_ARGS__)                                                            \
    X(2, "3d", "{%[x], %[y], %[z], %[z]}", __VA_ARGS__)                                                \
    X(3, "a1d", "{%[l], %[x]}", __VA_ARGS__)                                                           \
    X(4, "a2d", "{%[l], %[x], %[y], %[y]}", __VA_ARGS__)
#define EXTMEM_SU_IN [s] "l"(s), [x] "r"(x), [y] "r"(y), [z] "r"(z), [l] "r"(layer)

#define EXTMEM_SULD_CASE(G, GEOM, COORDS, VEC, BITS, OUTS, ...)                                        \
    if (g == G) {                                                                                      \
        if (mode == cudaBoundaryModeZero)                                                              \
            __asm__ volatile("suld.b." GEOM VEC "." BITS ".zero " OUTS ", [%[s], " COORDS "];"         \
                             : __VA_ARGS__ : EXTMEM_SU_IN : "memory");                                 \
        else if (mode == cudaBoundaryModeClamp)                                                        \
            __asm__ volatile("suld.b." GEOM VEC "." BITS ".clamp " OUTS ", [%[s], " COORDS "];"        \
                             : __VA_ARGS__ : EXTMEM_SU_IN : "memory");                                 \
        else                                                                                           \
            __asm__ volatile("suld.b." GEOM VEC "." BITS ".trap " OUTS ", [%[s], " COORDS "];"         \
                             : __VA_ARGS__ : EXTMEM_SU_IN : "memory");                                 \
        return;                                                                                        \
    }
#define EXTMEM_SUST_CASE(G, GEOM, COORDS, VEC, BITS, INS, ...)                                         \
    if (g == G) {                                                                                      \
        if (mode == cudaBoundaryModeZero)                                                              \
            __asm__ volatile("sust.b." GEOM VEC "." BITS ".zero [%[s], " COORDS "], " INS ";"          \
                             : : EXTMEM_SU_IN, __VA_ARGS__ : "memory");                                \
        else if (mode == cudaBoundaryModeClamp)                                                        \
            __asm__ volatile("sust.b." GEOM VEC "." BITS ".clamp [%[s], " COORDS "], " INS ";"         \
                             : : EXTMEM_SU_IN, __VA_ARGS__ : "memory");                                \
        else                                                                                           \
            __asm__ volatile("sust.b." GEOM VEC "." BITS ".trap [%[s], " COORDS "], " INS ";"          \
                             : : EXTMEM_SU_IN, __VA_ARGS__ : "memory");                                \
        return;                                                                                        \
    }

#define EXTMEM_SU_FNS(R, BITS, C)                                                                      \
    EXTMEM_TEXDEV void extmem_suld(R *d, int g, int mode, cudaSurfaceObject_t s, int x, int y, int z, int layer, \
                                   int n)                                                              \
    {                                                                                                  \
        if (n == 1) {                                                                                  \
            EXTMEM_SU_GEOMS(EXTMEM_SULD_CASE, "", BITS, "{%[a]}", [a] "=" C(d[0]))                       \
        } else if (n == 2) {                                                                           \
            EXTMEM_SU_GEOMS(EXTMEM_SULD_CASE, ".v2", BITS, "{%[a], %[b]}", [a] "=" C(d[0]),            \
                            [b] "=" C(d[1]))                                                           \
        } else {                                                                                       \
            EXTMEM_SU_GEOMS(EXTMEM_SULD_CASE, ".v4", BITS, "{%[a], %[b], %[c], %[d]}",                  \
                            [a] "=" C(d[0]), [b] "=" C(d[1]), [c] "=" C(d[2]), [d] "=" C(d[3]))        \
        }                                                                                              \
    }                                                                                                  \
    EXTMEM_TEXDEV void extmem_sust(const R *d, int g, int mode, cudaSurfaceObject_t s, int x, int y, int z,      \
                                   int layer, int n)                                                   \
    {                                                                                                  \
        if (n == 1) {                                                                                  \
            EXTMEM_SU_GEOMS(EXTMEM_SUST_CASE, "", BITS, "{%[a]}", [a] C(d[0]))                           \
        } else if (n == 2) {                                                                           \
            EXTMEM_SU_GEOMS(EXTMEM_SUST_CASE, ".v2", BITS, "{%[a], %[b]}", [a] C(d[0]), [b] C(d[1]))   \
        } else {                                                                                       \
            EXTMEM_SU_GEOMS(EXTMEM_SUST_CASE, ".v4", BITS, "{%[a], %[b], %[c], %[d]}", [a] C(d[0]),     \
                            [b] C(d[1]), [c] C(d[2]), [d] C(d[3]))                                     \
        }                                                                                              \
    }
/* b8 and b16 both travel in 16-bit registers; the overloads differ by a tag. */
struct extmem_su_b8 {
    unsigned short v;
};
EXTMEM_SU_FNS(unsigned short, "b16", "h")
EXTMEM_SU_FNS(unsigned int, "b32", "r")
EXTMEM_SU_FNS(unsigned long long, "b64", "l")
#undef EXTMEM_SU_FNS
EXTMEM_TEXDEV void extmem_suld(extmem_su_b8 *d, int g, int mode, cudaSurfaceObject_t s, int x, int y, int z, int layer,
                               int n)
{
    if (n == 1) {
        EXTMEM_SU_GEOMS(EXTMEM_SULD_CASE, "", "b8", "{%[a]}", [a] "=h"(d[0].v))
    } else if (n == 2) {
        EXTMEM_SU_GEOMS(EXTMEM_SULD_CASE, ".v2", "b8", "{%[a], %[b]}", [a] "=h"(d[0].v), [b] "=h"(d[1].v))
    } else {
        EXTMEM_SU_GEOMS(EXTMEM_SULD_CASE, ".v4", "b8", "{%[a], %[b], %[c], %[d]}", [a] "=h"(d[0].v),
                        [b] "=h"(d[1].v), [c] "=h"(d[2].v), [d] "=h"(d[3].v))
    }
}
EXTMEM_TEXDEV void extmem_sust(const extmem_su_b8 *d, int g, int mode, cudaSurfaceObject_t s, int x, int y, int z,
                               int layer, int n)
{
    if (n == 1) {
        EXTMEM_SU_GEOMS(EXTMEM_SUST_CASE, "", "b8", "{%[a]}", [a] "h"(d[0].v))
    } else if (n == 2) {
        EXTMEM_SU_GEOMS(EXTMEM_SUST_CASE, ".v2", "b8", "{%[a], %[b]}", [a] "h"(d[0].v), [b] "h"(d[1].v))
    } else {
        EXTMEM_SU_GEOMS(EXTMEM_SUST_CASE, ".v4", "b8", "{%[a], %[b], %[c], %[d]}", [a] "h"(d[0].v),
                        [b] "h"(d[1].v), [c] "h"(d[2].v), [d] "h"(d[3].v))
    }
}
#undef EXTMEM_SULD_CASE
#undef EXTMEM_SUST_CASE
#undef EXTMEM_SU_IN
#undef EXTMEM_SU_GEOMS

/* A type's elements as surface words: the element size picks the register kind, the count
 * (1, 2 or 4; a 16-byte type of one element is four 32-bit words) the vector. */
template <int B> struct extmem_su_word;
template <> struct extmem_su_word<1> { typedef extmem_su_b8 type; };
template <> struct extmem_su_word<2> { typedef unsigned short type; };
template <> struct extmem_su_word<4> { typedef unsigned int type; };
template <> struct extmem_su_word<8> { typedef unsigned long long type; };
template <class T> struct extmem_su_shape {
    /* Vector types are 1, 2 or 4 equal elements; scalars one. Structures of 16 bytes go as
     * four 32-bit words, as nvcc moves them. */
    static constexpr int bytes = (int)sizeof(T);
    static constexpr int elem = bytes == 16 ? 4 : bytes >= 8 ? 8 : bytes;
    static constexpr int n = bytes / elem;
};
#define EXTMEM_SU_ELEM(T, E) \
    template <> struct extmem_su_shape<T> { static constexpr int elem = E, n = (int)sizeof(T) / E; };
EXTMEM_SU_ELEM(char2, 1) EXTMEM_SU_ELEM(uchar2, 1) EXTMEM_SU_ELEM(char4, 1) EXTMEM_SU_ELEM(uchar4, 1)
EXTMEM_SU_ELEM(short2, 2) EXTMEM_SU_ELEM(ushort2, 2) EXTMEM_SU_ELEM(short4, 2) EXTMEM_SU_ELEM(ushort4, 2)
EXTMEM_SU_ELEM(int2, 4) EXTMEM_SU_ELEM(uint2, 4) EXTMEM_SU_ELEM(float2, 4)
EXTMEM_SU_ELEM(int4, 4) EXTMEM_SU_ELEM(uint4, 4) EXTMEM_SU_ELEM(float4, 4)
EXTMEM_SU_ELEM(longlong2, 8) EXTMEM_SU_ELEM(ulonglong2, 8) EXTMEM_SU_ELEM(double2, 8)
#undef EXTMEM_SU_ELEM

/* A type's bytes to and from the words the instructions move: 8-bit elements travel one per
 * 16-bit register, so each is narrowed or widened on its own (a union would pair two bytes in
 * one word); wider elements are the words themselves. */
template <class T, class W> struct extmem_su_pack {
    static __device__ __inline__ T from(const W *w)
    {
        union {
            W w[4];
            T t;
        } u;
        for (int i = 0; i < 4; ++i)
            u.w[i] = w[i];
        return u.t;
    }
    static __device__ __inline__ void to(T t, W *w)
    {
        union {
            W w[4];
            T t;
        } u;
        u.t = t;
        for (int i = 0; i < 4; ++i)
            w[i] = u.w[i];
    }
};
template <class T> struct extmem_su_pack<T, extmem_su_b8> {
    static __device__ __inline__ T from(const extmem_su_b8 *w)
    {
        union {
            unsigned char b[4];
            T t;
        } u;
        for (int i = 0; i < 4; ++i)
            u.b[i] = (unsigned char)w[i].v;
        return u.t;
    }
    static __device__ __inline__ void to(T t, extmem_su_b8 *w)
    {
        union {
            unsigned char b[4];
            T t;
        } u;
        u.t = t;
        for (int i = 0; i < 4; ++i)
            w[i].v = u.b[i];
    }
};

template <class T>
static __device__ __inline__ T extmem_surf_read(int g, cudaSurfaceObject_t s, int x, int y, int z, int layer, int mode)
{
    typedef typename extmem_su_word<extmem_su_shape<T>::elem>::type W;
    W w[4] = {};
    extmem_suld(w, g, mode, s, x, y, z, layer, extmem_su_shape<T>::n);
    return extmem_su_pack<T, W>::from(w);
}
template <class T>
static __device__ __inline__ void extmem_surf_write(T data, int g, cudaSurfaceObject_t s, int x, int y, int z,
                                                    int layer, int mode)
{
    typedef typename extmem_su_word<extmem_su_shape<T>::elem>::type W;
    W w[4] = {};
    extmem_su_pack<T, W>::to(data, w);
    extmem_sust(w, g, mode, s, x, y, z, layer, extmem_su_shape<T>::n);
}

/* ---- The surface object API (x in bytes) ---- */
template <class T>
static __device__ __inline__ T surf1Dread(cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    return extmem_surf_read<T>(0, s, x, 0, 0, 0, m);
}
template <class T>
static __device__ __inline__ T surf2Dread(cudaSurfaceObject_t s, int x, int y,
                                          cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    return extmem_surf_read<T>(1, s, x, y, 0, 0, m);
}
template <class T>
static __device__ __inline__ T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z,
                                          cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    return extmem_surf_read<T>(2, s, x, y, z, 0, m);
}
template <class T>
static __device__ __inline__ T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer,
                                                 cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    return extmem_surf_read<T>(3, s, x, 0, 0, layer, m);
}
template <class T>
static __device__ __inline__ T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer,
                                                 cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    return extmem_surf_read<T>(4, s, x, y, 0, layer, m);
}
template <class T>
static __device__ __inline__ void surf1Dread(T *r, cudaSurfaceObject_t s, int x,
                                             cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    *r = surf1Dread<T>(s, x, m);
}
template <class T>
static __device__ __inline__ void surf2Dread(T *r, cudaSurfaceObject_t s, int x, int y,
                                             cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    *r = surf2Dread<T>(s, x, y, m);
}
template <class T>
static __device__ __inline__ void surf3Dread(T *r, cudaSurfaceObject_t s, int x, int y, int z,
                                             cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    *r = surf3Dread<T>(s, x, y, z, m);
}
template <class T>
static __device__ __inline__ void surf1DLayeredread(T *r, cudaSurfaceObject_t s, int x, int layer,
                                                    cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    *r = surf1DLayeredread<T>(s, x, layer, m);
}
template <class T>
static __device__ __inline__ void surf2DLayeredread(T *r, cudaSurfaceObject_t s, int x, int y, int layer,
                                                    cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    *r = surf2DLayeredread<T>(s, x, y, layer, m);
}
template <class T>
static __device__ __inline__ void surf1Dwrite(T data, cudaSurfaceObject_t s, int x,
                                              cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    extmem_surf_write<T>(data, 0, s, x, 0, 0, 0, m);
}
template <class T>
static __device__ __inline__ void surf2Dwrite(T data, cudaSurfaceObject_t s, int x, int y,
                                              cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    extmem_surf_write<T>(data, 1, s, x, y, 0, 0, m);
}
template <class T>
static __device__ __inline__ void surf3Dwrite(T data, cudaSurfaceObject_t s, int x, int y, int z,
                                              cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    extmem_surf_write<T>(data, 2, s, x, y, z, 0, m);
}
template <class T>
static __device__ __inline__ void surf1DLayeredwrite(T data, cudaSurfaceObject_t s, int x, int layer,
                                                     cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    extmem_surf_write<T>(data, 3, s, x, 0, 0, layer, m);
}
template <class T>
static __device__ __inline__ void surf2DLayeredwrite(T data, cudaSurfaceObject_t s, int x, int y, int layer,
                                                     cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
    extmem_surf_write<T>(data, 4, s, x, y, 0, layer, m);
}

#undef EXTMEM_TEXDEV

#endif /* EXTMEM_TEXTURE_FUNCTIONS_H */
