// PTX atom and red on the software device: exact totals when many blocks on all CPU threads (and
// launches on two streams) hit one address, shared-memory atomics, CAS loops, the ISA's wrap rules
// and the float semantics the H100 shows (tools/probes/warp_atom_probe.cu and its output
// tools/probes/warp_atom_probe.h100.txt, from which the expected bits below are taken).
#include "framework/testing.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace extmem_test;

using KernelAtomic = ContextTest;

namespace {

/* sm_80 has every atomic tested here but the bfloat16 ones, which need sm_90. */
const char kHeader[] = ".version 7.8\n.target sm_80\n.address_size 64\n";
const char kHeaderSm90[] = ".version 7.8\n.target sm_90\n.address_size 64\n";

/* Loads `body` (PTX after the header) and returns its module; INVALID_PTX etc. on failure. */
CUresult load(const std::string &body, CUmodule *m, const char *header = kHeader)
{
    std::string ptx = std::string(header) + body;
    return cuModuleLoadData(m, ptx.c_str());
}

/* Loads, launches entry `name` on a 1-D grid and waits. */
CUresult run(const std::string &body, const char *name, unsigned grid, unsigned block, void **params,
             const char *header = kHeader)
{
    CUmodule m;
    CUresult r = load(body, &m, header);
    if (r != CUDA_SUCCESS)
        return r;
    CUfunction f;
    r = cuModuleGetFunction(&f, m, name);
    if (r == CUDA_SUCCESS)
        r = cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr);
    if (r == CUDA_SUCCESS)
        r = cuCtxSynchronize();
    cuModuleUnload(m);
    return r;
}

/* Every thread runs `iters` rounds of atomics on the counters at out (see the offsets). */
const char kHammer[] = R"(
.visible .entry hammer(.param .u64 out, .param .u32 iters)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .reg .f32 %f<3>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [iters];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r2, 0;
$L_loop:
    atom.global.add.u32 %r3, [%rd1], 1;
    red.global.add.u64 [%rd1+8], 3;
    atom.global.add.f32 %f1, [%rd1+16], 0f3F800000;
    red.global.add.f64 [%rd1+24], 0d4000000000000000;
    atom.global.inc.u32 %r4, [%rd1+32], 999;
    red.global.max.s32 [%rd1+36], %r3;
    red.global.min.u32 [%rd1+40], %r3;
    atom.global.xor.b32 %r5, [%rd1+44], 1;
    atom.global.or.b32 %r6, [%rd1+48], 0;
$L_cas:
    add.u32 %r7, %r6, 1;
    atom.global.cas.b32 %r8, [%rd1+48], %r6, %r7;
    setp.ne.u32 %p1, %r8, %r6;
    mov.u32 %r6, %r8;
    @%p1 bra $L_cas;
    atom.acq_rel.gpu.add.u64 %rd2, [%rd1+56], 1;
    red.relaxed.sys.global.dec.u32 [%rd1+64], 6;
    add.u32 %r2, %r2, 1;
    setp.lt.u32 %p2, %r2, %r1;
    @%p2 bra $L_loop;
    ret;
}
)";

struct Counters {
    uint32_t count;   // +0  atom.add.u32: one per round
    uint32_t pad0;
    uint64_t triple;  // +8  red.add.u64 of 3
    float fsum;       // +16 atom.add.f32 of 1.0 (exact below 2^24)
    uint32_t pad1;
    double dsum;      // +24 red.add.f64 of 2.0
    uint32_t inc;     // +32 atom.inc with bound 999
    int32_t max;      // +36 red.max.s32 of the counter values seen
    uint32_t min;     // +40 red.min.u32 of them
    uint32_t parity;  // +44 atom.xor of 1
    uint32_t cas;     // +48 incremented by a CAS loop
    uint32_t pad2;
    uint64_t generic; // +56 atom.add.u64 through a generic address
    uint32_t dec;     // +64 red.dec with bound 6
};

} // namespace

TEST_F(KernelAtomic, ManyBlocksHammeringOneCounter_GiveExactTotals)
{
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, sizeof(Counters)));
    Counters *c = (Counters *)out;
    memset(c, 0, sizeof(*c));
    c->min = 0xffffffffu;
    unsigned iters = 20, grid = 64, block = 128;
    void *params[] = {&out, &iters};
    ASSERT_OK(run(kHammer, "hammer", grid, block, params));
    const uint64_t total = (uint64_t)grid * block * iters;
    EXPECT_EQ(total, c->count);
    EXPECT_EQ(3 * total, c->triple);
    EXPECT_EQ((float)total, c->fsum);
    EXPECT_EQ(2.0 * (double)total, c->dsum);
    EXPECT_EQ(total % 1000, c->inc); // inc wraps to 0 after reaching the bound
    EXPECT_EQ((int32_t)(total - 1), c->max);
    EXPECT_EQ(0u, c->min);
    EXPECT_EQ(total % 2, c->parity);
    EXPECT_EQ(total, c->cas);
    EXPECT_EQ(total, c->generic);
    EXPECT_EQ((7 - total % 7) % 7, c->dec); // dec from 0 wraps to the bound: a cycle of 7
    ASSERT_OK(cuMemFree(out));
}

TEST_F(KernelAtomic, LaunchesOnTwoStreams_AtomicOnTheSameCountersExactly)
{
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, sizeof(Counters)));
    Counters *c = (Counters *)out;
    memset(c, 0, sizeof(*c));
    c->min = 0xffffffffu;
    CUmodule m;
    ASSERT_OK(load(kHammer, &m));
    CUfunction f;
    ASSERT_OK(cuModuleGetFunction(&f, m, "hammer"));
    CUstream s[2];
    ASSERT_OK(cuStreamCreate(&s[0], CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuStreamCreate(&s[1], CU_STREAM_NON_BLOCKING));
    unsigned iters = 10, grid = 32, block = 64;
    void *params[] = {&out, &iters};
    for (int i = 0; i < 4; ++i)
        ASSERT_OK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, s[i % 2], params, nullptr));
    ASSERT_OK(cuCtxSynchronize());
    const uint64_t total = 4ull * grid * block * iters;
    EXPECT_EQ(total, c->count);
    EXPECT_EQ(3 * total, c->triple);
    EXPECT_EQ((float)total, c->fsum);
    EXPECT_EQ(total, c->cas);
    EXPECT_EQ(total, c->generic);
    ASSERT_OK(cuStreamDestroy(s[0]));
    ASSERT_OK(cuStreamDestroy(s[1]));
    ASSERT_OK(cuModuleUnload(m));
    ASSERT_OK(cuMemFree(out));
}

TEST_F(KernelAtomic, SharedMemoryHistogram_CountsEveryThreadOfEveryBlock)
{
    /* Each block counts its threads into 8 shared bins (tid % 8) and adds the smallest
     * subnormal once per thread to a shared float, which shared memory does not flush. */
    const char body[] = R"(
.visible .entry hist(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<6>;
    .reg .f32 %f<2>;
    .shared .align 4 .b32 bins[8];
    .shared .align 4 .f32 tiny;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 8;
    @%p1 bra $L_zeroed;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, bins;
    add.u32 %r3, %r3, %r2;
    st.shared.u32 [%r3], 0;
    st.shared.f32 [tiny], 0f00000000;
$L_zeroed:
    bar.sync 0;
    and.b32 %r4, %r1, 7;
    shl.b32 %r4, %r4, 2;
    mov.u32 %r5, bins;
    add.u32 %r5, %r5, %r4;
    atom.shared.add.u32 %r6, [%r5], 1;
    atom.shared.add.f32 %f1, [tiny], 0f00000001;
    bar.sync 0;
    @%p1 bra $L_done;
    ld.param.u64 %rd1, [out];
    mov.u32 %r7, %ctaid.x;
    mul.lo.u32 %r7, %r7, 9;
    add.u32 %r7, %r7, %r1;
    mul.wide.u32 %rd2, %r7, 4;
    add.u64 %rd1, %rd1, %rd2;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, bins;
    add.u32 %r3, %r3, %r2;
    ld.shared.u32 %r8, [%r3];
    st.global.u32 [%rd1], %r8;
    setp.ne.u32 %p2, %r1, 0;
    @%p2 bra $L_done;
    ld.shared.u32 %r9, [tiny];
    st.global.u32 [%rd1+32], %r9;
$L_done:
    ret;
}
)";
    const unsigned grid = 40, block = 100;
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, grid * 9 * 4));
    void *params[] = {&out};
    ASSERT_OK(run(body, "hist", grid, block, params));
    const uint32_t *o = (const uint32_t *)out;
    for (unsigned b = 0; b < grid; ++b) {
        for (unsigned k = 0; k < 8; ++k)
            ASSERT_EQ(block / 8 + (k < block % 8 ? 1u : 0u), o[b * 9 + k]) << "block " << b << " bin " << k;
        ASSERT_EQ(block, o[b * 9 + 8]) << "block " << b << ": the float sum of " << block << " x 2^-149";
    }
    ASSERT_OK(cuMemFree(out));
}

TEST_F(KernelAtomic, LanesOfOneInstruction_AreAppliedInLaneOrder)
{
    /* Every lane exchanges its lane id into one word: lane l reads what lane l-1 wrote. */
    const char body[] = R"(
.visible .entry order(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %laneid;
    atom.global.exch.b32 %r2, [%rd1], %r1;
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd2, %rd1, %rd2;
    st.global.u32 [%rd2+4], %r2;
    ret;
}
)";
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 33 * 4));
    uint32_t *o = (uint32_t *)out;
    o[0] = 1000;
    void *params[] = {&out};
    ASSERT_OK(run(body, "order", 1, 32, params));
    EXPECT_EQ(31u, o[0]);
    EXPECT_EQ(1000u, o[1]);
    for (uint32_t l = 1; l < 32; ++l)
        EXPECT_EQ(l - 1, o[1 + l]) << "lane " << l;
    ASSERT_OK(cuMemFree(out));
}

namespace {

/* One thread per case: thread i applies `insn` to mem[i] (at [%rd3]) with operand b[i] in %X1
 * (and c[i] in %X2) and stores the result register %X3 to old[i], where X is the value register
 * family `vr`: hv (16 bits), rv (32) or dv (64). b, c and old are arrays of 64-bit slots. */
std::string one_op_kernel(const char *type_reg, const char *insn, bool has_c)
{
    std::string s = R"(
.visible .entry op(.param .u64 mem, .param .u64 b, .param .u64 c, .param .u64 old, .param .u32 size)
{
    .reg .b16 %hv<4>;
    .reg .b32 %rv<4>;
    .reg .b64 %dv<4>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [mem];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd4, [c];
    ld.param.u64 %rd5, [old];
    ld.param.u32 %r1, [size];
    mov.u32 %r2, %tid.x;
    mul.wide.u32 %rd6, %r2, 8;
    mul.wide.u32 %rd7, %r2, %r1;
    add.u64 %rd3, %rd1, %rd7;
    add.u64 %rd2, %rd2, %rd6;
    add.u64 %rd4, %rd4, %rd6;
    add.u64 %rd5, %rd5, %rd6;
)";
    std::string t = type_reg;
    std::string ld = t == "hv" ? "u16" : t == "rv" ? "u32" : "u64";
    s += "    ld.global." + ld + " %" + t + "1, [%rd2];\n";
    if (has_c)
        s += "    ld.global." + ld + " %" + t + "2, [%rd4];\n";
    s += std::string("    ") + insn + ";\n";
    s += "    st.global." + ld + " [%rd5], %" + t + "3;\n    ret;\n}\n";
    return s;
}

struct Case {
    uint64_t mem, b, c;
    uint64_t want_mem, want_old;
};

void run_cases(const char *type_reg, const char *insn, bool has_c, unsigned size, const std::vector<Case> &cases)
{
    size_t n = cases.size();
    CUdeviceptr mem, b, c, old;
    ASSERT_OK(cuMemAlloc(&mem, n * 8));
    ASSERT_OK(cuMemAlloc(&b, n * 8));
    ASSERT_OK(cuMemAlloc(&c, n * 8));
    ASSERT_OK(cuMemAlloc(&old, n * 8));
    memset((void *)mem, 0, n * 8);
    memset((void *)old, 0, n * 8);
    for (size_t i = 0; i < n; ++i) {
        memcpy((char *)mem + i * size, &cases[i].mem, size); // little-endian: the low bytes
        ((uint64_t *)b)[i] = cases[i].b;
        ((uint64_t *)c)[i] = cases[i].c;
    }
    void *params[] = {&mem, &b, &c, &old, &size};
    ASSERT_OK(run(one_op_kernel(type_reg, insn, has_c), "op", 1, (unsigned)n, params));
    for (size_t i = 0; i < n; ++i) {
        uint64_t got = 0;
        memcpy(&got, (char *)mem + i * size, size);
        EXPECT_EQ(cases[i].want_mem, got) << insn << " case " << i << std::hex << ": mem 0x" << cases[i].mem
                                          << " b 0x" << cases[i].b;
        uint64_t o = ((uint64_t *)old)[i];
        if (size < 8)
            o &= (1ull << (8 * size)) - 1;
        EXPECT_EQ(cases[i].want_old, o) << insn << " case " << i;
    }
    cuMemFree(mem);
    cuMemFree(b);
    cuMemFree(c);
    cuMemFree(old);
}

} // namespace

TEST_F(KernelAtomic, IncAndDec_FollowTheIsaWrapRules)
{
    /* inc(r, s) = r >= s ? 0 : r + 1;  dec(r, s) = r == 0 || r > s ? s : r - 1 */
    run_cases("rv", "atom.global.inc.u32 %rv3, [%rd3], %rv1", false, 4,
              {{5, 3, 0, 0, 5},
               {3, 3, 0, 0, 3},
               {2, 3, 0, 3, 2},
               {0, 0, 0, 0, 0},
               {0xffffffff, 0xffffffff, 0, 0, 0xffffffff}});
    run_cases("rv", "atom.global.dec.u32 %rv3, [%rd3], %rv1", false, 4,
              {{0, 3, 0, 3, 0}, {5, 3, 0, 3, 5}, {2, 3, 0, 1, 2}, {3, 3, 0, 2, 3}, {0, 0, 0, 0, 0}});
}

TEST_F(KernelAtomic, MinAndMax_CompareAsTheirTypeSays)
{
    run_cases("rv", "atom.global.min.s32 %rv3, [%rd3], %rv1", false, 4,
              {{3, 0xfffffffb, 0, 0xfffffffb, 3}, {0x80000000, 0x7fffffff, 0, 0x80000000, 0x80000000}});
    run_cases("rv", "atom.global.min.u32 %rv3, [%rd3], %rv1", false, 4, {{3, 0xfffffffb, 0, 3, 3}});
    run_cases("rv", "atom.global.max.s32 %rv3, [%rd3], %rv1", false, 4, {{3, 0xfffffffb, 0, 3, 3}});
    run_cases("rv", "atom.global.max.u32 %rv3, [%rd3], %rv1", false, 4, {{3, 0xfffffffb, 0, 0xfffffffb, 3}});
}

TEST_F(KernelAtomic, CompareAndSwap_StoresOnlyOnAMatchAndReturnsTheOldValue)
{
    run_cases("rv", "atom.global.cas.b32 %rv3, [%rd3], %rv1, %rv2", true, 4,
              {{7, 7, 9, 9, 7}, {7, 8, 9, 7, 7}, {0xffffffff, 0xffffffff, 0, 0, 0xffffffff}});
    run_cases("hv", "atom.global.cas.b16 %hv3, [%rd3], %hv1, %hv2", true, 2,
              {{0x1234, 0x1234, 0xbeef, 0xbeef, 0x1234}, {0x1234, 0x1235, 0xbeef, 0x1234, 0x1234}});
}

TEST_F(KernelAtomic, SixtyFourBitOperations_UseAllSixtyFourBits)
{
    run_cases("dv", "atom.global.min.s64 %dv3, [%rd3], %dv1", false, 8,
              {{5, 0xfffffffffffffffbull, 0, 0xfffffffffffffffbull, 5}});
    run_cases("dv", "atom.global.max.u64 %dv3, [%rd3], %dv1", false, 8,
              {{5, 0xfffffffffffffffbull, 0, 0xfffffffffffffffbull, 5}});
    run_cases("dv", "atom.global.add.u64 %dv3, [%rd3], %dv1", false, 8,
              {{0xffffffffull, 1, 0, 0x100000000ull, 0xffffffffull}});
    run_cases("dv", "atom.global.or.b64 %dv3, [%rd3], %dv1", false, 8,
              {{1, 0x8000000000000000ull, 0, 0x8000000000000001ull, 1}});
    run_cases("dv", "atom.global.and.b64 %dv3, [%rd3], %dv1", false, 8,
              {{0xff000000000000ffull, 0x0f0000000000000full, 0, 0x0f0000000000000full, 0xff000000000000ffull}});
    run_cases("dv", "atom.global.exch.b64 %dv3, [%rd3], %dv1", false, 8,
              {{1, 0x123456789abcdefull, 0, 0x123456789abcdefull, 1}});
    run_cases("dv", "atom.global.cas.b64 %dv3, [%rd3], %dv1, %dv2", true, 8,
              {{0x100000001ull, 0x100000001ull, 0x200000002ull, 0x200000002ull, 0x100000001ull},
               {0x100000001ull, 0x000000001ull, 0x200000002ull, 0x100000001ull, 0x100000001ull}});
}

TEST_F(KernelAtomic, FloatAddOnGlobalMemory_FlushesSubnormalsAndGivesCanonicalNaNAsTheH100)
{
    /* Expected bits: tools/probes/warp_atom_probe.h100.txt ("global"). */
    run_cases("rv", "atom.global.add.f32 %rv3, [%rd3], %rv1", false, 4,
              {
                  {0x80000000, 0x00000000, 0, 0x00000000, 0x80000000}, // -0 + +0 = +0
                  {0x80000000, 0x80000000, 0, 0x80000000, 0x80000000}, // -0 + -0 = -0
                  {0x00000000, 0x00400000, 0, 0x00000000, 0x00000000}, // subnormal input flushed
                  {0x00800000, 0x80400000, 0, 0x00800000, 0x00800000},
                  {0x00c00000, 0x80800000, 0, 0x00000000, 0x00c00000}, // subnormal result flushed
                  {0x00000001, 0x00000001, 0, 0x00000000, 0x00000001},
                  {0x7fc00001, 0x3f800000, 0, 0x7fffffff, 0x7fc00001}, // NaN: canonical
                  {0x3f800000, 0xffc00000, 0, 0x7fffffff, 0x3f800000},
                  {0xff800000, 0x7f800000, 0, 0x7fffffff, 0xff800000}, // -inf + inf
                  {0x7f800001, 0x3f800000, 0, 0x7fffffff, 0x7f800001}, // signalling NaN
                  {0x7f7fffff, 0x7f7fffff, 0, 0x7f800000, 0x7f7fffff}, // overflow: inf
                  {0x3f800000, 0x33800000, 0, 0x3f800000, 0x3f800000}, // tie: to even
              });
}

TEST_F(KernelAtomic, FloatAddOnSharedMemory_KeepsSubnormalsDirectAndThroughAGenericAddress)
{
    /* Thread i copies mem[i] into shared memory, adds b[i] there (first .shared, then through a
     * generic address), and writes both results. Expected: the probe's "shared" and
     * "generic-shared" columns. */
    const char body[] = R"(
.visible .entry sh(.param .u64 mem, .param .u64 b, .param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<12>;
    .shared .align 4 .b32 s[32];
    ld.param.u64 %rd1, [mem];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 4;
    add.u64 %rd5, %rd1, %rd4;
    add.u64 %rd6, %rd2, %rd4;
    add.u64 %rd7, %rd3, %rd4;
    ld.global.u32 %r2, [%rd5];
    ld.global.u32 %r3, [%rd6];
    mov.u32 %r4, s;
    shl.b32 %r5, %r1, 2;
    add.u32 %r4, %r4, %r5;
    st.shared.u32 [%r4], %r2;
    atom.shared.add.f32 %r6, [%r4], %r3;
    ld.shared.u32 %r7, [%r4];
    st.global.u32 [%rd7], %r7;
    st.shared.u32 [%r4], %r2;
    mov.u64 %rd8, s;
    cvta.shared.u64 %rd8, %rd8;
    add.u64 %rd8, %rd8, %rd4;
    atom.add.f32 %r6, [%rd8], %r3;
    ld.shared.u32 %r7, [%r4];
    st.global.u32 [%rd7+128], %r7;
    ret;
}
)";
    const uint32_t mem[] = {0x00000000u, 0x00800000u, 0x00c00000u, 0x00000001u, 0x7fc00001u, 0x00400000u};
    const uint32_t b[] = {0x00400000u, 0x80400000u, 0x80800000u, 0x00000001u, 0x3f800000u, 0x00000001u};
    const uint32_t want[] = {0x00400000u, 0x00400000u, 0x00400000u, 0x00000002u, 0x7fffffffu, 0x00400001u};
    const unsigned n = sizeof(mem) / 4;
    CUdeviceptr dm, db, out;
    ASSERT_OK(cuMemAlloc(&dm, sizeof(mem)));
    ASSERT_OK(cuMemAlloc(&db, sizeof(b)));
    ASSERT_OK(cuMemAlloc(&out, 256));
    memcpy((void *)dm, mem, sizeof(mem));
    memcpy((void *)db, b, sizeof(b));
    void *params[] = {&dm, &db, &out};
    ASSERT_OK(run(body, "sh", 1, n, params));
    const uint32_t *o = (const uint32_t *)out;
    for (unsigned i = 0; i < n; ++i) {
        EXPECT_EQ(want[i], o[i]) << "shared, case " << i;
        EXPECT_EQ(want[i], o[32 + i]) << "generic address of shared memory, case " << i;
    }
    cuMemFree(dm);
    cuMemFree(db);
    cuMemFree(out);
}

TEST_F(KernelAtomic, DoubleAdd_KeepsSubnormalsAndPassesNaNOperandsAsTheH100)
{
    /* warp_atom_probe.h100.txt and warp_atom_probe2.h100.txt ("f64"). */
    const struct {
        uint64_t mem, b, want;
    } cases[] = {
        {1, 1, 2},
        {0x7ff0000000000001ull, 0x3ff0000000000000ull, 0x7ff0000000000001ull},
        {0x3ff0000000000000ull, 0xfff8000000000000ull, 0xfff8000000000000ull},
        {0xfff0000000000000ull, 0x7ff0000000000000ull, 0xfff8000000000000ull},
        {0x8000000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull},
        {0x3ff0000000000000ull, 0x7ff0000000000001ull, 0x7ff0000000000001ull},
        {0x7ff8000000000001ull, 0x7ff8000000000002ull, 0x7ff8000000000002ull}, // both NaN: the added one
        {0xfff0000000000000ull, 0xfff0000000000000ull, 0xfff0000000000000ull},
    };
    const char body[] = R"(
.visible .entry dadd(.param .u64 mem, .param .u64 b)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [mem];
    ld.param.u64 %rd2, [b];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 8;
    add.u64 %rd1, %rd1, %rd3;
    add.u64 %rd2, %rd2, %rd3;
    ld.global.u64 %rd4, [%rd2];
    red.global.add.f64 [%rd1], %rd4;
    ret;
}
)";
    const unsigned n = sizeof(cases) / sizeof(cases[0]);
    CUdeviceptr dm, db;
    ASSERT_OK(cuMemAlloc(&dm, n * 8));
    ASSERT_OK(cuMemAlloc(&db, n * 8));
    for (unsigned i = 0; i < n; ++i) {
        ((uint64_t *)dm)[i] = cases[i].mem;
        ((uint64_t *)db)[i] = cases[i].b;
    }
    void *params[] = {&dm, &db};
    ASSERT_OK(run(body, "dadd", 1, n, params));
    for (unsigned i = 0; i < n; ++i)
        EXPECT_EQ(cases[i].want, ((uint64_t *)dm)[i]) << "case " << i;
    cuMemFree(dm);
    cuMemFree(db);
}

TEST_F(KernelAtomic, HalfAndBfloat16Add_RoundToNearestAndKeepSubnormalsAsTheH100)
{
    const char body[] = R"(
.visible .entry hadd(.param .u64 mem, .param .u64 b)
{
    .reg .b16 %h<4>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [mem];
    ld.param.u64 %rd2, [b];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 2;
    add.u64 %rd1, %rd1, %rd3;
    add.u64 %rd2, %rd2, %rd3;
    ld.global.u16 %h1, [%rd2];
    atom.global.add.noftz.f16 %h2, [%rd1], %h1;
    red.global.add.noftz.bf16 [%rd1+64], %h1;
    mul.wide.u32 %rd3, %r1, 4;
    ld.param.u64 %rd4, [mem];
    add.u64 %rd4, %rd4, %rd3;
    mov.b32 %r2, {%h1, %h1};
    atom.global.add.noftz.f16x2 %r3, [%rd4+128], %r2;
    red.global.add.noftz.bf16x2 [%rd4+256], %r2;
    ret;
}
)";
    /* mem, b, then the H100's f16 and bf16 results (warp_atom_probe.h100.txt, "h16"). */
    const uint16_t cases[][4] = {
        {0x0001, 0x0001, 0x0002, 0x0002}, {0x7e01, 0x3c00, 0x7fff, 0x7e01}, {0x7c00, 0xfc00, 0x7fff, 0x0000},
        {0x8000, 0x8000, 0x8000, 0x8000}, {0x7bff, 0x7bff, 0x7c00, 0x7c7f}, {0x3c00, 0x3c00, 0x4000, 0x3c80},
        {0x8001, 0x0001, 0x0000, 0x0000}, {0x3c00, 0x7e01, 0x7fff, 0x7e01},
    };
    /* bfloat16 NaNs and infinities (warp_atom_probe2.h100.txt): NaN results are canonical. */
    const uint16_t bf[][3] = {
        {0x7fc1, 0x3f80, 0x7fff}, {0x3f80, 0xffc1, 0x7fff}, {0x7f80, 0xff80, 0x7fff},
        {0x0001, 0x0001, 0x0002}, {0xffc1, 0x7fc2, 0x7fff}, {0x7f81, 0x3f80, 0x7fff},
    };
    const unsigned n = sizeof(cases) / sizeof(cases[0]);
    CUdeviceptr dm, db;
    ASSERT_OK(cuMemAlloc(&dm, 512));
    ASSERT_OK(cuMemAlloc(&db, 64));
    uint16_t *m16 = (uint16_t *)dm;
    for (unsigned i = 0; i < n; ++i) {
        m16[i] = m16[32 + i] = cases[i][0];
        m16[64 + 2 * i] = m16[64 + 2 * i + 1] = m16[128 + 2 * i] = m16[128 + 2 * i + 1] = cases[i][0];
        ((uint16_t *)db)[i] = cases[i][1];
    }
    void *params[] = {&dm, &db};
    ASSERT_OK(run(body, "hadd", 1, n, params, kHeaderSm90));
    for (unsigned i = 0; i < n; ++i) {
        EXPECT_EQ(cases[i][2], m16[i]) << "f16 case " << i;
        EXPECT_EQ(cases[i][3], m16[32 + i]) << "bf16 case " << i;
        EXPECT_EQ(cases[i][2], m16[64 + 2 * i]) << "f16x2 low, case " << i;
        EXPECT_EQ(cases[i][2], m16[64 + 2 * i + 1]) << "f16x2 high, case " << i;
        EXPECT_EQ(cases[i][3], m16[128 + 2 * i]) << "bf16x2 low, case " << i;
        EXPECT_EQ(cases[i][3], m16[128 + 2 * i + 1]) << "bf16x2 high, case " << i;
    }
    const unsigned nb = sizeof(bf) / sizeof(bf[0]);
    for (unsigned i = 0; i < nb; ++i) {
        m16[32 + i] = m16[128 + 2 * i] = m16[128 + 2 * i + 1] = bf[i][0];
        ((uint16_t *)db)[i] = bf[i][1];
    }
    ASSERT_OK(run(body, "hadd", 1, nb, params, kHeaderSm90));
    for (unsigned i = 0; i < nb; ++i) {
        EXPECT_EQ(bf[i][2], m16[32 + i]) << "bf16 NaN case " << i;
        EXPECT_EQ(bf[i][2], m16[128 + 2 * i]) << "bf16x2 low, NaN case " << i;
        EXPECT_EQ(bf[i][2], m16[128 + 2 * i + 1]) << "bf16x2 high, NaN case " << i;
    }
    cuMemFree(dm);
    cuMemFree(db);
}

TEST_F(KernelAtomic, FormsTheEngineDoesNotImplementOrTheIsaLacks_AreInvalidPtxNamingThem)
{
    const struct {
        const char *insn, *says;
    } cases[] = {
        /* vector atomics run .add of f32/f16x2/bf16x2 on .global (issue 25, isa); the rest is refused */
        {"atom.shared.v2.f32.add {%f1, %f2}, [%rd1], {%f1, %f2}", "vector atomics"},
        {"atom.global.v2.f32.max {%f1, %f2}, [%rd1], {%f1, %f2}", "vector atomics"},
        {"atom.global.add.f16 %h1, [%rd1], %h1", ".noftz"},
        {"atom.global.inc.s32 %r1, [%rd1], %r1", "inc"},
        {"atom.global.add.s64 %rd2, [%rd1], %rd2", "add"},
        {"red.global.cas.b32 [%rd1], %r1, %r1", "cas"},
        {"atom.global.exch.b128 %rd2, [%rd1], %rd2", "128-bit"},
        {"atom.local.add.u32 %r1, [%rd1], 1", "local"},
    };
    for (auto &c : cases) {
        std::string body = std::string(".visible .entry k(.param .u64 p)\n{\n .reg .b16 %h<2>;\n .reg .b32 %r<2>;\n"
                                       " .reg .f32 %f<3>;\n .reg .b64 %rd<3>;\n ld.param.u64 %rd1, [p];\n ") +
                           c.insn + ";\n ret;\n}\n";
        CUmodule m;
        EXPECT_CU(CUDA_ERROR_INVALID_PTX, load(body, &m)) << c.insn;
        EXPECT_DETAIL_HAS(c.says) << c.insn;
    }
}
