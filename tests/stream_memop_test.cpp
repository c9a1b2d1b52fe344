// Stream memory operations: cuStreamWaitValue32/64, cuStreamWriteValue32/64, cuStreamBatchMemOp
// (src/memory/memop.c). Waits hold their stream until a word of memory reaches a condition,
// whoever writes it; writes are stream-ordered.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace extmem_test;

// The older forms (before CUDA 11.7), exported under the plain names the header gives the _v2.
#undef cuStreamWriteValue32
#undef cuStreamBatchMemOp
extern "C" {
EXTMEM_API CUresult CUDAAPI cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                                                 unsigned int flags);
EXTMEM_API CUresult CUDAAPI cuStreamBatchMemOp(CUstream stream, unsigned int count,
                                               CUstreamBatchMemOpParams *paramArray, unsigned int flags);
}
static const auto cuStreamWriteValue32_v1 = cuStreamWriteValue32;
static const auto cuStreamBatchMemOp_v1 = cuStreamBatchMemOp;
#define cuStreamWriteValue32 cuStreamWriteValue32_v2
#define cuStreamBatchMemOp cuStreamBatchMemOp_v2

namespace {

class MemOp : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuMemAlloc(&mem, 4096));
        ASSERT_OK(cuMemsetD8(mem, 0, 4096));
        ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    }
    void TearDown() override
    {
        EXPECT_OK(cuStreamSynchronize(s));
        EXPECT_OK(cuStreamDestroy(s));
        EXPECT_OK(cuMemFree(mem));
        ContextTest::TearDown();
    }
    std::atomic<uint32_t> &word32(size_t off = 0) { return *reinterpret_cast<std::atomic<uint32_t> *>(mem + off); }
    std::atomic<uint64_t> &word64(size_t off = 0) { return *reinterpret_cast<std::atomic<uint64_t> *>(mem + off); }
    /* True when s is still busy after a while (its wait has not passed). */
    bool still_waiting()
    {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        return cuStreamQuery(s) == CUDA_ERROR_NOT_READY;
    }
    CUdeviceptr mem = 0;
    CUstream s = nullptr;
};

} // namespace

TEST_F(MemOp, Write32And64_AreStreamOrdered)
{
    ASSERT_OK(cuMemsetD32Async(mem, 0x11111111, 4, s));
    ASSERT_OK(cuStreamWriteValue32(s, mem, 0xabcd1234u, 0));
    ASSERT_OK(cuStreamWriteValue64(s, mem + 8, 0x0123456789abcdefull, 0));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(0xabcd1234u, word32().load());
    EXPECT_EQ(0x0123456789abcdefull, word64(8).load());
    // The per-thread and legacy default streams too.
    ASSERT_OK(cuStreamWriteValue32(CU_STREAM_PER_THREAD, mem + 16, 5, 0));
    ASSERT_OK(cuStreamWriteValue64(nullptr, mem + 24, 6, 0));
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ(5u, word32(16).load());
    EXPECT_EQ(6u, word64(24).load());
}

TEST_F(MemOp, WaitGeq_HoldsLaterWorkUntilTheHostWritesTheWord)
{
    ASSERT_OK(cuStreamWaitValue32(s, mem, 3, CU_STREAM_WAIT_VALUE_GEQ));
    ASSERT_OK(cuStreamWriteValue32(s, mem + 4, 1, 0)); // the marker: runs only after the wait
    EXPECT_TRUE(still_waiting());
    word32().store(2);
    EXPECT_TRUE(still_waiting());
    EXPECT_EQ(0u, word32(4).load());
    word32().store(7);
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(1u, word32(4).load());
}

TEST_F(MemOp, WaitGeq_IsCyclic_IgnoringWraparound)
{
    word32().store(5);
    // (int32_t)(5 - 0xfffffff0) = 21 >= 0: satisfied although 5 < 0xfffffff0.
    ASSERT_OK(cuStreamWaitValue32(s, mem, 0xfffffff0u, CU_STREAM_WAIT_VALUE_GEQ));
    ASSERT_OK(cuStreamSynchronize(s));
    // (int32_t)(0xfffffff0 - 0x10) < 0: not satisfied although 0xfffffff0 > 0x10.
    word32().store(0xfffffff0u);
    ASSERT_OK(cuStreamWaitValue32(s, mem, 0x10, CU_STREAM_WAIT_VALUE_GEQ));
    EXPECT_TRUE(still_waiting());
    word32().store(0x10);
    ASSERT_OK(cuStreamSynchronize(s));
    word64(8).store(3);
    ASSERT_OK(cuStreamWaitValue64(s, mem + 8, 0xfffffffffffffff0ull, CU_STREAM_WAIT_VALUE_GEQ));
    ASSERT_OK(cuStreamSynchronize(s));
}

TEST_F(MemOp, WaitEqAndNor_PassOnlyWhenTheConditionHolds)
{
    struct Case {
        unsigned int flags;
        uint32_t value, fails, passes;
    } cases[] = {
        {CU_STREAM_WAIT_VALUE_EQ, 42, 41, 42},
        {CU_STREAM_WAIT_VALUE_EQ, 42, 43, 42},
        {CU_STREAM_WAIT_VALUE_AND, 0x0f0, 0x00f, 0x010},
        {CU_STREAM_WAIT_VALUE_NOR, 0xfffffff0u, 0x0000000fu, 0x00000007u}, // ~(v | value) != 0
    };
    for (const Case &c : cases) {
        word32().store(c.fails);
        ASSERT_OK(cuStreamWaitValue32(s, mem, c.value, c.flags));
        EXPECT_TRUE(still_waiting()) << "flags " << c.flags << " value " << c.value;
        word32().store(c.passes);
        ASSERT_OK(cuStreamSynchronize(s)) << "flags " << c.flags;
    }
}

TEST_F(MemOp, Wait64_ComparesAllSixtyFourBits)
{
    word64().store(0x100000000ull);
    ASSERT_OK(cuStreamWaitValue64(s, mem, 0x100000001ull, CU_STREAM_WAIT_VALUE_EQ));
    EXPECT_TRUE(still_waiting());
    word64().store(0x100000001ull);
    ASSERT_OK(cuStreamSynchronize(s));
    word64().store(0xffffffff00000000ull);
    ASSERT_OK(cuStreamWaitValue64(s, mem, 0xffffffff00000000ull, CU_STREAM_WAIT_VALUE_NOR));
    ASSERT_OK(cuStreamSynchronize(s)); // ~(v | value) has the low 32 bits set
    ASSERT_OK(cuStreamWaitValue64(s, mem, 0x00000000ffffffffull, CU_STREAM_WAIT_VALUE_NOR));
    EXPECT_TRUE(still_waiting()); // v | value is all ones
    word64().store(0);
    ASSERT_OK(cuStreamSynchronize(s));
}

TEST_F(MemOp, AWriteOnOneStream_ReleasesAWaitOnAnother)
{
    CUstream writer;
    ASSERT_OK(cuStreamCreate(&writer, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuStreamWaitValue32(s, mem, 1, CU_STREAM_WAIT_VALUE_EQ));
    ASSERT_OK(cuStreamWriteValue32(s, mem + 4, 2, 0));
    EXPECT_TRUE(still_waiting());
    ASSERT_OK(cuStreamWriteValue32(writer, mem, 1, 0));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(2u, word32(4).load());
    EXPECT_OK(cuStreamDestroy(writer));
}

TEST_F(MemOp, WaitOnTheLegacyStream_ReturnsAtOnceAndOrdersLaterLegacyWork)
{
    auto t0 = std::chrono::steady_clock::now();
    ASSERT_OK(cuStreamWaitValue32(nullptr, mem, 1, CU_STREAM_WAIT_VALUE_EQ));
    ASSERT_OK(cuStreamWriteValue32(nullptr, mem + 4, 9, 0));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
    EXPECT_EQ(0u, word32(4).load());
    std::thread releaser([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        word32().store(1);
    });
    ASSERT_OK(cuCtxSynchronize());
    releaser.join();
    EXPECT_EQ(9u, word32(4).load());
}

TEST_F(MemOp, OnHostMemory_Work_OnManagedMemory_AreInvalidValueAsOnTheDriver)
{
    void *host;
    ASSERT_OK(cuMemAllocHost(&host, 64));
    CUdeviceptr h = (CUdeviceptr)(uintptr_t)host;
    ASSERT_OK(cuStreamWriteValue32(s, h, 77, 0));
    ASSERT_OK(cuStreamWaitValue32(s, h, 77, CU_STREAM_WAIT_VALUE_EQ));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(77u, *(volatile uint32_t *)host);
    CUdeviceptr m;
    ASSERT_OK(cuMemAllocManaged(&m, 64, CU_MEM_ATTACH_GLOBAL));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue32(s, m, 5, 0));
    EXPECT_DETAIL_HAS("managed memory");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue64(s, m, 5, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(s, m, 5, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue64(s, m, 5, 0));
    EXPECT_OK(cuMemFree(m));
    EXPECT_OK(cuMemFreeHost(host));
}

TEST_F(MemOp, BadAddresses_AreInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(s, 0, 1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(s, mem + 2, 1, 0));
    EXPECT_DETAIL_HAS("not aligned");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue64(s, mem + 4, 1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue64(s, mem + 12, 1, 0));
    // Pageable memory: kernels cannot touch it (PAGEABLE_MEMORY_ACCESS is 0), nor can these.
    uint32_t *heap = static_cast<uint32_t *>(std::malloc(64));
    ASSERT_NE(nullptr, heap);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(s, (CUdeviceptr)(uintptr_t)heap, 1, 0));
    EXPECT_DETAIL_HAS("not memory the device may write");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue32(s, (CUdeviceptr)(uintptr_t)heap, 1, 0));
    std::free(heap);
    // Freed memory.
    CUdeviceptr gone;
    ASSERT_OK(cuMemAlloc(&gone, 64));
    ASSERT_OK(cuMemFree(gone));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(s, gone, 1, 0));
    // Past the end of the allocation's pages.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue64(s, mem + 4096 + 65536, 1, 0));
}

TEST_F(MemOp, ReadOnlyVmmMapping_TakesWaitsButNotWrites)
{
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    size_t gran = 0;
    ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle h;
    ASSERT_OK(cuMemCreate(&h, gran, &prop, 0));
    CUdeviceptr va;
    ASSERT_OK(cuMemAddressReserve(&va, gran, 0, 0, 0));
    ASSERT_OK(cuMemMap(va, gran, 0, h, 0));
    CUmemAccessDesc ad = {};
    ad.location = prop.location;
    ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    ASSERT_OK(cuMemSetAccess(va, gran, &ad, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(s, va, 1, 0));
    EXPECT_OK(cuStreamWaitValue32(s, va, 0, CU_STREAM_WAIT_VALUE_EQ));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuMemUnmap(va, gran));
    EXPECT_OK(cuMemAddressFree(va, gran));
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(MemOp, BadFlagsAndStreams)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue32(s, mem, 1, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue64(s, mem, 1, 0x100));
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuStreamWaitValue32(s, mem, 1, CU_STREAM_WAIT_VALUE_FLUSH));
    EXPECT_DETAIL_HAS("CAN_FLUSH_REMOTE_WRITES");
    // The _v2 forms take no NO_MEMORY_BARRIER.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(s, mem, 1, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue64(s, mem, 1, 2));
    EXPECT_OK(cuStreamWriteValue32(s, mem, 8, 0));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(8u, word32().load());
    CUstream dead;
    ASSERT_OK(cuStreamCreate(&dead, 0));
    ASSERT_OK(cuStreamDestroy(dead));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamWriteValue32(dead, mem, 1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamWaitValue32((CUstream)(uintptr_t)0xbad0, mem, 1, 0));
    EXPECT_EQ(8u, word32().load()); // nothing was queued
}

TEST_F(MemOp, Batch_RunsItsOperationsInOrder)
{
    CUstreamBatchMemOpParams ops[4];
    memset(ops, 0, sizeof ops);
    ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    ops[0].writeValue.address = mem;
    ops[0].writeValue.value = 1;
    ops[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
    ops[1].waitValue.address = mem + 8;
    ops[1].waitValue.value64 = 0x500000000ull;
    ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
    ops[2].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
    ops[2].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_SYS;
    ops[3].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
    ops[3].writeValue.address = mem + 16;
    ops[3].writeValue.value64 = 0x700000000ull;
    ASSERT_OK(cuStreamBatchMemOp(s, 4, ops, 0));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_EQ(1u, word32().load()); // before the wait
    EXPECT_EQ(0u, word64(16).load()); // after it
    word64(8).store(0x500000000ull);
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(0x700000000ull, word64(16).load());
}

TEST_F(MemOp, Batch_BadArguments_QueueNothing)
{
    CUstreamBatchMemOpParams ops[2];
    memset(ops, 0, sizeof ops);
    ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    ops[0].writeValue.address = mem;
    ops[0].writeValue.value = 3;
    ops[1].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    ops[1].writeValue.address = mem + 1; // unaligned
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(s, 2, ops, 0));
    EXPECT_DETAIL_HAS("paramArray[1].address");
    EXPECT_OK(cuStreamBatchMemOp(s, 0, ops, 0)); // nothing to do, as on the driver
    EXPECT_OK(cuStreamBatchMemOp(s, 0, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(s, 1, nullptr, 0)); // the driver crashes
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(s, 1, ops, 1));
    static CUstreamBatchMemOpParams many[256];
    for (auto &op : many) {
        op = ops[0];
    }
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(s, 256, many, 0));
    EXPECT_OK(cuStreamBatchMemOp(s, 255, many, 0));
    EXPECT_OK(cuStreamSynchronize(s));
    word32().store(0);
    ops[1].operation = (CUstreamBatchMemOpType)99;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(s, 2, ops, 0));
    EXPECT_DETAIL_HAS("not a CUstreamBatchMemOpType");
    ops[1].flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
    ops[1].flushRemoteWrites.flags = 0;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuStreamBatchMemOp(s, 2, ops, 0));
    ops[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
    ops[1].memoryBarrier.flags = 2;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(s, 2, ops, 0));
    ops[1].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(0u, word32().load()); // none of the failed batches ran its first write
    EXPECT_OK(cuStreamBatchMemOp(s, 2, ops, 0));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(3u, word32().load());
}

// The H100 answers 0 for CAN_USE_STREAM_MEM_OPS_V1 and refuses the CUDA 8 forms.
TEST_F(MemOp, TheFormsBeforeCuda11_7_AreNotSupported_AsOnTheH100)
{
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuStreamWriteValue32_v1(s, mem, 8, 0));
    EXPECT_DETAIL_HAS("CAN_USE_STREAM_MEM_OPS_V1");
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = mem;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuStreamBatchMemOp_v1(s, 1, &op, 0));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(0u, word32().load());
}

TEST_F(MemOp, ContextSynchronize_WaitsForAWaitThatAnotherThreadReleases)
{
    ASSERT_OK(cuStreamWaitValue32(s, mem, 1, CU_STREAM_WAIT_VALUE_EQ));
    std::thread releaser([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        word32().store(1);
    });
    EXPECT_OK(cuCtxSynchronize());
    releaser.join();
    EXPECT_OK(cuStreamQuery(s));
}

#if !defined(_WIN32)
// A wait nobody will ever satisfy, on a created stream and on the legacy stream, must not keep
// the process from exiting: the library's unload gives such waits up.
EXTMEM_CHILD_ROLE(unsatisfied_wait_then_exit)
{
    bool legacy = args.at(0) == "legacy";
    CUcontext c;
    CUdeviceptr p;
    CUstream st = nullptr;
    if (cuInit(0) || cuCtxCreate(&c, nullptr, 0, 0) || cuMemAlloc(&p, 64) || cuMemsetD8(p, 0, 64))
        return 100;
    if (!legacy && cuStreamCreate(&st, CU_STREAM_NON_BLOCKING))
        return 101;
    if (cuStreamWaitValue32(st, p, 1, CU_STREAM_WAIT_VALUE_EQ) || cuStreamWriteValue32(st, p + 4, 1, 0))
        return 102;
    std::printf("waiting\n");
    std::fflush(stdout);
    std::exit(0);
}

TEST(MemOpExit, AWaitNobodySatisfies_DoesNotHangTheProcessAtExit)
{
    for (const char *which : {"created", "legacy"}) {
        Child c("unsatisfied_wait_then_exit", {which});
        EXPECT_EQ("waiting", c.read_line()) << which;
        auto t0 = std::chrono::steady_clock::now();
        EXPECT_EQ(0, c.wait()) << which;
        EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10)) << which;
    }
}
#endif
