/*
 * src/runtime/capture.c: stream capture and user objects, over the driver's
 * cuStreamBeginCapture_v2, cuStreamEndCapture, cuStreamGetCaptureInfo_v3 and cuUserObject*
 * (docs/graphs.md has the capture rules, which are the driver's).
 *
 * The capture modes, statuses and edge data have the driver's values and layouts; the _ptsz
 * forms name the per-thread stream where the stream is NULL.
 */
#if defined(EXTMEM_CUDART_ABI) && EXTMEM_CUDART_ABI == 12
/* CUDA 13's capture information and dependency update are CUDA 12.3's _v3 / _v2 forms, which
 * libcudart.so.12 exports under those names, with CUDA 12's forms under the plain ones (below). */
#define cudaStreamGetCaptureInfo                 rt_stream_get_capture_info_13
#define cudaStreamGetCaptureInfo_ptsz            rt_stream_get_capture_info_13_ptsz
#define cudaStreamUpdateCaptureDependencies      rt_stream_update_capture_dependencies_13
#define cudaStreamUpdateCaptureDependencies_ptsz rt_stream_update_capture_dependencies_13_ptsz
#endif
#include "runtime/runtime.h"

#undef cudaStreamBeginCapture
#undef cudaStreamBeginCaptureToGraph
#undef cudaStreamEndCapture
#if !defined(EXTMEM_CUDART_ABI) || EXTMEM_CUDART_ABI != 12
#undef cudaStreamGetCaptureInfo
#undef cudaStreamUpdateCaptureDependencies
#endif

_Static_assert((int)cudaStreamCaptureModeRelaxed == (int)CU_STREAM_CAPTURE_MODE_RELAXED, "capture modes agree");
_Static_assert((int)cudaStreamSetCaptureDependencies == (int)CU_STREAM_SET_CAPTURE_DEPENDENCIES,
               "dependency update flags agree");

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuStreamBeginCapture(stream, (CUstreamCaptureMode)mode));
}

cudaError_t CUDARTAPI cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    return cudaStreamBeginCapture(rt_ptsz(stream), mode);
}

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                    const cudaGraphNode_t *dependencies,
                                                    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                    enum cudaStreamCaptureMode mode)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err
                              : rt_cu(cuStreamBeginCaptureToGraph(stream, graph, dependencies,
                                                                  (const CUgraphEdgeData *)(const void *)dependencyData,
                                                                  numDependencies, (CUstreamCaptureMode)mode));
}

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                         const cudaGraphNode_t *dependencies,
                                                         const cudaGraphEdgeData *dependencyData,
                                                         size_t numDependencies, enum cudaStreamCaptureMode mode)
{
    return cudaStreamBeginCaptureToGraph(rt_ptsz(stream), graph, dependencies, dependencyData, numDependencies, mode);
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuStreamEndCapture(stream, pGraph));
}

cudaError_t CUDARTAPI cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
    return cudaStreamEndCapture(rt_ptsz(stream), pGraph);
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                               unsigned long long *id_out, cudaGraph_t *graph_out,
                                               const cudaGraphNode_t **dependencies_out,
                                               const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    if (captureStatus_out == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamGetCaptureInfo: captureStatus_out is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    _Static_assert(sizeof(unsigned long long) == sizeof(cuuint64_t), "capture ids are 64 bits");
    err = rt_cu(cuStreamGetCaptureInfo(stream, &status, (cuuint64_t *)id_out, graph_out, dependencies_out,
                                       (const CUgraphEdgeData **)(void *)edgeData_out, numDependencies_out));
    if (err == cudaSuccess)
        *captureStatus_out = (enum cudaStreamCaptureStatus)status;
    return err;
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                    enum cudaStreamCaptureStatus *captureStatus_out,
                                                    unsigned long long *id_out, cudaGraph_t *graph_out,
                                                    const cudaGraphNode_t **dependencies_out,
                                                    const cudaGraphEdgeData **edgeData_out,
                                                    size_t *numDependencies_out)
{
    return cudaStreamGetCaptureInfo(rt_ptsz(stream), captureStatus_out, id_out, graph_out, dependencies_out,
                                    edgeData_out, numDependencies_out);
}

cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                          const cudaGraphEdgeData *dependencyData,
                                                          size_t numDependencies, unsigned int flags)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err
                              : rt_cu(cuStreamUpdateCaptureDependencies(
                                    stream, dependencies, (const CUgraphEdgeData *)(const void *)dependencyData,
                                    numDependencies, flags));
}

cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                               const cudaGraphEdgeData *dependencyData,
                                                               size_t numDependencies, unsigned int flags)
{
    return cudaStreamUpdateCaptureDependencies(rt_ptsz(stream), dependencies, dependencyData, numDependencies, flags);
}

/* The mode is the thread's: it needs the driver, not a context. */
cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    if (mode == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode: mode is NULL");
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    CUstreamCaptureMode m = (CUstreamCaptureMode)*mode;
    r = cuThreadExchangeStreamCaptureMode(&m);
    if (r == CUDA_SUCCESS)
        *mode = (enum cudaStreamCaptureMode)m;
    return rt_cu(r);
}

/* ---- User objects ---- */

cudaError_t CUDARTAPI cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                           unsigned int initialRefcount, unsigned int flags)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err
                              : rt_cu(cuUserObjectCreate(object_out, ptr, (CUhostFn)destroy, initialRefcount, flags));
}

cudaError_t CUDARTAPI cudaUserObjectRetain(cudaUserObject_t object, unsigned int count)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuUserObjectRetain(object, count));
}

cudaError_t CUDARTAPI cudaUserObjectRelease(cudaUserObject_t object, unsigned int count)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuUserObjectRelease(object, count));
}

cudaError_t CUDARTAPI cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count,
                                                unsigned int flags)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuGraphRetainUserObject(graph, object, count, flags));
}

cudaError_t CUDARTAPI cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count)
{
    cudaError_t err = rt_context();
    return err != cudaSuccess ? err : rt_cu(cuGraphReleaseUserObject(graph, object, count));
}

#if defined(EXTMEM_CUDART_ABI) && EXTMEM_CUDART_ABI == 12
#undef cudaStreamGetCaptureInfo
#undef cudaStreamGetCaptureInfo_ptsz
#undef cudaStreamUpdateCaptureDependencies
#undef cudaStreamUpdateCaptureDependencies_ptsz

/* CUDA 12's forms: no edge data. Declared here with EXTMEM_API, as the header declares the
 * CUDA 13 forms under these names. */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                          enum cudaStreamCaptureStatus *captureStatus_out,
                                                          unsigned long long *id_out, cudaGraph_t *graph_out,
                                                          const cudaGraphNode_t **dependencies_out,
                                                          size_t *numDependencies_out);
cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                               unsigned long long *id_out, cudaGraph_t *graph_out,
                                               const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
    return rt_stream_get_capture_info_13(stream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                                         numDependencies_out);
}
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                               enum cudaStreamCaptureStatus *captureStatus_out,
                                                               unsigned long long *id_out, cudaGraph_t *graph_out,
                                                               const cudaGraphNode_t **dependencies_out,
                                                               size_t *numDependencies_out);
cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                    enum cudaStreamCaptureStatus *captureStatus_out,
                                                    unsigned long long *id_out, cudaGraph_t *graph_out,
                                                    const cudaGraphNode_t **dependencies_out,
                                                    size_t *numDependencies_out)
{
    return rt_stream_get_capture_info_13(rt_ptsz(stream), captureStatus_out, id_out, graph_out, dependencies_out,
                                         NULL, numDependencies_out);
}
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v3(cudaStream_t stream,
                                                             enum cudaStreamCaptureStatus *captureStatus_out,
                                                             unsigned long long *id_out, cudaGraph_t *graph_out,
                                                             const cudaGraphNode_t **dependencies_out,
                                                             const cudaGraphEdgeData **edgeData_out,
                                                             size_t *numDependencies_out);
cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v3(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                                  unsigned long long *id_out, cudaGraph_t *graph_out,
                                                  const cudaGraphNode_t **dependencies_out,
                                                  const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    return rt_stream_get_capture_info_13(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                                         numDependencies_out);
}
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v3_ptsz(cudaStream_t stream,
                                                                  enum cudaStreamCaptureStatus *captureStatus_out,
                                                                  unsigned long long *id_out, cudaGraph_t *graph_out,
                                                                  const cudaGraphNode_t **dependencies_out,
                                                                  const cudaGraphEdgeData **edgeData_out,
                                                                  size_t *numDependencies_out);
cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_v3_ptsz(cudaStream_t stream,
                                                       enum cudaStreamCaptureStatus *captureStatus_out,
                                                       unsigned long long *id_out, cudaGraph_t *graph_out,
                                                       const cudaGraphNode_t **dependencies_out,
                                                       const cudaGraphEdgeData **edgeData_out,
                                                       size_t *numDependencies_out)
{
    return rt_stream_get_capture_info_13(rt_ptsz(stream), captureStatus_out, id_out, graph_out, dependencies_out,
                                         edgeData_out, numDependencies_out);
}

EXTMEM_API cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                                     size_t numDependencies, unsigned int flags);
cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                          size_t numDependencies, unsigned int flags)
{
    return rt_stream_update_capture_dependencies_13(stream, dependencies, NULL, numDependencies, flags);
}
EXTMEM_API cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                                          cudaGraphNode_t *dependencies,
                                                                          size_t numDependencies, unsigned int flags);
cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                               size_t numDependencies, unsigned int flags)
{
    return rt_stream_update_capture_dependencies_13(rt_ptsz(stream), dependencies, NULL, numDependencies, flags);
}
EXTMEM_API cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream,
                                                                        cudaGraphNode_t *dependencies,
                                                                        const cudaGraphEdgeData *dependencyData,
                                                                        size_t numDependencies, unsigned int flags);
cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                             const cudaGraphEdgeData *dependencyData,
                                                             size_t numDependencies, unsigned int flags)
{
    return rt_stream_update_capture_dependencies_13(stream, dependencies, dependencyData, numDependencies, flags);
}
EXTMEM_API cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_v2_ptsz(cudaStream_t stream,
                                                                             cudaGraphNode_t *dependencies,
                                                                             const cudaGraphEdgeData *dependencyData,
                                                                             size_t numDependencies,
                                                                             unsigned int flags);
cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_v2_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                                  const cudaGraphEdgeData *dependencyData,
                                                                  size_t numDependencies, unsigned int flags)
{
    return rt_stream_update_capture_dependencies_13(rt_ptsz(stream), dependencies, dependencyData, numDependencies,
                                                    flags);
}
#endif
