#!/usr/bin/env python3
"""Writes tests/kernels/corpus/mma_*.cu and mma90_*.cu (the corpus modules of the tensor-core instructions, issue 25)
and prints the cases for tests/kernels/cases.c. One kernel per instruction form: each thread reads
its fragment registers of A, B and C from the inputs (masked for the 'tame' kernels, which keep
floating-point magnitudes below 2 so that sums stay finite and show their rounding), runs one
mma.sync with inline PTX, and writes its D registers.

Usage: scripts/gen-mma-corpus.py > /tmp/cases.txt   (rewrites the .cu in place)
"""
import os, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# name, instruction, (regs, kind) of a, b, c, d, mask of a/b words, mask of c words, nvcc only
# kind: r = .b32 ("r"), f = .f32 ("f"), d = .f64 ("d")
F16T, F32T, F64T = "0xbfffbfffu", "0xbfffffffu", "0xbfffffffffffffffull"
ALL = "0xffffffffu"
forms = [
    # f16 and bf16
    ("mma_f16_k8_f32", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", (2, "r"), (1, "r"), (4, "f"), (4, "f")),
    ("mma_f16_k8_f16", "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", (2, "r"), (1, "r"), (2, "r"), (2, "r")),
    ("mma_f16_k16_f32", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (4, "r"), (2, "r"), (4, "f"), (4, "f")),
    ("mma_f16_k16_f16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", (4, "r"), (2, "r"), (2, "r"), (2, "r")),
    ("mma_bf16_k8", "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", (2, "r"), (1, "r"), (4, "f"), (4, "f")),
    ("mma_bf16_k16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", (4, "r"), (2, "r"), (4, "f"), (4, "f")),
    ("mma_tf32_k4", "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", (2, "r"), (1, "r"), (4, "f"), (4, "f")),
    ("mma_tf32_k8", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", (4, "r"), (2, "r"), (4, "f"), (4, "f")),
    ("mma_f64_k4", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", (1, "d"), (1, "d"), (2, "d"), (2, "d")),
    # integers
    ("mma_s8_m8n8k16", "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", (1, "r"), (1, "r"), (2, "r"), (2, "r")),
    ("mma_u8s8_m8n8k16_sat", "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32", (1, "r"), (1, "r"), (2, "r"), (2, "r")),
    ("mma_s8_k16", "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", (2, "r"), (1, "r"), (4, "r"), (4, "r")),
    ("mma_s8u8_k16_sat", "mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.u8.s32", (2, "r"), (1, "r"), (4, "r"), (4, "r")),
    ("mma_u8_k32", "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32", (4, "r"), (2, "r"), (4, "r"), (4, "r")),
    ("mma_s8_k32_sat", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", (4, "r"), (2, "r"), (4, "r"), (4, "r")),
    ("mma_s4_m8n8k32", "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32", (1, "r"), (1, "r"), (2, "r"), (2, "r")),
    ("mma_u4s4_m8n8k32_sat", "mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.s4.s32", (1, "r"), (1, "r"), (2, "r"), (2, "r")),
    ("mma_u4_k32", "mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32", (2, "r"), (1, "r"), (4, "r"), (4, "r")),
    ("mma_s4_k64_sat", "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32", (4, "r"), (2, "r"), (4, "r"), (4, "r")),
    ("mma_b1_m8n8k128", "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", (1, "r"), (1, "r"), (2, "r"), (2, "r")),
    ("mma_b1_k128", "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", (2, "r"), (1, "r"), (4, "r"), (4, "r")),
    ("mma_b1_k256", "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", (4, "r"), (2, "r"), (4, "r"), (4, "r")),
    # .and.popc is PTX ISA 7.1: clang's PTX (.version 7.0) cannot carry it
    ("mma_b1_k256_and", "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", (4, "r"), (2, "r"), (4, "r"), (4, "r"), "nvcc"),
]
tame = {"mma_f16_k8_f32", "mma_f16_k16_f32", "mma_f16_k16_f16", "mma_bf16_k16", "mma_tf32_k4", "mma_tf32_k8", "mma_f64_k4",
        "mma_bf16_k8", "mma_f16_k8_f16"}

ctype = {"r": "uint", "f": "float", "d": "double"}
# The kernels go into several modules, each small enough for the native tier to compile (its
# generated C must stay below EXTMEM_CC_MAX_SOURCE, 256 KiB).
mods = {}
cases = []
def emit(mod, text):
    mods.setdefault(mod, []).append(text)
def module80(name):
    if any(t in name for t in ("_s8", "_u8", "_s4", "_u4", "_b1")): return "mma_int"
    if "_tf32" in name or "_f64" in name: return "mma_tf32"
    if name.startswith("mma_"): return "mma_f16"
    return "mma_ld"
HEADER80 = """// Tensor-core instructions in software (PTX ISA 9.0, "Warp-level matrix multiply-accumulate
// instructions"; issue 25): one kernel per mma.sync form, ldmatrix and movmatrix. Written by
// scripts/gen-mma-corpus.py (edit that, not this). Each thread reads its fragment registers of A, B
// and C from the inputs a, b, c, runs one instruction and writes its D registers: the H100's D
// for the same registers is the expected result. The _tame kernels clear the top exponent bit of
// every floating-point input (magnitudes below 2, no infinities or NaNs) so that the sums are finite
// and show how the tensor cores align, add and round.
#include "corpus.h"

#if defined(__NVCC__)
#define NVCC_ONLY 1
#else
#define NVCC_ONLY 0
#endif
"""

def operand_list(start, n):
    return "{" + ", ".join("%%%d" % (start + i) for i in range(n)) + "}"

def kernel(name, insn, A, B, C, D, abmask, cmask, nvcc_only):
    na, ka = A; nb, kb = B; nc, kc = C; nd, kd = D
    wa = na * (2 if ka == "d" else 1)
    lines = []
    lines.append("KERNEL %s(KPARAMS) {" % name)
    lines.append("    int i = GID;")
    lines.append("    if (i >= n) return;")
    for nm, (cnt, k), m, src in (("a", A, abmask, "a_"), ("b", B, abmask, "b_"), ("c", C, cmask, "c_")):
        if k == "d":
            lines.append("    const ull *p%s = (const ull *)%s + (long long)i * %d;" % (nm, src, cnt))
            lines.append("    double %s[%d];" % (nm, cnt))
            lines.append("    for (int k = 0; k < %d; ++k) { ull v = p%s[k] & %s; %s[k] = __longlong_as_double((long long)v); }" % (cnt, nm, m, nm))
        elif k == "f":
            lines.append("    const uint *p%s = (const uint *)%s + (long long)i * %d;" % (nm, src, cnt))
            lines.append("    float %s[%d];" % (nm, cnt))
            lines.append("    for (int k = 0; k < %d; ++k) %s[k] = __int_as_float((int)(p%s[k] & %s));" % (cnt, nm, nm, m))
        else:
            lines.append("    const uint *p%s = (const uint *)%s + (long long)i * %d;" % (nm, src, cnt))
            lines.append("    uint %s[%d];" % (nm, cnt))
            lines.append("    for (int k = 0; k < %d; ++k) %s[k] = p%s[k] & %s;" % (cnt, nm, nm, m))
    lines.append("    %s d[%d];" % (ctype[kd], nd))
    text = "%s %s, %s, %s, %s;" % (insn, operand_list(0, nd), operand_list(nd, na), operand_list(nd + na, nb),
                                 operand_list(nd + na + nb, nc))
    outs = ", ".join('"=%s"(d[%d])' % (kd, j) for j in range(nd))
    ins = ", ".join(['"%s"(a[%d])' % (ka, j) for j in range(na)] + ['"%s"(b[%d])' % (kb, j) for j in range(nb)] +
                    ['"%s"(c[%d])' % (kc, j) for j in range(nc)])
    if nvcc_only:
        lines.append("#if NVCC_ONLY")
    lines.append('    asm volatile("%s"\n                 : %s\n                 : %s);' % (text, outs, ins))
    if nvcc_only:
        lines.append("#else")
        lines.append("    for (int k = 0; k < %d; ++k) d[k] = 0;" % nd)
        lines.append("#endif")
    if kd == "d":
        lines.append("    ull *o = (ull *)out_ + (long long)i * %d;" % nd)
        lines.append("    for (int k = 0; k < %d; ++k) o[k] = (ull)__double_as_longlong(d[k]);" % nd)
    elif kd == "f":
        lines.append("    uint *o = (uint *)out_ + (long long)i * %d;" % nd)
        lines.append("    for (int k = 0; k < %d; ++k) o[k] = (uint)__float_as_int(d[k]);" % nd)
    else:
        lines.append("    uint *o = (uint *)out_ + (long long)i * %d;" % nd)
        lines.append("    for (int k = 0; k < %d; ++k) o[k] = d[k];" % nd)
    lines.append("}")
    return "\n".join(lines) + "\n"

def gen_of(kind, isf16, isf64):
    if kind == "d": return "GEN_F64"
    if kind == "f": return "GEN_F32"
    return "GEN_F16" if isf16 else "GEN_U32"

for f in forms:
    name, insn, A, B, C, D = f[:6]
    nvcc_only = len(f) > 6
    isfloat = any(t in insn for t in (".f16.f16", ".bf16", ".tf32", ".f64"))
    ab16 = ".f16.f16" in insn or ".bf16" in insn
    variants = [(name, ALL, ALL)]
    if name in tame:
        if ".f64" in insn:
            variants.append((name + "_tame", F64T, F64T))
        else:
            variants.append((name + "_tame", F16T if ab16 else F32T, F16T if C[1] == "r" else F32T))
    for vname, am, cm in variants:
        emit(module80(vname), kernel(vname, insn, A, B, C, D, am, cm, nvcc_only))
        def inp(reg):
            cnt, k = reg
            if k == "d": return "{GEN_F64, %d, 0, 0}" % cnt
            if k == "f": return "{GEN_F32, %d, 0, 0}" % cnt
            if isfloat and ".tf32" not in insn: return "{GEN_F16, %d, 0, 0}" % (2 * cnt)
            if ".tf32" in insn: return "{GEN_F32, %d, 0, 0}" % cnt
            return "{GEN_U32, %d, 0, 0}" % cnt
        cinp = inp(C) if not (isfloat and C[1] == "r") else "{GEN_F16, %d, 0, 0}" % (2 * C[0])
        esz = 8 if D[1] == "d" else 4
        cases.append('    { .name = "%s", .module = "%s", .kernel = "%s", .n = 2048, .grid = G0, .block = B1(128),\n'
                     '      .in = {%s, %s, %s}, OUT(2048, %d, %d) },' % (vname, module80(vname), vname, inp(A), inp(B), cinp, D[0], esz))

# ldmatrix and movmatrix: each warp writes 32 rows of 16 bytes (its threads' inputs) to shared
# memory, then lane l gives the address of row (7 l + 3) mod 32.
SMEM = """static __device__ __forceinline__ uint smem_addr(const void *p) {
    ull g = (ull)p, s;
    asm("cvta.to.shared.u64 %0, %1;" : "=l"(s) : "l"(g));
    return (uint)s;
}
"""
emit("mma_ld", SMEM)
for x in (1, 2, 4):
    for trans in ("", ".trans"):
        nm = "ldmatrix_x%d%s" % (x, "_trans" if trans else "")
        regs = ", ".join("%%%d" % j for j in range(x))
        outs = ", ".join('"=r"(d[%d])' % j for j in range(x))
        emit("mma_ld", """KERNEL %s(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) rows[w][lane * 4 + k] = pa[k];
    __syncwarp(0xffffffffu);
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    uint d[%d];
    asm volatile("ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 {%s}, [%%%d];" : %s : "r"(addr) : "memory");
    uint *o = (uint *)out_ + (long long)i * %d;
    for (int k = 0; k < %d; ++k) o[k] = d[k];
}
""" % (nm, x, x, trans, regs, x, outs, x, x))
        cases.append('    { .name = "%s", .module = "mma_ld", .kernel = "%s", .n = 512, .grid = G0, .block = B1(128),\n'
                     '      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, %d, 4) },' % (nm, nm, x))
emit("mma_ld", """// movmatrix is PTX ISA 7.8: nvcc's PTX only (clang's writes 0).
KERNEL movmatrix_trans(KPARAMS) {
    int i = GID;
    uint a = ((const uint *)a_)[i], d;
#if NVCC_ONLY
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
#else
    d = 0;
#endif
    ((uint *)out_)[i] = d;
}
""")
cases.append('    { .name = "movmatrix_trans", .module = "mma_ld", .kernel = "movmatrix_trans", .n = 512, .grid = G0, .block = B1(128),\n'
             '      .in = N1(GEN_U32), OUT(512, 1, 4) },')
for mod, texts in mods.items():
    open(os.path.join(root, "tests/kernels/corpus/%s.cu" % mod), "w").write("\n".join([HEADER80] + texts))
mods = {}


# ---- mma90.cu: the sm_89/sm_90 forms (nvcc's PTX for compute_90 only; clang's, .target sm_80,
# writes zeros) ----
forms90 = [
    ("mma_e4m3_f32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", (4, "r"), (2, "r"), (4, "f"), (4, "f")),
    ("mma_e5m2_f32", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", (4, "r"), (2, "r"), (4, "f"), (4, "f")),
    ("mma_e4m3e5m2_f32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32", (4, "r"), (2, "r"), (4, "f"), (4, "f")),
    ("mma_f64_m16n8k4", "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64", (2, "d"), (1, "d"), (4, "d"), (4, "d")),
    ("mma_f64_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", (4, "d"), (2, "d"), (4, "d"), (4, "d")),
    ("mma_f64_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64", (8, "d"), (4, "d"), (4, "d"), (4, "d")),
]
def module90(name):
    return "mma90_st" if name.startswith("stmatrix") else "mma90_f64" if "_f64" in name else "mma90_f8"
HEADER90 = """// The sm_89 and sm_90 tensor-core forms (PTX ISA 9.0, "Warp-level matrix multiply-accumulate
// instructions"; issue 25): mma.sync on e4m3/e5m2 (sm_89) and the f64 shapes m16n8k4/k8/k16
// (sm_90), and stmatrix (sm_90). Written by scripts/gen-mma-corpus.py. nvcc compiles this module for
// compute_90 (scripts/kernels-nvcc-ptx.sh); clang's PTX (.target sm_80) cannot carry these
// instructions, so its kernels write zeros.
#include "corpus.h"

#if defined(__NVCC__)
#define NVCC_ONLY 1
#else
#define NVCC_ONLY 0
#endif
"""
for f in forms90:
    name, insn, A, B, C, D = f
    fp8 = ".e4m3" in insn or ".e5m2" in insn
    variants = [(name, ALL, ALL)]
    if ".f64" in insn:
        variants.append((name + "_tame", F64T, F64T))
    else:
        # e4m3/e5m2 inputs as they come (every byte is a value or NaN); tame C only
        variants.append((name + "_tame", ALL, F16T if C[1] == "r" else F32T))
    for vname, am, cm in variants:
        emit(module90(vname), kernel(vname, insn, A, B, C, D, am, cm, True))
        def inp(reg):
            cnt, k = reg
            if k == "d": return "{GEN_F64, %d, 0, 0}" % cnt
            if k == "f": return "{GEN_F32, %d, 0, 0}" % cnt
            if reg is C or reg is D: return "{GEN_F16, %d, 0, 0}" % (2 * cnt)
            return "{GEN_U32, %d, 0, 0}" % cnt
        esz = 8 if D[1] == "d" else 4
        cases.append('    { .name = "%s", .module = "%s", .kernel = "%s", .n = 2048, .grid = G0, .block = B1(128),\n'
                     '      .in = {%s, %s, %s}, OUT(2048, %d, %d) },' % (vname, module90(vname), vname, inp(A), inp(B), inp(C), D[0], esz))
emit("mma90_st", SMEM)
for x in (1, 2, 4):
    for trans in ("", ".trans"):
        nm = "stmatrix_x%d%s" % (x, "_trans" if trans else "")
        regs = ", ".join("%%%d" % (j + 1) for j in range(x))
        ins = ", ".join('"r"(v[%d])' % j for j in range(x))
        emit("mma90_st", """KERNEL %s(KPARAMS) {
    __shared__ uint rows[4][32 * 4];
    int i = GID;
    int w = threadIdx.x / 32, lane = threadIdx.x & 31;
    const uint *pa = (const uint *)a_ + (long long)i * 4;
    uint v[4];
    for (int k = 0; k < 4; ++k) { v[k] = pa[k]; rows[w][lane * 4 + k] = 0xdeadbeefu; }
    __syncwarp(0xffffffffu);
#if NVCC_ONLY
    uint addr = smem_addr(&rows[w][((7 * lane + 3) & 31) * 4]);
    asm volatile("stmatrix.sync.aligned.m8n8.x%d%s.shared.b16 [%%0], {%s};" :: "r"(addr), %s : "memory");
#endif
    __syncwarp(0xffffffffu);
    uint *o = (uint *)out_ + (long long)i * 4;
    for (int k = 0; k < 4; ++k) o[k] = rows[w][lane * 4 + k];
}
""" % (nm, x, trans, regs, ins))
        cases.append('    { .name = "%s", .module = "mma90_st", .kernel = "%s", .n = 512, .grid = G0, .block = B1(128),\n'
                     '      .in = {{GEN_U32, 4, 0, 0}, {GEN_NONE, 0, 0, 0}, {GEN_NONE, 0, 0, 0}}, OUT(512, 4, 4) },' % (nm, nm))
for mod, texts in mods.items():
    open(os.path.join(root, "tests/kernels/corpus/%s.cu" % mod), "w").write("\n".join([HEADER90] + texts))
print("\n".join(cases[-100:]) if False else "", end="")
print("\n".join(cases))
