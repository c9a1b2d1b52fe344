// The whole surface (DESIGN.md §16): every function NVIDIA's CUDA 13.0 libcuda.so and
// libcudart.so.13 export is extmem's too, found by cuGetProcAddress exactly as NVIDIA's driver
// finds it, and a refused one answers with its code and a reason, never success.
#include "framework/testing.h"
#include "extmem/cuda_runtime_api.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

using namespace extmem_test;

namespace {

// An exported function of the library the test runs against, by name.
void *exported(const char *name)
{
#ifdef _WIN32
    HMODULE m = GetModuleHandleA("libextmem.dll");
    return m ? (void *)GetProcAddress(m, name) : nullptr;
#else
    return dlsym(RTLD_DEFAULT, name);
#endif
}

struct Refusal {
    CUresult code;
    const char *text;
};

const Refusal refusals[] = {
#define REFUSAL(id, code, text) {code, text},
#include "entry/refusals.h"
#undef REFUSAL
};

enum {
#define REFUSAL(id, code, text) WHY_##id,
#include "entry/refusals.h"
#undef REFUSAL
};

struct Refused {
    const char *symbol;
    int why;
};

const Refused refused_driver[] = {
#define DRV(symbol, base, version, ptds_version)
#define DRV_REFUSED(symbol, base, version, ptds_version, why) {#symbol, WHY_##why},
#include "entry/driver_api.h"
#undef DRV
#undef DRV_REFUSED
};

const Refused refused_runtime[] = {
#define RT(symbol)
#define RT_REFUSED(symbol, why) {#symbol, WHY_##why},
#include "runtime/runtime_api.h"
#undef RT
#undef RT_REFUSED
};

// Harmless arguments for any signature: a refused function reads none of them.
using AnyCall = int (*)(void *, void *, void *, void *, void *, void *);

} // namespace

TEST(EntryPoints, EveryAnswerOfNvidiasDriver_IsExtmemsAnswerForTheSameNameVersionAndFlag)
{
    // entry.out: "E <base> <version> <default|ptds> [code] <symbol|NULL> st=<status>", one line
    // each time NVIDIA's cuGetProcAddress changed its answer from one CUDA version to the next.
    std::ifstream in(EXTMEM_PROBE_DIR "/entry.out");
    ASSERT_TRUE(in.good()) << EXTMEM_PROBE_DIR "/entry.out";
    std::string line;
    int checked = 0;
    while (std::getline(in, line)) {
        if (line.rfind("E ", 0) != 0)
            continue;
        std::istringstream words(line.substr(2));
        std::string base, form, word, symbol, status;
        int version = 0;
        words >> base >> version >> form;
        std::string prev;
        while (words >> word) {
            symbol = prev;
            prev = word;
        }
        status = prev;
        if (version > 13000)
            continue; // newer than the driver: INVALID_VALUE, asserted in proc_address_test
        cuuint64_t flags = form == "ptds" ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : 0;
        void *fn = (void *)1;
        CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)77;
        ASSERT_OK(cuGetProcAddress_v2(base.c_str(), &fn, version, flags, &st)) << line;
        EXPECT_EQ("st=" + std::to_string((int)st), status) << line;
        if (symbol == "NULL")
            EXPECT_EQ(nullptr, fn) << line;
        else
            EXPECT_EQ(exported(symbol.c_str()), fn) << line << ": extmem answers another function";
        ++checked;
    }
    EXPECT_GT(checked, 1900); // every exported function's answers up to CUDA 13.0, both flags
}

TEST(EntryPoints, EveryRefusedDriverFunction_ReturnsItsCodeWithAReasonNamingIt)
{
    ASSERT_GT(sizeof(refused_driver) / sizeof(refused_driver[0]), 0u);
    for (const Refused &r : refused_driver) {
        void *fn = exported(r.symbol);
        ASSERT_NE(nullptr, fn) << r.symbol << " is not exported";
        int code = ((AnyCall)fn)(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
        EXPECT_EQ((int)refusals[r.why].code, code) << r.symbol;
        EXPECT_NE(CUDA_SUCCESS, code) << r.symbol;
        std::string detail = extmem_error_detail();
        EXPECT_EQ(0u, detail.find(std::string(r.symbol) + ": ")) << detail;
        EXPECT_NE(std::string::npos, detail.find(refusals[r.why].text)) << detail;
    }
}

TEST(EntryPoints, EveryRefusedRuntimeFunction_IsTheLastErrorWithAReasonNamingIt)
{
    ASSERT_GT(sizeof(refused_runtime) / sizeof(refused_runtime[0]), 0u);
    for (const Refused &r : refused_runtime) {
        void *fn = exported(r.symbol);
        ASSERT_NE(nullptr, fn) << r.symbol << " is not exported";
        int code = ((AnyCall)fn)(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
        EXPECT_EQ((int)cudaErrorNotSupported, code) << r.symbol;
        EXPECT_EQ(cudaErrorNotSupported, cudaGetLastError()) << r.symbol;
        std::string detail = extmem_error_detail();
        EXPECT_EQ(0u, detail.find(std::string(r.symbol) + ": ")) << detail;
    }
}

TEST(EntryPoints, ARefusedFunctionFoundByName_IsTheSameRefusal)
{
    // cuTensorMapEncodeTiled is handed out as NVIDIA's driver hands it out; calling it explains
    // itself. (cuArrayCreate was the example until arrays came.)
    void *fn = nullptr;
    CUdriverProcAddressQueryResult st;
    ASSERT_OK(cuGetProcAddress_v2("cuTensorMapEncodeTiled", &fn, 13000, 0, &st));
    ASSERT_EQ(CU_GET_PROC_ADDRESS_SUCCESS, st);
    ASSERT_EQ(exported("cuTensorMapEncodeTiled"), fn);
    EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, (CUresult)((AnyCall)fn)(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
    EXPECT_NE(nullptr, strstr(extmem_error_detail(), "tensor maps"));
}

TEST(EntryPoints, RuntimeDriverEntryPoints_AnswerAsNvidiasRuntime)
{
    // docs/probes/surface/probe.out, runtime part.
    void *fn = (void *)1;
    cudaDriverEntryPointQueryResult q = (cudaDriverEntryPointQueryResult)77;
    EXPECT_EQ(cudaSuccess, cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, cudaEnableDefault, &q));
    EXPECT_EQ(cudaDriverEntryPointSuccess, q);
    EXPECT_EQ(exported("cuMemAlloc_v2"), fn);
    fn = (void *)1;
    EXPECT_EQ(cudaSuccess, cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 12000, cudaEnableDefault, &q));
    EXPECT_EQ(cudaDriverEntryPointSymbolNotFound, q);
    EXPECT_EQ(nullptr, fn);
    EXPECT_EQ(cudaSuccess, cudaGetLastError()); // not an error
    EXPECT_EQ(cudaSuccess, cudaGetDriverEntryPointByVersion("cuMemCreate", &fn, 10000, cudaEnableDefault, &q));
    EXPECT_EQ(cudaDriverEntryPointVersionNotSufficent, q);
    EXPECT_EQ(nullptr, fn);
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 99999, cudaEnableDefault, &q));
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, 99, &q));
    EXPECT_EQ(cudaSuccess, cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, cudaEnableDefault, nullptr));
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError()); // the two refusals above
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetDriverEntryPointByVersion(nullptr, &fn, 12000, 0, &q));
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetDriverEntryPointByVersion("cuMemAlloc", nullptr, 12000, 0, &q));
    // The per-thread flag, and the deprecated form at the runtime's own version.
    EXPECT_EQ(cudaSuccess, cudaGetDriverEntryPointByVersion("cuMemcpyHtoD", &fn, 13000,
                                                            cudaEnablePerThreadDefaultStream, &q));
    EXPECT_EQ(exported("cuMemcpyHtoD_v2_ptds"), fn);
    EXPECT_EQ(cudaSuccess, cudaGetDriverEntryPointByVersion_ptsz("cuMemcpyHtoD", &fn, 13000, cudaEnableDefault, &q));
    EXPECT_EQ(exported("cuMemcpyHtoD_v2_ptds"), fn);
    EXPECT_EQ(cudaSuccess, cudaGetDriverEntryPoint("cuCtxCreate", &fn, cudaEnableDefault, &q));
    EXPECT_EQ(exported("cuCtxCreate_v4"), fn);
}

TEST(EntryPoints, ChannelDescriptors_HoldWhatTheyWereMadeOf)
{
    (void)cudaGetLastError();
    cudaChannelFormatDesc d = cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
    EXPECT_EQ(8, d.x);
    EXPECT_EQ(8, d.y);
    EXPECT_EQ(0, d.z);
    EXPECT_EQ(0, d.w);
    EXPECT_EQ(cudaChannelFormatKindUnsigned, d.f); // as the probe printed: 8 8 0 0 1
    EXPECT_EQ(cudaSuccess, cudaGetLastError());
}
