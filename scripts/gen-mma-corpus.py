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


# ---- the fp8 part (issue 25's tensor-core leftovers): e4m3/e5m2 with f16 accumulators and the
# m16n8k16 fp8 shape (mma90_f8x.cu), structured fp8 probes (mma90_f8p.cu, mma90_f8q.cu), and f16 mma.m8n8k4
# (mma_m884.cu, compute_80: clang's PTX carries it too). Their cases follow the others'. ----
cases_fp8 = []
F16T2 = "0xbfffbfffu"
forms_f8x = [
    ("mma_e4m3_k32_f16", "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", (4, "r"), (2, "r"), (2, "r"), (2, "r")),
    ("mma_e5m2_k32_f16", "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16", (4, "r"), (2, "r"), (2, "r"), (2, "r")),
    ("mma_e4m3e5m2_k32_f16", "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16", (4, "r"), (2, "r"), (2, "r"), (2, "r")),
    ("mma_e5m2e4m3_k32_f32", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32", (4, "r"), (2, "r"), (4, "f"), (4, "f")),
    ("mma_e4m3_k16_f32", "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32", (2, "r"), (1, "r"), (4, "f"), (4, "f")),
    ("mma_e5m2_k16_f32", "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e5m2.f32", (2, "r"), (1, "r"), (4, "f"), (4, "f")),
    ("mma_e5m2e4m3_k16_f32", "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e4m3.f32", (2, "r"), (1, "r"), (4, "f"), (4, "f")),
    ("mma_e4m3_k16_f16", "mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e4m3.f16", (2, "r"), (1, "r"), (2, "r"), (2, "r")),
    ("mma_e5m2_k16_f16", "mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e5m2.f16", (2, "r"), (1, "r"), (2, "r"), (2, "r")),
]
for f in forms_f8x:
    name, insn, A, B, C, D = f
    # A and B as they come (every byte is a value, an infinity or a NaN); _tame: C below 2
    for vname, cm in ((name, ALL), (name + "_tame", F16T2 if C[1] == "r" else F32T)):
        emit("mma90_f8x", kernel(vname, insn, A, B, C, D, ALL, cm, True))
        cin = "{GEN_F16, %d, 0, 0}" % (2 * C[0]) if C[1] == "r" else "{GEN_F32, %d, 0, 0}" % C[0]
        cases_fp8.append('    { .name = "%s", .module = "mma90_f8x", .kernel = "%s", .n = 2048, .grid = G0, .block = B1(128),\n'
                         '      .in = {{GEN_U32, %d, 0, 0}, {GEN_U32, %d, 0, 0}, %s}, OUT(2048, %d, 4) },' % (vname, vname, A[0], B[0], cin, D[0]))

# Structured fp8 probes: each warp's scenario (warp index % 8) reshapes the random bytes of A and
# B and the random C: 0 narrow exponents (rounding inside a partial sum), 1 one large product per
# row and small ones (alignment), 2 C far above the products, 3 C far below them, 4 products of
# byte j+2 cancelling those of byte j (k % 4 = 2, 3 against 0, 1: the partial sums' boundary),
# 5 zeros of both signs and C = +-0, 6 subnormal inputs, 7 large inputs (f16 overflow). No NaN or
# infinity comes in. The helpers are not inlined: the native tier compiles a module of at most
# 256 KiB of generated C.
PROBE = """static __device__ __noinline__ uint f8_byte(uint b, int e5, int scen, int j, int big)
{
    uint s = b & 0x80u, e, m;
    if (e5) { e = (b >> 2) & 31u; m = b & 3u; } else { e = (b >> 3) & 15u; m = b & 7u; }
    uint emax = e5 ? 30u : 15u, mid = e5 ? 14u : 6u;
    switch (scen) {
    case 0: case 2: case 3: case 4: e = mid + (e & 3u); break;
    case 1: e = big ? emax - 1u : 1u + (e & 3u); break;
    case 5: if (j & 1) { e = 0; m = 0; } else { e = mid + (e & 1u); } break;
    case 6: e = (j & 1) ? 0u : 1u + (e & 1u); break;
    case 7: e = emax - (e & 3u); break;
    default: if (e5 && e > emax) e = emax; break;
    }
    if (!e5 && e == 15u && m == 7u) m = 6u; /* e4m3's NaN */
    return e5 ? (s | (e << 2) | m) : (s | (e << 3) | m);
}
static __device__ __noinline__ uint f8_reg(uint w, int e5, int scen, int reg, int isb)
{
    uint r = 0;
    for (int j = 0; j < 4; ++j)
        r |= f8_byte((w >> (8 * j)) & 0xffu, e5, scen, j, j == 0 && reg == 0 && !isb) << (8 * j);
    if (scen == 4) r = (r & 0xffffu) | ((r & 0xffffu) << 16) ^ (isb ? 0x80800000u : 0u);
    return r;
}
static __device__ __noinline__ uint c_f32(uint w, int scen)
{
    uint s = w & 0x80000000u, m = w & 0x7fffffu, e;
    switch (scen) {
    case 2: e = 127u + 24u + ((w >> 23) & 7u); break;
    case 3: e = 127u - 40u + ((w >> 23) & 7u); break;
    case 5: return (w & 0x100000u) ? s : (s | ((127u + ((w >> 23) & 3u)) << 23) | m);
    default: e = 127u - 4u + ((w >> 23) & 7u); break;
    }
    return s | (e << 23) | m;
}
static __device__ __noinline__ uint c_f16(uint w, int scen)
{
    uint r = 0;
    for (int h = 0; h < 2; ++h) {
        uint v = (w >> (16 * h)) & 0xffffu, s = v & 0x8000u, m = v & 0x3ffu, e;
        switch (scen) {
        case 2: e = 15u + 12u + ((v >> 10) & 1u); break;
        case 3: e = 1u + ((v >> 10) & 3u); break;
        case 5: e = (v & 0x400u) ? 0u : 15u; if (!e) m = 0; break;
        case 7: e = 15u + 10u + ((v >> 10) & 3u); break;
        default: e = 15u - 2u + ((v >> 10) & 3u); break;
        }
        r |= (s | (e << 10) | m) << (16 * h);
    }
    return r;
}
"""
emit("mma90_f8p", PROBE)
emit("mma90_f8q", PROBE)  # f16 accumulators: a module of their own (the native tier's size limit)
probes = [
    ("mma_f8p_e4m3_f32", "f32.e4m3.e4m3.f32", 0, 0, "f"),
    ("mma_f8p_e5m2_f32", "f32.e5m2.e5m2.f32", 1, 1, "f"),
    ("mma_f8p_e4m3e5m2_f32", "f32.e4m3.e5m2.f32", 0, 1, "f"),
    ("mma_f8p_e4m3_f16", "f16.e4m3.e4m3.f16", 0, 0, "r"),
    ("mma_f8p_e5m2_f16", "f16.e5m2.e5m2.f16", 1, 1, "r"),
    ("mma_f8p_e4m3_k16_f32", "f32.e4m3.e4m3.f32", 0, 0, "f", 16),
    ("mma_f8p_e5m2_k16_f16", "f16.e5m2.e5m2.f16", 1, 1, "r", 16),
]
for p in probes:
    name, types, ea, eb, kc = p[:5]
    k = p[5] if len(p) > 5 else 32
    na, nb = (4, 2) if k == 32 else (2, 1)
    nc = 4 if kc == "f" else 2
    insn = "mma.sync.aligned.m16n8k%d.row.col.%s" % (k, types)
    lines = ["KERNEL %s(KPARAMS) {" % name, "    int i = GID;", "    if (i >= n) return;",
             "    int scen = (i >> 5) & 7;",
             "    const uint *pa = (const uint *)a_ + (long long)i * 4, *pb = (const uint *)b_ + (long long)i * 2,"
             " *pc = (const uint *)c_ + (long long)i * 4;",
             "    uint a[%d], b[%d];" % (na, nb),
             "    for (int k = 0; k < %d; ++k) a[k] = f8_reg(pa[k], %d, scen, k, 0);" % (na, ea),
             "    for (int k = 0; k < %d; ++k) b[k] = f8_reg(pb[k], %d, scen, k, 1);" % (nb, eb)]
    if kc == "f":
        lines += ["    float c[4], d[4];", "    for (int k = 0; k < 4; ++k) c[k] = __int_as_float((int)c_f32(pc[k], scen));"]
    else:
        lines += ["    uint c[2], d[2];", "    for (int k = 0; k < 2; ++k) c[k] = c_f16(pc[k], scen);"]
    text = "%s %s, %s, %s, %s;" % (insn, operand_list(0, nc), operand_list(nc, na), operand_list(nc + na, nb),
                                   operand_list(nc + na + nb, nc))
    outs = ", ".join('"=%s"(d[%d])' % (kc, j) for j in range(nc))
    ins = ", ".join(['"r"(a[%d])' % j for j in range(na)] + ['"r"(b[%d])' % j for j in range(nb)] +
                    ['"%s"(c[%d])' % (kc, j) for j in range(nc)])
    lines += ["#if NVCC_ONLY", '    asm volatile("%s"\n                 : %s\n                 : %s);' % (text, outs, ins),
              "#else", "    for (int k = 0; k < %d; ++k) d[k] = 0;" % nc, "#endif",
              "    uint *o = (uint *)out_ + (long long)i * %d;" % nc]
    lines.append("    for (int k = 0; k < %d; ++k) o[k] = %s;" % (nc, "(uint)__float_as_int(d[k])" if kc == "f" else "d[k]"))
    lines.append("}")
    pmod = "mma90_f8p" if kc == "f" else "mma90_f8q"
    emit(pmod, "\n".join(lines) + "\n")
    cases_fp8.append('    { .name = "%s", .module = "%s", .kernel = "%s", .n = 2048, .grid = G0, .block = B1(128),\n'
                     '      .in = {{GEN_U32, 4, 0, 0}, {GEN_U32, 2, 0, 0}, {GEN_U32, 4, 0, 0}}, OUT(2048, %d, 4) },' % (name, pmod, name, nc))
for mod, texts in mods.items():
    open(os.path.join(root, "tests/kernels/corpus/%s.cu" % mod), "w").write("\n".join([HEADER90] + texts))
mods = {}

# f16 mma.m8n8k4 (sm_70's quad-pair form: each quad pair of lanes multiplies its own 8x8x4): the
# four layouts of A and B, and the four pairs of accumulator types.
HEADER884 = """// f16 mma.m8n8k4 (PTX ISA 9.0, "Warp-level matrix multiply-accumulate instructions": sm_70's form,
// in which each quad pair of lanes computes its own 8x8x4 product; issue 25). Written by
// scripts/gen-mma-corpus.py. Each thread reads its fragment registers of A, B and C from the
// inputs, runs one mma.sync and writes its D registers. The _tame kernels clear the top exponent
// bit of every input (magnitudes below 2) so that the sums show their rounding.
#include "corpus.h"
"""
forms884 = []
for lay in ("row.col", "col.row", "row.row", "col.col"):
    forms884.append(("mma_m884_%s_f16" % lay.replace(".", "_"), "mma.sync.aligned.m8n8k4.%s.f16.f16.f16.f16" % lay,
                     (2, "r"), (2, "r"), (4, "r"), (4, "r")))
for lay in ("row.col", "col.row"):
    forms884.append(("mma_m884_%s_f32" % lay.replace(".", "_"), "mma.sync.aligned.m8n8k4.%s.f32.f16.f16.f32" % lay,
                     (2, "r"), (2, "r"), (8, "f"), (8, "f")))
forms884.append(("mma_m884_f32_f16c", "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16", (2, "r"), (2, "r"), (4, "r"), (8, "f")))
# (.f16 d with .f32 c: ptxas refuses it, ".dtype must be '.f32' when .ctype is '.f32'")
for f in forms884:
    name, insn, A, B, C, D = f
    for vname, m in ((name, ALL), (name + "_tame", None)):
        cm = ALL if m else (F16T2 if C[1] == "r" else F32T)
        abm = ALL if m else F16T2
        emit("mma_m884", kernel(vname, insn, A, B, C, D, abm, cm, False))
        cin = "{GEN_F16, %d, 0, 0}" % (2 * C[0]) if C[1] == "r" else "{GEN_F32, %d, 0, 0}" % C[0]
        cases_fp8.append('    { .name = "%s", .module = "mma_m884", .kernel = "%s", .n = 2048, .grid = G0, .block = B1(128),\n'
                         '      .in = {{GEN_F16, 4, 0, 0}, {GEN_F16, 4, 0, 0}, %s}, OUT(2048, %d, 4) },' % (vname, vname, cin, D[0]))
for mod, texts in mods.items():
    open(os.path.join(root, "tests/kernels/corpus/%s.cu" % mod), "w").write("\n".join([HEADER884] + texts))


# Sparse mma (mma.sp, sm_80): recorded for the fit; nvcc's PTX only (PTX ISA 7.1; clang's .version
# 7.0 cannot carry it). The metadata register is made of valid 2:4 nibbles (two distinct indices
# in increasing order) from the last word of each thread's A input.
HEADERSP = HEADER90.replace("The sm_89 and sm_90 tensor-core forms", "Sparse mma (mma.sp, sm_80)")
SPMETA = """static __device__ __noinline__ uint sp_meta(uint w)
{
    const uint pairs[6] = {0x4u, 0x8u, 0xcu, 0x9u, 0xdu, 0xeu}; /* (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) */
    uint e = 0;
    for (int j = 0; j < 8; ++j) e |= pairs[((w >> (4 * j)) & 0xfu) % 6u] << (4 * j);
    return e;
}
"""
mods = {}
emit("mma_sp", SPMETA)
emit("mma_spi", SPMETA)  # the integer forms: a module of their own (the native tier's size limit)
forms_sp = [
    ("mma_sp_f16_k16_f32", "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (2, "r"), (2, "r"), (4, "f"), (4, "f"), 0),
    ("mma_sp_f16_k16_f32_sel1", "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (2, "r"), (2, "r"), (4, "f"), (4, "f"), 1),
    ("mma_sp_f16_k32_f16", "mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16", (4, "r"), (4, "r"), (2, "r"), (2, "r"), 0),
    ("mma_sp_s8_k32", "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", (2, "r"), (2, "r"), (4, "r"), (4, "r"), 0),
    ("mma_sp_s8_k64", "mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32", (4, "r"), (4, "r"), (4, "r"), (4, "r"), 0),
    ("mma_sp_f16_k16_f32_sel2", "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (2, "r"), (2, "r"), (4, "f"), (4, "f"), 2),
    ("mma_sp_f16_k16_f32_sel3", "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (2, "r"), (2, "r"), (4, "f"), (4, "f"), 3),
    ("mma_sp_f16_k32_f16_sel1", "mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16", (4, "r"), (4, "r"), (2, "r"), (2, "r"), 1),
    ("mma_sp_s8_k32_sel1", "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", (2, "r"), (2, "r"), (4, "r"), (4, "r"), 1),
    ("mma_sp_s4_k64", "mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", (2, "r"), (2, "r"), (4, "r"), (4, "r"), 0),
    # (tf32 m16n8k8 was recorded too, docs/probes/kernels/mma-fp8: its metadata did not fit, and it is refused)
    ("mma_sp_bf16_k32", "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32", (4, "r"), (4, "r"), (4, "f"), (4, "f"), 0),
]
for f in forms_sp:
    name, insn, A, B, C, D, sel = f
    na, nb, nc, nd = A[0], B[0], C[0], D[0]
    kd, kc = D[1], C[1]
    lines = ["KERNEL %s(KPARAMS) {" % name, "    int i = GID;", "    if (i >= n) return;",
             "    const uint *pa = (const uint *)a_ + (long long)i * %d, *pb = (const uint *)b_ + (long long)i * %d,"
             " *pc = (const uint *)c_ + (long long)i * %d;" % (na + 1, nb, nc),
             "    uint a[%d], b[%d], e = sp_meta(pa[%d]);" % (na, nb, na),
             "    for (int k = 0; k < %d; ++k) a[k] = pa[k];" % na,
             "    for (int k = 0; k < %d; ++k) b[k] = pb[k];" % nb]
    if kc == "f":
        lines.append("    float c[%d]; for (int k = 0; k < %d; ++k) c[k] = __int_as_float((int)(pc[k] & 0xbfffffffu));" % (nc, nc))
    elif kd == "r" and ".f16" in insn:
        lines.append("    uint c[%d]; for (int k = 0; k < %d; ++k) c[k] = pc[k] & 0xbfffbfffu;" % (nc, nc))
    else:
        lines.append("    uint c[%d]; for (int k = 0; k < %d; ++k) c[k] = pc[k];" % (nc, nc))
    lines.append("    %s d[%d];" % ("float" if kd == "f" else "uint", nd))
    text = "%s %s, %s, %s, %s, %%%d, %d;" % (insn, operand_list(0, nd), operand_list(nd, na), operand_list(nd + na, nb),
                                         operand_list(nd + na + nb, nc), nd + na + nb + nc, sel)
    outs = ", ".join('"=%s"(d[%d])' % (kd, j) for j in range(nd))
    ins = ", ".join(['"r"(a[%d])' % j for j in range(na)] + ['"r"(b[%d])' % j for j in range(nb)] +
                    ['"%s"(c[%d])' % (kc, j) for j in range(nc)] + ['"r"(e)'])
    lines += ["#if NVCC_ONLY", '    asm volatile("%s"\n                 : %s\n                 : %s);' % (text, outs, ins),
              "#else", "    for (int k = 0; k < %d; ++k) d[k] = 0;" % nd, "#endif",
              "    uint *o = (uint *)out_ + (long long)i * %d;" % nd,
              "    for (int k = 0; k < %d; ++k) o[k] = %s;" % (nd, "(uint)__float_as_int(d[k])" if kd == "f" else "d[k]"), "}"]
    spmod = "mma_spi" if ".s32" in insn else "mma_sp"
    emit(spmod, "\n".join(lines) + "\n")
    gab = "GEN_F16" if ".f16" in insn else "GEN_U32"
    mult = 2 if gab == "GEN_F16" else 1
    cin = "{GEN_F32, %d, 0, 0}" % nc if kc == "f" else ("{GEN_F16, %d, 0, 0}" % (2 * nc) if ".f16.f16" in insn else "{GEN_U32, %d, 0, 0}" % nc)
    cases_fp8.append('    { .name = "%s", .module = "%s", .kernel = "%s", .n = 2048, .grid = G0, .block = B1(128),\n'
                     '      .in = {{GEN_U32, %d, 0, 0}, {%s, %d, 0, 0}, %s}, OUT(2048, %d, 4) },' % (name, spmod, name, na + 1, gab, nb * mult, cin, nd))
for mod, texts in mods.items():
    open(os.path.join(root, "tests/kernels/corpus/%s.cu" % mod), "w").write("\n".join([HEADERSP] + texts))

print("\n".join(cases))
print("    /* ---- the fp8 part (issue 25's tensor-core leftovers): e4m3/e5m2 with f16 accumulators and\n"
      "     * m16n8k16 (mma90_f8x.cu), structured fp8 probes (mma90_f8p.cu, mma90_f8q.cu), f16 mma.m8n8k4\n"
      "     * (mma_m884.cu), sparse mma.sp (mma_sp.cu, mma_spi.cu). Written by scripts/gen-mma-corpus.py. ---- */")
print("\n".join(cases_fp8))
