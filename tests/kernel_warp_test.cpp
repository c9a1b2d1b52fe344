// PTX warp functions on the software device: shfl in every mode with segments (widths), clamps and
// out-of-range lanes, votes (also in divergent code), match with repeated values, redux and
// activemask. Where the PTX ISA leaves the result open, the expected values are the H100's
// (tools/probes/warp_atom_probe.cu and its output tools/probes/warp_atom_probe.h100.txt) and
// docs/kernels.md ("Warp functions") says what the software device does.
#include "framework/testing.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace extmem_test;

using KernelWarp = ContextTest;

namespace {

const char kHeader[] = ".version 7.8\n.target sm_80\n.address_size 64\n"; // redux.sync needs sm_80

CUresult load(const std::string &body, CUmodule *m)
{
    std::string ptx = std::string(kHeader) + body;
    return cuModuleLoadData(m, ptx.c_str());
}

/* A kernel of one or more cases: each case is PTX that leaves its result in %r9 (b32), with
 * %r1 = %laneid, %r2 = %tid.x, %r3 = lane * 100 and %p0 free to use; the result of case k for
 * thread t is stored at out[k * threads + t]. Threads whose tid.x >= exit_from exit first (exit,
 * not a branch to the end: a lane waiting at the end is live, one that exited is not). */
std::string warp_kernel(const std::vector<std::string> &cases)
{
    std::string s = R"(
.visible .entry warp(.param .u64 out, .param .u32 threads, .param .u32 exit_from)
{
    .reg .pred %p<8>;
    .reg .b32 %r<32>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r4, [threads];
    ld.param.u32 %r5, [exit_from];
    mov.u32 %r1, %laneid;
    mov.u32 %r2, %tid.x;
    mul.lo.u32 %r3, %r1, 100;
    setp.ge.u32 %p7, %r2, %r5;
    @%p7 exit;
    mul.wide.u32 %rd2, %r2, 4;
    add.u64 %rd1, %rd1, %rd2;
    mul.wide.u32 %rd3, %r4, 4;
)";
    for (const std::string &c : cases)
        s += c + "\n    st.global.u32 [%rd1], %r9;\n    add.u64 %rd1, %rd1, %rd3;\n";
    s += "    ret;\n}\n";
    return s;
}

/* Runs the cases on one block of `threads` threads; returns out[case][thread]. */
std::vector<std::vector<uint32_t>> run_warp(const std::vector<std::string> &cases, unsigned threads,
                                            unsigned exit_from = 1024)
{
    std::vector<std::vector<uint32_t>> r;
    CUmodule m;
    CUresult e = load(warp_kernel(cases), &m);
    EXPECT_EQ(CUDA_SUCCESS, e) << extmem_error_detail();
    if (e != CUDA_SUCCESS)
        return r;
    CUfunction f;
    EXPECT_OK(cuModuleGetFunction(&f, m, "warp"));
    CUdeviceptr out;
    size_t bytes = cases.size() * threads * 4;
    EXPECT_OK(cuMemAlloc(&out, bytes));
    memset((void *)out, 0xee, bytes);
    void *params[] = {&out, &threads, &exit_from};
    EXPECT_OK(cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_OK(cuCtxSynchronize());
    const uint32_t *o = (const uint32_t *)out;
    for (size_t k = 0; k < cases.size(); ++k)
        r.emplace_back(o + k * threads, o + (k + 1) * threads);
    cuMemFree(out);
    cuModuleUnload(m);
    return r;
}

std::string hex(uint32_t v)
{
    char b[16];
    snprintf(b, sizeof(b), "0x%x", v);
    return b;
}

} // namespace

TEST_F(KernelWarp, ShflInEveryModeAndWidth_MatchesCudasDefinitionOfTheIntrinsics)
{
    /* CUDA's __shfl*_sync(mask, v, x, width) pass c = (32 - width) << 8, with 0x1f in the clamp
     * bits except for .up. Values: lane * 100. */
    for (unsigned width : {32u, 16u, 8u, 4u, 2u}) {
        unsigned seg = (32 - width) << 8;
        std::string c_up = hex(seg), c_other = hex(seg | 0x1f);
        auto got = run_warp(
            {
                "    shfl.sync.idx.b32 %r9, %r3, 3, " + c_other + ", -1;",
                "    add.u32 %r10, %r1, 5;\n    shfl.sync.idx.b32 %r9, %r3, %r10, " + c_other + ", -1;",
                "    shfl.sync.up.b32 %r9, %r3, 1, " + c_up + ", -1;",
                "    shfl.sync.up.b32 %r9|%p1, %r3, 3, " + c_up + ", -1;",
                "    shfl.sync.down.b32 %r9, %r3, 1, " + c_other + ", -1;",
                "    shfl.sync.down.b32 %r9|%p1, %r3, 3, " + c_other + ", -1;\n    selp.u32 %r9, %r9, 77777, %p1;",
                "    shfl.sync.bfly.b32 %r9, %r3, 1, " + c_other + ", -1;",
                "    shfl.sync.bfly.b32 %r9, %r3, " + std::to_string(width / 2) + ", " + c_other + ", -1;",
            },
            32);
        ASSERT_EQ(8u, got.size());
        for (unsigned l = 0; l < 32; ++l) {
            unsigned base = l & ~(width - 1), pos = l % width;
            auto v = [](unsigned lane) { return lane * 100; };
            EXPECT_EQ(v(base + 3 % width), got[0][l]) << "idx 3, width " << width << ", lane " << l;
            EXPECT_EQ(v(base + (l + 5) % width), got[1][l]) << "idx lane+5, width " << width << ", lane " << l;
            EXPECT_EQ(pos >= 1 ? v(l - 1) : v(l), got[2][l]) << "up 1, width " << width << ", lane " << l;
            EXPECT_EQ(pos >= 3 ? v(l - 3) : v(l), got[3][l]) << "up 3, width " << width << ", lane " << l;
            EXPECT_EQ(pos + 1 < width ? v(l + 1) : v(l), got[4][l]) << "down 1, width " << width << ", lane " << l;
            EXPECT_EQ(pos + 3 < width ? v(l + 3) : 77777u, got[5][l]) << "down 3, width " << width << ", lane " << l;
            EXPECT_EQ(v(l ^ 1), got[6][l]) << "bfly 1, width " << width << ", lane " << l;
            EXPECT_EQ(v(l ^ (width / 2)), got[7][l]) << "bfly width/2, width " << width << ", lane " << l;
        }
    }
}

TEST_F(KernelWarp, ShflClampAndSegmentOperands_GiveTheH100sValuesAndPredicates)
{
    /* Cases 9 to 12 of the probe: .up by 2 with c = 0x1803, .idx of lane * 3 with c = 0x1c05. */
    auto got = run_warp(
        {
            "    shfl.sync.up.b32 %r9|%p1, %r3, 2, 0x1803, -1;",
            "    shfl.sync.up.b32 %r9|%p1, %r3, 2, 0x1803, -1;\n    selp.u32 %r9, 1, 0, %p1;",
            "    mul.lo.u32 %r10, %r1, 3;\n    shfl.sync.idx.b32 %r9|%p1, %r3, %r10, 0x1c05, -1;",
            "    mul.lo.u32 %r10, %r1, 3;\n    shfl.sync.idx.b32 %r9|%p1, %r3, %r10, 0x1c05, -1;\n"
            "    selp.u32 %r9, 1, 0, %p1;",
        },
        32);
    const uint32_t up[32] = {0x0,   0x64,  0xc8,  0x12c, 0x190, 0x12c, 0x190, 0x1f4, 0x320, 0x384, 0x3e8,
                             0x44c, 0x4b0, 0x44c, 0x4b0, 0x514, 0x640, 0x6a4, 0x708, 0x76c, 0x7d0, 0x76c,
                             0x7d0, 0x834, 0x960, 0x9c4, 0xa28, 0xa8c, 0xaf0, 0xa8c, 0xaf0, 0xb54};
    const uint32_t idx[32] = {0x0,   0x64,  0xc8,  0x64,  0x190, 0x1f4, 0x258, 0x1f4, 0x320, 0x384, 0x3e8,
                              0x384, 0x4b0, 0x514, 0x578, 0x514, 0x640, 0x6a4, 0x708, 0x6a4, 0x7d0, 0x834,
                              0x898, 0x834, 0x960, 0x9c4, 0xa28, 0x9c4, 0xaf0, 0xb54, 0xbb8, 0xb54};
    ASSERT_EQ(4u, got.size());
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(up[l], got[0][l]) << "lane " << l;
        EXPECT_EQ((l % 8) >= 5 ? 1u : 0u, got[1][l]) << "lane " << l;
        EXPECT_EQ(idx[l], got[2][l]) << "lane " << l;
        EXPECT_EQ((l % 4) == 0 || (l % 4) == 3 ? 1u : 0u, got[3][l]) << "lane " << l;
    }
}

TEST_F(KernelWarp, ShflFromALaneThatExited_ReadsZeroAsOnTheH100)
{
    /* 20 lanes run; each reads lane (lane + 16) % 32: lanes 4..15 read exited lanes. */
    auto got = run_warp({"    add.u32 %r10, %r1, 16;\n    and.b32 %r10, %r10, 31;\n"
                         "    shfl.sync.idx.b32 %r9, %r3, %r10, 0x1f, -1;"},
                        32, 20);
    ASSERT_EQ(1u, got.size());
    for (unsigned l = 0; l < 32; ++l) {
        uint32_t want = l >= 20 ? 0xeeeeeeeeu : ((l + 16) % 32 < 20 ? ((l + 16) % 32) * 100 : 0u);
        EXPECT_EQ(want, got[0][l]) << "lane " << l;
    }
}

TEST_F(KernelWarp, ShflFromALaneOnAnotherPathOfDivergentCode_ReadsZeroAsOnTheH100)
{
    /* Lanes 0..15 read lanes 16..31, which are live but on the other side of a branch
     * (warp_atom_probe2.h100.txt). */
    auto got = run_warp({"    mov.u32 %r9, 0xdddddddd;\n    setp.ge.u32 %p1, %r1, 16;\n    @%p1 bra $L_other;\n"
                         "    add.u32 %r10, %r1, 16;\n    shfl.sync.idx.b32 %r9, %r3, %r10, 0x1f, 0xffff;\n"
                         "    bra $L_joined;\n$L_other:\n    add.u32 %r3, %r3, 1;\n$L_joined:"},
                        32);
    ASSERT_EQ(1u, got.size());
    for (unsigned l = 0; l < 32; ++l)
        EXPECT_EQ(l < 16 ? 0u : 0xddddddddu, got[0][l]) << "lane " << l;
}

TEST_F(KernelWarp, ShflReadingItsOwnDestination_UsesTheValuesFromBeforeTheExchange)
{
    auto got = run_warp({"    mov.u32 %r9, %r3;\n    shfl.sync.down.b32 %r9, %r9, 1, 0x1f, -1;"}, 32);
    ASSERT_EQ(1u, got.size());
    for (unsigned l = 0; l < 32; ++l)
        EXPECT_EQ(l < 31 ? (l + 1) * 100 : l * 100, got[0][l]) << "lane " << l;
}

TEST_F(KernelWarp, Votes_ReduceThePredicateOverTheLanesThatRunThem)
{
    auto got = run_warp(
        {
            "    setp.lt.u32 %p1, %r1, 16;\n    vote.sync.ballot.b32 %r9, %p1, -1;",
            "    setp.lt.u32 %p1, %r1, 16;\n    vote.sync.ballot.b32 %r9, !%p1, -1;",
            "    setp.lt.u32 %p1, %r1, 16;\n    vote.sync.all.pred %p2, %p1, -1;\n    selp.u32 %r9, 1, 0, %p2;",
            "    setp.lt.u32 %p1, %r1, 40;\n    vote.sync.all.pred %p2, %p1, -1;\n    selp.u32 %r9, 1, 0, %p2;",
            "    setp.eq.u32 %p1, %r1, 7;\n    vote.sync.any.pred %p2, %p1, -1;\n    selp.u32 %r9, 1, 0, %p2;",
            "    setp.eq.u32 %p1, %r1, 99;\n    vote.sync.any.pred %p2, %p1, -1;\n    selp.u32 %r9, 1, 0, %p2;",
            "    setp.lt.u32 %p1, %r1, 16;\n    vote.sync.uni.pred %p2, %p1, -1;\n    selp.u32 %r9, 1, 0, %p2;",
            "    setp.lt.u32 %p1, %r1, 40;\n    vote.sync.uni.pred %p2, !%p1, -1;\n    selp.u32 %r9, 1, 0, %p2;",
            "    setp.lt.u32 %p1, %r1, 40;\n    vote.ballot.b32 %r9, %p1;",
        },
        32);
    ASSERT_EQ(9u, got.size());
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(0x0000ffffu, got[0][l]);
        EXPECT_EQ(0xffff0000u, got[1][l]);
        EXPECT_EQ(0u, got[2][l]);
        EXPECT_EQ(1u, got[3][l]);
        EXPECT_EQ(1u, got[4][l]);
        EXPECT_EQ(0u, got[5][l]);
        EXPECT_EQ(0u, got[6][l]);
        EXPECT_EQ(1u, got[7][l]);
        EXPECT_EQ(0xffffffffu, got[8][l]);
    }
}

TEST_F(KernelWarp, VotesInDivergentCode_SeeOnlyTheLanesOfTheirPath)
{
    /* Odd and even lanes take different paths; each path votes over (lane % 3 == 0) with its
     * own activemask as membermask, as CUDA code written for independent thread scheduling does. */
    auto got = run_warp(
        {
            "    and.b32 %r10, %r1, 1;\n    setp.eq.u32 %p1, %r10, 0;\n    rem.u32 %r11, %r1, 3;\n"
            "    setp.eq.u32 %p2, %r11, 0;\n    @%p1 bra $L_even;\n"
            "    activemask.b32 %r12;\n    vote.sync.ballot.b32 %r9, %p2, %r12;\n    bra $L_join;\n"
            "$L_even:\n    activemask.b32 %r12;\n    vote.sync.ballot.b32 %r9, %p2, %r12;\n    not.b32 %r9, %r9;\n"
            "$L_join:",
            "    and.b32 %r10, %r1, 1;\n    setp.eq.u32 %p1, %r10, 0;\n    @%p1 bra $L_even2;\n"
            "    activemask.b32 %r9;\n    bra $L_join2;\n$L_even2:\n    activemask.b32 %r9;\n$L_join2:",
            "    setp.lt.u32 %p1, %r1, 5;\n    mov.u32 %r9, 0;\n    @%p1 activemask.b32 %r9;",
        },
        32);
    ASSERT_EQ(3u, got.size());
    uint32_t odd3 = 0, even3 = 0;
    for (unsigned l = 0; l < 32; ++l)
        if (l % 3 == 0)
            (l & 1 ? odd3 : even3) |= 1u << l;
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(l & 1 ? odd3 : ~even3, got[0][l]) << "lane " << l;
        EXPECT_EQ(l & 1 ? 0xaaaaaaaau : 0x55555555u, got[1][l]) << "lane " << l;
        EXPECT_EQ(l < 5 ? 0x1fu : 0u, got[2][l]) << "a predicated-off lane is not active; lane " << l;
    }
}

TEST_F(KernelWarp, PartialWarp_VotesAndActivemaskCountOnlyTheLanesThatExist)
{
    auto got = run_warp(
        {
            "    activemask.b32 %r9;",
            "    setp.lt.u32 %p1, %r1, 40;\n    vote.sync.ballot.b32 %r9, %p1, -1;",
            "    setp.lt.u32 %p1, %r1, 40;\n    vote.sync.all.pred %p2, %p1, -1;\n    selp.u32 %r9, 1, 0, %p2;",
            "    add.u32 %r10, %r1, 1;\n    redux.sync.add.u32 %r9, %r10, -1;",
        },
        20);
    ASSERT_EQ(4u, got.size());
    for (unsigned l = 0; l < 20; ++l) {
        EXPECT_EQ(0xfffffu, got[0][l]);
        EXPECT_EQ(0xfffffu, got[1][l]);
        EXPECT_EQ(1u, got[2][l]);
        EXPECT_EQ(210u, got[3][l]); // 1 + ... + 20, the H100's 0xd2
    }
}

TEST_F(KernelWarp, Match_GroupsLanesWithRepeatedValues)
{
    auto got = run_warp(
        {
            "    and.b32 %r10, %r1, 3;\n    match.any.sync.b32 %r9, %r10, -1;",
            "    match.all.sync.b32 %r9|%p1, 7, -1;",
            "    match.all.sync.b32 %r9|%p1, 7, -1;\n    selp.u32 %r9, 1, 0, %p1;",
            "    setp.eq.u32 %p2, %r1, 31;\n    selp.u32 %r10, 1, 0, %p2;\n    match.all.sync.b32 %r9|%p1, %r10, -1;",
            "    setp.eq.u32 %p2, %r1, 31;\n    selp.u32 %r10, 1, 0, %p2;\n    match.all.sync.b32 %r9|%p1, %r10, -1;\n"
            "    selp.u32 %r9, 1, 0, %p1;",
            /* 64-bit: the values differ only in the high word for odd lanes */
            "    and.b32 %r10, %r1, 1;\n    mov.u32 %r11, 5;\n    mov.b64 %rd4, {%r11, %r10};\n"
            "    match.any.sync.b64 %r9, %rd4, -1;",
            "    shr.u32 %r10, %r1, 3;\n    match.all.sync.b32 %r9, %r10, -1;",
        },
        32);
    ASSERT_EQ(7u, got.size());
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(0x11111111u << (l % 4), got[0][l]) << "lane " << l;
        EXPECT_EQ(0xffffffffu, got[1][l]);
        EXPECT_EQ(1u, got[2][l]);
        EXPECT_EQ(0u, got[3][l]);
        EXPECT_EQ(0u, got[4][l]);
        EXPECT_EQ(l & 1 ? 0xaaaaaaaau : 0x55555555u, got[5][l]) << "lane " << l;
        EXPECT_EQ(0u, got[6][l]);
    }
}

TEST_F(KernelWarp, Redux_ReducesOverTheWarp)
{
    auto got = run_warp(
        {
            "    add.u32 %r10, %r1, 1;\n    redux.sync.add.u32 %r9, %r10, -1;",
            "    sub.s32 %r10, %r1, 16;\n    redux.sync.min.s32 %r9, %r10, -1;",
            "    sub.s32 %r10, %r1, 16;\n    redux.sync.max.s32 %r9, %r10, -1;",
            "    sub.s32 %r10, %r1, 16;\n    redux.sync.min.u32 %r9, %r10, -1;",
            "    sub.s32 %r10, %r1, 16;\n    redux.sync.max.u32 %r9, %r10, -1;",
            "    or.b32 %r10, %r1, 0xf0;\n    redux.sync.and.b32 %r9, %r10, -1;",
            "    mov.u32 %r10, 1;\n    shl.b32 %r10, %r10, %r1;\n    redux.sync.or.b32 %r9, %r10, -1;",
            "    redux.sync.xor.b32 %r9, %r1, -1;",
            "    mov.u32 %r10, 0x80000000;\n    redux.sync.add.s32 %r9, %r10, -1;",
        },
        32);
    ASSERT_EQ(9u, got.size());
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(528u, got[0][l]);
        EXPECT_EQ((uint32_t)-16, got[1][l]);
        EXPECT_EQ(15u, got[2][l]);
        EXPECT_EQ(0u, got[3][l]);
        EXPECT_EQ((uint32_t)-1, got[4][l]);
        EXPECT_EQ(0xf0u, got[5][l]);
        EXPECT_EQ(0xffffffffu, got[6][l]);
        EXPECT_EQ(0u, got[7][l]);
        EXPECT_EQ(0u, got[8][l]); // truncated to 32 bits
    }
}

TEST_F(KernelWarp, MembermaskSmallerThanTheLanesThatRun_GivesTheH100sResults)
{
    /* Undefined in the ISA; the H100 ignores membermask for the result (the probe's last
     * case): so does the software device. */
    auto got = run_warp(
        {
            "    setp.ne.u32 %p1, %r1, 99;\n    vote.sync.ballot.b32 %r9, %p1, 0xffff;",
            "    add.u32 %r10, %r1, 1;\n    redux.sync.add.u32 %r9, %r10, 0xffff;",
            "    and.b32 %r10, %r1, 3;\n    match.any.sync.b32 %r9, %r10, 0xffff;",
            "    add.u32 %r10, %r1, 16;\n    and.b32 %r10, %r10, 31;\n"
            "    shfl.sync.idx.b32 %r9, %r3, %r10, 0x1f, 0xffff;",
        },
        32);
    ASSERT_EQ(4u, got.size());
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(0xffffffffu, got[0][l]);
        EXPECT_EQ(0x210u, got[1][l]);
        EXPECT_EQ(0x11111111u << (l % 4), got[2][l]);
        EXPECT_EQ(((l + 16) % 32) * 100, got[3][l]);
    }
}

TEST_F(KernelWarp, BarWarpSync_IsAcceptedAndOrdersNothingAway)
{
    auto got = run_warp(
        {"    mov.u32 %r9, %r3;\n    bar.warp.sync -1;\n    shfl.sync.bfly.b32 %r9, %r9, 16, 0x1f, -1;"}, 32);
    ASSERT_EQ(1u, got.size());
    for (unsigned l = 0; l < 32; ++l)
        EXPECT_EQ((l ^ 16) * 100, got[0][l]);
}

TEST_F(KernelWarp, FormsTheEngineDoesNotImplement_AreInvalidPtxNamingThem)
{
    const struct {
        const char *insn, *says;
    } cases[] = {
        {"elect.sync %r1, -1", "elect.sync d|p"}, /* elect.sync runs (issue 25, isa): this form lacks p */
        {"redux.sync.min.f32 %f1, %f1, -1", "f32"},
        {"shfl.sync.idx.b64 %rd1, %rd1, 0, 0x1f, -1", "b32"},
        {"vote.sync.ballot.pred %p1, %p1, -1", "b32"},
    };
    for (auto &c : cases) {
        std::string body = std::string(".visible .entry k()\n{\n .reg .pred %p<2>;\n .reg .b32 %r<2>;\n"
                                       " .reg .f32 %f<2>;\n .reg .b64 %rd<2>;\n ") +
                           c.insn + ";\n ret;\n}\n";
        CUmodule m;
        EXPECT_CU(CUDA_ERROR_INVALID_PTX, load(body, &m)) << c.insn;
        EXPECT_DETAIL_HAS(c.says) << c.insn;
    }
}
