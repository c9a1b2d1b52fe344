// The isa part of issue 25: instructions the engine gained for CUDA's libraries, as inline PTX
// (both compilers then emit the same instructions): bmsk, szext, fns, the SIMD video
// instruction vabsdiff4 and its relatives, half-precision comparisons, prmt's modes, WARP_SZ and
// the special registers whose values a launch defines, warp functions whose lanes pass different
// membermasks (cooperative_groups' tiles), and the 16x2 integer forms are sm_90 (not here: the
// corpus is compute_80; tests/kernels/isa_sweep.txt has them).
#include "corpus.h"

#define ASM1(op, d, a, b) asm volatile(op " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))

// Bit fields: every lane writes 12 results of its a[i], b[i].
KERNEL isa_bits(KPARAMS) {
    const uint *a = (const uint *)a_, *b = (const uint *)b_;
    uint *out = (uint *)out_;
    int i = GID;
    uint x = a[i], y = b[i], s = y & 63, t = (y >> 8) & 63, r;
    uint *o = out + i * 12;
#if defined(__NVCC__) // bmsk and szext are PTX 7.6: clang 14 writes .version 7.0, which the driver refuses with them
    ASM1("bmsk.clamp.b32", r, s, t); o[0] = r;
    ASM1("bmsk.wrap.b32", r, s, t); o[1] = r;
    ASM1("szext.clamp.s32", r, x, s); o[2] = r;
    ASM1("szext.wrap.u32", r, x, s); o[3] = r;
    ASM1("szext.clamp.u32", r, x, t); o[4] = r;
#else
    o[0] = o[1] = o[2] = o[3] = o[4] = 0;
#endif
    asm volatile("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(s & 31), "r"((int)(t & 15) - 7)); o[5] = r;
    asm volatile("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(t & 31), "r"((int)(s & 7))); o[6] = r;
    asm volatile("vabsdiff4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); o[7] = r;
    asm volatile("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s)); o[8] = r;
    asm volatile("vabsdiff2.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(t)); o[9] = r;
    asm volatile("vadd4.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(t)); o[10] = r;
    asm volatile("vmax2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(t)); o[11] = r;
}

// Half-precision comparisons on f16 values and pairs (bf16 comparisons are sm_90: isa_sweep.txt): 8 results
// a lane.
KERNEL isa_half_compare(KPARAMS) {
    const uint *a = (const uint *)a_, *b = (const uint *)b_;
    uint *out = (uint *)out_;
    int i = GID;
    uint x = a[i], y = b[i], r;
    uint *o = out + i * 8;
    asm volatile("{.reg .pred p, q; .reg .b32 u; setp.lt.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; selp.u32 u, 2, 0, q;"
                 " or.b32 %0, %0, u;}" : "=r"(r) : "r"(x), "r"(y));
    o[0] = r;
    asm volatile("{.reg .pred p, q; .reg .b32 u; setp.geu.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; selp.u32 u, 2, 0, q;"
                 " or.b32 %0, %0, u;}" : "=r"(r) : "r"(x), "r"(y));
    o[1] = r;
    asm volatile("set.gt.u32.f16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[2] = r;
    asm volatile("set.neu.f16x2.f16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[3] = r;
    asm volatile("{.reg .b16 l, h, d; mov.b32 {l, h}, %1; set.le.ftz.f16.f16 d, l, h; cvt.u32.u16 %0, d;}"
                 : "=r"(r) : "r"(x));
    o[4] = r;
    asm volatile("{.reg .b16 l, h; .reg .pred p; mov.b32 {l, h}, %1; setp.nan.f16 p, l, h; selp.u32 %0, 1, 0, p;}"
                 : "=r"(r) : "r"(y));
    o[5] = r;
    asm volatile("{.reg .b16 l, h; .reg .pred p, q; mov.b32 {l, h}, %1; setp.ne.u32 q, %2, 0; setp.eq.or.f16 p, l, h, q;"
                 " selp.u32 %0, 1, 0, p;}" : "=r"(r) : "r"(x), "r"(i & 1));
    o[6] = r;
    asm volatile("{.reg .b16 l, h; mov.b32 {l, h}, %1; set.lt.s32.f16 %0, l, h;}" : "=r"(r) : "r"(y)); o[7] = r;
}

// Special registers with defined values, WARP_SZ, and warp functions over 8-lane tiles whose
// lanes pass their own tile's membermask: 10 results a lane.
KERNEL isa_sreg_tiles(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    uint v = a[i], r, lane, mask;
    uint *o = out + i * 10;
    asm volatile("mov.u32 %0, WARP_SZ;" : "=r"(r)); o[0] = r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(r)); o[1] = r ^ lane;
    asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(r)); o[2] = r;
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(r)); o[3] = r;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r)); o[4] = r;
    mask = 0xffu << (lane & 24);
    asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2;}" : "=r"(r) : "r"(v & 1), "r"(mask));
    o[5] = r;
    asm volatile("{.reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.all.pred q, p, %2; selp.u32 %0, 1, 0, q;}"
                 : "=r"(r) : "r"(v & 3), "r"(mask));
    o[6] = r;
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask)); o[7] = r;
    asm volatile("redux.sync.min.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask)); o[8] = r;
    asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(v & 1), "r"(mask)); o[9] = r;
}
