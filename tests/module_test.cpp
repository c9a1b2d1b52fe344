// Modules, libraries and functions (BEHAVIOR.md "Modules and kernels"; docs/kernels.md):
// loading PTX and fat binaries, names, globals, attributes, JIT logs, unloading, handles.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

using namespace extmem_test;

using Module = ContextTest;

namespace {

// out[i] += value for threads below n; `scale` is a .global the kernel adds too, and the
// module has a .const table.
const char *kPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .global .align 4 .u32 scale = 0;
.visible .const .align 4 .u32 table[4] = {1, 2, 3, 4};
.visible .entry add_value(.param .u64 out, .param .u32 value, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [value];
    ld.param.u32 %r2, [n];
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %ctaid.x;
    mov.u32 %r5, %ntid.x;
    mad.lo.s32 %r6, %r4, %r5, %r3;
    setp.ge.s32 %p1, %r6, %r2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.s32 %rd2, %r6, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r7, [%rd3];
    add.s32 %r7, %r7, %r1;
    ld.global.u32 %r8, [scale];
    add.s32 %r7, %r7, %r8;
    st.global.u32 [%rd3], %r7;
DONE:
    ret;
}
.visible .entry bounded(.param .u64 out) .maxntid 128, 1, 1
{
    .shared .align 4 .b8 buf[256];
    ret;
}
)";

// tests/data/fatbin, from the source folder CMake names (not __FILE__: a compiler cache that
// makes paths relative to the checkout, as scripts/test.sh's does, makes __FILE__ relative too).
std::string data_dir()
{
    return std::string(EXTMEM_TEST_SOURCE_DIR) + "/data/fatbin/";
}

std::vector<unsigned char> read_file(const std::string &name)
{
    std::ifstream in(data_dir() + name, std::ios::binary);
    return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

// Runs add_value of f over 64 ints that start at i, adding value; returns the results.
std::vector<int> run_add(CUfunction f, int value)
{
    std::vector<int> host(64);
    for (int i = 0; i < 64; ++i)
        host[i] = i;
    CUdeviceptr d;
    EXPECT_OK(cuMemAlloc(&d, host.size() * 4));
    EXPECT_OK(cuMemcpyHtoD(d, host.data(), host.size() * 4));
    int n = 64;
    void *params[] = {&d, &value, &n};
    EXPECT_OK(cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_OK(cuMemcpyDtoH(host.data(), d, host.size() * 4));
    EXPECT_OK(cuMemFree(d));
    return host;
}

// Loads a checked-in fat binary and runs its kernel; the kernel adds 5 to each element.
void expect_fatbin_runs(const char *file)
{
    std::vector<unsigned char> image = read_file(file);
    ASSERT_FALSE(image.empty()) << file;
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, image.data())) << file;
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "add_value"));
    std::vector<int> out = run_add(f, 5);
    EXPECT_EQ(5, out[0]);
    EXPECT_EQ(68, out[63]);
    EXPECT_OK(cuModuleUnload(m));
}

} // namespace

TEST_F(Module, LoadDataNull_IsInvalidValue)
{
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleLoadData(&m, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleLoadData(nullptr, kPtx));
}

TEST_F(Module, PtxWithAnUnknownInstruction_IsInvalidPtxNamingIt)
{
    std::string text = ".version 7.5\n.target sm_75\n.address_size 64\n"
                       ".visible .entry k()\n{\n    frobnicate.u32 %r1;\n    ret;\n}\n";
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&m, text.c_str()));
    EXPECT_DETAIL_HAS("frobnicate");
}

TEST_F(Module, TextThatIsNeitherPtxNorAFatBinary_IsInvalidImage)
{
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&m, "hello, world"));
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&m, ""));
}

TEST_F(Module, AnElfCubin_IsNoBinaryForGpu)
{
    const unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadData(&m, elf));
    EXPECT_DETAIL_HAS("SASS");
}

TEST_F(Module, NamesTheModuleLacks_AreNotFound)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    CUdeviceptr p;
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetFunction(&f, m, "missing"));
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetGlobal(&p, nullptr, m, "missing"));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleGetFunction(&f, m, nullptr));
    EXPECT_OK(cuModuleUnload(m));
}

TEST_F(Module, NullOrUnloadedModulesAndTheirFunctions_AreInvalidHandle)
{
    CUfunction f;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunction(&f, nullptr, "add_value"));
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    ASSERT_OK(cuModuleGetFunction(&f, m, "add_value"));
    CUfunction again;
    ASSERT_OK(cuModuleGetFunction(&again, m, "add_value"));
    EXPECT_EQ(f, again); // one handle per kernel, as on the driver
    ASSERT_OK(cuModuleUnload(m));
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunction(&f, m, "add_value"));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(m));
}

TEST_F(Module, ForgedHandles_AreInvalidHandle)
{
    CUfunction f;
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunction(&f, (CUmodule)(uintptr_t)0x12345670, "k"));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload((CUmodule)(uintptr_t)0xdeadbeef0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)(uintptr_t)0x55));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    // A live handle of another type is not a function either.
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)(void *)s));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Module, FuncGetAttribute_ReportsLimitsSharedMemoryAndTheTarget)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction plain, bounded;
    ASSERT_OK(cuModuleGetFunction(&plain, m, "add_value"));
    ASSERT_OK(cuModuleGetFunction(&bounded, m, "bounded"));
    int v = -1;
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, plain));
    EXPECT_EQ(1024, v);
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, bounded));
    EXPECT_EQ(128, v);
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, bounded));
    EXPECT_EQ(256, v);
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, plain));
    EXPECT_EQ(75, v);
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, plain));
    EXPECT_EQ(80, v);
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, plain));
    EXPECT_EQ(16, v);
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, plain));
    EXPECT_GT(v, 0);
    EXPECT_LE(v, 255);
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bounded));
    EXPECT_EQ(48 * 1024 - 256, v);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncGetAttribute(&v, (CUfunction_attribute)999, plain));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncGetAttribute(nullptr, CU_FUNC_ATTRIBUTE_NUM_REGS, plain));
    const char *name = nullptr;
    EXPECT_OK(cuFuncGetName(&name, bounded));
    EXPECT_STREQ("bounded", name);
    size_t offset = 0, size = 0;
    EXPECT_OK(cuFuncGetParamInfo(plain, 2, &offset, &size));
    EXPECT_EQ(12u, offset);
    EXPECT_EQ(4u, size);
    CUmodule owner;
    EXPECT_OK(cuFuncGetModule(&owner, plain));
    EXPECT_EQ(m, owner);
    EXPECT_OK(cuModuleUnload(m));
}

TEST_F(Module, FuncSetAttribute_RaisesDynamicSharedMemoryWithinTheOptInLimit)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "add_value"));
    EXPECT_OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100 * 1024));
    int v = 0;
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    EXPECT_EQ(100 * 1024, v);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 200 * 1024));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, 3));
    // a required cluster shape is kept (the H100 takes it too); a launch checks it (Clusters.*)
    EXPECT_OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 2));
    EXPECT_OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f));
    EXPECT_EQ(2, v);
    EXPECT_OK(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_SHARED));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetCacheConfig(f, (CUfunc_cache)7));
    EXPECT_OK(cuModuleUnload(m));
}

TEST_F(Module, GetGlobal_GivesDeviceMemoryThatCopiesAndKernelsShare)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUdeviceptr scale = 0, table = 0;
    size_t bytes = 0;
    ASSERT_OK(cuModuleGetGlobal(&scale, &bytes, m, "scale"));
    EXPECT_EQ(4u, bytes);
    EXPECT_OK(cuModuleGetGlobal(&table, nullptr, m, "table"));
    EXPECT_OK(cuModuleGetGlobal(nullptr, &bytes, m, "table"));
    EXPECT_EQ(16u, bytes);
    uint32_t t[4] = {};
    EXPECT_OK(cuMemcpyDtoH(t, table, sizeof(t)));
    EXPECT_EQ(3u, t[2]); // the initialiser
    uint32_t hundred = 100;
    ASSERT_OK(cuMemcpyHtoD(scale, &hundred, 4));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "add_value"));
    std::vector<int> out = run_add(f, 1);
    EXPECT_EQ(101, out[0]);
    EXPECT_EQ(164, out[63]);
    // Only the module frees its variables.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(scale));
    EXPECT_OK(cuModuleUnload(m));
}

TEST_F(Module, JitLogBuffers_ReceiveTheErrorAndTheSizeUsed)
{
    std::string bad = ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n    bogus.op;\n}\n";
    char info[256] = "x", error[256] = "x";
    CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                           CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE, CU_JIT_OPTIMIZATION_LEVEL,
                           CU_JIT_TARGET_FROM_CUCONTEXT, CU_JIT_GENERATE_LINE_INFO, CU_JIT_CACHE_MODE};
    void *values[] = {info, (void *)(uintptr_t)sizeof(info), error, (void *)(uintptr_t)sizeof(error),
                      (void *)(uintptr_t)1, (void *)(uintptr_t)3, nullptr, (void *)(uintptr_t)1,
                      (void *)(uintptr_t)CU_JIT_CACHE_OPTION_CA};
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadDataEx(&m, bad.c_str(), 9, opts, values));
    EXPECT_NE(nullptr, strstr(error, "bogus")) << error;
    EXPECT_EQ(strlen(error), (size_t)(uintptr_t)values[3]);

    void *ok_values[] = {info, (void *)(uintptr_t)sizeof(info), error, (void *)(uintptr_t)sizeof(error),
                         (void *)(uintptr_t)0, (void *)(uintptr_t)4, nullptr, (void *)(uintptr_t)0,
                         (void *)(uintptr_t)0};
    ASSERT_OK(cuModuleLoadDataEx(&m, kPtx, 9, opts, ok_values));
    EXPECT_NE(nullptr, strstr(info, "extmem")) << info;
    EXPECT_EQ(strlen(info), (size_t)(uintptr_t)ok_values[1]);
    EXPECT_EQ(0u, (size_t)(uintptr_t)ok_values[3]);
    EXPECT_STREQ("", error);
    EXPECT_OK(cuModuleUnload(m));
}

TEST_F(Module, JitOptionsOutsideTheirRange_AreInvalidValue)
{
    CUmodule m;
    CUjit_option unknown = (CUjit_option)77;
    void *v = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleLoadDataEx(&m, kPtx, 1, &unknown, &v));
    CUjit_option level = CU_JIT_OPTIMIZATION_LEVEL;
    void *five = (void *)(uintptr_t)5;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleLoadDataEx(&m, kPtx, 1, &level, &five));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleLoadDataEx(&m, kPtx, 1, nullptr, &five));
    CUjit_option wall = CU_JIT_WALL_TIME;
    void *time = nullptr;
    ASSERT_OK(cuModuleLoadDataEx(&m, kPtx, 1, &wall, &time));
    float ms = -1;
    memcpy(&ms, &time, sizeof(ms));
    EXPECT_GE(ms, 0.0f);
    EXPECT_OK(cuModuleUnload(m));
}

TEST_F(Module, LoadingMode_IsLazyByDefault)
{
    CUmoduleLoadingMode mode;
    ASSERT_OK(cuModuleGetLoadingMode(&mode));
    EXPECT_EQ(CU_MODULE_LAZY_LOADING, mode);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleGetLoadingMode(nullptr));
}

TEST_F(Module, FatBinaryWithStoredPtx_LoadsAndRuns) { expect_fatbin_runs("ptx75.fatbin"); }
#if defined(_WIN32)
// The Windows build has no libzstd or liblz4 (mingw-w64): a compressed entry is refused with
// the reason, never read as something else.
void expect_compressed_refused(const char *file, const char *library)
{
    std::vector<unsigned char> image = read_file(file);
    ASSERT_FALSE(image.empty()) << file;
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuModuleLoadData(&m, image.data())) << file;
    EXPECT_DETAIL_HAS(library);
}
TEST_F(Module, FatBinaryWithZstdCompressedPtx_IsNotSupportedWithoutLibzstd)
{
    expect_compressed_refused("ptx75_zstd.fatbin", "libzstd");
}
TEST_F(Module, FatBinaryWithLz4CompressedPtx_IsNotSupportedWithoutLiblz4)
{
    expect_compressed_refused("ptx75_lz4.fatbin", "liblz4");
}
#else
TEST_F(Module, FatBinaryWithZstdCompressedPtx_LoadsAndRuns) { expect_fatbin_runs("ptx75_zstd.fatbin"); }
TEST_F(Module, FatBinaryWithLz4CompressedPtx_LoadsAndRuns) { expect_fatbin_runs("ptx75_lz4.fatbin"); }
#endif
TEST_F(Module, FatBinaryWithPtxAndSassForSeveralTargets_UsesThePtx) { expect_fatbin_runs("multi.fatbin"); }

TEST_F(Module, FatBinaryWrapper_PointsToTheContainerItLoads)
{
    std::vector<unsigned char> image = read_file("ptx75.fatbin");
    ASSERT_FALSE(image.empty());
    struct {
        uint32_t magic, version;
        const void *data, *unused;
    } wrapper = {0x466243B1u, 1, image.data(), nullptr};
    CUmodule m;
    ASSERT_OK(cuModuleLoadFatBinary(&m, &wrapper));
    CUfunction f;
    EXPECT_OK(cuModuleGetFunction(&f, m, "add_value"));
    EXPECT_OK(cuModuleUnload(m));
}

TEST_F(Module, FatBinaryWithSassOnly_IsNoBinaryForGpuNamingTheArchitecture)
{
    std::vector<unsigned char> image = read_file("sass90.fatbin");
    ASSERT_FALSE(image.empty());
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadData(&m, image.data()));
    EXPECT_DETAIL_HAS("SASS for sm_90");
}

TEST_F(Module, FatBinaryWithPtxOnlyForANewerTarget_IsNoBinaryForGpu)
{
    std::vector<unsigned char> image = read_file("ptx90.fatbin");
    ASSERT_FALSE(image.empty());
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadData(&m, image.data()));
    EXPECT_DETAIL_HAS("compute_90");
}

TEST_F(Module, TruncatedFatBinary_IsInvalidImage)
{
    std::vector<unsigned char> image = read_file("ptx75.fatbin");
    ASSERT_GE(image.size(), 16u);
    // The header's size stays that of the whole container; the file ends in the first entry.
    std::vector<unsigned char> cut(image.begin(), image.begin() + 16 + 40);
    std::string path = testing::TempDir() + "extmem_truncated.fatbin";
    std::ofstream(path, std::ios::binary).write((const char *)cut.data(), (std::streamsize)cut.size());
    CUmodule m;
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoad(&m, path.c_str()));
    std::remove(path.c_str());
}

TEST_F(Module, LoadFromAFile_ReadsPtxAndFatBinaries)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoad(&m, (data_dir() + "ptx75.fatbin").c_str()));
    CUfunction f;
    EXPECT_OK(cuModuleGetFunction(&f, m, "add_value"));
    EXPECT_OK(cuModuleUnload(m));
    EXPECT_CU(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&m, (data_dir() + "no-such-file.ptx").c_str()));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleLoad(&m, nullptr));
}

TEST_F(Module, FunctionCountAndEnumeration_ListTheKernels)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    unsigned n = 0;
    ASSERT_OK(cuModuleGetFunctionCount(&n, m));
    EXPECT_EQ(2u, n);
    CUfunction fs[2];
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleEnumerateFunctions(fs, 1, m));
    ASSERT_OK(cuModuleEnumerateFunctions(fs, 2, m));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "bounded"));
    EXPECT_EQ(f, fs[1]);
    EXPECT_OK(cuModuleUnload(m));
}

// The unload waits for a launch queued behind a slow host function, then frees the module.
TEST_F(Module, Unload_WaitsForQueuedLaunchesOfTheModule)
{
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "add_value"));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d;
    ASSERT_OK(cuMemAlloc(&d, 64 * 4));
    ASSERT_OK(cuMemsetD32(d, 0, 64));
    static std::atomic<bool> slept;
    slept = false;
    ASSERT_OK(cuLaunchHostFunc(s, [](void *) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        slept = true;
    }, nullptr));
    int value = 7, n = 64;
    void *params[] = {&d, &value, &n};
    ASSERT_OK(cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, s, params, nullptr));
    ASSERT_OK(cuModuleUnload(m));
    EXPECT_TRUE(slept.load());
    EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(s)); // the kernel ran before the unload returned
    std::vector<int> out(64);
    ASSERT_OK(cuMemcpyDtoH(out.data(), d, 64 * 4));
    EXPECT_EQ(7, out[0]);
    EXPECT_EQ(7, out[63]);
    EXPECT_OK(cuMemFree(d));
    EXPECT_OK(cuStreamDestroy(s));
}

// Modules die with their context: the handle is invalid afterwards, and nothing leaks.
TEST(ModuleContext, DestroyingTheContext_UnloadsItsModules)
{
    ASSERT_OK(cuInit(0));
    CUcontext ctx;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    CUmodule m;
    ASSERT_OK(cuModuleLoadData(&m, kPtx));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "add_value"));
    ASSERT_OK(cuCtxDestroy(ctx));
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(m));
    EXPECT_OK(cuCtxDestroy(ctx));
}

TEST_F(Module, Library_LoadsPerContextAndGivesKernelsFunctionsAndGlobals)
{
    CUlibrary lib;
    ASSERT_OK(cuLibraryLoadData(&lib, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0));
    unsigned n = 0;
    EXPECT_OK(cuLibraryGetKernelCount(&n, lib));
    EXPECT_EQ(2u, n);
    CUkernel k;
    ASSERT_OK(cuLibraryGetKernel(&k, lib, "add_value"));
    CUkernel missing;
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuLibraryGetKernel(&missing, lib, "nope"));
    const char *name = nullptr;
    EXPECT_OK(cuKernelGetName(&name, k));
    EXPECT_STREQ("add_value", name);
    CUfunction f;
    ASSERT_OK(cuKernelGetFunction(&f, k));
    CUmodule m;
    ASSERT_OK(cuLibraryGetModule(&m, lib));
    CUmodule owner;
    EXPECT_OK(cuFuncGetModule(&owner, f));
    EXPECT_EQ(m, owner);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleUnload(m)); // the library's to unload
    CUdeviceptr scale;
    size_t bytes;
    ASSERT_OK(cuLibraryGetGlobal(&scale, &bytes, lib, "scale"));
    EXPECT_EQ(4u, bytes);
    // A CUkernel goes wherever a CUfunction does.
    std::vector<int> out = run_add((CUfunction)(void *)k, 2);
    EXPECT_EQ(2, out[0]);
    int v = 0;
    EXPECT_OK(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 0));
    EXPECT_EQ(1024, v);
    CUlibrary back;
    EXPECT_OK(cuKernelGetLibrary(&back, k));
    EXPECT_EQ(lib, back);
    ASSERT_OK(cuLibraryUnload(lib));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetFunction(&f, k));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(lib));
}

TEST_F(Module, LibraryOfABadImage_FailsAtLoad)
{
    CUlibrary lib;
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuLibraryLoadData(&lib, "not ptx", nullptr, nullptr, 0, nullptr, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryLoadData(&lib, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0));
    CUlibraryOption opt = CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE;
    void *val = nullptr;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuLibraryLoadData(&lib, kPtx, nullptr, nullptr, 0, &opt, &val, 1));
    ASSERT_OK(cuLibraryLoadFromFile(&lib, (data_dir() + "ptx75.fatbin").c_str(), nullptr, nullptr, 0, nullptr,
                                    nullptr, 0));
    EXPECT_OK(cuLibraryUnload(lib));
}

TEST_F(Module, DeviceAttributes_DescribeAnSm80ClassDevice)
{
    int v = 0;
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
    EXPECT_EQ(32, v);
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
    EXPECT_EQ(8, v);
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
    EXPECT_EQ(0, v);
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 0));
    EXPECT_EQ(48 * 1024, v);
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 0));
    EXPECT_EQ(163 * 1024, v);
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 0));
    EXPECT_EQ(2048, v);
}
