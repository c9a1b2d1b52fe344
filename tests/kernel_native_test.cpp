// The native kernel tier and its disk cache (docs/kernels.md, "The native tier"): first
// launches of one kernel from several threads and from two processes, corrupted and stale
// cache entries, a cache folder that cannot be written, no compiler, and EXTMEM_JIT=portable.
// Every case checks the kernel's results. The corpus runs under both tiers in
// kernel_corpus_tiers.* (tests/kernels/tiers.cmake), which compares their bits.
#include "kernel_native_fixture.h"

#include <thread>

// speed (issue 27): a fault inside a fused run. Two blocks of 32 threads; thread i loads in[i]
// and then, in the same straight run, in[i] again or, from global thread 52 on (block 1, lane
// 20), an address no allocation holds. Prints the launch's result and extmem's detail.
EXTMEM_CHILD_ROLE(fused_run_fault)
{
    (void)args;
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx))
        return 100;
    static const char ptx[] =
        ".version 7.5\n.target sm_75\n.address_size 64\n"
        ".visible .entry f(.param .u64 in, .param .u64 out, .param .u64 bad)\n{\n"
        "    .reg .pred %p<2>;\n    .reg .b32 %r<8>;\n    .reg .b64 %rd<10>;\n"
        "    ld.param.u64 %rd1, [in];\n    ld.param.u64 %rd2, [out];\n    ld.param.u64 %rd9, [bad];\n"
        "    mov.u32 %r1, %ctaid.x;\n    mov.u32 %r5, %tid.x;\n    mad.lo.s32 %r1, %r1, 32, %r5;\n"
        "    mul.wide.u32 %rd3, %r1, 4;\n    add.s64 %rd4, %rd1, %rd3;\n    ld.global.u32 %r2, [%rd4];\n"
        "    setp.ge.u32 %p1, %r1, 52;\n    selp.b64 %rd5, %rd9, %rd4, %p1;\n    ld.global.u32 %r3, [%rd5];\n"
        "    add.s32 %r4, %r2, %r3;\n    add.s64 %rd6, %rd2, %rd3;\n    st.global.u32 [%rd6], %r4;\n    ret;\n}\n";
    CUmodule m;
    CUfunction f;
    CUdeviceptr in, out;
    if (cuModuleLoadData(&m, ptx) || cuModuleGetFunction(&f, m, "f") || cuMemAlloc(&in, 256) || cuMemAlloc(&out, 256) ||
        cuMemsetD8(in, 1, 256))
        return 101;
    CUdeviceptr bad = 0x40; /* the first page: no allocation */
    void *params[] = {&in, &out, &bad};
    CUresult r = cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr);
    if (!r)
        r = cuCtxSynchronize();
    std::printf("%d %s\n", (int)r, r ? extmem_error_detail() : "");
    std::fflush(stdout);
    return 0;
}

// simd (issue 27): a fault in a whole warp's store, which the native tier checks for all 32
// lanes before writing any. Two blocks of 32 threads; thread i stores i + 1 to out[i] or, from
// global thread 52 on (block 1, lane 20), to an address no allocation holds. Prints the
// launch's result, extmem's detail and what out holds (lanes 0 to 19 of block 1 stored, as on
// the portable executor, which stores lane by lane).
EXTMEM_CHILD_ROLE(warp_store_fault)
{
    (void)args;
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx))
        return 100;
    static const char ptx[] =
        ".version 7.5\n.target sm_75\n.address_size 64\n"
        ".visible .entry f(.param .u64 out, .param .u64 bad)\n{\n"
        "    .reg .pred %p<2>;\n    .reg .b32 %r<8>;\n    .reg .b64 %rd<10>;\n"
        "    ld.param.u64 %rd2, [out];\n    ld.param.u64 %rd9, [bad];\n"
        "    mov.u32 %r1, %ctaid.x;\n    mov.u32 %r5, %tid.x;\n    mad.lo.s32 %r1, %r1, 32, %r5;\n"
        "    mul.wide.u32 %rd3, %r1, 4;\n    add.s64 %rd4, %rd2, %rd3;\n    add.s32 %r4, %r1, 1;\n"
        "    setp.ge.u32 %p1, %r1, 52;\n    selp.b64 %rd5, %rd9, %rd4, %p1;\n"
        "    st.global.u32 [%rd5], %r4;\n    ret;\n}\n";
    CUmodule m;
    CUfunction f;
    CUdeviceptr out;
    if (cuModuleLoadData(&m, ptx) || cuModuleGetFunction(&f, m, "f") || cuMemAlloc(&out, 256) || cuMemsetD8(out, 0, 256))
        return 101;
    CUdeviceptr bad = 0x40; /* the first page: no allocation */
    void *params[] = {&out, &bad};
    CUresult r = cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr);
    if (!r)
        r = cuCtxSynchronize();
    uint32_t h[64] = {0};
    /* the context is sticky-faulted: read the buffer through its host address (device
     * pointers are host addresses on the software device) */
    std::memcpy(h, (const void *)(uintptr_t)out, sizeof(h));
    std::printf("%d %s |", (int)r, r ? extmem_error_detail() : "");
    for (unsigned i = 0; i < 64; ++i)
        std::printf(" %u", h[i]);
    std::printf("\n");
    std::fflush(stdout);
    return 0;
}

#if !defined(_WIN32)
TEST_F(KernelNative, FirstLaunchesFromFourThreads_AllSucceedAndLeaveOneEntry)
{
    std::vector<CUresult> results(4, CUDA_ERROR_UNKNOWN);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] {
            cuCtxSetCurrent(ctx);
            results[t] = run_variant(11);
        });
    for (auto &t : threads)
        t.join();
    for (CUresult r : results)
        EXPECT_OK(r);
    std::vector<std::string> names = entries(dir);
    ASSERT_EQ(1u, names.size()) << "the cache should hold one entry and no temporary files";
    EXPECT_NE(std::string::npos, names[0].find(".so"));
}

// Two modules loaded at once each run their own code: the libraries are loaded from file
// descriptors (/proc/self/fd/N), and the loader hands out an already loaded library again for the
// same name, so a descriptor number reused while the first library is loaded would run the first
// module's code for the second.
TEST_F(KernelNative, AFaultInsideAFusedRun_IsReportedAsThePortableExecutorReportsIt)
{
    // One pool thread, so block 1 starts with the extents block 0 learnt and runs its first 20
    // lanes through the fused run before lane 20's load fails its check: the rest go through the
    // handlers, which report the fault at the same instruction, lane and address.
    set_env("EXTMEM_THREADS", "1");
    std::string seen[2];
    const char *tiers[2] = {"portable", "native"};
    for (int t = 0; t < 2; ++t) {
        set_env("EXTMEM_JIT", tiers[t]);
        Child c("fused_run_fault", {});
        seen[t] = c.read_line();
        EXPECT_EQ(0, c.wait()) << tiers[t] << ": " << seen[t];
    }
    unset_env("EXTMEM_THREADS");
    EXPECT_EQ(std::to_string((int)CUDA_ERROR_ILLEGAL_ADDRESS), seen[0].substr(0, seen[0].find(' '))) << seen[0];
    EXPECT_NE(std::string::npos, seen[0].find("0x40")) << seen[0];
    EXPECT_EQ(seen[0], seen[1]);
}

TEST_F(KernelNative, AFaultInAWholeWarpsStore_IsReportedAsThePortableExecutorReportsIt)
{
    // simd (issue 27): one pool thread; block 0's store is checked for its 32 lanes at once,
    // block 1's fails the check at lane 20, so the per-lane loop stores lanes 0 to 19 and
    // reports lane 20's fault: the same code, detail and memory as the portable executor's.
    set_env("EXTMEM_THREADS", "1");
    std::string seen[2];
    const char *tiers[2] = {"portable", "native"};
    for (int t = 0; t < 2; ++t) {
        set_env("EXTMEM_JIT", tiers[t]);
        Child c("warp_store_fault", {});
        seen[t] = c.read_line();
        EXPECT_EQ(0, c.wait()) << tiers[t] << ": " << seen[t];
    }
    unset_env("EXTMEM_THREADS");
    EXPECT_EQ(std::to_string((int)CUDA_ERROR_ILLEGAL_ADDRESS), seen[0].substr(0, seen[0].find(' '))) << seen[0];
    EXPECT_NE(std::string::npos, seen[0].find("0x40")) << seen[0];
    EXPECT_NE(std::string::npos, seen[0].find("| 1 2 3")) << seen[0];
    EXPECT_NE(std::string::npos, seen[0].find(" 52 0 0")) << "lanes 0 to 19 of block 1 store before lane 20's fault: " << seen[0];
    EXPECT_EQ(seen[0], seen[1]);
}

TEST_F(KernelNative, TwoModulesLoadedAtOnce_EachRunsItsOwnCode)
{
    const unsigned n = 64, ks[] = {43, 44, 45};
    std::vector<CUmodule> mods;
    CUdeviceptr in = 0, out = 0;
    ASSERT_OK(cuMemAlloc(&in, n * 4));
    ASSERT_OK(cuMemAlloc(&out, n * 4));
    std::vector<uint32_t> h(n), got(n);
    for (unsigned i = 0; i < n; ++i)
        h[i] = i + 1;
    ASSERT_OK(cuMemcpyHtoD(in, h.data(), n * 4));
    for (unsigned k : ks) {
        CUmodule m = nullptr;
        std::string text = ptx(k);
        ASSERT_OK(cuModuleLoadData(&m, text.c_str()));
        mods.push_back(m);
        CUfunction f = nullptr;
        ASSERT_OK(cuModuleGetFunction(&f, m, "scale"));
        unsigned nn = n;
        void *params[] = {&in, &out, &nn};
        ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, n, 1, 1, 0, nullptr, params, nullptr));
        ASSERT_OK(cuCtxSynchronize());
        ASSERT_OK(cuMemcpyDtoH(got.data(), out, n * 4));
        for (unsigned i = 0; i < n; ++i)
            ASSERT_EQ(h[i] * k + i / 3, got[i]) << "module " << k << ", element " << i;
    }
    for (CUmodule m : mods)
        EXPECT_OK(cuModuleUnload(m));
    EXPECT_OK(cuMemFree(in));
    EXPECT_OK(cuMemFree(out));
}

TEST_F(KernelNative, FirstLaunchesFromTwoProcesses_BothSucceed)
{
    Child a("native_variant", {"12"}), b("native_variant", {"12"});
    std::string la = a.read_line(), lb = b.read_line();
    EXPECT_EQ(0, a.wait()) << la;
    EXPECT_EQ(0, b.wait()) << lb;
    EXPECT_EQ("ok", la);
    EXPECT_EQ("ok", lb);
    EXPECT_EQ(1u, entries(dir).size());
}

TEST_F(KernelNative, CorruptedEntry_IsCompiledAgainNotLoaded)
{
    ASSERT_EQ(0, child(13));
    std::vector<std::string> names = entries(dir);
    ASSERT_EQ(1u, names.size());
    std::string path = dir + "/" + names[0];
    std::string good = read_bytes(path);
    ASSERT_GT(good.size(), 1000u);
    // Bytes flipped in the middle of the library: the trailer's hash no longer matches.
    std::string bad = good;
    for (size_t i = bad.size() / 2; i < bad.size() / 2 + 64; ++i)
        bad[i] = (char)~bad[i];
    write_bytes(path, bad);
    EXPECT_EQ(0, child(13));
    EXPECT_NE(bad, read_bytes(path)) << "the corrupted entry was not replaced";
    // Cut short: no trailer at all.
    write_bytes(path, good.substr(0, good.size() / 3));
    EXPECT_EQ(0, child(13));
    EXPECT_GT(read_bytes(path).size(), good.size() / 3);
    // Not even a library.
    write_bytes(path, "garbage");
    EXPECT_EQ(0, child(13));
    EXPECT_OK(run_variant(13));
}

TEST_F(KernelNative, StaleEntry_ForAnotherSource_IsCompiledAgain)
{
    ASSERT_EQ(0, child(14));
    std::vector<std::string> first = entries(dir);
    ASSERT_EQ(1u, first.size());
    ASSERT_EQ(0, child(15));
    std::vector<std::string> both = entries(dir);
    ASSERT_EQ(2u, both.size());
    std::string other = both[0] == first[0] ? both[1] : both[0];
    // The entry of variant 14 under variant 15's name: a whole, valid library of other code.
    std::string code14 = read_bytes(dir + "/" + first[0]);
    write_bytes(dir + "/" + other, code14);
    EXPECT_EQ(0, child(15)) << "variant 15 must not run variant 14's code";
    EXPECT_NE(code14, read_bytes(dir + "/" + other));
}

TEST_F(KernelNative, CacheFolderThatCannotBeWritten_CompilesPrivatelyAndRuns)
{
    // A folder under a regular file can be neither made nor written, also for root (for whom
    // a folder's mode bits do not forbid writing).
    std::string file = dir + "/plain-file";
    write_bytes(file, "x");
    set_env("EXTMEM_CACHE_DIR", file + "/kernels");
    EXPECT_EQ(0, child(16));
    EXPECT_OK(run_variant(16));
    EXPECT_EQ(1u, entries(dir).size()) << "nothing but the plain file";
}

TEST_F(KernelNative, NoCompiler_AutoRunsPortableWithTheSameResults)
{
    set_env("EXTMEM_CC", "/nonexistent/cc");
    set_env("EXTMEM_JIT", "auto");
    EXPECT_EQ(0, child(17));
    EXPECT_TRUE(entries(dir).empty());
}

TEST_F(KernelNative, NoCompiler_UnderJitNative_FailsTheLaunchSayingSo)
{
    set_env("EXTMEM_CC", "/nonexistent/cc");
    Child c("native_variant", {"18"});
    std::string line = c.read_line();
    EXPECT_EQ((int)CUDA_ERROR_JIT_COMPILER_NOT_FOUND, c.wait()) << line;
    EXPECT_NE(std::string::npos, line.find("EXTMEM_JIT=native")) << line;
}

TEST_F(KernelNative, JitPortable_NeverRunsTheCompiler)
{
    // A "compiler" that leaves a mark when it is run at all (even for --version).
    std::string mark = dir + "/ran", cc = dir + "/cc.sh";
    write_bytes(cc, "#!/bin/sh\ntouch '" + mark + "'\nexit 1\n");
    ASSERT_EQ(0, chmod(cc.c_str(), 0755));
    set_env("EXTMEM_CC", cc);
    set_env("EXTMEM_JIT", "portable");
    EXPECT_EQ(0, child(19));
    EXPECT_NE(0, access(mark.c_str(), F_OK)) << "the compiler was run";
    EXPECT_EQ(1u, entries(dir).size()) << "only the script: no cache entry";
}
#else
// Windows runs no compiler (src/win32/jit.c): the native tier is never used, whatever
// EXTMEM_JIT says under auto, and the results are the portable executor's.
TEST_F(ContextTest, Windows_AutoRunsThePortableExecutor)
{
    set_env("EXTMEM_JIT", "auto");
    EXPECT_OK(run_variant(20));
}
#endif
