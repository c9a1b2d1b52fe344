// Cooperative launches and dynamic parallelism (issue 25, docs/kernels.md "Cooperative launches"
// and "Dynamic parallelism"): grid-wide synchronisation as cooperative_groups emits it (an
// atomic barrier on the workspace %envreg1:%envreg2 points at), the occupancy limit, the launch
// calls' checks as an H200 answers them (docs/probes/kernels/grid), and kernels launching kernels
// through the device runtime's functions. Cooperative grids run their blocks as resumable
// contexts on the worker pool, so these cases also run with one worker (ctest's one_worker.*).
#include "framework/testing.h"

#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace extmem_test;

using CooperativeLaunch = ContextTest;
using DynamicParallelism = ContextTest;

namespace {

const char *kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// gsync(out, res, bad): every thread writes out[gid] = gid + 1, the grid synchronises as
// cooperative_groups' grid.sync() does (nvcc 13's code: thread 0 of each block adds 1, block 0
// adds 0x80000001 - blocks, and spins until the barrier word's top bit flips), twice, then every
// thread reads the value one block further on into res[gid]. A nonzero `bad` makes block 1's
// thread 0 store to address 8 before the barrier (a fault while the others wait).
const char *kGridSync = R"(
.visible .entry gsync(.param .u64 out, .param .u64 res, .param .u32 bad)
{
    .reg .pred %p<8>;
    .reg .b32 %r<32>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [res];
    ld.param.u32 %r20, [bad];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %nctaid.x;
    mad.lo.s32 %r5, %r1, %r2, %r3;
    mul.lo.s32 %r6, %r4, %r2;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    add.s32 %r7, %r5, 1;
    st.global.u32 [%rd4], %r7;
    setp.ne.s32 %p5, %r20, 0;
    setp.eq.s32 %p6, %r1, 1;
    and.pred %p5, %p5, %p6;
    setp.eq.s32 %p6, %r3, 0;
    and.pred %p5, %p5, %p6;
    mov.u64 %rd12, 8;
    @%p5 st.global.u32 [%rd12], %r7;
    mov.u32 %r8, %envreg2;
    cvt.u64.u32 %rd5, %r8;
    mov.u32 %r9, %envreg1;
    cvt.u64.u32 %rd6, %r9;
    bfi.b64 %rd7, %rd6, %rd5, 32, 32;
    add.s64 %rd8, %rd7, 4;
    mov.u32 %r21, 0;
ROUND:
    barrier.sync 0;
    setp.ne.s32 %p1, %r3, 0;
    @%p1 bra WAITED;
    setp.eq.s32 %p2, %r1, 0;
    mov.u32 %r10, -2147483647;
    sub.s32 %r11, %r10, %r4;
    selp.b32 %r12, %r11, 1, %p2;
    atom.add.release.gpu.u32 %r13, [%rd8], %r12;
SPIN:
    ld.acquire.gpu.u32 %r14, [%rd8];
    xor.b32 %r15, %r14, %r13;
    setp.gt.s32 %p3, %r15, -1;
    @%p3 bra SPIN;
WAITED:
    barrier.sync 0;
    add.s32 %r21, %r21, 1;
    setp.lt.u32 %p4, %r21, 2;
    @%p4 bra ROUND;
    add.s32 %r16, %r5, %r2;
    rem.u32 %r17, %r16, %r6;
    mul.wide.u32 %rd9, %r17, 4;
    add.s64 %rd10, %rd1, %rd9;
    ld.global.u32 %r18, [%rd10];
    add.s64 %rd11, %rd2, %rd3;
    st.global.u32 [%rd11], %r18;
    ret;
}

// The grid barrier in a function of its own (nvcc's code when it does not inline it): a block
// gives its thread back in the middle of a call, and resumes there.
.func gridsync(.param .b64 ws)
{
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<4>;
    ld.param.b64 %rd1, [ws];
    add.s64 %rd2, %rd1, 4;
    barrier.sync 0;
    mov.u32 %r1, %tid.x;
    setp.ne.s32 %p1, %r1, 0;
    @%p1 bra WAITED;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %nctaid.x;
    setp.eq.s32 %p2, %r2, 0;
    mov.u32 %r4, -2147483647;
    sub.s32 %r5, %r4, %r3;
    selp.b32 %r6, %r5, 1, %p2;
    atom.add.release.gpu.u32 %r7, [%rd2], %r6;
SPIN:
    ld.acquire.gpu.u32 %r8, [%rd2];
    xor.b32 %r9, %r8, %r7;
    setp.gt.s32 %p3, %r9, -1;
    @%p3 bra SPIN;
WAITED:
    barrier.sync 0;
    ret;
}

// gcall(out, res): as gsync's rounds, through gridsync, 3 times.
.visible .entry gcall(.param .u64 out, .param .u64 res)
{
    .reg .pred %p<2>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [res];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %nctaid.x;
    mad.lo.s32 %r5, %r1, %r2, %r3;
    mul.lo.s32 %r6, %r4, %r2;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    add.s64 %rd11, %rd2, %rd3;
    mov.u32 %r8, %envreg2;
    cvt.u64.u32 %rd5, %r8;
    mov.u32 %r9, %envreg1;
    cvt.u64.u32 %rd6, %r9;
    bfi.b64 %rd7, %rd6, %rd5, 32, 32;
    mov.u32 %r10, 0;
ROUND:
    add.s32 %r7, %r5, %r10;
    add.s32 %r7, %r7, 1;
    st.global.u32 [%rd4], %r7;
    {
    .param .b64 param0;
    st.param.b64 [param0+0], %rd7;
    call.uni gridsync, (param0);
    }
    add.s32 %r11, %r5, %r2;
    rem.u32 %r12, %r11, %r6;
    mul.wide.u32 %rd9, %r12, 4;
    add.s64 %rd10, %rd1, %rd9;
    ld.global.u32 %r13, [%rd10];
    sub.s32 %r13, %r13, %r10;
    st.global.u32 [%rd11], %r13;
    {
    .param .b64 param0;
    st.param.b64 [param0+0], %rd7;
    call.uni gridsync, (param0);
    }
    add.s32 %r10, %r10, 1;
    setp.lt.u32 %p1, %r10, 3;
    @%p1 bra ROUND;
    ret;
}

// The environment registers and the workspace's first word (thread 0 of block 0 writes them).
.visible .entry env(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %envreg1;
    mov.u32 %r2, %envreg2;
    mov.u32 %r3, %envreg6;
    mov.u32 %r4, %envreg10;
    mov.u32 %r5, %envreg31;
    cvt.u64.u32 %rd2, %r2;
    cvt.u64.u32 %rd3, %r1;
    bfi.b64 %rd4, %rd3, %rd2, 32, 32;
    ld.u32 %r6, [%rd4];
    setp.ne.s64 %p1, %rd4, 0;
    selp.u32 %r7, 1, 0, %p1;
    mov.u32 %r8, %tid.x;
    mov.u32 %r9, %ctaid.x;
    or.b32 %r8, %r8, %r9;
    setp.ne.u32 %p2, %r8, 0;
    @%p2 bra DONE;
    st.global.v4.u32 [%rd1], {%r7, %r6, %r3, %r4};
    st.global.u32 [%rd1+16], %r5;
DONE:
    ret;
}
)";

struct Module {
    CUmodule module = nullptr;
    CUfunction gsync = nullptr, env = nullptr, gcall = nullptr;
    Module()
    {
        std::string text = std::string(kHeader) + kGridSync;
        EXPECT_OK(cuModuleLoadData(&module, text.c_str()));
        if (module) {
            EXPECT_OK(cuModuleGetFunction(&gsync, module, "gsync"));
            EXPECT_OK(cuModuleGetFunction(&env, module, "env"));
            EXPECT_OK(cuModuleGetFunction(&gcall, module, "gcall"));
        }
    }
};

// The largest cooperative grid of `f` with `threads` per block and `shared` bytes.
unsigned largest(CUfunction f, int threads, size_t shared)
{
    int per = 0, sms = 0;
    EXPECT_OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per, f, threads, shared));
    EXPECT_OK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    return (unsigned)(per * sms);
}

struct Buffers {
    CUdeviceptr out = 0, res = 0;
    size_t n;
    explicit Buffers(size_t count) : n(count)
    {
        EXPECT_OK(cuMemAlloc(&out, n * 4));
        EXPECT_OK(cuMemAlloc(&res, n * 4));
        EXPECT_OK(cuMemsetD32(out, 0, n));
        EXPECT_OK(cuMemsetD32(res, 0, n));
    }
    ~Buffers()
    {
        cuMemFree(out);
        cuMemFree(res);
    }
    // res[gid] must be out[(gid + block) % n] = that index + 1.
    void expect_synchronised(unsigned block)
    {
        std::vector<uint32_t> h(n);
        ASSERT_OK(cuMemcpyDtoH(h.data(), res, n * 4));
        size_t wrong = 0;
        for (size_t i = 0; i < n; ++i)
            wrong += h[i] != (uint32_t)((i + block) % n + 1);
        EXPECT_EQ(0u, wrong) << "threads that read before the grid barrier";
    }
};

} // namespace

TEST_F(CooperativeLaunch, DeviceAttributes_SayCooperativeLaunchesWork)
{
    int v = 0;
    ASSERT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 0));
    EXPECT_EQ(1, v);
    ASSERT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH, 0));
    EXPECT_EQ(1, v);
}

// The largest grid the occupancy allows: more blocks than the pool has threads, so blocks must
// give their threads to the others while they wait at the barrier.
TEST_F(CooperativeLaunch, GridSync_AtTheLargestGrid_EveryThreadSeesEveryOthersWrites)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    for (unsigned threads : {32u, 256u, 1024u}) {
        unsigned grid = largest(m.gsync, (int)threads, 0);
        ASSERT_GE(grid, threads == 1024 ? 1u : 2u);
        Buffers b((size_t)grid * threads);
        unsigned bad = 0;
        void *args[] = {&b.out, &b.res, &bad};
        ASSERT_OK(cuLaunchCooperativeKernel(m.gsync, grid, 1, 1, threads, 1, 1, 0, nullptr, args));
        ASSERT_OK(cuCtxSynchronize());
        b.expect_synchronised(threads);
    }
}

// The barrier inside a called function, six grid syncs: blocks give their threads back inside
// the call and resume there; each round's reads see the round's writes.
TEST_F(CooperativeLaunch, GridSyncInsideACalledFunction_ResumesInTheCall)
{
    Module m;
    ASSERT_TRUE(m.gcall);
    unsigned grid = largest(m.gcall, 96, 0);
    Buffers b((size_t)grid * 96);
    void *args[] = {&b.out, &b.res};
    ASSERT_OK(cuLaunchCooperativeKernel(m.gcall, grid, 1, 1, 96, 1, 1, 0, nullptr, args));
    ASSERT_OK(cuCtxSynchronize());
    b.expect_synchronised(96);
}

// A plain launch of a kernel that uses the grid group, with a grid the device holds at once: on a
// GPU every block is resident, so its grid.sync() works; here too (its blocks take turns).
TEST_F(CooperativeLaunch, PlainLaunchOfAGridThatFits_SynchronisesAsOnAGpu)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    unsigned grid = largest(m.gsync, 32, 0);
    Buffers b((size_t)grid * 32);
    unsigned bad = 0;
    void *args[] = {&b.out, &b.res, &bad};
    ASSERT_OK(cuLaunchKernel(m.gsync, grid, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    b.expect_synchronised(32);
}

TEST_F(CooperativeLaunch, GridLargerThanResident_IsCooperativeLaunchTooLarge)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    unsigned grid = largest(m.gsync, 256, 0);
    Buffers b(16);
    unsigned bad = 0;
    void *args[] = {&b.out, &b.res, &bad};
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
              cuLaunchCooperativeKernel(m.gsync, grid + 1, 1, 1, 256, 1, 1, 0, nullptr, args));
    EXPECT_DETAIL_HAS("resident at once");
    // Blocks count in all three dimensions (the H200: grid/2 x 2 x 2 is too large).
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
              cuLaunchCooperativeKernel(m.gsync, grid, 2, 1, 256, 1, 1, 0, nullptr, args));
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
              cuLaunchCooperativeKernel(m.gsync, 1, 1, grid + 1, 256, 1, 1, 0, nullptr, args));
    // Dynamic shared memory past the kernel's limit leaves room for no block (the H200's answer
    // to 100000 bytes without the opt-in).
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
              cuLaunchCooperativeKernel(m.gsync, 1, 1, 1, 32, 1, 1, 100000, nullptr, args));
    // Nothing ran: a plain launch of the same grid is not limited (it would not synchronise).
    ASSERT_OK(cuCtxSynchronize());
}

TEST_F(CooperativeLaunch, DynamicSharedMemory_LowersTheLimitAsTheOccupancySays)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    ASSERT_OK(cuFuncSetAttribute(m.gsync, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000));
    unsigned grid = largest(m.gsync, 64, 100000);
    ASSERT_GE(grid, 1u);
    EXPECT_LT(grid, largest(m.gsync, 64, 0));
    Buffers b((size_t)grid * 64);
    unsigned bad = 0;
    void *args[] = {&b.out, &b.res, &bad};
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
              cuLaunchCooperativeKernel(m.gsync, grid + 1, 1, 1, 64, 1, 1, 100000, nullptr, args));
    ASSERT_OK(cuLaunchCooperativeKernel(m.gsync, grid, 1, 1, 64, 1, 1, 100000, nullptr, args));
    ASSERT_OK(cuCtxSynchronize());
    b.expect_synchronised(64);
}

// What the H200 answers (docs/probes/kernels/grid/coop_probe.out).
TEST_F(CooperativeLaunch, BadArguments_AreTheDriversErrors)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    Buffers b(64);
    unsigned bad = 0;
    void *args[] = {&b.out, &b.res, &bad};
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchCooperativeKernel(nullptr, 1, 1, 1, 32, 1, 1, 0, nullptr, args));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
              cuLaunchCooperativeKernel((CUfunction)(uintptr_t)0x1234, 1, 1, 1, 32, 1, 1, 0, nullptr, args));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernel(m.gsync, 0, 1, 1, 32, 1, 1, 0, nullptr, args));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernel(m.gsync, 1, 1, 1, 2048, 1, 1, 0, nullptr, args));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernel(m.gsync, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
              cuLaunchCooperativeKernel(m.gsync, 1, 1, 1, 32, 1, 1, 0, (CUstream)(uintptr_t)0x5678, args));
    ASSERT_OK(cuCtxSynchronize());
}

// A fault in one block while the others wait at the grid barrier ends the launch (it does not
// hang): the fault is the launch's and sticky, as on the GPU.
TEST_F(CooperativeLaunch, FaultWhileOthersWaitAtTheBarrier_EndsTheLaunch)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    unsigned grid = largest(m.gsync, 128, 0);
    Buffers b((size_t)grid * 128);
    unsigned bad = 1;
    void *args[] = {&b.out, &b.res, &bad};
    ASSERT_OK(cuLaunchCooperativeKernel(m.gsync, grid, 1, 1, 128, 1, 1, 0, nullptr, args));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("block (1,0,0)");
}

// %envreg1:%envreg2 point at a workspace whose first word is its size (16), in a cooperative
// launch and, as on the H200 (this_grid().is_valid() is 1 there), in a plain one; %envreg6 and
// %envreg10 read what the H200's read.
TEST_F(CooperativeLaunch, EnvironmentRegisters_GiveTheGridWorkspace)
{
    Module m;
    ASSERT_TRUE(m.env);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 32));
    void *args[] = {&out};
    for (int coop = 0; coop < 2; ++coop) {
        ASSERT_OK(cuMemsetD32(out, 0xdeadbeef, 8));
        if (coop)
            ASSERT_OK(cuLaunchCooperativeKernel(m.env, 2, 1, 1, 32, 1, 1, 0, nullptr, args));
        else
            ASSERT_OK(cuLaunchKernel(m.env, 2, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
        ASSERT_OK(cuCtxSynchronize());
        uint32_t h[5];
        ASSERT_OK(cuMemcpyDtoH(h, out, sizeof(h)));
        EXPECT_EQ(1u, h[0]) << "workspace address nonzero, cooperative " << coop;
        EXPECT_EQ(16u, h[1]);
        EXPECT_EQ(1u, h[2]);
        EXPECT_EQ(0x120u, h[3]);
        EXPECT_EQ(0u, h[4]);
    }
    ASSERT_OK(cuMemFree(out));
}

TEST_F(CooperativeLaunch, LaunchKernelExAttribute_IsACooperativeLaunch)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    unsigned grid = largest(m.gsync, 64, 0);
    Buffers b((size_t)grid * 64);
    unsigned bad = 0;
    void *args[] = {&b.out, &b.res, &bad};
    CUlaunchAttribute a[2] = {};
    a[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    a[0].value.cooperative = 1;
    CUlaunchConfig c = {grid, 1, 1, 64, 1, 1, 0, nullptr, a, 1};
    ASSERT_OK(cuLaunchKernelEx(&c, m.gsync, args, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    b.expect_synchronised(64);
    c.gridDimX = grid + 1;
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, cuLaunchKernelEx(&c, m.gsync, args, nullptr));
    // Any nonzero value asks for it (the H200 takes 2 and -1 alike).
    a[0].value.cooperative = -1;
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, cuLaunchKernelEx(&c, m.gsync, args, nullptr));
    // With clusters: 1x1x1 is taken; larger clusters are a GPU's (the H200 runs them), not the
    // software device's.
    a[0].value.cooperative = 1;
    a[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a[1].value.clusterDim.x = a[1].value.clusterDim.y = a[1].value.clusterDim.z = 1;
    c.numAttrs = 2;
    c.gridDimX = grid;
    ASSERT_OK(cuLaunchKernelEx(&c, m.gsync, args, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    a[1].value.clusterDim.x = 2;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuLaunchKernelEx(&c, m.gsync, args, nullptr));
    // 0 is a plain launch, not limited by the occupancy (env does not synchronise).
    a[0].value.cooperative = 0;
    c.numAttrs = 1;
    c.gridDimX = grid * 4;
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 32));
    void *eargs[] = {&out};
    ASSERT_OK(cuLaunchKernelEx(&c, m.env, eargs, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    ASSERT_OK(cuMemFree(out));
}

TEST_F(CooperativeLaunch, MultiDevice_IsOneLaunchOnTheOneDevice)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    unsigned grid = largest(m.gsync, 64, 0);
    Buffers b((size_t)grid * 64);
    unsigned bad = 0;
    void *args[] = {&b.out, &b.res, &bad};
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUDA_LAUNCH_PARAMS p = {};
    p.function = m.gsync;
    p.gridDimX = grid;
    p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = 64;
    p.blockDimY = p.blockDimZ = 1;
    p.hStream = nullptr;
    p.kernelParams = args;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchCooperativeKernelMultiDevice(&p, 1, 0)); // the H200 too
    p.hStream = s;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(nullptr, 1, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(&p, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(&p, 2, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(&p, 1, 4));
    ASSERT_OK(cuLaunchCooperativeKernelMultiDevice(&p, 1, CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
                                                              CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC));
    ASSERT_OK(cuStreamSynchronize(s));
    b.expect_synchronised(64);
    p.gridDimX = grid + 1;
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, cuLaunchCooperativeKernelMultiDevice(&p, 1, 0));
    ASSERT_OK(cuStreamDestroy(s));
}

// A kernel node with the attribute runs cooperatively; a captured cooperative launch's node
// carries the attribute (as the driver's capture does).
TEST_F(CooperativeLaunch, GraphKernelNodes_KeepAndRunTheAttribute)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    unsigned grid = largest(m.gsync, 64, 0);
    Buffers b((size_t)grid * 64);
    unsigned bad = 0;
    void *args[] = {&b.out, &b.res, &bad};
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(cuLaunchCooperativeKernel(m.gsync, grid, 1, 1, 64, 1, 1, 0, s, args));
    CUgraph g;
    ASSERT_OK(cuStreamEndCapture(s, &g));
    CUgraphNode node;
    size_t n = 1;
    ASSERT_OK(cuGraphGetNodes(g, &node, &n));
    ASSERT_EQ(1u, n);
    CUkernelNodeAttrValue v = {};
    ASSERT_OK(cuGraphKernelNodeGetAttribute(node, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v));
    EXPECT_EQ(1, v.cooperative);
    CUgraphExec e;
    ASSERT_OK(cuGraphInstantiate(&e, g, 0));
    ASSERT_OK(cuGraphLaunch(e, s));
    ASSERT_OK(cuStreamSynchronize(s));
    b.expect_synchronised(64);
    ASSERT_OK(cuGraphExecDestroy(e));
    ASSERT_OK(cuGraphDestroy(g));

    // An explicit node: cooperative 0 by default, then set.
    ASSERT_OK(cuGraphCreate(&g, 0));
    CUDA_KERNEL_NODE_PARAMS kp = {};
    kp.func = m.gsync;
    kp.gridDimX = grid;
    kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = 64;
    kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = args;
    ASSERT_OK(cuGraphAddKernelNode(&node, g, nullptr, 0, &kp));
    ASSERT_OK(cuGraphKernelNodeGetAttribute(node, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v));
    EXPECT_EQ(0, v.cooperative);
    v.cooperative = 1;
    ASSERT_OK(cuGraphKernelNodeSetAttribute(node, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v));
    ASSERT_OK(cuMemsetD32(b.res, 0, b.n));
    ASSERT_OK(cuGraphInstantiate(&e, g, 0));
    ASSERT_OK(cuGraphLaunch(e, s));
    ASSERT_OK(cuStreamSynchronize(s));
    b.expect_synchronised(64);
    ASSERT_OK(cuGraphExecDestroy(e));
    ASSERT_OK(cuGraphDestroy(g));
    ASSERT_OK(cuStreamDestroy(s));
}

// Cooperative grids on several streams at once, each as large as the device allows: each
// waits only for its own blocks (their workspaces are their own), and none deadlocks although
// together they hold more blocks than the pool has threads.
TEST_F(CooperativeLaunch, ConcurrentGridsOnManyStreams_EachSynchronisesItsOwnBlocks)
{
    Module m;
    ASSERT_TRUE(m.gsync);
    unsigned grid = largest(m.gsync, 64, 0);
    const int kStreams = 4, kRounds = 3;
    std::vector<std::thread> threads;
    std::vector<int> failures(kStreams, 0);
    CUcontext ctx_ = ctx;
    for (int t = 0; t < kStreams; ++t) {
        threads.emplace_back([&, t] {
            if (cuCtxSetCurrent(ctx_) != CUDA_SUCCESS) {
                failures[t]++;
                return;
            }
            CUstream s;
            if (cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
                failures[t]++;
                return;
            }
            size_t n = (size_t)grid * 64;
            CUdeviceptr out = 0, res = 0;
            cuMemAlloc(&out, n * 4);
            cuMemAlloc(&res, n * 4);
            for (int r = 0; r < kRounds; ++r) {
                unsigned bad = 0;
                void *args[] = {&out, &res, &bad};
                cuMemsetD32Async(res, 0, n, s);
                if (cuLaunchCooperativeKernel(m.gsync, grid, 1, 1, 64, 1, 1, 0, s, args) != CUDA_SUCCESS ||
                    cuStreamSynchronize(s) != CUDA_SUCCESS) {
                    failures[t]++;
                    continue;
                }
                std::vector<uint32_t> h(n);
                cuMemcpyDtoH(h.data(), res, n * 4);
                for (size_t i = 0; i < n; ++i)
                    if (h[i] != (uint32_t)((i + 64) % n + 1)) {
                        failures[t]++;
                        break;
                    }
            }
            cuMemFree(out);
            cuMemFree(res);
            cuStreamDestroy(s);
        });
    }
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < kStreams; ++t)
        EXPECT_EQ(0, failures[t]) << "stream " << t;
}

// ---- Dynamic parallelism ----
namespace {

// parent(p, out): launches child(p) with <<<1, 1>>> as nvcc compiles it (GetParameterBufferV2,
// the argument stored, LaunchDeviceV2 into `stream`), writes the launch's result and
// cudaGetLastError's into out[0..1]; child(p) stores 8 at p (a fault when p is 8). forged(out)
// launches a buffer the runtime never gave.
const char *kDevRuntime = R"(
.extern .func (.param .b64 func_retval0) __cudaCDP2GetParameterBufferV2
(.param .b64 f, .param .align 4 .b8 g[12], .param .align 4 .b8 b[12], .param .b32 s);
.extern .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2(.param .b64 buf, .param .b64 stream);
.extern .func (.param .b32 func_retval0) __cudaCDP2GetLastError();

.visible .entry child(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, 8;
    st.global.u32 [%rd1], %r1;
    ret;
}

.visible .entry parent(.param .u64 p, .param .u64 out, .param .u64 stream)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [p];
    ld.param.u64 %rd2, [out];
    ld.param.u64 %rd7, [stream];
    mov.u64 %rd3, child;
    {
    .param .b64 param0;
    st.param.b64 [param0+0], %rd3;
    .param .align 4 .b8 param1[12];
    st.param.b32 [param1+0], 1;
    st.param.b32 [param1+4], 1;
    st.param.b32 [param1+8], 1;
    .param .align 4 .b8 param2[12];
    st.param.b32 [param2+0], 1;
    st.param.b32 [param2+4], 1;
    st.param.b32 [param2+8], 1;
    .param .b32 param3;
    st.param.b32 [param3+0], 0;
    .param .b64 retval0;
    call.uni (retval0), __cudaCDP2GetParameterBufferV2, (param0, param1, param2, param3);
    ld.param.b64 %rd4, [retval0+0];
    }
    setp.eq.s64 %p1, %rd4, 0;
    mov.u32 %r1, -1;
    @%p1 bra DONE;
    st.u64 [%rd4], %rd1;
    {
    .param .b64 param0;
    st.param.b64 [param0+0], %rd4;
    .param .b64 param1;
    st.param.b64 [param1+0], %rd7;
    .param .b32 retval0;
    call.uni (retval0), __cudaCDP2LaunchDeviceV2, (param0, param1);
    ld.param.b32 %r1, [retval0+0];
    }
DONE:
    st.global.u32 [%rd2], %r1;
    {
    .param .b32 retval0;
    call.uni (retval0), __cudaCDP2GetLastError, ();
    ld.param.b32 %r2, [retval0+0];
    }
    st.global.u32 [%rd2+4], %r2;
    ret;
}

.visible .entry forged(.param .u64 out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd2, [out];
    mov.u64 %rd1, 4096;
    {
    .param .b64 param0;
    st.param.b64 [param0+0], %rd1;
    .param .b64 param1;
    st.param.b64 [param1+0], 0;
    .param .b32 retval0;
    call.uni (retval0), __cudaCDP2LaunchDeviceV2, (param0, param1);
    ld.param.b32 %r1, [retval0+0];
    }
    st.global.u32 [%rd2], %r1;
    ret;
}
)";

struct DevRuntime {
    CUmodule module = nullptr;
    CUfunction parent = nullptr, forged = nullptr;
    DevRuntime()
    {
        std::string text = std::string(kHeader) + kDevRuntime;
        EXPECT_OK(cuModuleLoadData(&module, text.c_str()));
        if (module) {
            EXPECT_OK(cuModuleGetFunction(&parent, module, "parent"));
            EXPECT_OK(cuModuleGetFunction(&forged, module, "forged"));
        }
    }
};

} // namespace

TEST_F(DynamicParallelism, ChildGrid_RunsBeforeItsParentCompletes)
{
    DevRuntime d;
    ASSERT_TRUE(d.parent);
    CUdeviceptr p, out;
    ASSERT_OK(cuMemAlloc(&p, 4));
    ASSERT_OK(cuMemAlloc(&out, 8));
    for (uint64_t stream : {0ull, 3ull, 4ull}) { // the default stream, tail launch, fire and forget
        ASSERT_OK(cuMemsetD32(p, 0, 1));
        ASSERT_OK(cuMemsetD32(out, 0xff, 2));
        void *args[] = {&p, &out, &stream};
        ASSERT_OK(cuLaunchKernel(d.parent, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
        ASSERT_OK(cuCtxSynchronize());
        uint32_t h[2], v = 0;
        ASSERT_OK(cuMemcpyDtoH(h, out, 8));
        ASSERT_OK(cuMemcpyDtoH(&v, p, 4));
        EXPECT_EQ(0u, h[0]) << "stream " << stream;
        EXPECT_EQ(0u, h[1]);
        EXPECT_EQ(8u, v);
    }
    ASSERT_OK(cuMemFree(p));
    ASSERT_OK(cuMemFree(out));
}

// A child's fault is the host launch's, sticky for the context, as on the GPU.
TEST_F(DynamicParallelism, FaultInAChildGrid_IsTheHostLaunchsStickyError)
{
    DevRuntime d;
    ASSERT_TRUE(d.parent);
    CUdeviceptr out, p = 8;
    ASSERT_OK(cuMemAlloc(&out, 8));
    uint64_t stream = 0;
    void *args[] = {&p, &out, &stream};
    ASSERT_OK(cuLaunchKernel(d.parent, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("kernel child");
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuMemAlloc(&p, 4));
}

// The pending launch count is set and read back; below 32 it reads 32, as on the H100 (devrt:
// so a limit of 0 still lets a launch be made; device_runtime_test.cpp checks the limit's
// enforcement, cudaErrorLaunchPendingCountExceeded past it).
TEST_F(DynamicParallelism, PendingLaunchLimit_IsSetReadAndEnforced)
{
    size_t v = 0;
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
    EXPECT_EQ(2048u, v);
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 40));
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
    EXPECT_EQ(40u, v);
    // CDP1's sync depth: the H200 answers UNSUPPORTED_LIMIT to both.
    EXPECT_CU(CUDA_ERROR_UNSUPPORTED_LIMIT, cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH));
    EXPECT_CU(CUDA_ERROR_UNSUPPORTED_LIMIT, cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 4));

    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 0));
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
    EXPECT_EQ(32u, v);
    DevRuntime d;
    ASSERT_TRUE(d.parent);
    CUdeviceptr p, out;
    ASSERT_OK(cuMemAlloc(&p, 4));
    ASSERT_OK(cuMemAlloc(&out, 8));
    ASSERT_OK(cuMemsetD32(p, 0, 1));
    uint64_t stream = 0;
    void *args[] = {&p, &out, &stream};
    ASSERT_OK(cuLaunchKernel(d.parent, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    uint32_t h[2], pv = 1;
    ASSERT_OK(cuMemcpyDtoH(h, out, 8));
    ASSERT_OK(cuMemcpyDtoH(&pv, p, 4));
    EXPECT_EQ(0u, h[0]) << "a launch of the 32 the limit allows";
    EXPECT_EQ(0u, h[1]);
    EXPECT_EQ(8u, pv);
    ASSERT_OK(cuMemFree(p));
    ASSERT_OK(cuMemFree(out));
}

TEST_F(DynamicParallelism, LaunchOfABufferTheRuntimeNeverGave_IsInvalidValue)
{
    DevRuntime d;
    ASSERT_TRUE(d.forged);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 4));
    void *args[] = {&out};
    ASSERT_OK(cuLaunchKernel(d.forged, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    uint32_t h = 0;
    ASSERT_OK(cuMemcpyDtoH(&h, out, 4));
    EXPECT_EQ(1u, h); // cudaErrorInvalidValue
    ASSERT_OK(cuMemFree(out));
}

// CUDA 12 removed device-side cudaDeviceSynchronize (nvcc 13 refuses it in device code); PTX
// that calls it, or the device runtime's functions with the wrong arguments, does not load.
TEST_F(DynamicParallelism, DeviceSideSynchronizeAndMalformedCalls_AreInvalidPtx)
{
    CUmodule m = nullptr;
    std::string sync = std::string(kHeader) + R"(
.extern .func (.param .b32 func_retval0) cudaDeviceSynchronize();
.visible .entry k()
{
    .reg .b32 %r<2>;
    {
    .param .b32 retval0;
    call.uni (retval0), cudaDeviceSynchronize, ();
    ld.param.b32 %r1, [retval0+0];
    }
    ret;
}
)";
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, sync.c_str()));
    EXPECT_DETAIL_HAS("cudaDeviceSynchronize was removed in CUDA 12");
    std::string wrong = std::string(kHeader) + R"(
.extern .func (.param .b32 func_retval0) __cudaCDP2GetLastError(.param .b32 x);
.visible .entry k()
{
    .reg .b32 %r<2>;
    {
    .param .b32 param0;
    st.param.b32 [param0+0], 1;
    .param .b32 retval0;
    call.uni (retval0), __cudaCDP2GetLastError, (param0);
    ld.param.b32 %r1, [retval0+0];
    }
    ret;
}
)";
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, wrong.c_str()));
    EXPECT_DETAIL_HAS("takes 0 arguments");
}
