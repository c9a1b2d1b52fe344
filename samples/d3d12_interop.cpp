// extmem-d3d12-sample: Direct3D 12 and a software-device kernel share one buffer, zero copy.
//
// As NVIDIA's D3D12 samples do, it picks the adapter whose LUID is the CUDA device's
// (cuDeviceGetLuid: the adapter the software device works with, WARP on Windows). Direct3D
// fills a buffer in a heap made by extmem_d3d12_create_shareable_heap; the heap is imported in
// one call (extmem_d3d12_import_heap); a kernel squares every element in place; Direct3D copies
// the buffer to a readback buffer, and the program checks every element. Exit 0 and PASSED.
#define WIDL_EXPLICIT_AGGREGATE_RETURNS // mingw-w64: the MSVC ABI for methods returning structs
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <d3d12.h>
#include <dxgi1_4.h>

#include "extmem/d3d.h"
#include "extmem/extmem.h"

#include <cstdio>
#include <cstring>
#include <initializer_list>

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

static const unsigned int kCount = 1 << 18; // 1 MiB of 32-bit words

struct square_args {
    unsigned int *data;
    unsigned int count;
};

// One block per 256 elements; every thread squares one.
static void square(const extmem_block *block, void *p)
{
    const square_args *a = (const square_args *)p;
    EXTMEM_FOR_EACH_THREAD(block, tx, ty, tz)
    {
        (void)ty, (void)tz;
        unsigned int i = block->blockIdx.x * block->blockDim.x + tx;
        if (i < a->count)
            a->data[i] *= a->data[i];
    }
}

static IDXGIAdapter1 *adapter_with_luid(IDXGIFactory4 *factory, const LUID &luid)
{
    for (UINT i = 0;; ++i) {
        IDXGIAdapter1 *a = nullptr;
        if (factory->EnumAdapters1(i, &a) != S_OK)
            break;
        DXGI_ADAPTER_DESC1 desc;
        a->GetDesc1(&desc);
        if (memcmp(&desc.AdapterLuid, &luid, sizeof(luid)) == 0)
            return a;
        a->Release();
    }
    IDXGIAdapter1 *warp = nullptr; // WARP is not enumerated with the others
    DXGI_ADAPTER_DESC1 desc;
    if (SUCCEEDED(factory->EnumWarpAdapter(IID_PPV_ARGS(&warp))) && SUCCEEDED(warp->GetDesc1(&desc)) &&
        memcmp(&desc.AdapterLuid, &luid, sizeof(luid)) == 0)
        return warp;
    if (warp)
        warp->Release();
    return nullptr;
}

static D3D12_RESOURCE_DESC buffer_desc(UINT64 size)
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = size;
    d.Height = d.DepthOrArraySize = d.MipLevels = 1;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return d;
}

int main()
{
    const UINT64 size = kCount * sizeof(unsigned int);
    CUcontext ctx;
    CHECK_CU(cuInit(0));
    CHECK_CU(cuCtxCreate(&ctx, nullptr, 0, 0));

    // The adapter of the CUDA device's LUID, as interop code finds its partner.
    IDXGIFactory4 *factory = nullptr;
    CHECK_HR(CreateDXGIFactory1(IID_PPV_ARGS(&factory)));
    char luid_bytes[8];
    unsigned int node_mask;
    CHECK_CU(cuDeviceGetLuid(luid_bytes, &node_mask, 0));
    LUID luid;
    memcpy(&luid, luid_bytes, sizeof(luid));
    IDXGIAdapter1 *adapter = adapter_with_luid(factory, luid);
    if (!adapter) {
        fprintf(stderr, "no adapter has the CUDA device's LUID %08lx:%08lx\n", (long)luid.HighPart,
                (unsigned long)luid.LowPart);
        return 1;
    }
    DXGI_ADAPTER_DESC1 adesc;
    adapter->GetDesc1(&adesc);
    printf("paired adapter: %ls (LUID %08lx:%08lx)\n", adesc.Description, (long)luid.HighPart,
           (unsigned long)luid.LowPart);
    ID3D12Device *device = nullptr;
    CHECK_HR(D3D12CreateDevice(adapter, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&device)));
    adapter->Release();
    factory->Release();

    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    D3D12_COMMAND_QUEUE_DESC qdesc = {};
    qdesc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    CHECK_HR(device->CreateCommandQueue(&qdesc, IID_PPV_ARGS(&queue)));
    CHECK_HR(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&allocator)));
    CHECK_HR(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator, nullptr, IID_PPV_ARGS(&list)));
    CHECK_HR(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence)));
    HANDLE done = CreateEventA(nullptr, FALSE, FALSE, nullptr);
    UINT64 fence_value = 0;

    // The shared buffer: placed in a heap the software device can reach.
    ID3D12Heap *heap;
    CHECK_CU(extmem_d3d12_create_shareable_heap(device, size, &heap));
    D3D12_RESOURCE_DESC bdesc = buffer_desc(size);
    ID3D12Resource *shared, *upload, *readback;
    CHECK_HR(device->CreatePlacedResource(heap, 0, &bdesc, D3D12_RESOURCE_STATE_COMMON, nullptr, IID_PPV_ARGS(&shared)));
    D3D12_HEAP_PROPERTIES up = {}, rb = {};
    up.Type = D3D12_HEAP_TYPE_UPLOAD;
    rb.Type = D3D12_HEAP_TYPE_READBACK;
    CHECK_HR(device->CreateCommittedResource(&up, D3D12_HEAP_FLAG_NONE, &bdesc, D3D12_RESOURCE_STATE_GENERIC_READ,
                                             nullptr, IID_PPV_ARGS(&upload)));
    CHECK_HR(device->CreateCommittedResource(&rb, D3D12_HEAP_FLAG_NONE, &bdesc, D3D12_RESOURCE_STATE_COPY_DEST,
                                             nullptr, IID_PPV_ARGS(&readback)));
    unsigned int *words;
    CHECK_HR(upload->Map(0, nullptr, (void **)&words));
    for (unsigned int i = 0; i < kCount; ++i)
        words[i] = i & 0xffff;
    upload->Unmap(0, nullptr);

    // Direct3D: upload -> shared, then wait.
    list->CopyBufferRegion(shared, 0, upload, 0, size);
    CHECK_HR(list->Close());
    ID3D12CommandList *lists[] = {list};
    queue->ExecuteCommandLists(1, lists);
    CHECK_HR(queue->Signal(fence, ++fence_value));
    CHECK_HR(fence->SetEventOnCompletion(fence_value, done));
    WaitForSingleObject(done, INFINITE);

    // The software device: import the heap in one call, square every element in place.
    CUexternalMemory ext;
    CHECK_CU(extmem_d3d12_import_heap(heap, &ext));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC buf = {};
    buf.size = size;
    CUdeviceptr data;
    CHECK_CU(cuExternalMemoryGetMappedBuffer(&data, ext, &buf));
    square_args args = {(unsigned int *)(uintptr_t)data, kCount};
    extmem_dim3 grid = {kCount / 256, 1, 1}, block = {256, 1, 1};
    CHECK_CU(extmem_launch_kernel(square, grid, block, &args, sizeof(args), nullptr));
    CHECK_CU(cuCtxSynchronize());

    // Direct3D: shared -> readback, then check what the kernel wrote.
    CHECK_HR(allocator->Reset());
    CHECK_HR(list->Reset(allocator, nullptr));
    list->CopyBufferRegion(readback, 0, shared, 0, size);
    CHECK_HR(list->Close());
    queue->ExecuteCommandLists(1, lists);
    CHECK_HR(queue->Signal(fence, ++fence_value));
    CHECK_HR(fence->SetEventOnCompletion(fence_value, done));
    WaitForSingleObject(done, INFINITE);
    CHECK_HR(readback->Map(0, nullptr, (void **)&words));
    unsigned int wrong = 0;
    for (unsigned int i = 0; i < kCount; ++i)
        wrong += words[i] != (i & 0xffff) * (i & 0xffff);
    readback->Unmap(0, nullptr);
    printf("%u elements squared by the software device, read back by Direct3D 12: %u wrong\n", kCount, wrong);

    CHECK_CU(cuMemFree(data));
    CHECK_CU(cuDestroyExternalMemory(ext));
    for (IUnknown *o : {(IUnknown *)shared, (IUnknown *)upload, (IUnknown *)readback, (IUnknown *)heap,
                        (IUnknown *)list, (IUnknown *)allocator, (IUnknown *)queue, (IUnknown *)fence})
        o->Release();
    device->Release();
    CloseHandle(done);
    CHECK_CU(cuCtxDestroy(ctx));
    printf(wrong ? "FAILED\n" : "PASSED\n");
    return wrong ? 1 : 0;
}
