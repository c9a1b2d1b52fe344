/*
 * src/runtime/library.c: the runtime's library calls, over cuLibrary* (src/module/library.c),
 * and the other kernel queries that are the driver's with runtime types.
 */
#include <stdint.h>

#include "runtime/runtime.h"

cudaError_t CUDARTAPI cudaLibraryLoadData(cudaLibrary_t *library, const void *code, enum cudaJitOption *jitOptions,
                                          void **jitOptionsValues, unsigned int numJitOptions,
                                          enum cudaLibraryOption *libraryOptions, void **libraryOptionValues,
                                          unsigned int numLibraryOptions)
{
    /* A library belongs to no context: the driver must only be initialised. The option
     * enums have the driver's values. */
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuLibraryLoadData(library, code, (CUjit_option *)jitOptions, jitOptionsValues, numJitOptions,
                                   (CUlibraryOption *)libraryOptions, libraryOptionValues, numLibraryOptions));
}

cudaError_t CUDARTAPI cudaLibraryLoadFromFile(cudaLibrary_t *library, const char *fileName,
                                              enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                              unsigned int numJitOptions, enum cudaLibraryOption *libraryOptions,
                                              void **libraryOptionValues, unsigned int numLibraryOptions)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuLibraryLoadFromFile(library, fileName, (CUjit_option *)jitOptions, jitOptionsValues, numJitOptions,
                                       (CUlibraryOption *)libraryOptions, libraryOptionValues, numLibraryOptions));
}

cudaError_t CUDARTAPI cudaLibraryUnload(cudaLibrary_t library) { return rt_cu(cuLibraryUnload(library)); }

cudaError_t CUDARTAPI cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library, const char *name)
{
    return rt_cu(cuLibraryGetKernel((CUkernel *)pKernel, library, name));
}

/* The global's device address in the thread's device's context (the library is loaded into
 * every context). */
cudaError_t CUDARTAPI cudaLibraryGetGlobal(void **dptr, size_t *bytes, cudaLibrary_t library, const char *name)
{
    if (dptr == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaLibraryGetGlobal: dptr is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUdeviceptr p = 0;
    err = rt_cu(cuLibraryGetGlobal(&p, bytes, library, name));
    if (err == cudaSuccess)
        *dptr = (void *)(uintptr_t)p;
    return err;
}

cudaError_t CUDARTAPI cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib)
{
    return rt_cu(cuLibraryGetKernelCount(count, lib));
}

cudaError_t CUDARTAPI cudaLibraryEnumerateKernels(cudaKernel_t *kernels, unsigned int numKernels, cudaLibrary_t lib)
{
    return rt_cu(cuLibraryEnumerateKernels((CUkernel *)kernels, numKernels, lib));
}

cudaError_t CUDARTAPI cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr, int value,
                                                      int device)
{
    CUdevice dev;
    cudaError_t err = rt_device("cudaKernelSetAttributeForDevice", device, &dev);
    if (err != cudaSuccess)
        return err;
    /* cudaFuncAttribute's values are CUfunction_attribute's from 8 on (max dynamic shared
     * memory, carveout, ...), which are the only ones that can be set. */
    return rt_cu(cuKernelSetAttribute((CUfunction_attribute)attr, value, (CUkernel)kernel, dev));
}

cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                int numBlocks, int blockSize)
{
    CUfunction f;
    cudaError_t err = rt_kernel_function("cudaOccupancyAvailableDynamicSMemPerBlock", func, &f);
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, f, numBlocks, blockSize));
}

cudaError_t CUDARTAPI cudaSetValidDevices(int *device_arr, int len)
{
    const char *fn = "cudaSetValidDevices";
    if (len < 0 || (len > 0 && device_arr == NULL))
        return rt_fail(cudaErrorInvalidValue, "%s: %s", fn, len < 0 ? "len is negative" : "device_arr is NULL");
    CUdevice dev;
    for (int i = 0; i < len; ++i) {
        cudaError_t err = rt_device(fn, device_arr[i], &dev);
        if (err != cudaSuccess)
            return err;
    }
    /* One device: whatever the list, the thread's device is device 0, as it already is. */
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceFlushGPUDirectRDMAWrites(enum cudaFlushGPUDirectRDMAWritesTarget target,
                                                         enum cudaFlushGPUDirectRDMAWritesScope scope)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuFlushGPUDirectRDMAWrites((CUflushGPUDirectRDMAWritesTarget)target,
                                            (CUflushGPUDirectRDMAWritesScope)scope));
}

cudaError_t CUDARTAPI cudaDeviceGetHostAtomicCapabilities(unsigned int *capabilities,
                                                          const enum cudaAtomicOperation *operations,
                                                          unsigned int count, int device)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuDeviceGetHostAtomicCapabilities(capabilities, (const CUatomicOperation *)operations, count,
                                                   (CUdevice)device));
}

cudaError_t CUDARTAPI cudaDeviceGetP2PAtomicCapabilities(unsigned int *capabilities,
                                                         const enum cudaAtomicOperation *operations,
                                                         unsigned int count, int srcDevice, int dstDevice)
{
    CUresult r = rt_driver_init();
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    return rt_cu(cuDeviceGetP2PAtomicCapabilities(capabilities, (const CUatomicOperation *)operations, count,
                                                  (CUdevice)srcDevice, (CUdevice)dstDevice));
}
