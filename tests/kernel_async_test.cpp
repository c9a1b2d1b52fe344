// Asynchronous copies and barriers on the software device (issue 25): what bad operands do (the
// GPU's answers, docs/probes/kernels/async), what is refused at load, how a warp spinning on an
// mbarrier lets the block's other warps run, and how a block whose warps can only wait ends.
// docs/kernels.md, "Asynchronous copies and mbarriers", is the specification these read.
#include "framework/testing.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace extmem_test;

using KernelAsync = ContextTest;

namespace {

const char kHeader[] = ".version 8.0\n.target sm_90\n.address_size 64\n";

/* Loads `body` (after the header) and runs entry `k(.param .u64 out, .param .u64 in)` on one
 * block of `threads`; `out` and `in` are 4 KiB each, `in` holding 0x11 bytes, `out` 0x4d words.
 * Returns the synchronisation's result; *o receives out's first 64 words when it succeeded. */
CUresult run(const std::string &body, unsigned threads, std::vector<uint32_t> *o = nullptr, unsigned grid = 1)
{
    std::string ptx = std::string(kHeader) + body;
    CUmodule m;
    CUresult e = cuModuleLoadData(&m, ptx.c_str());
    EXPECT_EQ(CUDA_SUCCESS, e) << extmem_error_detail();
    if (e != CUDA_SUCCESS)
        return e;
    CUfunction f;
    EXPECT_OK(cuModuleGetFunction(&f, m, "k"));
    CUdeviceptr out, in;
    EXPECT_OK(cuMemAlloc(&out, 4096));
    EXPECT_OK(cuMemAlloc(&in, 4096));
    for (int i = 0; i < 1024; ++i)
        ((uint32_t *)out)[i] = 0x4d;
    memset((void *)in, 0x11, 4096);
    void *params[] = {&out, &in};
    EXPECT_OK(cuLaunchKernel(f, grid, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
    CUresult r = cuCtxSynchronize();
    if (r == CUDA_SUCCESS && o)
        o->assign((const uint32_t *)out, (const uint32_t *)out + 64);
    if (r == CUDA_SUCCESS) {
        cuMemFree(out);
        cuMemFree(in);
        cuModuleUnload(m);
    }
    return r;
}

/* A kernel whose body follows the common prologue: %rd1 = out, %rd2 = in, %r1 = %tid.x,
 * %r2 = shared address of `s` (128 aligned words), %r3 = shared address of mbarrier `b`. */
std::string kernel(const std::string &code)
{
    return R"(
.visible .entry k(.param .u64 out, .param .u64 in)
{
    .reg .pred %p<8>;
    .reg .b32 %r<32>;
    .reg .b64 %rd<16>;
    .shared .align 16 .b8 s[512];
    .shared .align 8 .b64 b;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [in];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, s;
    mov.u32 %r3, b;
)" + code + "\n    ret;\n}\n";
}

CUresult load_only(const std::string &code)
{
    std::string ptx = std::string(kHeader) + kernel(code);
    CUmodule m;
    CUresult e = cuModuleLoadData(&m, ptx.c_str());
    if (e == CUDA_SUCCESS)
        cuModuleUnload(m);
    return e;
}

} // namespace

// ---- cp.async ----

TEST_F(KernelAsync, CpAsyncZeroFill_CopiesSrcSizeBytesAndZerosTheRest)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    mov.u32 %r4, 6;
    cp.async.cg.shared.global [s], [%rd2], 16, %r4;
    cp.async.ca.shared.global [s+16], [%rd2], 8, 0;
    cp.async.commit_group;
    cp.async.wait_group 0;
    ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [s];
    ld.shared.v2.u32 {%r14, %r15}, [s+16];
    st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};
    st.global.v2.u32 [%rd1+16], {%r14, %r15};
)"), 1, &o));
    EXPECT_EQ(0x11111111u, o[0]);
    EXPECT_EQ(0x00001111u, o[1]);
    EXPECT_EQ(0u, o[2]);
    EXPECT_EQ(0u, o[3]);
    EXPECT_EQ(0u, o[4]);
    EXPECT_EQ(0u, o[5]);
}

TEST_F(KernelAsync, CpAsyncIgnoreSrc_FillsZerosWithoutReading)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    setp.eq.u32 %p2, %r1, 0;
    mov.u64 %rd3, 0;
    cp.async.ca.shared.global [s], [%rd3], 4, %p2;
    cp.async.ca.shared.global [s+4], [%rd2], 4, !%p2;
    cp.async.wait_all;
    ld.shared.v2.u32 {%r10, %r11}, [s];
    st.global.v2.u32 [%rd1], {%r10, %r11};)"), 1, &o));
    EXPECT_EQ(0u, o[0]);
    EXPECT_EQ(0x11111111u, o[1]);
}

TEST_F(KernelAsync, CpAsyncSrcSizeAboveCpSize_CopiesTheRemainderAsTheGpu)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    mov.u32 %r4, 20;
    cp.async.ca.shared.global [s], [%rd2], 8, %r4;
    mov.u32 %r4, 17;
    cp.async.cg.shared.global [s+16], [%rd2], 16, %r4;
    cp.async.wait_all;
    ld.shared.v2.u32 {%r10, %r11}, [s];
    ld.shared.v2.u32 {%r12, %r13}, [s+16];
    st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};)"), 1, &o));
    EXPECT_EQ(0x11111111u, o[0]); // 20 % 8 = 4 bytes
    EXPECT_EQ(0u, o[1]);
    EXPECT_EQ(0x11u, o[2]);       // 17 % 16 = 1 byte
    EXPECT_EQ(0u, o[3]);
}

TEST_F(KernelAsync, CpAsyncMisalignedSource_IsMisalignedAddress)
{
    EXPECT_CU(CUDA_ERROR_MISALIGNED_ADDRESS, run(kernel(R"(
    add.u64 %rd3, %rd2, 2;
    cp.async.ca.shared.global [s], [%rd3], 4;)"), 32));
    EXPECT_DETAIL_HAS("cp.async source");
}

TEST_F(KernelAsync, CpAsyncMisalignedDestination_IsMisalignedAddress)
{
    EXPECT_CU(CUDA_ERROR_MISALIGNED_ADDRESS, run(kernel(R"(
    cp.async.cg.shared.global [s+8], [%rd2], 16;)"), 32));
}

TEST_F(KernelAsync, CpAsyncSourceOutsideDeviceMemory_IsIllegalAddress)
{
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, run(kernel(R"(
    mov.u64 %rd3, 16;
    cp.async.ca.shared.global [s], [%rd3], 4;)"), 32));
}

TEST_F(KernelAsync, CpAsyncSizesTheIsaDoesNotHave_AreInvalidPtxNamingTheForm)
{
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    cp.async.ca.shared.global [s], [%rd2], 2;"));
    EXPECT_DETAIL_HAS("cp.async.ca.shared.global");
    EXPECT_DETAIL_HAS("cp-size 2");
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    cp.async.cg.shared.global [s], [%rd2], 8;"));
    EXPECT_DETAIL_HAS("cp-size 8 is not 16");
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    cp.async.ca.shared.global [s], [%rd2], 16, 20;"));
    EXPECT_DETAIL_HAS("src-size 20");
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    cp.async.ca.shared.global [s], [%rd2], %r1;"));
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    cp.async.ca.global.shared [s], [%rd2], 4;"));
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    mbarrier.init.shared.b32 [b], 1;"));
    EXPECT_DETAIL_HAS("mbarrier.init.shared.b32");
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    mbarrier.arrive.noComplete.shared.b64 %rd3, [b];"));
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                                                ".multicast::cluster [s], [%rd2], 16, [b], 1;"));
}

// ---- mbarrier ----

TEST_F(KernelAsync, MbarrierAtAGenericAddressOutsideShared_IsIllegalInstruction)
{
    EXPECT_CU(CUDA_ERROR_ILLEGAL_INSTRUCTION, run(kernel(R"(
    mbarrier.init.b64 [%rd1], 1;)"), 1));
    EXPECT_DETAIL_HAS("not shared memory");
}

TEST_F(KernelAsync, MbarrierPastTheSharedWindow_IsIllegalAddress)
{
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, run(kernel(R"(
    mov.u32 %r4, 0x100000;
    mbarrier.init.shared.b64 [%r4], 1;)"), 1));
}

TEST_F(KernelAsync, MbarrierMisaligned_IsMisalignedAddress)
{
    EXPECT_CU(CUDA_ERROR_MISALIGNED_ADDRESS, run(kernel(R"(
    mbarrier.init.shared.b64 [s+4], 1;)"), 1));
}

TEST_F(KernelAsync, MbarrierThroughAGenericSharedAddress_Works)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    cvta.shared.u64 %rd3, b;
    mbarrier.init.b64 [%rd3], 1;
    mbarrier.arrive.b64 %rd4, [%rd3];
    mbarrier.test_wait.b64 %p2, [%rd3], %rd4;
    selp.u32 %r10, 1, 0, %p2;
    st.global.u32 [%rd1], %r10;)"), 1, &o));
    EXPECT_EQ(1u, o[0]);
}

TEST_F(KernelAsync, MbarrierPendingCount_IsTheCountBeforeTheArrival)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    mbarrier.init.shared.b64 [b], 5;
    mbarrier.arrive.shared.b64 %rd3, [b];
    mbarrier.arrive.noComplete.shared.b64 %rd4, [b], 2;
    mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [b], 48;
    mbarrier.arrive_drop.shared.b64 %rd5, [b];
    mbarrier.pending_count.b64 %r10, %rd3;
    mbarrier.pending_count.b64 %r11, %rd4;
    mbarrier.pending_count.b64 %r12, %rd5;
    mbarrier.arrive.shared.b64 %rd6, [b];
    mbarrier.test_wait.shared.b64 %p2, [b], %rd6;
    selp.u32 %r13, 1, 0, %p2;
    mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [b], 48;
    mbarrier.test_wait.shared.b64 %p2, [b], %rd3;
    selp.u32 %r14, 1, 0, %p2;
    mbarrier.test_wait.parity.shared.b64 %p2, [b], 1;
    selp.u32 %r15, 1, 0, %p2;
    st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};
    st.global.v2.u32 [%rd1+16], {%r14, %r15};)"), 1, &o));
    // As the GPU (docs/probes/kernels/async, mb_state): 5, 4, 2.
    EXPECT_EQ(5u, o[0]);
    EXPECT_EQ(4u, o[1]);
    EXPECT_EQ(2u, o[2]);
    EXPECT_EQ(0u, o[3]); // no arrival pending, 48 bytes of transactions are
    EXPECT_EQ(1u, o[4]); // complete_tx ended the phase
    EXPECT_EQ(0u, o[5]); // the phase now running has parity 1
}

/* Warp 0 spins on try_wait.parity while warp 1 computes for a while and then arrives: the spin
 * must let warp 1 run (a GPU runs both at once). */
TEST_F(KernelAsync, AWarpSpinningOnTryWait_LetsTheArrivingWarpRun)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra SYNC;
    mbarrier.init.shared.b64 [b], 1;
SYNC:
    bar.sync 0;
    setp.lt.u32 %p2, %r1, 32;
    @%p2 bra CONSUMER;
    setp.ne.u32 %p3, %r1, 32;
    @%p3 bra DONE;
    mov.u32 %r5, 0;
LOOP:
    add.u32 %r5, %r5, 1;
    setp.lt.u32 %p4, %r5, 5000;
    @%p4 bra LOOP;
    st.shared.u32 [s], %r5;
    mbarrier.arrive.release.cta.shared::cta.b64 _, [b];
    bra.uni DONE;
CONSUMER:
    mbarrier.try_wait.parity.shared::cta.b64 %p5, [b], 0, 100;
    @!%p5 bra CONSUMER;
    ld.shared.u32 %r6, [s];
    setp.eq.u32 %p6, %r1, 0;
    @%p6 st.global.u32 [%rd1], %r6;
DONE:)"), 64, &o));
    EXPECT_EQ(5000u, o[0]);
}

/* Lanes 1-31 spin on the mbarrier on the path laid out first; lane 0, on the other path of the
 * same warp, computes and arrives: the waiting lanes step aside for it. */
TEST_F(KernelAsync, LanesWaitingForALaneOfTheirOwnWarp_LetItRun)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    setp.eq.u32 %p1, %r1, 0;
    @!%p1 bra INIT_DONE;
    mbarrier.init.shared.b64 [b], 1;
INIT_DONE:
    bar.sync 0;
    @%p1 bra PRODUCER;
WAIT:
    mbarrier.test_wait.parity.shared.b64 %p5, [b], 0;
    @!%p5 bra WAIT;
    ld.shared.u32 %r6, [s];
    add.u32 %r6, %r6, %r1;
    mul.wide.u32 %rd3, %r1, 4;
    add.u64 %rd4, %rd1, %rd3;
    st.global.u32 [%rd4], %r6;
    bra.uni DONE;
PRODUCER:
    mov.u32 %r5, 0;
LOOP:
    add.u32 %r5, %r5, 3;
    setp.lt.u32 %p4, %r5, 3000;
    @%p4 bra LOOP;
    st.shared.u32 [s], %r5;
    mbarrier.arrive.shared.b64 %rd5, [b];
    st.global.u32 [%rd1], 7;
DONE:)"), 32, &o));
    EXPECT_EQ(7u, o[0]);
    for (uint32_t t = 1; t < 32; ++t)
        EXPECT_EQ(3000u + t, o[t]) << t;
}

TEST_F(KernelAsync, EveryWarpWaitingOnAnMbarrierNoneCanComplete_IsLaunchFailedNotAHang)
{
    auto start = std::chrono::steady_clock::now();
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, run(kernel(R"(
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra SYNC;
    mbarrier.init.shared.b64 [b], 129;
SYNC:
    bar.sync 0;
    mbarrier.arrive.shared.b64 %rd3, [b];
WAIT:
    mbarrier.test_wait.shared.b64 %p2, [b], %rd3;
    @!%p2 bra WAIT;)"), 128));
    EXPECT_DETAIL_HAS("a GPU would hang here");
    EXPECT_DETAIL_HAS("mbarrier.test_wait");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST_F(KernelAsync, AWarpWaitingOnAnMbarrierWhileTheOthersWaitAtABarrier_IsLaunchFailed)
{
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, run(kernel(R"(
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra SYNC;
    mbarrier.init.shared.b64 [b], 1;
SYNC:
    bar.sync 0;
    setp.lt.u32 %p2, %r1, 32;
    @%p2 bra WAIT;
    bar.sync 1;
    bra.uni DONE;
WAIT:
    mbarrier.try_wait.parity.shared.b64 %p3, [b], 0;
    @!%p3 bra WAIT;
DONE:)"), 64));
    EXPECT_DETAIL_HAS("a GPU would hang here");
}

// ---- bulk copies ----

TEST_F(KernelAsync, BulkCopySizeNotAMultipleOf16_MovesTheWholeChunksAsTheGpu)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    st.shared.v4.u32 [s+16], {%r1, %r1, %r1, %r1};
    mbarrier.init.shared::cta.b64 [b], 1;
    mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], 16;
    mov.u32 %r4, 24;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [%rd2], %r4, [b];
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [b], 0;
    selp.u32 %r10, 1, 0, %p2;
    ld.shared.u32 %r11, [s+12];
    ld.shared.u32 %r12, [s+16];
    st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r12};)"), 1, &o));
    EXPECT_EQ(1u, o[0]);          // 16 bytes completed
    EXPECT_EQ(0x11111111u, o[1]); // word 3 copied
    EXPECT_EQ(0u, o[2]);          // word 4 not
}

TEST_F(KernelAsync, BulkCopyMisalignedSource_IsMisalignedAddress)
{
    EXPECT_CU(CUDA_ERROR_MISALIGNED_ADDRESS, run(kernel(R"(
    mbarrier.init.shared::cta.b64 [b], 1;
    add.u64 %rd3, %rd2, 4;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [%rd3], 16, [b];)"), 1));
}

TEST_F(KernelAsync, BulkCopyToGlobalAndReduction_WriteAndAddTheTile)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra DONE;
    st.shared.v4.u32 [s], {1, 2, 3, 4};
    st.shared.v4.u32 [s+16], {5, 6, 7, 8};
    fence.proxy.async.shared::cta;
    cp.async.bulk.global.shared::cta.bulk_group [%rd1], [s], 32;
    cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1+32], [s], 32;
    cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [%rd1+64], [s], 16;
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group.read 0;
    cp.async.bulk.wait_group 0;
DONE:)"), 32, &o));
    for (uint32_t i = 0; i < 8; ++i) {
        EXPECT_EQ(i + 1, o[i]);
        EXPECT_EQ(0x4d + i + 1, o[8 + i]);
    }
    EXPECT_EQ(0x4du, o[16]);
}

TEST_F(KernelAsync, BulkCopyOf64BytesAtA16ByteBoundary_IsAligned)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    mbarrier.init.shared::cta.b64 [b], 1;
    mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], 64;
    add.u64 %rd3, %rd2, 16;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s+16], [%rd3], 64, [b];
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [b], 0;
    @!%p2 bra WAIT;
    cp.async.bulk.global.shared::cta.bulk_group [%rd1+48], [s+16], 64;
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group 0;)"), 1, &o));
    EXPECT_EQ(0x4du, o[11]);
    for (int i = 12; i < 28; ++i)
        EXPECT_EQ(0x11111111u, o[i]) << i;
    EXPECT_EQ(0x4du, o[28]);
}

TEST_F(KernelAsync, BulkCopyAndReductionWithinSharedMemory_CompleteOnTheMbarrier)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    st.shared.v4.u32 [s], {1, 2, 3, 4};
    st.shared.v4.u32 [s+32], {10, 20, 30, 40};
    st.shared.v4.u32 [s+64], {100, 200, 300, 400};
    mbarrier.init.shared::cta.b64 [b], 1;
    mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], 32;
    cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [s+16], [s], 16, [b];
    cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [s+32], [s+64], 16, [b];
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [b], 0;
    @!%p2 bra WAIT;
    ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [s+16];
    ld.shared.v4.u32 {%r14, %r15, %r16, %r17}, [s+32];
    st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};
    st.global.v4.u32 [%rd1+16], {%r14, %r15, %r16, %r17};)"), 1, &o));
    const uint32_t want[8] = {1, 2, 3, 4, 110, 220, 330, 440};
    for (int i = 0; i < 8; ++i)
        EXPECT_EQ(want[i], o[i]) << i;
}

TEST_F(KernelAsync, TensorAndMulticastBulkCopies_AreInvalidPtxNamingTheForm)
{
    EXPECT_CU(CUDA_ERROR_INVALID_PTX,
              load_only("    cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [s], [%rd2, {%r1, %r1}], [b];"));
    EXPECT_DETAIL_HAS("cp.async.bulk.tensor");
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, load_only("    cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [s], 16;"));
    EXPECT_DETAIL_HAS("cp.reduce.async.bulk");
}

// ---- barrier.cluster ----

TEST_F(KernelAsync, ClusterBarrierOfOneBlock_WaitsForEveryLiveThread)
{
    std::vector<uint32_t> o;
    ASSERT_OK(run(kernel(R"(
    setp.ge.u32 %p1, %r1, 96;
    @%p1 exit;
    shl.b32 %r4, %r1, 2;
    add.u32 %r5, %r2, %r4;
    st.shared.u32 [%r5], %r1;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    setp.ne.u32 %p2, %r1, 0;
    @%p2 bra DONE;
    ld.shared.u32 %r10, [s+380];
    st.global.u32 [%rd1], %r10;
DONE:)"), 128, &o));
    EXPECT_EQ(95u, o[0]);
}
