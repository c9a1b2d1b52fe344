// Kernels that never end (docs/kernels.md, "Cancellation and the watchdog"): the process exits
// promptly with one running, cuCtxDestroy, cuDevicePrimaryCtxReset and cuModuleUnload return
// after their grace period, and EXTMEM_KERNEL_TIMEOUT ends a launch that runs longer with
// CUDA_ERROR_LAUNCH_TIMEOUT, on both tiers and for loops of several shapes (a branch to itself,
// arithmetic, divergence, a barrier, calls, a spin on memory, a grid of many blocks).
//
// EXTMEM_KERNEL_TIMEOUT is read once per process: the tests in this process set it to 1 second
// before their first launch; the cases that need another value (none, for exit and the default
// grace period) run in child processes.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace extmem_test;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void set_env(const char *name, const char *value)
{
#if defined(_WIN32)
    _putenv_s(name, value);
#else
    setenv(name, value, 1);
#endif
}

void unset_env(const char *name)
{
#if defined(_WIN32)
    _putenv_s(name, "");
#else
    unsetenv(name);
#endif
}

const char *kHeader = ".version 7.5\n.target sm_75\n.address_size 64\n";

// Every kernel takes `flag`: host memory it sets to 1 before its endless part (so the test knows
// it runs), and whose second word no one writes (the spin waits on it).
struct Shape {
    const char *name;
    unsigned grid, block;
    const char *ptx;
};

const Shape kShapes[] = {
    {"BranchToItself", 1, 32, R"(
.visible .entry k(.param .u64 flag)
{
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    st.volatile.global.u32 [%rd1], 1; // an atomic store: the host reads it
L:
    bra L;
}
)"},
    {"UniformArithmetic", 1, 32, R"(
.visible .entry k(.param .u64 flag)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    st.volatile.global.u32 [%rd1], 1; // an atomic store: the host reads it
    mov.u32 %r1, 0;
L:
    add.u32 %r1, %r1, 3;
    mul.lo.u32 %r2, %r1, 7;
    and.b32 %r3, %r2, 2147483647;
    setp.lt.u32 %p1, %r3, -2147483648;
    @%p1 bra L;
    ret;
}
)"},
    // A quarter of the lanes exit at once; the others split at every iteration and join again,
    // and the odd lanes leave the loop after 100 iterations (a backward branch that diverges).
    {"Divergent", 1, 32, R"(
.visible .entry k(.param .u64 flag)
{
    .reg .pred %p<6>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    st.volatile.global.u32 [%rd1], 1; // an atomic store: the host reads it
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 3;
    setp.eq.u32 %p1, %r2, 3;
    @%p1 bra DONE;
    and.b32 %r3, %r1, 1;
    setp.eq.u32 %p4, %r3, 0;
    mov.u32 %r4, 0;
    mov.u32 %r7, 0;
L:
    add.u32 %r4, %r4, 1;
    add.u32 %r5, %r4, %r1;
    and.b32 %r6, %r5, 1;
    setp.eq.u32 %p2, %r6, 0;
    @%p2 bra ODD;
    add.u32 %r7, %r7, 2;
    bra JOIN;
ODD:
    sub.u32 %r7, %r7, 1;
JOIN:
    setp.lt.u32 %p3, %r4, 100;
    or.pred %p3, %p3, %p4;
    @%p3 bra L;
DONE:
    ret;
}
)"},
    {"BarrierInTheLoop", 1, 64, R"(
.visible .entry k(.param .u64 flag)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    st.volatile.global.u32 [%rd1], 1; // an atomic store: the host reads it
    mov.u32 %r1, 0;
L:
    bar.sync 0;
    add.u32 %r1, %r1, 1;
    bra L;
}
)"},
    {"RecursiveCalls", 1, 32, R"(
.func (.param .b32 r) rec(.param .b32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<5>;
    ld.param.b32 %r1, [n];
    mov.u32 %r4, 0;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra BASE;
    add.s32 %r2, %r1, -1;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    .param .b32 r0;
    call.uni (r0), rec, (a0);
    ld.param.b32 %r3, [r0];
    }
    add.u32 %r4, %r3, 1;
BASE:
    st.param.b32 [r], %r4;
    ret;
}
.visible .entry k(.param .u64 flag)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    st.volatile.global.u32 [%rd1], 1; // an atomic store: the host reads it
L:
    {
    .param .b32 a0;
    st.param.b32 [a0], 5;
    .param .b32 r0;
    call.uni (r0), rec, (a0);
    ld.param.b32 %r1, [r0];
    }
    bra L;
}
)"},
    // The endless loop four calls deep: the cancelled warp has frames to give back.
    {"LoopInsideARecursiveCall", 1, 32, R"(
.func rec(.param .b32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [n];
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra SPIN;
    add.s32 %r2, %r1, -1;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    call.uni rec, (a0);
    }
    ret;
SPIN:
    add.u32 %r2, %r2, 1;
    bra SPIN;
}
.visible .entry k(.param .u64 flag)
{
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    st.volatile.global.u32 [%rd1], 1; // an atomic store: the host reads it
    {
    .param .b32 a0;
    st.param.b32 [a0], 3;
    call.uni rec, (a0);
    }
    ret;
}
)"},
    {"SpinOnMemory", 1, 32, R"(
.visible .entry k(.param .u64 flag)
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    st.volatile.global.u32 [%rd1], 1; // an atomic store: the host reads it
L:
    ld.volatile.global.u32 %r1, [%rd1+4];
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra L;
    ret;
}
)"},
    // A million blocks of the endless loop: the ones not yet started never run.
    {"ManyBlocks", 1u << 20, 32, R"(
.visible .entry k(.param .u64 flag)
{
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    st.volatile.global.u32 [%rd1], 1; // an atomic store: the host reads it
L:
    bra L;
}
)"},
};

const Shape *find_shape(const std::string &name)
{
    for (const Shape &s : kShapes)
        if (name == s.name)
            return &s;
    return nullptr;
}

// The tiers each case runs on: Windows runs no compiler, so it has the portable executor alone
// (EXTMEM_JIT=native fails every launch there), and its native cases are not instantiated.
#if defined(_WIN32)
#define EXTMEM_TIERS ::testing::Values("portable")
#else
#define EXTMEM_TIERS ::testing::Values("portable", "native")
#endif

uint32_t read_flag(const volatile uint32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

// A kernel of `shape` launched on its own stream in the current context, running: the test
// waits until it has set its flag (under EXTMEM_JIT=native, after its module's compile).
struct Running {
    CUmodule module = nullptr;
    CUfunction fn = nullptr;
    CUstream stream = nullptr;
    uint32_t *flag = nullptr;
    CUresult launched = CUDA_ERROR_UNKNOWN;

    // Loads and launches; false (with a failure added) when the kernel did not start in time.
    bool start(const Shape &shape, bool on_legacy_stream = false)
    {
        std::string text = std::string(kHeader) + shape.ptx;
        CUresult r = cuModuleLoadData(&module, text.c_str());
        if (!r)
            r = cuModuleGetFunction(&fn, module, "k");
        if (!r)
            r = cuMemAllocHost((void **)&flag, 8);
        if (!r && !on_legacy_stream)
            r = cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
        if (r) {
            ADD_FAILURE() << "setting up " << shape.name << ": " << r << " " << extmem_error_detail();
            return false;
        }
        flag[0] = flag[1] = 0;
        CUdeviceptr p = (CUdeviceptr)(uintptr_t)flag;
        void *params[] = {&p};
        launched = cuLaunchKernel(fn, shape.grid, 1, 1, shape.block, 1, 1, 0, stream, params, nullptr);
        if (launched) {
            ADD_FAILURE() << "cuLaunchKernel: " << launched << " " << extmem_error_detail();
            return false;
        }
        return wait_running();
    }

    bool wait_running(double limit = 120)
    {
        auto t0 = Clock::now();
        while (!read_flag(flag)) {
            if (seconds_since(t0) > limit) {
                ADD_FAILURE() << "the kernel did not start within " << limit << " s";
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return true;
    }
};

// Runs fn; if it has not returned after `limit` seconds, the test fails and the process ends
// (a hang would otherwise hold the test until ctest's timeout).
void within(double limit, const char *what, const std::function<void()> &fn)
{
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::thread guard([&] {
        std::unique_lock<std::mutex> lock(m);
        if (!cv.wait_for(lock, std::chrono::duration<double>(limit), [&] { return done; })) {
            std::fprintf(stderr, "%s did not return within %.0f s: it hangs\n", what, limit);
            std::fflush(stderr);
            std::_Exit(3);
        }
    });
    fn();
    {
        std::lock_guard<std::mutex> lock(m);
        done = true;
    }
    cv.notify_all();
    guard.join();
}

// Kills a child that has not ended `limit` seconds after this is made (a hang would otherwise
// hold the test until ctest's timeout); stop() says whether it had to.
class KillAfter {
public:
    KillAfter(Child &c, double limit)
        : guard_([this, &c, limit] {
              std::unique_lock<std::mutex> lock(m_);
              if (!cv_.wait_for(lock, std::chrono::duration<double>(limit), [this] { return done_; })) {
                  killed_ = true;
                  c.kill_now();
              }
          })
    {
    }
    ~KillAfter() { stop(); }
    bool stop()
    {
        {
            std::lock_guard<std::mutex> lock(m_);
            done_ = true;
        }
        cv_.notify_all();
        if (guard_.joinable())
            guard_.join();
        return killed_;
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false, killed_ = false;
    std::thread guard_;
};

bool init_context(CUcontext *ctx, bool primary)
{
    CUdevice dev;
    if (cuInit(0) || cuDeviceGet(&dev, 0))
        return false;
    if (primary)
        return !cuDevicePrimaryCtxRetain(ctx, dev) && !cuCtxSetCurrent(*ctx);
    return !cuCtxCreate(ctx, nullptr, 0, dev);
}

} // namespace

// ---- Child processes ----

// args: shape, tier. Launches the shape, says "running" once it runs, and calls exit(0).
EXTMEM_CHILD_ROLE(endless_then_exit)
{
    const Shape *shape = find_shape(args.at(0));
    set_env("EXTMEM_JIT", args.at(1).c_str());
    unset_env("EXTMEM_KERNEL_TIMEOUT");
    CUcontext ctx;
    if (!shape || !init_context(&ctx, false))
        return 100;
    Running k;
    if (!k.start(*shape))
        return 101;
    std::printf("running\n");
    std::fflush(stdout);
    std::exit(0);
}

// args: "destroy" or "reset". No EXTMEM_KERNEL_TIMEOUT: the call waits its default 10 seconds,
// then cancels the kernel and returns. Prints the result and the seconds it took.
EXTMEM_CHILD_ROLE(endless_then_teardown)
{
    bool reset = args.at(0) == "reset";
    unset_env("EXTMEM_KERNEL_TIMEOUT"); /* a parent running every case in one process set it */
    CUcontext ctx;
    if (!init_context(&ctx, reset))
        return 100;
    Running k;
    if (!k.start(kShapes[0]))
        return 101;
    auto t0 = Clock::now();
    CUdevice dev = 0;
    CUresult r = reset ? cuDevicePrimaryCtxReset(dev) : cuCtxDestroy(ctx);
    std::printf("%d %.2f\n", (int)r, seconds_since(t0));
    std::fflush(stdout);
    return 0;
}

// ---- exit() ----

class EndlessExit : public ::testing::TestWithParam<std::tuple<int, const char *>> {};

// With a kernel in an endless loop, exit() ends the process promptly, as on a GPU (the H100
// ends such a process in 0.3 s: docs/probes/engine_trust/probe.out), on both tiers.
TEST_P(EndlessExit, Exit_EndsTheProcessWithinASecondOrTwo)
{
    const Shape &shape = kShapes[std::get<0>(GetParam())];
    std::string tier = std::get<1>(GetParam());
    Child c("endless_then_exit", {shape.name, tier});
    KillAfter guard(c, 90); // a compile of the module, then exit
    std::string line = c.read_line();
    auto t0 = Clock::now();
    ASSERT_EQ("running", line) << "the child did not get the kernel running";
    int code = c.wait();
    double took = seconds_since(t0);
    ASSERT_FALSE(guard.stop()) << "the process did not end within 90 s: exit() hangs";
    EXPECT_EQ(0, code);
    EXPECT_LT(took, 5.0) << "exit took " << took << " s";
    std::printf("[ info ] exit took %.3f s\n", took);
}

INSTANTIATE_TEST_SUITE_P(Shapes, EndlessExit,
                         ::testing::Combine(::testing::Range(0, (int)(sizeof(kShapes) / sizeof(kShapes[0]))),
                                            EXTMEM_TIERS),
                         [](const ::testing::TestParamInfo<EndlessExit::ParamType> &p) {
                             return std::string(kShapes[std::get<0>(p.param)].name) + "_" + std::get<1>(p.param);
                         });

// ---- Teardown without a timeout set: the default grace period ----

// cuCtxDestroy waits for a running kernel as the driver does, but at most 10 seconds (the
// driver never returns: docs/probes/engine_trust/probe.out); then it cancels the kernel and
// finishes its teardown.
TEST(EndlessTeardown, CtxDestroy_WithoutATimeoutSet_GivesUpAfterTenSeconds)
{
    Child c("endless_then_teardown", {"destroy"});
    KillAfter guard(c, 60);
    std::string line = c.read_line();
    int code = c.wait();
    ASSERT_FALSE(guard.stop()) << "cuCtxDestroy did not return within 60 s: it hangs";
    EXPECT_EQ(0, code);
    int r = -1;
    double took = 0;
    ASSERT_EQ(2, std::sscanf(line.c_str(), "%d %lf", &r, &took)) << line;
    EXPECT_EQ(CUDA_SUCCESS, r);
    EXPECT_GE(took, 9.5) << "it should wait its grace period for the kernel";
    EXPECT_LT(took, 20.0);
}

// ---- In this process: EXTMEM_KERNEL_TIMEOUT=1 ----

class EndlessKernel : public ::testing::TestWithParam<const char *> {
protected:
    void SetUp() override
    {
        tier = GetParam();
        set_env("EXTMEM_KERNEL_TIMEOUT", "1");
        set_env("EXTMEM_JIT", tier.c_str());
        ASSERT_TRUE(init_context(&ctx, false));
    }
    void TearDown() override
    {
        if (ctx) {
            EXPECT_OK(cuCtxDestroy(ctx));
        }
        set_env("EXTMEM_JIT", "portable");
    }
    // Runs a short kernel in a new context: the process goes on working after a cancel.
    void expect_a_kernel_runs()
    {
        CUcontext fresh;
        CUdevice dev;
        ASSERT_OK(cuDeviceGet(&dev, 0));
        ASSERT_OK(cuCtxCreate(&fresh, nullptr, 0, dev));
        expect_short_kernel_runs();
        EXPECT_OK(cuCtxDestroy(fresh));
    }
    // out[tid] = tid * 3, through a loop of 1000 iterations.
    void expect_short_kernel_runs()
    {
        std::string text = std::string(kHeader) + R"(
.visible .entry s(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
    mov.u32 %r3, 0;
L:
    add.u32 %r2, %r2, 3;
    add.u32 %r3, %r3, 1;
    setp.lt.u32 %p1, %r3, 1000;
    @%p1 bra L;
    div.u32 %r4, %r2, 1000;
    mul.lo.u32 %r5, %r4, %r1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
)";
        CUmodule m;
        CUfunction f;
        CUdeviceptr out;
        ASSERT_OK(cuModuleLoadData(&m, text.c_str()));
        ASSERT_OK(cuModuleGetFunction(&f, m, "s"));
        ASSERT_OK(cuMemAlloc(&out, 64 * 4));
        void *params[] = {&out};
        ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
        ASSERT_OK(cuCtxSynchronize());
        std::vector<uint32_t> v(64);
        ASSERT_OK(cuMemcpyDtoH(v.data(), out, 64 * 4));
        for (uint32_t i = 0; i < 64; ++i)
            EXPECT_EQ(i * 3, v[i]) << i;
        EXPECT_OK(cuMemFree(out));
        EXPECT_OK(cuModuleUnload(m));
    }
    std::string tier;
    CUcontext ctx = nullptr;
};

// (The watchdog) a launch running longer than EXTMEM_KERNEL_TIMEOUT ends with
// CUDA_ERROR_LAUNCH_TIMEOUT, sticky, with a reason naming the kernel and the time.
TEST_P(EndlessKernel, Watchdog_EndsItWithLaunchTimeoutAtSynchronize)
{
    Running k;
    ASSERT_TRUE(k.start(kShapes[0]));
    auto t0 = Clock::now();
    within(30, "cuStreamSynchronize", [&] { EXPECT_CU(CUDA_ERROR_LAUNCH_TIMEOUT, cuStreamSynchronize(k.stream)); });
    EXPECT_DETAIL_HAS("kernel k");
    EXPECT_DETAIL_HAS("EXTMEM_KERNEL_TIMEOUT");
    EXPECT_LT(seconds_since(t0), 5.0);
    // Sticky, as a GPU's watchdog leaves it: the next call in the context answers it too.
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_LAUNCH_TIMEOUT, cuMemAlloc(&p, 16));
    expect_a_kernel_runs();
}

TEST_P(EndlessKernel, Watchdog_LeavesAKernelShorterThanTheTimeoutAlone)
{
    expect_short_kernel_runs();
    expect_short_kernel_runs();
}

// On the legacy stream the launch runs in the calling thread: the watchdog ends it there.
TEST_P(EndlessKernel, Watchdog_EndsALegacyStreamLaunchInTheCallingThread)
{
    Running k;
    std::string text = std::string(kHeader) + kShapes[0].ptx;
    ASSERT_OK(cuModuleLoadData(&k.module, text.c_str()));
    ASSERT_OK(cuModuleGetFunction(&k.fn, k.module, "k"));
    ASSERT_OK(cuMemAllocHost((void **)&k.flag, 8));
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)k.flag;
    void *params[] = {&p};
    within(30, "cuLaunchKernel",
           [&] { EXPECT_OK(cuLaunchKernel(k.fn, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr)); });
    EXPECT_CU(CUDA_ERROR_LAUNCH_TIMEOUT, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("EXTMEM_KERNEL_TIMEOUT");
}

// cuCtxDestroy waits at most the grace period (EXTMEM_KERNEL_TIMEOUT here), cancels the
// kernel, finishes and returns CUDA_SUCCESS; the process goes on.
TEST_P(EndlessKernel, CtxDestroy_ReturnsAndTheProcessGoesOn)
{
    Running k;
    ASSERT_TRUE(k.start(kShapes[0]));
    auto t0 = Clock::now();
    within(30, "cuCtxDestroy", [&] { EXPECT_OK(cuCtxDestroy(ctx)); });
    ctx = nullptr;
    EXPECT_LT(seconds_since(t0), 5.0);
    expect_a_kernel_runs();
}

// The same for the primary context: reset returns, and the context retained again is healthy.
TEST_P(EndlessKernel, PrimaryCtxReset_ReturnsAndTheContextIsHealthyAgain)
{
    CUdevice dev;
    CUcontext primary;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    ASSERT_OK(cuDevicePrimaryCtxRetain(&primary, dev));
    ASSERT_OK(cuCtxPushCurrent(primary));
    Running k;
    ASSERT_TRUE(k.start(kShapes[0]));
    within(30, "cuDevicePrimaryCtxReset", [&] { EXPECT_OK(cuDevicePrimaryCtxReset(dev)); });
    ASSERT_OK(cuDevicePrimaryCtxRetain(&primary, dev));
    ASSERT_OK(cuCtxSetCurrent(primary));
    expect_short_kernel_runs();
    EXPECT_OK(cuDevicePrimaryCtxRelease(dev));
    // Its last release tears it down too: the same with a kernel running.
    Running again;
    ASSERT_TRUE(again.start(kShapes[2]));
    within(30, "cuDevicePrimaryCtxRelease", [&] { EXPECT_OK(cuDevicePrimaryCtxRelease(dev)); });
    ASSERT_OK(cuCtxSetCurrent(ctx));
    expect_short_kernel_runs();
}

// A module unloaded under its running kernel: the unload returns, and the context, which lives
// on, has the kernel's LAUNCH_TIMEOUT with a reason saying the unload abandoned it.
TEST_P(EndlessKernel, ModuleUnload_ReturnsAndLeavesLaunchTimeoutNamingTheUnload)
{
    Running k;
    ASSERT_TRUE(k.start(kShapes[0]));
    within(30, "cuModuleUnload", [&] { EXPECT_OK(cuModuleUnload(k.module)); });
    EXPECT_CU(CUDA_ERROR_LAUNCH_TIMEOUT, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("cuModuleUnload");
    EXPECT_DETAIL_HAS("kernel k");
}

// The same for a library's kernel and cuLibraryUnload.
TEST_P(EndlessKernel, LibraryUnload_ReturnsAndLeavesLaunchTimeoutNamingTheUnload)
{
    std::string text = std::string(kHeader) + kShapes[1].ptx;
    CUlibrary lib;
    CUkernel kernel;
    CUfunction fn;
    CUstream stream;
    uint32_t *flag;
    ASSERT_OK(cuLibraryLoadData(&lib, text.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    ASSERT_OK(cuLibraryGetKernel(&kernel, lib, "k"));
    ASSERT_OK(cuKernelGetFunction(&fn, kernel));
    ASSERT_OK(cuMemAllocHost((void **)&flag, 8));
    ASSERT_OK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    flag[0] = flag[1] = 0;
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)flag;
    void *params[] = {&p};
    ASSERT_OK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, nullptr));
    Running k;
    k.flag = flag;
    ASSERT_TRUE(k.wait_running());
    within(30, "cuLibraryUnload", [&] { EXPECT_OK(cuLibraryUnload(lib)); });
    EXPECT_CU(CUDA_ERROR_LAUNCH_TIMEOUT, cuStreamSynchronize(stream));
    EXPECT_DETAIL_HAS("cuLibraryUnload");
}

// A thread runs an endless launch on the legacy stream (in that thread) while another destroys
// the context: the destroy cancels it after the grace period, the launching thread's call
// returns, and both go on.
TEST_P(EndlessKernel, CtxDestroy_WhileAnotherThreadRunsALegacyStreamLaunch)
{
    Running k;
    std::string text = std::string(kHeader) + kShapes[3].ptx; // the barrier loop, 2 warps
    ASSERT_OK(cuModuleLoadData(&k.module, text.c_str()));
    ASSERT_OK(cuModuleGetFunction(&k.fn, k.module, "k"));
    ASSERT_OK(cuMemAllocHost((void **)&k.flag, 8));
    k.flag[0] = k.flag[1] = 0;
    CUcontext shared = ctx;
    std::atomic<int> launched{-1};
    std::thread launcher([&] {
        cuCtxSetCurrent(shared);
        CUdeviceptr p = (CUdeviceptr)(uintptr_t)k.flag;
        void *params[] = {&p};
        launched = (int)cuLaunchKernel(k.fn, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr);
    });
    ASSERT_TRUE(k.wait_running());
    within(30, "cuCtxDestroy", [&] { EXPECT_OK(cuCtxDestroy(ctx)); });
    ctx = nullptr;
    launcher.join();
    EXPECT_EQ(CUDA_SUCCESS, launched.load());
    expect_a_kernel_runs();
}

INSTANTIATE_TEST_SUITE_P(Tiers, EndlessKernel, EXTMEM_TIERS,
                         [](const ::testing::TestParamInfo<const char *> &p) { return std::string(p.param); });

// Every shape, on both tiers, ends at the watchdog.
class EndlessShape : public ::testing::TestWithParam<std::tuple<int, const char *>> {};

TEST_P(EndlessShape, Watchdog_EndsIt)
{
    const Shape &shape = kShapes[std::get<0>(GetParam())];
    std::string tier = std::get<1>(GetParam());
    set_env("EXTMEM_KERNEL_TIMEOUT", "1");
    set_env("EXTMEM_JIT", tier.c_str());
    CUcontext ctx;
    ASSERT_TRUE(init_context(&ctx, false));
    Running k;
    ASSERT_TRUE(k.start(shape));
    auto t0 = Clock::now();
    within(30, "cuStreamSynchronize", [&] { EXPECT_CU(CUDA_ERROR_LAUNCH_TIMEOUT, cuStreamSynchronize(k.stream)); });
    EXPECT_LT(seconds_since(t0), 5.0);
    EXPECT_DETAIL_HAS("EXTMEM_KERNEL_TIMEOUT");
    EXPECT_OK(cuCtxDestroy(ctx));
    set_env("EXTMEM_JIT", "portable");
}

INSTANTIATE_TEST_SUITE_P(Shapes, EndlessShape,
                         ::testing::Combine(::testing::Range(0, (int)(sizeof(kShapes) / sizeof(kShapes[0]))),
                                            EXTMEM_TIERS),
                         [](const ::testing::TestParamInfo<EndlessShape::ParamType> &p) {
                             return std::string(kShapes[std::get<0>(p.param)].name) + "_" + std::get<1>(p.param);
                         });
