/* The runtime's IPC calls: the driver's, with the runtime's types and codes. */
#include "runtime.h"

#include <string.h>

cudaError_t CUDARTAPI cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!handle)
        return rt_fail(cudaErrorInvalidValue, "cudaIpcGetMemHandle: handle is NULL");
    CUipcMemHandle h;
    err = rt_cu(cuIpcGetMemHandle(&h, rt_dptr(devPtr)));
    if (err == cudaSuccess)
        memcpy(handle, &h, sizeof(h));
    return err;
}

cudaError_t CUDARTAPI cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue, "cudaIpcOpenMemHandle: devPtr is NULL");
    CUipcMemHandle h;
    memcpy(&h, &handle, sizeof(h));
    CUdeviceptr p = 0;
    err = rt_cu(cuIpcOpenMemHandle(&p, h, flags));
    if (err == cudaSuccess)
        *devPtr = (void *)(uintptr_t)p;
    return err;
}

cudaError_t CUDARTAPI cudaIpcCloseMemHandle(void *devPtr)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuIpcCloseMemHandle(rt_dptr(devPtr)));
}

cudaError_t CUDARTAPI cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!handle)
        return rt_fail(cudaErrorInvalidValue, "cudaIpcGetEventHandle: handle is NULL");
    CUipcEventHandle h;
    err = rt_cu(cuIpcGetEventHandle(&h, (CUevent)event));
    if (err == cudaSuccess)
        memcpy(handle, &h, sizeof(h));
    return err;
}

cudaError_t CUDARTAPI cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!event)
        return rt_fail(cudaErrorInvalidValue, "cudaIpcOpenEventHandle: event is NULL");
    CUipcEventHandle h;
    memcpy(&h, &handle, sizeof(h));
    CUevent e = NULL;
    err = rt_cu(cuIpcOpenEventHandle(&e, h));
    if (err == cudaSuccess)
        *event = (cudaEvent_t)e;
    return err;
}
