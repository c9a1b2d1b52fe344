// Every failure explains itself: names, strings, the thread's detail, and EXTMEM_LOG.
#include "framework/testing.h"

#include <cstdio>
#include <fcntl.h>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>

using namespace extmem_test;

TEST(ErrorNames, KnownCodes_HaveNamesAndStrings)
{
    const struct {
        CUresult code;
        const char *name;
        const char *text;
    } known[] = {
        {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
        {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
        {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
        {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
        {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
        {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
        {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
        {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
        {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
        {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
        {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
    };
    for (auto &k : known) {
        const char *s = nullptr;
        EXPECT_OK(cuGetErrorName(k.code, &s));
        EXPECT_STREQ(k.name, s);
        EXPECT_OK(cuGetErrorString(k.code, &s));
        EXPECT_STREQ(k.text, s);
    }
}

TEST(ErrorNames, EveryCodeBetween0And999_HasANameIffItHasAString)
{
    int named = 0;
    for (int c = 0; c <= 1000; ++c) {
        const char *n = nullptr, *s = nullptr;
        CUresult rn = cuGetErrorName((CUresult)c, &n);
        CUresult rs = cuGetErrorString((CUresult)c, &s);
        EXPECT_EQ(rn, rs) << c;
        if (rn == CUDA_SUCCESS) {
            ++named;
            EXPECT_EQ(0, strncmp(n, "CUDA_", 5)) << n;
            EXPECT_GT(strlen(s), 0u);
        }
    }
    EXPECT_GT(named, 90);
}

TEST(ErrorNames, UnknownCodesAndNull_AreInvalidValue)
{
    const char *s = "unchanged";
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorName((CUresult)12345, &s));
    EXPECT_EQ(nullptr, s);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorString((CUresult)12345, &s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorName(CUDA_SUCCESS, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(CUDA_SUCCESS, nullptr));
}

TEST(ErrorDetail, NamesTheFunctionAndTheReason_AndIsPerThread)
{
    ASSERT_OK(cuInit(0));
    extmem_error_clear();
    EXPECT_STREQ("", extmem_error_detail());
    EXPECT_EQ(CUDA_SUCCESS, extmem_error_code());
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 5));
    EXPECT_STREQ("cuDeviceGetAttribute: device 5 does not exist: the software device is ordinal 0",
                 extmem_error_detail());
    EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, extmem_error_code());
    std::string other;
    std::thread([&] { other = extmem_error_detail(); }).join();
    EXPECT_EQ("", other);
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0)); // success keeps the detail
    EXPECT_NE(std::string(""), extmem_error_detail());
}

TEST(ErrorLog, ErrorLevel_PrintsEachFailureToStderr)
{
    fflush(stderr);
    char path[] = "/tmp/extmem-log-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    int saved = dup(2);
    dup2(fd, 2);
    extmem_log_set(1);
    int count;
    cuDeviceGetCount(&count); // before cuInit: fails
    extmem_log_set(0);
    cuDeviceGetCount(&count); // silent
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char buf[1024] = {0};
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    close(fd);
    unlink(path);
    ASSERT_GT(n, 0);
    std::string text(buf);
    EXPECT_NE(std::string::npos, text.find("extmem: error: cuDeviceGetCount: cuInit has not been called "
                                           "[CUDA_ERROR_NOT_INITIALIZED]"))
        << text;
    EXPECT_EQ(text.find("cuDeviceGetCount"), text.rfind("cuDeviceGetCount")) << "printed twice: " << text;
}

TEST(ErrorLog, EnvironmentVariable_TurnsLoggingOn)
{
    auto r = run_in_child([] {
        setenv("EXTMEM_LOG", "error", 1);
        int devnull = open("/dev/null", 1);
        dup2(devnull, 2);
        int count;
        cuDeviceGetCount(&count);
        return 0;
    });
    EXPECT_TRUE(r.exited);
    EXPECT_EQ(0, r.exit_code);
}
