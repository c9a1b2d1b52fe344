// The native kernel tier and its disk cache (docs/kernels.md, "The native tier"): first
// launches of one kernel from several threads and from two processes, corrupted and stale
// cache entries, a cache folder that cannot be written, no compiler, and EXTMEM_JIT=portable.
// Every case checks the kernel's results. The corpus runs under both tiers in
// kernel_corpus_tiers.* (tests/kernels/tiers.cmake), which compares their bits.
#include "framework/testing.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#if !defined(_WIN32)
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace extmem_test;

namespace {

// out[i] = in[i] * k + i / 3 for i < n, with a loop, a uniform branch, a divergent one and a
// division (which the native code calls the portable handler for). `k` makes the source, and
// so the cache key, differ between variants.
std::string ptx(unsigned k)
{
    return ".version 7.5\n.target sm_75\n.address_size 64\n"
           ".visible .entry scale(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
           "    .reg .pred %p<3>;\n    .reg .b32 %r<12>;\n    .reg .b64 %rd<8>;\n"
           "    ld.param.u64 %rd1, [in];\n    ld.param.u64 %rd2, [out];\n    ld.param.u32 %r1, [n];\n"
           "    mov.u32 %r2, %ctaid.x;\n    mov.u32 %r3, %ntid.x;\n    mov.u32 %r4, %tid.x;\n"
           "    mad.lo.s32 %r5, %r2, %r3, %r4;\n    setp.ge.u32 %p1, %r5, %r1;\n    @%p1 bra DONE;\n"
           "    mul.wide.u32 %rd3, %r5, 4;\n    add.s64 %rd4, %rd1, %rd3;\n    ld.global.u32 %r6, [%rd4];\n"
           "    mov.u32 %r7, 0;\n    mov.u32 %r8, 0;\n"
           "LOOP:\n    add.s32 %r7, %r7, %r6;\n    add.s32 %r8, %r8, 1;\n    setp.lt.u32 %p2, %r8, " +
           std::to_string(k) +
           ";\n    @%p2 bra LOOP;\n"
           "    div.u32 %r9, %r5, 3;\n    add.s32 %r10, %r7, %r9;\n    add.s64 %rd5, %rd2, %rd3;\n"
           "    st.global.u32 [%rd5], %r10;\n"
           "DONE:\n    ret;\n}\n";
}

// Loads the variant in the current context, runs it over 1000 elements and checks every one.
// Returns the launch's (or synchronisation's) result, or CUDA_ERROR_UNKNOWN for a wrong value.
CUresult run_variant(unsigned k)
{
    const unsigned n = 1000;
    CUmodule m = nullptr;
    CUfunction f = nullptr;
    CUdeviceptr in = 0, out = 0;
    std::string text = ptx(k);
    CUresult r = cuModuleLoadData(&m, text.c_str());
    if (!r)
        r = cuModuleGetFunction(&f, m, "scale");
    if (!r)
        r = cuMemAlloc(&in, n * 4);
    if (!r)
        r = cuMemAlloc(&out, n * 4);
    std::vector<uint32_t> h(n), got(n);
    for (unsigned i = 0; i < n; ++i)
        h[i] = i * 7 + 1;
    if (!r)
        r = cuMemcpyHtoD(in, h.data(), n * 4);
    unsigned nn = n;
    void *params[] = {&in, &out, &nn};
    if (!r)
        r = cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr);
    if (!r)
        r = cuCtxSynchronize();
    if (!r)
        r = cuMemcpyDtoH(got.data(), out, n * 4);
    for (unsigned i = 0; !r && i < n; ++i)
        if (got[i] != h[i] * k + i / 3)
            r = CUDA_ERROR_UNKNOWN;
    if (in)
        cuMemFree(in);
    if (out)
        cuMemFree(out);
    if (m)
        cuModuleUnload(m);
    return r;
}

void set_env(const char *name, const std::string &value)
{
#if defined(_WIN32)
    _putenv_s(name, value.c_str());
#else
    setenv(name, value.c_str(), 1);
#endif
}

[[maybe_unused]] void unset_env(const char *name)
{
#if defined(_WIN32)
    _putenv_s(name, "");
#else
    unsetenv(name);
#endif
}

} // namespace

// A child process: runs the variant args[0] in the primary context and exits with its result.
EXTMEM_CHILD_ROLE(native_variant)
{
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx))
        return 100;
    CUresult r = run_variant((unsigned)std::stoul(args.at(0)));
    if (r)
        std::printf("%d %s\n", (int)r, extmem_error_detail());
    else
        std::printf("ok\n");
    std::fflush(stdout);
    return (int)r;
}

#if !defined(_WIN32)
namespace {

// A fresh cache folder and the environment of a native-tier test, restored afterwards.
class KernelNative : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        char tmpl[] = "/tmp/extmem-native-test-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir = tmpl;
        for (const char *v : {"EXTMEM_JIT", "EXTMEM_CACHE_DIR", "EXTMEM_CC"}) {
            const char *s = getenv(v);
            saved.emplace_back(v, s ? s : "");
            saved_set.push_back(s != nullptr);
        }
        set_env("EXTMEM_JIT", "native");
        set_env("EXTMEM_CACHE_DIR", dir);
    }
    void TearDown() override
    {
        for (size_t i = 0; i < saved.size(); ++i) {
            if (saved_set[i])
                set_env(saved[i].first.c_str(), saved[i].second);
            else
                unset_env(saved[i].first.c_str());
        }
        std::string cmd = "rm -rf '" + dir + "'";
        EXPECT_EQ(0, std::system(cmd.c_str()));
        ContextTest::TearDown();
    }
    // The folder's file names.
    std::vector<std::string> entries(const std::string &folder) const
    {
        std::vector<std::string> names;
        DIR *d = opendir(folder.c_str());
        if (!d)
            return names;
        while (struct dirent *e = readdir(d))
            if (e->d_name[0] != '.')
                names.push_back(e->d_name);
        closedir(d);
        return names;
    }
    // Runs the variant in a new process; its exit code (0: the right results).
    int child(unsigned k)
    {
        Child c("native_variant", {std::to_string(k)});
        std::string line = c.read_line();
        int code = c.wait();
        if (code)
            ADD_FAILURE() << "child for variant " << k << ": " << line;
        return code;
    }
    std::string dir;
    std::vector<std::pair<std::string, std::string>> saved;
    std::vector<bool> saved_set;
};

std::string read_bytes(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string &path, const std::string &bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), (std::streamsize)bytes.size());
}

} // namespace

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
