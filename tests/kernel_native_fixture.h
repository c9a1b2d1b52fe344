// The native tier's test fixture, shared by kernel_native_test.cpp (the tier and its cache)
// and kernel_native_trust_test.cpp (what it trusts): a kernel whose source varies with k, and
// a fresh cache folder with the environment of a native-tier test, restored afterwards.
#ifndef EXTMEM_TESTS_KERNEL_NATIVE_FIXTURE_H
#define EXTMEM_TESTS_KERNEL_NATIVE_FIXTURE_H

#include "framework/testing.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
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
// native_variant with extmem's log (stderr) in its output too.
EXTMEM_CHILD_ROLE(native_variant_logged)
{
    dup2(1, 2);
    return native_variant_role(args);
}

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
        for (const char *v : {"EXTMEM_JIT", "EXTMEM_CACHE_DIR", "EXTMEM_CC", "EXTMEM_CC_TIMEOUT", "EXTMEM_CC_MEMORY",
                              "EXTMEM_CC_MAX_SOURCE", "EXTMEM_LOG", "TMPDIR"}) {
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
    // The folder's file names, but for the cache's secret.
    std::vector<std::string> entries(const std::string &folder) const
    {
        std::vector<std::string> names;
        DIR *d = opendir(folder.c_str());
        if (!d)
            return names;
        while (struct dirent *e = readdir(d))
            if (e->d_name[0] != '.' && strcmp(e->d_name, "secret") != 0)
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
    // Runs the variant in a new process with EXTMEM_LOG=info; its exit code, and in *log
    // everything it printed (extmem's log lines included).
    int logged(unsigned k, std::string *log)
    {
        set_env("EXTMEM_LOG", "info");
        Child c("native_variant_logged", {std::to_string(k)});
        log->clear();
        for (std::string line; !(line = c.read_line()).empty();)
            *log += line + "\n";
        return c.wait();
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
#endif /* !_WIN32 */

#endif /* EXTMEM_TESTS_KERNEL_NATIVE_FIXTURE_H */
