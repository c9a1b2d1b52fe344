/* The PTX of image_engine_test.c's part 2: one module, a kernel per family of checks. */
#define PTX_HEAD ".version 9.0\n.target sm_90\n.address_size 64\n"

static const char part2_ptx[] = PTX_HEAD
    /* Surface loads in three boundary modes at (x bytes, y) = (xs[t], ys[t]): out[t] = {zero, clamp} */
    ".visible .entry suld_modes(.param .u64 s, .param .u64 xs, .param .u64 ys, .param .u64 out)\n"
    "{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<12>;\n"
    " ld.param.u64 %rd1, [s]; ld.param.u64 %rd2, [xs]; ld.param.u64 %rd3, [ys]; ld.param.u64 %rd4, [out];\n"
    " mov.u32 %r1, %tid.x; mul.wide.u32 %rd5, %r1, 4;\n"
    " add.s64 %rd6, %rd2, %rd5; ld.global.u32 %r2, [%rd6];\n"
    " add.s64 %rd7, %rd3, %rd5; ld.global.u32 %r3, [%rd7];\n"
    " suld.b.2d.b32.zero {%r4}, [%rd1, {%r2, %r3}];\n"
    " suld.b.2d.b32.clamp {%r5}, [%rd1, {%r2, %r3}];\n"
    " mul.wide.u32 %rd8, %r1, 8; add.s64 %rd9, %rd4, %rd8;\n"
    " st.global.v2.u32 [%rd9], {%r4, %r5};\n"
    " ret;\n"
    "}\n"
    /* One load or store: mode 0 .trap load, 1 .trap store, 2 .zero store, 3 .clamp store */
    ".visible .entry su_one(.param .u64 s, .param .u32 x, .param .u32 y, .param .u32 v, .param .u32 mode, .param .u64 out)\n"
    "{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [s]; ld.param.u32 %r1, [x]; ld.param.u32 %r2, [y]; ld.param.u32 %r3, [v];\n"
    " ld.param.u32 %r4, [mode]; ld.param.u64 %rd2, [out];\n"
    " setp.eq.u32 %p1, %r4, 0; setp.eq.u32 %p2, %r4, 1; setp.eq.u32 %p3, %r4, 2;\n"
    " @%p1 suld.b.2d.b32.trap {%r5}, [%rd1, {%r1, %r2}];\n"
    " @%p1 st.global.u32 [%rd2], %r5;\n"
    " @%p2 sust.b.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};\n"
    " @%p3 sust.b.2d.b32.zero [%rd1, {%r1, %r2}], {%r3};\n"
    " setp.eq.u32 %p1, %r4, 3;\n"
    " @%p1 sust.b.2d.b32.clamp [%rd1, {%r1, %r2}], {%r3};\n"
    " ret;\n"
    "}\n"
    /* Geometries and widths: 1D .b8 v4, 3D .b16 v2, a1d .b64, a2d .b32 v4, each loaded, +1, stored
     * back, then loaded again into out. */
    ".visible .entry su_shapes(.param .u64 s1, .param .u64 s3, .param .u64 sa1, .param .u64 sa2, .param .u64 out)\n"
    "{\n"
    " .reg .b16 %rs<8>; .reg .b32 %r<16>; .reg .b64 %rd<12>;\n"
    " ld.param.u64 %rd1, [s1]; ld.param.u64 %rd2, [s3]; ld.param.u64 %rd3, [sa1]; ld.param.u64 %rd4, [sa2];\n"
    " ld.param.u64 %rd5, [out];\n"
    " mov.u32 %r1, 4; mov.u32 %r2, 1; mov.u32 %r3, 2; mov.u32 %r9, 8; mov.u32 %r12, 16;\n"
    " suld.b.1d.v4.b8.trap {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%r1}];\n"
    " add.u16 %rs1, %rs1, 1; add.u16 %rs4, %rs4, 1;\n"
    " sust.b.1d.v4.b8.trap [%rd1, {%r1}], {%rs1, %rs2, %rs3, %rs4};\n"
    " suld.b.3d.v2.b16.trap {%rs5, %rs6}, [%rd2, {%r1, %r2, %r3, %r3}];\n"
    " add.u16 %rs6, %rs6, 1;\n"
    " sust.b.3d.v2.b16.trap [%rd2, {%r1, %r2, %r3, %r3}], {%rs5, %rs6};\n"
    " suld.b.a1d.b64.trap {%rd6}, [%rd3, {%r2, %r9}];\n"
    " add.u64 %rd6, %rd6, 1;\n"
    " sust.b.a1d.b64.trap [%rd3, {%r2, %r9}], %rd6;\n"
    " suld.b.a2d.v4.b32.trap {%r4, %r5, %r6, %r7}, [%rd4, {%r3, %r12, %r2, %r2}];\n"
    " add.u32 %r7, %r7, 1;\n"
    " sust.b.a2d.v4.b32.trap [%rd4, {%r3, %r12, %r2, %r2}], {%r4, %r5, %r6, %r7};\n"
    " suld.b.1d.b32.trap {%r10}, [%rd1, {%r1}];\n"
    " st.global.u32 [%rd5], %r10;\n"
    " suld.b.3d.b32.trap {%r10}, [%rd2, {%r1, %r2, %r3, %r3}];\n"
    " st.global.u32 [%rd5+4], %r10;\n"
    " suld.b.a1d.v2.b32.trap {%r10, %r11}, [%rd3, {%r2, %r9}];\n"
    " st.global.v2.u32 [%rd5+8], {%r10, %r11};\n"
    " suld.b.a2d.v4.b32.trap {%r4, %r5, %r6, %r7}, [%rd4, {%r3, %r12, %r2, %r2}];\n"
    " st.global.v4.u32 [%rd5+16], {%r4, %r5, %r6, %r7};\n"
    " ret;\n"
    "}\n"
    /* Formatted stores: sust.p.2d.v4.b32 of four floats at element (x, 0) */
    ".visible .entry sust_p(.param .u64 s, .param .u32 x, .param .f32 a, .param .f32 b, .param .f32 c, .param .f32 d)\n"
    "{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [s]; ld.param.u32 %r1, [x]; mov.u32 %r2, 0;\n"
    " ld.param.b32 %r3, [a]; ld.param.b32 %r4, [b]; ld.param.b32 %r5, [c]; ld.param.b32 %r6, [d];\n"
    " sust.p.2d.v4.b32.trap [%rd1, {%r1, %r2}], {%r3, %r4, %r5, %r6};\n"
    " ret;\n"
    "}\n"
    /* Reductions by every thread on element 0 (and .p on element 1) of a 1D surface */
    ".visible .entry reductions(.param .u64 su, .param .u64 sd)\n"
    "{\n"
    " .reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [su]; ld.param.u64 %rd2, [sd];\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, 0; mov.u32 %r3, 4; mov.u32 %r4, 8; mov.u32 %r5, 12; mov.u32 %r6, 1;\n"
    " mov.u32 %r8, 4;\n"
    " sured.b.add.1d.u32.trap [%rd1, {%r2}], 1;\n"
    " sured.b.max.1d.u32.trap [%rd1, {%r3}], %r1;\n"
    " sub.s32 %r7, 0, %r1;\n"
    " sured.b.min.1d.s32.trap [%rd1, {%r4}], %r7;\n"
    " shl.b32 %r7, %r6, %r1;\n"
    " sured.b.or.1d.b32.trap [%rd1, {%r5}], %r7;\n"
    " sured.p.add.1d.b32.trap [%rd1, {%r8}], 2;\n"
    " cvt.u64.u32 %rd3, %r1;\n"
    " sured.b.add.1d.u64.zero [%rd2, {%r2}], %rd3;\n"
    " sured.b.and.1d.b64.zero [%rd2, {%r4}], 0xff;\n"
    " ret;\n"
    "}\n"
    /* Queries: out = {txq/suq width, height, depth, txq.level.width 1, istypep.texref} */
    ".visible .entry queries(.param .u64 t, .param .u64 s, .param .u64 out)\n"
    "{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [s]; ld.param.u64 %rd3, [out];\n"
    " txq.width.b32 %r1, [%rd1]; txq.height.b32 %r2, [%rd1]; txq.depth.b32 %r3, [%rd1];\n"
    " txq.level.width.b32 %r4, [%rd1], 1;\n"
    " istypep.texref %p1, %rd1; selp.u32 %r5, 1, 0, %p1;\n"
    " istypep.surfref %p2, %rd2; selp.u32 %r6, 1, 0, %p2;\n"
    " suq.width.b32 %r7, [%rd2]; suq.height.b32 %r8, [%rd2]; suq.depth.b32 %r9, [%rd2];\n"
    " st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
    " st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
    " st.global.u32 [%rd3+32], %r9;\n"
    " ret;\n"
    "}\n"
    /* tex with .s32 coordinates, .f16x2 results and d|p: out[t] = 4 words */
    ".visible .entry tex_forms(.param .u64 t, .param .u64 lin, .param .u64 tf, .param .u64 out)\n"
    "{\n"
    " .reg .b32 %r<16>; .reg .f32 %f<8>; .reg .b64 %rd<8>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [lin]; ld.param.u64 %rd3, [out]; ld.param.u64 %rd7, [tf];\n"
    " mov.u32 %r1, %tid.x; sub.s32 %r2, %r1, 2;\n"
    " tex.2d.v4.u32.s32 {%r3, %r4, %r5, %r6}, [%rd1, {%r2, %r1}];\n"
    " tex.1d.v4.u32.s32 {%r7, %r8, %r9, %r10}, [%rd2, {%r2}];\n"
    " cvt.rn.f32.s32 %f1, %r1; add.f32 %f1, %f1, 0f3F000000;\n"
    " tex.2d.v2.f16x2.f32 {%r11, %r12}|%p1, [%rd7, {%f1, %f1}];\n"
    " selp.u32 %r13, 1, 0, %p1;\n"
    " mul.wide.u32 %rd4, %r1, 32; add.s64 %rd5, %rd3, %rd4;\n"
    " st.global.v4.u32 [%rd5], {%r3, %r7, %r11, %r12};\n"
    " st.global.v2.u32 [%rd5+16], {%r13, %r10};\n"
    " ret;\n"
    "}\n"
    /* Lanes with different handles in one warp: out[t] = tex(handles[t % 2], 0.5, 0.5).x */
    ".visible .entry two_handles(.param .u64 h0, .param .u64 h1, .param .u64 out)\n"
    "{\n"
    " .reg .b32 %r<8>; .reg .f32 %f<6>; .reg .b64 %rd<8>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [h0]; ld.param.u64 %rd2, [h1]; ld.param.u64 %rd3, [out];\n"
    " mov.u32 %r1, %tid.x; and.b32 %r2, %r1, 1; setp.eq.u32 %p1, %r2, 1;\n"
    " selp.b64 %rd4, %rd2, %rd1, %p1;\n"
    " mov.f32 %f1, 0f3F000000;\n"
    " tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd4, {%f1, %f1}];\n"
    " mul.wide.u32 %rd5, %r1, 4; add.s64 %rd6, %rd3, %rd5;\n"
    " st.global.f32 [%rd6], %f2;\n"
    " ret;\n"
    "}\n";

/* Sources the engine must refuse: {text, code, what the message names} */
static const struct {
    const char *text;
    CUresult code;
    const char *names;
} part2_refused[] = {
    {PTX_HEAD ".global .texref tex0;\n.visible .entry k() { ret; }\n", CUDA_ERROR_INVALID_PTX, ".texref"},
    {PTX_HEAD ".global .surfref surf0;\n.visible .entry k() { ret; }\n", CUDA_ERROR_INVALID_PTX, ".surfref"},
    {PTX_HEAD ".visible .entry k(.param .samplerref s) { ret; }\n", CUDA_ERROR_INVALID_PTX, ".samplerref"},
    {PTX_HEAD ".visible .entry k(.param .u64 t, .param .u64 s)\n{ .reg .b64 %rd<3>; .reg .f32 %f<6>;\n"
              " tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f5, %f5}];\n ret; }\n",
     CUDA_ERROR_INVALID_PTX, "sampler"},
    {PTX_HEAD ".visible .entry k(.param .u64 t)\n{ .reg .b64 %rd<3>; .reg .b32 %r<2>;\n"
              " txq.channel_order.b32 %r1, [%rd1];\n ret; }\n",
     CUDA_ERROR_NOT_SUPPORTED, "channel_order"},
    {PTX_HEAD ".visible .entry k(.param .u64 t)\n{ .reg .b64 %rd<3>; .reg .b32 %r<2>;\n"
              " suq.memory_layout.b32 %r1, [%rd1];\n ret; }\n",
     CUDA_ERROR_NOT_SUPPORTED, "memory_layout"},
    {PTX_HEAD ".visible .entry k(.param .u64 t)\n{ .reg .b64 %rd<3>; .reg .b32 %r<6>;\n"
              " suld.p.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r5}];\n ret; }\n",
     CUDA_ERROR_INVALID_PTX, "suld.p"},
    {PTX_HEAD ".visible .entry k(.param .u64 t)\n{ .reg .b64 %rd<3>; .reg .f32 %f<6>; .reg .b32 %r<3>;\n"
              " tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f5, %f5, %f5}], {%r1, %r2};\n ret; }\n",
     CUDA_ERROR_INVALID_PTX, "offsets"}, /* texlod: offsets run, but not on cube maps */
    {PTX_HEAD ".visible .entry k(.param .u64 t)\n{ .reg .b32 %r<3>; .reg .f32 %f<6>;\n"
              " tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%r1, {%f5, %f5}];\n ret; }\n",
     CUDA_ERROR_INVALID_PTX, "64-bit"},
    {PTX_HEAD ".visible .entry k(.param .u64 t)\n{ .reg .b64 %rd<3>; .reg .f32 %f<6>;\n"
              " tex.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f5}];\n ret; }\n",
     CUDA_ERROR_INVALID_PTX, "coordinates"},
};
