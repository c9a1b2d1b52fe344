/*
 * src/runtime/kernel.c: what the runtime says and sets about kernels and device variables.
 *
 * Each call names a kernel by its host stub and a variable by its host shadow; register.c
 * turns them into the CUfunction or device address of the current context (loading the
 * module on first use), and the driver answers. The runtime's enums for function attributes
 * and cache preferences carry the driver's values (cudaFuncAttributeMaxDynamicSharedMemorySize
 * is CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8, ...), as NVIDIA's headers define them.
 */
#include <stdint.h>
#include <string.h>

#include "runtime/runtime.h"

cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    const char *fn = "cudaFuncGetAttributes";
    if (attr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: attr is NULL", fn);
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, func, &f);
    if (err != cudaSuccess)
        return err;
    /* CU_FUNC_ATTRIBUTE_* 0..15 (CUfunction_attribute of the driver API): each field of
     * cudaFuncAttributes is one of them. */
    int v[16];
    for (int i = 0; i < 16; ++i) {
        CUresult r = cuFuncGetAttribute(&v[i], (CUfunction_attribute)i, f);
        if (r != CUDA_SUCCESS)
            return rt_cu(r);
    }
    memset(attr, 0, sizeof *attr);
    attr->maxThreadsPerBlock = v[0];
    attr->sharedSizeBytes = (size_t)v[1];
    attr->constSizeBytes = (size_t)v[2];
    attr->localSizeBytes = (size_t)v[3];
    attr->numRegs = v[4];
    attr->ptxVersion = v[5];
    attr->binaryVersion = v[6];
    attr->cacheModeCA = v[7];
    attr->maxDynamicSharedSizeBytes = v[8];
    attr->preferredShmemCarveout = v[9];
    attr->clusterDimMustBeSet = v[10];
    attr->requiredClusterWidth = v[11];
    attr->requiredClusterHeight = v[12];
    attr->requiredClusterDepth = v[13];
    attr->nonPortableClusterSizeAllowed = v[14];
    attr->clusterSchedulingPolicyPreference = v[15];
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    const char *fn = "cudaFuncSetAttribute";
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, func, &f);
    if (err != cudaSuccess)
        return err;
    if ((int)attr < (int)cudaFuncAttributeMaxDynamicSharedMemorySize || (int)attr >= (int)cudaFuncAttributeMax)
        return rt_fail(cudaErrorInvalidValue,
                       "%s: attr %d is not a cudaFuncAttribute that can be set (8..15: "
                       "cudaFuncAttributeMaxDynamicSharedMemorySize and after)",
                       fn, (int)attr);
    return rt_cu(cuFuncSetAttribute(f, (CUfunction_attribute)attr, value));
}

cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    const char *fn = "cudaFuncSetCacheConfig";
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, func, &f);
    if (err != cudaSuccess)
        return err;
    if ((unsigned int)cacheConfig > (unsigned int)cudaFuncCachePreferEqual)
        return rt_fail(cudaErrorInvalidValue, "%s: cacheConfig %d is not a cudaFuncCache (0..3)", fn,
                       (int)cacheConfig);
    return rt_cu(cuFuncSetCacheConfig(f, (CUfunc_cache)cacheConfig));
}

static cudaError_t occupancy(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize,
                             unsigned int flags)
{
    const char *fn = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
    if (numBlocks == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: numBlocks is NULL", fn);
    if (flags & ~(unsigned int)cudaOccupancyDisableCachingOverride)
        return rt_fail(cudaErrorInvalidValue,
                       "%s: flags 0x%x has unknown bits: use cudaOccupancyDefault or "
                       "cudaOccupancyDisableCachingOverride",
                       fn, flags);
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, func, &f);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, f, blockSize, dynamicSMemSize, flags));
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                    size_t dynamicSMemSize)
{
    return occupancy(numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                             int blockSize, size_t dynamicSMemSize,
                                                                             unsigned int flags)
{
    return occupancy(numBlocks, func, blockSize, dynamicSMemSize, flags);
}

/* ---- Device variables ---- */

/* The variable's address at offset, with the copy's range checked against its size. */
static cudaError_t symbol_range(const char *fn, const void *symbol, size_t count, size_t offset, void **at)
{
    CUdeviceptr dptr;
    size_t size;
    cudaError_t err = rt_symbol(fn, symbol, &dptr, &size);
    if (err != cudaSuccess)
        return err;
    if (offset > size || count > size - offset)
        return rt_fail(cudaErrorInvalidValue, "%s: %zu bytes at offset %zu run past the variable's %zu bytes", fn,
                       count, offset, size);
    *at = (void *)(uintptr_t)(dptr + offset);
    return cudaSuccess;
}

/* How a symbol copy is queued: cudaMemcpy in the legacy stream, cudaMemcpy_ptds in the
 * thread's, or cudaMemcpyAsync in a stream (already resolved for the _ptsz forms). */
enum copy_mode { COPY_SYNC, COPY_SYNC_PER_THREAD, COPY_ASYNC };

static cudaError_t copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, enum copy_mode mode,
                        cudaStream_t stream)
{
    switch (mode) {
    case COPY_SYNC:
        return cudaMemcpy(dst, src, count, kind);
    case COPY_SYNC_PER_THREAD:
        return cudaMemcpy_ptds(dst, src, count, kind);
    default:
        return cudaMemcpyAsync(dst, src, count, kind, stream);
    }
}

cudaError_t rt_to_symbol(const char *fn, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                         void **at)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidMemcpyDirection,
                       "%s: kind %d cannot copy to a device variable: use cudaMemcpyHostToDevice, "
                       "cudaMemcpyDeviceToDevice or cudaMemcpyDefault",
                       fn, (int)kind);
    return symbol_range(fn, symbol, count, offset, at);
}

cudaError_t rt_from_symbol(const char *fn, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                           void **at)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_fail(cudaErrorInvalidMemcpyDirection,
                       "%s: kind %d cannot copy from a device variable: use cudaMemcpyDeviceToHost, "
                       "cudaMemcpyDeviceToDevice or cudaMemcpyDefault",
                       fn, (int)kind);
    return symbol_range(fn, symbol, count, offset, at);
}

static cudaError_t to_symbol(const char *fn, const void *symbol, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind, enum copy_mode mode, cudaStream_t stream)
{
    void *at;
    cudaError_t err = rt_to_symbol(fn, symbol, count, offset, kind, &at);
    if (err != cudaSuccess)
        return err;
    return copy(at, src, count, kind, mode, stream);
}

static cudaError_t from_symbol(const char *fn, void *dst, const void *symbol, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, enum copy_mode mode, cudaStream_t stream)
{
    void *at;
    cudaError_t err = rt_from_symbol(fn, symbol, count, offset, kind, &at);
    if (err != cudaSuccess)
        return err;
    return copy(dst, at, count, kind, mode, stream);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind)
{
    return to_symbol("cudaMemcpyToSymbol", symbol, src, count, offset, kind, COPY_SYNC, NULL);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind)
{
    return to_symbol("cudaMemcpyToSymbol", symbol, src, count, offset, kind, COPY_SYNC_PER_THREAD, NULL);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
    return from_symbol("cudaMemcpyFromSymbol", dst, symbol, count, offset, kind, COPY_SYNC, NULL);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind)
{
    return from_symbol("cudaMemcpyFromSymbol", dst, symbol, count, offset, kind, COPY_SYNC_PER_THREAD, NULL);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return to_symbol("cudaMemcpyToSymbolAsync", symbol, src, count, offset, kind, COPY_ASYNC, stream);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return to_symbol("cudaMemcpyToSymbolAsync", symbol, src, count, offset, kind, COPY_ASYNC, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return from_symbol("cudaMemcpyFromSymbolAsync", dst, symbol, count, offset, kind, COPY_ASYNC, stream);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return from_symbol("cudaMemcpyFromSymbolAsync", dst, symbol, count, offset, kind, COPY_ASYNC, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    if (devPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaGetSymbolAddress: devPtr is NULL");
    CUdeviceptr dptr;
    size_t size;
    cudaError_t err = rt_symbol("cudaGetSymbolAddress", symbol, &dptr, &size);
    if (err == cudaSuccess)
        *devPtr = (void *)(uintptr_t)dptr;
    return err;
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *size, const void *symbol)
{
    if (size == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaGetSymbolSize: size is NULL");
    CUdeviceptr dptr;
    return rt_symbol("cudaGetSymbolSize", symbol, &dptr, size);
}

cudaError_t CUDARTAPI cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    CUfunction f;
    cudaError_t err = rt_kernel_function("cudaFuncSetSharedMemConfig", func, &f);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuFuncSetSharedMemConfig(f, (CUsharedconfig)config)); /* the same values */
}

cudaError_t CUDARTAPI cudaFuncGetName(const char **name, const void *func)
{
    const char *fn = "cudaFuncGetName";
    if (name == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: name is NULL", fn);
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, func, &f);
    if (err != cudaSuccess)
        return err;
    /* The module's name for it: mangled for a C++ kernel, as NVIDIA's runtime answers. */
    return rt_cu(cuFuncGetName(name, f));
}

cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                           size_t *paramSize)
{
    CUfunction f;
    cudaError_t err = rt_kernel_function("cudaFuncGetParamInfo", func, &f);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuFuncGetParamInfo(f, paramIndex, paramOffset, paramSize));
}

cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    const char *fn = "cudaGetFuncBySymbol";
    if (functionPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: functionPtr is NULL", fn);
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, symbolPtr, &f);
    if (err == cudaSuccess)
        *functionPtr = (cudaFunction_t)f;
    return err;
}

/* ---- Clusters: occupancy (the driver's, with the runtime's launch configuration) ---- */
static cudaError_t cluster_query(const char *fn, int *out, const void *func, const cudaLaunchConfig_t *config,
                                 bool active)
{
    if (out == NULL || config == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: %s is NULL", fn, out == NULL ? "the result" : "launchConfig");
    if (config->numAttrs != 0 && config->attrs == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: numAttrs is %u and attrs is NULL", fn, config->numAttrs);
    if (config->dynamicSmemBytes > UINT32_MAX)
        return rt_fail(cudaErrorInvalidValue, "%s: %zu bytes of dynamic shared memory is too many", fn,
                       config->dynamicSmemBytes);
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, func, &f);
    if (err != cudaSuccess)
        return err;
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof(attr));
    unsigned int n = 0;
    for (unsigned int i = 0; i < config->numAttrs; ++i)
        if (config->attrs[i].id == cudaLaunchAttributeClusterDimension) {
            attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            attr.value.clusterDim.x = config->attrs[i].val.clusterDim.x;
            attr.value.clusterDim.y = config->attrs[i].val.clusterDim.y;
            attr.value.clusterDim.z = config->attrs[i].val.clusterDim.z;
            n = 1;
        }
    CUlaunchConfig c = {config->gridDim.x, config->gridDim.y, config->gridDim.z, config->blockDim.x,
                        config->blockDim.y, config->blockDim.z, (unsigned)config->dynamicSmemBytes, config->stream,
                        n ? &attr : NULL, n};
    return rt_cu(active ? cuOccupancyMaxActiveClusters(out, f, &c) : cuOccupancyMaxPotentialClusterSize(out, f, &c));
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                     const cudaLaunchConfig_t *launchConfig)
{
    return cluster_query("cudaOccupancyMaxActiveClusters", numClusters, func, launchConfig, true);
}

cudaError_t CUDARTAPI cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                           const cudaLaunchConfig_t *launchConfig)
{
    return cluster_query("cudaOccupancyMaxPotentialClusterSize", clusterSize, func, launchConfig, false);
}
