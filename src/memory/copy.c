/*
 * Copies and fills. With unified addressing every pointer is an address in this process, so
 * a copy is a memcpy once both ranges are checked (mem_check_access); it runs in stream order.
 *
 * Pageable host memory (memory CUDA did not allocate or register) follows the driver
 * (docs/probes/pageable_copy_probe.out, H100, driver 580): where a call names a device pointer
 * (cuMemcpyHtoD's dst, cuMemcpyDtoH's src, both of cuMemcpyDtoD, a fill, a DEVICE side of a 2D
 * copy) it is INVALID_VALUE; where any address is allowed (cuMemcpy, cuMemcpyAsync, the host
 * side of a directed copy, HOST and UNIFIED sides), an asynchronous copy never touches it after
 * the call returns: a pageable source is staged at the call when the copy is queued (up to
 * STAGE_MAX bytes; beyond, the call waits for the copy, as the driver's 64 MiB upload did; a
 * default stream that runs the copy in the caller needs neither), and a copy into pageable
 * memory returns once it is done. So freeing the caller's buffer after the call is always safe.
 */
#include "memory/memory.h"
#include "memory/copy.h"
#include "exec/exec.h"
#include "exec/per_thread.h"

#include <stdlib.h>
#include <string.h>

struct copy_work {
    struct work w;
    void *dst;
    const void *src;
    size_t width;               /* bytes per row */
    size_t height;              /* rows per layer */
    size_t depth;               /* layers (1 for 1D and 2D copies and for fills) */
    size_t dst_pitch, src_pitch;
    size_t dst_slice, src_slice; /* bytes from a layer to the next */
    unsigned int elem;          /* fills: element size (1, 2, 4); 0 for a copy */
    uint32_t value;
    unsigned char *staged;      /* a staged pageable source (src points here), or NULL */
    unsigned int device_sides;  /* DST_DEVICE | SRC_DEVICE as the call named them (a capture's node) */
    bool named;                 /* the call named each side's kind (not cuMemcpy's unified addresses) */
};

/* The largest pageable source an asynchronous copy stages; the driver staged 4 KiB at once and
 * made a 64 MiB upload wait. */
#define STAGE_MAX (4u << 20)

static void fill_row(unsigned char *dst, size_t n, unsigned int elem, uint32_t value)
{
    if (elem == 1) {
        memset(dst, (int)value, n);
    } else if (elem == 2) {
        uint16_t v = (uint16_t)value, *p = (uint16_t *)(void *)dst;
        for (size_t i = 0; i < n; ++i)
            p[i] = v;
    } else {
        uint32_t *p = (uint32_t *)(void *)dst;
        for (size_t i = 0; i < n; ++i)
            p[i] = value;
    }
}

/* Bytes in a row: fills count their width in elements. */
static size_t row_bytes(const struct copy_work *c) { return c->elem ? c->width * c->elem : c->width; }

/* Rows are counted through the layers: row i is row i % height of layer i / height. */
static void copy_rows(const struct copy_work *c, size_t first, size_t rows)
{
    for (size_t row = first; row < first + rows; ++row) {
        size_t z = row / c->height, y = row % c->height;
        unsigned char *dst = (unsigned char *)c->dst + z * c->dst_slice + y * c->dst_pitch;
        if (c->elem)
            fill_row(dst, c->width, c->elem, c->value);
        else
            memmove(dst, (const unsigned char *)c->src + z * c->src_slice + y * c->src_pitch, c->width);
    }
}

static size_t row_count(const struct copy_work *c) { return c->height * c->depth; }

/* Large copies and fills run on the worker pool, a piece per index: one core's memcpy moves a
 * fraction of what the machine's memory can (issue 16; bench/results). Below PARALLEL_MIN bytes
 * the hand-over costs more than it gains. */
#define PARALLEL_MIN (4u << 20)
#define PIECE_MIN (1u << 20)

struct copy_job {
    struct pool_job job;
    const struct copy_work *c;
    size_t piece;   /* one row: bytes per piece (a multiple of 64 and of the element size) */
    size_t rows;    /* several rows: rows per piece */
};

static void run_piece(struct pool_job *job, uint64_t index)
{
    struct copy_job *j = (struct copy_job *)job;
    const struct copy_work *c = j->c;
    if (j->rows) {
        size_t first = (size_t)index * j->rows;
        size_t rows = row_count(c) - first < j->rows ? row_count(c) - first : j->rows;
        copy_rows(c, first, rows);
        return;
    }
    size_t width = row_bytes(c), at = (size_t)index * j->piece, n = width - at < j->piece ? width - at : j->piece;
    unsigned char *dst = (unsigned char *)c->dst + at;
    if (c->elem)
        fill_row(dst, n / c->elem, c->elem, c->value);
    else
        memcpy(dst, (const unsigned char *)c->src + at, n);
}

/* True when some byte is both read and written: the pieces would race (memmove's order). */
static bool overlaps(const struct copy_work *c)
{
    if (c->elem)
        return false;
    uintptr_t d = (uintptr_t)c->dst, s = (uintptr_t)c->src;
    size_t dlen = c->dst_slice * (c->depth - 1) + c->dst_pitch * (c->height - 1) + c->width;
    size_t slen = c->src_slice * (c->depth - 1) + c->src_pitch * (c->height - 1) + c->width;
    return d < s + slen && s < d + dlen;
}

static void copy_free(struct copy_work *c)
{
    free(c->staged);
    free(c);
}

static void discard_copy(struct work *w) { copy_free((struct copy_work *)w); }

/* How a capture's node names one side: device memory, or host memory (pinned or not). */
static CUmemorytype side_type(const void *p)
{
    CUmemorytype type = CU_MEMORYTYPE_HOST;
    if (cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)p) ||
        type != CU_MEMORYTYPE_DEVICE)
        type = CU_MEMORYTYPE_HOST;
    return type;
}

/* A capturing stream records a copy as a memcpy node, a fill as a memset node (src/graph). */
static CUresult describe_copy(struct work *w, CUgraphNodeParams *p)
{
    struct copy_work *c = (struct copy_work *)w;
    if (c->elem) {
        p->type = CU_GRAPH_NODE_TYPE_MEMSET;
        p->memset.dst = (CUdeviceptr)(uintptr_t)c->dst;
        p->memset.pitch = c->height > 1 ? c->dst_pitch : 0; /* as the driver records a 1D fill */
        p->memset.value = c->value;
        p->memset.elementSize = c->elem;
        p->memset.width = c->width;
        p->memset.height = c->height;
        return CUDA_SUCCESS;
    }
    p->type = CU_GRAPH_NODE_TYPE_MEMCPY;
    CUDA_MEMCPY3D *m = &p->memcpy.copyParams;
    /* As the driver records them: the kinds the call named, UNIFIED for cuMemcpy(Async). */
    m->srcMemoryType = !c->named ? CU_MEMORYTYPE_UNIFIED : c->device_sides & SRC_DEVICE ? CU_MEMORYTYPE_DEVICE
                                                                                        : side_type(c->src);
    m->dstMemoryType = !c->named ? CU_MEMORYTYPE_UNIFIED : c->device_sides & DST_DEVICE ? CU_MEMORYTYPE_DEVICE
                                                                                        : side_type(c->dst);
    if (m->srcMemoryType == CU_MEMORYTYPE_HOST)
        m->srcHost = c->src;
    else
        m->srcDevice = (CUdeviceptr)(uintptr_t)c->src;
    if (m->dstMemoryType == CU_MEMORYTYPE_HOST)
        m->dstHost = c->dst;
    else
        m->dstDevice = (CUdeviceptr)(uintptr_t)c->dst;
    if (c->height > 1 || c->depth > 1) { /* a 1D copy has only its width, as the driver records it */
        m->srcPitch = c->src_pitch;
        m->dstPitch = c->dst_pitch;
        m->srcHeight = c->depth > 1 ? c->src_slice / (c->src_pitch ? c->src_pitch : 1) : c->height;
        m->dstHeight = c->depth > 1 ? c->dst_slice / (c->dst_pitch ? c->dst_pitch : 1) : c->height;
    }
    m->WidthInBytes = c->width;
    m->Height = c->height;
    m->Depth = c->depth;
    return CUDA_SUCCESS;
}

static void run_copy(struct work *w)
{
    struct copy_work *c = (struct copy_work *)w;
    size_t total = row_bytes(c) * row_count(c), workers = pool_worker_count();
    if (total < PARALLEL_MIN || workers < 2 || overlaps(c)) {
        copy_rows(c, 0, row_count(c));
        copy_free(c);
        return;
    }
    struct copy_job j = {.c = c};
    j.job.run = run_piece;
    /* Two pieces per worker balance cores that start late; never smaller than PIECE_MIN. */
    size_t pieces = workers * 2, want = total / pieces < PIECE_MIN ? PIECE_MIN : total / pieces;
    if (row_count(c) == 1) {
        j.piece = (want + 63) / 64 * 64; /* whole cache lines and whole elements (1, 2, 4 divide 64) */
        j.job.count = (row_bytes(c) + j.piece - 1) / j.piece;
    } else {
        j.rows = want / row_bytes(c) ? want / row_bytes(c) : 1;
        j.job.count = (row_count(c) + j.rows - 1) / j.rows;
    }
    pool_run(&j.job);
    copy_free(c);
}

/* The copy is queued, and its source is pageable memory the caller may free when the call
 * returns (struct work.detach): the rows, packed, into memory of the copy's own. */
static bool stage_source(struct work *w)
{
    struct copy_work *c = (struct copy_work *)w;
    unsigned char *staged = malloc(c->width * row_count(c));
    if (!staged)
        return false; /* the call waits for the copy instead */
    for (size_t row = 0; row < row_count(c); ++row) {
        size_t z = row / c->height, y = row % c->height;
        const unsigned char *from = (const unsigned char *)c->src + z * c->src_slice + y * c->src_pitch;
        memcpy(staged + row * c->width, from, c->width);
    }
    c->src = c->staged = staged;
    c->src_pitch = c->width;
    c->src_slice = c->width * c->height;
    return true;
}

/* Extent of a pitched region: the last row of the last layer ends width bytes after its start. */
static bool extent3d(size_t slice, size_t pitch, size_t width, size_t height, size_t depth, size_t *out)
{
    if (height == 0 || width == 0 || depth == 0) {
        *out = 0;
        return true;
    }
    if (pitch && height - 1 > (SIZE_MAX - width) / pitch)
        return false;
    size_t layer = pitch * (height - 1) + width;
    if (slice && depth - 1 > (SIZE_MAX - layer) / slice)
        return false;
    *out = slice * (depth - 1) + layer;
    return true;
}

static bool extent(size_t pitch, size_t width, size_t height, size_t *out)
{
    return extent3d(0, pitch, width, height, 1, out);
}

/* Checks both sides of a copy; says which are pageable host memory. */
static CUresult copy_check(const char *fn, const struct copy_region *g, unsigned int device_sides, bool *dst_pageable,
                           bool *src_pageable)
{
    size_t dst_len = 0, src_len = 0;
    *dst_pageable = *src_pageable = false;
    if (!extent3d(g->dst_slice, g->dst_pitch, g->width, g->height, g->depth, &dst_len) ||
        !extent3d(g->src_slice, g->src_pitch, g->width, g->height, g->depth, &src_len))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %zu x %zu rows of pitch %zu overflow the address space", fn,
                    g->depth, g->height, g->dst_pitch > g->src_pitch ? g->dst_pitch : g->src_pitch);
    if (!dst_len)
        return CUDA_SUCCESS;
    CUresult r = mem_check_access(fn, "the destination", g->dst, dst_len,
                                  MEM_WRITE | (device_sides & DST_DEVICE ? MEM_DEVICE : 0), dst_pageable);
    if (!r)
        r = mem_check_access(fn, "the source", g->src, src_len, device_sides & SRC_DEVICE ? MEM_DEVICE : 0,
                             src_pageable);
    return r;
}

static size_t region_bytes(const struct copy_region *g) { return g->width * g->height * g->depth; }

/* Queues (or runs) one checked copy on t. src_now: the source may be read at the call, out
 * of stream order (a batch's CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL), and must not be
 * read after it returns. */
static CUresult copy_queue(const char *fn, struct target *t, const struct copy_region *g, bool dst_pageable,
                           bool src_pageable, bool src_now, unsigned int device_sides)
{
    if (!region_bytes(g))
        return CUDA_SUCCESS;
    bool sync = t->sync;
    /* Pageable memory is the caller's again when the call returns (the comment at the top). */
    if (dst_pageable || ((src_pageable || src_now) && region_bytes(g) > STAGE_MAX))
        t->sync = true;
    struct copy_work *c = calloc(1, sizeof(*c));
    if (!c) {
        t->sync = sync;
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    c->w.run = run_copy;
    c->dst = (void *)g->dst;
    c->src = (const void *)g->src;
    c->width = g->width;
    c->height = g->height;
    c->depth = g->depth;
    c->dst_pitch = g->dst_pitch;
    c->src_pitch = g->src_pitch;
    c->dst_slice = g->dst_slice;
    c->src_slice = g->src_slice;
    if ((src_pageable || src_now) && !t->sync)
        c->w.detach = stage_source; /* staged only if it is queued */
    c->w.discard = discard_copy;
    c->w.describe = describe_copy;
    c->device_sides = device_sides;
    c->named = device_sides != 0;
    CUresult r = target_submit(t, &c->w);
    t->sync = sync;
    if (!r && !t->s && !t->sink) /* it waited for the context's streams: a kernel of theirs may have faulted */
        r = ctx_check_sticky(fn, t->ctx);
    return r;
}

CUresult mem_copy(const char *fn, CUstream stream, bool sync, const struct copy_region *g, unsigned int device_sides)
{
    struct target t;
    CUresult r = target_get(fn, stream, &t);
    if (r)
        return r;
    t.sync = sync;
    bool dst_pageable, src_pageable;
    if (!(r = copy_check(fn, g, device_sides, &dst_pageable, &src_pageable)))
        r = copy_queue(fn, &t, g, dst_pageable, src_pageable, false, device_sides);
    target_put(&t);
    return r;
}

CUresult mem_copy_batch(const char *fn, CUstream stream, const struct copy_batch_item *items, size_t count,
                        size_t *fail_idx)
{
    struct target t;
    CUresult r = target_get(fn, stream, &t);
    if (r)
        return r;
    t.sync = false;
    /* Every copy is checked before any is queued: a batch that fails queues nothing. */
    bool *pageable = calloc(count ? count * 2 : 1, sizeof(*pageable));
    if (!pageable)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    for (size_t i = 0; !r && i < count; ++i) {
        r = copy_check(fn, &items[i].region, items[i].device_sides, &pageable[2 * i], &pageable[2 * i + 1]);
        if (r && fail_idx)
            *fail_idx = i;
    }
    /* The copies of a batch may run in any order among themselves; in stream order they are
     * queued one after the other, which is one of those orders. */
    for (size_t i = 0; !r && i < count; ++i)
        r = copy_queue(fn, &t, &items[i].region, pageable[2 * i], pageable[2 * i + 1], items[i].src_now,
                       items[i].device_sides);
    free(pageable);
    target_put(&t);
    return r;
}

/* Checks and queues a copy of height rows of width bytes. */
static CUresult submit_copy(const char *fn, CUstream stream, uintptr_t dst, size_t dst_pitch, uintptr_t src,
                            size_t src_pitch, size_t width, size_t height, unsigned int device_sides)
{
    /* cuMemcpy returns once the copy is done; cuMemcpyAsync need not. */
    struct copy_region g = {.dst = dst, .src = src, .dst_pitch = dst_pitch, .src_pitch = src_pitch,
                            .width = width, .height = height, .depth = 1};
    return mem_copy(fn, stream, !strstr(fn, "Async"), &g, device_sides);
}

static CUresult copy1d(const char *fn, uintptr_t dst, uintptr_t src, size_t n, CUstream stream,
                       unsigned int device_sides)
{
    return submit_copy(fn, stream, dst, n, src, n, n, 1, device_sides);
}

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    return copy1d("cuMemcpy", (uintptr_t)dst, (uintptr_t)src, ByteCount, NULL, 0);
}
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    return copy1d("cuMemcpyAsync", (uintptr_t)dst, (uintptr_t)src, ByteCount, hStream, 0);
}
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    return copy1d("cuMemcpyHtoD", (uintptr_t)dstDevice, (uintptr_t)srcHost, ByteCount, NULL, DST_DEVICE);
}
CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy1d("cuMemcpyDtoH", (uintptr_t)dstHost, (uintptr_t)srcDevice, ByteCount, NULL, SRC_DEVICE);
}
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy1d("cuMemcpyDtoD", (uintptr_t)dstDevice, (uintptr_t)srcDevice, ByteCount, NULL, BOTH_DEVICE);
}
CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
    return copy1d("cuMemcpyHtoDAsync", (uintptr_t)dstDevice, (uintptr_t)srcHost, ByteCount, hStream, DST_DEVICE);
}
CUresult CUDAAPI cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    return copy1d("cuMemcpyDtoHAsync", (uintptr_t)dstHost, (uintptr_t)srcDevice, ByteCount, hStream, SRC_DEVICE);
}
CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    return copy1d("cuMemcpyDtoDAsync", (uintptr_t)dstDevice, (uintptr_t)srcDevice, ByteCount, hStream, BOTH_DEVICE);
}

_Atomic(mem_array_resolver) mem_array_hook;
_Atomic(mem_array_element_fn) mem_array_element_hook; /* texlod */

CUresult mem_copy_bytes(const char *fn, CUstream stream, bool sync, uintptr_t dst, uintptr_t src, size_t n,
                        bool dst_device, bool src_device)
{
    struct copy_region g = {.dst = dst, .src = src, .dst_pitch = n, .src_pitch = n, .width = n, .height = 1,
                            .depth = 1};
    return mem_copy(fn, stream, sync, &g, (dst_device ? DST_DEVICE : 0) | (src_device ? SRC_DEVICE : 0));
}

/* An array side of a copy, through the resolver src/image registers (memory.h). */
CUresult mem_array_side(const char *fn, const char *side, CUarray array, size_t x, size_t y, size_t z, size_t width,
                        size_t height, size_t depth, uintptr_t *addr, size_t *pitch, size_t *slice)
{
    if (!array)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sArray is NULL", fn, side);
    mem_array_resolver resolve = atomic_load(&mem_array_hook);
    if (!resolve)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %sArray 0x%llx is not an array extmem made (none was made)", fn,
                    side, (unsigned long long)(uintptr_t)array);
    return resolve(fn, side, array, x, y, z, width, height, depth, addr, pitch, slice);
}

/* The address and pitch one side of a 2D copy names, from its memory type: an array's pitch
 * is its own (the descriptor's is ignored, as the driver ignores it). */
static CUresult side_address(const char *fn, const char *side, CUmemorytype type, const void *host, CUdeviceptr device,
                             CUarray array, size_t x, size_t y, size_t width, size_t height, size_t *pitch,
                             uintptr_t *out, bool *device_only)
{
    uintptr_t base;
    *device_only = type == CU_MEMORYTYPE_DEVICE; /* UNIFIED takes any address, as cuMemcpy does */
    switch (type) {
    case CU_MEMORYTYPE_HOST: base = (uintptr_t)host; break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: base = (uintptr_t)device; break;
    case CU_MEMORYTYPE_ARRAY: {
        size_t slice;
        *device_only = true;
        return mem_array_side(fn, side, array, x, y, 0, width, height, 1, out, pitch, &slice);
    }
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sMemoryType %d is not a CUmemorytype", fn, side, (int)type);
    }
    if (!base)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the %s pointer is NULL", fn, side);
    if (height > 1 && *pitch < width)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %sPitch %zu is smaller than WidthInBytes %zu", fn, side, *pitch,
                    width);
    if (y && *pitch > (UINTPTR_MAX - base - x) / y)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the %s offset overflows", fn, side);
    *out = base + x + y * *pitch;
    return CUDA_SUCCESS;
}

static CUresult copy2d(const char *fn, const CUDA_MEMCPY2D *p, CUstream stream)
{
    REQUIRE_INIT(fn);
    if (!p)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pCopy is NULL", fn);
    uintptr_t src = 0, dst = 0; /* gcc -O3 cannot see that a failed side_address returns */
    size_t src_pitch = p->srcPitch, dst_pitch = p->dstPitch;
    bool src_device = false, dst_device = false;
    CUresult r = side_address(fn, "src", p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes,
                              p->srcY, p->WidthInBytes, p->Height, &src_pitch, &src, &src_device);
    if (!r)
        r = side_address(fn, "dst", p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY,
                         p->WidthInBytes, p->Height, &dst_pitch, &dst, &dst_device);
    if (r)
        return r;
    return submit_copy(fn, stream, dst, dst_pitch, src, src_pitch, p->WidthInBytes, p->Height,
                       (dst_device ? DST_DEVICE : 0) | (src_device ? SRC_DEVICE : 0));
}

CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D *pCopy) { return copy2d("cuMemcpy2D", pCopy, NULL); }
CUresult CUDAAPI cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy) { return copy2d("cuMemcpy2DUnaligned", pCopy, NULL); }
CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy2d("cuMemcpy2DAsync", pCopy, hStream);
}

/* ---- Fills ---- */

static CUresult fill(const char *fn, CUdeviceptr dst, size_t pitch, unsigned int elem, uint32_t value, size_t width,
                     size_t height, CUstream stream)
{
    struct target t;
    CUresult r = target_get(fn, stream, &t);
    if (r)
        return r;
    t.sync = !strstr(fn, "Async"); /* the memory is set when cuMemsetD8 returns, as extmem promises */
    size_t row_bytes = width * elem, len = 0;
    if (width > SIZE_MAX / elem || !extent(pitch, row_bytes, height, &len))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %zu x %zu elements of %u bytes overflow", fn, width, height, elem);
    else if ((uintptr_t)dst % elem)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dstDevice 0x%llx is not aligned to the %u-byte element size", fn,
                 (unsigned long long)dst, elem);
    else if (height > 1 && (pitch < row_bytes || pitch % elem))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dstPitch %zu is smaller than a row (%zu bytes) or not a multiple of %u", fn,
                 pitch, row_bytes, elem);
    else if (len)
        r = mem_check_access(fn, "dstDevice", (uintptr_t)dst, len, MEM_WRITE | MEM_DEVICE, NULL);
    struct copy_work *c = NULL;
    if (!r && len && !(c = calloc(1, sizeof(*c))))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    if (c) {
        c->w.run = run_copy;
        c->dst = (void *)(uintptr_t)dst;
        c->width = width;
        c->height = height;
        c->depth = 1;
        c->dst_pitch = pitch;
        c->elem = elem;
        c->value = value;
        c->w.discard = discard_copy;
        c->w.describe = describe_copy;
        r = target_submit(&t, &c->w);
        if (!r && !t.s && !t.sink) /* it waited for the context's streams: a kernel of theirs may have faulted */
            r = ctx_check_sticky(fn, t.ctx);
    }
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuMemsetD8(CUdeviceptr d, unsigned char v, size_t N) { return fill("cuMemsetD8", d, N, 1, v, N, 1, NULL); }
CUresult CUDAAPI cuMemsetD16(CUdeviceptr d, unsigned short v, size_t N)
{
    return fill("cuMemsetD16", d, N * 2, 2, v, N, 1, NULL);
}
CUresult CUDAAPI cuMemsetD32(CUdeviceptr d, unsigned int v, size_t N)
{
    return fill("cuMemsetD32", d, N * 4, 4, v, N, 1, NULL);
}
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t N, CUstream s)
{
    return fill("cuMemsetD8Async", d, N, 1, v, N, 1, s);
}
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t N, CUstream s)
{
    return fill("cuMemsetD16Async", d, N * 2, 2, v, N, 1, s);
}
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t N, CUstream s)
{
    return fill("cuMemsetD32Async", d, N * 4, 4, v, N, 1, s);
}
CUresult CUDAAPI cuMemsetD2D8(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h)
{
    return fill("cuMemsetD2D8", d, pitch, 1, v, w, h, NULL);
}
CUresult CUDAAPI cuMemsetD2D16(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h)
{
    return fill("cuMemsetD2D16", d, pitch, 2, v, w, h, NULL);
}
CUresult CUDAAPI cuMemsetD2D32(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h)
{
    return fill("cuMemsetD2D32", d, pitch, 4, v, w, h, NULL);
}
CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s)
{
    return fill("cuMemsetD2D8Async", d, pitch, 1, v, w, h, s);
}
CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s)
{
    return fill("cuMemsetD2D16Async", d, pitch, 2, v, w, h, s);
}
CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h, CUstream s)
{
    return fill("cuMemsetD2D32Async", d, pitch, 4, v, w, h, s);
}

/* ---- Per-thread default stream variants (per_thread.h) ---- */

CUresult CUDAAPI cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    return copy1d("cuMemcpy", (uintptr_t)dst, (uintptr_t)src, n, CU_STREAM_PER_THREAD, 0);
}
CUresult CUDAAPI cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    return copy1d("cuMemcpyAsync", (uintptr_t)dst, (uintptr_t)src, n, per_thread(s), 0);
}
CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t n)
{
    return copy1d("cuMemcpyHtoD", (uintptr_t)dst, (uintptr_t)src, n, CU_STREAM_PER_THREAD, DST_DEVICE);
}
CUresult CUDAAPI cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n)
{
    return copy1d("cuMemcpyDtoH", (uintptr_t)dst, (uintptr_t)src, n, CU_STREAM_PER_THREAD, SRC_DEVICE);
}
CUresult CUDAAPI cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    return copy1d("cuMemcpyDtoD", (uintptr_t)dst, (uintptr_t)src, n, CU_STREAM_PER_THREAD, BOTH_DEVICE);
}
CUresult CUDAAPI cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
    return copy1d("cuMemcpyHtoDAsync", (uintptr_t)dst, (uintptr_t)src, n, per_thread(s), DST_DEVICE);
}
CUresult CUDAAPI cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
    return copy1d("cuMemcpyDtoHAsync", (uintptr_t)dst, (uintptr_t)src, n, per_thread(s), SRC_DEVICE);
}
CUresult CUDAAPI cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    return copy1d("cuMemcpyDtoDAsync", (uintptr_t)dst, (uintptr_t)src, n, per_thread(s), BOTH_DEVICE);
}
CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *p) { return copy2d("cuMemcpy2D", p, CU_STREAM_PER_THREAD); }
CUresult CUDAAPI cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *p)
{
    return copy2d("cuMemcpy2DUnaligned", p, CU_STREAM_PER_THREAD);
}
CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *p, CUstream s)
{
    return copy2d("cuMemcpy2DAsync", p, per_thread(s));
}
CUresult CUDAAPI cuMemsetD8_v2_ptds(CUdeviceptr d, unsigned char v, size_t N)
{
    return fill("cuMemsetD8", d, N, 1, v, N, 1, CU_STREAM_PER_THREAD);
}
CUresult CUDAAPI cuMemsetD16_v2_ptds(CUdeviceptr d, unsigned short v, size_t N)
{
    return fill("cuMemsetD16", d, N * 2, 2, v, N, 1, CU_STREAM_PER_THREAD);
}
CUresult CUDAAPI cuMemsetD32_v2_ptds(CUdeviceptr d, unsigned int v, size_t N)
{
    return fill("cuMemsetD32", d, N * 4, 4, v, N, 1, CU_STREAM_PER_THREAD);
}
CUresult CUDAAPI cuMemsetD2D8_v2_ptds(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h)
{
    return fill("cuMemsetD2D8", d, pitch, 1, v, w, h, CU_STREAM_PER_THREAD);
}
CUresult CUDAAPI cuMemsetD2D16_v2_ptds(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h)
{
    return fill("cuMemsetD2D16", d, pitch, 2, v, w, h, CU_STREAM_PER_THREAD);
}
CUresult CUDAAPI cuMemsetD2D32_v2_ptds(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h)
{
    return fill("cuMemsetD2D32", d, pitch, 4, v, w, h, CU_STREAM_PER_THREAD);
}
CUresult CUDAAPI cuMemsetD8Async_ptsz(CUdeviceptr d, unsigned char v, size_t N, CUstream s)
{
    return fill("cuMemsetD8Async", d, N, 1, v, N, 1, per_thread(s));
}
CUresult CUDAAPI cuMemsetD16Async_ptsz(CUdeviceptr d, unsigned short v, size_t N, CUstream s)
{
    return fill("cuMemsetD16Async", d, N * 2, 2, v, N, 1, per_thread(s));
}
CUresult CUDAAPI cuMemsetD32Async_ptsz(CUdeviceptr d, unsigned int v, size_t N, CUstream s)
{
    return fill("cuMemsetD32Async", d, N * 4, 4, v, N, 1, per_thread(s));
}
CUresult CUDAAPI cuMemsetD2D8Async_ptsz(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s)
{
    return fill("cuMemsetD2D8Async", d, pitch, 1, v, w, h, per_thread(s));
}
CUresult CUDAAPI cuMemsetD2D16Async_ptsz(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s)
{
    return fill("cuMemsetD2D16Async", d, pitch, 2, v, w, h, per_thread(s));
}
CUresult CUDAAPI cuMemsetD2D32Async_ptsz(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h, CUstream s)
{
    return fill("cuMemsetD2D32Async", d, pitch, 4, v, w, h, per_thread(s));
}
