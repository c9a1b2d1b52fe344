/*
 * src/exec/per_thread.h: the per-thread default stream variants (_ptds, _ptsz) that code built
 * with CUDA_API_PER_THREAD_DEFAULT_STREAM calls. The public header declares them only in
 * that mode; the library defines them always. For these, a NULL stream is the per-thread
 * stream (CU_STREAM_PER_THREAD).
 */
#ifndef EXTMEM_PER_THREAD_H
#define EXTMEM_PER_THREAD_H

#include "extmem/extmem.h"

/* NULL becomes the per-thread stream; any other handle is kept. */
static inline CUstream per_thread(CUstream s) { return s ? s : CU_STREAM_PER_THREAD; }

EXTMEM_API CUresult CUDAAPI cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                                      CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                                      CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                                      CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy);
EXTMEM_API CUresult CUDAAPI cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy);
EXTMEM_API CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemsetD8_v2_ptds(CUdeviceptr d, unsigned char v, size_t N);
EXTMEM_API CUresult CUDAAPI cuMemsetD16_v2_ptds(CUdeviceptr d, unsigned short v, size_t N);
EXTMEM_API CUresult CUDAAPI cuMemsetD32_v2_ptds(CUdeviceptr d, unsigned int v, size_t N);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D8_v2_ptds(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D16_v2_ptds(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D32_v2_ptds(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h);
EXTMEM_API CUresult CUDAAPI cuMemsetD8Async_ptsz(CUdeviceptr d, unsigned char v, size_t N, CUstream s);
EXTMEM_API CUresult CUDAAPI cuMemsetD16Async_ptsz(CUdeviceptr d, unsigned short v, size_t N, CUstream s);
EXTMEM_API CUresult CUDAAPI cuMemsetD32Async_ptsz(CUdeviceptr d, unsigned int v, size_t N, CUstream s);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D8Async_ptsz(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h,
                                                   CUstream s);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D16Async_ptsz(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h,
                                                    CUstream s);
EXTMEM_API CUresult CUDAAPI cuMemsetD2D32Async_ptsz(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h,
                                                    CUstream s);
EXTMEM_API CUresult CUDAAPI cuStreamGetPriority_ptsz(CUstream hStream, int *priority);
EXTMEM_API CUresult CUDAAPI cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags);
EXTMEM_API CUresult CUDAAPI cuStreamGetCtx_ptsz(CUstream hStream, CUcontext *pctx);
EXTMEM_API CUresult CUDAAPI cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx);
EXTMEM_API CUresult CUDAAPI cuStreamGetId_ptsz(CUstream hStream, unsigned long long *streamId);
EXTMEM_API CUresult CUDAAPI cuStreamGetDevice_ptsz(CUstream hStream, CUdevice *device);
EXTMEM_API CUresult CUDAAPI cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags);
EXTMEM_API CUresult CUDAAPI cuStreamQuery_ptsz(CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuStreamSynchronize_ptsz(CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuEventRecord_ptsz(CUevent hEvent, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData);
EXTMEM_API CUresult CUDAAPI cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData,
                                                     unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamGetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *v);
EXTMEM_API CUresult CUDAAPI cuStreamSetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr,
                                                      const CUstreamAttrValue *v);
EXTMEM_API CUresult CUDAAPI cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src);
EXTMEM_API CUresult CUDAAPI cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus);
EXTMEM_API CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                                unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                                void **kernelParams, void **extra);
/* grid (issue 25) */
EXTMEM_API CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                           unsigned int gridDimZ, unsigned int blockDimX,
                                                           unsigned int blockDimY, unsigned int blockDimZ,
                                                           unsigned int sharedMemBytes, CUstream hStream,
                                                           void **kernelParams);
EXTMEM_API CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                                  void **extra);
EXTMEM_API CUresult CUDAAPI cuSignalExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray,
                                                                 const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
                                                                 unsigned int numExtSems, CUstream stream);
EXTMEM_API CUresult CUDAAPI cuWaitExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray,
                                                               const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
                                                               unsigned int numExtSems, CUstream stream);

EXTMEM_API CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                                         CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream);
/* 3D, peer and batch copies (src/memory/copy3d.c). */
EXTMEM_API CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                              CUcontext srcContext, size_t ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                                   CUcontext srcContext, size_t ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes,
                                                       size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs,
                                                       size_t numAttrs, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
                                                         unsigned long long flags, CUstream hStream);
/* CUDA 12.8's per-thread forms, with failIdx. */
EXTMEM_API CUresult CUDAAPI cuMemcpyBatchAsync_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                                    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                                    size_t *failIdx, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpy3DBatchAsync_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                                                      unsigned long long flags, CUstream hStream);
/* Managed memory and stream memory operations (src/memory/managed.c, src/memory/memop.c). */
EXTMEM_API CUresult CUDAAPI cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                                       unsigned int flags, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                         CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                         size_t numPrefetchLocs, unsigned long long flags,
                                                         CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                        unsigned long long flags, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count,
                                                                   CUmemLocation *prefetchLocs,
                                                                   size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                                   unsigned long long flags, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length,
                                                        unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamWaitValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                                                        unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamWaitValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                                                        unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamWriteValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                                                         unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamWriteValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                                                         unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamBatchMemOp_v2_ptsz(CUstream stream, unsigned int count,
                                                       CUstreamBatchMemOpParams *paramArray, unsigned int flags);

#endif
