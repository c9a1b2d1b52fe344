/*
 * The Windows handle rules that external memory (external_memory.c) and external semaphores
 * (external_semaphore.c) share: which of a handle and a name a descriptor may give (NVIDIA's
 * cuda.h: KMT handles come without a name, the NT-handle types take exactly one of the two),
 * and where the object then is: the caller's NT handle, or one extmem opens by the name or the
 * KMT token (os_external_open_name / _token). And cuDeviceGetLuid, the LUID by which Direct3D
 * code picks the adapter to share memory with.
 */
#include "interop/interop.h"
#include "d3d/d3d.h"

#include <stdio.h>
#include <string.h>

CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceGetLuid");
    if (!luid || !deviceNodeMask)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetLuid: %s is NULL", !luid ? "luid" : "deviceNodeMask");
    CUresult r = device_check("cuDeviceGetLuid", dev);
    if (r)
        return r;
    /* Direct3D code picks its adapter by this LUID (NVIDIA's samples do): where the program
     * uses DXGI, it is the LUID of the adapter the software device works with (WARP;
     * src/d3d/d3d12.c); elsewhere the UUID's first bytes. */
    if (!d3d_adapter_luid((unsigned char *)luid)) {
        CUuuid uuid;
        device_uuid(&uuid);
        memcpy(luid, uuid.bytes, 8);
    }
    *deviceNodeMask = 1;
    return CUDA_SUCCESS;
}

CUresult ext_handle_check(const char *fn, const char *type, bool kmt, const void *handle, const void *name)
{
    if (kmt && (!handle || name))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s takes handle.win32.handle and no name (KMT handles have none); %s",
                    fn, type, !handle ? "the handle is NULL" : "a name is set");
    if (!kmt && !handle == !name)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s takes exactly one of handle.win32.handle and handle.win32.name; "
                    "%s", fn, type, handle ? "both are set" : "both are NULL");
    return CUDA_SUCCESS;
}

/* A UTF-16 name for messages: ASCII as it is, anything else as '?', long names cut. */
static void name_text(const uint16_t *name, char *out, size_t size)
{
    size_t n = 0;
    for (; name[n] && n + 1 < size; ++n)
        out[n] = name[n] >= 0x20 && name[n] < 0x7f ? (char)name[n] : '?';
    out[n] = '\0';
}

CUresult ext_handle_locate(const char *fn, const char *what, bool kmt, const void *handle, const uint16_t *name,
                           os_handle *h, bool *opened, char *label, size_t label_size)
{
    *opened = false;
    if (!kmt && handle) {
        *h = (os_handle)(intptr_t)handle;
        snprintf(label, label_size, "handle %p", handle);
        return CUDA_SUCCESS;
    }
    char text[128];
    int err;
    if (name) {
        char shown[80];
        name_text(name, shown, sizeof(shown));
        snprintf(label, label_size, "the %s named \"%s\"", what, shown);
        if ((err = os_external_open_name(name, h)))
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: no %s can be opened by the name \"%s\": %s", fn, what, shown,
                        os_error_string(err, text, sizeof(text)));
    } else {
        uintptr_t token = (uintptr_t)handle;
        snprintf(label, label_size, "KMT handle 0x%llx", (unsigned long long)token);
        if (token > UINT32_MAX)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is not a KMT handle (a D3DKMT_HANDLE has 32 bits)", fn, label);
        if ((err = os_external_open_token((uint32_t)token, h)))
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: no %s has the %s (a KMT handle holds no reference: it ends with "
                        "the last handle to the object): %s", fn, what, label,
                        os_error_string(err, text, sizeof(text)));
    }
    *opened = true;
    return CUDA_SUCCESS;
}
