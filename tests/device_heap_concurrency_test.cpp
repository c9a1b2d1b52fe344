// The device heap under concurrency (label `concurrency`, also run under ThreadSanitizer): the
// blocks of a launch run on several pool threads and launches of several streams run at once,
// all allocating and freeing from the context's one heap. No block may be given twice, and
// nothing may be lost: after the churn the whole heap can be allocated again.
#include "framework/testing.h"

#include <cstdint>
#include <thread>
#include <vector>

using namespace extmem_test;

using DeviceHeapConcurrency = ContextTest;

namespace {

// churn(errors, iters): each thread mallocs 16 to 128 bytes, writes its id at both ends, frees
// the block of the iteration before after checking its ends again (so blocks of many threads are
// live at once), counting anything wrong in *errors.
const char *kPtx = R"(
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b64 func_retval0) malloc(.param .b64 size);
.extern .func free(.param .b64 ptr);
.visible .entry churn(.param .u64 errors, .param .u32 iters)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [errors];
    ld.param.u32 %r1, [iters];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mad.lo.s32 %r4, %r3, 1024, %r2;
    add.s32 %r4, %r4, 1;
    mov.u32 %r5, 0;
    mov.u64 %rd8, 0;
    mov.u64 %rd9, 0;
LOOP:
    add.s32 %r6, %r4, %r5;
    and.b32 %r6, %r6, 7;
    mul.lo.s32 %r6, %r6, 16;
    add.s32 %r6, %r6, 16;
    cvt.u64.u32 %rd2, %r6;
    {
        .param .b64 a;
        .param .b64 r;
        st.param.b64 [a], %rd2;
        call.uni (r), malloc, (a);
        ld.param.b64 %rd3, [r];
    }
    setp.eq.u64 %p1, %rd3, 0;
    @%p1 bra FAIL;
    and.b64 %rd4, %rd3, 15;
    setp.ne.u64 %p2, %rd4, 0;
    @%p2 bra FAIL;
    st.u32 [%rd3], %r4;
    add.s64 %rd5, %rd3, %rd2;
    sub.s64 %rd5, %rd5, 4;
    st.u32 [%rd5], %r4;
    setp.eq.u64 %p1, %rd8, 0;
    @%p1 bra KEEP;
    ld.u32 %r7, [%rd8];
    ld.u32 %r8, [%rd9];
    setp.ne.u32 %p3, %r7, %r4;
    @%p3 bra FAIL;
    setp.ne.u32 %p3, %r8, %r4;
    @%p3 bra FAIL;
    {
        .param .b64 a;
        st.param.b64 [a], %rd8;
        call.uni free, (a);
    }
KEEP:
    mov.u64 %rd8, %rd3;
    mov.u64 %rd9, %rd5;
    bra NEXT;
FAIL:
    atom.global.add.u32 %r9, [%rd1], 1;
NEXT:
    add.s32 %r5, %r5, 1;
    setp.lt.u32 %p1, %r5, %r1;
    @%p1 bra LOOP;
    setp.eq.u64 %p1, %rd8, 0;
    @%p1 bra DONE;
    {
        .param .b64 a;
        st.param.b64 [a], %rd8;
        call.uni free, (a);
    }
DONE:
    ret;
}
.visible .entry whole(.param .u64 out, .param .u64 size)
{
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [size];
    {
        .param .b64 a;
        .param .b64 r;
        st.param.b64 [a], %rd2;
        call.uni (r), malloc, (a);
        ld.param.b64 %rd3, [r];
    }
    st.u64 [%rd1], %rd3;
    {
        .param .b64 a;
        st.param.b64 [a], %rd3;
        call.uni free, (a);
    }
    ret;
}
)";

} // namespace

TEST_F(DeviceHeapConcurrency, ManyBlocksOnManyStreams_AllocateAndFree_NoBlockTwiceNoneLost)
{
    CUmodule m;
    CUfunction churn, whole;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    ASSERT_OK(cuModuleGetFunction(&churn, m, "churn"));
    ASSERT_OK(cuModuleGetFunction(&whole, m, "whole"));
    CUdeviceptr errors;
    ASSERT_OK(cuMemAlloc(&errors, 4));
    ASSERT_OK(cuMemsetD32(errors, 0, 1));
    const int nstreams = 4;
    std::vector<CUstream> streams(nstreams);
    for (auto &s : streams)
        ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    // Launches from several host threads at once, each on its own stream.
    std::vector<std::thread> threads;
    for (int t = 0; t < nstreams; ++t)
        threads.emplace_back([&, t] {
            ASSERT_OK(cuCtxSetCurrent(ctx));
            unsigned iters = 8;
            void *args[] = {&errors, &iters};
            for (int k = 0; k < 3; ++k)
                EXPECT_OK(cuLaunchKernel(churn, 16, 1, 1, 64, 1, 1, 0, streams[t], args, nullptr));
        });
    for (auto &th : threads)
        th.join();
    ASSERT_OK(cuCtxSynchronize());
    unsigned bad = 1;
    ASSERT_OK(cuMemcpyDtoH(&bad, errors, 4));
    EXPECT_EQ(0u, bad);
    // Nothing leaked: nearly the whole 8 MiB heap is one block again.
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 8));
    uint64_t size = (8 << 20) - 64;
    void *args[] = {&out, &size};
    ASSERT_OK(cuLaunchKernel(whole, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    uint64_t p = 0;
    ASSERT_OK(cuMemcpyDtoH(&p, out, 8));
    EXPECT_NE(0u, p);
    for (auto &s : streams)
        EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuMemFree(out));
    EXPECT_OK(cuMemFree(errors));
    EXPECT_OK(cuModuleUnload(m));
}
