// The device heap (malloc and free in kernels; docs/kernels.md "The device heap",
// docs/driver-observations.md "Linking and the device heap"): blocks 16-byte aligned in device
// memory, NULL when the heap is exhausted, CU_LIMIT_MALLOC_HEAP_SIZE fixed once a kernel used
// it, and frees of what the heap did not give as faults with the GPU's codes, sticky.
#include "framework/testing.h"

#include <cstdint>
#include <cstring>
#include <vector>

using namespace extmem_test;

using DeviceHeap = ContextTest;

namespace {

// alloc(out, size, count): thread t mallocs `size` bytes and stores the pointer at out[t];
// release(ptrs): thread t frees ptrs[t]; free_one(p): one free of p; plain(): no heap at all.
const char *kPtx = R"(
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b64 func_retval0) malloc(.param .b64 size);
.extern .func free(.param .b64 ptr);
.visible .entry alloc(.param .u64 out, .param .u64 size)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [size];
    {
        .param .b64 a;
        .param .b64 r;
        st.param.b64 [a], %rd2;
        call.uni (r), malloc, (a);
        ld.param.b64 %rd3, [r];
    }
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 8;
    add.s64 %rd5, %rd1, %rd4;
    st.u64 [%rd5], %rd3;
    ret;
}
.visible .entry release(.param .u64 ptrs)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [ptrs];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 8;
    add.s64 %rd3, %rd1, %rd2;
    ld.u64 %rd4, [%rd3];
    {
        .param .b64 a;
        st.param.b64 [a], %rd4;
        call.uni free, (a);
    }
    ret;
}
.visible .entry free_one(.param .u64 p)
{
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    {
        .param .b64 a;
        st.param.b64 [a], %rd1;
        call.uni free, (a);
    }
    ret;
}
)";
const char *kPlain = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry plain()\n{\n ret;\n}\n";

struct Heap {
    CUmodule m = nullptr;
    CUfunction alloc = nullptr, release = nullptr, free_one = nullptr;
    void load()
    {
        ASSERT_OK(cuModuleLoadData(&m, kPtx));
        ASSERT_OK(cuModuleGetFunction(&alloc, m, "alloc"));
        ASSERT_OK(cuModuleGetFunction(&release, m, "release"));
        ASSERT_OK(cuModuleGetFunction(&free_one, m, "free_one"));
    }
    // Each of `threads` threads mallocs `size` bytes; returns the pointers.
    std::vector<uint64_t> allocate(unsigned threads, uint64_t size, CUresult expect = CUDA_SUCCESS)
    {
        CUdeviceptr out;
        std::vector<uint64_t> p(threads, 0xdeadbeef);
        EXPECT_OK(cuMemAlloc(&out, threads * 8));
        void *args[] = {&out, &size};
        EXPECT_OK(cuLaunchKernel(alloc, 1, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr));
        EXPECT_CU(expect, cuCtxSynchronize());
        if (expect == CUDA_SUCCESS) {
            EXPECT_OK(cuMemcpyDtoH(p.data(), out, threads * 8));
            EXPECT_OK(cuMemFree(out));
        }
        return p;
    }
    CUresult free_all(const std::vector<uint64_t> &p)
    {
        CUdeviceptr d;
        CUresult r = cuMemAlloc(&d, p.size() * 8);
        if (r)
            return r;
        EXPECT_OK(cuMemcpyHtoD(d, p.data(), p.size() * 8));
        void *args[] = {&d};
        EXPECT_OK(cuLaunchKernel(release, 1, 1, 1, (unsigned)p.size(), 1, 1, 0, nullptr, args, nullptr));
        r = cuCtxSynchronize();
        if (r == CUDA_SUCCESS) {
            EXPECT_OK(cuMemFree(d));
        }
        return r;
    }
    CUresult free1(uint64_t p)
    {
        void *args[] = {&p};
        EXPECT_OK(cuLaunchKernel(free_one, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
        return cuCtxSynchronize();
    }
};

} // namespace

TEST_F(DeviceHeap, Malloc_GivesDistinctAlignedDeviceMemory_ThatFreeReturns)
{
    Heap h;
    h.load();
    std::vector<uint64_t> p = h.allocate(64, 100);
    for (size_t i = 0; i < p.size(); ++i) {
        ASSERT_NE(0u, p[i]) << i;
        EXPECT_EQ(0u, p[i] % 16) << i;
        for (size_t j = 0; j < i; ++j)
            EXPECT_TRUE(p[i] + 100 <= p[j] || p[j] + 100 <= p[i]) << i << " overlaps " << j;
    }
    // Device memory: the host reaches it with copies, as kernels do.
    uint32_t word = 0x12345678, back = 0;
    EXPECT_OK(cuMemcpyHtoD((CUdeviceptr)p[5], &word, 4));
    EXPECT_OK(cuMemcpyDtoH(&back, (CUdeviceptr)p[5], 4));
    EXPECT_EQ(word, back);
    // cuMemFree does not take heap memory.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree((CUdeviceptr)p[0]));
    EXPECT_OK(h.free_all(p));
    // A zero-byte malloc gives a block too, as on the GPU.
    std::vector<uint64_t> z = h.allocate(2, 0);
    EXPECT_NE(0u, z[0]);
    EXPECT_NE(z[0], z[1]);
    EXPECT_OK(h.free_all(z));
}

TEST_F(DeviceHeap, AnExhaustedHeap_GivesNull_AndFreedBlocksMergeAgain)
{
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 4 << 20));
    Heap h;
    h.load();
    EXPECT_EQ(0u, h.allocate(1, 8 << 20)[0]);
    EXPECT_EQ(0u, h.allocate(1, ~0ull)[0]);
    // 64 blocks of 64 KiB do not all fit in 4 MiB (each has a header), as on the GPU.
    std::vector<uint64_t> p = h.allocate(64, 64 << 10);
    unsigned got = 0;
    for (uint64_t v : p)
        got += v != 0;
    EXPECT_GE(got, 32u);
    EXPECT_LT(got, 64u);
    std::vector<uint64_t> live;
    for (uint64_t v : p) {
        if (v)
            live.push_back(v);
    }
    EXPECT_OK(h.free_all(live));
    // Everything merged: one block of nearly the whole heap fits again.
    std::vector<uint64_t> big = h.allocate(1, (4 << 20) - 64);
    EXPECT_NE(0u, big[0]);
    EXPECT_OK(h.free_all(big));
}

TEST_F(DeviceHeap, FreeOfNull_DoesNothing)
{
    Heap h;
    h.load();
    EXPECT_OK(h.free1(0));
}

TEST_F(DeviceHeap, DoubleFree_IsLaunchFailed_AndSticky)
{
    Heap h;
    h.load();
    std::vector<uint64_t> p = h.allocate(1, 64);
    EXPECT_OK(h.free1(p[0]));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, h.free1(p[0]));
    EXPECT_DETAIL_HAS("free(0x");
    CUdeviceptr d;
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuMemAlloc(&d, 16)); // sticky, as on the GPU
}

// devrt: the H100's allocator lets a free inside a block pass (docs/probes/kernels/devrt); the
// block stays allocated.
TEST_F(DeviceHeap, FreeInsideABlock_DoesNothing)
{
    Heap h;
    h.load();
    std::vector<uint64_t> p = h.allocate(1, 64);
    EXPECT_OK(h.free1(p[0] + 16));
    EXPECT_OK(h.free1(p[0]));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, h.free1(p[0])) << "freed once by now";
}

TEST_F(DeviceHeap, FreeOfMemoryTheHeapDidNotGive_IsIllegalAddress_AndSticky)
{
    Heap h;
    h.load();
    CUdeviceptr d;
    ASSERT_OK(cuMemAlloc(&d, 256));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, h.free1(d));
    EXPECT_DETAIL_HAS("not in the device heap");
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
}

TEST_F(DeviceHeap, WildFree_IsIllegalAddress)
{
    Heap h;
    h.load();
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, h.free1(0x1000));
}

TEST_F(DeviceHeap, TheLimit_Is8MiB_AtLeast4MiB_AndFixedOnceAKernelUsedTheHeap)
{
    size_t v = 0;
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    EXPECT_EQ(8u << 20, v);
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1000));
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    EXPECT_EQ(4u << 20, v);
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 0));
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    EXPECT_EQ(4u << 20, v);
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 6 << 20));
    // A kernel that uses no heap fixes nothing.
    CUmodule plain;
    CUfunction f;
    ASSERT_OK(cuModuleLoadData(&plain, kPlain));
    ASSERT_OK(cuModuleGetFunction(&f, plain, "plain"));
    ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 5 << 20));
    Heap h;
    h.load();
    std::vector<uint64_t> p = h.allocate(1, 4 << 20);
    EXPECT_NE(0u, p[0]); // 5 MiB
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 << 20));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 5 << 20)); // even the same size
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
    EXPECT_EQ(5u << 20, v);
    // The heap keeps its blocks across launches; a new context has a new heap.
    EXPECT_OK(h.free_all(p));
    EXPECT_OK(cuModuleUnload(plain));
    EXPECT_OK(cuModuleUnload(h.m));
    ASSERT_OK(cuCtxDestroy(ctx));
    ctx = nullptr;
    CUdevice dev;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, dev));
    EXPECT_OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 << 20));
}
