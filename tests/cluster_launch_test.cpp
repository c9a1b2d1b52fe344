// Thread block clusters (compute capability 9.0; docs/kernels.md "Clusters"): the blocks of a
// cluster run together, wait for each other at barrier.cluster and reach each other's shared
// memory; a cluster whose blocks all wait for something none of them can do any more fails the
// launch instead of hanging; the launch checks and occupancy calls answer as the H100's driver
// does (docs/probes/kernels/cluster). What CUDA programs do with clusters is tests/cuda/clusters.cu,
// compared with the H100's output; these are the cases a GPU cannot record (a hang, bad input)
// and the engine's own encoding of .shared::cluster addresses.
#include "framework/testing.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace extmem_test;

namespace {

void claim_compute_capability(const char *v)
{
    // read once per process by the library (each test case runs in a process of its own)
#ifdef _WIN32
    std::string s = std::string("EXTMEM_COMPUTE_CAPABILITY=") + v;
    _putenv(s.c_str());
#else
    setenv("EXTMEM_COMPUTE_CAPABILITY", v, 1);
#endif
}

class Clusters : public ContextTest {
protected:
    void SetUp() override
    {
        claim_compute_capability("9.0");
        ContextTest::SetUp();
    }
};

class ClustersOnCc80 : public ContextTest {
protected:
    void SetUp() override
    {
        claim_compute_capability("8.0");
        ContextTest::SetUp();
    }
};

const char *kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// ring(out): clusters of any shape; each block writes its rank into its own shared word, waits
// at the cluster barrier, reads the next rank's word through mapa + ld.shared::cluster and its
// previous rank's through a generic pointer (mapa.u64), and stores both, its rank and the rank
// getctarank gives for the next block's address, at out[4 * block].
const char *kRing = R"(
.visible .entry ring(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<32>;
    .reg .b64 %rd<16>;
    .shared .align 4 .u32 word;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %cluster_ctarank;
    mov.u32 %r2, %cluster_nctarank;
    mov.u32 %r3, %tid.x;
    setp.ne.u32 %p1, %r3, 0;
    add.u32 %r4, %r1, 100;
    @!%p1 st.shared.u32 [word], %r4;
    barrier.cluster.arrive;
    barrier.cluster.wait;
    @%p1 bra DONE;
    add.u32 %r5, %r1, 1;
    rem.u32 %r5, %r5, %r2;
    mov.u32 %r6, word;
    mapa.shared::cluster.u32 %r7, %r6, %r5;
    ld.shared::cluster.u32 %r8, [%r7];
    getctarank.shared::cluster.u32 %r9, %r7;
    add.u32 %r10, %r1, %r2;
    sub.u32 %r10, %r10, 1;
    rem.u32 %r10, %r10, %r2;
    mov.u64 %rd2, word;
    cvta.shared.u64 %rd3, %rd2;
    mapa.u64 %rd4, %rd3, %r10;
    ld.u32 %r11, [%rd4];
    mov.u32 %r12, %ctaid.x;
    mov.u32 %r13, %ctaid.y;
    mov.u32 %r14, %nctaid.x;
    mad.lo.u32 %r12, %r13, %r14, %r12;
    mul.wide.u32 %rd5, %r12, 16;
    add.s64 %rd6, %rd1, %rd5;
    st.global.v4.u32 [%rd6], {%r1, %r8, %r11, %r9};
DONE:
    barrier.cluster.arrive;
    barrier.cluster.wait;
    ret;
}
)";

// stuck(): rank 0 waits at an mbarrier that expects one more arrival than anyone makes.
const char *kStuck = R"(
.visible .entry stuck()
{
    .reg .pred %p<4>;
    .reg .b32 %r<8>;
    .shared .align 8 .b64 bar;
    mov.u32 %r1, %cluster_ctarank;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra DONE;
    mov.u32 %r2, bar;
    mbarrier.init.shared::cta.b64 [%r2], 2;
    mbarrier.arrive.shared::cta.b64 _, [%r2];
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;
    @!%p2 bra WAIT;
DONE:
    barrier.cluster.arrive;
    barrier.cluster.wait;
    ret;
}
)";

// stasync(out): thread 0 stores 42 into its own shared word with st.async, completing 4 bytes
// on its own mbarrier, waits for the phase and writes the word and whether it completed.
const char *kStAsync = R"(
.visible .entry stasync(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<4>;
    .shared .align 8 .b64 bar;
    .shared .align 4 .u32 word;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra DONE;
    mov.u32 %r2, bar;
    mov.u32 %r3, word;
    mbarrier.init.shared::cta.b64 [%r2], 1;
    mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 4;
    st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r3], 42, [%r2];
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;
    @!%p2 bra WAIT;
    ld.shared.u32 %r4, [word];
    mov.u32 %r5, %ctaid.x; // each block its own word: the blocks run on different threads
    mul.wide.u32 %rd2, %r5, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
DONE:
    ret;
}
)";

struct Module {
    CUmodule m = nullptr;
    CUfunction f = nullptr;
    Module(const char *body, const char *name)
    {
        std::string text = std::string(kHeader) + body;
        EXPECT_OK(cuModuleLoadData(&m, text.c_str()));
        if (m) {
            EXPECT_OK(cuModuleGetFunction(&f, m, name));
        }
    }
    ~Module()
    {
        if (m)
            cuModuleUnload(m);
    }
};

CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned bx, unsigned cx, unsigned cy, void **params,
                unsigned nattrs = 1)
{
    CUlaunchAttribute a{};
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = cx;
    a.value.clusterDim.y = cy;
    a.value.clusterDim.z = 1;
    CUlaunchConfig c{};
    c.gridDimX = gx, c.gridDimY = gy, c.gridDimZ = 1;
    c.blockDimX = bx, c.blockDimY = 1, c.blockDimZ = 1;
    c.attrs = &a;
    c.numAttrs = nattrs;
    return cuLaunchKernelEx(&c, f, params, nullptr);
}

} // namespace

TEST_F(Clusters, EveryBlockReadsItsNeighboursSharedMemory_ThroughClusterAndGenericAddresses)
{
    Module mod(kRing, "ring");
    ASSERT_NE(mod.f, nullptr);
    const unsigned gx = 8, gy = 2, cx = 4, cy = 2, n = gx * gy, size = cx * cy;
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, n * 16));
    void *params[] = {&out};
    ASSERT_OK(launch(mod.f, gx, gy, 64, cx, cy, params));
    ASSERT_OK(cuCtxSynchronize());
    std::vector<unsigned> h(n * 4);
    ASSERT_OK(cuMemcpyDtoH(h.data(), out, n * 16));
    for (unsigned b = 0; b < n; ++b) {
        unsigned x = b % gx, y = b / gx, rank = x % cx + cx * (y % cy);
        EXPECT_EQ(h[4 * b], rank) << "block " << b;
        EXPECT_EQ(h[4 * b + 1], 100 + (rank + 1) % size) << "block " << b;
        EXPECT_EQ(h[4 * b + 2], 100 + (rank + size - 1) % size) << "block " << b;
        EXPECT_EQ(h[4 * b + 3], (rank + 1) % size) << "block " << b;
    }
    EXPECT_OK(cuMemFree(out));
}

TEST_F(Clusters, ACooperativeClusteredGrid_RunsItsClustersWhole)
{
    Module mod(kRing, "ring");
    ASSERT_NE(mod.f, nullptr);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 8 * 16));
    void *params[] = {&out};
    CUlaunchAttribute a[2] = {};
    a[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a[0].value.clusterDim.x = 2, a[0].value.clusterDim.y = 1, a[0].value.clusterDim.z = 1;
    a[1].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    a[1].value.cooperative = 1;
    CUlaunchConfig c{};
    c.gridDimX = 8, c.gridDimY = 1, c.gridDimZ = 1, c.blockDimX = 32, c.blockDimY = 1, c.blockDimZ = 1;
    c.attrs = a;
    c.numAttrs = 2;
    ASSERT_OK(cuLaunchKernelEx(&c, mod.f, params, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    std::vector<unsigned> h(8 * 4);
    ASSERT_OK(cuMemcpyDtoH(h.data(), out, 8 * 16));
    for (unsigned b = 0; b < 8; ++b) {
        EXPECT_EQ(h[4 * b], b % 2);
        EXPECT_EQ(h[4 * b + 1], 100 + (b + 1) % 2);
    }
    EXPECT_OK(cuMemFree(out));
}

TEST_F(Clusters, AClusterThatCanNeverFinishItsWait_FailsTheLaunchInsteadOfHanging)
{
    Module mod(kStuck, "stuck");
    ASSERT_NE(mod.f, nullptr);
    ASSERT_OK(launch(mod.f, 4, 1, 32, 2, 1, nullptr));
    EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("cluster");
}

TEST_F(Clusters, LaunchChecks_AreInvalidClusterSize_AsOnTheH100)
{
    Module mod(kRing, "ring");
    ASSERT_NE(mod.f, nullptr);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 64 * 16));
    void *params[] = {&out};
    EXPECT_CU(CUDA_ERROR_INVALID_CLUSTER_SIZE, launch(mod.f, 6, 1, 32, 4, 1, params));
    EXPECT_DETAIL_HAS("whole number of clusters");
    EXPECT_CU(CUDA_ERROR_INVALID_CLUSTER_SIZE, launch(mod.f, 8, 1, 32, 0, 1, params));
    EXPECT_CU(CUDA_ERROR_INVALID_CLUSTER_SIZE, launch(mod.f, 16, 1, 32, 16, 1, params));
    EXPECT_DETAIL_HAS("NON_PORTABLE_CLUSTER_SIZE_ALLOWED");
    ASSERT_OK(cuFuncSetAttribute(mod.f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
    EXPECT_OK(launch(mod.f, 16, 1, 32, 16, 1, params));
    EXPECT_CU(CUDA_ERROR_INVALID_CLUSTER_SIZE, launch(mod.f, 17, 1, 32, 17, 1, params));
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_OK(cuMemFree(out));
}

TEST_F(Clusters, ARequiredShapeSetAtRunTime_IsTheLaunchesUnlessItNamesAnother)
{
    Module mod(kRing, "ring");
    ASSERT_NE(mod.f, nullptr);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 8 * 16));
    void *params[] = {&out};
    ASSERT_OK(cuFuncSetAttribute(mod.f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 2));
    ASSERT_OK(cuFuncSetAttribute(mod.f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, 1));
    ASSERT_OK(cuFuncSetAttribute(mod.f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, 1));
    int w = 0;
    EXPECT_OK(cuFuncGetAttribute(&w, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, mod.f));
    EXPECT_EQ(w, 2);
    ASSERT_OK(cuLaunchKernel(mod.f, 8, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    std::vector<unsigned> h(8 * 4);
    ASSERT_OK(cuMemcpyDtoH(h.data(), out, 8 * 16));
    for (unsigned b = 0; b < 8; ++b)
        EXPECT_EQ(h[4 * b + 1], 100 + (b % 2 + 1) % 2) << "block " << b;
    EXPECT_CU(CUDA_ERROR_INVALID_CLUSTER_SIZE, launch(mod.f, 8, 1, 32, 4, 1, params));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(mod.f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 17));
    EXPECT_OK(cuMemFree(out));
}

TEST_F(Clusters, OccupancyCalls_CheckTheirArguments)
{
    Module mod(kRing, "ring");
    ASSERT_NE(mod.f, nullptr);
    CUlaunchAttribute a{};
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = 4, a.value.clusterDim.y = 1, a.value.clusterDim.z = 1;
    CUlaunchConfig c{};
    c.gridDimX = 16, c.gridDimY = 1, c.gridDimZ = 1, c.blockDimX = 128, c.blockDimY = 1, c.blockDimZ = 1;
    c.attrs = &a;
    c.numAttrs = 1;
    int n = -1;
    EXPECT_OK(cuOccupancyMaxActiveClusters(&n, mod.f, &c));
    EXPECT_GT(n, 0);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxActiveClusters(nullptr, mod.f, &c));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxActiveClusters(&n, mod.f, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuOccupancyMaxActiveClusters(&n, (CUfunction)&n, &c));
    c.numAttrs = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_CLUSTER_SIZE, cuOccupancyMaxActiveClusters(&n, mod.f, &c));
    EXPECT_OK(cuOccupancyMaxPotentialClusterSize(&n, mod.f, &c));
    EXPECT_EQ(n, 8);
    c.sharedMemBytes = 100 * 1024; // past the kernel's limit without opting in: no block fits
    EXPECT_OK(cuOccupancyMaxPotentialClusterSize(&n, mod.f, &c));
    EXPECT_EQ(n, 0);
    c.blockDimX = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxPotentialClusterSize(&n, mod.f, &c));
}

TEST_F(Clusters, StAsync_RunsInALaunchWithClusters_AndIsAnIllegalInstructionWithout_AsOnTheH100)
{
    Module mod(kStAsync, "stasync");
    ASSERT_NE(mod.f, nullptr);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 8));
    ASSERT_OK(cuMemsetD32(out, 0, 2));
    void *params[] = {&out};
    ASSERT_OK(launch(mod.f, 2, 1, 32, 1, 1, params)); // a cluster dimension of 1x1x1
    ASSERT_OK(cuCtxSynchronize());
    unsigned v[2] = {0, 0};
    ASSERT_OK(cuMemcpyDtoH(v, out, 8));
    EXPECT_EQ(v[0], 42u);
    EXPECT_EQ(v[1], 42u);
    ASSERT_OK(cuLaunchKernel(mod.f, 2, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_CU(CUDA_ERROR_ILLEGAL_INSTRUCTION, cuCtxSynchronize());
    EXPECT_DETAIL_HAS("without clusters");
}

TEST_F(ClustersOnCc80, ClustersOfSeveralBlocks_AreNotSupported_AndTheAttributeSaysSo)
{
    Module mod(kRing, "ring");
    ASSERT_NE(mod.f, nullptr);
    int v = -1;
    EXPECT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, 0));
    EXPECT_EQ(v, 0);
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 8 * 16));
    void *params[] = {&out};
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, launch(mod.f, 8, 1, 32, 2, 1, params));
    EXPECT_DETAIL_HAS("compute capability 9.0");
    EXPECT_OK(launch(mod.f, 8, 1, 32, 1, 1, params)); // a cluster of one is every launch's
    EXPECT_OK(cuCtxSynchronize());
    EXPECT_OK(cuMemFree(out));
}
