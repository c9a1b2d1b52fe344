// cuGetProcAddress: entry points by name and CUDA version.
#include "framework/testing.h"

using namespace extmem_test;

#undef cuGetProcAddress
extern "C" CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags);

TEST(ProcAddress, WorksBeforeCuInit)
{
    void *fn = nullptr;
    CUdriverProcAddressQueryResult status;
    EXPECT_OK(cuGetProcAddress_v2("cuMemAlloc", &fn, 13000, 0, &status));
    EXPECT_EQ((void *)&cuMemAlloc_v2, fn);
    EXPECT_EQ(CU_GET_PROC_ADDRESS_SUCCESS, status);
}

TEST(ProcAddress, PicksTheVariantOfTheRequestedVersion)
{
    void *fn = nullptr;
    CUdriverProcAddressQueryResult status;
    EXPECT_OK(cuGetProcAddress_v2("cuCtxCreate", &fn, 13000, 0, &status));
    EXPECT_EQ((void *)&cuCtxCreate_v4, fn);
    EXPECT_OK(cuGetProcAddress_v2("cuCtxCreate", &fn, 12000, 0, &status));
    EXPECT_EQ((void *)&cuCtxCreate_v3, fn);
    EXPECT_OK(cuGetProcAddress_v2("cuCtxCreate", &fn, 11000, 0, &status));
    EXPECT_EQ((void *)&cuCtxCreate_v2, fn);
    EXPECT_OK(cuGetProcAddress_v2("cuGetProcAddress", &fn, 13000, 0, &status));
    EXPECT_EQ((void *)&cuGetProcAddress_v2, fn);
    EXPECT_OK(cuGetProcAddress_v2("cuMemAlloc", &fn, -1, 0, &status)); // negative: the newest
    EXPECT_EQ((void *)&cuMemAlloc_v2, fn);
}

TEST(ProcAddress, UnknownNamesAndOldVersions_SucceedWithAStatus)
{
    void *fn = (void *)1;
    CUdriverProcAddressQueryResult status;
    EXPECT_OK(cuGetProcAddress_v2("cuNoSuchThing", &fn, 13000, 0, &status));
    EXPECT_EQ(nullptr, fn);
    EXPECT_EQ(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, status);
    EXPECT_OK(cuGetProcAddress_v2("cuMemAlloc_v2", &fn, 13000, 0, &status)); // names are base names
    EXPECT_EQ(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, status);
    EXPECT_OK(cuGetProcAddress_v2("cuMemAlloc", &fn, 1000, 0, &status));
    EXPECT_EQ(nullptr, fn);
    EXPECT_EQ(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, status);
    EXPECT_OK(cuGetProcAddress_v2("", &fn, 13000, 0, nullptr));
}

TEST(ProcAddress, BadArguments_AreInvalidValue)
{
    void *fn = (void *)1;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress_v2("cuMemAlloc", &fn, 13000, 4, &status));
    EXPECT_EQ((void *)1, fn); // nothing is written
    EXPECT_EQ(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, status);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress_v2("cuMemAlloc", &fn, 99999, 0, &status));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress_v2(nullptr, &fn, 13000, 0, &status));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress_v2("cuMemAlloc", nullptr, 13000, 0, &status));
}

TEST(ProcAddress, PerThreadFlag_GivesThePerThreadStreamVariant)
{
    ASSERT_OK(cuInit(0));
    void *legacy = nullptr, *ptds = nullptr;
    CUdriverProcAddressQueryResult status;
    EXPECT_OK(cuGetProcAddress_v2("cuMemcpyHtoD", &legacy, 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status));
    EXPECT_OK(cuGetProcAddress_v2("cuMemcpyHtoD", &ptds, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status));
    EXPECT_EQ((void *)&cuMemcpyHtoD_v2, legacy);
    EXPECT_NE(legacy, ptds); // as on the driver
    void *alloc = nullptr;
    EXPECT_OK(cuGetProcAddress_v2("cuMemAlloc", &alloc, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status));
    EXPECT_EQ((void *)&cuMemAlloc_v2, alloc); // no stream: one variant
}

TEST(ProcAddress, TheCuda113Form_ReturnsNotFound)
{
    void *fn = (void *)1;
    EXPECT_OK(cuGetProcAddress("cuInit", &fn, 11030, 0));
    EXPECT_EQ((void *)&cuInit, fn);
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuGetProcAddress("cuNoSuchThing", &fn, 11030, 0));
}

TEST(ProcAddress, EveryNameResolvesAndWorks)
{
    ASSERT_OK(cuInit(0));
    void *fn = nullptr;
    CUdriverProcAddressQueryResult status;
    ASSERT_OK(cuGetProcAddress_v2("cuDeviceGetCount", &fn, 13000, 0, &status));
    int count = 0;
    EXPECT_OK(((CUresult(*)(int *))fn)(&count));
    EXPECT_EQ(1, count);
    const char *names[] = {"cuMemcpyHtoD", "cuMemsetD8Async", "cuStreamCreate", "cuEventElapsedTime",
                           "cuLaunchHostFunc", "cuDevicePrimaryCtxRelease", "cuPointerGetAttributes",
                           "cuModuleLoadData", "cuModuleGetGlobal", "cuLaunchKernel", "cuLaunchKernelEx",
                           "cuLibraryLoadData", "cuKernelGetFunction", "cuFuncGetAttribute",
                           "cuOccupancyMaxPotentialBlockSize"};
    for (const char *n : names) {
        EXPECT_OK(cuGetProcAddress_v2(n, &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status));
        EXPECT_NE(nullptr, fn) << n;
    }
}
