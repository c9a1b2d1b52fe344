/* tests/fuzz/ptx_driver.c: see ptx_driver.h. */
#include "ptx_driver.h"

#include <extmem/extmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long loaded;

unsigned long ptx_driver_loaded(void) { return loaded; }

static bool setup(char *message, size_t size)
{
    static CUcontext ctx;
    if (ctx)
        return true;
    CUdevice dev;
    CUresult r = cuInit(0);
    if (!r)
        r = cuDeviceGet(&dev, 0);
    if (!r)
        r = cuDevicePrimaryCtxRetain(&ctx, dev);
    if (!r)
        r = cuCtxSetCurrent(ctx);
    if (r)
        snprintf(message, size, "set-up failed: %d: %s\n", (int)r, extmem_error_detail());
    return r == CUDA_SUCCESS;
}

bool ptx_driver_run(const uint8_t *data, size_t size, char *message, size_t message_size)
{
    if (!setup(message, message_size))
        return false;
    /* PTX is NUL-terminated text for cuModuleLoadData. */
    char *text = malloc(size + 1);
    if (!text)
        return true;
    memcpy(text, data, size);
    text[size] = 0;
    CUmodule m = NULL;
    CUresult r = cuModuleLoadData(&m, text);
    free(text);
    if (r == CUDA_SUCCESS) {
        loaded++;
        CUresult u = cuModuleUnload(m);
        if (u != CUDA_SUCCESS) {
            snprintf(message, message_size, "cuModuleUnload of a loaded module answered %d: %s\n", (int)u,
                     extmem_error_detail());
            return false;
        }
        return true;
    }
    if (r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_NO_BINARY_FOR_GPU ||
        r == CUDA_ERROR_NOT_SUPPORTED || r == CUDA_ERROR_OUT_OF_MEMORY) {
        if (!extmem_error_detail()[0]) {
            snprintf(message, message_size, "error %d without a reason\n", (int)r);
            return false;
        }
        return true;
    }
    snprintf(message, message_size, "cuModuleLoadData answered %d: %s\n", (int)r, extmem_error_detail());
    return false;
}
