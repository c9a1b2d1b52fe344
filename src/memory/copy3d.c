/*
 * 3D, peer and batch copies over linear memory. Each call turns its descriptor into regions
 * (struct copy_region: layers of pitched rows) and hands them to copy.c's engine, which checks
 * every side against the address maps, orders the copy in its stream and spreads a large one
 * over the worker pool, as it does for 1D and 2D copies.
 *
 * Every field is checked at the door, with the rules of cuMemcpy3D's documentation: a pitch
 * below X + WidthInBytes (where there is more than one row, or the pitch is given), a layer
 * height below Y + Height (where there is more than one layer, or the height is given), a
 * pitch above CU_DEVICE_ATTRIBUTE_MAX_PITCH, a LOD or reserved field that is not 0 are
 * CUDA_ERROR_INVALID_VALUE; so is a Z offset with no layer height to step by (the address
 * would ignore it). A CUDA array side is resolved by src/image (mem_array_hook; batch copies
 * ask mem_array_element_hook for the element size their extents count in): its region
 * must lie inside the array, whose own pitches are used.
 *
 * The software device is one device: the contexts of a peer copy are checked as handles, and
 * the copy is an ordinary one between addresses of the same device.
 */
#include "memory/copy.h"
#include "exec/exec.h"
#include "exec/per_thread.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CU_DEVICE_ATTRIBUTE_MAX_PITCH, as the H100 reports it (src/device/device.c). */
#define MAX_PITCH ((size_t)2147483647)

/* One side of a 3D copy, as CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER describe it. */
struct side3d {
    const char *name; /* "src" or "dst" */
    CUmemorytype type;
    const void *host;
    CUdeviceptr device;
    CUarray array;
    size_t x, y, z, lod, pitch, height;
};

/* Checks one side of a width x height x depth copy; its first byte, row pitch and layer pitch
 * go to *addr, *pitch, *slice, and whether the call names it a device pointer to *device. */
static CUresult side3d_address(const char *fn, const struct side3d *s, size_t width, size_t height, size_t depth,
                               uintptr_t *addr, size_t *pitch, size_t *slice, bool *device)
{
    uintptr_t base;
    *device = s->type == CU_MEMORYTYPE_DEVICE; /* UNIFIED takes any address, as cuMemcpy does */
    switch (s->type) {
    case CU_MEMORYTYPE_HOST: base = (uintptr_t)s->host; break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: base = (uintptr_t)s->device; break;
    case CU_MEMORYTYPE_ARRAY:
        /* The array's own pitches; the descriptor's pitch and height are ignored, as the
         * driver ignores them (docs/probes/images/arrays). A level is an array of its own. */
        *device = true;
        if (s->lod)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sLOD is %zu: it must be 0 (a mipmapped array's level is an "
                        "array of its own, cuMipmappedArrayGetLevel)", fn, s->name, s->lod);
        return mem_array_side(fn, s->name, s->array, s->x, s->y, s->z, width, height, depth, addr, pitch, slice);
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sMemoryType %d is not a CUmemorytype", fn, s->name, (int)s->type);
    }
    if (s->lod)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sLOD is %zu: it must be 0 (levels belong to arrays)", fn, s->name,
                    s->lod);
    if (!base)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the %s pointer (%s) is NULL", fn, s->name,
                    s->type == CU_MEMORYTYPE_HOST ? "Host" : "Device");
    if (s->pitch > MAX_PITCH)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sPitch %zu is above the device's maximum pitch %zu", fn, s->name,
                    s->pitch, MAX_PITCH);
    bool rows = height > 1 || depth > 1;
    if ((s->pitch || rows) && (s->x > s->pitch || width > s->pitch - s->x))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sPitch %zu is smaller than %sXInBytes %zu + WidthInBytes %zu", fn,
                    s->name, s->pitch, s->name, s->x, width);
    if ((s->height || depth > 1) && (s->y > s->height || height > s->height - s->y))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sHeight %zu is smaller than %sY %zu + Height %zu%s", fn, s->name,
                    s->height, s->name, s->y, height, s->height ? "" : " (it may be 0 only when Depth is 1)");
    if (s->z && !s->height)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sZ is %zu but %sHeight is 0: a layer offset needs the layer "
                    "height", fn, s->name, s->z, s->name);
    /* base + (z * height + y) * pitch + x, without wrapping. */
    size_t layer_rows = s->height, row;
    if (s->z > (SIZE_MAX - s->y) / (layer_rows ? layer_rows : 1))
        goto wraps;
    row = s->z * layer_rows + s->y;
    if (s->x > UINTPTR_MAX - base || (s->pitch && row > (UINTPTR_MAX - base - s->x) / s->pitch) ||
        (s->height && s->pitch > SIZE_MAX / s->height))
        goto wraps;
    *addr = base + row * s->pitch + s->x;
    *pitch = s->pitch;
    *slice = s->pitch * s->height;
    return CUDA_SUCCESS;
wraps:
    return fail(CUDA_ERROR_INVALID_VALUE, "%s: the %s offset (X %zu, Y %zu, Z %zu with pitch %zu and height %zu) "
                "runs off the address space", fn, s->name, s->x, s->y, s->z, s->pitch, s->height);
}

/* The region and device sides of a copy between two checked sides. */
static CUresult region3d(const char *fn, const struct side3d *src, const struct side3d *dst, size_t width,
                         size_t height, size_t depth, struct copy_region *g, unsigned int *device_sides)
{
    bool src_device = false, dst_device = false;
    memset(g, 0, sizeof(*g));
    CUresult r = side3d_address(fn, src, width, height, depth, &g->src, &g->src_pitch, &g->src_slice, &src_device);
    if (!r)
        r = side3d_address(fn, dst, width, height, depth, &g->dst, &g->dst_pitch, &g->dst_slice, &dst_device);
    if (r)
        return r;
    g->width = width;
    g->height = height;
    g->depth = depth;
    *device_sides = (dst_device ? DST_DEVICE : 0) | (src_device ? SRC_DEVICE : 0);
    return CUDA_SUCCESS;
}

static CUresult copy3d(const char *fn, const CUDA_MEMCPY3D *p, CUstream stream, bool sync)
{
    REQUIRE_INIT(fn);
    if (!p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pCopy is NULL", fn);
    if (p->reserved0 || p->reserved1)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is not NULL", fn, p->reserved0 ? "reserved0" : "reserved1");
    struct side3d src = {"src", p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes,
                         p->srcY, p->srcZ, p->srcLOD, p->srcPitch, p->srcHeight};
    struct side3d dst = {"dst", p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes,
                         p->dstY, p->dstZ, p->dstLOD, p->dstPitch, p->dstHeight};
    struct copy_region g;
    unsigned int sides;
    CUresult r = region3d(fn, &src, &dst, p->WidthInBytes, p->Height, p->Depth, &g, &sides);
    return r ? r : mem_copy(fn, stream, sync, &g, sides);
}

CUresult CUDAAPI cuMemcpy3D(const CUDA_MEMCPY3D *pCopy) { return copy3d("cuMemcpy3D", pCopy, NULL, true); }
CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    return copy3d("cuMemcpy3DAsync", pCopy, hStream, false);
}
CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy)
{
    return copy3d("cuMemcpy3D", pCopy, CU_STREAM_PER_THREAD, true);
}
CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    return copy3d("cuMemcpy3DAsync", pCopy, per_thread(hStream), false);
}

/* ---- Peer copies ---- */

/* A context a peer copy names: a live context handle (every one is of device 0). */
static CUresult peer_context(const char *fn, const char *what, CUcontext handle)
{
    if (!handle)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: %s is NULL", fn, what);
    struct ctx *ctx;
    CUresult r = ctx_lookup(fn, handle, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

static CUresult copy_peer(const char *fn, CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx,
                          size_t n, CUstream stream, bool sync)
{
    REQUIRE_INIT(fn);
    CUresult r = peer_context(fn, "dstContext", dst_ctx);
    if (!r)
        r = peer_context(fn, "srcContext", src_ctx);
    if (r)
        return r;
    struct copy_region g = {.dst = (uintptr_t)dst, .src = (uintptr_t)src, .dst_pitch = n, .src_pitch = n,
                            .width = n, .height = 1, .depth = 1};
    return mem_copy(fn, stream, sync, &g, BOTH_DEVICE);
}

CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
                              size_t ByteCount)
{
    return copy_peer("cuMemcpyPeer", dstDevice, dstContext, srcDevice, srcContext, ByteCount, NULL, true);
}
CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    return copy_peer("cuMemcpyPeerAsync", dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream, false);
}
CUresult CUDAAPI cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount)
{
    return copy_peer("cuMemcpyPeer", dstDevice, dstContext, srcDevice, srcContext, ByteCount, CU_STREAM_PER_THREAD,
                     true);
}
CUresult CUDAAPI cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                        CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    return copy_peer("cuMemcpyPeerAsync", dstDevice, dstContext, srcDevice, srcContext, ByteCount,
                     per_thread(hStream), false);
}

static CUresult copy3d_peer(const char *fn, const CUDA_MEMCPY3D_PEER *p, CUstream stream, bool sync)
{
    REQUIRE_INIT(fn);
    if (!p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pCopy is NULL", fn);
    CUresult r = CUDA_SUCCESS;
    /* A context is ignored where its side is an array (the documentation's rule); arrays are
     * refused below with their own reason. */
    if (p->srcMemoryType != CU_MEMORYTYPE_ARRAY)
        r = peer_context(fn, "srcContext", p->srcContext);
    if (!r && p->dstMemoryType != CU_MEMORYTYPE_ARRAY)
        r = peer_context(fn, "dstContext", p->dstContext);
    if (r)
        return r;
    struct side3d src = {"src", p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes,
                         p->srcY, p->srcZ, p->srcLOD, p->srcPitch, p->srcHeight};
    struct side3d dst = {"dst", p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes,
                         p->dstY, p->dstZ, p->dstLOD, p->dstPitch, p->dstHeight};
    struct copy_region g;
    unsigned int sides;
    r = region3d(fn, &src, &dst, p->WidthInBytes, p->Height, p->Depth, &g, &sides);
    return r ? r : mem_copy(fn, stream, sync, &g, sides);
}

CUresult CUDAAPI cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy)
{
    return copy3d_peer("cuMemcpy3DPeer", pCopy, NULL, true);
}
CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy3d_peer("cuMemcpy3DPeerAsync", pCopy, hStream, false);
}
CUresult CUDAAPI cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy)
{
    return copy3d_peer("cuMemcpy3DPeer", pCopy, CU_STREAM_PER_THREAD, true);
}
CUresult CUDAAPI cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy3d_peer("cuMemcpy3DPeerAsync", pCopy, per_thread(hStream), false);
}

/* ---- Batches (CUDA 12.8) ----
 * The documentation's rules: the stream must not be the legacy NULL stream; every copy has
 * attributes with a valid source access order; attrsIdxs starts at 0, rises, and stays below
 * count; flags are CUmemcpyFlags. Location hints are for managed and pageable memory on
 * devices that migrate it, and the software device migrates nothing: they are not looked at.
 * CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL sources are read before the call returns (staged,
 * or the call waits for the copy); ANY is kept in stream order, which it allows. failIdx (the
 * CUDA 12.8 forms) is the failing copy's index, or SIZE_MAX where the failure is no copy's. */

static CUresult batch_stream(const char *fn, CUstream stream)
{
    if (!stream || stream == CU_STREAM_LEGACY)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: hStream is the legacy NULL stream, which a batch may not use", fn);
    return CUDA_SUCCESS;
}

static CUresult check_order(const char *fn, const char *what, size_t i, CUmemcpySrcAccessOrder order,
                            unsigned int flags)
{
    if (order != CU_MEMCPY_SRC_ACCESS_ORDER_STREAM && order != CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL &&
        order != CU_MEMCPY_SRC_ACCESS_ORDER_ANY)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s[%zu].srcAccessOrder %d is not a CUmemcpySrcAccessOrder "
                    "(STREAM, DURING_API_CALL or ANY)", fn, what, i, (int)order);
    if (flags & ~(unsigned int)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s[%zu].flags 0x%x has bits that are no CUmemcpyFlags", fn, what, i,
                    flags);
    return CUDA_SUCCESS;
}

static CUresult copy_batch(const char *fn, CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                           CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx,
                           CUstream stream)
{
    REQUIRE_INIT(fn);
    if (failIdx)
        *failIdx = SIZE_MAX;
    if (!dsts || !srcs || !sizes)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !dsts ? "dsts" : !srcs ? "srcs" : "sizes");
    if (count == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: count is 0", fn);
    if (!attrs || !attrsIdxs || numAttrs == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s: every copy needs attributes", fn,
                    !attrs ? "attrs is NULL" : !attrsIdxs ? "attrsIdxs is NULL" : "numAttrs is 0");
    if (numAttrs > count)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numAttrs %zu is more than count %zu", fn, numAttrs, count);
    for (size_t k = 0; k < numAttrs; ++k) {
        if (k == 0 && attrsIdxs[0] != 0)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: attrsIdxs[0] is %zu: it must be 0", fn, attrsIdxs[0]);
        if (k > 0 && attrsIdxs[k] <= attrsIdxs[k - 1])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: attrsIdxs[%zu] %zu does not rise above attrsIdxs[%zu] %zu", fn,
                        k, attrsIdxs[k], k - 1, attrsIdxs[k - 1]);
        if (attrsIdxs[k] >= count)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: attrsIdxs[%zu] %zu is not below count %zu", fn, k, attrsIdxs[k],
                        count);
        CUresult r = check_order(fn, "attrs", k, attrs[k].srcAccessOrder, attrs[k].flags);
        if (r)
            return r;
    }
    CUresult r = batch_stream(fn, stream);
    if (r)
        return r;
    struct copy_batch_item *items = calloc(count, sizeof(*items));
    if (!items)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu copies", fn, count);
    for (size_t i = 0, k = 0; i < count; ++i) {
        while (k + 1 < numAttrs && attrsIdxs[k + 1] <= i)
            ++k;
        struct copy_region *g = &items[i].region;
        g->dst = (uintptr_t)dsts[i];
        g->src = (uintptr_t)srcs[i];
        g->dst_pitch = g->src_pitch = g->width = sizes[i];
        g->height = g->depth = 1;
        items[i].src_now = attrs[k].srcAccessOrder == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
    }
    r = mem_copy_batch(fn, stream, items, count, failIdx);
    free(items);
    return r;
}

CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream)
{
    return copy_batch("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, NULL, hStream);
}
CUresult CUDAAPI cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                            CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                            CUstream hStream)
{
    return copy_batch("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, NULL,
                      per_thread(hStream));
}
CUresult CUDAAPI cuMemcpyBatchAsync_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                         CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                         size_t *failIdx, CUstream hStream)
{
    return copy_batch("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx,
                      per_thread(hStream));
}

/* One operand of a 3D batch copy, its first byte, row and layer pitch. Extents, offsets and a
 * pointer's rowLength/layerHeight count elements: an array operand's element, or bytes when
 * both operands are pointers (esize 1). An array operand's region must lie in the array
 * (INVALID_VALUE, as the H100's driver answers: docs/probes/kernels/texlod/batch.out). */
static CUresult operand(const char *fn, size_t i, const char *what, const CUmemcpy3DOperand *o, const CUextent3D *e,
                        size_t esize, uintptr_t *addr, size_t *pitch, size_t *slice)
{
    if (o->type == CU_MEMCPY_OPERAND_TYPE_ARRAY) {
        char name[64];
        snprintf(name, sizeof(name), "opList[%zu].%s.op.array.", i, what);
        const CUoffset3D *f = &o->op.array.offset;
        if (f->x > SIZE_MAX / esize || e->width > SIZE_MAX / esize)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %soffset.x %zu or the width %zu overflows in bytes", fn, name,
                        f->x, e->width);
        return mem_array_side(fn, name, o->op.array.array, f->x * esize, f->y, f->z, e->width * esize, e->height,
                              e->depth, addr, pitch, slice);
    }
    if (o->type != CU_MEMCPY_OPERAND_TYPE_POINTER)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: opList[%zu].%s.type %d is not a CUmemcpy3DOperandType", fn, i, what,
                    (int)o->type);
    size_t row = o->op.ptr.rowLength ? o->op.ptr.rowLength : e->width;
    size_t layer = o->op.ptr.layerHeight ? o->op.ptr.layerHeight : e->height;
    if (row < e->width)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: opList[%zu].%s.op.ptr.rowLength %zu is below the width %zu", fn, i,
                    what, row, e->width);
    if (layer < e->height)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: opList[%zu].%s.op.ptr.layerHeight %zu is below the height %zu", fn,
                    i, what, layer, e->height);
    if (row > SIZE_MAX / esize / layer)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: opList[%zu].%s: rows of %zu elements in layers of %zu overflow", fn,
                    i, what, row, layer);
    *addr = (uintptr_t)o->op.ptr.ptr;
    *pitch = row * esize;
    *slice = row * esize * layer;
    return CUDA_SUCCESS;
}

/* The element size of op's copy: its array operands' (both the same), else 1 (bytes). */
static CUresult batch_element(const char *fn, size_t i, const CUDA_MEMCPY3D_BATCH_OP *op, size_t *esize)
{
    size_t s[2] = {0, 0};
    const CUmemcpy3DOperand *o[2] = {&op->src, &op->dst};
    for (int k = 0; k < 2; ++k) {
        if (o[k]->type != CU_MEMCPY_OPERAND_TYPE_ARRAY)
            continue;
        char what[64];
        snprintf(what, sizeof(what), "opList[%zu].%s.op.array.array", i, k ? "dst" : "src");
        mem_array_element_fn elem = atomic_load(&mem_array_element_hook);
        if (!o[k]->op.array.array)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, what);
        if (!elem)
            return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s 0x%llx is not an array extmem made (none was made)", fn,
                        what, (unsigned long long)(uintptr_t)o[k]->op.array.array);
        CUresult r = elem(fn, what, o[k]->op.array.array, &s[k]);
        if (r)
            return r;
    }
    if (s[0] && s[1] && s[0] != s[1])
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: opList[%zu]: the source array's elements are %zu bytes, the "
                    "destination's %zu", fn, i, s[0], s[1]);
    *esize = s[0] ? s[0] : s[1] ? s[1] : 1;
    return CUDA_SUCCESS;
}

static CUresult copy3d_batch(const char *fn, size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                             unsigned long long flags, CUstream stream)
{
    REQUIRE_INIT(fn);
    if (failIdx)
        *failIdx = SIZE_MAX;
    if (numOps == 0 || !opList)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s", fn, numOps == 0 ? "numOps is 0" : "opList is NULL");
    if (flags)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%llx: it must be 0", fn, flags);
    CUresult r = batch_stream(fn, stream);
    if (r)
        return r;
    struct copy_batch_item *items = calloc(numOps, sizeof(*items));
    if (!items)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu copies", fn, numOps);
    for (size_t i = 0; !r && i < numOps; ++i) {
        const CUDA_MEMCPY3D_BATCH_OP *op = &opList[i];
        struct copy_region *g = &items[i].region;
        size_t esize = 1;
        if (!op->extent.width || !op->extent.height || !op->extent.depth)
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: opList[%zu].extent %zu x %zu x %zu has a 0: none may be 0", fn, i,
                     op->extent.width, op->extent.height, op->extent.depth);
        if (!r)
            r = check_order(fn, "opList", i, op->srcAccessOrder, op->flags);
        if (!r)
            r = batch_element(fn, i, op, &esize);
        if (!r)
            r = operand(fn, i, "src", &op->src, &op->extent, esize, &g->src, &g->src_pitch, &g->src_slice);
        if (!r)
            r = operand(fn, i, "dst", &op->dst, &op->extent, esize, &g->dst, &g->dst_pitch, &g->dst_slice);
        g->width = op->extent.width * esize;
        g->height = op->extent.height;
        g->depth = op->extent.depth;
        items[i].src_now = op->srcAccessOrder == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
        if (r && failIdx)
            *failIdx = i;
    }
    if (!r)
        r = mem_copy_batch(fn, stream, items, numOps, failIdx);
    free(items);
    return r;
}

CUresult CUDAAPI cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags,
                                      CUstream hStream)
{
    return copy3d_batch("cuMemcpy3DBatchAsync", numOps, opList, NULL, flags, hStream);
}
CUresult CUDAAPI cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags,
                                              CUstream hStream)
{
    return copy3d_batch("cuMemcpy3DBatchAsync", numOps, opList, NULL, flags, per_thread(hStream));
}
CUresult CUDAAPI cuMemcpy3DBatchAsync_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                                           unsigned long long flags, CUstream hStream)
{
    return copy3d_batch("cuMemcpy3DBatchAsync", numOps, opList, failIdx, flags, per_thread(hStream));
}

/* CUDA 12.8's forms, with failIdx, under the names NVIDIA's header gives CUDA 13's (_v2). */
#undef cuMemcpyBatchAsync
#undef cuMemcpy3DBatchAsync
EXTMEM_API CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                               CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                               size_t *failIdx, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                                                 unsigned long long flags, CUstream hStream);
CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx,
                                    CUstream hStream)
{
    return copy_batch("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, hStream);
}
CUresult CUDAAPI cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                                      unsigned long long flags, CUstream hStream)
{
    return copy3d_batch("cuMemcpy3DBatchAsync", numOps, opList, failIdx, flags, hStream);
}
