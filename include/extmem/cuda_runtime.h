/*
 * extmem/cuda_runtime.h: CUDA C++ on extmem, for clang with no CUDA toolkit.
 *
 * Written for extmem from the CUDA C++ Programming Guide and the runtime API documentation.
 * It stands in for NVIDIA's cuda_runtime.h when clang compiles CUDA with
 *
 *     clang++ -x cuda --cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
 *             -I<prefix>/include -I<prefix>/include/extmem -include extmem/cuda_runtime.h
 *
 * (cmake/ExtmemCuda.cmake's extmem_add_cuda_executable does all of that): the execution
 * space and memory space specifiers (__global__, __device__, __shared__, __constant__, ...),
 * the built-in variables and device functions (extmem/cuda_builtins.h), the runtime API
 * (extmem/cuda_runtime_api.h), and the C++ forms NVIDIA's header adds to it: templates that
 * take a kernel or a variable itself (cudaLaunchKernel(kernel, ...), cudaMemcpyToSymbol(var,
 * ...)), typed allocation (cudaMalloc(&intPointer, n)), and cudaOccupancyMaxPotentialBlockSize.
 *
 * Included from plain C++ (no -x cuda), it gives the runtime API and the templates, and the
 * specifiers expand to nothing, so host-only files of a CUDA program compile as well.
 */
#ifndef EXTMEM_CUDA_RUNTIME_H
#define EXTMEM_CUDA_RUNTIME_H

/* Code tests for NVIDIA's include guard. */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif

#include "extmem/cuda_runtime_api.h"
#include "extmem/driver_functions.h"
#include "extmem/vector_types.h"

#if defined(__CUDA__)
#define __host__        __attribute__((host))
#define __device__      __attribute__((device))
#define __global__      __attribute__((global))
#define __shared__      __attribute__((shared))
#define __constant__    __attribute__((constant))
#define __managed__     __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__    __attribute__((noinline))
#define __align__(n)    __attribute__((aligned(n)))
#ifndef __restrict__
#define __restrict__ __restrict
#endif

/* What CUDA's headers bring that programs count on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__CUDA__)
#include "extmem/cuda_builtins.h"
#include "extmem/texture_functions.h"
#endif

#if defined(__cplusplus)

/* ---- Typed forms --------------------------------------------------------------------------
 * C++ does not turn int ** into void ** or a function into const void *: these forward to
 * the C entry points with the casts a program would otherwise write. */

template <class T> static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size)
{
    return ::cudaMalloc((void **)(void *)devPtr, size);
}

template <class T> static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size)
{
    return ::cudaMallocHost((void **)(void *)ptr, size);
}

template <class T> static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
    return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                                         unsigned int flags = cudaMemAttachGlobal)
{
    return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

template <class T> static __inline__ __host__ cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream)
{
    return ::cudaMallocAsync((void **)(void *)devPtr, size, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaLaunchKernel(T *func, dim3 grid, dim3 block, void **args,
                                                        size_t sharedMem = 0, cudaStream_t stream = 0)
{
    return ::cudaLaunchKernel((const void *)func, grid, block, args, sharedMem, stream);
}

/* cudaLaunchCooperativeKernel(kernel, ...) (issue 25), as cudaLaunchKernel's form above */
template <class T>
static __inline__ __host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args,
                                                                   size_t sharedMem = 0, cudaStream_t stream = 0)
{
    return ::cudaLaunchCooperativeKernel((const void *)func, grid, block, args, sharedMem, stream);
}

/* cudaLaunchKernelEx(config, kernel, arguments...): each argument converted to the kernel's
 * parameter type, then passed by address. */
template <class... Params, class... Args>
static __inline__ __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(Params...),
                                                          Args &&...args)
{
    return [&](Params... converted) -> cudaError_t {
        void *pointers[sizeof...(Params) > 0 ? sizeof...(Params) : 1] = {(void *)&converted...};
        return ::cudaLaunchKernelExC(config, (const void *)kernel, pointers);
    }(static_cast<Params>(static_cast<Args &&>(args))...);
}

template <class T>
static __inline__ __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry)
{
    return ::cudaFuncGetAttributes(attr, (const void *)entry);
}

template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value)
{
    return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}

template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig)
{
    return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                                     int blockSize,
                                                                                     size_t dynamicSMemSize)
{
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                    dynamicSMemSize, cudaOccupancyDefault);
}

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize, unsigned int flags)
{
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                    dynamicSMemSize, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                                          size_t offset = 0,
                                                          enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                                            size_t offset = 0,
                                                            enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                               size_t offset = 0,
                                                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                               cudaStream_t stream = 0)
{
    return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                                                                 size_t offset = 0,
                                                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                                 cudaStream_t stream = 0)
{
    return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}

template <class T> static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol)
{
    return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}

template <class T> static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

/* ---- Graphs ----------------------------------------------------------------------------
 * The variable itself for the symbol copy nodes; the forms CUDA 11's code calls (an
 * instantiation with an error node and a log, an update answering with a node and a result);
 * a user object that deletes a C++ object. */
template <class T>
static __inline__ __host__ cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                                      const cudaGraphNode_t *pDependencies,
                                                                      size_t numDependencies, const T &symbol,
                                                                      const void *src, size_t count, size_t offset,
                                                                      enum cudaMemcpyKind kind)
{
    return ::cudaGraphAddMemcpyNodeToSymbol(pGraphNode, graph, pDependencies, numDependencies, (const void *)&symbol,
                                            src, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode,
                                                                        cudaGraph_t graph,
                                                                        const cudaGraphNode_t *pDependencies,
                                                                        size_t numDependencies, void *dst,
                                                                        const T &symbol, size_t count, size_t offset,
                                                                        enum cudaMemcpyKind kind)
{
    return ::cudaGraphAddMemcpyNodeFromSymbol(pGraphNode, graph, pDependencies, numDependencies, dst,
                                              (const void *)&symbol, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const T &symbol,
                                                                            const void *src, size_t count,
                                                                            size_t offset, enum cudaMemcpyKind kind)
{
    return ::cudaGraphMemcpyNodeSetParamsToSymbol(node, (const void *)&symbol, src, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst,
                                                                              const T &symbol, size_t count,
                                                                              size_t offset, enum cudaMemcpyKind kind)
{
    return ::cudaGraphMemcpyNodeSetParamsFromSymbol(node, dst, (const void *)&symbol, count, offset, kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec,
                                                                                cudaGraphNode_t node, const T &symbol,
                                                                                const void *src, size_t count,
                                                                                size_t offset, enum cudaMemcpyKind kind)
{
    return ::cudaGraphExecMemcpyNodeSetParamsToSymbol(hGraphExec, node, (const void *)&symbol, src, count, offset,
                                                      kind);
}

template <class T>
static __inline__ __host__ cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                                                  cudaGraphNode_t node, void *dst,
                                                                                  const T &symbol, size_t count,
                                                                                  size_t offset,
                                                                                  enum cudaMemcpyKind kind)
{
    return ::cudaGraphExecMemcpyNodeSetParamsFromSymbol(hGraphExec, node, dst, (const void *)&symbol, count, offset,
                                                        kind);
}

/* CUDA 11's instantiation: the error node and log are not written (the result says what failed). */
static __inline__ __host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                            cudaGraphNode_t *pErrorNode, char *pLogBuffer,
                                                            size_t bufferSize)
{
    (void)pErrorNode;
    (void)pLogBuffer;
    (void)bufferSize;
    return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}

/* CUDA 11's update: the node and the result out of the result information. */
static __inline__ __host__ cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                                           cudaGraphNode_t *hErrorNode_out,
                                                           enum cudaGraphExecUpdateResult *updateResult_out)
{
    cudaGraphExecUpdateResultInfo info;
    cudaError_t err = ::cudaGraphExecUpdate(hGraphExec, hGraph, &info);
    if (hErrorNode_out)
        *hErrorNode_out = info.errorNode;
    if (updateResult_out)
        *updateResult_out = info.result;
    return err;
}

/* A user object owning objectToWrap: its last release deletes it. */
template <class T>
static __inline__ __host__ cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, T *objectToWrap,
                                                            unsigned int initialRefcount, unsigned int flags)
{
    return ::cudaUserObjectCreate(
        object_out, objectToWrap, [](void *p) { delete reinterpret_cast<T *>(p); }, initialRefcount, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, T *objectToWrap,
                                                            unsigned int initialRefcount, cudaUserObjectFlags flags)
{
    return cudaUserObjectCreate(object_out, objectToWrap, initialRefcount, (unsigned int)flags);
}

/* ---- cudaOccupancyMaxPotentialBlockSize ----------------------------------------------------
 * The block size that keeps the most threads resident on a multiprocessor, and the grid that
 * fills the device with such blocks. Every multiple of the warp size up to the kernel's and
 * the device's limit (and blockSizeLimit, when not 0) is tried; the largest block among the
 * best is kept, as NVIDIA's implementation does. dynamicSMemSize(blockSize) gives the dynamic
 * shared memory a block of that size needs (the VariableSMem form); the plain form uses a
 * constant. */
template <class UnaryFunction, class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = cudaOccupancyDefault)
{
    if (minGridSize == NULL || blockSize == NULL)
        return cudaErrorInvalidValue;
    int device = 0, sms = 0, deviceLimit = 0, warp = 0;
    struct cudaFuncAttributes attr;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&deviceLimit, cudaDevAttrMaxThreadsPerBlock, device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
    if (err == cudaSuccess)
        err = ::cudaFuncGetAttributes(&attr, (const void *)func);
    if (err != cudaSuccess)
        return err;
    int limit = deviceLimit < attr.maxThreadsPerBlock ? deviceLimit : attr.maxThreadsPerBlock;
    if (blockSizeLimit > 0 && blockSizeLimit < limit)
        limit = blockSizeLimit;
    int bestBlock = 0, bestThreads = 0, bestBlocks = 0;
    for (int size = limit; size > 0; size -= (size % warp ? size % warp : warp)) {
        int blocks = 0;
        err = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, (const void *)func, size, (size_t)blockSizeToDynamicSMemSize(size), flags);
        if (err != cudaSuccess)
            return err;
        if (blocks * size > bestThreads) {
            bestThreads = blocks * size;
            bestBlock = size;
            bestBlocks = blocks;
        }
    }
    *blockSize = bestBlock;
    *minGridSize = bestBlocks * sms;
    return cudaSuccess;
}

template <class UnaryFunction, class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func,
                                                                   blockSizeToDynamicSMemSize, blockSizeLimit,
                                                                   cudaOccupancyDefault);
}

struct extmem_constant_smem {
    size_t bytes;
    size_t operator()(int) const { return bytes; }
};

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                                          size_t dynamicSMemSize = 0,
                                                                          int blockSizeLimit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, extmem_constant_smem{dynamicSMemSize}, blockSizeLimit, cudaOccupancyDefault);
}

template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                                                   T func, size_t dynamicSMemSize = 0,
                                                                                   int blockSizeLimit = 0,
                                                                                   unsigned int flags = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, extmem_constant_smem{dynamicSMemSize}, blockSizeLimit, flags);
}

#endif /* __cplusplus */

#endif /* EXTMEM_CUDA_RUNTIME_H */
