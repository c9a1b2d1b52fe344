// What a stream is told and answers besides its work: attributes, callbacks, capture status;
// and their runtime twins.
#include "framework/testing.h"
#include "extmem/cuda_runtime_api.h"

#include <atomic>
#include <cstring>

using namespace extmem_test;

using StreamAttributes = ContextTest;

TEST_F(StreamAttributes, EachAttributeSet_IsReadBack)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUstreamAttrValue v;
    memset(&v, 0, sizeof v);
    static char window[4096];
    v.accessPolicyWindow.base_ptr = window;
    v.accessPolicyWindow.num_bytes = sizeof window;
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
    v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
    EXPECT_OK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
    memset(&v, 0, sizeof v);
    v.syncPolicy = CU_SYNC_POLICY_YIELD;
    EXPECT_OK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    v.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
    EXPECT_OK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, &v));
    v.priority = -3;
    EXPECT_OK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));

    CUstreamAttrValue out;
    EXPECT_OK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &out));
    EXPECT_EQ((void *)window, out.accessPolicyWindow.base_ptr);
    EXPECT_EQ(sizeof window, out.accessPolicyWindow.num_bytes);
    EXPECT_EQ(0.5f, out.accessPolicyWindow.hitRatio);
    EXPECT_EQ(CU_ACCESS_PROPERTY_PERSISTING, out.accessPolicyWindow.hitProp);
    EXPECT_OK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &out));
    EXPECT_EQ(CU_SYNC_POLICY_YIELD, out.syncPolicy);
    EXPECT_OK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, &out));
    EXPECT_EQ(CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE, out.memSyncDomain);
    EXPECT_OK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &out));
    EXPECT_EQ(-3, out.priority);
    int priority = 0;
    EXPECT_OK(cuStreamGetPriority(s, &priority)); // the same priority
    EXPECT_EQ(-3, priority);
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(StreamAttributes, APriorityOutOfRange_IsClampedAsAtCreation)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    CUstreamAttrValue v;
    memset(&v, 0, sizeof v);
    v.priority = -100;
    EXPECT_OK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    EXPECT_OK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    EXPECT_EQ(-5, v.priority); // the H100's greatest priority
    v.priority = 100;
    EXPECT_OK(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    EXPECT_OK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    EXPECT_EQ(0, v.priority);
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(StreamAttributes, BadValuesAndUnknownAttributes_AreInvalidValueAndChangeNothing)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    CUstreamAttrValue v;
    memset(&v, 0, sizeof v);
    v.syncPolicy = (CUsynchronizationPolicy)9;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    EXPECT_DETAIL_HAS("syncPolicy");
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow.hitRatio = 1.5f;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_PERSISTING; // "NORMAL or STREAMING"
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetAttribute(s, (CUstreamAttrID)99, &v));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, nullptr));
    EXPECT_OK(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    EXPECT_EQ(CU_SYNC_POLICY_AUTO, v.syncPolicy); // untouched
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v)); // destroyed
}

TEST_F(StreamAttributes, DefaultStreams_AnswerTheDefaultsAndCannotBeChanged)
{
    CUstreamAttrValue v;
    memset(&v, 0, sizeof v);
    EXPECT_OK(cuStreamGetAttribute(nullptr, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    EXPECT_EQ(CU_SYNC_POLICY_AUTO, v.syncPolicy);
    EXPECT_OK(cuStreamGetAttribute(CU_STREAM_PER_THREAD, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    EXPECT_EQ(0, v.priority);
    v.priority = -1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamSetAttribute(nullptr, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    EXPECT_DETAIL_HAS("default streams");
}

TEST_F(StreamAttributes, CopyAttributes_GivesTheDestinationEveryAttribute)
{
    CUstream a, b;
    ASSERT_OK(cuStreamCreate(&a, 0));
    ASSERT_OK(cuStreamCreate(&b, 0));
    CUstreamAttrValue v;
    memset(&v, 0, sizeof v);
    v.syncPolicy = CU_SYNC_POLICY_BLOCKING_SYNC;
    ASSERT_OK(cuStreamSetAttribute(a, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    v.priority = -2;
    ASSERT_OK(cuStreamSetAttribute(a, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    EXPECT_OK(cuStreamCopyAttributes(b, a));
    EXPECT_OK(cuStreamGetAttribute(b, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
    EXPECT_EQ(CU_SYNC_POLICY_BLOCKING_SYNC, v.syncPolicy);
    EXPECT_OK(cuStreamGetAttribute(b, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
    EXPECT_EQ(-2, v.priority);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCopyAttributes(nullptr, a));
    EXPECT_OK(cuStreamDestroy(a));
    EXPECT_OK(cuStreamDestroy(b));
}

namespace {
struct Called {
    std::atomic<int> count{0};
    CUstream stream = nullptr;
    CUresult status = CUDA_ERROR_UNKNOWN;
    static void CUDA_CB callback(CUstream s, CUresult status, void *p)
    {
        auto *c = static_cast<Called *>(p);
        c->stream = s;
        c->status = status;
        c->count++;
    }
};
} // namespace

TEST_F(StreamAttributes, AddCallback_RunsInOrderWithTheStreamAndSuccess)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    Called c;
    EXPECT_OK(cuStreamAddCallback(s, Called::callback, &c, 0));
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(1, c.count.load());
    EXPECT_EQ(s, c.stream);
    EXPECT_EQ(CUDA_SUCCESS, c.status);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(s, nullptr, &c, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(s, Called::callback, &c, 1)); // "must be 0"
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(1, c.count.load());
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamAddCallback(s, Called::callback, &c, 0));
}

TEST_F(StreamAttributes, NoStreamIsEverCapturing)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_ACTIVE;
    EXPECT_OK(cuStreamIsCapturing(s, &st));
    EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);
    st = CU_STREAM_CAPTURE_STATUS_ACTIVE;
    EXPECT_OK(cuStreamIsCapturing(nullptr, &st));
    EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, st);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamIsCapturing(s, nullptr));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST(RuntimeStreamAttributes, TheRuntimeTwins_AnswerAsTheDriver)
{
    cudaStream_t s;
    ASSERT_EQ(cudaSuccess, cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -100));
    int priority = 0;
    EXPECT_EQ(cudaSuccess, cudaStreamGetPriority(s, &priority));
    EXPECT_EQ(-5, priority); // clamped, as the H100 does
    unsigned int flags = 0;
    EXPECT_EQ(cudaSuccess, cudaStreamGetFlags(s, &flags));
    EXPECT_EQ((unsigned)cudaStreamNonBlocking, flags);
    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);
    v.syncPolicy = cudaSyncPolicySpin;
    EXPECT_EQ(cudaSuccess, cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
    memset(&v, 0, sizeof v);
    EXPECT_EQ(cudaSuccess, cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
    EXPECT_EQ(cudaSyncPolicySpin, v.syncPolicy);
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusActive;
    EXPECT_EQ(cudaSuccess, cudaStreamIsCapturing(s, &st));
    EXPECT_EQ(cudaStreamCaptureStatusNone, st);
    EXPECT_EQ(cudaErrorInvalidValue, cudaStreamIsCapturing(s, nullptr));
    EXPECT_EQ(cudaErrorInvalidValue, cudaStreamCreateWithPriority(&s, 0x80, 0));
    EXPECT_EQ(cudaErrorInvalidValue, cudaGetLastError());
    EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
}

TEST(RuntimeLibraries, ALibraryFromPtx_GivesItsKernelAndGlobal)
{
    static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .global .align 4 .u32 counter = 7;\n"
                              ".visible .entry bump(.param .u32 by)\n{\n .reg .b32 %r<3>;\n"
                              " ld.param.u32 %r1, [by];\n ld.global.u32 %r2, [counter];\n"
                              " add.u32 %r2, %r2, %r1;\n st.global.u32 [counter], %r2;\n ret;\n}\n";
    cudaLibrary_t lib;
    ASSERT_EQ(cudaSuccess, cudaLibraryLoadData(&lib, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0));
    unsigned int count = 0;
    EXPECT_EQ(cudaSuccess, cudaLibraryGetKernelCount(&count, lib));
    EXPECT_EQ(1u, count);
    cudaKernel_t k = nullptr, listed = nullptr;
    EXPECT_EQ(cudaSuccess, cudaLibraryGetKernel(&k, lib, "bump"));
    EXPECT_EQ(cudaSuccess, cudaLibraryEnumerateKernels(&listed, 1, lib));
    EXPECT_EQ(k, listed);
    void *counter = nullptr;
    size_t bytes = 0;
    EXPECT_EQ(cudaSuccess, cudaLibraryGetGlobal(&counter, &bytes, lib, "counter"));
    EXPECT_EQ(4u, bytes);
    unsigned int by = 5;
    void *args[] = {&by};
    EXPECT_EQ(cudaSuccess, cudaLaunchKernel((const void *)k, dim3(1), dim3(1), args, 0, nullptr));
    unsigned int value = 0;
    EXPECT_EQ(cudaSuccess, cudaMemcpy(&value, counter, 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(12u, value);
    EXPECT_EQ(cudaErrorSymbolNotFound, cudaLibraryGetKernel(&k, lib, "nothing"));
    EXPECT_EQ(cudaSuccess, cudaLibraryUnload(lib));
    EXPECT_NE(cudaSuccess, cudaLibraryUnload(lib));
}

TEST(RuntimeFlush, GPUDirectRDMAWrites_AreFlushedForEitherScopeAndBadArgumentsRefused)
{
    EXPECT_EQ(cudaSuccess, cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                              cudaFlushGPUDirectRDMAWritesToOwner));
    EXPECT_EQ(cudaSuccess, cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                              cudaFlushGPUDirectRDMAWritesToAllDevices));
    EXPECT_EQ(cudaErrorInvalidValue,
              cudaDeviceFlushGPUDirectRDMAWrites((cudaFlushGPUDirectRDMAWritesTarget)3, cudaFlushGPUDirectRDMAWritesToOwner));
    EXPECT_EQ(cudaErrorInvalidValue, cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                                       (cudaFlushGPUDirectRDMAWritesScope)7));
}

TEST(RuntimeDevices, SetValidDevices_AcceptsDeviceZeroOnly)
{
    int ok[] = {0};
    EXPECT_EQ(cudaSuccess, cudaSetValidDevices(ok, 1));
    EXPECT_EQ(cudaSuccess, cudaSetValidDevices(nullptr, 0));
    int bad[] = {0, 3};
    EXPECT_EQ(cudaErrorInvalidDevice, cudaSetValidDevices(bad, 2));
    EXPECT_EQ(cudaErrorInvalidValue, cudaSetValidDevices(nullptr, 2));
    EXPECT_EQ(cudaErrorInvalidValue, cudaSetValidDevices(ok, -1));
}

TEST(RuntimePointers, EachKindOfMemory_IsReportedWithItsPointers)
{
    void *d = nullptr, *h = nullptr, *m = nullptr;
    ASSERT_EQ(cudaSuccess, cudaMalloc(&d, 4096));
    ASSERT_EQ(cudaSuccess, cudaMallocHost(&h, 4096));
    ASSERT_EQ(cudaSuccess, cudaMallocManaged(&m, 4096, cudaMemAttachGlobal));
    cudaPointerAttributes a;
    ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&a, (char *)d + 16));
    EXPECT_EQ(cudaMemoryTypeDevice, a.type);
    EXPECT_EQ(0, a.device);
    EXPECT_EQ((char *)d + 16, a.devicePointer);
    EXPECT_EQ(nullptr, a.hostPointer);
    ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&a, h));
    EXPECT_EQ(cudaMemoryTypeHost, a.type);
    EXPECT_EQ(h, a.hostPointer);
    EXPECT_EQ(h, a.devicePointer); // mapped at the same address
    ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&a, m));
    EXPECT_EQ(cudaMemoryTypeManaged, a.type);
    EXPECT_EQ(m, a.devicePointer);
    EXPECT_EQ(m, a.hostPointer);
    int local = 0;
    ASSERT_EQ(cudaSuccess, cudaPointerGetAttributes(&a, &local)); // not an error since CUDA 11
    EXPECT_EQ(cudaMemoryTypeUnregistered, a.type); // docs/probes/surface/probe3.out
    EXPECT_EQ(-2, a.device);
    EXPECT_EQ(nullptr, a.devicePointer);
    EXPECT_EQ(&local, a.hostPointer);
    EXPECT_EQ(cudaErrorInvalidValue, cudaPointerGetAttributes(nullptr, d));
    EXPECT_EQ(cudaSuccess, cudaFree(d));
    EXPECT_EQ(cudaSuccess, cudaFreeHost(h));
    EXPECT_EQ(cudaSuccess, cudaFree(m));
}
