/* Direct3D where there is none (every platform but Windows): the core never gets this far with
 * a D3D type (external_memory.c refuses them first), and the device keeps its own LUID. */
#include "d3d/d3d.h"

CUresult d3d_open_shared(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, struct ext_source *out)
{
    (void)d;
    (void)out;
    return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: Direct3D exists on Windows only", fn);
}

CUresult d3d_open_opaque(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, struct ext_source *out)
{
    (void)fn, (void)d, (void)out;
    return CUDA_ERROR_NOT_FOUND;
}

CUresult d3d_open_fence(const char *fn, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d, CUexternalSemaphore *out)
{
    (void)d;
    (void)out;
    return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: Direct3D exists on Windows only", fn);
}

CUresult d3d_open_d3d11_sync(const char *fn, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d, CUexternalSemaphore *out)
{
    (void)d;
    (void)out;
    return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: Direct3D exists on Windows only", fn);
}

void d3d_staged_sync(bool in) { (void)in; }

bool d3d_adapter_luid(unsigned char luid[8])
{
    (void)luid;
    return false;
}
