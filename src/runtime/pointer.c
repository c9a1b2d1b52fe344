/*
 * src/runtime/pointer.c: cudaPointerGetAttributes, over cuPointerGetAttributes.
 *
 * Since CUDA 11 an address the driver does not know is not an error: it is
 * cudaMemoryTypeUnregistered (docs/probes/surface/probe.out has NVIDIA's answer for each kind
 * of memory).
 */
#include <string.h>

#include "runtime/runtime.h"

cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    if (attributes == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaPointerGetAttributes: attributes is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUmemorytype type = 0;
    int ordinal = -2, managed = 0;
    CUdeviceptr dptr = 0;
    void *hptr = NULL;
    CUpointer_attribute which[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                   CU_POINTER_ATTRIBUTE_IS_MANAGED, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                   CU_POINTER_ATTRIBUTE_HOST_POINTER};
    void *data[] = {&type, &ordinal, &managed, &dptr, &hptr};
    err = rt_cu(cuPointerGetAttributes(5, which, data, rt_dptr(ptr)));
    if (err != cudaSuccess)
        return err;
    memset(attributes, 0, sizeof(*attributes));
    if (type == 0) { /* an address extmem did not allocate or register: as the H100 answers */
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->device = -2; /* cudaInvalidDeviceId */
        attributes->hostPointer = (void *)ptr;
        return cudaSuccess;
    }
    attributes->type = managed ? cudaMemoryTypeManaged
                       : type == CU_MEMORYTYPE_HOST ? cudaMemoryTypeHost
                                                    : cudaMemoryTypeDevice;
    attributes->device = ordinal;
    attributes->devicePointer = (void *)(uintptr_t)dptr;
    /* Device memory is host memory on the software device, but CUDA reports a host pointer
     * only for host and managed memory. */
    attributes->hostPointer = attributes->type == cudaMemoryTypeDevice ? NULL : hptr;
    return cudaSuccess;
}
