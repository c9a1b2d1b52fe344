/*
 * src/runtime/device.c: device management and versions.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "extmem/cudaProfiler.h"
#include "extmem/cuda_profiler_api.h"
#include "runtime/runtime.h"

/* Each field of cudaDeviceProp that mirrors a device attribute, with that attribute. The
 * pairs are NVIDIA's: on the real runtime every field below equals cuDeviceGetAttribute of
 * its attribute (checked field by field on an H100 with CUDA 13.0). */
#define RT_PROP_ATTRIBUTES(X) \
    X(sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK) \
    X(regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK) \
    X(warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE) \
    X(memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH) \
    X(maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK) \
    X(maxThreadsDim[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X) \
    X(maxThreadsDim[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y) \
    X(maxThreadsDim[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z) \
    X(maxGridSize[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X) \
    X(maxGridSize[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y) \
    X(maxGridSize[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z) \
    X(totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY) \
    X(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) \
    X(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) \
    X(textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT) \
    X(texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT) \
    X(multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) \
    X(integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED) \
    X(canMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY) \
    X(maxTexture1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH) \
    X(maxTexture1DMipmap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH) \
    X(maxTexture2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH) \
    X(maxTexture2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT) \
    X(maxTexture2DMipmap[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH) \
    X(maxTexture2DMipmap[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT) \
    X(maxTexture2DLinear[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH) \
    X(maxTexture2DLinear[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT) \
    X(maxTexture2DLinear[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH) \
    X(maxTexture2DGather[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH) \
    X(maxTexture2DGather[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT) \
    X(maxTexture3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH) \
    X(maxTexture3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT) \
    X(maxTexture3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH) \
    X(maxTexture3DAlt[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE) \
    X(maxTexture3DAlt[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE) \
    X(maxTexture3DAlt[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE) \
    X(maxTextureCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH) \
    X(maxTexture1DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH) \
    X(maxTexture1DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS) \
    X(maxTexture2DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH) \
    X(maxTexture2DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT) \
    X(maxTexture2DLayered[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS) \
    X(maxTextureCubemapLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH) \
    X(maxTextureCubemapLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS) \
    X(maxSurface1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH) \
    X(maxSurface2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH) \
    X(maxSurface2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT) \
    X(maxSurface3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH) \
    X(maxSurface3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT) \
    X(maxSurface3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH) \
    X(maxSurface1DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH) \
    X(maxSurface1DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS) \
    X(maxSurface2DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH) \
    X(maxSurface2DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT) \
    X(maxSurface2DLayered[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS) \
    X(maxSurfaceCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH) \
    X(maxSurfaceCubemapLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH) \
    X(maxSurfaceCubemapLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS) \
    X(surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT) \
    X(concurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS) \
    X(ECCEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED) \
    X(pciBusID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID) \
    X(pciDeviceID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID) \
    X(pciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID) \
    X(tccDriver, CU_DEVICE_ATTRIBUTE_TCC_DRIVER) \
    X(asyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT) \
    X(unifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) \
    X(memoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH) \
    X(l2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE) \
    X(persistingL2CacheMaxSize, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE) \
    X(maxThreadsPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) \
    X(streamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED) \
    X(globalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED) \
    X(localL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED) \
    X(sharedMemPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) \
    X(regsPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR) \
    X(managedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) \
    X(isMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD) \
    X(multiGpuBoardGroupID, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID) \
    X(hostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED) \
    X(pageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS) \
    X(concurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS) \
    X(computePreemptionSupported, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED) \
    X(canUseHostPointerForRegisteredMem, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM) \
    X(cooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH) \
    X(sharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) \
    X(pageableMemoryAccessUsesHostPageTables, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES) \
    X(directManagedMemAccessFromHost, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST) \
    X(maxBlocksPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR) \
    X(accessPolicyMaxWindowSize, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE) \
    X(reservedSharedMemPerBlock, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK) \
    X(hostRegisterSupported, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED) \
    X(sparseCudaArraySupported, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED) \
    X(hostRegisterReadOnlySupported, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED) \
    X(timelineSemaphoreInteropSupported, CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED) \
    X(memoryPoolsSupported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) \
    X(gpuDirectRDMASupported, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED) \
    X(gpuDirectRDMAFlushWritesOptions, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS) \
    X(gpuDirectRDMAWritesOrdering, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING) \
    X(memoryPoolSupportedHandleTypes, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES) \
    X(deferredMappingCudaArraySupported, CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED) \
    X(ipcEventSupported, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED) \
    X(clusterLaunch, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH) \
    X(unifiedFunctionPointers, CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS) \
    X(deviceNumaConfig, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG) \
    X(deviceNumaId, CU_DEVICE_ATTRIBUTE_NUMA_ID) \
    X(mpsEnabled, CU_DEVICE_ATTRIBUTE_MPS_ENABLED) \
    X(hostNumaId, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID) \
    X(gpuPciDeviceID, CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID) \
    X(gpuPciSubsystemID, CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID) \
    X(hostNumaMultinodeIpcSupported, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED)

cudaError_t CUDARTAPI cudaDriverGetVersion(int *driverVersion)
{
    if (driverVersion == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaDriverGetVersion: driverVersion is NULL");
    return rt_cu(cuDriverGetVersion(driverVersion));
}

cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (runtimeVersion == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaRuntimeGetVersion: runtimeVersion is NULL");
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceCount(int *count)
{
    if (count == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaGetDeviceCount: count is NULL");
    *count = 0;
    CUresult r = rt_driver_init();
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetCount(count);
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaSetDevice(int device)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaSetDevice", device, &dev);
    if (err != cudaSuccess)
        return err;
    return rt_set_device(device);
}

cudaError_t CUDARTAPI cudaGetDevice(int *device)
{
    if (device == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaGetDevice: device is NULL");
    /* The device of a context the thread has current wins over the thread's setting, which
     * is what the runtime would use once it creates one. No context is created here. */
    CUcontext current = NULL;
    CUdevice dev;
    if (rt_driver_init() == CUDA_SUCCESS && cuCtxGetCurrent(&current) == CUDA_SUCCESS && current != NULL && cuCtxGetDevice(&dev) == CUDA_SUCCESS) {
        *device = (int)dev;
        return cudaSuccess;
    }
    *device = rt_thread_device();
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (prop == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaGetDeviceProperties: prop is NULL");
    CUdevice dev;
    cudaError_t err = rt_device("cudaGetDeviceProperties", device, &dev);
    if (err != cudaSuccess)
        return err;

    /* Filled in a copy, so that a failure leaves *prop as it was. */
    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    CUresult r = cuDeviceGetName(p.name, (int)sizeof p.name, dev);
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetUuid(&p.uuid, dev);
    if (r == CUDA_SUCCESS)
        r = cuDeviceTotalMem(&p.totalGlobalMem, dev);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    /* A LUID is a Windows notion: where the driver has none, the fields stay zero, as with
     * NVIDIA's runtime on Linux. */
    if (cuDeviceGetLuid(p.luid, &p.luidDeviceNodeMask, dev) != CUDA_SUCCESS) {
        memset(p.luid, 0, sizeof p.luid);
        p.luidDeviceNodeMask = 0;
    }

    int v = 0;
#define RT_PROP_FILL(field, attr)                       \
    r = cuDeviceGetAttribute(&v, attr, dev);            \
    if (r != CUDA_SUCCESS)                              \
        return rt_cu(r);                                \
    p.field = v;
    RT_PROP_ATTRIBUTES(RT_PROP_FILL)
#undef RT_PROP_FILL

    *prop = p;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (value == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: value is NULL");
    CUdevice dev;
    cudaError_t err = rt_device("cudaDeviceGetAttribute", device, &dev);
    if (err != cudaSuccess)
        return err;
    /* cudaDeviceAttr shares CUdevice_attribute's values; the driver judges the range. */
    return rt_cu(cuDeviceGetAttribute(value, (CUdevice_attribute)attr, dev));
}

cudaError_t CUDARTAPI cudaDeviceSynchronize(void)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuCtxSynchronize());
}

cudaError_t CUDARTAPI cudaDeviceReset(void)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_reset_device();
}

/* ---- Device choice, flags, peers and limits ---- */

cudaError_t CUDARTAPI cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (device == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaChooseDevice: device is NULL");
    if (prop == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaChooseDevice: prop is NULL");
    /* One device: it is the closest match to any properties. */
    *device = 0;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags)
{
    const char *fn = "cudaSetDeviceFlags";
    unsigned int sched = flags & cudaDeviceScheduleMask;
    if ((flags & ~(unsigned int)cudaDeviceMask) || (sched & (sched - 1)))
        return rt_fail(cudaErrorInvalidValue,
                       "%s: flags 0x%x has unknown bits or more than one cudaDeviceSchedule* bit", fn, flags);
    CUdevice dev;
    cudaError_t err = rt_device(fn, rt_thread_device(), &dev);
    if (err != cudaSuccess)
        return err;
    /* cudaDevice* flags have the values of CU_CTX_* (cudaDeviceMapHost is CU_CTX_MAP_HOST). */
    return rt_cu(cuDevicePrimaryCtxSetFlags(dev, flags));
}

cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int *flags)
{
    if (flags == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaGetDeviceFlags: flags is NULL");
    CUdevice dev;
    cudaError_t err = rt_device("cudaGetDeviceFlags", rt_thread_device(), &dev);
    if (err != cudaSuccess)
        return err;
    unsigned int f = 0;
    int active = 0;
    CUresult r = cuDevicePrimaryCtxGetState(dev, &f, &active);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *flags = f | cudaDeviceMapHost;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    const char *fn = "cudaDeviceCanAccessPeer";
    if (canAccessPeer == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: canAccessPeer is NULL", fn);
    CUdevice dev;
    cudaError_t err = rt_device(fn, device, &dev);
    if (err == cudaSuccess)
        err = rt_device(fn, peerDevice, &dev);
    if (err != cudaSuccess)
        return err;
    /* A device is not its own peer (NVIDIA's runtime answers 0 for device == peerDevice). */
    *canAccessPeer = 0;
    return cudaSuccess;
}

/* The only device is the current one, and a device is not its own peer: NVIDIA's runtime
 * answers cudaErrorPeerAccessUnsupported to enable and cudaErrorPeerAccessNotEnabled to
 * disable access to the current device (H100, CUDA 13.0). */
static cudaError_t peer_check(const char *fn, int peerDevice, cudaError_t self)
{
    CUdevice dev;
    cudaError_t err = rt_device(fn, peerDevice, &dev);
    if (err != cudaSuccess)
        return err;
    return rt_fail(self, "%s: device %d is the current device: a device is not its own peer", fn, peerDevice);
}

cudaError_t CUDARTAPI cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    if (flags != 0)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceEnablePeerAccess: flags 0x%x is not 0", flags);
    return peer_check("cudaDeviceEnablePeerAccess", peerDevice, cudaErrorPeerAccessUnsupported);
}

cudaError_t CUDARTAPI cudaDeviceDisablePeerAccess(int peerDevice)
{
    return peer_check("cudaDeviceDisablePeerAccess", peerDevice, cudaErrorPeerAccessNotEnabled);
}

/* The limits, with the defaults an H100 reports under CUDA 13.0 (the persisting L2 size is 0,
 * the software device having no L2). The stack's, the printf FIFO's and the malloc heap's are
 * the primary context's (cuCtxSetLimit), which its launches read: not kept here. */
static _Atomic size_t rt_limits[] = {
    [cudaLimitStackSize] = 0,
    [cudaLimitPrintfFifoSize] = 0,
    [cudaLimitMallocHeapSize] = 0,
    [cudaLimitDevRuntimeSyncDepth] = 0,
    [cudaLimitDevRuntimePendingLaunchCount] = 2048,
    [cudaLimitMaxL2FetchGranularity] = 64,
    [cudaLimitPersistingL2CacheSize] = 0,
};

/* The limits the context keeps, under the driver's name (the numbers are the same). */
static int context_limit(enum cudaLimit limit)
{
    return limit == cudaLimitStackSize || limit == cudaLimitPrintfFifoSize || limit == cudaLimitMallocHeapSize ||
           /* grid (issue 25): the device runtime's, which launches from kernels use (CDP2 has no
            * sync depth: the driver answers cudaErrorUnsupportedLimit for it, as the H200's) */
           limit == cudaLimitDevRuntimePendingLaunchCount || limit == cudaLimitDevRuntimeSyncDepth;
}

static cudaError_t limit_check(const char *fn, enum cudaLimit limit)
{
    /* cudaErrorInvalidValue, not cudaErrorUnsupportedLimit: NVIDIA's answer (H100, CUDA 13.0). */
    if ((unsigned int)limit >= sizeof rt_limits / sizeof rt_limits[0])
        return rt_fail(cudaErrorInvalidValue, "%s: limit %d is not a cudaLimit (0..%d)", fn, (int)limit,
                       (int)cudaLimitPersistingL2CacheSize);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    if (pValue == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetLimit: pValue is NULL");
    cudaError_t err = limit_check("cudaDeviceGetLimit", limit);
    if (err != cudaSuccess)
        return err;
    if (context_limit(limit)) {
        /* The context's own, which its launches use. */
        if ((err = rt_context()) != cudaSuccess)
            return err;
        return rt_cu(cuCtxGetLimit(pValue, (CUlimit)limit));
    }
    *pValue = atomic_load(&rt_limits[limit]);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    const char *fn = "cudaDeviceSetLimit";
    cudaError_t err = limit_check(fn, limit);
    if (err != cudaSuccess)
        return err;
    if (limit == cudaLimitMaxL2FetchGranularity && value > 128)
        return rt_fail(cudaErrorInvalidValue, "%s: an L2 fetch granularity of %zu bytes is above 128", fn, value);
    if (context_limit(limit)) {
        /* The primary context's limit, as NVIDIA's runtime sets it: launches read it there,
         * and it reads back as the driver rounds it. Before, the stack's and the heap's were
         * kept here, where no launch read them. */
        if ((err = rt_context()) != cudaSuccess)
            return err;
        return rt_cu(cuCtxSetLimit((CUlimit)limit, value));
    }
    atomic_store(&rt_limits[limit], value);
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    const char *fn = "cudaInitDevice";
    CUdevice dev;
    cudaError_t err = rt_device(fn, device, &dev);
    if (err != cudaSuccess)
        return err;
    if (flags & ~(unsigned int)cudaInitDeviceFlagsAreValid)
        return rt_fail(cudaErrorInvalidValue, "%s: flags 0x%x: only cudaInitDeviceFlagsAreValid (0x1) is defined", fn,
                       flags);
    /* deviceFlags count only with cudaInitDeviceFlagsAreValid (NVIDIA's runtime ignores them
     * otherwise: docs/probes/surface). There is one device, the thread's. */
    if ((flags & cudaInitDeviceFlagsAreValid) && (err = cudaSetDeviceFlags(deviceFlags)) != cudaSuccess)
        return err;
    /* The primary context is retained now rather than at the first call that needs it. */
    return rt_context();
}

cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuCtxGetStreamPriorityRange(leastPriority, greatestPriority));
}

cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache(void)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuCtxResetPersistingL2Cache());
}

cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuCtxSetCacheConfig((CUfunc_cache)cacheConfig)); /* the same values */
}

cudaError_t CUDARTAPI cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    if (pCacheConfig == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig: pCacheConfig is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUfunc_cache c;
    CUresult r = cuCtxGetCacheConfig(&c);
    if (r == CUDA_SUCCESS)
        *pCacheConfig = (enum cudaFuncCache)c;
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuCtxSetSharedMemConfig((CUsharedconfig)config));
}

cudaError_t CUDARTAPI cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    if (pConfig == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetSharedMemConfig: pConfig is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUsharedconfig c;
    CUresult r = cuCtxGetSharedMemConfig(&c);
    if (r == CUDA_SUCCESS)
        *pConfig = (enum cudaSharedMemConfig)c;
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    /* The runtime's attributes carry the driver's values. */
    return rt_cu(cuDeviceGetP2PAttribute(value, (CUdevice_P2PAttribute)attr, srcDevice, dstDevice));
}

cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaDeviceGetPCIBusId", device, &dev);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuDeviceGetPCIBusId(pciBusId, len, dev));
}

cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (device == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetByPCIBusId: device is NULL");
    CUresult r = rt_driver_init();
    CUdevice dev;
    if (r == CUDA_SUCCESS && (r = cuDeviceGetByPCIBusId(&dev, pciBusId)) == CUDA_SUCCESS)
        *device = (int)dev;
    return rt_cu(r);
}

/* The driver's format for a channel descriptor: every channel present of one size (8, 16 or
 * 32 bits) and kind; false for anything else. */
static bool rt_array_format(const struct cudaChannelFormatDesc *d, CUarray_format *format, unsigned *channels)
{
    int bits[4] = {d->x, d->y, d->z, d->w};
    unsigned n = 0;
    while (n < 4 && bits[n] > 0)
        n++;
    for (unsigned i = 0; i < 4; ++i)
        if ((i < n && bits[i] != bits[0]) || (i >= n && bits[i] != 0))
            return false;
    if (n == 0)
        return false;
    *channels = n;
    switch (d->f) {
    case cudaChannelFormatKindSigned:
    case cudaChannelFormatKindUnsigned: {
        bool u = d->f == cudaChannelFormatKindUnsigned;
        if (bits[0] == 8)
            *format = u ? CU_AD_FORMAT_UNSIGNED_INT8 : CU_AD_FORMAT_SIGNED_INT8;
        else if (bits[0] == 16)
            *format = u ? CU_AD_FORMAT_UNSIGNED_INT16 : CU_AD_FORMAT_SIGNED_INT16;
        else if (bits[0] == 32)
            *format = u ? CU_AD_FORMAT_UNSIGNED_INT32 : CU_AD_FORMAT_SIGNED_INT32;
        else
            return false;
        return true;
    }
    case cudaChannelFormatKindFloat:
        if (bits[0] != 16 && bits[0] != 32)
            return false;
        *format = bits[0] == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
        return true;
    default:
        return false;
    }
}

cudaError_t CUDARTAPI cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                           const struct cudaChannelFormatDesc *fmtDesc, int device)
{
    const char *fn = "cudaDeviceGetTexture1DLinearMaxWidth";
    if (maxWidthInElements == NULL || fmtDesc == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: %s is NULL", fn, maxWidthInElements == NULL ? "maxWidthInElements"
                                                                                               : "fmtDesc");
    CUdevice dev;
    cudaError_t err = rt_device(fn, device, &dev);
    if (err != cudaSuccess)
        return err;
    CUarray_format format;
    unsigned channels;
    if (!rt_array_format(fmtDesc, &format, &channels))
        return rt_fail(cudaErrorInvalidValue,
                       "%s: the channel descriptor {%d, %d, %d, %d, kind %d} is not 1 to 4 channels of 8, 16 or 32 "
                       "bits of one signed, unsigned or float kind",
                       fn, fmtDesc->x, fmtDesc->y, fmtDesc->z, fmtDesc->w, (int)fmtDesc->f);
    return rt_cu(cuDeviceGetTexture1DLinearMaxWidth(maxWidthInElements, format, channels, dev));
}

cudaError_t CUDARTAPI cudaProfilerStart(void)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuProfilerStart());
}

cudaError_t CUDARTAPI cudaProfilerStop(void)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuProfilerStop());
}
