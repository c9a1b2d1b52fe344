/*
 * src/runtime/memcpy_batch.c: cudaMemcpyBatchAsync and cudaMemcpy3DBatchAsync on the driver's
 * cuMemcpyBatchAsync and cuMemcpy3DBatchAsync, whose structures have the runtime ones' layout
 * (cudaMemcpyAttributes is CUmemcpyAttributes, cudaMemcpy3DBatchOp CUDA_MEMCPY3D_BATCH_OP).
 *
 * CUDA 13 dropped the size_t *failIdx that CUDA 12.8 gave both calls (before the stream, and
 * before flags). libcudart.so.12 is built with EXTMEM_CUDART_ABI=12 and exports the CUDA 12.8
 * forms under the same names, passing failIdx on to the driver's 12.8 forms (the unversioned
 * cuMemcpyBatchAsync and cuMemcpy3DBatchAsync of libcuda); CUDA 13's call the _v2 forms.
 */
#include <stdint.h>
#include <stdlib.h>

#if defined(EXTMEM_CUDART_ABI) && EXTMEM_CUDART_ABI == 12
/* The header declares CUDA 13's forms: keep them out of the way of CUDA 12's below. */
#define cudaMemcpyBatchAsync        rt_unused_batch_13
#define cudaMemcpyBatchAsync_ptsz   rt_unused_batch_13_ptsz
#define cudaMemcpy3DBatchAsync      rt_unused_batch3d_13
#define cudaMemcpy3DBatchAsync_ptsz rt_unused_batch3d_13_ptsz
#endif
#include "runtime/runtime.h"
#undef cudaMemcpyBatchAsync
#undef cudaMemcpyBatchAsync_ptsz
#undef cudaMemcpy3DBatchAsync
#undef cudaMemcpy3DBatchAsync_ptsz

/* The driver's CUDA 12.8 forms, exported by libcuda under the unversioned names. */
#undef cuMemcpyBatchAsync
#undef cuMemcpy3DBatchAsync
CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx,
                                    CUstream hStream);
CUresult CUDAAPI cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                                      unsigned long long flags, CUstream hStream);

_Static_assert(sizeof(struct cudaMemcpyAttributes) == sizeof(CUmemcpyAttributes), "the attributes' layouts differ");
_Static_assert(sizeof(struct cudaMemcpy3DBatchOp) == sizeof(CUDA_MEMCPY3D_BATCH_OP), "the operations' layouts differ");

/* The pointer arrays as device pointers (the runtime's void * and CUdeviceptr differ in type,
 * not in value: unified addressing). */
static cudaError_t rt_batch(const char *fn, void *const *dsts, const void *const *srcs, const size_t *sizes,
                            size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                            size_t *failIdx, cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUdeviceptr *d = NULL, *s = NULL;
    if (dsts && srcs && count && count <= SIZE_MAX / sizeof(CUdeviceptr)) {
        d = malloc(count * sizeof(*d));
        s = malloc(count * sizeof(*s));
        if (!d || !s) {
            free(d);
            free(s);
            return rt_fail(cudaErrorMemoryAllocation, "%s: out of host memory for %zu copies", fn, count);
        }
        for (size_t i = 0; i < count; ++i) {
            d[i] = rt_dptr(dsts[i]);
            s[i] = rt_dptr(srcs[i]);
        }
    }
    /* NULL arrays stay NULL, for the driver to name. */
    CUresult r;
    if (failIdx)
        r = cuMemcpyBatchAsync(dsts ? d : NULL, srcs ? s : NULL, (size_t *)sizes, count, (CUmemcpyAttributes *)attrs,
                               attrsIdxs, numAttrs, failIdx, stream);
    else
        r = cuMemcpyBatchAsync_v2(dsts ? d : NULL, srcs ? s : NULL, (size_t *)sizes, count,
                                  (CUmemcpyAttributes *)attrs, attrsIdxs, numAttrs, stream);
    free(d);
    free(s);
    return rt_cu(r);
}

static cudaError_t rt_batch3d(size_t numOps, struct cudaMemcpy3DBatchOp *opList, size_t *failIdx,
                              unsigned long long flags, cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUDA_MEMCPY3D_BATCH_OP *ops = (CUDA_MEMCPY3D_BATCH_OP *)(void *)opList;
    return rt_cu(failIdx ? cuMemcpy3DBatchAsync(numOps, ops, failIdx, flags, stream)
                         : cuMemcpy3DBatchAsync_v2(numOps, ops, flags, stream));
}

#if defined(EXTMEM_CUDART_ABI) && EXTMEM_CUDART_ABI == 12
/* CUDA 12.8: failIdx, and arrays that are not const. Declared here with EXTMEM_API, as the
 * header's declarations of the CUDA 13 forms would have made them exported. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count,
                                           struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                           size_t *failIdx, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count,
                                           struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                           size_t *failIdx, cudaStream_t stream)
{
    size_t ignored;
    return rt_batch("cudaMemcpyBatchAsync", dsts, (const void *const *)srcs, sizes, count, attrs, attrsIdxs,
                    numAttrs, failIdx ? failIdx : &ignored, stream);
}

EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyBatchAsync_ptsz(void **dsts, void **srcs, size_t *sizes, size_t count,
                                                struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                size_t numAttrs, size_t *failIdx, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyBatchAsync_ptsz(void **dsts, void **srcs, size_t *sizes, size_t count,
                                                struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                size_t numAttrs, size_t *failIdx, cudaStream_t stream)
{
    size_t ignored;
    return rt_batch("cudaMemcpyBatchAsync", dsts, (const void *const *)srcs, sizes, count, attrs, attrsIdxs,
                    numAttrs, failIdx ? failIdx : &ignored, rt_ptsz(stream));
}

EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                        size_t *failIdx, unsigned long long flags, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList, size_t *failIdx,
                                             unsigned long long flags, cudaStream_t stream)
{
    size_t ignored;
    return rt_batch3d(numOps, opList, failIdx ? failIdx : &ignored, flags, stream);
}

EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                  size_t *failIdx, unsigned long long flags, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                  size_t *failIdx, unsigned long long flags, cudaStream_t stream)
{
    size_t ignored;
    return rt_batch3d(numOps, opList, failIdx ? failIdx : &ignored, flags, rt_ptsz(stream));
}
#else
cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                           size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                           size_t numAttrs, cudaStream_t stream)
{
    return rt_batch("cudaMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, NULL, stream);
}

cudaError_t CUDARTAPI cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                                size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                size_t numAttrs, cudaStream_t stream)
{
    return rt_batch("cudaMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, NULL,
                    rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                             unsigned long long flags, cudaStream_t stream)
{
    return rt_batch3d(numOps, opList, NULL, flags, stream);
}

cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                  unsigned long long flags, cudaStream_t stream)
{
    return rt_batch3d(numOps, opList, NULL, flags, rt_ptsz(stream));
}
#endif
