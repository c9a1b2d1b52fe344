// Linking (cuLinkCreate .. cuLinkDestroy; docs/kernels.md "Linking", docs/driver-observations.md
// "Linking and the device heap"): PTX, fat binaries, host objects and archives linked into an
// image cuModuleLoadData and cuLibraryLoadData take, the way numba links its kernels; the codes
// and log lines the driver gives for unresolved, duplicate and mismatched symbols; bad input.
#include "framework/testing.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace extmem_test;

using Link = ContextTest;

namespace {

// A kernel calling a function and updating a variable that another input defines.
const char *kUser = R"(
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 ret) add_one(.param .b32 x);
.extern .global .align 4 .u32 counter;
.visible .entry kern(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    {
        .param .b32 a;
        .param .b32 r;
        st.param.b32 [a], %r1;
        call (r), add_one, (a);
        ld.param.b32 %r2, [r];
    }
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd3, %rd2, %rd3;
    st.global.u32 [%rd3], %r2;
    atom.global.add.u32 %r3, [counter], 1;
    ret;
}
)";
const char *kDefs = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .global .align 4 .u32 counter = 100;
.visible .func (.param .b32 ret) add_one(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    add.s32 %r2, %r1, 1;
    st.param.b32 [ret], %r2;
    ret;
}
)";
const char *kCounterAgain = ".version 8.0\n.target sm_80\n.address_size 64\n"
                            ".visible .global .align 4 .u32 counter = 1;\n";
const char *kOtherPrototype = ".version 8.0\n.target sm_80\n.address_size 64\n"
                              ".visible .func (.param .b64 ret) add_one(.param .b64 x, .param .b64 y)\n{\n ret;\n}\n";
std::string pick_def(const char *linkage, int value)
{
    return std::string(".version 8.0\n.target sm_80\n.address_size 64\n") + linkage +
           " .func (.param .b32 ret) pick(.param .b32 x)\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, " +
           std::to_string(value) + ";\n st.param.b32 [ret], %r1;\n ret;\n}\n";
}
const char *kPickUser = R"(
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 ret) pick(.param .b32 x);
.visible .entry kern(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, 0;
    {
        .param .b32 a;
        .param .b32 r;
        st.param.b32 [a], %r1;
        call (r), pick, (a);
        ld.param.b32 %r2, [r];
    }
    st.u32 [%rd1], %r2;
    ret;
}
)";
// Two inputs with a static variable and a static function of the same names.
const char *kStatic1 = R"(
.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 hidden = 5;
.func (.param .b32 ret) helper()
{
    .reg .b32 %r<2>;
    ld.global.u32 %r1, [hidden];
    st.param.b32 [ret], %r1;
    ret;
}
.visible .func (.param .b32 ret) get1()
{
    .reg .b32 %r<2>;
    {
        .param .b32 r;
        call (r), helper, ();
        ld.param.b32 %r1, [r];
    }
    st.param.b32 [ret], %r1;
    ret;
}
)";
const char *kStatic2 = R"(
.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 hidden = 7;
.func (.param .b32 ret) helper()
{
    .reg .b32 %r<2>;
    ld.global.u32 %r1, [hidden];
    st.param.b32 [ret], %r1;
    ret;
}
.extern .func (.param .b32 ret) get1();
.visible .entry kern(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    {
        .param .b32 r;
        call (r), get1, ();
        ld.param.b32 %r1, [r];
    }
    {
        .param .b32 r;
        call (r), helper, ();
        ld.param.b32 %r2, [r];
    }
    mad.lo.s32 %r3, %r1, 10, %r2;
    st.u32 [%rd1], %r3;
    ret;
}
)";
// Declares what the engine provides itself (printf, malloc, free): no input defines them.
const char *kBuiltins = R"(
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);
.extern .func (.param .b64 func_retval0) malloc(.param .b64 a);
.extern .func free(.param .b64 a);
.visible .entry kern(.param .u64 out)
{
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    {
        .param .b64 a;
        .param .b64 r;
        st.param.b64 [a], 64;
        call.uni (r), malloc, (a);
        ld.param.b64 %rd2, [r];
    }
    st.u64 [%rd1], %rd2;
    {
        .param .b64 a;
        st.param.b64 [a], %rd2;
        call.uni free, (a);
    }
    ret;
}
)";
const char *kMalformed = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry broken()\n{\n"
                         " frobnicate.u32 %r1;\n}\n";

std::string data_path(const std::string &name)
{
    return std::string(EXTMEM_TEST_SOURCE_DIR) + "/data/link/" + name;
}

std::vector<char> read_data(const std::string &name)
{
    std::ifstream in(data_path(name), std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

CUresult add_ptx(CUlinkState s, const char *ptx, const char *name)
{
    return cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, name, 0, nullptr, nullptr);
}

// The logs a link state writes to, with the option slots it writes their sizes back to.
struct Logs {
    char info[4096] = {};
    char err[4096] = {};
    CUjit_option opts[5] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
    void *values[5] = {};
    CUresult create(CUlinkState *s, bool verbose)
    {
        values[0] = info;
        values[1] = (void *)(uintptr_t)sizeof(info);
        values[2] = err;
        values[3] = (void *)(uintptr_t)sizeof(err);
        values[4] = (void *)(uintptr_t)(verbose ? 1 : 0);
        return cuLinkCreate(5, opts, values, s);
    }
};

// Loads a linked image, runs kern with 4 threads over out (4 unsigned), returns them.
std::vector<unsigned> run_kern(const void *image, CUmodule *keep = nullptr)
{
    CUmodule m;
    EXPECT_OK(cuModuleLoadData(&m, image));
    CUfunction f;
    EXPECT_OK(cuModuleGetFunction(&f, m, "kern"));
    CUdeviceptr d;
    EXPECT_OK(cuMemAlloc(&d, 16));
    EXPECT_OK(cuMemsetD8(d, 0, 16));
    void *args[] = {&d};
    EXPECT_OK(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    std::vector<unsigned> out(4);
    EXPECT_OK(cuMemcpyDtoH(out.data(), d, 16));
    EXPECT_OK(cuMemFree(d));
    if (keep) {
        *keep = m;
    } else {
        EXPECT_OK(cuModuleUnload(m));
    }
    return out;
}

} // namespace

TEST_F(Link, NumbaStyle_PtxInputsLinkedLoadedAndRun_VerboseLogsAndSizesWrittenBack)
{
    Logs logs;
    CUlinkState s;
    ASSERT_OK(logs.create(&s, true));
    // The driver writes the sizes back at once (0 bytes of log so far).
    EXPECT_EQ(0u, (uintptr_t)logs.values[1]);
    EXPECT_EQ(0u, (uintptr_t)logs.values[3]);
    ASSERT_OK(add_ptx(s, kUser, "user.ptx"));
    ASSERT_OK(add_ptx(s, kDefs, "defs.ptx"));
    void *image = nullptr;
    size_t size = 0;
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    ASSERT_NE(nullptr, image);
    EXPECT_EQ(strlen((const char *)image) + 1, size);
    EXPECT_NE(nullptr, strstr(logs.info, "user.ptx"));
    EXPECT_NE(nullptr, strstr(logs.info, "linked 2 inputs"));
    EXPECT_EQ(strlen(logs.info), (uintptr_t)logs.values[1]);
    EXPECT_STREQ("", logs.err);
    EXPECT_EQ(0u, (uintptr_t)logs.values[3]);
    CUmodule m;
    std::vector<unsigned> out = run_kern(image, &m);
    EXPECT_EQ((std::vector<unsigned>{1, 2, 3, 4}), out);
    CUdeviceptr counter;
    size_t bytes;
    ASSERT_OK(cuModuleGetGlobal(&counter, &bytes, m, "counter"));
    EXPECT_EQ(4u, bytes);
    unsigned c = 0;
    ASSERT_OK(cuMemcpyDtoH(&c, counter, 4));
    EXPECT_EQ(104u, c);
    EXPECT_OK(cuModuleUnload(m));
    // The image is the state's until cuLinkDestroy: a library loads it too.
    CUlibrary lib;
    EXPECT_OK(cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0));
    CUkernel k;
    EXPECT_OK(cuLibraryGetKernel(&k, lib, "kern"));
    EXPECT_OK(cuLibraryUnload(lib));
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, WithoutVerbose_TheInfoLogStaysEmpty)
{
    Logs logs;
    CUlinkState s;
    ASSERT_OK(logs.create(&s, false));
    ASSERT_OK(add_ptx(s, kUser, "user.ptx"));
    ASSERT_OK(add_ptx(s, kDefs, "defs.ptx"));
    void *image;
    size_t size;
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    EXPECT_STREQ("", logs.info);
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, UnresolvedExterns_AreInvalidSourceAtComplete_EachNamedInTheErrorLog)
{
    Logs logs;
    CUlinkState s;
    ASSERT_OK(logs.create(&s, false));
    ASSERT_OK(add_ptx(s, kUser, "user.ptx")); // externs may stay open until the end
    void *image = nullptr;
    size_t size = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, cuLinkComplete(s, &image, &size));
    EXPECT_NE(nullptr, strstr(logs.err, "error   : Undefined reference to 'add_one' in 'user.ptx'")) << logs.err;
    EXPECT_NE(nullptr, strstr(logs.err, "error   : Undefined reference to 'counter' in 'user.ptx'")) << logs.err;
    EXPECT_EQ(strlen(logs.err), (uintptr_t)logs.values[3]);
    EXPECT_OK(cuLinkDestroy(s));
    // A module loaded alone with an extern nobody defines is malformed PTX, as on the driver.
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, kUser));
    EXPECT_DETAIL_HAS("add_one");
}

TEST_F(Link, TwoStrongDefinitions_FailAtTheSecondAdd_AndTheStateStaysFailed)
{
    Logs logs;
    CUlinkState s;
    ASSERT_OK(logs.create(&s, false));
    ASSERT_OK(add_ptx(s, kDefs, "defs.ptx"));
    EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, add_ptx(s, kDefs, "again.ptx"));
    EXPECT_NE(nullptr, strstr(logs.err, "error   : Multiple definition of 'add_one' in 'again.ptx', first defined "
                                        "in 'defs.ptx'")) << logs.err;
    EXPECT_NE(nullptr, strstr(logs.err, "Multiple definition of 'counter'")) << logs.err;
    EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, add_ptx(s, kPickUser, "more.ptx"));
    void *image;
    size_t size;
    EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, cuLinkComplete(s, &image, &size));
    EXPECT_OK(cuLinkDestroy(s));

    ASSERT_OK(logs.create(&s, false));
    ASSERT_OK(add_ptx(s, kDefs, "defs.ptx"));
    EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, add_ptx(s, kCounterAgain, "var.ptx"));
    EXPECT_NE(nullptr, strstr(logs.err, "Multiple definition of 'counter' in 'var.ptx', first defined in 'defs.ptx'"));
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, APrototypeThatDiffers_FailsAtAdd)
{
    Logs logs;
    CUlinkState s;
    ASSERT_OK(logs.create(&s, false));
    ASSERT_OK(add_ptx(s, kUser, "user.ptx"));
    EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, add_ptx(s, kOtherPrototype, "other.ptx"));
    EXPECT_NE(nullptr, strstr(logs.err, "Prototype doesn't match for 'add_one' in 'other.ptx'")) << logs.err;
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, WeakDefinitions_TheFirstWins_AndAStrongOneWinsOverThem)
{
    std::string w1 = pick_def(".weak", 1), w2 = pick_def(".weak", 2), s3 = pick_def(".visible", 3);
    for (int strong = 0; strong < 2; ++strong) {
        CUlinkState s;
        ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
        ASSERT_OK(add_ptx(s, w1.c_str(), "w1"));
        if (strong) {
            ASSERT_OK(add_ptx(s, s3.c_str(), "s3"));
        }
        ASSERT_OK(add_ptx(s, w2.c_str(), "w2"));
        ASSERT_OK(add_ptx(s, kPickUser, "user"));
        void *image;
        size_t size;
        ASSERT_OK(cuLinkComplete(s, &image, &size));
        EXPECT_EQ(strong ? 3u : 1u, run_kern(image)[0]) << (strong ? "weak, strong, weak" : "weak, weak");
        EXPECT_OK(cuLinkDestroy(s));
    }
}

TEST_F(Link, NamesWithoutLinkage_StayEachInputsOwn)
{
    CUlinkState s;
    ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
    ASSERT_OK(add_ptx(s, kStatic1, "s1"));
    ASSERT_OK(add_ptx(s, kStatic2, "s2"));
    void *image;
    size_t size;
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    EXPECT_EQ(57u, run_kern(image)[0]); // 5 from s1's hidden through get1, 7 from s2's own
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, TheEnginesOwnFunctions_NeedNoDefinition)
{
    CUlinkState s;
    ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
    ASSERT_OK(add_ptx(s, kBuiltins, "builtins"));
    void *image;
    size_t size;
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    std::vector<unsigned> out = run_kern(image);
    EXPECT_TRUE(out[0] != 0 || out[1] != 0) << "malloc gave NULL";
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, MalformedPtx_IsInvalidPtxAtAdd_AndTheStateGoesOn)
{
    Logs logs;
    CUlinkState s;
    ASSERT_OK(logs.create(&s, false));
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, add_ptx(s, kMalformed, "bad.ptx"));
    EXPECT_NE(nullptr, strstr(logs.err, "bad.ptx:6")) << logs.err;
    EXPECT_NE(nullptr, strstr(logs.err, "frobnicate")) << logs.err;
    // As on the driver, the failed input is left out and the link goes on.
    ASSERT_OK(add_ptx(s, kUser, "user.ptx"));
    ASSERT_OK(add_ptx(s, kDefs, "defs.ptx"));
    void *image;
    size_t size;
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    EXPECT_EQ(1u, run_kern(image)[0]);
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, BadArguments_AreErrorsNotCrashes)
{
    CUlinkState s = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(0, nullptr, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1000000, nullptr, nullptr, &s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(0xffffffffu, nullptr, nullptr, &s));
    {
        CUjit_option o[2] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
        void *v[2] = {nullptr, (void *)64};
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(2, o, v, &s)); // a log option without its buffer
        CUjit_option bad = (CUjit_option)999;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, &bad, v, &s));
    }
    ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
              cuLinkAddData(nullptr, CU_JIT_INPUT_PTX, (void *)kDefs, strlen(kDefs) + 1, "d", 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkAddData((CUlinkState)(uintptr_t)0x12345678, CU_JIT_INPUT_PTX,
                                                       (void *)kDefs, strlen(kDefs) + 1, "d", 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuLinkAddData(s, (CUjitInputType)99, (void *)kDefs, strlen(kDefs) + 1, "d", 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
              cuLinkAddData(s, CU_JIT_INPUT_NVVM, (void *)kDefs, strlen(kDefs) + 1, "d", 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkAddData(s, CU_JIT_INPUT_PTX, nullptr, 10, "d", 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)kDefs, 0, "d", 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)kDefs, strlen(kDefs) + 1, "d", 5, nullptr, nullptr));
    // Data that is not what its type says.
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
              cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)"\x7f" "ELF garbage", 12, "d", 0, nullptr, nullptr));
    for (CUjitInputType t : {CU_JIT_INPUT_CUBIN, CU_JIT_INPUT_FATBINARY, CU_JIT_INPUT_OBJECT, CU_JIT_INPUT_LIBRARY}) {
        EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuLinkAddData(s, t, (void *)kDefs, strlen(kDefs) + 1, "d", 0, nullptr,
                                                         nullptr)) << "type " << t;
    }
    // Files.
    EXPECT_CU(CUDA_ERROR_FILE_NOT_FOUND, cuLinkAddFile(s, CU_JIT_INPUT_PTX, "/nonexistent/x.ptx", 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkAddFile(s, CU_JIT_INPUT_PTX, nullptr, 0, nullptr, nullptr));
    // PTX whose size leaves out the NUL is taken as it is.
    EXPECT_OK(cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)kDefs, strlen(kDefs), nullptr, 0, nullptr, nullptr));
    void *image = nullptr;
    size_t size = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkComplete(s, nullptr, &size));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkComplete(s, &image, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkComplete(nullptr, &image, &size));
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    // Completed: a second completion is answered as the driver answers it, and no more input.
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkComplete(s, &image, &size));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, add_ptx(s, kUser, "late"));
    EXPECT_OK(cuLinkDestroy(s));
    // Destroyed: every call says so.
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, add_ptx(s, kUser, "after"));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkComplete(s, &image, &size));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(nullptr));
}

TEST_F(Link, NoInputs_CompletesToAnEmptyModule)
{
    CUlinkState s;
    ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
    void *image;
    size_t size;
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, image));
    unsigned int count = 1;
    EXPECT_OK(cuModuleGetFunctionCount(&count, m));
    EXPECT_EQ(0u, count);
    EXPECT_OK(cuModuleUnload(m));
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, ObjectsArchivesAndFatBinaries_TheirPtxLinks)
{
    struct {
        const char *file;
        CUjitInputType type;
    } inputs[] = {{"b.o", CU_JIT_INPUT_OBJECT}, {"libb.a", CU_JIT_INPUT_LIBRARY}, {"b.fatbin", CU_JIT_INPUT_FATBINARY}};
    for (auto &in : inputs) {
        for (int from_memory = 0; from_memory < 2; ++from_memory) {
            CUlinkState s;
            ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
            ASSERT_OK(add_ptx(s, kUser, "user.ptx"));
            std::vector<char> data = read_data(in.file);
            ASSERT_FALSE(data.empty()) << data_path(in.file);
            if (from_memory) {
                ASSERT_OK(cuLinkAddData(s, in.type, data.data(), data.size(), in.file, 0, nullptr, nullptr));
            } else {
                ASSERT_OK(cuLinkAddFile(s, in.type, data_path(in.file).c_str(), 0, nullptr, nullptr));
            }
            void *image;
            size_t size;
            ASSERT_OK(cuLinkComplete(s, &image, &size)) << in.file;
            EXPECT_EQ((std::vector<unsigned>{1, 2, 3, 4}), run_kern(image)) << in.file;
            EXPECT_OK(cuLinkDestroy(s));
        }
    }
}

TEST_F(Link, MachineCodeAndMismatchedTypes_AreRefusedWithTheirCodes)
{
    CUlinkState s;
    ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
    EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU,
              cuLinkAddFile(s, CU_JIT_INPUT_FATBINARY, data_path("b_sass.fatbin").c_str(), 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU,
              cuLinkAddFile(s, CU_JIT_INPUT_CUBIN, data_path("b.cubin").c_str(), 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU,
              cuLinkAddFile(s, CU_JIT_INPUT_OBJECT, data_path("b.cubin").c_str(), 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
              cuLinkAddFile(s, CU_JIT_INPUT_PTX, data_path("b.o").c_str(), 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
              cuLinkAddFile(s, CU_JIT_INPUT_FATBINARY, data_path("b.o").c_str(), 0, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
              cuLinkAddFile(s, CU_JIT_INPUT_LIBRARY, data_path("b.o").c_str(), 0, nullptr, nullptr));
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, ClangRdcObjects_WhosePtxIsEmbeddedAsText_Link)
{
    // ExtmemCuda.cmake's clang -fgpu-rdc objects hold the unit's PTX text in __nv_relfatbin: one
    // made here by hand, an ELF64 object of that one section (and the section names).
    std::string ptx = kDefs;
    std::vector<unsigned char> o(64);
    const char names[] = "\0__nv_relfatbin\0.shstrtab";
    size_t ptx_at = o.size();
    o.insert(o.end(), ptx.begin(), ptx.end());
    o.push_back(0);
    size_t names_at = o.size();
    o.insert(o.end(), names, names + sizeof(names));
    while (o.size() % 8)
        o.push_back(0);
    size_t sh_at = o.size();
    o.resize(sh_at + 3 * 64);
    auto put = [&](size_t at, uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i)
            o[at + i] = (unsigned char)(v >> (8 * i));
    };
    memcpy(o.data(), "\x7f" "ELF\x02\x01\x01", 7);
    put(16, 1, 2);     // ET_REL
    put(18, 62, 2);    // x86-64
    put(0x28, sh_at, 8);
    put(0x3a, 64, 2);
    put(0x3c, 3, 2);
    put(0x3e, 2, 2);   // .shstrtab
    size_t s1 = sh_at + 64, s2 = sh_at + 128;
    put(s1, 1, 4);     // "__nv_relfatbin"
    put(s1 + 4, 1, 4); // SHT_PROGBITS
    put(s1 + 0x18, ptx_at, 8);
    put(s1 + 0x20, ptx.size() + 1, 8);
    put(s2, 16, 4);    // ".shstrtab"
    put(s2 + 4, 3, 4);
    put(s2 + 0x18, names_at, 8);
    put(s2 + 0x20, sizeof(names), 8);
    CUlinkState s;
    ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
    ASSERT_OK(add_ptx(s, kUser, "user.ptx"));
    ASSERT_OK(cuLinkAddData(s, CU_JIT_INPUT_OBJECT, o.data(), o.size(), "clang.o", 0, nullptr, nullptr));
    void *image;
    size_t size;
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    EXPECT_EQ(4u, run_kern(image)[3]);
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, AnArchiveWithoutPtxForTheDevice_AddsNothing_AndWhatIsNeededIsThenUndefined)
{
    // As numba adds libcudadevrt.a (SASS only): the archive is searched, and gives nothing.
    Logs logs;
    CUlinkState s;
    ASSERT_OK(logs.create(&s, true));
    ASSERT_OK(cuLinkAddFile(s, CU_JIT_INPUT_LIBRARY, data_path("libsass.a").c_str(), 0, nullptr, nullptr));
    EXPECT_NE(nullptr, strstr(logs.info, "nothing taken from it")) << logs.info;
    ASSERT_OK(add_ptx(s, kUser, "user.ptx"));
    void *image;
    size_t size;
    EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, cuLinkComplete(s, &image, &size));
    EXPECT_NE(nullptr, strstr(logs.err, "Undefined reference to 'add_one'")) << logs.err;
    EXPECT_OK(cuLinkDestroy(s));
}

TEST_F(Link, TruncatedObjectsArchivesAndFatBinaries_AreInvalidImages)
{
    for (const char *file : {"b.o", "libb.a", "b.fatbin"}) {
        std::vector<char> data = read_data(file);
        ASSERT_FALSE(data.empty());
        CUjitInputType type = file[2] == 'o' ? CU_JIT_INPUT_OBJECT
                              : file[0] == 'l' ? CU_JIT_INPUT_LIBRARY
                                               : CU_JIT_INPUT_FATBINARY;
        for (size_t cut : {(size_t)17, data.size() / 3, data.size() / 2, data.size() - 9}) {
            CUlinkState s;
            ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
            CUresult r = cuLinkAddData(s, type, data.data(), cut, file, 0, nullptr, nullptr);
            // An archive cut between members is an archive of fewer members: nothing taken.
            EXPECT_TRUE(r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_NO_BINARY_FOR_GPU ||
                        (r == CUDA_SUCCESS && type == CU_JIT_INPUT_LIBRARY))
                << file << " cut at " << cut << ": " << r << " " << extmem_error_detail();
            EXPECT_OK(cuLinkDestroy(s));
        }
    }
}

TEST_F(Link, ALinkedImage_LinksAgainAsAnInput)
{
    CUlinkState s;
    ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
    ASSERT_OK(add_ptx(s, kDefs, "defs.ptx"));
    void *image;
    size_t size;
    ASSERT_OK(cuLinkComplete(s, &image, &size));
    std::string first((const char *)image, size);
    EXPECT_OK(cuLinkDestroy(s));
    for (CUjitInputType t : {CU_JIT_INPUT_CUBIN, CU_JIT_INPUT_PTX}) {
        ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
        ASSERT_OK(cuLinkAddData(s, t, (void *)first.data(), first.size(), "linked before", 0, nullptr, nullptr));
        ASSERT_OK(add_ptx(s, kUser, "user.ptx"));
        ASSERT_OK(cuLinkComplete(s, &image, &size));
        EXPECT_EQ(2u, run_kern(image)[1]);
        EXPECT_OK(cuLinkDestroy(s));
    }
}

TEST_F(Link, WeakVariables_TheFirstWins_AndAStrongOneWinsOverThem)
{
    auto var = [](const char *linkage, int value) {
        return std::string(".version 8.0\n.target sm_80\n.address_size 64\n") + linkage +
               " .global .align 4 .u32 shared_value = " + std::to_string(value) + ";\n";
    };
    const char *user = R"(
.version 8.0
.target sm_80
.address_size 64
.extern .global .align 4 .u32 shared_value;
.visible .entry kern(.param .u64 out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    ld.global.u32 %r1, [shared_value];
    st.u32 [%rd1], %r1;
    ret;
}
)";
    std::string w1 = var(".weak", 11), w2 = var(".weak", 22), s3 = var(".visible", 33);
    for (int strong = 0; strong < 2; ++strong) {
        CUlinkState s;
        ASSERT_OK(cuLinkCreate(0, nullptr, nullptr, &s));
        ASSERT_OK(add_ptx(s, user, "user")); // declared before any definition
        ASSERT_OK(add_ptx(s, w1.c_str(), "w1"));
        if (strong) {
            ASSERT_OK(add_ptx(s, s3.c_str(), "s3"));
        }
        ASSERT_OK(add_ptx(s, w2.c_str(), "w2"));
        void *image;
        size_t size;
        ASSERT_OK(cuLinkComplete(s, &image, &size));
        CUmodule m;
        EXPECT_EQ(strong ? 33u : 11u, run_kern(image, &m)[0]);
        CUdeviceptr d;
        size_t bytes = 0;
        EXPECT_OK(cuModuleGetGlobal(&d, &bytes, m, "shared_value"));
        unsigned v = 0;
        EXPECT_OK(cuMemcpyDtoH(&v, d, 4));
        EXPECT_EQ(strong ? 33u : 11u, v);
        EXPECT_OK(cuModuleUnload(m));
        EXPECT_OK(cuLinkDestroy(s));
    }
}
