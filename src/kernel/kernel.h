/*
 * src/kernel/kernel.h: the kernel engine's one internal header (DESIGN.md §13).
 *
 * PTX text is decoded once per module into a compact representation (struct kfunc's array of
 * struct kinsn) that the executor (exec.c) runs a warp at a time: 32 lanes go through each
 * instruction together under an active mask, so shuffles, votes and reconvergence keep their
 * GPU meaning. The parser (ptx_*.c) never runs at launch time, and the executor never looks at
 * text (STYLE.md 13, 14).
 *
 * Values: every register of a function is a slot of 32 lanes of 64 bits (`uint64_t[32]`); a
 * narrower value sits in the low bits, zero-extended. Operands are slot numbers in one of three
 * spaces (kopnd): the frame's registers, the function's constant pool (immediates and symbol
 * addresses, the same in every lane), and the warp's special registers (%tid, %laneid ...).
 *
 * State spaces: a generic address is a host address. Global and const addresses are host
 * addresses too (module variables live in device memory the module owns). Shared addresses
 * are offsets in the block's shared window; local addresses are offsets in the lane's local
 * window (its stack); cvta adds or removes the window's host base. Kernel parameters are
 * offsets in the launch's parameter buffer; a .func's parameters are offsets in the frame's
 * per-lane parameter area.
 *
 * Instruction families live in ops_*.c: each lowers a parsed instruction (struct kparsed) to a
 * struct kinsn with a handler (kexec_fn), or refuses it with a reason. The scheduler (exec.c)
 * handles control flow itself (bra, brx.idx, call, ret, exit, bar, trap).
 *
 * The engine includes nothing of the core but the OS layer (os.h) and how failures are
 * recorded (device/error.h): a launch is given what it needs of the library it runs in, an
 * address space, workers and a host (struct kaddr_space, kworkers, khost below), so the
 * engine runs without a CUDA context wherever those are given.
 */
#ifndef EXTMEM_KERNEL_H
#define EXTMEM_KERNEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "extmem/cuda.h"
#include "os.h"
#include "device/error.h"

#define KLANES 32
#define KMAX_LIST 64 /* arguments of a call */
#define KFULL 0xffffffffu

/* ---- Types ---- */
#define KTYPES(X)                                                                                                      \
    X(NONE, "", 0) X(PRED, "pred", 1) X(B8, "b8", 1) X(B16, "b16", 2) X(B32, "b32", 4) X(B64, "b64", 8)                  \
    X(B128, "b128", 16) X(U8, "u8", 1) X(U16, "u16", 2) X(U32, "u32", 4) X(U64, "u64", 8) X(S8, "s8", 1)                \
    X(S16, "s16", 2) X(S32, "s32", 4) X(S64, "s64", 8) X(F16, "f16", 2) X(F16X2, "f16x2", 4) X(BF16, "bf16", 2)       \
    X(BF16X2, "bf16x2", 4) X(TF32, "tf32", 4) X(F32, "f32", 4) X(F64, "f64", 8)
typedef enum ktype {
#define X(e, s, n) KT_##e,
    KTYPES(X)
#undef X
        KT_COUNT
} ktype;
unsigned ktype_size(ktype t); /* bytes; PRED counts 1 */
const char *ktype_name(ktype t);
static inline bool ktype_signed(ktype t) { return t >= KT_S8 && t <= KT_S64; }
static inline bool ktype_float(ktype t) { return t >= KT_F16 && t <= KT_F64; }
/* The ISA's wrap rules of atom/red .inc and .dec (.u32): inc(r, s) = r >= s ? 0 : r + 1,
 * dec(r, s) = r == 0 || r > s ? s : r - 1 (ops_atom.c, and red.async in ops_async.c). */
static inline uint32_t katom_inc_u32(uint32_t r, uint32_t s) { return r >= s ? 0 : r + 1; }
static inline uint32_t katom_dec_u32(uint32_t r, uint32_t s) { return r == 0 || r > s ? s : r - 1; }

/* ---- Modifiers: every dotted suffix PTX uses that is not a type. The parser keeps them in
 * order; a family reads the ones it knows and refuses the rest. "::" suffixes (cache hints,
 * .L2::128B) are spelled with underscores: L1__no_allocate. ---- */
#define KMODS(X)                                                                                                       \
    X(rn) X(rz) X(rm) X(rp) X(rni) X(rzi) X(rmi) X(rpi) X(rna) X(rs) X(ftz) X(sat) X(approx) X(full) X(lo) X(hi)       \
    X(wide) X(cc) X(uni) X(eq) X(ne) X(lt) X(le) X(gt) X(ge) X(ls) X(hs) X(equ) X(neu) X(ltu) X(leu) X(gtu) X(geu)      \
    X(num) X(nan) X(and) X(or) X(xor) X(not) X(popc) X(add) X(inc) X(dec) X(min) X(max) X(exch) X(cas) X(global)        \
    X(shared) X(local) X(const) X(param) X(volatile) X(relaxed) X(acquire) X(release) X(acq_rel) X(sc) X(weak)         \
    X(mmio) X(cta) X(gpu) X(sys) X(cluster) X(v2) X(v4) X(v8) X(nc) X(up) X(down) X(bfly) X(idx) X(all) X(any)         \
    X(ballot) X(sync) X(aligned) X(red) X(arrive) X(f4e) X(b4e) X(rc8) X(ecl) X(ecr) X(rc16) X(clamp) X(wrap)          \
    X(shiftamt) X(to) X(ca) X(cg) X(cs) X(lu) X(cv) X(wb) X(wt) X(L1__evict_normal) X(L1__evict_unchanged)              \
    X(L1__evict_first) X(L1__evict_last) X(L1__no_allocate) X(L2__evict_first) X(L2__evict_last) X(L2__evict_normal)   \
    X(L2__64B) X(L2__128B) X(L2__256B) X(L2__cache_hint) X(noftz) X(relu) X(xorsign) X(abs) X(oob) X(satfinite)      \
    X(ex2) X(tanh) X(sin) X(cos) X(lg2) X(rcp) X(sqrt) X(rsqrt) X(mem) X(proxy) X(async) X(alias) X(b32) X(u32)        \
    X(s32) X(f32) X(pred) X(shiftamount) X(sel) X(gl) X(unified) X(nohint) X(warp) X(NaN) X(L1) X(L2)                 \
    X(shared__cta) X(shared__cluster) X(finite) X(infinite) X(number) X(notanumber) X(normal) X(subnormal) X(l) X(r)  \
    X(commit_group) X(wait_group) X(wait_all) X(uni_)                                                                  \
    /* textures and surfaces (ops_tex.c, ops_surf.c); .1d .2d .3d are spelled d1 d2 d3 */                              \
    X(d1) X(d2) X(d3) X(a1d) X(a2d) X(cube) X(acube) X(level) X(grad) X(base) X(b) X(g) X(a) X(p) X(trap) X(zero)      \
    X(width) X(height) X(depth) X(channel_data_type) X(channel_order) X(normalized_coords) X(filter_mode)              \
    X(addr_mode_0) X(addr_mode_1) X(addr_mode_2) X(num_mipmap_levels) X(num_samples) X(array_size) X(memory_layout)   \
    X(force_unnormalized_coords) X(texref) X(samplerref) X(surfref)                                                   \
    /* mma: tensor-core instructions (ops_mma.c): shapes, layouts, element types that are not \
     * register types, ldmatrix's counts */                                                                            \
    X(m8n8k4) X(m16n8k4) X(m16n8k8) X(m16n8k16) X(m16n8k32) X(m16n8k64) X(m16n8k128) X(m16n8k256) X(m8n8k16)          \
    X(m8n8k32) X(m8n8k128) X(m16n16k16) X(m32n8k16) X(m8n32k16) X(m16n16k8) X(m8n8) X(m8n16) X(m16n16) X(row) X(col)  \
    X(b1) X(s4) X(u4) X(e4m3) X(e5m2) X(x1) X(x2) X(x4) X(trans) X(load) X(store) X(mma) X(c) X(d)        \
    /* async copies and barriers (ops_async.c) */                                                                      \
    X(bulk) X(mbarrier) X(noinc) X(init) X(inval) X(arrive_drop) X(expect_tx) X(complete_tx) X(test_wait)             \
    X(try_wait) X(parity) X(pending_count) X(noComplete) X(mbarrier__complete_tx__bytes) X(bulk_group) X(read)       \
    X(prefetch) X(wait) X(mbarrier_init) X(tensormap__generic) X(multicast__cluster) X(cp_mask) X(reduce) X(tensor)   \
    X(im2col)                                                                                          \
    /* isa (issue 25): fp8 pairs (ops_isa.c; the sm_100a ones to refuse them by name), createpolicy, griddepcontrol */  \
    X(e4m3x2) X(e5m2x2) X(e2m1x2) X(e2m3x2) X(e3m2x2) X(ue8m0x2) X(fractional) X(range) X(cvt) X(L2__evict_unchanged)  \
    X(launch_dependents) X(u16x2) X(s16x2) X(mask) X(pack) /* .wait: the async block's */                            \
    /* the fp8 part (issue 25): sparse mma (ops_mma.c) */                                                              \
    X(sp) X(sp__ordered_metadata)
typedef enum kmod {
#define X(m) KM_##m,
    KMODS(X)
#undef X
        KM_COUNT
} kmod;
const char *kmod_name(kmod m);

/* ---- Operands: slot numbers in one of three spaces ---- */
typedef uint32_t kopnd;
#define KOPND_SPACE(o) ((o) >> 30)
#define KOPND_INDEX(o) ((o)&0x3fffffffu)
#define KOPND_REG(i) ((kopnd)(i))
#define KOPND_CONST(i) ((kopnd)(i) | (1u << 30))
#define KOPND_SPECIAL(i) ((kopnd)(i) | (2u << 30))
#define KOPND_NONE 0xffffffffu

/* The special registers the warp keeps, in this order (their slots are KOPND_SPECIAL(i)).
 * %clock, %clock64 and %globaltimer are read at run time by their own instruction. */
#define KSPECIALS(X)                                                                                                   \
    X(tid_x, "tid.x") X(tid_y, "tid.y") X(tid_z, "tid.z") X(ntid_x, "ntid.x") X(ntid_y, "ntid.y") X(ntid_z, "ntid.z")  \
    X(ctaid_x, "ctaid.x") X(ctaid_y, "ctaid.y") X(ctaid_z, "ctaid.z") X(nctaid_x, "nctaid.x")                          \
    X(nctaid_y, "nctaid.y") X(nctaid_z, "nctaid.z") X(laneid, "laneid") X(warpid, "warpid") X(nwarpid, "nwarpid")       \
    X(smid, "smid") X(nsmid, "nsmid") X(gridid, "gridid") X(lanemask_eq, "lanemask_eq")                                \
    X(lanemask_le, "lanemask_le") X(lanemask_lt, "lanemask_lt") X(lanemask_ge, "lanemask_ge")                          \
    X(lanemask_gt, "lanemask_gt") X(dynamic_smem_size, "dynamic_smem_size")                                            \
    X(total_smem_size, "total_smem_size") X(cluster_nctarank, "cluster_nctarank") X(cluster_ctarank, "cluster_ctarank") \
    X(is_explicit_cluster, "is_explicit_cluster")                                                                   \
    /* grid (issue 25): the driver's environment registers; %envreg1:%envreg2 is the grid's workspace */                \
    X(envreg0, "envreg0") X(envreg1, "envreg1") X(envreg2, "envreg2") X(envreg3, "envreg3") X(envreg4, "envreg4")      \
    X(envreg5, "envreg5") X(envreg6, "envreg6") X(envreg7, "envreg7") X(envreg8, "envreg8") X(envreg9, "envreg9")      \
    X(envreg10, "envreg10") X(envreg11, "envreg11") X(envreg12, "envreg12") X(envreg13, "envreg13")                    \
    X(envreg14, "envreg14") X(envreg15, "envreg15") X(envreg16, "envreg16") X(envreg17, "envreg17")                    \
    X(envreg18, "envreg18") X(envreg19, "envreg19") X(envreg20, "envreg20") X(envreg21, "envreg21")                    \
    X(envreg22, "envreg22") X(envreg23, "envreg23") X(envreg24, "envreg24") X(envreg25, "envreg25")                    \
    X(envreg26, "envreg26") X(envreg27, "envreg27") X(envreg28, "envreg28") X(envreg29, "envreg29")                    \
    X(envreg30, "envreg30") X(envreg31, "envreg31")                                                                               \
    /* isa (issue 25): the rest of the PTX ISA's "Special Registers" up to sm_90 */                                   \
    X(clusterid_x, "clusterid.x") X(clusterid_y, "clusterid.y") X(clusterid_z, "clusterid.z")                          \
    X(nclusterid_x, "nclusterid.x") X(nclusterid_y, "nclusterid.y") X(nclusterid_z, "nclusterid.z")                    \
    X(cluster_ctaid_x, "cluster_ctaid.x") X(cluster_ctaid_y, "cluster_ctaid.y")                                        \
    X(cluster_ctaid_z, "cluster_ctaid.z") X(cluster_nctaid_x, "cluster_nctaid.x")                                      \
    X(cluster_nctaid_y, "cluster_nctaid.y") X(cluster_nctaid_z, "cluster_nctaid.z")                                    \
    X(aggr_smem_size, "aggr_smem_size") X(reserved_smem_offset_begin, "reserved_smem_offset_begin")                    \
    X(reserved_smem_offset_end, "reserved_smem_offset_end") X(reserved_smem_offset_cap, "reserved_smem_offset_cap")    \
    X(reserved_smem_offset_0, "reserved_smem_offset_0") X(reserved_smem_offset_1, "reserved_smem_offset_1")            \
    X(pm0, "pm0") X(pm1, "pm1") X(pm2, "pm2") X(pm3, "pm3") X(pm4, "pm4") X(pm5, "pm5") X(pm6, "pm6") X(pm7, "pm7")   \
    X(pm0_64, "pm0_64") X(pm1_64, "pm1_64") X(pm2_64, "pm2_64") X(pm3_64, "pm3_64") X(pm4_64, "pm4_64")                \
    X(pm5_64, "pm5_64") X(pm6_64, "pm6_64") X(pm7_64, "pm7_64") X(current_graph_exec, "current_graph_exec")
/* isa (issue 25): the values of the special registers the launch does not set, as the H100
 * reads them (docs/probes/kernels/sreg/sreg_probe.out). */
#define KSREG_NWARPID 64u
#define KSREG_RESERVED_SMEM 1024u
#define KSREG_RESERVED_BEGIN 0u
#define KSREG_RESERVED_END 0x120u
#define KSREG_RESERVED_CAP 0x400u
#define KSREG_RESERVED_0 0u
#define KSREG_RESERVED_1 0u
static inline uint64_t ksreg_total_smem(uint64_t static_bytes, uint64_t dyn_bytes)
{
    return (static_bytes + dyn_bytes + 127) / 128 * 128;
}
/* %globaltimer's resolution on the H200: it moves in steps of 32 ns. */
#define KSREG_GLOBALTIMER_STEP_NS 32u
typedef enum kspecial {
#define X(e, s) KSP_##e,
    KSPECIALS(X)
#undef X
        KSP_COUNT
} kspecial;

/* ---- State spaces of memory instructions ---- */
typedef enum kspace {
    KS_GENERIC,
    KS_GLOBAL,
    KS_SHARED,
    KS_LOCAL,
    KS_CONST,
    KS_PARAM_KERNEL, /* the launch's parameter buffer (one for all lanes) */
    KS_PARAM_FRAME,  /* the frame's per-lane parameter area (.func parameters, call arguments) */
} kspace;

/* ---- Decoded instructions ---- */
struct kwarp;
struct kinsn;
/* Runs `in` for the lanes in mask (guard already applied; mask may be 0 for instructions whose
 * guard is false in every lane: handlers are then not called). */
typedef void (*kexec_fn)(struct kwarp *w, const struct kinsn *in, uint32_t mask);

/* What the scheduler does with an instruction. */
typedef enum kkind {
    KK_OP,      /* call in->exec, next instruction */
    KK_BRA,     /* to in->target */
    KK_BRX,     /* brx.idx: to ((uint32_t *)in->aux)[src0] */
    KK_CALL,    /* in->aux is a struct kcall */
    KK_RET,
    KK_EXIT,
    KK_BAR,     /* bar.sync / barrier.sync / bar.arrive / bar.red: in->aux is NULL, mods in in->flags */
    KK_TRAP,
    KK_NOP,     /* membar and the like on a device whose lanes run in order */
    /* async copies and barriers (ops_async.c): in->exec runs, then the lanes in w->retry stay at
     * this instruction and, when w->yield is set, the warp gives the block's other warps a turn
     * (a failed mbarrier.test_wait/try_wait, barrier.cluster.wait). The native tier returns to
     * the scheduler here. */
    KK_WAIT,
} kkind;

/* in->flags bits the scheduler and the common code read; a family keeps its own meanings in
 * in->mods. */
#define KF_GUARD_NEG 0x1u    /* @!p */
#define KF_FRAME_LOCAL 0x2u  /* the address is a .local symbol's: add the frame's depot offset */
#define KF_BAR_ARRIVE 0x4u   /* bar.arrive: count the arrival, do not wait */
#define KF_BAR_COUNT 0x8u    /* the barrier names a thread count (src[1]) */
#define KF_BAR_RED_POPC 0x10u
#define KF_BAR_RED_AND 0x20u
#define KF_BAR_RED_OR 0x40u
#define KF_OWNS_AUX 0x80u     /* in->aux is malloc'd by the family and freed with the function */

struct kinsn {
    kexec_fn exec;
    uint8_t kind;   /* kkind */
    uint8_t type;   /* ktype: the instruction's (first) type */
    uint8_t type2;  /* ktype: a second type (cvt's source, setp's compared type ...) */
    uint8_t space;  /* kspace, for memory instructions */
    uint8_t ndst, nsrc;
    uint8_t vec;    /* vector width of ld/st (1, 2, 4) */
    uint8_t pad_;
    uint32_t flags; /* KF_* */
    uint32_t mods;  /* the family's own modifier bits */
    kopnd guard;    /* predicate slot, or KOPND_NONE */
    kopnd dst[4];
    kopnd src[6];
    int64_t imm;    /* the address offset of a memory operand, or a family's immediate */
    uint32_t target; /* branch target (instruction index), or a family's value */
    uint32_t line;  /* PTX source line, for fault reports */
    const char *name; /* the opcode with its suffixes as written ("add.rn.f32"), for reports */
    void *aux;      /* per-kind data, owned by the function */
};

/* A call site: `call (ret), fname, (args)`, with .param symbols of the caller's frame. */
struct kcall {
    const struct kfunc *callee; /* NULL for a builtin */
    int builtin;                /* KB_* for vprintf, __assertfail, malloc, free */
    uint32_t nargs;
    uint32_t arg_offset[KMAX_LIST]; /* in the caller's frame parameter area */
    uint32_t ret_offset;        /* the return value's .param in the caller's area */
    bool has_ret;
    uint32_t table_count;       /* call through a register: the prototype's callees */
};
enum { KB_NONE, KB_VPRINTF, KB_ASSERTFAIL, KB_MALLOC, KB_FREE, KB_SET_CONDITIONAL,
    /* grid (issue 25): the device runtime (libcudadevrt) of dynamic parallelism, cdp.c */
    KB_CDP_FIRST = 64,
    KB_CDP_GET_PARAMETER_BUFFER = KB_CDP_FIRST, KB_CDP_GET_PARAMETER_BUFFER_V2, KB_CDP_LAUNCH_DEVICE,
    KB_CDP_LAUNCH_DEVICE_V2, KB_CDP_GET_LAST_ERROR, KB_CDP_PEEK_AT_LAST_ERROR, KB_CDP_GET_DEVICE,
    KB_CDP_GET_DEVICE_COUNT, KB_CDP_DEVICE_GET_ATTRIBUTE, KB_CDP_DEVICE_GET_LIMIT, KB_CDP_RUNTIME_GET_VERSION,
    KB_CDP_STREAM_CREATE_WITH_FLAGS, KB_CDP_STREAM_DESTROY, KB_CDP_STREAM_WAIT_EVENT, KB_CDP_EVENT_CREATE_WITH_FLAGS,
    KB_CDP_EVENT_DESTROY, KB_CDP_EVENT_RECORD, KB_CDP_EVENT_RECORD_WITH_FLAGS, KB_CDP_MEMCPY_ASYNC,
    KB_CDP_MEMSET_ASYNC, KB_CDP_DEVICE_SYNCHRONIZE,
    /* devrt (issue 25): the rest of the device runtime (devrt.c) */
    KB_DEVRT_FIRST, KB_DEVRT_MALLOC = KB_DEVRT_FIRST, KB_DEVRT_FREE, KB_DEVRT_MEMCPY_2D_ASYNC,
    KB_DEVRT_MEMCPY_3D_ASYNC, KB_DEVRT_MEMSET_2D_ASYNC, KB_DEVRT_MEMSET_3D_ASYNC, KB_DEVRT_GET_ERROR_NAME,
    KB_DEVRT_GET_ERROR_STRING, KB_DEVRT_FUNC_GET_ATTRIBUTES, KB_DEVRT_OCCUPANCY, KB_DEVRT_OCCUPANCY_WITH_FLAGS,
    KB_DEVRT_DEVICE_GET_CACHE_CONFIG, KB_DEVRT_DEVICE_GET_SHARED_MEM_CONFIG, KB_DEVRT_CG_GET_INTRINSIC_HANDLE,
    KB_DEVRT_CG_SYNCHRONIZE, KB_DEVRT_CG_GET_SIZE, KB_DEVRT_CG_GET_RANK, KB_DEVRT_GRAPH_LAUNCH,
    KB_CDP_END
};
/* grid (issue 25): the device runtime function `name` is (KB_CDP_*), or KB_NONE; *nargs the
 * arguments it takes. */
int kcdp_builtin_of(const char *name, uint32_t *nargs);
/* link part: what khost.heap_free answers (devrt: KHEAP_FREED_BEFORE, the start of a block freed
 * already whose header says so, as the GPU's allocator finds it) */
enum { KHEAP_FREED, KHEAP_NOT_A_BLOCK, KHEAP_OUTSIDE, KHEAP_FREED_BEFORE };
/* devrt (issue 25): the device runtime function `name` (after "__cudaCDP2", "__cuda" or "cuda")
 * is, of devrt.c's: KB_DEVRT_*, or KB_NONE; *nargs the arguments it takes. */
int kdevrt_builtin_of(const char *rest, uint32_t *nargs);

/* A parameter of an entry or .func. */
struct kparam {
    char *name;
    uint32_t offset, size, align;
    bool is_pointer_sized; /* .u64/.b64 scalar (for diagnostics) */
};

struct kfunc {
    char *name;
    bool entry;          /* .entry (a kernel); else .func */
    bool defined;        /* has a body (not .extern) */
    struct kmodule *module;
    uint32_t nparams;
    struct kparam *params;
    uint32_t param_bytes;  /* entry: the parameter buffer's size */
    uint32_t nrets;        /* .func: return values (0 or 1 parameter) */
    struct kparam ret;
    uint32_t frame_param_bytes; /* .func and call sites: per-lane parameter area of a frame */
    uint32_t nregs;        /* register slots of a frame */
    uint32_t nconsts;
    uint64_t *consts;      /* nconsts slots of KLANES values each */
    uint32_t ninsns;
    struct kinsn *code;
    uint32_t local_bytes;  /* the frame's .local depot, per lane */
    uint32_t static_shared; /* entry: bytes of .shared the kernel (and what it calls) declares */
    uint32_t dyn_shared_offset; /* where extern .shared arrays start */
    uint32_t maxntid[3], reqntid[3]; /* 0 when not given */
    uint32_t reqnctapercluster[3];   /* clusters: .reqnctapercluster (__cluster_dims__), 0 when not given */
    uint32_t maxclusterrank;         /* clusters: .maxclusterrank, 0 when not given */
    bool explicitcluster;            /* clusters: .explicitcluster (a launch must name a cluster) */
    uint32_t minnctapersm, maxnreg;
    uint32_t line;         /* of its declaration */
    /* Set by the API layer (cuFuncSetAttribute, cuFuncSetCacheConfig). */
    int max_dynamic_shared;
    int preferred_carveout;
    int cache_config;
    /* link part: how the definition links (PTX ISA, "Linking Directives"): .weak, and the
     * linking unit (a .version of a linked image) it comes from. */
    bool link_weak;
    uint32_t link_unit;
    bool link_external; /* declared or defined with .visible, .extern, .weak or .common */
};

/* The most threads a block of kf may have: .reqntid fixes the block, .maxntid bounds it (PTX
 * ISA, "Performance-Tuning Directives"; each product capped at 1024), else 1024. The driver's
 * checks (module/function.c) and the device runtime's cudaFuncGetAttributes (devrt.c) take it. */
static inline uint32_t kfunc_max_threads(const struct kfunc *kf)
{
    const uint32_t *d = kf->reqntid[0] ? kf->reqntid : kf->maxntid[0] ? kf->maxntid : NULL;
    if (!d)
        return 1024;
    uint64_t n = 1;
    for (int i = 0; i < 3; ++i)
        n *= d[i] ? d[i] : 1;
    return n > 1024 ? 1024 : (uint32_t)n;
}

/* A .global or .const variable. */
struct kvar {
    char *name;
    kspace space;
    uint64_t offset; /* in the module's data block */
    uint64_t size;
    uint32_t align;
    /* The initialiser's bytes, as far as it reaches (the rest is zero): a variable without
     * one takes no host memory, whatever its size. */
    unsigned char *init;
    uint64_t init_bytes;
    /* link part: declared .extern and not (yet) defined by any unit; .weak or .common; the
     * unit that defines it (PTX ISA, "Linking Directives"). */
    bool link_declared;
    bool link_weak;
    uint32_t link_unit;
    bool link_external;
};

/* A place in the data block that holds the address of a variable (an initialiser like
 * `.global .u64 p = generic(x)`), written when the block is bound to memory. */
struct kreloc {
    uint64_t at;     /* offset in the data block */
    uint32_t var;    /* index in vars */
    int64_t addend;
    unsigned size;   /* 4 or 8 bytes */
};

/* A constant-pool slot that holds a symbol's address: set when the data block is bound. */
struct kconst_reloc {
    struct kfunc *fn;
    uint32_t slot;
    uint32_t var;
    int64_t addend;
};

struct kmodule {
    uint32_t ptx_version; /* major * 10 + minor, as cuFuncGetAttribute's PTX_VERSION */
    uint32_t target_sm;   /* 75 for sm_75 */
    uint32_t nfuncs;
    struct kfunc **funcs;
    uint32_t nvars;
    struct kvar *vars;
    uint64_t data_bytes;       /* .global and .const variables, laid out in one block */
    uint32_t data_align;
    uint32_t nrelocs;
    struct kreloc *relocs;
    uint32_t nconst_relocs;
    struct kconst_reloc *const_relocs;
    uintptr_t data_base;       /* where the block lives, once bound */
    bool uses_local;           /* a function has a .local depot: launches give threads stacks */
    char *source_name;         /* for messages: "module 3 (PTX)" or a file name */
    struct khash *names;       /* interned instruction names (kinsn.name) */
    struct knative *native;    /* the native tier's code (native.c), made at the first launch */
    /* grid (issue 25): a function reads %envreg1 or %envreg2, the grid workspace's address
     * (cooperative_groups' grid.sync() and is_valid()) */
    bool reads_workspace;
    /* link part */
    bool uses_heap;            /* a function calls malloc or free: launches get the context's heap */
    uint32_t link_units;       /* linking units (.version directives) the text held */
};

/* A log for cuModuleLoadDataEx's info and error buffers; the parser appends its messages. */
struct klog {
    char *buf;
    size_t size, used;
};
void klog_printf(struct klog *log, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(2, 3);

/* ---- The front end (ptx_*.c) ---- */
/* Decodes PTX text (len bytes; it need not be NUL-terminated). On success *out is a module
 * whose data block is not yet bound. On failure: CUDA_ERROR_INVALID_PTX with "name:line: what
 * was expected" recorded (fail) and appended to errlog, or CUDA_ERROR_OUT_OF_MEMORY. */
CUresult kmod_parse(const char *fn, const char *text, size_t len, const char *name, struct klog *errlog,
                    struct kmodule **out);
/* link part: the same for a linked text, several linking units each starting with its .version
 * (docs/kernels.md, "Linking"): unit i is named unit_names[i] in messages (NULL, or fewer names:
 * "name, unit i"), and its lines are counted from its .version. Externs resolve across units;
 * an unresolved one, or two strong definitions of a name, is CUDA_ERROR_INVALID_PTX. */
#define KPARSE_RELOCATABLE 0x1u /* externs may stay unresolved (checking one input of a link) */
#define KFUNC_DEAD_UNIT UINT32_MAX /* kfunc.link_unit, kvar.link_unit of a definition that lost */
CUresult kmod_parse_units(const char *fn, const char *text, size_t len, const char *name,
                          const char *const *unit_names, uint32_t nunit_names, unsigned flags, struct klog *errlog,
                          struct kmodule **out);
/* Binds the data block to `base` (data_bytes of zeroed device memory the caller owns, aligned
 * to data_align): copies the initial contents there, writes relocations and sets the constant-pool
 * slots that hold variable addresses. */
void kmod_bind(struct kmodule *m, uintptr_t base);
void kmod_free(struct kmodule *m);
/* An entry (kernel) of the module by name, or NULL. */
struct kfunc *kmod_entry(const struct kmodule *m, const char *name);
/* A .global or .const variable by name, or NULL. */
const struct kvar *kmod_var(const struct kmodule *m, const char *name);
/* True when the text looks like PTX (a .version directive before anything else). */
bool kptx_looks_like(const char *text, size_t len);

/* ---- Images (fatbin.c) ---- */
/* The PTX text an image carries for a device of compute capability `sm` (major * 10 + minor):
 * the image itself when it is PTX, the best PTX entry of a fat binary (the highest target not
 * above sm, decompressed) otherwise. `size` is the image's size when known (a file), else 0
 * (the caller's memory, which the fat binary's own header bounds). On success *text is a
 * NUL-terminated copy (free() it) of *len bytes and `name` says where it came from.
 * CUDA_ERROR_INVALID_VALUE: image NULL. CUDA_ERROR_NO_BINARY_FOR_GPU: an ELF cubin, or a fat
 * binary with SASS only or PTX only for newer targets. CUDA_ERROR_INVALID_IMAGE: neither PTX
 * nor a fat binary, a truncated or inconsistent fat binary, a failed decompression.
 * CUDA_ERROR_NOT_SUPPORTED: a compression this build has no library for. */
CUresult image_ptx(const char *fn, const void *image, size_t size, int sm, char **text, size_t *len, char name[96]);

/* ---- Parsed instructions (the parser's output, the families' input) ---- */
typedef enum kop_kind {
    KO_REG,    /* a register or predicate: slot in .slot, declared type in .type */
    KO_IMM,    /* an integer immediate in .imm; a float one in .fimm (with .is_float) */
    KO_SYM,    /* a variable or function name: .sym_space, .slot (const slot holding its address) */
    KO_ADDR,   /* [base+imm]: base is a KO_REG, KO_SYM or none (absolute) */
    KO_VEC,    /* {a, b, c, d} */
    KO_SPECIAL,/* a special register */
    KO_LABEL,  /* a branch target: .label is the instruction index */
    KO_SINK,   /* _ */
    KO_LIST,   /* ( a, b, ... ): call lists; the elements are kparsed.list[label .. label+nvec) */
} kop_kind;

struct kparsed_op {
    kop_kind kind;
    ktype type;       /* KO_REG: declared type */
    kopnd slot;       /* KO_REG / KO_SPECIAL / KO_SYM / KO_ADDR base */
    bool neg;         /* !%p */
    bool is_float;
    bool base_is_local_sym; /* KO_ADDR or KO_SYM of a .local symbol: relative to the frame */
    kspace sym_space; /* KO_SYM / KO_ADDR of a symbol: the symbol's space */
    bool has_base;    /* KO_ADDR */
    int64_t imm;
    double fimm;
    uint64_t fbits;   /* 0f/0d literals: their bits */
    uint32_t label;   /* KO_LABEL: the instruction index, or UINT32_MAX when defined later */
    const struct ksym *symbol; /* KO_SYM / KO_ADDR / KO_LABEL: what the name names */
    uint32_t nvec;
    kopnd vec[8];     /* KO_VEC: slots (KOPND_NONE for _); more than 4 only for mma and wmma */
    ktype vec_type[8];
    const char *sym;  /* KO_SYM / KO_ADDR: the name, for calls and messages */
    /* KO_ADDR of a texture or surface instruction, [handle, {c0, ...}] or [handle, c0]: the
     * handle is the base (.slot, a register), the coordinates are vec[0 .. nvec) with their
     * types in vec_type (KT_NONE for an immediate). */
    bool image;
};

struct kparsed {
    const char *opcode;
    const char *text;   /* the instruction as written, up to the operands, for messages */
    kmod mods[16];
    uint32_t nmods;
    ktype types[4];
    uint32_t ntypes;
    kopnd guard;
    bool guard_neg;
    struct kparsed_op ops[8];
    uint32_t nops;
    struct kparsed_op list[KMAX_LIST];
    uint32_t nlist;
    uint32_t line;
};
static inline bool kp_has(const struct kparsed *p, kmod m)
{
    for (uint32_t i = 0; i < p->nmods; ++i)
        if (p->mods[i] == m)
            return true;
    return false;
}

/* What a family's lowering may use: a constant-pool slot for an immediate, and the reason
 * when it refuses. */
struct klower {
    struct kparser *ps;
    struct kfunc *fn;
    const char *file; /* the module's name */
    char why[256];    /* set by kl_refuse */
};
/* A constant-pool slot whose every lane holds `bits`. */
kopnd kl_const(struct klower *lw, uint64_t bits);
/* Lowers one source operand of `type` to a slot: a register as it is, an immediate through
 * the constant pool (a float literal converted to type's format). False with lw->why set when
 * the operand cannot be a value. */
bool kl_src(struct klower *lw, const struct kparsed *p, uint32_t i, ktype type, kopnd *out);
/* The value a store writes: operand i as a source of `type` (n == 1), or a vector of n registers
 * with no '_' (n > 1), into out[0..n-1]. */
bool kl_store_value(struct klower *lw, const struct kparsed *p, uint32_t i, ktype type, unsigned n, kopnd *out);
/* A destination register (or _ : a scratch slot). */
bool kl_dst(struct klower *lw, const struct kparsed *p, uint32_t i, kopnd *out);
/* An immediate operand's bits in type's format (float literals converted, integers
 * truncated to the type's size). */
bool kl_imm_bits(struct klower *lw, const struct kparsed_op *op, ktype type, uint64_t *out);
/* p's i-th type suffix, or KT_NONE. */
ktype kl_type(const struct kparsed *p, uint32_t i);
/* Clears a decoded instruction for a family's lowering, keeping guard, line and name. */
void kinsn_reset(struct kinsn *in);
/* Records why the instruction cannot be lowered; returns false. */
bool kl_refuse(struct klower *lw, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(2, 3);

/* A family's lowering: fills `in` (exec, kind, operands ...) from `p`, or returns false with
 * lw->why set. `in` arrives zeroed with guard, line and name filled. */
typedef bool (*klower_fn)(struct klower *lw, const struct kparsed *p, struct kinsn *in);
struct klower_entry {
    const char *opcode;
    klower_fn lower;
};
/* The families' tables (ops_*.c), each ended by {NULL, NULL}. */
extern const struct klower_entry kops_int[], kops_float[], kops_cvt[], kops_mem[], kops_atom[], kops_warp[],
    kops_misc[], kops_control[], kops_tex[], kops_surf[];
/* mma: the tensor-core family (ops_mma.c) */
extern const struct klower_entry kops_mma[];
/* async copies and barriers (ops_async.c) */
extern const struct klower_entry kops_async[];
/* isa (issue 25): ops_isa.c's own opcodes, and the forms other families hand it. */
extern const struct klower_entry kops_isa[];
bool kisa_lower_elect(struct klower *lw, const struct kparsed *p, struct kinsn *in);
bool kisa_lower_half_compare(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool is_set);
bool kisa_lower_cvt_f8(struct klower *lw, const struct kparsed *p, struct kinsn *in);
bool kisa_lower_int16x2(struct klower *lw, const struct kparsed *p, struct kinsn *in);
bool kisa_lower_cvt_pack(struct klower *lw, const struct kparsed *p, struct kinsn *in);
bool kisa_lower_atom_vec(struct klower *lw, const struct kparsed *p, struct kinsn *in, bool is_red);
/* Lowers p into in through the first family that claims it; false with lw->why set when none
 * does (or the claiming family refuses). */
bool klower_run(struct klower *lw, const struct kparsed *p, struct kinsn *in);

/* ---- The parser's state (ptx_lex.c, ptx_parse.c, ptx_insn.c) ---- */
typedef enum ktok_kind { KTK_EOF, KTK_WORD, KTK_INT, KTK_FLOAT, KTK_STRING, KTK_PUNCT } ktok_kind;
struct ktok {
    ktok_kind kind;
    const char *s; /* the token's text (not NUL-terminated) */
    uint32_t len;
    uint32_t line;
    uint64_t ival;  /* KTK_INT; KTK_FLOAT: the bits of a 0f/0d literal */
    double fval;    /* KTK_FLOAT */
    bool fbits32, fbits64; /* 0f / 0d literal */
};

/* A name in a scope: a register, a variable, a parameter, a label or a function. */
typedef enum ksym_kind { KSYM_REG, KSYM_VAR, KSYM_PARAM, KSYM_FUNC, KSYM_LABEL } ksym_kind;
struct ksym {
    ksym_kind kind;
    ktype type;
    kspace space;      /* KSYM_VAR / KSYM_PARAM */
    uint32_t slot;     /* KSYM_REG: register slot; KSYM_VAR: var index (global/const) */
    uint64_t offset;   /* KSYM_VAR shared/local, KSYM_PARAM: offset in its space */
    uint64_t size;
    struct kfunc *fn;  /* KSYM_FUNC */
    uint32_t label;    /* KSYM_LABEL: instruction index */
    char **targets;    /* KSYM_LABEL of a .branchtargets list: the label names */
    uint32_t ntargets;
};

struct kparser {
    const char *fn;     /* the API call, for messages */
    const char *name;   /* the module's name */
    const char *p, *end;
    uint32_t line;
    struct ktok tok;    /* the current token */
    struct klog *log;
    struct kmodule *m;
    CUresult err;       /* set by kparse_error */
    struct khash *globals; /* module scope */
    struct khash *locals;  /* the function being parsed */
    struct kfunc *cur;
    /* growing arrays of the function being parsed */
    uint32_t cap_insns, cap_consts;
    struct khash *const_index; /* bits -> const slot */
    /* labels used before their definition */
    struct kfixup { uint32_t insn; uint32_t op; char *name; uint32_t line; } *fixups;
    uint32_t nfixups, cap_fixups;
    uint32_t cap_vars, cap_relocs, cap_const_relocs;
    bool *const_is_sym; /* per constant slot: holds a symbol's address (not shared by value) */
    uint32_t cap_const_is_sym;
    void *fixups_extra; /* ptx_parse.c's private state */
    struct ksym *last_label; /* the label a .branchtargets list belongs to */
    /* link part: a text of several linking units, each starting with its .version (what
     * cuLinkComplete makes, docs/kernels.md "Linking"): names with external linkage (.visible,
     * .extern, .weak, .common) are shared by all units through `linked`, the others are the
     * unit's own (globals). Messages name the unit and count lines from its start. */
    struct khash *linked;
    uint32_t unit, unit_line0;
    const char *const *unit_names;
    uint32_t nunit_names;
    bool external; /* the directive being read has external linkage */
    bool weak;     /* ... and it is .weak or .common */
    bool relocatable; /* KPARSE_RELOCATABLE */
};
void klex_init(struct kparser *ps, const char *text, size_t len);
void klex_next(struct kparser *ps);
bool ktok_is(const struct ktok *t, const char *s);
bool ktok_punct(const struct ktok *t, char c);
/* Records an INVALID_PTX error at the current line ("name:line: ..."); returns false. */
bool kparse_error(struct kparser *ps, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(2, 3);
bool kparse_error_at(struct kparser *ps, uint32_t line, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(3, 4);
/* The same with another code than INVALID_PTX (an instruction the GPU's driver refuses with
 * CUDA_ERROR_NOT_SUPPORTED). */
bool kparse_error_code(struct kparser *ps, CUresult code, uint32_t line, const char *fmt, ...)
    EXTMEM_PRINTF_FORMAT(4, 5);

/* String-keyed hash (ptx_lex.c), for symbols. */
struct khash *khash_new(void);
void khash_free(struct khash *h);
void *khash_get(const struct khash *h, const char *key, size_t len);
/* Inserts or replaces; returns the previous value (or NULL); false on no memory. */
bool khash_put(struct khash *h, const char *key, size_t len, void *value, void **old);
/* Calls fn for every value. */
void khash_each(const struct khash *h, void (*fn)(void *value, void *arg), void *arg);

/* A name in the function's scope, else the module's; NULL when unknown. */
struct ksym *kparse_lookup(struct kparser *ps, const char *name, size_t len);
/* A constant slot holding a symbol's address (an offset in its space for shared, local and
 * parameters; patched when the module is laid out or bound). */
kopnd kparse_sym_const(struct kparser *ps, const struct ksym *s, int64_t addend);
/* Parses one instruction (the current token starts it) into the function being parsed. */
bool kparse_insn(struct kparser *ps);
/* Appends an instruction slot to the function being parsed. */
struct kinsn *kfunc_push_insn(struct kparser *ps);
kopnd kfunc_const(struct kparser *ps, uint64_t bits);
/* A new register slot of the function being parsed. */
uint32_t kfunc_new_reg(struct kparser *ps);

/* ---- What a launch is given (src/module/kernel_launch.c fills them from the core) ---- */
/* The address space kernels load from and store to. */
struct kaddr_space {
    /* True when [addr, addr + size) lies in memory a kernel may read (write: and write), with
     * the extent of the allocation or mapping that holds it in [*lo, *hi) (empty when the
     * access spans several). */
    bool (*extent)(const struct kaddr_space *space, uintptr_t addr, size_t size, bool write, uintptr_t *lo,
                   uintptr_t *hi);
};
/* The workers a launch's blocks run on. */
struct kworkers {
    unsigned int count; /* how many run blocks at once: %nsmid */
    /* Calls block(arg, i) for every i in [0, n), this thread helping, and returns when all
     * ran; once *stop is nonzero, the indices not yet handed out are skipped. */
    void (*run)(const struct kworkers *workers, uint64_t n, atomic_int *stop, void (*block)(void *arg, uint64_t i),
                void *arg);
};
/* A texture or surface object as a kernel sees it (DESIGN.md §17): a snapshot the host's
 * `image` callback fills from the handle a kernel passes (src/image fills it; the engine's tex,
 * tld4, txq, suld, sust, sured, suq and istypep read it). Every byte a kernel may read or write
 * through it lies in [lo, hi), which is device memory: the engine checks that extent against the
 * address space once per instruction, never touching host memory outside device memory. */
#define KIMAGE_MAX_LEVELS 16
enum kimage_geometry {
    KIMG_LINEAR = 1, /* a linear resource: 1D, elements at base + i * texel_bytes, width elements */
    KIMG_1D,
    KIMG_2D,         /* also a pitch-2D resource (one level, its pitch) */
    KIMG_3D,
    KIMG_CUBE,       /* 6 faces as layers (cubemap layered: 6 * layers) */
};
struct kimage_level {
    uintptr_t base;                /* element (0, 0, 0) of layer 0 */
    uint32_t width, height, depth; /* in elements: 1 where the geometry has no such dimension
                                      (a block-compressed format: in texels, its rows being
                                      rows of 4x4 blocks, as src/image/image.h says of arrays) */
    uint64_t row_pitch;            /* bytes from one row to the next */
    uint64_t slice_pitch;          /* bytes from one depth slice or layer to the next */
};
struct kimage {
    uint8_t surface;     /* a surface object (suld/sust/sured/suq), else a texture object */
    uint8_t geometry;    /* kimage_geometry */
    uint8_t layered;     /* an array of layers (LAYERED, or cubemap layered) */
    uint8_t channels;    /* 1 to 4 */
    uint32_t format;     /* CUarray_format of the elements (of the view, when a view gives one) */
    uint32_t texel_bytes;/* one element, all channels (a BC format: one 4x4 block) */
    uint32_t layers;     /* layers (cube: faces included); 1 when not layered */
    uint32_t nlevels;    /* 1 unless a mipmapped array */
    struct kimage_level level[KIMAGE_MAX_LEVELS];
    /* The texture descriptor (CUDA_TEXTURE_DESC), as validated at creation. */
    uint32_t address_mode[3]; /* CUaddress_mode */
    uint32_t filter_mode;     /* CUfilter_mode */
    uint32_t mip_filter_mode; /* CUfilter_mode */
    uint32_t flags;           /* CU_TRSF_* (READ_AS_INTEGER, NORMALIZED_COORDINATES, SRGB,
                                 DISABLE_TRILINEAR_OPTIMIZATION, SEAMLESS_CUBEMAP) */
    uint32_t max_anisotropy;
    float mip_bias, min_lod_clamp, max_lod_clamp;
    float border[4];
    /* A resource view's first mip level and layer in the resource. level[] and layers are
     * already the view's (level[0] is its first level, each base its first layer): these are
     * for txq and messages, not to be applied again. */
    uint32_t first_level, first_layer;
    /* Every byte of the resource, clipped to the device memory under it when khost.image is
     * asked (a texel outside faults: the driver takes a linear texture larger than its memory). */
    uintptr_t lo, hi;
};

/* The library the engine runs in, for the threads the native tier starts (a compile runs on a
 * thread of its own, counted among the library's workers so that unloading joins it). */
struct khost {
    bool (*unloading)(void);                /* no thread may start; a running compiler is stopped */
    void (*thread_started)(void);           /* a thread is about to be started ... */
    void (*thread_unstarted)(void);         /* ... and could not be */
    void (*thread_enter)(void);             /* in the new thread: it runs device work */
    void (*thread_leaving)(os_thread self); /* its last call: to be joined */
    /* cudaGraphSetConditional(handle, value) from a kernel: false when handle is no conditional
     * handle (the launch faults). */
    bool (*set_conditional)(uint64_t handle, uint32_t value);
    /* The texture (surface: true, a surface) object `handle` names, copied into *out: false
     * when handle names no live object of that kind (the launch faults as the GPU does). */
    bool (*image)(uint64_t handle, bool surface, struct kimage *out);
    /* grid (issue 25): the device runtime's questions (cudaDeviceGetAttribute, cudaDeviceGetLimit
     * from a kernel): a CUresult, the value in *value. NULL: not answered (cudaErrorNotSupported). */
    int (*device_attribute)(int attr, int device, int *value);
    int (*device_limit)(void *api_ctx, int limit, uint64_t *value); /* devrt: of the launch's context */
    /* link part: the device heap (malloc and free in kernels; src/memory/heap.c). heap_alloc
     * gives `size` bytes, 16-byte aligned, of the launch's heap (klaunch.heap), or 0 when it is
     * exhausted; heap_free releases an address heap_alloc gave (KHEAP_FREED), and does nothing
     * for any other: KHEAP_NOT_A_BLOCK inside the heap (freed already, or inside a block),
     * KHEAP_OUTSIDE elsewhere. Both are safe from every block at once. */
    uint64_t (*heap_alloc)(void *heap, uint64_t size);
    int (*heap_free)(void *heap, uint64_t addr);
    /* devrt (issue 25): occupancy as cudaOccupancyMaxActiveBlocksPerMultiprocessor answers for
     * `fn` with the function's defaults (the H100's device runtime applies no attribute the host
     * set). */
    int (*occupancy)(const struct kfunc *fn, int block, uint64_t dyn_shared);
};
/* devrt: device_limit's questions besides the cudaLimit numbers: the context's cache and shared
 * memory configuration (cudaDeviceGetCacheConfig, cudaDeviceGetSharedMemConfig). */
enum { KDEVRT_CFG_CACHE = 1000, KDEVRT_CFG_SHARED_MEM };

/* ---- Execution (exec.c) ---- */
/* A function's native code (native.c): runs the group `mask` of the top frame from `pc` while
 * it is the lowest group (pc < stop) and the code is straight or branches uniformly; returns
 * the pc where the scheduler takes over. */
struct knat_ctx;
typedef uint32_t (*knat_fn)(struct knat_ctx *c, uint32_t pc, uint32_t mask, uint32_t stop);

#define KMAX_FRAMES 64 /* call depth: a deeper recursion faults (stack overflow) */

struct kframe {
    const struct kfunc *fn;
    uint64_t *regs;          /* fn->nregs slots */
    unsigned char *params;   /* per-lane parameter area: lane l at params + l * fn->frame_param_bytes */
    uint32_t local_off;      /* the frame's .local depot in each lane's local window */
    uint32_t lanes;          /* lanes running in this frame */
    uint32_t ret_pc;         /* where the caller goes on */
    const struct kinsn *call;
    uint32_t pc[KLANES];
    uint32_t returned;       /* lanes that executed ret (they wait for the others) */
    /* The group being run: lanes at cur_pc (their pc[] entries are stale), and the lowest pc
     * of the frame's other runnable lanes (UINT32_MAX: none). */
    uint32_t cur_pc, cur_mask, wait_min;
    knat_fn nat;             /* the function's native code (native.c), or NULL: portable */
};

struct klaunch;
struct kblock;

struct kwarp {
    struct kblock *b;
    uint32_t index;     /* warp in the block */
    uint32_t live;      /* lanes that exist and have not exited */
    uint32_t blocked;   /* lanes waiting at a barrier */
    uint8_t bar_id[KLANES]; /* the barrier each blocked lane waits on */
    uint8_t bar_depth[KLANES]; /* and the frame it blocked in (bar.red writes its result there) */
    uint32_t depth;     /* frames in use: frames[0 .. depth-1]; top == &frames[depth-1] */
    struct kframe *top;
    struct kframe *frames; /* KMAX_FRAMES of them, from the block's scratch memory */
    /* The special registers' rows: %tid and %warpid are the warp's own (own[]), the others
     * the block's (struct kblock.uniform), shared by its warps. */
    const uint64_t *special[KSP_COUNT];
    uint64_t own[4][KLANES];
    unsigned char *local; /* lane l's window: local + l * local_stride */
    uint32_t local_stride;
    uint32_t local_used;  /* depot bytes in use by the frames */
    uint8_t cc[KLANES];   /* each lane's carry flag (add.cc, addc ...) */
    /* Recently used extents of memory kernels may touch: two for loads, one for stores (the
     * native tier reads them in this order: knat_ctx.ok). */
    uintptr_t ok_lo, ok_hi, okw_lo, okw_hi, ok2_lo, ok2_hi;
    /* async copies and barriers (ops_async.c, KK_WAIT) */
    uint32_t retry;               /* lanes that run the KK_WAIT instruction again */
    bool yield;                   /* a wait failed: let the block's other warps run */
    bool yield_pending;           /* the warp's last turn ended at a failed wait ... */
    const struct kinsn *wait_at;  /* ... this one */
    uint32_t parked;              /* lanes that failed a wait this turn: the others run first */
    uint32_t cl_phase[KLANES];    /* barrier.cluster: the phase each lane last arrived in */
    int32_t dev_error[KLANES]; /* grid (issue 25): each thread's device runtime error (cudaGetLastError) */
    /* speed (issue 27): which of the two rows above hold anything but zeros (KWARP_DIRTY_*), so
     * that memory reused for the next block clears only those (block_begin) */
    uint8_t dirty;
};
#define KWARP_DIRTY_CL_PHASE 1u
#define KWARP_DIRTY_DEV_ERROR 2u

/* The block being run: its warps, shared window and barriers. */
struct kblock {
    struct klaunch *l;
    uint32_t ctaid[3];
    unsigned char *shared;
    uint32_t shared_size;
    uint32_t nwarps;
    uint32_t threads_live;
    struct kwarp *warps;
    struct {
        uint32_t arrived;   /* threads */
        uint32_t expected;  /* 0: every live thread */
        uint32_t red_acc;
        uint32_t red_op;    /* 0 none, else KF_BAR_RED_* */
        const struct kinsn *red_in; /* the bar.red whose destination takes the result */
    } bar[16];
    uint16_t bar_pending;   /* speed (issue 27): the barriers above with threads arrived */
    uint32_t index;         /* linear block index */
    uint64_t uniform[KSP_COUNT][KLANES]; /* the special registers every warp of the block shares */
    /* async copies and barriers (ops_async.c) */
    uint64_t mbar_epoch;    /* counts changes of the block's mbarriers (deadlock detection) */
    uint32_t idle_rounds;   /* scheduling rounds in which every warp that ran only failed waits */
    uint32_t cl_phase;      /* barrier.cluster (a cluster of one block): completed phases */
    uint32_t cl_arrived;    /* threads arrived in the current phase */
    /* grid (issue 25): a cooperative launch's block is a resumable context (exec.c) */
    void *scratch;          /* the memory the block lives in */
    uint32_t slice;         /* backward branches taken in this turn */
    bool yield;             /* the turn is over: the block goes back to the launch's queue */
    /* clusters (exec.c, "Clusters"): the block's cluster when it has more than one block */
    struct kcluster *cluster;
    uint32_t rank;          /* %cluster_ctarank */
    bool idle_yield;        /* in a cluster: the turn ended because every warp only failed waits */
    bool finished;          /* in a cluster: the block has ended (its memory stays until the cluster's end) */
};

/* clusters: the blocks of one cluster, run together by one thread at a time (exec.c), so its
 * state needs no lock. A block's shared memory is reachable from every block of the cluster
 * (distributed shared memory) through .shared::cluster addresses (below) and generic ones. */
#define KMAX_CLUSTER 16
struct kcluster {
    uint32_t n;                          /* blocks, by rank */
    struct kblock *blocks[KMAX_CLUSTER];
    uint32_t left;                       /* blocks not yet ended */
    uint32_t arrived;                    /* barrier.cluster: threads arrived in the current phase */
    uint32_t phase;                      /* barrier.cluster: completed phases */
    uint64_t epoch;                      /* counts what a waiting block may wait for */
    uint32_t idle_passes;                /* passes over the blocks in which all only failed waits */
};
/* A .shared::cluster address names a block of the cluster by its top 8 bits, counted from the
 * block that uses it (0: the block itself, so every .shared::cta address is a .shared::cluster
 * address of its own block, as the ISA requires), and an offset in that block's window below. */
#define KCLUSTER_SHIFT 24
/* The block's host memory for a shared address that names another block of its cluster, or NULL
 * (not such an address, or outside that block's window). */
unsigned char *kcluster_shared(const struct kblock *b, uint64_t addr, uint64_t size);
/* The cluster block whose shared window holds generic address g (NULL: none); *off its offset. */
struct kblock *kcluster_window(const struct kblock *b, uint64_t g, uint64_t *off);

/* A launch of an entry: set up by the API layer, run block by block on the pool. */
struct klaunch {
    const struct kfunc *fn;
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;
    unsigned char *params;      /* fn->param_bytes */
    uint32_t stack_bytes;       /* per-thread local window (cuCtxSetLimit STACK_SIZE, at least the depot) */
    /* The first fault ends the launch; later blocks are not run. */
    atomic_int faulted;
    CUresult fault_code;
    char fault_reason[512];
    /* Device printf (printf.c): the FIFO of the launch's records, written to stdout when the
     * launch ends. It keeps the last records whose costs (each its length, at least
     * KPRINT_RECORD_COST bytes) add up to printf_limit; older ones are dropped, as on the GPU. */
    size_t printf_limit;        /* cuCtxSetLimit PRINTF_FIFO_SIZE bytes (0: the driver's default) */
    os_mutex print_lock;        /* also orders the first fault's record */
    struct kprint_fifo {
        char *text;             /* a ring of `cap` bytes: the records' text, the oldest at `head` */
        size_t cap, head, used;
        size_t *len;            /* a ring of `lcap` record lengths, the oldest at `lhead` */
        size_t lcap, lhead, count;
        size_t cost;            /* of the records kept, at most printf_limit */
    } print;
    const struct knative *native; /* the module's native code, or NULL (knative_prepare) */
    uint64_t serial;              /* this launch among the process's (klaunch_init) */
    const struct kaddr_space *space;
    const struct kworkers *workers;
    const struct khost *host;
    /* grid (issue 25): cooperative launches and dynamic parallelism. */
    bool cooperative;             /* set by the caller: every block is resident at once (exec.c) */
    uint32_t pending_limit;       /* set by the caller: CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT */
    /* The grid workspace cooperative_groups meets on (grid.sync()), %envreg1:%envreg2: its size
     * (16) and the barrier word, as the driver lays it out; kernels may read and write it. */
    _Alignas(16) uint32_t workspace[4];
    struct kcdp *_Atomic cdp;     /* the launch tree's device runtime (cdp.c): the root's, shared */
    struct klaunch *parent;       /* the launch whose kernel launched this one (NULL: the host) */
    uint32_t depth;               /* nesting: 0 for the host's launches */
    void *heap;  /* link part: the context's device heap, for host->heap_alloc/heap_free (NULL: none) */
    uint32_t explicit_cluster; /* isa (issue 25): the launch named a cluster dimension (%is_explicit_cluster) */
    uint32_t cluster[3];       /* clusters: set by the caller, the cluster's blocks per dimension (0: 1) */
    bool resumable;            /* klaunch_init: blocks are resumable contexts (cooperative, or clusters) */
    void *api_ctx; /* devrt (issue 25): the API layer's context of the launch, for khost's device_limit/config */
};
/* Prepares l (fn, grid, block, dyn_shared, params, stack_bytes, printf_limit, space, workers
 * and host set by the caller). */
void klaunch_init(struct klaunch *l);
/* Runs every block of l on its workers: after a fault or a cancel, the blocks not yet started
 * are skipped. */
void klaunch_run(struct klaunch *l);
/* Ends a running launch from outside its blocks (the watchdog, a teardown that stopped waiting,
 * the library's unload), as a fault ends it: code and reason are recorded unless the launch has
 * faulted already (false then). Its warps stop at their next cancellation point (a backward
 * branch, brx.idx, a call, a barrier: every endless loop passes one, in both tiers) and its
 * blocks not yet started do not run. The caller orders its writes before the launch's end is
 * read (klaunch_finish), as the faults of its blocks are ordered by the pool. */
bool klaunch_cancel(struct klaunch *l, CUresult code, const char *reason);
/* Scheduling rounds in a row in which every running warp of a block only fails waits before the
 * block is a deadlock (async copies and barriers, exec.c). */
#define KWAIT_IDLE_ROUNDS 65536u
/* Runs block `index` (x fastest) of the launch; a fault is recorded in l. */
void klaunch_run_block(struct klaunch *l, uint64_t index);
/* Flushes printf output and frees what klaunch_init took. Returns the fault, if any. */
CUresult klaunch_finish(struct klaunch *l);

/* ---- grid (issue 25): dynamic parallelism (cdp.c) ---- */
/* A device runtime call (c->builtin >= KB_CDP_FIRST) by the lanes `exec` of the warp. */
void kcdp_call(struct kwarp *w, struct kframe *f, const struct kinsn *in, const struct kcall *c, uint32_t exec);
/* True when [addr, addr + size) lies in the launch tree's parameter buffers, with their extent. */
bool kcdp_extent(const struct kcdp *cdp, uintptr_t addr, size_t size, uintptr_t *lo, uintptr_t *hi);
/* Runs the tail launches of l (after its blocks), in order. */
void kcdp_run_tails(struct klaunch *l);
/* Ends the launches the tree of l runs now (klaunch_cancel of its root). */
void kcdp_cancel(struct klaunch *l, CUresult code, const char *reason);
/* Frees the tree's state (the root's klaunch_finish). */
void kcdp_free(struct kcdp *cdp);

/* ---- devrt (issue 25): the rest of the device runtime (devrt.c) ---- */
/* One lane's call of a KB_DEVRT_* function (a[] its arguments as 8-byte words, pa the lane's
 * parameter area): false when it faulted the launch. *ret and *ret_size the value it returns,
 * *err the cudaError_t it leaves for cudaGetLastError (0: none), *sets_error whether it does. */
bool kdevrt_call(struct kwarp *w, const struct kinsn *in, const struct kcall *c, uint32_t lane, unsigned char *pa,
                 const uint64_t *a, uint64_t *ret, unsigned *ret_size, uint32_t *err, bool *sets_error);
/* free(addr) or cudaFree(addr) by a lane, as the GPU's allocator answers it: false when it faulted. */
bool kdevrt_free(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t addr);
/* True when [addr, addr + size) lies in the device runtime's error strings (read-only). */
bool kdevrt_text_extent(uintptr_t addr, size_t size, uintptr_t *lo, uintptr_t *hi);
/* A copy or fill of the device runtime queued to run after its grid (cudaStreamTailLaunch). */
struct kdevrt_op {
    int kind; /* 1 copy, 2 fill */
    uint64_t dst, src, dpitch, spitch, width, height, depth, dslice, sslice;
    uint32_t value;
};
/* Runs op for launch l: false (and the tree faulted) when its memory is not device memory. */
bool kdevrt_op_run(struct klaunch *l, const struct kdevrt_op *op);
/* cdp.c: queues op after the calling grid when it goes there (the tail stream; another stream
 * past the depth where launches run at once), holding a pending launch: *queued says whether it
 * did (else the caller runs op now). A cudaError_t: 999 when the pending launches are all taken,
 * as the H100 answers. */
uint32_t kcdp_queue_op(struct kwarp *w, const struct kdevrt_op *op, bool tail, bool *queued);
/* cdp.c: true when `stream` is a stream of the device runtime the launch tree knows. */
bool kcdp_stream_ok(struct kwarp *w, uint64_t stream);

/* Operand access for handlers. */
static inline uint64_t *kw_slot(struct kwarp *w, kopnd o)
{
    struct kframe *f = w->top;
    switch (KOPND_SPACE(o)) {
    case 0:
        return f->regs + (size_t)KOPND_INDEX(o) * KLANES;
    case 1:
        return f->fn->consts + (size_t)KOPND_INDEX(o) * KLANES;
    default:
        return (uint64_t *)(uintptr_t)w->special[KOPND_INDEX(o)]; /* a source: never written */
    }
}
#define KSRC(w, in, i) ((const uint64_t *)kw_slot((w), (in)->src[i]))
#define KDST(w, in, i) (kw_slot((w), (in)->dst[i]))
#define KFOR_LANES(mask, l) for (uint32_t m_##l = (mask), l; m_##l && ((l = (uint32_t)kctz(m_##l)), 1); m_##l &= m_##l - 1)

static inline int kctz(uint32_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(v);
#else
    int n = 0;
    while (!(v & 1)) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}
static inline int kpopc(uint32_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcount(v);
#else
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
#endif
}

/* Handler bodies: `KOP1(name, expr)` defines a handler computing d = expr from a (the first
 * source's 64-bit lane value); KOP2 from a and b; KOP3 from a, b and c. The expression's
 * value is stored as it is: narrow results must be cast to their unsigned width by the
 * expression (results sit zero-extended in their slots). */
#define KOP1(name, expr)                                                                                               \
    static void name(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                          \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0);                                                                           \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            uint64_t a = a_[l];                                                                                        \
            d_[l] = (uint64_t)(expr);                                                                                  \
        }                                                                                                              \
    }
#define KOP2(name, expr)                                                                                               \
    static void name(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                          \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1);                                                     \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            uint64_t a = a_[l], b = b_[l];                                                                             \
            d_[l] = (uint64_t)(expr);                                                                                  \
        }                                                                                                              \
    }
#define KOP3(name, expr)                                                                                               \
    static void name(struct kwarp *w, const struct kinsn *in, uint32_t mask)                                          \
    {                                                                                                                  \
        uint64_t *d_ = KDST(w, in, 0);                                                                                 \
        const uint64_t *a_ = KSRC(w, in, 0), *b_ = KSRC(w, in, 1), *c_ = KSRC(w, in, 2);                               \
        KFOR_LANES(mask, l)                                                                                            \
        {                                                                                                              \
            uint64_t a = a_[l], b = b_[l], c = c_[l];                                                                  \
            d_[l] = (uint64_t)(expr);                                                                                  \
        }                                                                                                              \
    }

/* Memory for lane `lane`'s access of `size` bytes at `addr` in `space` (the address already
 * has in->imm added): a host pointer, or NULL after recording the fault (ILLEGAL_ADDRESS,
 * misaligned: MISALIGNED_ADDRESS) in the launch. */
void *kmem(struct kwarp *w, const struct kinsn *in, uint32_t lane, kspace space, uint64_t addr, unsigned size,
           bool write);
/* kmem's common case inline: an aligned global or generic access inside the allocation the
 * warp touched last (the cache only ever holds device memory, never a shared or local window). */
static inline void *kmem_fast(struct kwarp *w, const struct kinsn *in, uint32_t lane, kspace space, uint64_t addr,
                              unsigned size, bool write)
{
    if (!(addr & (size - 1))) {
        if (space <= KS_GLOBAL) {
            uintptr_t lo = write ? w->okw_lo : w->ok_lo, hi = write ? w->okw_hi : w->ok_hi;
            if (addr >= lo && addr < hi && addr + size <= hi)
                return (void *)(uintptr_t)addr;
            if (!write && addr >= w->ok2_lo && addr < w->ok2_hi && addr + size <= w->ok2_hi)
                return (void *)(uintptr_t)addr;
        } else if (space == KS_SHARED) {
            if (addr < w->b->shared_size && size <= w->b->shared_size - addr)
                return w->b->shared + addr;
        } else if (space == KS_PARAM_KERNEL && !write) {
            if (addr < w->b->l->fn->param_bytes && size <= w->b->l->fn->param_bytes - addr)
                return w->b->l->params + addr;
        }
    }
    return kmem(w, in, lane, space, addr, size, write);
}
/* async copies and barriers: kmem for a range of `size` bytes that need no alignment of their own
 * (.global and .shared; the caller has checked the instruction's alignment). */
void *kmem_span(struct kwarp *w, const struct kinsn *in, uint32_t lane, kspace space, uint64_t addr, uint32_t size,
                bool write);
/* Records a fault for the launch (the first one wins) with the reason's prefix "kernel name,
 * block (x,y,z), thread (x,y,z), PTX line N (instruction):". */
void kfault(struct kwarp *w, const struct kinsn *in, uint32_t lane, CUresult code, const char *fmt, ...)
    EXTMEM_PRINTF_FORMAT(5, 6);
/* True once the launch has faulted: handlers may stop early. */
static inline bool kfaulted(const struct kwarp *w);

/* Device printf (printf.c): formats CUDA's vprintf argument buffer into a record of the
 * launch's FIFO. */
void kprintf(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t fmt, uint64_t args);
/* What a record costs in the FIFO at least: the H100 keeps about 2048 records of a 512 KiB
 * FIFO whatever their text (docs/kernels.md, "printf and assert"). */
#define KPRINT_RECORD_COST 256
/* The launch's FIFO: emptied at klaunch_init; written to stdout and freed at klaunch_finish. */
void kprint_init(struct klaunch *l);
void kprint_flush(struct klaunch *l);
/* __assertfail: prints the GPU's message and faults with CUDA_ERROR_ASSERT. */
void kassertfail(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t msg, uint64_t file, uint32_t line,
                 uint64_t func);

static inline bool kfaulted(const struct kwarp *w) { return atomic_load_explicit(&w->b->l->faulted, memory_order_relaxed) != 0; }

/* Encodings of in->mods that the native tier reads too. ld/st (ops_mem.c): the low 8 bits of a
 * load are the destination register's width in bits, and */
#define KLD_SIGNED 0x100u  /* sign-extend a narrow load into the register */
#define KLD_ACQUIRE 0x200u /* ld.acquire: later accesses stay after it */
#define KST_RELEASE 0x400u /* st.release: earlier accesses stay before it */
#define KMEM_ATOMIC 0x800u /* .volatile, .relaxed, .acquire, .release: one host atomic access */
/* setp/set (ops_misc.c): cmp | boolop << 4 | ftz << 6 */
enum kcmp { KC_EQ, KC_NE, KC_LT, KC_LE, KC_GT, KC_GE, KC_EQU, KC_NEU, KC_LTU, KC_LEU, KC_GTU, KC_GEU, KC_NUM, KC_NAN };
enum kboolop { KBOP_NONE, KBOP_AND, KBOP_OR, KBOP_XOR };

/* ---- The native tier (native.c, native_emit.c, native_cache.c; docs/kernels.md) ----
 * A module's functions become C (one function per kfunc that runs a warp's group from a pc
 * until the scheduler must act), compiled by the system C compiler into a cached shared
 * library. What the generated code reads of a warp, filled by the executor before each call
 * (plain types only: the generated source declares the same struct and checks its layout). */
struct knat_ctx {
    struct kwarp *w;
    uint64_t *regs;                     /* the frame's registers */
    const uint64_t *consts;             /* its function's constant pool */
    const uint64_t *const *special;     /* w->special */
    const struct kinsn *code;           /* its function's instructions */
    unsigned char *shared;              /* the block's shared window */
    uint64_t shared_size;
    const unsigned char *params;        /* the launch's parameter buffer */
    uint64_t param_bytes;
    uintptr_t *ok;                      /* &w->ok_lo: ok_lo, ok_hi, okw_lo, okw_hi, ok2_lo, ok2_hi */
    atomic_int *faulted;                /* &launch->faulted */
    void *(*kmem)(struct kwarp *, const struct kinsn *, uint32_t, kspace, uint64_t, unsigned, bool);
    /* speed (issue 27): a cooperative launch's turns (exec.c): the backward branches the block
     * may take before it yields (0: not cooperative), its count of them, and its yield flag */
    uint32_t coop_slice;
    uint32_t *slice;
    bool *yield;
};
struct knative;
/* Sets l->native at a launch's start: the module's native code, made (or loaded from the
 * cache) at its first launch, or NULL for the portable tier (EXTMEM_JIT). Under
 * EXTMEM_JIT=native a module that cannot be compiled faults the launch. */
void knative_prepare(struct klaunch *l);
/* The native code of fn in n, or NULL. */
knat_fn knative_lookup(const struct knative *n, const struct kfunc *fn);
/* Releases what knative_prepare made for m (kmod_free). */
void knative_release(struct kmodule *m);

/* What the native tier may write as C in place of a handler (each family's knat_* table, ended
 * by {NULL}): KN_EXPR handlers compute the lane's result from a, b, c (uint64_t, the sources'
 * lane values; `in_mods` is in->mods) with the C text `expr`, which calls only the family's
 * helpers (knat_*_helpers, the same text the family compiles) and the generated prelude's. */
enum knat_kind { KN_EXPR = 1, KN_LD, KN_ST, KN_SETP, KN_SELP, KN_MOV, KN_CVTA };
struct knat_desc {
    kexec_fn fn;
    uint8_t kind;  /* knat_kind */
    uint8_t arity; /* KN_EXPR: sources read (1 to 3) */
    const char *expr;
};
extern const struct knat_desc knat_int[], knat_float[], knat_misc[], knat_mem[], knat_cvt[];
extern const char knat_int_helpers[], knat_float_helpers[];
#define KSTR_(...) #__VA_ARGS__
#define KSTR(...) KSTR_(__VA_ARGS__) /* the text after macro expansion */

/* ---- Float helpers shared by the families (ops_float.c) ---- */
static inline float kf32(uint64_t v)
{
    float f;
    uint32_t u = (uint32_t)v;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t kbits32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double kf64(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t kbits64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

#endif /* EXTMEM_KERNEL_H */
