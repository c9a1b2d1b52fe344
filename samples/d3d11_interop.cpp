// extmem-d3d11-sample: a Direct3D 11 buffer processed by a software-device kernel.
//
// Direct3D 11 shares resources only in memory its driver owns, which the CPU (the software
// device) cannot reach, so there is no zero-copy import (cuImportExternalMemory answers
// D3D11_RESOURCE with CUDA_ERROR_NOT_SUPPORTED and the reason). The documented path is a copy
// at the synchronisation points: Direct3D copies the buffer into a staging buffer, the program
// maps it and copies it to device memory, a kernel runs, the result goes back the same way.
// The device is created on the adapter whose LUID is the CUDA device's (cuDeviceGetLuid), as
// interop code pairs them. Exit 0 and PASSED.
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <d3d11.h>
#include <dxgi1_4.h>

#include "extmem/extmem.h"

#include <cstdio>
#include <cstring>

#define CHECK_CU(call)                                                                                 \
    do {                                                                                               \
        CUresult r_ = (call);                                                                          \
        if (r_ != CUDA_SUCCESS) {                                                                      \
            fprintf(stderr, "%s failed: %d: %s\n", #call, (int)r_, extmem_error_detail());              \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)
#define CHECK_HR(call)                                                                                 \
    do {                                                                                               \
        HRESULT hr_ = (call);                                                                          \
        if (FAILED(hr_)) {                                                                             \
            fprintf(stderr, "%s failed: HRESULT 0x%08lx\n", #call, (unsigned long)hr_);                  \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

static const unsigned int kCount = 1 << 16;

struct add_args {
    unsigned int *data;
    unsigned int count;
    unsigned int addend;
};

static void add(const extmem_block *block, void *p)
{
    const add_args *a = (const add_args *)p;
    EXTMEM_FOR_EACH_THREAD(block, tx, ty, tz)
    {
        (void)ty, (void)tz;
        unsigned int i = block->blockIdx.x * block->blockDim.x + tx;
        if (i < a->count)
            a->data[i] += a->addend;
    }
}

static IDXGIAdapter1 *adapter_with_luid(const LUID &luid)
{
    IDXGIFactory4 *factory = nullptr;
    if (FAILED(CreateDXGIFactory1(IID_PPV_ARGS(&factory))))
        return nullptr;
    IDXGIAdapter1 *found = nullptr;
    for (UINT i = 0; !found; ++i) {
        IDXGIAdapter1 *a = nullptr;
        if (factory->EnumAdapters1(i, &a) != S_OK)
            break;
        DXGI_ADAPTER_DESC1 desc;
        a->GetDesc1(&desc);
        if (memcmp(&desc.AdapterLuid, &luid, sizeof(luid)) == 0)
            found = a;
        else
            a->Release();
    }
    DXGI_ADAPTER_DESC1 desc;
    if (!found && SUCCEEDED(factory->EnumWarpAdapter(IID_PPV_ARGS(&found))) &&
        (FAILED(found->GetDesc1(&desc)) || memcmp(&desc.AdapterLuid, &luid, sizeof(luid)) != 0)) {
        found->Release();
        found = nullptr;
    }
    factory->Release();
    return found;
}

int main()
{
    CUcontext ctx;
    CHECK_CU(cuInit(0));
    CHECK_CU(cuCtxCreate(&ctx, nullptr, 0, 0));
    char luid_bytes[8];
    unsigned int node_mask;
    CHECK_CU(cuDeviceGetLuid(luid_bytes, &node_mask, 0));
    LUID luid;
    memcpy(&luid, luid_bytes, sizeof(luid));
    IDXGIAdapter1 *adapter = adapter_with_luid(luid);
    if (!adapter) {
        fprintf(stderr, "no adapter has the CUDA device's LUID\n");
        return 1;
    }
    ID3D11Device *device;
    ID3D11DeviceContext *immediate;
    CHECK_HR(D3D11CreateDevice(adapter, D3D_DRIVER_TYPE_UNKNOWN, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &device,
                               nullptr, &immediate));
    adapter->Release();
    printf("Direct3D 11 device on the adapter of LUID %08lx:%08lx\n", (long)luid.HighPart, (unsigned long)luid.LowPart);

    // Direct3D's buffer, in its own memory, with the values 0, 1, 2...
    static unsigned int initial[kCount];
    for (unsigned int i = 0; i < kCount; ++i)
        initial[i] = i;
    D3D11_BUFFER_DESC desc = {};
    desc.ByteWidth = sizeof(initial);
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    D3D11_SUBRESOURCE_DATA data = {initial, 0, 0};
    ID3D11Buffer *buffer, *staging;
    CHECK_HR(device->CreateBuffer(&desc, &data, &buffer));
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    CHECK_HR(device->CreateBuffer(&desc, nullptr, &staging));

    // Synchronisation point 1: Direct3D's result reaches the software device.
    CUdeviceptr d_data;
    CHECK_CU(cuMemAlloc(&d_data, sizeof(initial)));
    immediate->CopyResource(staging, buffer);
    D3D11_MAPPED_SUBRESOURCE mapped;
    CHECK_HR(immediate->Map(staging, 0, D3D11_MAP_READ_WRITE, 0, &mapped)); // waits for the copy
    CHECK_CU(cuMemcpyHtoD(d_data, mapped.pData, sizeof(initial)));
    add_args args = {(unsigned int *)(uintptr_t)d_data, kCount, 1000};
    extmem_dim3 grid = {kCount / 256, 1, 1}, block = {256, 1, 1};
    CHECK_CU(extmem_launch_kernel(add, grid, block, &args, sizeof(args), nullptr));
    // Synchronisation point 2: the kernel's result goes back to Direct3D.
    CHECK_CU(cuMemcpyDtoH(mapped.pData, d_data, sizeof(initial))); // waits for the kernel
    immediate->Unmap(staging, 0);
    immediate->CopyResource(buffer, staging);

    // Direct3D reads its buffer back.
    immediate->CopyResource(staging, buffer);
    CHECK_HR(immediate->Map(staging, 0, D3D11_MAP_READ, 0, &mapped));
    const unsigned int *out = (const unsigned int *)mapped.pData;
    unsigned int wrong = 0;
    for (unsigned int i = 0; i < kCount; ++i)
        wrong += out[i] != i + 1000;
    immediate->Unmap(staging, 0);
    printf("%u elements of a Direct3D 11 buffer processed by the software device: %u wrong\n", kCount, wrong);

    CHECK_CU(cuMemFree(d_data));
    staging->Release();
    buffer->Release();
    immediate->Release();
    device->Release();
    CHECK_CU(cuCtxDestroy(ctx));
    printf(wrong ? "FAILED\n" : "PASSED\n");
    return wrong ? 1 : 0;
}
