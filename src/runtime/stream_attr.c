/*
 * src/runtime/stream_attr.c: what a stream answers besides its work, over the driver's calls
 * (src/exec/stream_attr.c): flags, attributes, capture status (priorities: stream.c).
 */
#include "runtime/runtime.h"

#undef cudaStreamGetFlags
#undef cudaStreamGetAttribute
#undef cudaStreamSetAttribute
#undef cudaStreamCopyAttributes
#undef cudaStreamIsCapturing

cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuStreamGetFlags(hStream, flags));
}

cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                             cudaStreamAttrValue *value_out)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err
                              : rt_cu(cuStreamGetAttribute(hStream, (CUstreamAttrID)attr,
                                                           (CUstreamAttrValue *)(void *)value_out));
}

cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                             const cudaStreamAttrValue *value)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err
                              : rt_cu(cuStreamSetAttribute(hStream, (CUstreamAttrID)attr,
                                                           (const CUstreamAttrValue *)(const void *)value));
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuStreamCopyAttributes(dst, src));
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    if (pCaptureStatus == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamIsCapturing: pCaptureStatus is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    err = rt_cu(cuStreamIsCapturing(stream, &status));
    if (err == cudaSuccess)
        *pCaptureStatus = (enum cudaStreamCaptureStatus)status;
    return err;
}

/* ---- Per-thread default stream forms ---- */
cudaError_t CUDARTAPI cudaStreamGetFlags_ptsz(cudaStream_t s, unsigned int *flags)
{
    return cudaStreamGetFlags(rt_ptsz(s), flags);
}
cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t s, cudaStreamAttrID attr, cudaStreamAttrValue *v)
{
    return cudaStreamGetAttribute(rt_ptsz(s), attr, v);
}
cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t s, cudaStreamAttrID attr, const cudaStreamAttrValue *v)
{
    return cudaStreamSetAttribute(rt_ptsz(s), attr, v);
}
cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src)
{
    return cudaStreamCopyAttributes(rt_ptsz(dst), rt_ptsz(src));
}
cudaError_t CUDARTAPI cudaStreamIsCapturing_ptsz(cudaStream_t s, enum cudaStreamCaptureStatus *status)
{
    return cudaStreamIsCapturing(rt_ptsz(s), status);
}
