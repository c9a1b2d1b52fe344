// The portable executor's semantics (docs/kernels.md): warps and reconvergence, barriers,
// calls and the stack, state spaces, printf and assert, and faults, through the public module
// and launch calls with PTX written for each case.
#include "framework/testing.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifndef _WIN32
#include <sys/resource.h>
#endif

using namespace extmem_test;

using KernelExec = ContextTest;

namespace {

const char *kHeader = ".version 7.5\n.target sm_75\n.address_size 64\n";

struct Loaded {
    CUmodule module = nullptr;
    CUfunction fn = nullptr;
};

// Loads PTX (the header is prepended) and finds `kernel`.
Loaded load(const std::string &body, const char *kernel)
{
    Loaded l;
    std::string text = std::string(kHeader) + body;
    EXPECT_OK(cuModuleLoadData(&l.module, text.c_str()));
    if (l.module) {
        EXPECT_OK(cuModuleGetFunction(&l.fn, l.module, kernel));
    }
    return l;
}

CUresult launch(CUfunction f, unsigned grid, unsigned block, std::vector<void *> params)
{
    return cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, nullptr, params.empty() ? nullptr : params.data(), nullptr);
}

std::vector<uint32_t> download(CUdeviceptr p, size_t n)
{
    std::vector<uint32_t> v(n);
    EXPECT_OK(cuMemcpyDtoH(v.data(), p, n * 4));
    return v;
}

} // namespace

// if/else on the lane's parity, then a shuffle of the whole warp: the two sides have
// reconverged before it, so every lane reads its neighbour's value.
TEST_F(KernelExec, DivergentBranches_ReconvergeBeforeAWarpShuffle)
{
    Loaded l = load(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.s32 %p1, %r2, 0;
    @%p1 bra EVEN;
    mul.lo.s32 %r3, %r1, 100;
    bra.uni JOIN;
EVEN:
    add.s32 %r3, %r1, 1000;
JOIN:
    add.s32 %r4, %r1, 1;
    and.b32 %r4, %r4, 31;
    shfl.sync.idx.b32 %r5, %r3, %r4, 31, -1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 32 * 4));
    ASSERT_OK(launch(l.fn, 1, 32, {&out}));
    ASSERT_OK(cuCtxSynchronize());
    auto v = download(out, 32);
    for (uint32_t i = 0; i < 32; ++i) {
        uint32_t j = (i + 1) & 31;
        EXPECT_EQ(j % 2 == 0 ? j + 1000 : j * 100, v[i]) << "lane " << i;
    }
    EXPECT_OK(cuMemFree(out));
    EXPECT_OK(cuModuleUnload(l.module));
}

// A tree reduction in shared memory with bar.sync inside the loop, over 8 warps, and threads
// that take part in fewer steps than others: the barrier still holds every live thread.
TEST_F(KernelExec, BarrierInsideALoop_OrdersSharedMemoryAcrossWarps)
{
    Loaded l = load(R"(
.visible .entry sum(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .shared .align 4 .b8 s[1024];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, s;
    add.s32 %r4, %r3, %r2;
    add.s32 %r5, %r1, 1;
    st.shared.u32 [%r4], %r5;
    bar.sync 0;
    mov.u32 %r6, 128;
LOOP:
    setp.ge.u32 %p1, %r1, %r6;
    @%p1 bra SKIP;
    shl.b32 %r7, %r6, 2;
    add.s32 %r8, %r4, %r7;
    ld.shared.u32 %r9, [%r8];
    ld.shared.u32 %r10, [%r4];
    add.s32 %r10, %r10, %r9;
    st.shared.u32 [%r4], %r10;
SKIP:
    bar.sync 0;
    shr.u32 %r6, %r6, 1;
    setp.ne.s32 %p2, %r6, 0;
    @%p2 bra LOOP;
    setp.ne.s32 %p3, %r1, 0;
    @%p3 bra DONE;
    ld.shared.u32 %r11, [s];
    st.global.u32 [%rd1], %r11;
DONE:
    ret;
}
)",
                    "sum");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 4));
    ASSERT_OK(launch(l.fn, 1, 256, {&out}));
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ(256u * 257u / 2u, download(out, 1)[0]);
    EXPECT_OK(cuModuleUnload(l.module));
}

// Threads that exit before a barrier no longer count: the others pass it.
TEST_F(KernelExec, ThreadsThatExited_DoNotHoldABarrier)
{
    Loaded l = load(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 40;
    @%p1 exit;
    bar.sync 0;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], 7;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 128 * 4));
    ASSERT_OK(cuMemsetD32(out, 0, 128));
    ASSERT_OK(launch(l.fn, 1, 128, {&out}));
    ASSERT_OK(cuCtxSynchronize());
    auto v = download(out, 128);
    for (uint32_t i = 0; i < 128; ++i)
        EXPECT_EQ(i < 40 ? 7u : 0u, v[i]) << "thread " << i;
    EXPECT_OK(cuModuleUnload(l.module));
}

// Half the block waits at barrier 0 while the other half waits at barrier 1 with the whole
// block's count: a GPU hangs; extmem ends the launch and says why.
TEST_F(KernelExec, ABarrierThatCanNeverComplete_IsLaunchFailedNotAHang)
{
    Loaded l = load(R"(
.visible .entry k()
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra A;
    bar.sync 1, 64;
    ret;
A:
    bar.sync 0, 64;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    ASSERT_OK(launch(l.fn, 1, 64, {}));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("can never complete");
}

// bar.red.popc counts the threads whose predicate is true, and every thread receives it.
TEST_F(KernelExec, BarRedPopc_GivesEveryThreadTheCount)
{
    Loaded l = load(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 3;
    setp.eq.s32 %p1, %r2, 0;
    bar.red.popc.u32 %r3, 0, %p1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 96 * 4));
    ASSERT_OK(launch(l.fn, 1, 96, {&out}));
    ASSERT_OK(cuCtxSynchronize());
    for (uint32_t v : download(out, 96))
        EXPECT_EQ(24u, v);
    EXPECT_OK(cuModuleUnload(l.module));
}

const char *kFib = R"(
.func (.param .b32 r) fib(.param .b32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    ld.param.b32 %r1, [n];
    setp.lt.s32 %p1, %r1, 2;
    @%p1 bra BASE;
    add.s32 %r2, %r1, -1;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    .param .b32 r0;
    call.uni (r0), fib, (a0);
    ld.param.b32 %r3, [r0];
    }
    add.s32 %r4, %r1, -2;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r4;
    .param .b32 r0;
    call.uni (r0), fib, (a0);
    ld.param.b32 %r5, [r0];
    }
    add.s32 %r1, %r3, %r5;
BASE:
    st.param.b32 [r], %r1;
    ret;
}
.visible .entry k(.param .u64 out, .param .u32 base)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [base];
    mov.u32 %r2, %tid.x;
    add.s32 %r3, %r1, %r2;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r3;
    .param .b32 r0;
    call (r0), fib, (a0);
    ld.param.b32 %r4, [r0];
    }
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
    ret;
}
)";

// A recursive .func, with each lane recursing to its own depth (divergent calls and returns).
TEST_F(KernelExec, RecursiveFunctions_RunToTheirOwnDepthInEachLane)
{
    Loaded l = load(kFib, "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 32 * 4));
    uint32_t base = 0;
    ASSERT_OK(launch(l.fn, 1, 20, {&out, &base}));
    ASSERT_OK(cuCtxSynchronize());
    auto v = download(out, 20);
    uint32_t a = 0, b = 1;
    for (uint32_t i = 0; i < 20; ++i) {
        EXPECT_EQ(a, v[i]) << "fib(" << i << ")";
        uint32_t c = a + b;
        a = b;
        b = c;
    }
    EXPECT_OK(cuModuleUnload(l.module));
}

// Recursion deeper than the frames the executor keeps ends the launch with a reason.
TEST_F(KernelExec, RecursionTooDeep_IsLaunchFailedWithAReason)
{
    Loaded l = load(kFib, "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 4));
    uint32_t base = 100;
    ASSERT_OK(launch(l.fn, 1, 1, {&out, &base}));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("nested calls");
}

// A .local array indexed at run time: each thread has its own.
TEST_F(KernelExec, LocalArrays_AreEachThreadsOwn)
{
    Loaded l = load(R"(
.visible .entry k(.param .u64 out)
{
    .local .align 4 .b8 depot[64];
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u64 %rd2, depot;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
FILL:
    mul.lo.s32 %r3, %r2, %r1;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.local.u32 [%rd4], %r3;
    add.s32 %r2, %r2, 1;
    setp.lt.u32 %p1, %r2, 16;
    @%p1 bra FILL;
    and.b32 %r4, %r1, 15;
    mul.wide.u32 %rd5, %r4, 4;
    add.s64 %rd6, %rd2, %rd5;
    ld.local.u32 %r5, [%rd6];
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd7, %rd1, %rd5;
    st.global.u32 [%rd7], %r5;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 64 * 4));
    ASSERT_OK(launch(l.fn, 1, 64, {&out}));
    ASSERT_OK(cuCtxSynchronize());
    auto v = download(out, 64);
    for (uint32_t i = 0; i < 64; ++i)
        EXPECT_EQ((i & 15) * i, v[i]) << "thread " << i;
    EXPECT_OK(cuModuleUnload(l.module));
}

// brx.idx through a .branchtargets table, each lane to its own target.
TEST_F(KernelExec, BrxIdx_SendsEachLaneToItsTarget)
{
    Loaded l = load(R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, 3;
    TABLE: .branchtargets C0, C1, C2;
    brx.idx %r2, TABLE;
C0:
    mov.u32 %r3, 10;
    bra.uni END;
C1:
    mov.u32 %r3, 21;
    bra.uni END;
C2:
    mov.u32 %r3, 32;
END:
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 32 * 4));
    ASSERT_OK(launch(l.fn, 1, 32, {&out}));
    ASSERT_OK(cuCtxSynchronize());
    auto v = download(out, 32);
    const uint32_t expect[3] = {10, 21, 32};
    for (uint32_t i = 0; i < 32; ++i)
        EXPECT_EQ(expect[i % 3], v[i]) << "lane " << i;
    EXPECT_OK(cuModuleUnload(l.module));
}

// Shared memory reached through generic addresses (cvta.shared) and back.
TEST_F(KernelExec, GenericAddressesOfShared_ReachTheBlocksOwnWindow)
{
    Loaded l = load(R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b8 s[128];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u64 %rd2, s;
    cvta.shared.u64 %rd3, %rd2;
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd3, %rd4;
    mov.u32 %r2, %ctaid.x;
    add.s32 %r2, %r2, %r1;
    st.u32 [%rd5], %r2;
    bar.sync 0;
    ld.shared.u32 %r3, [s];
    mov.u32 %r2, %ctaid.x;
    mul.wide.u32 %rd6, %r2, 4;
    add.s64 %rd7, %rd1, %rd6;
    st.global.u32 [%rd7], %r3;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 64 * 4));
    ASSERT_OK(launch(l.fn, 64, 32, {&out}));
    ASSERT_OK(cuCtxSynchronize());
    auto v = download(out, 64);
    for (uint32_t b = 0; b < 64; ++b)
        EXPECT_EQ(b, v[b]) << "block " << b;
    EXPECT_OK(cuModuleUnload(l.module));
}

// Device printf: the text reaches stdout by the synchronisation, with the argument layout
// the compilers use (int, double, string).
TEST_F(KernelExec, Printf_IsOnStdoutByTheNextSynchronisation)
{
    Loaded l = load(R"(
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 fmt[18] = {118, 61, 37, 100, 32, 100, 61, 37, 46, 50, 102, 32, 115, 61, 37, 115, 10, 0};
.global .align 1 .b8 str[3] = {104, 105, 0};
.visible .entry k(.param .u32 v)
{
    .local .align 8 .b8 depot[24];
    .reg .b32 %r<4>;
    .reg .b64 %rd<8>;
    .reg .f64 %fd<2>;
    mov.u64 %rd1, depot;
    cvta.local.u64 %rd2, %rd1;
    ld.param.u32 %r1, [v];
    mov.u32 %r2, %tid.x;
    st.local.u32 [%rd1], %r1;
    mov.f64 %fd1, 0d3FF8000000000000;
    st.local.f64 [%rd1+8], %fd1;
    mov.u64 %rd3, str;
    cvta.global.u64 %rd4, %rd3;
    st.local.u64 [%rd1+16], %rd4;
    mov.u64 %rd5, fmt;
    cvta.global.u64 %rd6, %rd5;
    {
    .param .b64 p0;
    st.param.b64 [p0], %rd6;
    .param .b64 p1;
    st.param.b64 [p1], %rd2;
    .param .b32 r0;
    call.uni (r0), vprintf, (p0, p1);
    }
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    uint32_t v = 42;
    testing::internal::CaptureStdout();
    ASSERT_OK(launch(l.fn, 1, 2, {&v}));
    ASSERT_OK(cuCtxSynchronize());
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ("v=42 d=1.50 s=hi\nv=42 d=1.50 s=hi\n", out);
    EXPECT_OK(cuModuleUnload(l.module));
}

// trap ends the launch: LAUNCH_FAILED at the synchronisation, then from every call (sticky).
TEST_F(KernelExec, Trap_IsLaunchFailedAndSticky)
{
    Loaded l = load(".visible .entry k()\n{\n    trap;\n}\n", "k");
    ASSERT_TRUE(l.fn);
    ASSERT_OK(launch(l.fn, 4, 32, {}));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("trap");
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuMemAlloc(&p, 4));
}

// A store far outside any allocation: ILLEGAL_ADDRESS, with the kernel, thread, PTX line and
// address in the reason.
TEST_F(KernelExec, AStoreOutsideDeviceMemory_IsIllegalAddressNamingTheThreadAndLine)
{
    Loaded l = load(R"(
.visible .entry store_far()
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    mov.u32 %r1, %tid.x;
    mov.u64 %rd1, 8;
    st.global.u32 [%rd1], %r1;
    ret;
}
)",
                    "store_far");
    ASSERT_TRUE(l.fn);
    ASSERT_OK(launch(l.fn, 1, 32, {}));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("store_far");
    EXPECT_DETAIL_HAS("line 11");
    EXPECT_DETAIL_HAS("0x8");
}

// The H100 lets a kernel store to its module's .const variables through a generic or a global
// address: the launch succeeds and the variable changes (docs/probes/engine_trust/probe.out;
// `st.const` itself is refused when the PTX is loaded). Both tiers do the
// same; a later launch reads the new value.
TEST_F(KernelExec, AStoreToConstThroughAGenericOrGlobalAddress_ChangesItAsOnTheH100)
{
    const char *body = R"(
.const .align 4 .u32 c[4] = {1, 2, 3, 4};
.visible .entry st_generic()
{
    .reg .b64 %rd<3>;
    mov.u64 %rd1, c;
    cvta.const.u64 %rd2, %rd1;
    st.u32 [%rd2+4], 99;
    ret;
}
.visible .entry st_global()
{
    .reg .b64 %rd<3>;
    mov.u64 %rd1, c;
    cvta.const.u64 %rd2, %rd1;
    st.global.u32 [%rd2+8], 98;
    ret;
}
.visible .entry ld_const(.param .u64 out)
{
    .reg .b64 %rd<2>;
    .reg .b32 %r<3>;
    ld.param.u64 %rd1, [out];
    ld.const.u32 %r1, [c+4];
    ld.const.u32 %r2, [c+8];
    st.global.v2.u32 [%rd1], {%r1, %r2};
    ret;
}
)";
    std::vector<const char *> tiers = {"portable"};
#if !defined(_WIN32)
    tiers.push_back("native"); // Windows runs no compiler (docs/kernels.md)
    char cache[] = "/tmp/extmem-const-test-XXXXXX";
    ASSERT_NE(nullptr, mkdtemp(cache));
    setenv("EXTMEM_CACHE_DIR", cache, 1);
#endif
    for (const char *tier : tiers) {
        SCOPED_TRACE(tier);
#if !defined(_WIN32)
        setenv("EXTMEM_JIT", tier, 1);
#endif
        Loaded l = load(body, "st_generic");
        ASSERT_TRUE(l.fn);
        CUfunction st_global = nullptr, ld_const = nullptr;
        ASSERT_OK(cuModuleGetFunction(&st_global, l.module, "st_global"));
        ASSERT_OK(cuModuleGetFunction(&ld_const, l.module, "ld_const"));
        ASSERT_OK(launch(l.fn, 1, 1, {}));
        ASSERT_OK(launch(st_global, 1, 1, {}));
        ASSERT_OK(cuCtxSynchronize());
        CUdeviceptr c = 0, out = 0;
        size_t size = 0;
        ASSERT_OK(cuModuleGetGlobal(&c, &size, l.module, "c"));
        EXPECT_EQ((std::vector<uint32_t>{1, 99, 98, 4}), download(c, 4));
        ASSERT_OK(cuMemAlloc(&out, 8));
        ASSERT_OK(launch(ld_const, 1, 1, {&out}));
        ASSERT_OK(cuCtxSynchronize());
        EXPECT_EQ((std::vector<uint32_t>{99, 98}), download(out, 2));
        EXPECT_OK(cuMemFree(out));
        EXPECT_OK(cuModuleUnload(l.module));
    }
#if !defined(_WIN32)
    unsetenv("EXTMEM_JIT");
    unsetenv("EXTMEM_CACHE_DIR");
    EXPECT_EQ(0, std::system((std::string("rm -rf '") + cache + "'").c_str()));
#endif
}

// The PTX ISA's `st` has no .const state space: the engine refuses `st.const` when the module
// is loaded.
TEST_F(KernelExec, StConst_IsInvalidPtx)
{
    std::string text = std::string(kHeader) + ".const .u32 c;\n.visible .entry k()\n{\n    st.const.u32 [c], 1;\n    ret;\n}\n";
    CUmodule m = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS("read-only");
}

// A 4-byte load from an address that is not a multiple of 4.
TEST_F(KernelExec, AMisalignedLoad_IsMisalignedAddress)
{
    Loaded l = load(R"(
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];
    add.s64 %rd2, %rd1, 2;
    ld.global.u32 %r1, [%rd2];
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr p;
    ASSERT_OK(cuMemAlloc(&p, 64));
    ASSERT_OK(launch(l.fn, 1, 1, {&p}));
    EXPECT_CU(CUDA_ERROR_MISALIGNED_ADDRESS, cuCtxSynchronize());
}

// A VMM mapping without access faults in a kernel as a copy is refused.
TEST_F(KernelExec, AMappingWithoutAccess_IsIllegalAddressInAKernel)
{
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gran = 0;
    ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle h;
    ASSERT_OK(cuMemCreate(&h, gran, &prop, 0));
    CUdeviceptr va;
    ASSERT_OK(cuMemAddressReserve(&va, gran, 0, 0, 0));
    ASSERT_OK(cuMemMap(va, gran, 0, h, 0));
    ASSERT_OK(cuMemRelease(h)); /* the mapping keeps the memory until it is unmapped */
    Loaded l = load(R"(
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.u32 %r1, [%rd1];
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    ASSERT_OK(launch(l.fn, 1, 1, {&va}));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
    /* The mapping is the process's, not the faulted context's: it is still released. */
    EXPECT_OK(cuMemUnmap(va, gran));
    EXPECT_OK(cuMemAddressFree(va, gran));
}

// Malformed PTX names the line and what was expected; an instruction the engine lacks is named.
TEST_F(KernelExec, MalformedPtx_IsInvalidPtxWithTheLine)
{
    CUmodule m = nullptr;
    std::string text = std::string(kHeader) + ".visible .entry k()\n{\n    .reg .b32 %r<2>;\n    mov.u32 %r1 %r0;\n}\n";
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS(":7:");
    EXPECT_DETAIL_HAS("expected ','");
    text = std::string(kHeader) + ".visible .entry k()\n{\n    .reg .b32 %r<2>;\n    frobnicate.b32 %r1, %r0;\n}\n";
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS("frobnicate.b32");
    text = std::string(kHeader) + ".visible .entry k()\n{\n    bra NOWHERE;\n}\n";
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS("NOWHERE");
    // A branch to a label that exists beside one that does not (the fuzzer's double free).
    text = std::string(kHeader) + ".visible .entry k()\n{\n    bra L1;\n    bra NOWHERE;\nL1:\n    bra L1;\n}\n";
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS("NOWHERE");
}

// Blocks nested deeper than the front end allows (64 inside a body) are INVALID_PTX naming
// the line of the first '{' too deep. 30,000 of them (60 KB of PTX) used to recurse until
// the stack overflowed inside cuModuleLoadData.
TEST_F(KernelExec, BlocksNestedTooDeep_AreInvalidPtxWithTheLine)
{
    std::string text = std::string(kHeader) + ".visible .entry k()\n{\n"; // the body opens on line 5
    for (int i = 0; i < 30000; ++i)
        text += "{\n";
    for (int i = 0; i < 30000; ++i)
        text += "}\n";
    text += "}\n";
    CUmodule m = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS(":70:"); // the 65th nested '{'
    EXPECT_DETAIL_HAS("64");
}

// An initialiser nested deeper than its variable's dimensions is INVALID_PTX with the line;
// 100,000 levels used to overflow the stack. A two-dimensional one still loads.
TEST_F(KernelExec, InitialiserNestedTooDeep_IsInvalidPtxWithTheLine)
{
    std::string text = std::string(kHeader) + "\n.global .b8 g[1] = " + std::string(100000, '{') + "1" +
                       std::string(100000, '}') + ";\n";
    CUmodule m = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS(":5:");
    EXPECT_DETAIL_HAS("'g'");
    // An open array counted from its initialiser, nested as deep.
    text = std::string(kHeader) + "\n.global .b8 g[] = " + std::string(100000, '{') + "1" + std::string(100000, '}') +
           ";\n";
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS(":5:");

    text = std::string(kHeader) + ".global .b32 t[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
                                  ".global .v2 .b32 v[2] = {{7, 8}, {9, 10}};\n";
    ASSERT_OK(cuModuleLoadData(&m, text.c_str()));
    CUdeviceptr p;
    size_t size = 0;
    ASSERT_OK(cuModuleGetGlobal(&p, &size, m, "t"));
    EXPECT_EQ(24u, size);
    EXPECT_EQ((std::vector<uint32_t>{1, 2, 3, 4, 5, 6}), download(p, 6));
    ASSERT_OK(cuModuleGetGlobal(&p, &size, m, "v"));
    EXPECT_EQ((std::vector<uint32_t>{7, 8, 9, 10}), download(p, 4));
    EXPECT_OK(cuModuleUnload(m));
}

// Blocks nested 10 deep, each with its own registers hiding the outer ones: the body loads
// and runs, and each name means the innermost declaration.
TEST_F(KernelExec, BlocksNestedTenDeep_LoadAndRun)
{
    std::string body = ".visible .entry k(.param .u64 out)\n{\n    .reg .b64 %rd<2>;\n    .reg .b32 %v;\n"
                       "    ld.param.u64 %rd1, [out];\n    mov.u32 %v, 0;\n";
    for (int i = 1; i <= 10; ++i)
        body += "{\n    .reg .b32 %w;\n    add.u32 %w, %v, " + std::to_string(i) + ";\n    mov.u32 %v, %w;\n";
    body += "    st.global.u32 [%rd1], %v;\n";
    for (int i = 0; i < 10; ++i)
        body += "}\n";
    body += "    ret;\n}\n";
    Loaded l = load(body, "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 4));
    ASSERT_OK(launch(l.fn, 1, 1, {&out}));
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ(55u, download(out, 1)[0]);
    EXPECT_OK(cuMemFree(out));
    EXPECT_OK(cuModuleUnload(l.module));
}

// Array sizes whose element count or byte size passes what 64 bits hold are INVALID_PTX with
// the line, in every state space; 2^32 x 2^32 bytes used to wrap to 0 and load.
TEST_F(KernelExec, ArraySizesPast64Bits_AreInvalidPtxWithTheLine)
{
    const char *cases[] = {
        ".global .b8 g[4294967296][4294967296];\n",
        ".global .b8 g[4294967296][4294967295];\n",
        ".global .b64 g[4294967296][536870912];\n", // 2^61 elements of 8 bytes
        ".const .v4 .b32 g[4294967296][268435456];\n",
        ".shared .b8 s[4294967296][4294967296];\n",
        ".global .b8 g[2][2][2][2][2][2][2][2][4294967296][4294967296];\n",
        ".visible .entry k(.param .b8 p[4294967296][4294967296])\n{\n    ret;\n}\n",
    };
    for (const char *c : cases) {
        std::string text = std::string(kHeader) + c;
        CUmodule m = nullptr;
        EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str())) << c;
        EXPECT_DETAIL_HAS(":4:") << c;
    }
    std::string text = std::string(kHeader) + ".visible .entry k()\n{\n    .local .b8 l[4294967296][4294967296];\n"
                                              "    ret;\n}\n";
    CUmodule m = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS(":6:");
}

// A large .global without an initialiser costs no host memory when the module loads (its
// device memory starts zeroed; only initial contents are copied), and reads as zeros.
#ifndef _WIN32 // measured with getrusage; left out on Windows by tests/CMakeLists.txt
TEST_F(KernelExec, ALargeUninitialisedGlobal_TakesNoMemoryUntilUsed)
{
    std::string text = std::string(kHeader) + ".global .b32 small[2] = {7, 8};\n.global .b8 big[536870912];\n"
                                              ".global .b32 after = 9;\n";
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    CUmodule m = nullptr;
    ASSERT_OK(cuModuleLoadData(&m, text.c_str()));
    getrusage(RUSAGE_SELF, &after);
    EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 64 * 1024) << "KiB more resident after loading";
    CUdeviceptr p;
    size_t size = 0;
    ASSERT_OK(cuModuleGetGlobal(&p, &size, m, "big"));
    EXPECT_EQ(536870912u, size);
    EXPECT_EQ((std::vector<uint32_t>{0, 0}), download(p + size - 8, 2));
    ASSERT_OK(cuModuleGetGlobal(&p, &size, m, "small"));
    EXPECT_EQ((std::vector<uint32_t>{7, 8}), download(p, 2));
    ASSERT_OK(cuModuleGetGlobal(&p, &size, m, "after"));
    EXPECT_EQ(9u, download(p, 1)[0]);
    EXPECT_OK(cuModuleUnload(m));
}
#endif

// Many blocks of one launch run on the pool's threads at once, each block whole.
TEST_F(KernelExec, ManyBlocks_EachRunsOnceWithItsOwnIndex)
{
    Loaded l = load(R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ctaid.y;
    mov.u32 %r3, %nctaid.x;
    mad.lo.s32 %r4, %r2, %r3, %r1;
    mov.u32 %r5, %ntid.x;
    mov.u32 %r6, %tid.x;
    mad.lo.s32 %r7, %r4, %r5, %r6;
    mul.wide.u32 %rd2, %r7, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r5, [%rd3];
    add.s32 %r5, %r5, %r7;
    add.s32 %r5, %r5, 1;
    st.global.u32 [%rd3], %r5;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    const unsigned gx = 37, gy = 11, bx = 45;
    const size_t n = (size_t)gx * gy * bx;
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, n * 4));
    ASSERT_OK(cuMemsetD32(out, 0, n));
    std::vector<void *> params = {&out};
    ASSERT_OK(cuLaunchKernel(l.fn, gx, gy, 1, bx, 1, 1, 0, nullptr, params.data(), nullptr));
    ASSERT_OK(cuCtxSynchronize());
    auto v = download(out, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(i + 1, v[i]) << "thread " << i;
    EXPECT_OK(cuModuleUnload(l.module));
}

// The stack limit: read back as set (rounded up to 16 bytes), checked, and used by launches:
// a kernel whose call chain needs more than the stack faults, and runs once the limit is raised.
TEST_F(KernelExec, StackLimit_IsTheContextsAndBoundsEachThreadsCallFrames)
{
    size_t v = 0;
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    EXPECT_EQ(1024u, v);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, (size_t)1 << 30));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(nullptr, CU_LIMIT_STACK_SIZE));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(&v, (CUlimit)99));
    EXPECT_CU(CUDA_ERROR_UNSUPPORTED_LIMIT, cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 4));
    // depth(n): a 512-byte .local frame per call, n calls deep
    Loaded l = load(R"(
.func (.param .b32 r) depth(.param .b32 n)
{
    .local .align 4 .b8 frame[512];
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<2>;
    ld.param.b32 %r1, [n];
    mov.u64 %rd1, frame;
    st.local.u32 [%rd1+508], %r1;
    setp.eq.s32 %p1, %r1, 0;
    @%p1 bra DONE;
    add.s32 %r2, %r1, -1;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    .param .b32 r0;
    call.uni (r0), depth, (a0);
    ld.param.b32 %r3, [r0];
    }
    ld.local.u32 %r4, [%rd1+508];
    add.s32 %r1, %r3, %r4;
DONE:
    st.param.b32 [r], %r1;
    ret;
}
.visible .entry k(.param .u64 out, .param .u32 n)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [n];
    {
    .param .b32 a0;
    st.param.b32 [a0], %r1;
    .param .b32 r0;
    call.uni (r0), depth, (a0);
    ld.param.b32 %r2, [r0];
    }
    st.global.u32 [%rd1], %r2;
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 4));
    uint32_t n = 8; // 9 frames of 512 bytes: more than 1024
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 9 * 512 + 100));
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
    EXPECT_EQ((size_t)((9 * 512 + 100 + 15) & ~15), v);
    ASSERT_OK(launch(l.fn, 1, 32, {&out, &n}));
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ(8u * 9u / 2u, download(out, 1)[0]);
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1024));
    ASSERT_OK(launch(l.fn, 1, 32, {&out, &n}));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("stack is full");
}

// printf's '*' widths, %c, %s with a flag and a 64-bit %llx, with the argument buffer laid out
// as the compilers lay it out (each argument at its natural alignment). A '*' precision is
// printed as written, as the H100 does, and its arguments skipped (kernel_printf_test).
TEST_F(KernelExec, Printf_StarWidthsCharsStringsAndLongLong)
{
    Loaded l = load(R"(
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 fmt[23] = {37, 42, 100, 124, 37, 45, 52, 115, 124, 37, 99, 124, 37, 46, 42, 102, 124, 37, 108, 108, 120, 10, 0};
.global .align 1 .b8 str[3] = {104, 105, 0};
.visible .entry k()
{
    .local .align 8 .b8 depot[40];
    .reg .b32 %r<2>;
    .reg .b64 %rd<8>;
    .reg .f64 %fd<2>;
    mov.u64 %rd1, depot;
    cvta.local.u64 %rd2, %rd1;
    st.local.u32 [%rd1], 4;
    st.local.u32 [%rd1+4], 42;
    mov.u64 %rd3, str;
    cvta.global.u64 %rd4, %rd3;
    st.local.u64 [%rd1+8], %rd4;
    st.local.u32 [%rd1+16], 90;
    st.local.u32 [%rd1+20], 3;
    mov.f64 %fd1, 0d400921FB54442D18;
    st.local.f64 [%rd1+24], %fd1;
    mov.u64 %rd5, 0x123456789ab;
    st.local.u64 [%rd1+32], %rd5;
    mov.u64 %rd6, fmt;
    cvta.global.u64 %rd7, %rd6;
    {
    .param .b64 p0;
    st.param.b64 [p0], %rd7;
    .param .b64 p1;
    st.param.b64 [p1], %rd2;
    .param .b32 r0;
    call.uni (r0), vprintf, (p0, p1);
    }
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    testing::internal::CaptureStdout();
    ASSERT_OK(launch(l.fn, 1, 1, {}));
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ("  42|hi  |Z|%.*f|123456789ab\n", testing::internal::GetCapturedStdout());
    EXPECT_OK(cuModuleUnload(l.module));
}

// A failing assert: the GPU's line on stdout by the synchronisation, then CUDA_ERROR_ASSERT,
// sticky for the context.
TEST_F(KernelExec, AFailedAssert_PrintsTheGpusLineAndIsAssertError)
{
    Loaded l = load(R"(
.extern .func __assertfail(.param .b64 p0, .param .b64 p1, .param .b32 p2, .param .b64 p3, .param .b64 p4);
.global .align 1 .b8 msg[7] = {118, 32, 33, 61, 32, 51, 0};
.global .align 1 .b8 file[5] = {107, 46, 99, 117, 0};
.global .align 1 .b8 func[12] = {118, 111, 105, 100, 32, 107, 40, 105, 110, 116, 41, 0};
.visible .entry k(.param .u32 v)
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    .reg .b64 %rd<7>;
    ld.param.u32 %r1, [v];
    mov.u32 %r2, %tid.x;
    setp.ne.s32 %p1, %r2, 2;
    @%p1 bra OK;
    mov.u64 %rd1, msg;
    cvta.global.u64 %rd2, %rd1;
    mov.u64 %rd3, file;
    cvta.global.u64 %rd4, %rd3;
    mov.u64 %rd5, func;
    cvta.global.u64 %rd6, %rd5;
    {
    .param .b64 a0;
    st.param.b64 [a0], %rd2;
    .param .b64 a1;
    st.param.b64 [a1], %rd4;
    .param .b32 a2;
    st.param.b32 [a2], 12;
    .param .b64 a3;
    st.param.b64 [a3], %rd6;
    .param .b64 a4;
    st.param.b64 [a4], 1;
    call.uni __assertfail, (a0, a1, a2, a3, a4);
    }
OK:
    ret;
}
)",
                    "k");
    ASSERT_TRUE(l.fn);
    uint32_t v = 3;
    testing::internal::CaptureStdout();
    ASSERT_OK(launch(l.fn, 1, 4, {&v}));
    EXPECT_CU(CUDA_ERROR_ASSERT, cuCtxSynchronize());
    std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ("k.cu:12: void k(int): block: [0,0,0], thread: [2,0,0] Assertion `v != 3` failed.\n", out);
    EXPECT_DETAIL_HAS("assertion `v != 3` failed");
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_ASSERT, cuMemAlloc(&p, 4));
}
