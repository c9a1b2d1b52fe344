/*
 * Copies with a CUDA array on either side. The 2D and 3D copies stay in src/memory (copy.c,
 * copy3d.c) and reach an array side through image_resolve_side, the resolver this file gives
 * them (mem_array_hook, memory.h): an array is device memory with pitches, so once its region
 * is checked the copy is the memory engine's, in stream order like any copy (and recorded
 * into a capturing stream's graph as a memcpy node between device addresses). The 1D forms
 * (cuMemcpyHtoA, AtoH, AtoA, AtoD, DtoA and the async ones) are here.
 *
 * What the H100 answers (docs/probes/images/arrays/array_probe.out):
 *  - a 2D or 3D copy's array region is in bytes across (X, WidthInBytes) and in rows down
 *    (Y, Height), rows of 4x4 blocks for a BC format, slices or layers in depth (Z, Depth);
 *    it must lie inside the array: a 1D array (layered or not) has one row a layer, a 2D array
 *    one slice. Offsets and widths need not be multiples of the element. The descriptor's pitch
 *    and height on the array's side are ignored. A planar array as a whole is refused (its
 *    planes are arrays to copy). Each failure is CUDA_ERROR_INVALID_VALUE.
 *  - the 1D forms address row 0 of layer 0 only: offset + ByteCount must stay within Width
 *    elements (one row of blocks for BC), whatever the array's height.
 */
#include "image/array.h"
#include "exec/per_thread.h"

#include <stdio.h>
#include <string.h>

/* Rows of a level (1 for 1D; rows of blocks for BC) and its slices or layers. */
static size_t rows_of(const struct image_array *a)
{
    const struct image_format *f = image_format_info(a->desc.Format);
    size_t h = a->desc.Height ? a->desc.Height : 1;
    return f && f->block ? (h + 3) / 4 : h;
}

static size_t row_bytes_of(const struct image_array *a)
{
    const struct image_format *f = image_format_info(a->desc.Format);
    size_t w = a->desc.Width;
    return (f && f->block ? (w + 3) / 4 : w) * a->elem_bytes;
}

static size_t slices_of(const struct image_array *a) { return a->desc.Depth ? a->desc.Depth : 1; }

/* An array's handle for a copy: the lookup's code, or INVALID_VALUE for a planar array as a
 * whole. */
static CUresult copy_array(const char *fn, const char *what, CUarray h, struct image_array **out)
{
    CUresult r = image_array_get(fn, what, h, out);
    if (r)
        return r;
    const struct image_format *f = image_format_info((*out)->desc.Format);
    if (f && f->planes) {
        image_array_put(*out);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is a planar (video) array: copy its planes "
                    "(cuArrayGetPlane), as the driver requires", fn, what);
    }
    return CUDA_SUCCESS;
}

/* True when [at, at + n) fits in [0, limit). */
static bool fits(size_t at, size_t n, size_t limit) { return at <= limit && n <= limit - at; }

CUresult image_resolve_side(const char *fn, const char *side, CUarray array, size_t x, size_t y, size_t z,
                            size_t width, size_t height, size_t depth, uintptr_t *addr, size_t *pitch, size_t *slice)
{
    char what[16];
    snprintf(what, sizeof(what), "%sArray", side);
    struct image_array *a;
    CUresult r = copy_array(fn, what, array, &a);
    if (r)
        return r;
    size_t row_bytes = row_bytes_of(a), rows = rows_of(a), slices = slices_of(a);
    bool empty = width == 0 || height == 0 || depth == 0;
    if (!empty && !fits(x, width, row_bytes))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %sXInBytes %zu + WidthInBytes %zu runs past the array's row of %zu "
                 "bytes", fn, side, x, width, row_bytes);
    else if (!empty && !fits(y, height, rows))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %sY %zu + Height %zu runs past the array's %zu rows%s", fn, side, y,
                 height, rows, a->desc.Height ? "" : " (a 1D array has one)");
    else if (!empty && !fits(z, depth, slices))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %sZ %zu + Depth %zu runs past the array's %zu %s", fn, side, z, depth,
                 slices, a->desc.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP) ? "layers" : "slices");
    if (!r) {
        *pitch = (size_t)a->level.row_pitch;
        *slice = (size_t)a->level.slice_pitch;
        *addr = a->level.base + (empty ? 0 : z * *slice + y * *pitch + x);
    }
    image_array_put(a);
    return r;
}

CUresult image_array_element_bytes(const char *fn, const char *what, CUarray array, size_t *bytes)
{
    if (!array)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, what);
    struct image_array *a;
    CUresult r = copy_array(fn, what, array, &a);
    if (r)
        return r;
    *bytes = a->elem_bytes;
    image_array_put(a);
    return CUDA_SUCCESS;
}

/* ---- The 1D forms ---- */

/* The address of [offset, offset + n) in row 0 of the array. */
static CUresult row_address(const char *fn, const char *what, CUarray h, size_t offset, size_t n, uintptr_t *out)
{
    if (!h)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, what);
    struct image_array *a;
    CUresult r = copy_array(fn, what, h, &a);
    if (r)
        return r;
    size_t row = row_bytes_of(a);
    if (!fits(offset, n, row))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: offset %zu + ByteCount %zu runs past the array's first row of %zu "
                 "bytes (the 1D copies reach row 0 of layer 0 only, as on the driver)", fn, offset, n, row);
    else
        *out = a->level.base + offset;
    image_array_put(a);
    return r;
}

enum side { HOST, DEVICE, ARRAY };

/* One 1D copy: dst and src are a host pointer, a device pointer or an array with an offset. */
static CUresult copy1d(const char *fn, CUstream stream, bool sync, enum side dk, uintptr_t dst, CUarray da,
                       size_t doff, enum side sk, uintptr_t src, CUarray sa, size_t soff, size_t n)
{
    REQUIRE_INIT(fn);
    CUresult r = CUDA_SUCCESS;
    if (dk == ARRAY)
        r = row_address(fn, "dstArray", da, doff, n, &dst);
    else if (!dst)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, dk == HOST ? "dstHost" : "dstDevice");
    if (!r && sk == ARRAY)
        r = row_address(fn, "srcArray", sa, soff, n, &src);
    else if (!r && !src)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, sk == HOST ? "srcHost" : "srcDevice");
    if (r)
        return r;
    return mem_copy_bytes(fn, stream, sync, dst, src, n, dk != HOST, sk != HOST);
}

#define PT CU_STREAM_PER_THREAD

CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
    return copy1d("cuMemcpyHtoA", NULL, true, ARRAY, 0, dstArray, dstOffset, HOST, (uintptr_t)srcHost, NULL, 0,
                  ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    return copy1d("cuMemcpyAtoH", NULL, true, HOST, (uintptr_t)dstHost, NULL, 0, ARRAY, 0, srcArray, srcOffset,
                  ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    return copy1d("cuMemcpyAtoA", NULL, true, ARRAY, 0, dstArray, dstOffset, ARRAY, 0, srcArray, srcOffset, ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    return copy1d("cuMemcpyAtoD", NULL, true, DEVICE, (uintptr_t)dstDevice, NULL, 0, ARRAY, 0, srcArray, srcOffset,
                  ByteCount);
}
CUresult CUDAAPI cuMemcpyDtoA(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy1d("cuMemcpyDtoA", NULL, true, ARRAY, 0, dstArray, dstOffset, DEVICE, (uintptr_t)srcDevice, NULL, 0,
                  ByteCount);
}
CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                   CUstream hStream)
{
    return copy1d("cuMemcpyHtoAAsync", hStream, false, ARRAY, 0, dstArray, dstOffset, HOST, (uintptr_t)srcHost, NULL,
                  0, ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                   CUstream hStream)
{
    return copy1d("cuMemcpyAtoHAsync", hStream, false, HOST, (uintptr_t)dstHost, NULL, 0, ARRAY, 0, srcArray,
                  srcOffset, ByteCount);
}

/* ---- Per-thread default stream variants ---- */

EXTMEM_API CUresult CUDAAPI cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                                 size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray,
                                                 size_t srcOffset, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                                                 size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                                                 size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                                      size_t ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset,
                                                      size_t ByteCount, CUstream hStream);

CUresult CUDAAPI cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
    return copy1d("cuMemcpyHtoA", PT, true, ARRAY, 0, dstArray, dstOffset, HOST, (uintptr_t)srcHost, NULL, 0,
                  ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    return copy1d("cuMemcpyAtoH", PT, true, HOST, (uintptr_t)dstHost, NULL, 0, ARRAY, 0, srcArray, srcOffset,
                  ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount)
{
    return copy1d("cuMemcpyAtoA", PT, true, ARRAY, 0, dstArray, dstOffset, ARRAY, 0, srcArray, srcOffset, ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    return copy1d("cuMemcpyAtoD", PT, true, DEVICE, (uintptr_t)dstDevice, NULL, 0, ARRAY, 0, srcArray, srcOffset,
                  ByteCount);
}
CUresult CUDAAPI cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy1d("cuMemcpyDtoA", PT, true, ARRAY, 0, dstArray, dstOffset, DEVICE, (uintptr_t)srcDevice, NULL, 0,
                  ByteCount);
}
CUresult CUDAAPI cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                           CUstream hStream)
{
    return copy1d("cuMemcpyHtoAAsync", per_thread(hStream), false, ARRAY, 0, dstArray, dstOffset, HOST,
                  (uintptr_t)srcHost, NULL, 0, ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                           CUstream hStream)
{
    return copy1d("cuMemcpyAtoHAsync", per_thread(hStream), false, HOST, (uintptr_t)dstHost, NULL, 0, ARRAY, 0,
                  srcArray, srcOffset, ByteCount);
}
