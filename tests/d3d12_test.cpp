// Direct3D 12 interop: device pairing by LUID, CPU-visible heaps and buffers imported zero-copy,
// other memory through staging copies kept coherent at semaphore waits and signals
// (extmem/d3d.h), and cuImportExternalMemory's Direct3D rules
// (../shared/seeds/004_899ba516d5a0237d.txt; DESIGN.md §7; docs/d3d-interop.md).
// Direct3D runs for real: WARP on Windows; under wine, vkd3d over lavapipe (an X server is
// needed: scripts/test-windows.sh starts Xvfb).
#define WIDL_EXPLICIT_AGGREGATE_RETURNS // mingw-w64: the MSVC ABI for methods returning structs
#include "framework/testing.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <d3d12.h>
#include <d3d11_4.h>
#include <dxgi1_4.h>

#include "extmem/cuda_runtime_api.h"
#include "extmem/d3d.h"

#include <cstring>
#include <string>
#include <vector>

using namespace extmem_test;

namespace {

bool under_wine() { return GetProcAddress(GetModuleHandleA("ntdll.dll"), "wine_get_version") != nullptr; }

// What NVIDIA's D3D12 samples do: the adapter whose LUID is the CUDA device's.
IDXGIAdapter1 *adapter_with_luid(const LUID &luid)
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
    if (!found) { // WARP is not among the enumerated adapters
        IDXGIAdapter1 *warp = nullptr;
        DXGI_ADAPTER_DESC1 desc;
        if (SUCCEEDED(factory->EnumWarpAdapter(IID_PPV_ARGS(&warp))) && SUCCEEDED(warp->GetDesc1(&desc)) &&
            memcmp(&desc.AdapterLuid, &luid, sizeof(luid)) == 0)
            found = warp;
        else if (warp)
            warp->Release();
    }
    factory->Release();
    return found;
}

LUID device_luid()
{
    char bytes[8] = {};
    unsigned int mask = 0;
    cuDeviceGetLuid(bytes, &mask, 0);
    LUID luid;
    memcpy(&luid, bytes, sizeof(luid));
    return luid;
}

D3D12_HEAP_PROPERTIES heap_props(D3D12_HEAP_TYPE type)
{
    D3D12_HEAP_PROPERTIES p = {};
    p.Type = type;
    p.CreationNodeMask = p.VisibleNodeMask = 1;
    return p;
}

D3D12_RESOURCE_DESC buffer_desc(UINT64 size)
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = size;
    d.Height = d.DepthOrArraySize = d.MipLevels = 1;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return d;
}

// ID3D12Device3's IID: mingw-w64's d3d12.h (10) declares interfaces up to ID3D12Device1.
const GUID IID_ID3D12Device3_for_test = {0x81dadc15, 0x2bad, 0x4392, {0x93, 0xc5, 0x10, 0x13, 0x45, 0xc4, 0xaa, 0x98}};

ULONG refs_of(IUnknown *o)
{
    o->AddRef();
    return o->Release();
}

// A D3D12 device on the paired adapter, with a queue to copy buffers on the GPU (for WARP,
// and vkd3d over lavapipe, the "GPU" is software too: these copies are Direct3D's, not extmem's).
class D3D12 : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        IDXGIAdapter1 *adapter = adapter_with_luid(device_luid());
        ASSERT_NE(nullptr, adapter) << "no adapter has the software device's LUID";
        HRESULT hr = D3D12CreateDevice(adapter, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&device));
        adapter->Release();
        ASSERT_TRUE(SUCCEEDED(hr)) << "D3D12CreateDevice: 0x" << std::hex << hr;
        D3D12_COMMAND_QUEUE_DESC q = {};
        q.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
        ASSERT_TRUE(SUCCEEDED(device->CreateCommandQueue(&q, IID_PPV_ARGS(&queue))));
        ASSERT_TRUE(SUCCEEDED(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&allocator))));
        ASSERT_TRUE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator, nullptr,
                                                        IID_PPV_ARGS(&list))));
        list->Close();
        ASSERT_TRUE(SUCCEEDED(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence))));
        done = CreateEventA(nullptr, FALSE, FALSE, nullptr);
    }
    void TearDown() override
    {
        for (IUnknown *o : {(IUnknown *)list, (IUnknown *)allocator, (IUnknown *)queue, (IUnknown *)fence})
            if (o)
                o->Release();
        if (device) {
            EXPECT_EQ(0u, device->Release()); // extmem kept no reference to the application's device
        }
        if (done)
            CloseHandle(done);
        ContextTest::TearDown();
    }
    ID3D12Resource *committed(D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_STATES state)
    {
        D3D12_HEAP_PROPERTIES p = heap_props(type);
        D3D12_RESOURCE_DESC d = buffer_desc(size);
        ID3D12Resource *r = nullptr;
        EXPECT_TRUE(SUCCEEDED(device->CreateCommittedResource(&p, D3D12_HEAP_FLAG_NONE, &d, state, nullptr,
                                                              IID_PPV_ARGS(&r))));
        return r;
    }
    ID3D12Resource *placed(ID3D12Heap *heap, UINT64 size)
    {
        D3D12_RESOURCE_DESC d = buffer_desc(size);
        ID3D12Resource *r = nullptr;
        EXPECT_TRUE(SUCCEEDED(device->CreatePlacedResource(heap, 0, &d, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                           IID_PPV_ARGS(&r))));
        return r;
    }
    // dst <- src on the GPU's queue, then waits for it.
    void gpu_copy(ID3D12Resource *dst, ID3D12Resource *src, UINT64 size)
    {
        allocator->Reset();
        list->Reset(allocator, nullptr);
        list->CopyBufferRegion(dst, 0, src, 0, size);
        list->Close();
        ID3D12CommandList *lists[] = {list};
        queue->ExecuteCommandLists(1, lists);
        queue->Signal(fence, ++fence_value);
        fence->SetEventOnCompletion(fence_value, done);
        ASSERT_EQ(WAIT_OBJECT_0, WaitForSingleObject(done, 10000));
    }
    ID3D12Device *device = nullptr;
    ID3D12CommandQueue *queue = nullptr;
    ID3D12CommandAllocator *allocator = nullptr;
    ID3D12GraphicsCommandList *list = nullptr;
    ID3D12Fence *fence = nullptr;
    UINT64 fence_value = 0;
    HANDLE done = nullptr;
};

} // namespace

TEST_F(D3D12, DeviceLuid_IsTheAdaptersThatDirect3DUses)
{
    char bytes[8];
    unsigned int mask = 0;
    ASSERT_OK(cuDeviceGetLuid(bytes, &mask, 0));
    EXPECT_EQ(1u, mask);
    LUID used = device->GetAdapterLuid();
    EXPECT_EQ(0, memcmp(&used, bytes, 8));
    cudaDeviceProp prop;
    ASSERT_EQ(cudaSuccess, cudaGetDeviceProperties(&prop, 0));
    EXPECT_EQ(0, memcmp(prop.luid, bytes, 8));
    EXPECT_EQ(1u, prop.luidDeviceNodeMask);
    printf("paired with the adapter of LUID %08lx:%08lx%s\n", (long)used.HighPart, (unsigned long)used.LowPart,
           under_wine() ? " (wine: its one adapter, no WARP)" : "");
}

TEST_F(D3D12, ShareableHeap_ImportsInOneCall_ZeroCopyBothWays)
{
    const UINT64 size = 1 << 20;
    ID3D12Heap *heap = nullptr;
    ASSERT_OK(extmem_d3d12_create_shareable_heap(device, size, &heap));
    ID3D12Resource *shared = placed(heap, size);
    ID3D12Resource *upload = committed(D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *readback = committed(D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST);
    unsigned int *words = nullptr;
    ASSERT_TRUE(SUCCEEDED(upload->Map(0, nullptr, (void **)&words)));
    for (unsigned int i = 0; i < size / 4; ++i)
        words[i] = i;
    upload->Unmap(0, nullptr);
    gpu_copy(shared, upload, size); // Direct3D writes the heap

    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_d3d12_import_heap(heap, &ext));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.size = size;
    CUdeviceptr p = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &b));
    unsigned int v = 0;
    EXPECT_OK(cuMemcpyDtoH(&v, p + 4 * 1000, 4)); // the software device reads what Direct3D wrote
    EXPECT_EQ(1000u, v);
    EXPECT_OK(cuMemsetD32(p + 4 * 2000, 0xfeed, 1)); // and writes what Direct3D then reads
    gpu_copy(readback, shared, size);
    ASSERT_TRUE(SUCCEEDED(readback->Map(0, nullptr, (void **)&words)));
    EXPECT_EQ(0xfeedu, words[2000]);
    EXPECT_EQ(1999u, words[1999]);
    readback->Unmap(0, nullptr);

    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    for (IUnknown *o : {(IUnknown *)shared, (IUnknown *)upload, (IUnknown *)readback})
        o->Release();
    EXPECT_EQ(0u, heap->Release()); // extmem let go of every reference it took
}

// Microsoft's "Shared heaps": shared heaps are not supported on CPU-accessible heaps (UPLOAD,
// READBACK, CUSTOM with a CPU page property). The helper's heap is one the CPU reaches, so it is
// not a shared heap: it is for this process, imported with extmem_d3d12_import_heap.
TEST_F(D3D12, ShareableHeap_IsCpuVisibleAndNotShared_AsDirect3DRequires)
{
    ID3D12Heap *heap = nullptr;
    ASSERT_OK(extmem_d3d12_create_shareable_heap(device, 100000, &heap));
    D3D12_HEAP_DESC desc = heap->GetDesc();
    EXPECT_EQ(131072u, desc.SizeInBytes); // rounded up to 64 KiB
    EXPECT_EQ(D3D12_HEAP_TYPE_CUSTOM, desc.Properties.Type);
    EXPECT_EQ(D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, desc.Properties.CPUPageProperty);
    EXPECT_EQ(D3D12_MEMORY_POOL_L0, desc.Properties.MemoryPoolPreference);
    EXPECT_EQ(0, desc.Flags & (D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER));
    EXPECT_EQ(D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS, desc.Flags & D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS);
    EXPECT_EQ(0u, heap->Release());
}

TEST_F(D3D12, ABufferOfACpuVisibleHeap_ImportsAsAResource)
{
    ID3D12Resource *upload = committed(D3D12_HEAP_TYPE_UPLOAD, 65536, D3D12_RESOURCE_STATE_GENERIC_READ);
    ULONG refs = refs_of(upload);
    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_d3d12_import_resource(upload, &ext));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.size = 65536;
    CUdeviceptr p = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &b));
    EXPECT_OK(cuMemsetD8(p, 7, 65536));
    unsigned char *bytes = nullptr;
    ASSERT_TRUE(SUCCEEDED(upload->Map(0, nullptr, (void **)&bytes)));
    EXPECT_EQ(7, bytes[65535]);
    upload->Unmap(0, nullptr);
    b.size = 65536 + 1; // past the buffer's width
    CUdeviceptr q = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&q, ext, &b));
    // The import and its buffer hold the resource; the application may let go of its own.
    EXPECT_OK(cuDestroyExternalMemory(ext));
    EXPECT_GT(refs_of(upload), refs);
    EXPECT_OK(cuMemsetD8(p, 9, 16)); // the buffer outlives the import, as on the driver
    EXPECT_OK(cuMemFree(p));
    EXPECT_EQ(refs, refs_of(upload));
    EXPECT_EQ(0u, upload->Release());
}

TEST_F(D3D12, HeapsThatDenyBuffers_AreNotSupported_WithWhatToDoInstead)
{
    D3D12_HEAP_DESC desc = {};
    desc.SizeInBytes = 1 << 20;
    desc.Properties = heap_props(D3D12_HEAP_TYPE_DEFAULT);
    desc.Flags = D3D12_HEAP_FLAG_DENY_BUFFERS;
    ID3D12Heap *heap = nullptr;
    CUexternalMemory ext = nullptr;
    if (SUCCEEDED(device->CreateHeap(&desc, IID_PPV_ARGS(&heap)))) {
        EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, extmem_d3d12_import_heap(heap, &ext));
        EXPECT_DETAIL_HAS("D3D12_HEAP_FLAG_DENY_BUFFERS");
        EXPECT_EQ(0u, heap->Release());
    }
    D3D12_RESOURCE_DESC tex = buffer_desc(64);
    tex.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    tex.Height = 64;
    tex.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    tex.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    D3D12_HEAP_PROPERTIES p = heap_props(D3D12_HEAP_TYPE_DEFAULT);
    ID3D12Resource *texture = nullptr;
    ASSERT_TRUE(SUCCEEDED(device->CreateCommittedResource(&p, D3D12_HEAP_FLAG_NONE, &tex, D3D12_RESOURCE_STATE_COMMON,
                                                          nullptr, IID_PPV_ARGS(&texture))));
    // A texture imports (staged in its copyable layout), but a buffer of it is no texture.
    ASSERT_OK(extmem_d3d12_import_resource(texture, &ext));
    texture->Release();
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC md = {};
    md.arrayDesc.Width = 64;
    md.arrayDesc.Height = 64;
    md.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
    md.arrayDesc.NumChannels = 4;
    md.numLevels = 1;
    CUmipmappedArray mm = nullptr;
    ASSERT_OK(cuExternalMemoryGetMappedMipmappedArray(&mm, ext, &md));
    EXPECT_OK(cuMipmappedArrayDestroy(mm));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    ext = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d12_import_heap(nullptr, &ext));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d12_create_shareable_heap(device, 0, &heap));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d12_create_shareable_heap(nullptr, 65536, &heap));
}

// Memory the CPU cannot reach (a DEFAULT heap, as every heap Direct3D 12 shares) is reached
// through a staging copy: filled at the import, copied in when a semaphore wait passes, copied
// out before a signal (docs/d3d-interop.md). The NVIDIA-sample loop, one frame each way.
TEST_F(D3D12, DefaultHeapMemory_IsStaged_CoherentAtSemaphoreWaitsAndSignals)
{
    const UINT64 size = 1 << 20;
    const size_t words = size / 4;
    D3D12_HEAP_DESC desc = {};
    desc.SizeInBytes = size;
    desc.Properties = heap_props(D3D12_HEAP_TYPE_DEFAULT);
    desc.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    ID3D12Heap *heap = nullptr;
    ASSERT_TRUE(SUCCEEDED(device->CreateHeap(&desc, IID_PPV_ARGS(&heap))));
    ID3D12Resource *gpu = placed(heap, size);
    ID3D12Resource *upload = committed(D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *readback = committed(D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST);
    ASSERT_TRUE(gpu && upload && readback);
    auto fill_upload = [&](uint32_t seed) {
        uint32_t *p = nullptr;
        ASSERT_TRUE(SUCCEEDED(upload->Map(0, nullptr, (void **)&p)));
        for (size_t i = 0; i < words; ++i)
            p[i] = seed + (uint32_t)i;
        upload->Unmap(0, nullptr);
    };
    fill_upload(1000);
    gpu_copy(gpu, upload, size); // Direct3D writes the heap before the import

    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_d3d12_import_heap(heap, &ext));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.size = size;
    CUdeviceptr dptr = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&dptr, ext, &b));
    std::vector<uint32_t> seen(words);
    ASSERT_OK(cuMemcpyDtoH(seen.data(), dptr, size));
    EXPECT_EQ(1000u, seen[0]) << "the import did not copy the memory in";
    EXPECT_EQ(1000u + words - 1, seen[words - 1]);

    ID3D12Fence *sync = nullptr;
    ASSERT_TRUE(SUCCEEDED(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&sync))));
    CUexternalSemaphore sem = nullptr;
    ASSERT_OK(extmem_d3d12_import_fence(sync, &sem));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

    // Direct3D writes, signals 1; CUDA waits for 1 and reads what Direct3D wrote.
    fill_upload(2000);
    gpu_copy(gpu, upload, size);
    ASSERT_TRUE(SUCCEEDED(queue->Signal(sync, 1)));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
    wp.params.fence.value = 1;
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, s));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_OK(cuMemcpyDtoH(seen.data(), dptr, size));
    EXPECT_EQ(2000u, seen[0]) << "the wait did not copy the memory in";
    EXPECT_EQ(2000u + words - 1, seen[words - 1]);

    // CUDA writes, signals 2; Direct3D's queue waits for 2 and reads what CUDA wrote.
    ASSERT_OK(cuMemsetD32Async(dptr, 0xc0ffee, words, s));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = 2;
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
    ASSERT_TRUE(SUCCEEDED(queue->Wait(sync, 2)));
    gpu_copy(readback, gpu, size);
    uint32_t *r = nullptr;
    ASSERT_TRUE(SUCCEEDED(readback->Map(0, nullptr, (void **)&r)));
    EXPECT_EQ(0xc0ffeeu, r[0]) << "the signal did not copy the memory out";
    EXPECT_EQ(0xc0ffeeu, r[words - 1]);
    readback->Unmap(0, nullptr);

    ASSERT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_OK(cuMemFree(dptr));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    sync->Release();
    readback->Release();
    upload->Release();
    gpu->Release();
    EXPECT_EQ(0u, heap->Release()) << "the import still holds the heap";
}

// A texture (a DEFAULT heap's, as Direct3D shares them) is staged in the layout Direct3D gives
// texture copies (GetCopyableFootprints) and maps as a mipmapped array over that copy: filled at
// the import, copied in at a semaphore wait, out before a signal, every subresource
// (docs/d3d-interop.md, docs/images.md). 13x7 RGBA8, 3 levels, 2 layers.
TEST_F(D3D12, DefaultTexture_MapsAsAMipmappedArray_CoherentAtSemaphoreWaitsAndSignals)
{
    const UINT levels = 3, layers = 2, n = levels * layers;
    D3D12_RESOURCE_DESC td = buffer_desc(13);
    td.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    td.Height = 7;
    td.DepthOrArraySize = layers;
    td.MipLevels = levels;
    td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    td.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    D3D12_HEAP_PROPERTIES p = heap_props(D3D12_HEAP_TYPE_DEFAULT);
    ID3D12Resource *texture = nullptr;
    ASSERT_TRUE(SUCCEEDED(device->CreateCommittedResource(&p, D3D12_HEAP_FLAG_NONE, &td, D3D12_RESOURCE_STATE_COMMON,
                                                          nullptr, IID_PPV_ARGS(&texture))));
    std::vector<D3D12_PLACED_SUBRESOURCE_FOOTPRINT> fp(n);
    std::vector<UINT> rows(n);
    std::vector<UINT64> row_bytes(n);
    UINT64 total = 0;
    device->GetCopyableFootprints(&td, 0, n, 0, fp.data(), rows.data(), row_bytes.data(), &total);
    ID3D12Resource *upload = committed(D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
    ID3D12Resource *readback = committed(D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    ASSERT_TRUE(upload && readback);
    auto texel = [](uint32_t seed, UINT sub, UINT x, UINT y) { return seed * 0x01000193u ^ (sub << 16) ^ (y << 8) ^ x; };
    auto copy_all = [&](bool to_texture, ID3D12Resource *buffer) {
        allocator->Reset();
        list->Reset(allocator, nullptr);
        D3D12_RESOURCE_BARRIER b = {};
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        b.Transition.pResource = texture;
        b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        b.Transition.StateBefore = D3D12_RESOURCE_STATE_COMMON;
        b.Transition.StateAfter = to_texture ? D3D12_RESOURCE_STATE_COPY_DEST : D3D12_RESOURCE_STATE_COPY_SOURCE;
        list->ResourceBarrier(1, &b);
        for (UINT i = 0; i < n; ++i) {
            D3D12_TEXTURE_COPY_LOCATION t = {}, f = {};
            t.pResource = texture;
            t.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
            t.SubresourceIndex = i;
            f.pResource = buffer;
            f.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
            f.PlacedFootprint = fp[i];
            if (to_texture)
                list->CopyTextureRegion(&t, 0, 0, 0, &f, nullptr);
            else
                list->CopyTextureRegion(&f, 0, 0, 0, &t, nullptr);
        }
        std::swap(b.Transition.StateBefore, b.Transition.StateAfter);
        list->ResourceBarrier(1, &b);
        list->Close();
        ID3D12CommandList *lists[] = {list};
        queue->ExecuteCommandLists(1, lists);
        queue->Signal(fence, ++fence_value);
        fence->SetEventOnCompletion(fence_value, done);
        WaitForSingleObject(done, INFINITE);
    };
    uint8_t *up = nullptr;
    ASSERT_TRUE(SUCCEEDED(upload->Map(0, nullptr, (void **)&up)));
    for (UINT i = 0; i < n; ++i)
        for (UINT y = 0; y < fp[i].Footprint.Height; ++y)
            for (UINT x = 0; x < fp[i].Footprint.Width; ++x) {
                uint32_t v = texel(1, i, x, y);
                memcpy(up + fp[i].Offset + (size_t)y * fp[i].Footprint.RowPitch + 4 * x, &v, 4);
            }
    upload->Unmap(0, nullptr);
    copy_all(true, upload); // Direct3D writes the texture before the import

    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_d3d12_import_resource(texture, &ext));
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC md = {};
    md.arrayDesc.Width = 13;
    md.arrayDesc.Height = 7;
    md.arrayDesc.Depth = layers;
    md.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
    md.arrayDesc.NumChannels = 4;
    md.arrayDesc.Flags = CUDA_ARRAY3D_LAYERED;
    md.numLevels = levels;
    CUmipmappedArray mm = nullptr;
    // A descriptor that is not the texture's is refused.
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC bad = md;
    bad.arrayDesc.Width = 12;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedMipmappedArray(&mm, ext, &bad));
    bad = md;
    bad.numLevels = levels + 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedMipmappedArray(&mm, ext, &bad));
    bad = md;
    bad.arrayDesc.Format = CU_AD_FORMAT_FLOAT;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedMipmappedArray(&mm, ext, &bad));
    ASSERT_OK(cuExternalMemoryGetMappedMipmappedArray(&mm, ext, &md));

    // Every texel of every level and layer, as the arrays read them.
    auto read_level = [&](UINT m, std::vector<uint32_t> *out) {
        CUarray level = nullptr;
        ASSERT_OK(cuMipmappedArrayGetLevel(&level, mm, m));
        UINT w = fp[m].Footprint.Width, h = fp[m].Footprint.Height;
        out->assign((size_t)w * h * layers, 0);
        CUDA_MEMCPY3D c = {};
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = level;
        c.dstMemoryType = CU_MEMORYTYPE_HOST;
        c.dstHost = out->data();
        c.dstPitch = 4 * w;
        c.dstHeight = h;
        c.WidthInBytes = 4 * w;
        c.Height = h;
        c.Depth = layers;
        ASSERT_OK(cuMemcpy3D(&c));
    };
    for (UINT m = 0; m < levels; ++m) {
        std::vector<uint32_t> got;
        read_level(m, &got);
        UINT w = fp[m].Footprint.Width, h = fp[m].Footprint.Height;
        size_t bad_texels = 0;
        for (UINT l = 0; l < layers; ++l)
            for (UINT y = 0; y < h; ++y)
                for (UINT x = 0; x < w; ++x)
                    bad_texels += got[((size_t)l * h + y) * w + x] != texel(1, l * levels + m, x, y);
        EXPECT_EQ(0u, bad_texels) << "level " << m;
    }

    // CUDA writes level 1 of layer 1, signals; Direct3D reads it back after the signal.
    ID3D12Fence *sync = nullptr;
    ASSERT_TRUE(SUCCEEDED(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&sync))));
    CUexternalSemaphore sem = nullptr;
    ASSERT_OK(extmem_d3d12_import_fence(sync, &sem));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    const UINT m = 1, w = fp[m].Footprint.Width, h = fp[m].Footprint.Height;
    std::vector<uint32_t> mine((size_t)w * h);
    for (UINT y = 0; y < h; ++y)
        for (UINT x = 0; x < w; ++x)
            mine[(size_t)y * w + x] = texel(2, levels + m, x, y);
    CUarray level = nullptr;
    ASSERT_OK(cuMipmappedArrayGetLevel(&level, mm, m));
    CUDA_MEMCPY3D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = mine.data();
    c.srcPitch = 4 * w;
    c.srcHeight = h;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = level;
    c.dstZ = 1; // layer 1
    c.WidthInBytes = 4 * w;
    c.Height = h;
    c.Depth = 1;
    ASSERT_OK(cuMemcpy3DAsync(&c, s));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = 1;
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
    ASSERT_TRUE(SUCCEEDED(queue->Wait(sync, 1)));
    copy_all(false, readback);
    uint8_t *rb = nullptr;
    ASSERT_TRUE(SUCCEEDED(readback->Map(0, nullptr, (void **)&rb)));
    size_t bad_texels = 0;
    for (UINT i = 0; i < n; ++i)
        for (UINT y = 0; y < fp[i].Footprint.Height; ++y)
            for (UINT x = 0; x < fp[i].Footprint.Width; ++x) {
                uint32_t v;
                memcpy(&v, rb + fp[i].Offset + (size_t)y * fp[i].Footprint.RowPitch + 4 * x, 4);
                bad_texels += v != texel(i == levels + m ? 2 : 1, i, x, y);
            }
    readback->Unmap(0, nullptr);
    EXPECT_EQ(0u, bad_texels) << "Direct3D does not read back what the arrays hold";

    ASSERT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    EXPECT_OK(cuMipmappedArrayDestroy(mm)); // the last holder of the staging copy
    sync->Release();
    readback->Release();
    upload->Release();
    EXPECT_EQ(0u, texture->Release()) << "the staging copy still holds the texture";
}

TEST_F(D3D12, DefaultBuffer_IsStagedToo_AndOutlivesTheApplicationsReference)
{
    const UINT64 size = 65536;
    ID3D12Resource *gpu = committed(D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *upload = committed(D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
    ASSERT_TRUE(gpu && upload);
    unsigned char *p = nullptr;
    ASSERT_TRUE(SUCCEEDED(upload->Map(0, nullptr, (void **)&p)));
    memset(p, 0x5a, size);
    upload->Unmap(0, nullptr);
    gpu_copy(gpu, upload, size);
    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_d3d12_import_resource(gpu, &ext));
    EXPECT_EQ(1u, gpu->Release()); // extmem's reference keeps it
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.size = size;
    CUdeviceptr dptr = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&dptr, ext, &b));
    EXPECT_OK(cuDestroyExternalMemory(ext)); // the mapped buffer keeps the memory
    unsigned char last = 0;
    ASSERT_OK(cuMemcpyDtoH(&last, dptr + size - 1, 1));
    EXPECT_EQ(0x5a, last);
    EXPECT_OK(cuMemFree(dptr));
    upload->Release();
}

TEST_F(D3D12, BuffersOfOneHeap_MayNotOverlap_ItHasOneAddress)
{
    ID3D12Heap *heap = nullptr;
    ASSERT_OK(extmem_d3d12_create_shareable_heap(device, 1 << 20, &heap));
    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_d3d12_import_heap(heap, &ext));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.size = 65536;
    CUdeviceptr first = 0, second = 0, third = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&first, ext, &b));
    b.offset = 4096;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&second, ext, &b));
    EXPECT_DETAIL_HAS("single address");
    b.offset = 65536; // beside it: fine
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&third, ext, &b));
    EXPECT_EQ(first + 65536, third);
    EXPECT_OK(cuMemFree(first));
    b.offset = 4096;
    b.size = 4096; // the first one is gone now
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&second, ext, &b));
    EXPECT_OK(cuMemFree(second));
    EXPECT_OK(cuMemFree(third));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    EXPECT_EQ(0u, heap->Release());
}

TEST_F(D3D12, ImportExternalMemory_FollowsTheSpecificationsDirect3DRules)
{
    // A heap as Direct3D 12 shares them: one the CPU cannot reach (Microsoft's "Shared heaps").
    D3D12_HEAP_DESC shared_desc = {};
    shared_desc.SizeInBytes = 1 << 20;
    shared_desc.Properties = heap_props(D3D12_HEAP_TYPE_DEFAULT);
    shared_desc.Flags = D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    ID3D12Heap *heap = nullptr;
    ASSERT_TRUE(SUCCEEDED(device->CreateHeap(&shared_desc, IID_PPV_ARGS(&heap))));
    CUexternalMemory ext = nullptr;
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = {};
    HANDLE event = CreateEventA(nullptr, TRUE, FALSE, nullptr);
    d.size = 1 << 20;
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE; // without CUDA_EXTERNAL_MEMORY_DEDICATED
    d.handle.win32.handle = event;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("CUDA_EXTERNAL_MEMORY_DEDICATED");
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP;
    d.handle.win32.name = L"extmem-heap"; // a handle and a name
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("exactly one");
    d.handle.win32.handle = nullptr;
    d.handle.win32.name = nullptr; // neither
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT;
    d.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
    d.handle.win32.handle = (void *)(uintptr_t)0x40000002;
    d.handle.win32.name = L"x"; // KMT handles have no names
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    d.handle.win32.name = nullptr;
    // Opened with Direct3D 11's legacy OpenSharedResource: a token of nothing is refused
    // (wine implements no sharing: NOT_SUPPORTED, with the call named).
    EXPECT_CU(under_wine() ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("OpenSharedResource");
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP;
    d.flags = 0;
    d.handle.win32.handle = (void *)(uintptr_t)0x7ffff000; // not a handle of this process
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("not an open handle");

    HANDLE shared = nullptr;
    HRESULT hr = device->CreateSharedHandle(heap, nullptr, GENERIC_ALL, nullptr, &shared);
    if (hr == E_NOTIMPL) {
        // wine (8 and 10): Direct3D objects cannot be shared, so no handle can name one. What
        // extmem answers to a handle it cannot open there:
        ASSERT_TRUE(under_wine()) << "CreateSharedHandle: E_NOTIMPL outside wine";
        d.handle.win32.handle = event;
        EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&ext, &d));
        EXPECT_DETAIL_HAS("E_NOTIMPL");
        EXPECT_TRUE(fd_is_open((int)(intptr_t)event));
        // OPAQUE_WIN32 of a handle that is no section is tried as a Direct3D object, which wine
        // cannot open either: the answer stays what it is not.
        d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
        EXPECT_DETAIL_HAS("not a section");
        printf("wine: ID3D12Device::CreateSharedHandle answers E_NOTIMPL; the NT-handle path runs on Windows only\n");
    } else {
        ASSERT_TRUE(SUCCEEDED(hr)) << std::hex << hr;
        d.handle.win32.handle = event; // a handle, but of no Direct3D object
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
        d.handle.win32.handle = shared;
        d.size = (1 << 20) + 65536; // more than the heap
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
        EXPECT_DETAIL_HAS("more than the heap");
        // Within the rules: a shared heap is one the CPU cannot reach, so it is staged.
        d.size = 1 << 20;
        ASSERT_OK(cuImportExternalMemory(&ext, &d));
        CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
        b.size = 65536;
        CUdeviceptr dptr = 0;
        EXPECT_OK(cuExternalMemoryGetMappedBuffer(&dptr, ext, &b));
        EXPECT_OK(cuMemsetD8(dptr, 1, 65536));
        EXPECT_OK(cuMemFree(dptr));
        EXPECT_OK(cuDestroyExternalMemory(ext));
        // The same handle as OPAQUE_WIN32: what Direct3D 12 and Windows Vulkan drivers export
        // under that type is such a Direct3D shared resource, not a section.
        d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
        ASSERT_OK(cuImportExternalMemory(&ext, &d));
        EXPECT_OK(cuDestroyExternalMemory(ext));
        d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP;
        EXPECT_TRUE(fd_is_open((int)(intptr_t)shared)); // the specification: it stays the caller's
        CloseHandle(shared);
    }
    CloseHandle(event);
    EXPECT_EQ(0u, heap->Release());
}

TEST_F(D3D12, ExtmemMemory_OpensAsADirect3DHeap_WhereThereIsID3D12Device3)
{
    const UINT64 size = 1 << 20;
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAlloc(&p, size));
    ASSERT_OK(cuMemsetD32(p, 77, size / 4));
    ID3D12Heap *heap = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d12_open_memory(device, p + 4096, &heap)); // not its start
    EXPECT_DETAIL_HAS("give its start");
    int local = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d12_open_memory(device, (CUdeviceptr)(uintptr_t)&local, &heap));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d12_open_memory(nullptr, p, &heap));
    CUresult r = extmem_d3d12_open_memory(device, p, &heap);
    if (under_wine()) {
        // wine 8 has no ID3D12Device3; wine 10 has it, and its OpenExistingHeapFromFileMapping
        // answers E_NOTIMPL (a vkd3d stub): both are NOT_SUPPORTED, with the reason.
        IUnknown *device3 = nullptr;
        bool has_device3 = SUCCEEDED(device->QueryInterface(IID_ID3D12Device3_for_test, (void **)&device3));
        if (device3)
            device3->Release();
        EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, r) << extmem_error_detail();
        EXPECT_DETAIL_HAS("ID3D12Device3");
        EXPECT_DETAIL_HAS(has_device3 ? "OpenExistingHeapFromFileMapping (E_NOTIMPL" : "has no ID3D12Device3");
        printf("wine: %s, so Direct3D cannot open extmem memory here; this runs on Windows only\n",
               has_device3 ? "ID3D12Device3::OpenExistingHeapFromFileMapping answers E_NOTIMPL" : "no ID3D12Device3");
    } else {
        ASSERT_EQ(CUDA_SUCCESS, r) << extmem_error_detail();
        D3D12_RESOURCE_DESC d = buffer_desc(size);
        d.Flags = D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER;
        ID3D12Resource *over = nullptr;
        ASSERT_TRUE(SUCCEEDED(device->CreatePlacedResource(heap, 0, &d, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                           IID_PPV_ARGS(&over))));
        ID3D12Resource *readback = committed(D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST);
        gpu_copy(readback, over, size); // Direct3D reads the software device's bytes
        unsigned int *words = nullptr;
        ASSERT_TRUE(SUCCEEDED(readback->Map(0, nullptr, (void **)&words)));
        EXPECT_EQ(77u, words[12345]);
        readback->Unmap(0, nullptr);
        readback->Release();
        over->Release();
        heap->Release();
    }
    EXPECT_OK(cuMemFree(p));
}

// ---- Direct3D 12 fences as external semaphores (docs/external-semaphores.md) ----

TEST_F(D3D12, ImportFence_NullArguments_AreInvalidValue)
{
    CUexternalSemaphore sem;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d12_import_fence(nullptr, &sem));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d12_import_fence(fence, nullptr));
}

TEST_F(D3D12, FenceSignalledByACudaStream_ReachesTheValue)
{
    CUexternalSemaphore sem = nullptr;
    ASSERT_OK(extmem_d3d12_import_fence(fence, &sem));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = 5;
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(5u, fence->GetCompletedValue());
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(D3D12, CudaStreamWaitForAFenceValue_IsReleasedByTheCpuSignal)
{
    CUexternalSemaphore sem = nullptr;
    ASSERT_OK(extmem_d3d12_import_fence(fence, &sem));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
    wp.params.fence.value = 3;
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, s));
    Sleep(30);
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(s)); // the stream waits for the fence
    ASSERT_TRUE(SUCCEEDED(fence->Signal(3)));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(D3D12, CommandQueueWaitingOnAFence_RunsOnceACudaStreamSignalsIt)
{
    CUexternalSemaphore sem = nullptr;
    ASSERT_OK(extmem_d3d12_import_fence(fence, &sem));
    ID3D12Fence *after = nullptr;
    ASSERT_TRUE(SUCCEEDED(device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&after))));
    // Direct3D's queue waits for 7 on the imported fence, then signals `after`.
    ASSERT_TRUE(SUCCEEDED(queue->Wait(fence, 7)));
    ASSERT_TRUE(SUCCEEDED(queue->Signal(after, 1)));
    Sleep(30);
    EXPECT_EQ(0u, after->GetCompletedValue()) << "the queue ran before the fence reached 7";
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = 7;
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_TRUE(SUCCEEDED(after->SetEventOnCompletion(1, done)));
    EXPECT_EQ(WAIT_OBJECT_0, WaitForSingleObject(done, 10000));
    after->Release();
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(D3D12, ImportExternalSemaphore_D3D12Fence_ByNtHandle)
{
    CUexternalSemaphore sem;
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = {};
    d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d)); // neither handle nor name
    d.handle.win32.handle = (void *)(uintptr_t)0x7ffff000;                    // not a handle of this process
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d));
    EXPECT_DETAIL_HAS("not an open handle");
    ID3D12Fence *shared_fence = nullptr;
    HRESULT hr = device->CreateFence(0, D3D12_FENCE_FLAG_SHARED, IID_PPV_ARGS(&shared_fence));
    if (FAILED(hr) && under_wine()) {
        printf("wine: CreateFence(D3D12_FENCE_FLAG_SHARED) fails (0x%lx); the NT-handle path runs on Windows only\n",
               (unsigned long)hr);
        return;
    }
    ASSERT_TRUE(SUCCEEDED(hr)) << std::hex << hr;
    HANDLE shared = nullptr;
    hr = device->CreateSharedHandle(shared_fence, nullptr, GENERIC_ALL, nullptr, &shared);
    if (hr == E_NOTIMPL) {
        ASSERT_TRUE(under_wine()) << "CreateSharedHandle: E_NOTIMPL outside wine";
        printf("wine: ID3D12Device::CreateSharedHandle answers E_NOTIMPL for fences; the NT-handle path runs on "
               "Windows only\n");
    } else {
        ASSERT_TRUE(SUCCEEDED(hr)) << std::hex << hr;
        d.handle.win32.handle = shared;
        ASSERT_OK(cuImportExternalSemaphore(&sem, &d));
        EXPECT_TRUE(fd_is_open((int)(intptr_t)shared)); // an NT handle stays the caller's
        CUstream s;
        ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
        sp.params.fence.value = 9;
        ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
        ASSERT_OK(cuStreamSynchronize(s));
        EXPECT_EQ(9u, shared_fence->GetCompletedValue()); // the very same fence
        EXPECT_OK(cuDestroyExternalSemaphore(sem));
        EXPECT_OK(cuStreamDestroy(s));
        CloseHandle(shared);
    }
    shared_fence->Release();
}

// ---- Direct3D 11 fences and keyed mutexes (opened with extmem's own Direct3D 11 device) ----

namespace {

ID3D11Device *d3d11_device(ID3D11DeviceContext **context)
{
    ID3D11Device *device = nullptr;
    if (FAILED(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_WARP, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &device,
                                 nullptr, context)))
        D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &device,
                          nullptr, context);
    return device;
}

} // namespace

TEST_F(D3D12, D3D11Fence_SignalledAndWaitedForThroughItsNtHandle)
{
    CUexternalSemaphore sem;
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = {};
    d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d)); // neither handle nor name
    ID3D11DeviceContext *context = nullptr;
    ID3D11Device *device11 = d3d11_device(&context);
    ASSERT_NE(nullptr, device11);
    ID3D11Device5 *device5 = nullptr;
    ID3D11DeviceContext4 *context4 = nullptr;
    if (FAILED(device11->QueryInterface(IID_PPV_ARGS(&device5))) ||
        FAILED(context->QueryInterface(IID_PPV_ARGS(&context4)))) {
        ASSERT_TRUE(under_wine()) << "no ID3D11Device5 outside wine";
        HANDLE event = CreateEventA(nullptr, FALSE, FALSE, nullptr);
        d.handle.win32.handle = event;
        EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalSemaphore(&sem, &d));
        EXPECT_DETAIL_HAS("ID3D11Device5");
        CloseHandle(event);
        printf("wine: Direct3D 11 has no ID3D11Device5 (no fences); the D3D11_FENCE path runs on Windows only\n");
    } else {
        ID3D11Fence *fence11 = nullptr;
        HANDLE shared = nullptr;
        HRESULT hr = device5->CreateFence(0, D3D11_FENCE_FLAG_SHARED, IID_PPV_ARGS(&fence11));
        if (SUCCEEDED(hr))
            hr = fence11->CreateSharedHandle(nullptr, GENERIC_ALL, nullptr, &shared);
        if (FAILED(hr)) {
            ASSERT_TRUE(under_wine()) << "a shared Direct3D 11 fence: 0x" << std::hex << hr;
            printf("wine: a Direct3D 11 fence cannot be shared (0x%lx); the D3D11_FENCE path runs on Windows only\n",
                   (unsigned long)hr);
            if (fence11)
                fence11->Release();
            context4->Release();
            device5->Release();
            context->Release();
            device11->Release();
            return;
        }
        d.handle.win32.handle = shared;
        ASSERT_OK(cuImportExternalSemaphore(&sem, &d));
        EXPECT_TRUE(fd_is_open((int)(intptr_t)shared)); // an NT handle stays the caller's
        CUstream s;
        ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
        sp.params.fence.value = 3;
        ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
        ASSERT_OK(cuStreamSynchronize(s));
        EXPECT_EQ(3u, fence11->GetCompletedValue());
        CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
        wp.params.fence.value = 5;
        ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, s));
        Sleep(30);
        EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
        ASSERT_TRUE(SUCCEEDED(context4->Signal(fence11, 5)));
        context4->Flush();
        EXPECT_OK(cuStreamSynchronize(s));
        EXPECT_OK(cuDestroyExternalSemaphore(sem));
        EXPECT_OK(cuStreamDestroy(s));
        CloseHandle(shared);
        fence11->Release();
    }
    if (context4)
        context4->Release();
    if (device5)
        device5->Release();
    context->Release();
    device11->Release();
}

TEST_F(D3D12, D3D11KeyedMutex_AcquiredByAWaitAndReleasedByASignal)
{
    CUexternalSemaphore sem;
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d = {};
    d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT;
    d.handle.win32.name = L"x"; // KMT handles have no names
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d));
    d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX;
    d.handle.win32.name = nullptr;
    d.handle.win32.handle = (void *)(uintptr_t)0x7ffff000; // not a handle of this process
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d));
    EXPECT_DETAIL_HAS("not an open handle");
    ID3D11DeviceContext *context = nullptr;
    ID3D11Device *device11 = d3d11_device(&context);
    ASSERT_NE(nullptr, device11);
    D3D11_TEXTURE2D_DESC td = {};
    td.Width = td.Height = 64;
    td.MipLevels = td.ArraySize = 1;
    td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    td.SampleDesc.Count = 1;
    td.Usage = D3D11_USAGE_DEFAULT;
    td.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    td.MiscFlags = D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX | D3D11_RESOURCE_MISC_SHARED_NTHANDLE;
    ID3D11Texture2D *texture = nullptr;
    ASSERT_TRUE(SUCCEEDED(device11->CreateTexture2D(&td, nullptr, &texture)));
    IDXGIResource1 *resource = nullptr;
    IDXGIKeyedMutex *mutex = nullptr;
    if (FAILED(texture->QueryInterface(IID_PPV_ARGS(&resource))) ||
        FAILED(texture->QueryInterface(IID_PPV_ARGS(&mutex)))) {
        ASSERT_TRUE(under_wine()) << "a keyed-mutex texture without IDXGIResource1 or IDXGIKeyedMutex outside wine";
        HANDLE event = CreateEventA(nullptr, FALSE, FALSE, nullptr);
        d.handle.win32.handle = event; // a handle, but of no shared resource
        EXPECT_NE(CUDA_SUCCESS, cuImportExternalSemaphore(&sem, &d));
        EXPECT_TRUE(fd_is_open((int)(intptr_t)event));
        CloseHandle(event);
        printf("wine: keyed-mutex textures have no IDXGIKeyedMutex and nothing is shared; the keyed-mutex path runs "
               "on Windows only\n");
    } else {
        HANDLE shared = nullptr;
        HRESULT hr = resource->CreateSharedHandle(nullptr, DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE,
                                                  nullptr, &shared);
        if (FAILED(hr)) {
            ASSERT_TRUE(under_wine()) << "IDXGIResource1::CreateSharedHandle: 0x" << std::hex << hr;
            printf("wine: a keyed-mutex texture cannot be shared (0x%lx); the keyed-mutex path runs on Windows only\n",
                   (unsigned long)hr);
            mutex->Release();
            resource->Release();
            texture->Release();
            context->Release();
            device11->Release();
            return;
        }
        d.handle.win32.handle = shared;
        ASSERT_OK(cuImportExternalSemaphore(&sem, &d));
        CUstream s;
        ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
        // The mutex starts released with key 0: CUDA acquires it with 0, then releases it with 1.
        CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
        wp.params.keyedMutex.key = 0;
        wp.params.keyedMutex.timeoutMs = 5000;
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
        sp.params.keyedMutex.key = 1;
        ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, s));
        ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
        ASSERT_OK(cuStreamSynchronize(s));
        EXPECT_EQ(S_OK, mutex->AcquireSync(1, 5000)); // released by CUDA with key 1
        EXPECT_EQ(S_OK, mutex->ReleaseSync(0));
        EXPECT_OK(cuDestroyExternalSemaphore(sem));
        EXPECT_OK(cuStreamDestroy(s));
        CloseHandle(shared);
    }
    if (mutex)
        mutex->Release();
    if (resource)
        resource->Release();
    texture->Release();
    context->Release();
    device11->Release();
}

// A Direct3D 11 buffer (which the CPU never maps while the GPU uses it) in one call, through a
// staging copy on the application's immediate context under its ID3D11Multithread lock: filled
// at the import, copied out before a signal, in when a wait passes.
TEST_F(D3D12, D3D11Buffer_IsStaged_CoherentAtSemaphoreWaitsAndSignals)
{
    ID3D11DeviceContext *context = nullptr;
    ID3D11Device *device11 = d3d11_device(&context);
    ASSERT_NE(nullptr, device11);
    const UINT size = 65536, words = size / 4;
    std::vector<uint32_t> initial(words);
    for (UINT i = 0; i < words; ++i)
        initial[i] = 7000 + i;
    D3D11_BUFFER_DESC bd = {size, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, 0, 0};
    D3D11_SUBRESOURCE_DATA init = {initial.data(), 0, 0};
    ID3D11Buffer *buffer = nullptr, *readback = nullptr;
    ASSERT_TRUE(SUCCEEDED(device11->CreateBuffer(&bd, &init, &buffer)));
    D3D11_BUFFER_DESC rd = {size, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
    ASSERT_TRUE(SUCCEEDED(device11->CreateBuffer(&rd, nullptr, &readback)));

    CUexternalMemory ext = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_d3d11_import_resource(nullptr, &ext));
    ASSERT_OK(extmem_d3d11_import_resource(buffer, &ext));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.size = size;
    CUdeviceptr dptr = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&dptr, ext, &b));
    std::vector<uint32_t> seen(words);
    ASSERT_OK(cuMemcpyDtoH(seen.data(), dptr, size));
    EXPECT_EQ(7000u, seen[0]) << "the import did not copy the buffer in";
    EXPECT_EQ(7000u + words - 1, seen[words - 1]);

    // Any external semaphore's signal and wait keep it coherent: here a Direct3D 12 fence.
    CUexternalSemaphore sem = nullptr;
    ASSERT_OK(extmem_d3d12_import_fence(fence, &sem));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuMemsetD32Async(dptr, 0xabcdef, words, s));
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp = {};
    sp.params.fence.value = ++fence_value;
    ASSERT_OK(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, s));
    ASSERT_OK(cuStreamSynchronize(s));
    context->CopyResource(readback, buffer);
    D3D11_MAPPED_SUBRESOURCE m;
    ASSERT_TRUE(SUCCEEDED(context->Map(readback, 0, D3D11_MAP_READ, 0, &m)));
    EXPECT_EQ(0xabcdefu, static_cast<uint32_t *>(m.pData)[0]) << "the signal did not copy the buffer out";
    EXPECT_EQ(0xabcdefu, static_cast<uint32_t *>(m.pData)[words - 1]);
    context->Unmap(readback, 0);

    std::vector<uint32_t> next(words, 0x1234);
    context->UpdateSubresource(buffer, 0, nullptr, next.data(), 0, 0);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp = {};
    wp.params.fence.value = fence_value; // reached: the wait passes at once, and copies in
    ASSERT_OK(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, s));
    ASSERT_OK(cuStreamSynchronize(s));
    ASSERT_OK(cuMemcpyDtoH(seen.data(), dptr, size));
    EXPECT_EQ(0x1234u, seen[0]) << "the wait did not copy the buffer in";
    EXPECT_EQ(0x1234u, seen[words - 1]);

    ASSERT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuDestroyExternalSemaphore(sem));
    EXPECT_OK(cuMemFree(dptr));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    readback->Release();
    EXPECT_EQ(0u, buffer->Release()) << "the import still holds the buffer";
    context->Release();
    device11->Release();
}

// Direct3D 11 sharing by KMT handle (IDXGIResource::GetSharedHandle), opened with the legacy
// OpenSharedResource on extmem's own device: a buffer is staged, a texture is NOT_SUPPORTED; a
// buffer by NT handle is opened by Direct3D 12 and staged. Wine shares nothing (GetSharedHandle
// fails there): this runs in the Windows job.
TEST_F(D3D12, D3D11SharedHandles_ABufferIsStaged_ATextureIsNotSupported)
{
    ID3D11DeviceContext *context = nullptr;
    ID3D11Device *device11 = d3d11_device(&context);
    ASSERT_NE(nullptr, device11);
    D3D11_TEXTURE2D_DESC td = {};
    td.Width = td.Height = 64;
    td.MipLevels = td.ArraySize = 1;
    td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    td.SampleDesc.Count = 1;
    td.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    td.MiscFlags = D3D11_RESOURCE_MISC_SHARED;
    ID3D11Texture2D *texture = nullptr;
    IDXGIResource *dxgi = nullptr;
    HANDLE kmt = nullptr;
    HRESULT hr = device11->CreateTexture2D(&td, nullptr, &texture);
    if (SUCCEEDED(hr))
        hr = texture->QueryInterface(IID_PPV_ARGS(&dxgi));
    if (SUCCEEDED(hr))
        hr = dxgi->GetSharedHandle(&kmt);
    if (FAILED(hr) || !kmt) {
        ASSERT_TRUE(under_wine()) << "a shared Direct3D 11 texture: 0x" << std::hex << hr;
        printf("wine: Direct3D 11 shares nothing (0x%lx); the KMT path runs on Windows only\n", (unsigned long)hr);
    } else {
        CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = {};
        d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT;
        d.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
        d.handle.win32.handle = kmt;
        d.size = 64 * 64 * 4;
        CUexternalMemory ext = nullptr;
        EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&ext, &d));
        EXPECT_DETAIL_HAS("texture");
        // A shared buffer, where this Direct3D 11 shares buffers.
        const UINT size = 4096;
        std::vector<uint32_t> initial(size / 4, 0x600d);
        D3D11_BUFFER_DESC bd = {size, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, D3D11_RESOURCE_MISC_SHARED, 0};
        D3D11_SUBRESOURCE_DATA init = {initial.data(), 0, 0};
        ID3D11Buffer *buffer = nullptr;
        IDXGIResource *bdxgi = nullptr;
        HANDLE bkmt = nullptr;
        hr = device11->CreateBuffer(&bd, &init, &buffer);
        if (SUCCEEDED(hr))
            hr = buffer->QueryInterface(IID_PPV_ARGS(&bdxgi));
        if (SUCCEEDED(hr))
            hr = bdxgi->GetSharedHandle(&bkmt);
        if (FAILED(hr) || !bkmt) {
            printf("this Direct3D 11 shares no buffers by KMT handle (0x%lx): only the texture's answer was "
                   "checked\n", (unsigned long)hr);
        } else {
            d.handle.win32.handle = bkmt;
            d.size = size;
            ASSERT_OK(cuImportExternalMemory(&ext, &d));
            CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
            b.size = size;
            CUdeviceptr dptr = 0;
            ASSERT_OK(cuExternalMemoryGetMappedBuffer(&dptr, ext, &b));
            uint32_t first = 0;
            ASSERT_OK(cuMemcpyDtoH(&first, dptr, 4));
            EXPECT_EQ(0x600du, first) << "the import did not copy the shared buffer in";
            EXPECT_OK(cuMemFree(dptr));
            EXPECT_OK(cuDestroyExternalMemory(ext));
        }
        if (bdxgi)
            bdxgi->Release();
        if (buffer)
            buffer->Release();
        // By NT handle (D3D11_RESOURCE_MISC_SHARED_NTHANDLE): opened by Direct3D 12, staged.
        bd.MiscFlags = D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE;
        ID3D11Buffer *nt_buffer = nullptr;
        IDXGIResource1 *dxgi1 = nullptr;
        HANDLE nt = nullptr;
        hr = device11->CreateBuffer(&bd, &init, &nt_buffer);
        if (SUCCEEDED(hr))
            hr = nt_buffer->QueryInterface(IID_PPV_ARGS(&dxgi1));
        if (SUCCEEDED(hr))
            hr = dxgi1->CreateSharedHandle(nullptr, DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE, nullptr,
                                           &nt);
        if (FAILED(hr) || !nt) {
            printf("this Direct3D 11 shares no buffers by NT handle (0x%lx)\n", (unsigned long)hr);
        } else {
            CUDA_EXTERNAL_MEMORY_HANDLE_DESC nd = {};
            nd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE;
            nd.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
            nd.handle.win32.handle = nt;
            nd.size = size;
            ASSERT_OK(cuImportExternalMemory(&ext, &nd));
            CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
            b.size = size;
            CUdeviceptr dptr = 0;
            ASSERT_OK(cuExternalMemoryGetMappedBuffer(&dptr, ext, &b));
            uint32_t first = 0;
            ASSERT_OK(cuMemcpyDtoH(&first, dptr, 4));
            EXPECT_EQ(0x600du, first) << "the import did not copy the shared buffer in";
            EXPECT_OK(cuMemFree(dptr));
            EXPECT_OK(cuDestroyExternalMemory(ext));
            EXPECT_TRUE(fd_is_open((int)(intptr_t)nt)); // the specification: it stays the caller's
            CloseHandle(nt);
        }
        if (dxgi1)
            dxgi1->Release();
        if (nt_buffer)
            nt_buffer->Release();
    }
    if (dxgi)
        dxgi->Release();
    if (texture)
        texture->Release();
    context->Release();
    device11->Release();
}
