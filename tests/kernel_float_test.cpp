// Floating-point and conversion instructions of the PTX engine (src/kernel/ops_float.c,
// ops_cvt.c), through the public module and launch calls: one instruction per case, run by one
// thread on operands given as bit patterns, the result compared bit for bit with what PTX
// defines or, where PTX leaves the bits open, with what an H100 gave
// (tools/probes/float_probe.h100.txt; docs/kernels.md, "Floating point").
#include "framework/testing.h"

#include <cstring>
#include <string>
#include <vector>

using namespace extmem_test;

using KernelFloat = ContextTest;

namespace {

// One instruction: its text, the register classes of destination and sources ("f:ff": an f32
// destination and two f32 sources; f f32, d f64, h 16 bits, r 32 bits, l 64 bits), the
// operands' bits and the result's.
struct Case {
    const char *insn;
    const char *regs;
    uint64_t a, b, c;
    uint64_t want;
};

const char *reg_type(char c)
{
    switch (c) {
    case 'f':
        return ".f32";
    case 'd':
        return ".f64";
    case 'h':
        return ".b16";
    case 'r':
        return ".b32";
    default:
        return ".b64";
    }
}

// PTX that loads the operands from .u64 parameters into registers of their classes, runs the
// instruction and stores the destination, zero-extended, to out.
std::string kernel_for(const Case &c)
{
    std::string dc(1, c.regs[0]), srcs(c.regs + 2);
    std::string s = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 out)\n{\n"
                    ".reg .b64 %in<3>; .reg .b64 %o; .reg .b64 %p; .reg .b32 %t<4>;\n";
    s += std::string(".reg ") + reg_type(dc[0]) + " %d;\n";
    for (size_t i = 0; i < srcs.size(); ++i)
        s += std::string(".reg ") + reg_type(srcs[i]) + " %s" + std::to_string(i) + ";\n";
    const char *params[3] = {"pa", "pb", "pc"};
    for (size_t i = 0; i < srcs.size(); ++i) {
        std::string n = std::to_string(i);
        s += "ld.param.u64 %in" + n + ", [" + params[i] + "];\n";
        switch (srcs[i]) {
        case 'f':
            s += "cvt.u32.u64 %t" + n + ", %in" + n + ";\nmov.b32 %s" + n + ", %t" + n + ";\n";
            break;
        case 'h':
            s += "cvt.u16.u64 %s" + n + ", %in" + n + ";\n";
            break;
        case 'r':
            s += "cvt.u32.u64 %s" + n + ", %in" + n + ";\n";
            break;
        default:
            s += "mov.b64 %s" + n + ", %in" + n + ";\n";
            break;
        }
    }
    s += std::string(c.insn) + " %d";
    for (size_t i = 0; i < srcs.size(); ++i)
        s += ", %s" + std::to_string(i);
    s += ";\n";
    switch (dc[0]) {
    case 'f':
        s += "mov.b32 %t3, %d;\ncvt.u64.u32 %o, %t3;\n";
        break;
    case 'h':
        s += "cvt.u64.u16 %o, %d;\n";
        break;
    case 'r':
        s += "cvt.u64.u32 %o, %d;\n";
        break;
    default:
        s += "mov.b64 %o, %d;\n";
        break;
    }
    s += "ld.param.u64 %p, [out];\nst.global.u64 [%p], %o;\nret;\n}\n";
    return s;
}

// Runs each case and reports every one whose result differs.
void run_cases(const std::vector<Case> &cases)
{
    CUdeviceptr out;
    ASSERT_OK(cuMemAlloc(&out, 8));
    for (const Case &c : cases) {
        std::string text = kernel_for(c);
        CUmodule m = nullptr;
        CUfunction f = nullptr;
        ASSERT_OK(cuModuleLoadData(&m, text.c_str())) << c.insn;
        ASSERT_OK(cuModuleGetFunction(&f, m, "k")) << c.insn;
        uint64_t a = c.a, b = c.b, cc = c.c, got = 0xdeadbeefdeadbeefull;
        ASSERT_OK(cuMemcpyHtoD(out, &got, 8));
        void *params[] = {&a, &b, &cc, &out};
        ASSERT_OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr)) << c.insn;
        ASSERT_OK(cuCtxSynchronize()) << c.insn;
        ASSERT_OK(cuMemcpyDtoH(&got, out, 8));
        EXPECT_EQ(got, c.want) << c.insn << " a=0x" << std::hex << c.a << " b=0x" << c.b << " c=0x" << c.c
                               << ": got 0x" << got << ", want 0x" << c.want;
        ASSERT_OK(cuModuleUnload(m));
    }
    ASSERT_OK(cuMemFree(out));
}

// Loading a kernel with `insn` is INVALID_PTX.
void expect_refused(const char *insn, const char *regs)
{
    Case c = {insn, regs, 0, 0, 0, 0};
    std::string text = kernel_for(c);
    CUmodule m = nullptr;
    EXPECT_EQ(cuModuleLoadData(&m, text.c_str()), CUDA_ERROR_INVALID_PTX) << insn;
    if (m)
        cuModuleUnload(m);
}

} // namespace

// Each rounding mode gives its own neighbour of an inexact sum, product, quotient, root and
// fused product-sum; a tie goes to the even neighbour in .rn.
TEST_F(KernelFloat, F32_RoundingModes_PickTheNeighbourTheModeNames)
{
    run_cases({
        // 1 + (2^-24 + 2^-47): just over half an ulp
        {"add.rn.f32", "f:ff", 0x3f800000, 0x33800001, 0, 0x3f800001},
        {"add.rz.f32", "f:ff", 0x3f800000, 0x33800001, 0, 0x3f800000},
        {"add.rm.f32", "f:ff", 0x3f800000, 0x33800001, 0, 0x3f800000},
        {"add.rp.f32", "f:ff", 0x3f800000, 0x33800001, 0, 0x3f800001},
        {"add.rm.f32", "f:ff", 0xbf800000, 0xb3800001, 0, 0xbf800001},
        {"add.rp.f32", "f:ff", 0xbf800000, 0xb3800001, 0, 0xbf800000},
        {"sub.rz.f32", "f:ff", 0xbf800000, 0x33800001, 0, 0xbf800000},
        // 1 + 2^-24: a tie
        {"add.f32", "f:ff", 0x3f800000, 0x33800000, 0, 0x3f800000},
        {"add.rp.f32", "f:ff", 0x3f800000, 0x33800000, 0, 0x3f800001},
        // 3 * RN(1/3) = 1 + 2^-25
        {"mul.rn.f32", "f:ff", 0x40400000, 0x3eaaaaab, 0, 0x3f800000},
        {"mul.rp.f32", "f:ff", 0x40400000, 0x3eaaaaab, 0, 0x3f800001},
        {"div.rn.f32", "f:ff", 0x3f800000, 0x40400000, 0, 0x3eaaaaab},
        {"div.rz.f32", "f:ff", 0x3f800000, 0x40400000, 0, 0x3eaaaaaa},
        {"div.rm.f32", "f:ff", 0x3f800000, 0x40400000, 0, 0x3eaaaaaa},
        {"div.rp.f32", "f:ff", 0x3f800000, 0x40400000, 0, 0x3eaaaaab},
        {"sqrt.rn.f32", "f:f", 0x40000000, 0, 0, 0x3fb504f3},
        {"sqrt.rp.f32", "f:f", 0x40000000, 0, 0, 0x3fb504f4},
        {"sqrt.rz.f32", "f:f", 0x40000000, 0, 0, 0x3fb504f3},
        {"rcp.rn.f32", "f:f", 0x40400000, 0, 0, 0x3eaaaaab},
        {"rcp.rz.f32", "f:f", 0x40400000, 0, 0, 0x3eaaaaaa},
        // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46: fused, a tie at 2^-22
        {"fma.rn.f32", "f:fff", 0x3f800001, 0x3f800001, 0xbf800000, 0x34800000},
        {"fma.rp.f32", "f:fff", 0x3f800001, 0x3f800001, 0xbf800000, 0x34800001},
        {"fma.rz.f32", "f:fff", 0x3f800001, 0x3f800001, 0xbf800000, 0x34800000},
        {"mad.rn.f32", "f:fff", 0x3f800001, 0x3f800001, 0xbf800000, 0x34800000},
        // overflow: infinity or the largest finite value, as the mode says
        {"mul.rn.f32", "f:ff", 0x7f7fffff, 0x40000000, 0, 0x7f800000},
        {"mul.rz.f32", "f:ff", 0x7f7fffff, 0x40000000, 0, 0x7f7fffff},
        {"mul.rm.f32", "f:ff", 0xff7fffff, 0x40000000, 0, 0xff800000},
        {"mul.rp.f32", "f:ff", 0xff7fffff, 0x40000000, 0, 0xff7fffff},
    });
}

TEST_F(KernelFloat, F64_RoundingModes_PickTheNeighbourTheModeNames)
{
    run_cases({
        // 1 + 2^-60
        {"add.rn.f64", "d:dd", 0x3ff0000000000000, 0x3c30000000000000, 0, 0x3ff0000000000000},
        {"add.rp.f64", "d:dd", 0x3ff0000000000000, 0x3c30000000000000, 0, 0x3ff0000000000001},
        {"add.rm.f64", "d:dd", 0xbff0000000000000, 0xbc30000000000000, 0, 0xbff0000000000001},
        {"add.rz.f64", "d:dd", 0xbff0000000000000, 0xbc30000000000000, 0, 0xbff0000000000000},
        // 1/3
        {"div.rn.f64", "d:dd", 0x3ff0000000000000, 0x4008000000000000, 0, 0x3fd5555555555555},
        {"div.rp.f64", "d:dd", 0x3ff0000000000000, 0x4008000000000000, 0, 0x3fd5555555555556},
        {"rcp.rm.f64", "d:d", 0x4008000000000000, 0, 0, 0x3fd5555555555555},
        {"fma.rn.f64", "d:ddd", 0x3ff0000000000001, 0x3ff0000000000001, 0xbff0000000000000, 0x3cc0000000000000},
        {"fma.rp.f64", "d:ddd", 0x3ff0000000000001, 0x3ff0000000000001, 0xbff0000000000000, 0x3cc0000000000001},
        {"sqrt.rn.f64", "d:d", 0x4008000000000000, 0, 0, 0x3ffbb67ae8584caa},
    });
}

// Subnormal operands and results: kept without .ftz, flushed to a zero of the same sign with
// it (a result is flushed by its exact value: 2^-126 * (1 - 2^-24) rounds up to 2^-126, yet
// .ftz makes it 0, as on the H100).
TEST_F(KernelFloat, F32_Subnormals_AreKeptOrFlushedToSignedZeroWithFtz)
{
    run_cases({
        {"add.f32", "f:ff", 0x00000001, 0x00000001, 0, 0x00000002},
        {"add.ftz.f32", "f:ff", 0x00000001, 0x00000001, 0, 0x00000000},
        {"mul.rn.f32", "f:ff", 0x00800000, 0x3f000000, 0, 0x00400000},
        {"mul.rn.ftz.f32", "f:ff", 0x00800000, 0x3f000000, 0, 0x00000000},
        {"mul.rn.ftz.f32", "f:ff", 0x00800000, 0xbf000000, 0, 0x80000000},
        {"mul.rn.f32", "f:ff", 0x00800000, 0x3f7fffff, 0, 0x00800000},
        {"mul.rn.ftz.f32", "f:ff", 0x00800000, 0x3f7fffff, 0, 0x00000000},
        {"mul.rz.f32", "f:ff", 0x00800000, 0x3f7fffff, 0, 0x007fffff},
        {"neg.ftz.f32", "f:f", 0x00000001, 0, 0, 0x80000000},
        {"abs.ftz.f32", "f:f", 0x80000001, 0, 0, 0x00000000},
        {"sqrt.rn.ftz.f32", "f:f", 0x007fffff, 0, 0, 0x00000000},
        {"sqrt.rn.f32", "f:f", 0x007fffff, 0, 0, 0x1fffffff},
        {"lg2.approx.f32", "f:f", 0x00000001, 0, 0, 0xc3150000},
        {"lg2.approx.ftz.f32", "f:f", 0x00000001, 0, 0, 0xff800000},
        {"max.ftz.NaN.f32", "f:ff", 0x80000000, 0x00000001, 0, 0x00000000},
    });
}

// NaN results: canonical for f32 (also through neg and abs, and .sat makes NaN 0); f64 keeps
// the second operand's payload (a division's first operand's), quieted; neg.f64 of a NaN keeps
// its sign; inf - inf in f64 is the default NaN 0xfff8000000000000.
TEST_F(KernelFloat, NaNs_HaveTheBitsTheH100Gives)
{
    run_cases({
        {"add.f32", "f:ff", 0x7fc00123, 0x3f800000, 0, 0x7fffffff},
        {"add.f32", "f:ff", 0x7f800000, 0xff800000, 0, 0x7fffffff},
        {"neg.f32", "f:f", 0xffc00123, 0, 0, 0x7fffffff},
        {"abs.f32", "f:f", 0xffc00123, 0, 0, 0x7fffffff},
        {"add.sat.f32", "f:ff", 0x7fc00000, 0x3f800000, 0, 0x00000000},
        {"fma.rn.sat.f32", "f:fff", 0x7fc00000, 0x3f800000, 0, 0x00000000},
        {"sqrt.rn.f32", "f:f", 0xbf800000, 0, 0, 0x7fffffff},
        {"sqrt.rn.f32", "f:f", 0x80000000, 0, 0, 0x80000000},
        {"div.rn.f32", "f:ff", 0x00000000, 0x80000000, 0, 0x7fffffff},
        {"add.f64", "d:dd", 0x3ff0000000000000, 0x7ff0000000000001, 0, 0x7ff8000000000001},
        {"add.f64", "d:dd", 0xfff8000000000123, 0x7ff8000000000000, 0, 0x7ff8000000000000},
        {"mul.f64", "d:dd", 0xfff8000000000123, 0x3ff0000000000000, 0, 0xfff8000000000123},
        {"add.f64", "d:dd", 0x7ff0000000000000, 0xfff0000000000000, 0, 0xfff8000000000000},
        {"div.rn.f64", "d:dd", 0xfff8000000000123, 0x7ff8000000000000, 0, 0xfff8000000000123},
        {"fma.rn.f64", "d:ddd", 0x401c000000000000, 0xfff8000000000123, 0x7ff8000000000000, 0xfff8000000000123},
        {"neg.f64", "d:d", 0xfff8000000000123, 0, 0, 0xfff8000000000123},
        {"neg.f64", "d:d", 0x7ff0000000000001, 0, 0, 0x7ff8000000000001},
        {"abs.f64", "d:d", 0xfff8000000000123, 0, 0, 0xfff8000000000123},
        {"sqrt.rn.f64", "d:d", 0xbff0000000000000, 0, 0, 0xfff8000000000000},
        {"rcp.approx.ftz.f64", "d:d", 0x7ff8000000000000, 0, 0, 0x7fffffff00000000},
        {"rcp.approx.ftz.f64", "d:d", 0x401c000000000000, 0, 0, 0x3fc2492400000000},
    });
}

// min/max: -0 below +0, one NaN gives the other operand, two NaNs (or .NaN with one) the
// canonical NaN; .xorsign.abs takes the smaller magnitude with the signs' xor; copysign moves
// bits, payloads included.
TEST_F(KernelFloat, MinMaxCopysign_FollowTheZeroAndNaNRules)
{
    run_cases({
        {"min.f32", "f:ff", 0x00000000, 0x80000000, 0, 0x80000000},
        {"max.f32", "f:ff", 0x80000000, 0x00000000, 0, 0x00000000},
        {"min.f32", "f:ff", 0x7fc00000, 0x40000000, 0, 0x40000000},
        {"max.f32", "f:ff", 0xffc00123, 0x7fc00000, 0, 0x7fffffff},
        {"min.NaN.f32", "f:ff", 0x3f800000, 0xffc00123, 0, 0x7fffffff},
        {"min.xorsign.abs.f32", "f:ff", 0xbf800000, 0x00000001, 0, 0x80000001},
        {"min.xorsign.abs.f32", "f:ff", 0xbf800000, 0xffc00123, 0, 0x3f800000},
        {"min.f64", "d:dd", 0x0000000000000000, 0x8000000000000000, 0, 0x8000000000000000},
        {"min.f64", "d:dd", 0x7ff8000000000000, 0xfff8000000000123, 0, 0xfff8000000000123},
        {"max.f64", "d:dd", 0x7ff8000000000000, 0x4008000000000000, 0, 0x4008000000000000},
        {"copysign.f32", "f:ff", 0xbf800000, 0x7fc00123, 0, 0xffc00123},
        {"copysign.f64", "d:dd", 0x8000000000000000, 0x7ff0000000000001, 0, 0xfff0000000000001},
        {"testp.notanumber.f32", "r:f", 0x7f800001, 0, 0, 1},
        {"testp.subnormal.f32", "r:f", 0x80000001, 0, 0, 1},
        {"testp.normal.f64", "r:d", 0x000fffffffffffff, 0, 0, 0},
        {"testp.finite.f64", "r:d", 0xfff0000000000000, 0, 0, 0},
        {"testp.infinite.f64", "r:d", 0xfff0000000000000, 0, 0, 1},
    });
}

// Half precision: rounded once to f16/bf16 (fma fused), canonical NaN 0x7fff, .relu and .sat,
// and the x2 forms per half (the low half is the first element).
TEST_F(KernelFloat, HalfAndBfloat16_ArithmeticRoundsOnceWithCanonicalNaN)
{
    run_cases({
        {"add.f16", "h:hh", 0x3c00, 0x3c00, 0, 0x4000},
        {"add.f16", "h:hh", 0x7bff, 0x7bff, 0, 0x7c00},
        {"add.f16", "h:hh", 0x0001, 0x0001, 0, 0x0002},
        {"add.ftz.f16", "h:hh", 0x0001, 0x0001, 0, 0x0000},
        {"add.f16", "h:hh", 0x7c00, 0xfc00, 0, 0x7fff},
        {"mul.f16", "h:hh", 0xfe23, 0x3c00, 0, 0x7fff},
        {"mul.f16", "h:hh", 0x7c00, 0xfc00, 0, 0xfc00},
        {"fma.rn.f16", "h:hhh", 0x3c01, 0x3c01, 0xbc00, 0x1800},
        {"fma.rn.relu.f16", "h:hhh", 0x3c00, 0xbc00, 0x8001, 0x0000},
        {"fma.rn.relu.f16", "h:hhh", 0x3c00, 0x7e00, 0xfe23, 0x7fff},
        {"fma.rn.sat.f16", "h:hhh", 0x4000, 0x4000, 0x0000, 0x3c00},
        {"neg.f16", "h:h", 0x7c01, 0, 0, 0x7fff},
        {"abs.bf16", "h:h", 0xffa1, 0, 0, 0x7fff},
        {"neg.bf16", "h:h", 0x7f80, 0, 0, 0xff80},
        {"min.f16", "h:hh", 0x7e00, 0x3c00, 0, 0x3c00},
        {"max.NaN.f16", "h:hh", 0x3c00, 0x7e00, 0, 0x7fff},
        {"add.rn.bf16", "h:hh", 0x3f80, 0x3f80, 0, 0x4000},
        {"add.rn.bf16", "h:hh", 0xffa1, 0x4200, 0, 0x7fff},
        {"fma.rn.relu.bf16", "h:hhh", 0x3f80, 0xbf80, 0x0000, 0x0000},
        {"ex2.approx.f16", "h:h", 0x3e00, 0, 0, 0x41a8},
        {"add.f16x2", "r:rr", 0x3c004000, 0x3c003c00, 0, 0x40004200},
        {"add.f16x2", "r:rr", 0x7e00bc00, 0x3c003c00, 0, 0x7fff0000},
        {"max.bf16x2", "r:rr", 0x3c003c00, 0x7e00bc00, 0, 0x7e003c00},
    });
}

// Float to integer: rounded as named, saturated to the destination's range, NaN 0 (but from
// .f64 or to a 64-bit integer the destination's sign bit, as on the H100); a signed result
// narrower than its register is sign-extended into it.
TEST_F(KernelFloat, CvtFloatToInteger_RoundsSaturatesAndMapsNaN)
{
    run_cases({
        {"cvt.rni.s32.f32", "r:f", 0x40200000, 0, 0, 2},          // 2.5
        {"cvt.rni.s32.f32", "r:f", 0x40600000, 0, 0, 4},          // 3.5
        {"cvt.rni.s32.f32", "r:f", 0xc0200000, 0, 0, 0xfffffffe}, // -2.5
        {"cvt.rmi.s32.f32", "r:f", 0xbf000000, 0, 0, 0xffffffff}, // -0.5
        {"cvt.rpi.u32.f32", "r:f", 0xbf000000, 0, 0, 0},
        {"cvt.rzi.s32.f32", "r:f", 0x501502f9, 0, 0, 0x7fffffff}, // 1e10
        {"cvt.rzi.s32.f32", "r:f", 0xff800000, 0, 0, 0x80000000},
        {"cvt.rzi.s32.f32", "r:f", 0x7fc00000, 0, 0, 0},
        {"cvt.rzi.u16.f32", "h:f", 0x7f800000, 0, 0, 0xffff},
        {"cvt.rpi.s8.f32", "h:f", 0xff800000, 0, 0, 0xff80},
        {"cvt.rpi.s32.f32", "r:f", 0x00000001, 0, 0, 1},
        {"cvt.rpi.ftz.s32.f32", "r:f", 0x00000001, 0, 0, 0},
        {"cvt.rzi.s64.f64", "l:d", 0x7ff8000000000000, 0, 0, 0x8000000000000000},
        {"cvt.rzi.s32.f64", "r:d", 0x7ff8000000000000, 0, 0, 0x80000000},
        {"cvt.rni.u64.f32", "l:f", 0x7fc00000, 0, 0, 0x8000000000000000},
        {"cvt.rzi.s64.f64", "l:d", 0xfff0000000000000, 0, 0, 0x8000000000000000},
        {"cvt.rzi.u32.f16", "r:h", 0x7c00, 0, 0, 0xffffffff},
        {"cvt.rzi.s16.f16", "h:h", 0xfc00, 0, 0, 0x8000},
    });
}

// Integer to float with each rounding; integer to integer with extension, truncation and
// .sat clamping.
TEST_F(KernelFloat, CvtIntegers_RoundAndClampAsTheISASays)
{
    run_cases({
        {"cvt.rn.f32.u64", "f:l", 0xffffffffffffffff, 0, 0, 0x5f800000},
        {"cvt.rz.f32.s64", "f:l", 0x7fffffffffffffff, 0, 0, 0x5effffff},
        {"cvt.rz.f32.s64", "f:l", 0x8000000000000000, 0, 0, 0xdf000000},
        {"cvt.rn.f32.s32", "f:r", 0x01000001, 0, 0, 0x4b800000},
        {"cvt.rp.f32.s32", "f:r", 0x01000001, 0, 0, 0x4b800001},
        {"cvt.rn.f16.s32", "h:r", 0xffffffff, 0, 0, 0xbc00},
        {"cvt.rn.f16.u32", "h:r", 65520, 0, 0, 0x7c00},
        {"cvt.rz.f16.u32", "h:r", 65520, 0, 0, 0x7bff},
        {"cvt.rn.f64.s64", "d:l", 0x20000000000001, 0, 0, 0x4340000000000000},
        {"cvt.u16.s32", "h:r", 0x12345, 0, 0, 0x2345},
        {"cvt.s32.s8", "r:r", 0xff, 0, 0, 0xffffffff},
        {"cvt.sat.s8.s32", "r:r", 0x80000000, 0, 0, 0xffffff80},
        {"cvt.sat.s8.s32", "r:r", 300, 0, 0, 0x7f},
        {"cvt.sat.u32.s64", "r:l", 0xffffffffffffffff, 0, 0, 0},
        {"cvt.sat.u32.s64", "r:l", 0x20000000000001, 0, 0, 0xffffffff},
        {"cvt.u64.s32", "l:r", 0x80000000, 0, 0, 0xffffffff80000000},
        {"cvt.u64.u32", "l:r", 0x80000000, 0, 0, 0x80000000},
    });
}

// Float to float: narrowing rounds as named (overflow to infinity or the largest finite
// value), widening is exact with the NaN payload rules the H100 has, .rni and friends round to
// integral values, .sat clamps to [0, 1], .relu and .satfinite, and the packing forms put the
// first source in the upper half.
TEST_F(KernelFloat, CvtFloatToFloat_RoundsWidensAndPacks)
{
    run_cases({
        {"cvt.rn.f16.f32", "h:f", 0x477ff000, 0, 0, 0x7c00}, // 65520
        {"cvt.rz.f16.f32", "h:f", 0x477ff000, 0, 0, 0x7bff},
        {"cvt.rm.f16.f32", "h:f", 0x80000001, 0, 0, 0x8001},
        {"cvt.rn.f16.f32", "h:f", 0xffc00123, 0, 0, 0x7fff},
        {"cvt.rn.bf16.f32", "h:f", 0x007fffff, 0, 0, 0x0080},
        {"cvt.rp.bf16.f32", "h:f", 0x00000001, 0, 0, 0x0001},
        {"cvt.f32.f16", "f:h", 0x0001, 0, 0, 0x33800000},
        {"cvt.f32.f16", "f:h", 0x7c01, 0, 0, 0x7fffffff},
        {"cvt.f32.bf16", "f:h", 0xffa1, 0, 0, 0xffa10000},
        {"cvt.f64.f16", "d:h", 0xfe23, 0, 0, 0xfff88c0000000000},
        {"cvt.f64.f32", "d:f", 0x7f800001, 0, 0, 0x7ff8000020000000},
        {"cvt.f64.f32", "d:f", 0x80000001, 0, 0, 0xb6a0000000000000},
        {"cvt.rn.f32.f64", "f:d", 0xfff8000000000123, 0, 0, 0xffc00000},
        {"cvt.rn.f32.f64", "f:d", 0x7fefffffffffffff, 0, 0, 0x7f800000},
        {"cvt.rz.ftz.f32.f64", "f:d", 0x7fefffffffffffff, 0, 0, 0x7f7fffff},
        {"cvt.rn.f16.f64", "h:d", 0xfff8000000000123, 0, 0, 0xfe00},
        {"cvt.rn.bf16.f16", "h:h", 0x03ff, 0, 0, 0x3880},
        {"cvt.rn.f16.bf16", "h:h", 0x3c00, 0, 0, 0x2000},
        {"cvt.rni.f32.f32", "f:f", 0x40200000, 0, 0, 0x40000000},
        {"cvt.rmi.f32.f32", "f:f", 0xbf000000, 0, 0, 0xbf800000},
        {"cvt.rpi.f32.f32", "f:f", 0xbf000000, 0, 0, 0x80000000},
        {"cvt.rzi.f32.f32", "f:f", 0xffc00123, 0, 0, 0x7fffffff},
        {"cvt.rzi.f64.f64", "d:d", 0xbff8000000000000, 0, 0, 0xbff0000000000000},
        {"cvt.rni.f64.f64", "d:d", 0x7ff0000000000001, 0, 0, 0x7ff8000000000001},
        {"cvt.f32.f32", "f:f", 0xffc00123, 0, 0, 0xffc00123},
        {"cvt.ftz.f32.f32", "f:f", 0x00000001, 0, 0, 0x00000000},
        {"cvt.ftz.f32.f32", "f:f", 0xffc00123, 0, 0, 0x7fffffff},
        {"cvt.sat.f32.f32", "f:f", 0x7fc00000, 0, 0, 0x00000000},
        {"cvt.sat.f32.f32", "f:f", 0x40400000, 0, 0, 0x3f800000},
        {"cvt.sat.f32.f32", "f:f", 0x80000000, 0, 0, 0x00000000},
        {"cvt.rn.relu.f16.f32", "h:f", 0x80000000, 0, 0, 0x0000},
        {"cvt.rn.relu.bf16.f32", "h:f", 0x7fc00000, 0, 0, 0x7fff},
        {"cvt.rn.f16x2.f32", "r:ff", 0x3f800000, 0xbf800000, 0, 0x3c00bc00},
        {"cvt.rn.bf16x2.f32", "r:ff", 0x7fc00000, 0x40400000, 0, 0x7fff4040},
        {"cvt.rn.relu.f16x2.f32", "r:ff", 0x3f800000, 0xbf800000, 0, 0x3c000000},
        {"cvt.rn.satfinite.f16x2.f32", "r:ff", 0x7f7fffff, 0xffc00123, 0, 0x7bff7fff},
        {"cvt.rna.tf32.f32", "r:f", 0x3f801000, 0, 0, 0x3f802000},
        {"cvt.rna.tf32.f32", "r:f", 0x007fffff, 0, 0, 0x00800000},
        {"cvt.rna.tf32.f32", "r:f", 0x7f800001, 0, 0, 0x7f800000},
        {"cvt.rna.tf32.f32", "r:f", 0x7f7fffff, 0, 0, 0x7f800000},
    });
}

// Approximate functions at their special values (what the H100 gives; the ISA fixes them).
TEST_F(KernelFloat, ApproximateFunctions_SpecialValues)
{
    run_cases({
        {"ex2.approx.f32", "f:f", 0xff800000, 0, 0, 0x00000000},
        {"ex2.approx.f32", "f:f", 0x3f800000, 0, 0, 0x40000000},
        {"lg2.approx.f32", "f:f", 0x80000000, 0, 0, 0xff800000},
        {"lg2.approx.f32", "f:f", 0xbf800000, 0, 0, 0x7fffffff},
        {"rsqrt.approx.f32", "f:f", 0x80000000, 0, 0, 0xff800000},
        {"rsqrt.approx.f32", "f:f", 0x7f800000, 0, 0, 0x00000000},
        {"rcp.approx.f32", "f:f", 0x00000001, 0, 0, 0x7f800000},
        {"sin.approx.f32", "f:f", 0x00800000, 0, 0, 0x00000000},
        {"sin.approx.f32", "f:f", 0x7f800000, 0, 0, 0x7fffffff},
        {"cos.approx.f32", "f:f", 0x7f7fffff, 0, 0, 0x3f800000},
        {"tanh.approx.f32", "f:f", 0xff800000, 0, 0, 0xbf800000},
        {"div.approx.f32", "f:ff", 0x7f7fffff, 0x7f7fffff, 0, 0x00000000},
        {"div.full.f32", "f:ff", 0x7f7fffff, 0x7f7fffff, 0, 0x3f800000},
    });
}

// What the engine does not implement exactly is refused when the module loads, never run.
TEST_F(KernelFloat, UnimplementedForms_AreInvalidPtxWhenLoaded)
{
    expect_refused("add.rz.f16", "h:hh");
    expect_refused("sin.f32", "f:f");
    expect_refused("min.sat.f32", "f:ff");
    expect_refused("cvt.rna.f32.f64", "f:d");
    expect_refused("rcp.approx.f64", "d:d");
    expect_refused("cvt.rn.s32.f32", "r:f");
}
