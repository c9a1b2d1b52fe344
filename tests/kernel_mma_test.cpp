// Tensor-core instructions on the software device (issue 25): mma.sync's fragments and the GPU's
// fused-sum arithmetic (docs/kernels.md, "Tensor cores"; the GPU's results for whole corpus runs are
// the kernel_corpus.*.mma_* cases), faults of misaligned ldmatrix and wmma addresses as the GPU
// gives them, and the forms that are malformed or not implemented refused when the module loads.
#include "framework/testing.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace extmem_test;

using KernelMma = ContextTest;

namespace {

const char kHeader[] = ".version 8.7\n.target sm_90\n.address_size 64\n";

CUresult load(const std::string &body, CUmodule *m)
{
    std::string ptx = std::string(kHeader) + body;
    return cuModuleLoadData(m, ptx.c_str());
}

// One mma.sync.m16n8k16 on f16 inputs with f32 accumulators: each lane loads its fragments.
const char kMma16[] = R"(
.visible .entry mma16(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{
    .reg .b32 %r<20>;
    .reg .f32 %f<12>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    ld.param.u64 %rd4, [pd];
    mov.u32 %r1, %laneid;
    mul.wide.u32 %rd5, %r1, 16;
    add.u64 %rd6, %rd1, %rd5;
    ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd6];
    mul.wide.u32 %rd7, %r1, 8;
    add.u64 %rd8, %rd2, %rd7;
    ld.global.v2.b32 {%r6, %r7}, [%rd8];
    add.u64 %rd9, %rd3, %rd5;
    ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd9];
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f5, %f6, %f7, %f8}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%f1, %f2, %f3, %f4};
    add.u64 %rd10, %rd4, %rd5;
    st.global.v4.f32 [%rd10], {%f5, %f6, %f7, %f8};
    ret;
}
)";

struct Mats {
    uint16_t A[16][16] = {}; // f16 bits, row-major M x K
    uint16_t B[16][8] = {};  // K x N
    uint32_t C[16][8] = {};  // f32 bits
    uint32_t D[16][8] = {};
};

// The fragments of the PTX ISA's figures for m16n8k16 (g = lane / 4, t = lane % 4).
void run_mma16(Mats &m)
{
    CUmodule mod;
    ASSERT_OK(load(kMma16, &mod));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, mod, "mma16"));
    CUdeviceptr a, b, c, d;
    ASSERT_OK(cuMemAlloc(&a, 32 * 16));
    ASSERT_OK(cuMemAlloc(&b, 32 * 8));
    ASSERT_OK(cuMemAlloc(&c, 32 * 16));
    ASSERT_OK(cuMemAlloc(&d, 32 * 16));
    uint32_t *pa = (uint32_t *)a, *pb = (uint32_t *)b, *pc = (uint32_t *)c, *pd = (uint32_t *)d;
    for (unsigned l = 0; l < 32; ++l) {
        unsigned g = l / 4, t = l % 4;
        for (unsigned r = 0; r < 4; ++r) {
            unsigned row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
            pa[l * 4 + r] = m.A[row][col] | (uint32_t)m.A[row][col + 1] << 16;
        }
        for (unsigned r = 0; r < 2; ++r) {
            unsigned k = 2 * t + 8 * r;
            pb[l * 2 + r] = m.B[k][g] | (uint32_t)m.B[k + 1][g] << 16;
        }
        for (unsigned i = 0; i < 4; ++i)
            pc[l * 4 + i] = m.C[g + 8 * (i >> 1)][2 * t + (i & 1)];
    }
    void *params[] = {&a, &b, &c, &d};
    EXPECT_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    for (unsigned l = 0; l < 32; ++l)
        for (unsigned i = 0; i < 4; ++i)
            m.D[l / 4 + 8 * (i >> 1)][2 * (l % 4) + (i & 1)] = pd[l * 4 + i];
    cuMemFree(a);
    cuMemFree(b);
    cuMemFree(c);
    cuMemFree(d);
    cuModuleUnload(mod);
}

float f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}


// One e4m3 mma.m16n8k32 whose registers are the same in every lane (then A[r][k] is byte k % 4 of
// a, B[k][n] byte k % 4 of b, and every element of D is the same sum): f32 or f16 accumulators.
const char kF8[] = R"(
.visible .entry f8(.param .u64 pd, .param .u32 pa, .param .u32 pb, .param .u32 pc)
{
    .reg .b32 %r<12>;
    .reg .f32 %f<9>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [pd];
    ld.param.u32 %r1, [pa];
    ld.param.u32 %r2, [pb];
    ld.param.u32 %r3, [pc];
    mov.b32 %f1, %r3;
    mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%f5, %f6, %f7, %f8}, {%r1, %r1, %r1, %r1}, {%r2, %r2}, {%f1, %f1, %f1, %f1};
    mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%r5, %r6}, {%r1, %r1, %r1, %r1}, {%r2, %r2}, {%r3, %r3};
    mov.u32 %r4, %laneid;
    mul.wide.u32 %rd2, %r4, 32;
    add.u64 %rd3, %rd1, %rd2;
    st.global.v4.f32 [%rd3], {%f5, %f6, %f7, %f8};
    st.global.v2.b32 [%rd3+16], {%r5, %r6};
    ret;
}
)";

// Runs kF8 (32 bytes a lane: four f32, two f16x2) and answers lane 0's f32 result (every element is the same) and its f16 result.
void run_f8(uint32_t a, uint32_t b, uint32_t c, uint32_t *d32, uint16_t *d16)
{
    CUmodule mod;
    ASSERT_OK(load(kF8, &mod));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, mod, "f8"));
    CUdeviceptr d;
    ASSERT_OK(cuMemAlloc(&d, 32 * 32));
    void *params[] = {&d, &a, &b, &c};
    EXPECT_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    const uint32_t *p = (const uint32_t *)d;
    *d32 = p[0];
    *d16 = (uint16_t)p[4];
    for (unsigned l = 0; l < 32; ++l)
        for (unsigned i = 0; i < 4; ++i)
            EXPECT_EQ(*d32, p[l * 8 + i]) << "lane " << l;
    cuMemFree(d);
    cuModuleUnload(mod);
}

} // namespace

TEST_F(KernelMma, M16n8k16_PutsEveryElementWhereTheIsaFiguresSay)
{
    // Small integers: every sum is exact, so D = A B + C shows only where the elements went.
    Mats m;
    const uint16_t h[] = {0x0000, 0x3c00, 0x4000, 0x4200, 0x4400, 0xbc00, 0xc000}; // 0 1 2 3 4 -1 -2
    const float hv[] = {0, 1, 2, 3, 4, -1, -2};
    float A[16][16], B[16][8];
    for (unsigned r = 0; r < 16; ++r)
        for (unsigned k = 0; k < 16; ++k) {
            unsigned i = (r * 7 + k * 3) % 7;
            m.A[r][k] = h[i];
            A[r][k] = hv[i];
        }
    for (unsigned k = 0; k < 16; ++k)
        for (unsigned n = 0; n < 8; ++n) {
            unsigned i = (k * 5 + n) % 7;
            m.B[k][n] = h[i];
            B[k][n] = hv[i];
        }
    for (unsigned r = 0; r < 16; ++r)
        for (unsigned n = 0; n < 8; ++n)
            m.C[r][n] = bits((float)(r * 8 + n));
    run_mma16(m);
    for (unsigned r = 0; r < 16; ++r)
        for (unsigned n = 0; n < 8; ++n) {
            float want = (float)(r * 8 + n);
            for (unsigned k = 0; k < 16; ++k)
                want += A[r][k] * B[k][n];
            EXPECT_EQ(want, f32(m.D[r][n])) << "row " << r << " column " << n;
        }
}

TEST_F(KernelMma, F16ProductsBelowTheAlignment_AreTruncatedAwayAsOnTheGpu)
{
    // Row 0: 1 * 1 and eight products 2^-13 * 2^-13 = 2^-26: exactly 1 + 2^-23, an f32; the
    // tensor core keeps 25 bits below the largest exponent (2^0), so each 2^-26 is dropped: 1.
    // Row 1: 1 + 1.5 * 2^-24: to nearest 1 + 2^-23, toward zero (the GPU) 1.
    // Row 2: an f32 c that is not an f16 (1/3) plus 1: one rounding toward zero of the exact sum.
    // Row 3: a NaN input gives the canonical NaN; row 4: inf - inf too; row 5: inf * 0 too;
    // row 6: FLT_MAX + 65504 is FLT_MAX (65504 is far below the alignment). An overflow is
    // infinity even toward zero: the corpus's bf16 cases have it (products of bf16 reach it).
    Mats m;
    m.A[0][0] = 0x3c00;
    for (unsigned k = 1; k <= 8; ++k)
        m.A[0][k] = 0x0800; // 2^-13
    m.A[1][0] = 0x3c00;
    m.A[1][1] = 0x0e00; // 1.5 * 2^-12
    m.A[2][0] = 0x3c00;
    m.A[3][0] = 0x7e01; // NaN with a payload
    m.A[4][0] = 0x7c00;
    m.A[4][1] = 0xfc00;
    m.A[5][0] = 0x7c00;
    m.A[6][0] = 0x7bff; // 65504
    for (unsigned n = 0; n < 8; ++n) {
        m.B[0][n] = 0x3c00;
        for (unsigned k = 1; k <= 8; ++k)
            m.B[k][n] = n == 0 ? 0x0800 : 0x0c00; // column 0: 2^-13; others 2^-12
        m.C[2][n] = bits(1.0f / 3.0f);
        m.C[6][n] = 0x7f7fffff; // FLT_MAX
    }
    m.B[0][7] = 0; // column 7: inf * 0 in row 5
    m.B[1][1] = 0x0c00;
    run_mma16(m);
    EXPECT_EQ(0x3f800000u, m.D[0][0]) << "2^-26 terms are truncated";
    // column 1: eight products 2^-13 * 2^-12 = 2^-25 are kept: 1 + 2^-22
    EXPECT_EQ(bits(1.0f + 0x1p-22f), m.D[0][1]);
    EXPECT_EQ(0x3f800000u, m.D[1][1]) << "1 + 1.5 * 2^-24 rounds toward zero";
    EXPECT_EQ(0x3faaaaaau, m.D[2][0]) << "4/3 toward zero (to nearest: 0x3faaaaab)";
    EXPECT_EQ(0x7fffffffu, m.D[3][0]);
    EXPECT_EQ(0x7fffffffu, m.D[4][1]);
    EXPECT_EQ(0x7fffffffu, m.D[5][7]);
    EXPECT_EQ(0x7f800000u, m.D[5][0]);
    EXPECT_EQ(0x7f7fffffu, m.D[6][0]) << "FLT_MAX + 65504: the small term is truncated away";
}

TEST_F(KernelMma, LdmatrixRowAddressNotAlignedTo16Bytes_IsMisalignedAsOnTheGpu)
{
    // The H100 faults for row addresses 2, 4 and 8 bytes past a 16-byte boundary
    // (docs/probes/kernels/mma: tests/cuda/wmma.cu's ldmatrix probe).
    for (unsigned off : {0u, 2u, 8u}) {
        std::string body = R"(
.visible .entry ldm(.param .u64 out)
{
    .shared .align 16 .b8 rows[1024];
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %laneid;
    mov.u32 %r2, rows;
    mad.lo.u32 %r3, %r1, 16, %r2;
    add.u32 %r3, %r3, )" + std::to_string(off) + R"(;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r4, %r5, %r6, %r7}, [%r3];
    ld.param.u64 %rd1, [out];
    st.global.u32 [%rd1], %r4;
    ret;
}
)";
        CUmodule m;
        ASSERT_OK(load(body, &m));
        CUfunction f;
        ASSERT_OK(cuModuleGetFunction(&f, m, "ldm"));
        CUdeviceptr out;
        ASSERT_OK(cuMemAlloc(&out, 4));
        void *params[] = {&out};
        EXPECT_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
        if (off == 0) {
            EXPECT_OK(cuCtxSynchronize());
            cuMemFree(out);
            cuModuleUnload(m);
            continue;
        }
        EXPECT_CU(CUDA_ERROR_MISALIGNED_ADDRESS, cuCtxSynchronize()) << "offset " << off;
        EXPECT_DETAIL_HAS("ldmatrix");
        // the fault is sticky for the context: a new one for the next offset
        EXPECT_OK(cuCtxDestroy(ctx));
        CUdevice dev;
        ASSERT_OK(cuDeviceGet(&dev, 0));
        ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, dev));
    }
}

TEST_F(KernelMma, WmmaLoadOfF16PairsAtTwoBytesPastAWord_IsMisalignedButFourIsNot)
{
    // The GPU loads a wmma f16 fragment a 32-bit register at a time: +2 faults, +4 does not
    // (tests/cuda/wmma.expected).
    for (unsigned off : {4u, 2u}) {
        std::string body = R"(
.visible .entry wl(.param .u64 in, .param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [in];
    add.u64 %rd1, %rd1, )" + std::to_string(off) + R"(;
    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], 16;
    ld.param.u64 %rd2, [out];
    st.global.u32 [%rd2], %r1;
    ret;
}
)";
        CUmodule m;
        ASSERT_OK(load(body, &m));
        CUfunction f;
        ASSERT_OK(cuModuleGetFunction(&f, m, "wl"));
        CUdeviceptr in, out;
        ASSERT_OK(cuMemAlloc(&in, 4096));
        ASSERT_OK(cuMemAlloc(&out, 4));
        void *params[] = {&in, &out};
        EXPECT_OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
        if (off == 4) {
            EXPECT_OK(cuCtxSynchronize());
            cuMemFree(in);
            cuMemFree(out);
            cuModuleUnload(m);
            continue;
        }
        EXPECT_CU(CUDA_ERROR_MISALIGNED_ADDRESS, cuCtxSynchronize());
        EXPECT_DETAIL_HAS("wmma.load.a");
        // the fault is sticky for the context: a new one for the next offset
        EXPECT_OK(cuCtxDestroy(ctx));
        CUdevice dev;
        ASSERT_OK(cuDeviceGet(&dev, 0));
        ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, dev));
    }
}

TEST_F(KernelMma, E4m3_AddsKMod4Of0And1ThenOf2And3FromZeroThenC_AsTheH100)
{
    // The H100's JIT runs e4m3 as two f16 mma (k % 4 = 0, 1, then 2, 3, from a zero
    // accumulator, each rounded toward zero to f32) and adds c last with an f32 add (to
    // nearest): docs/probes/kernels/mma-fp8. Bytes 0.5, 2^-6 of A and 0.25, 2^-6 of B: the
    // products are 8 x 0.125 + 8 x 2^-12 = 1 + 2^-9, exact; c = 1/3 (0x3eaaaaab): c + 1.001953125
    // is 0x3faaeaab to nearest, 0x3faaeaaa toward zero (one fused sum of c and the products).
    uint32_t d32;
    uint16_t d16;
    run_f8(0x00000830u, 0x00000828u, 0x3eaaaaabu, &d32, &d16);
    EXPECT_EQ(0x3faaeaabu, d32);
    // f16 accumulators: 448 x 448 x 8 overflows f16 in the first mma (k % 4 = 0), which the
    // second (k % 4 = 2: -448 x 448 x 8) cannot bring back: +inf, though the exact sum is c.
    run_f8(0x007e007eu, 0x00fe007eu, 0x3c003c00u, &d32, &d16);
    EXPECT_EQ(0x7c00u, d16);
    // ... while f32 accumulators hold 1605632 exactly: 1605632 - 1605632 + c = c. Here c (the f32
    // 0x3c003c00) is tiny against the partial sums, and added last: it survives.
    EXPECT_EQ(0x3c003c00u, d32);
}

TEST_F(KernelMma, MalformedAndUnimplementedForms_AreInvalidPtxNamingThem)
{
    const struct {
        const char *insn, *says;
    } cases[] = {
        {"mma.sync.aligned.m16n8k12.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}",
         "m16n8k12"},
        {"mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32 {%r1,%r2}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}",
         "accumulator"},
        {"mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}",
         ".row.col"},
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}",
         "not a pair"},
        {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}",
         "vector of 4 registers"},
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%rd1}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}",
         "32-bit registers"},
        // ptxas: ".dtype must be '.f32' when .ctype is '.f32'" (m8n8k4), mixed fp8 accumulators
        {"mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}",
         "accumulator"},
        {"mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f32 {%r1,%r2}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}",
         "accumulator"},
        {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r1,%r2}, {%f1,%f2,%f3,%f4}",
         "vector of 8 registers"},
        // mma.sp: the forms not fitted, the selector's range (ptxas's), its operands
        {"mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}, %r1, 0",
         "mma.sp shape"},
        {"mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, "
         "{%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, %r1, 1",
         "sparsity selector"},
        {"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}, %r1, %r2",
         "sparsity selector"},
        {"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}",
         "6 operands"},
        {"mma.sp.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r1,%r2}, "
         "{%f1,%f2,%f3,%f4}, %r1, 0",
         ".row.col"},
        {"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32 {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r1}, {%r1,%r2,%r3,%r4}",
         ".xor.popc"},
        {"mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
         "{%r1,%r2}, {%f1,%f2,%f3,%f4}",
         "satfinite"},
        {"mma.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, "
         "{%r1,%r2,%r3,%r4}",
         "m16n8k64"},
        {"wmma.load.a.sync.aligned.row.m16n16k16.global.f64 {%rd1}, [%rd1]", "f64"},
        {"wmma.mma.sync.aligned.col.row.m8n8k32.s32.s4.s4.s32 {%r1,%r2}, {%r1}, {%r1}, {%r1,%r2}", "m8n8k32"},
        {"wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%f1,%f2,%f3,%f4}, 16", "vector of 8"},
        {"ldmatrix.sync.aligned.m8n8.x3.shared.b16 {%r1,%r2,%r3}, [%r1]", "x3"},
        {"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1,%r2}, [%r1]", ".b8"},
        {"movmatrix.sync.aligned.m8n8.b16 %r1, %r2", "movmatrix.sync.aligned.m8n8.trans.b16"},
        {"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd1, 1, 1, 1, 1, 1",
         "sm_90a's warpgroup"},
        {"mov.b64 %rd1, {%r1,%r2,%r3,%r4,%r5}", "at most 4 elements"},
    };
    for (auto &c : cases) {
        std::string body = std::string(".visible .entry k()\n{\n .reg .pred %p<2>;\n .reg .b32 %r<9>;\n"
                                       " .reg .f32 %f<9>;\n .reg .b64 %rd<2>;\n ") +
                           c.insn + ";\n ret;\n}\n";
        CUmodule m;
        EXPECT_CU(CUDA_ERROR_INVALID_PTX, load(body, &m)) << c.insn;
        EXPECT_DETAIL_HAS(c.says) << c.insn;
    }
}
