/*
 * The portable executor: runs a block's warps on one CPU thread.
 *
 * Divergence and reconvergence: every lane of a frame has its own pc; the warp runs the group
 * of lanes that sit at the lowest pc, all together, one instruction at a time (the "min-pc"
 * policy: lanes that branched ahead wait until the others catch up, so a warp reconverges at
 * the first instruction both paths reach, as compilers lay code out in order; a loop's lanes
 * run again before the ones that left it). Instructions that need the warp whole (shfl,
 * vote) therefore see every lane that reaches them together.
 *
 * Barriers (bar.sync, POCL and CuPBoP chose loops over the block's threads; GPU Ocelot and this
 * executor keep each warp's state in data instead): a warp runs until all its runnable lanes
 * wait at a barrier (or exit), then the next warp runs; when every live thread of the block
 * has arrived, the barrier releases them. No thread is blocked and no stack is switched, so a
 * barrier inside any loop or branch keeps its meaning, and one OS thread runs a whole block.
 * A barrier that can never complete (threads that exited or wait elsewhere) ends the launch
 * with CUDA_ERROR_LAUNCH_FAILED instead of hanging as a GPU would.
 *
 * Calls push a frame for the calling lanes; the frame pops when all of them have returned.
 *
 * Cancellation (docs/kernels.md, "Cancellation and the watchdog"): a launch ends early when its
 * `faulted` flag is set, by a fault of its own or from outside (klaunch_cancel: the watchdog, a
 * teardown that stopped waiting, the library's unload). Warps look at the flag after every
 * handler that may fault and at the cancellation points: backward branches, brx.idx, calls and
 * barriers. Every loop passes a backward branch (a loop of calls too, and a recursion is bounded
 * by KMAX_FRAMES), and no warp ever blocks a thread (barriers are data, above), so a cancelled
 * launch's blocks end within one loop iteration; the native code checks its own loops (a
 * relaxed load at each backward branch), native_emit.c.
 */
#include "kernel.h"

#include <stdarg.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>

/* grid (issue 25): backward branches a cooperative launch's block takes per turn. */
#define KCOOP_SLICE 256

/* ---- Scratch memory for blocks, reused across blocks and launches ----
 * Kept in shards, each thread using one of its own (assigned round robin at its first block),
 * so that the threads running a launch's blocks do not all take one lock twice per block. */
struct scratch {
    struct scratch *next;
    size_t size;
    uint64_t setup_serial; /* speed (issue 27): the launch whose block set this memory up last, or 0 */
};
#define SCRATCH_SHARDS 16
static struct {
    os_mutex lock;
    struct scratch *free;
    unsigned count;
    char pad[64];
} scratch_shards[SCRATCH_SHARDS];
static os_mutex scratch_init_lock = OS_MUTEX_INITIALIZER;
static atomic_bool scratch_ready;
static atomic_uint scratch_next_shard;
static OS_THREAD_LOCAL int scratch_shard_plus_one;

static unsigned scratch_shard(void)
{
    if (!atomic_load(&scratch_ready)) {
        os_mutex_lock(&scratch_init_lock);
        if (!atomic_load(&scratch_ready)) {
            for (int i = 0; i < SCRATCH_SHARDS; ++i)
                os_mutex_init(&scratch_shards[i].lock);
            atomic_store(&scratch_ready, true);
        }
        os_mutex_unlock(&scratch_init_lock);
    }
    if (!scratch_shard_plus_one)
        scratch_shard_plus_one = (int)(atomic_fetch_add(&scratch_next_shard, 1) % SCRATCH_SHARDS) + 1;
    return (unsigned)scratch_shard_plus_one - 1;
}

static struct scratch *scratch_get(size_t size)
{
    unsigned i = scratch_shard();
    os_mutex_lock(&scratch_shards[i].lock);
    struct scratch **pp = &scratch_shards[i].free, *s = NULL;
    for (; *pp; pp = &(*pp)->next) {
        if ((*pp)->size >= size) {
            s = *pp;
            *pp = s->next;
            scratch_shards[i].count--;
            break;
        }
    }
    os_mutex_unlock(&scratch_shards[i].lock);
    if (s)
        return s;
    size = (size + 4095) & ~(size_t)4095;
    s = malloc(sizeof(struct scratch) + 64 + size);
    if (s) {
        s->size = size;
        s->setup_serial = 0;
    }
    return s;
}

static void scratch_put(struct scratch *s)
{
    unsigned i = scratch_shard();
    os_mutex_lock(&scratch_shards[i].lock);
    /* Keep a few per shard: the blocks its threads run at once, and a little more. */
    if (scratch_shards[i].count >= 4) {
        os_mutex_unlock(&scratch_shards[i].lock);
        free(s);
        return;
    }
    s->next = scratch_shards[i].free;
    scratch_shards[i].free = s;
    scratch_shards[i].count++;
    os_mutex_unlock(&scratch_shards[i].lock);
}

static unsigned char *scratch_mem(struct scratch *s) { return (unsigned char *)(((uintptr_t)(s + 1) + 63) & ~(uintptr_t)63); }

/* ---- Faults ---- */
void kfault(struct kwarp *w, const struct kinsn *in, uint32_t lane, CUresult code, const char *fmt, ...)
{
    struct klaunch *l = w->b->l;
    int expected = 0;
    if (!atomic_compare_exchange_strong(&l->faulted, &expected, 1))
        return; /* the first fault is the launch's */
    uint32_t t = w->index * KLANES + lane;
    uint32_t bx = l->block[0], by = l->block[1];
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    l->fault_code = code;
    snprintf(l->fault_reason, sizeof(l->fault_reason),
             "kernel %s, block (%u,%u,%u), thread (%u,%u,%u), %s line %u (%s): %s", l->fn->name, w->b->ctaid[0],
             w->b->ctaid[1], w->b->ctaid[2], t % bx, t / bx % by, t / (bx * by), l->fn->module->source_name,
             in ? in->line : 0, in && in->name ? in->name : "?", what);
}

bool klaunch_cancel(struct klaunch *l, CUresult code, const char *reason)
{
    int expected = 0;
    bool first = atomic_compare_exchange_strong(&l->faulted, &expected, 1);
    if (first) {
        l->fault_code = code;
        snprintf(l->fault_reason, sizeof(l->fault_reason), "%s", reason);
    }
    /* The grids its kernels launched end with it (grid, issue 25). */
    if (atomic_load(&l->cdp))
        kcdp_cancel(l, code, reason);
    return first; /* else it faulted (or was cancelled) already: the first end is the launch's */
}

/* ---- Memory ---- */
static void *global_access(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t addr, unsigned size,
                           bool write)
{
    if (write) {
        if (addr >= w->okw_lo && addr + size <= w->okw_hi && addr + size > addr)
            return (void *)(uintptr_t)addr;
    } else if ((addr >= w->ok_lo && addr + size <= w->ok_hi && addr + size > addr) ||
               (addr >= w->ok2_lo && addr + size <= w->ok2_hi && addr + size > addr)) {
        return (void *)(uintptr_t)addr;
    }
    uintptr_t lo, hi;
    const struct klaunch *l = w->b->l;
    const struct kaddr_space *as = l->space;
    uintptr_t ws = (uintptr_t)l->workspace;
    if (addr >= ws && addr + size <= ws + sizeof(l->workspace) && addr + size > addr) {
        lo = ws, hi = ws + sizeof(l->workspace); /* the grid workspace (grid, issue 25) */
    } else if (l->cdp && kcdp_extent(l->cdp, (uintptr_t)addr, size, &lo, &hi)) {
        /* a device launch's parameter buffer (cdp.c) */
    } else if (!write && kdevrt_text_extent((uintptr_t)addr, size, &lo, &hi)) {
        /* devrt: the device runtime's error strings (cudaGetErrorName/String), read-only */
    } else if (addr + size < addr || !as->extent(as, (uintptr_t)addr, size, write, &lo, &hi)) {
        kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS, "%s of %u bytes at 0x%llx: %s", write ? "store" : "load", size,
               (unsigned long long)addr,
               write ? "no device memory the kernel may write is there" : "no device memory is there");
        return NULL;
    }
    if (write) {
        w->okw_lo = lo;
        w->okw_hi = hi;
    } else {
        /* Two entries for loads: kernels read from two arrays (x and y) as often as from one. */
        w->ok2_lo = w->ok_lo;
        w->ok2_hi = w->ok_hi;
        w->ok_lo = lo;
        w->ok_hi = hi;
    }
    return (void *)(uintptr_t)addr;
}

void *kmem(struct kwarp *w, const struct kinsn *in, uint32_t lane, kspace space, uint64_t addr, unsigned size,
           bool write)
{
    struct kblock *b = w->b;
    if (size > 1 && (addr & (size - 1)) && (size & (size - 1)) == 0) {
        kfault(w, in, lane, CUDA_ERROR_MISALIGNED_ADDRESS, "%u-byte access at 0x%llx is not aligned to %u bytes", size,
               (unsigned long long)addr, size);
        return NULL;
    }
    switch (space) {
    case KS_GENERIC: {
        uintptr_t sh = (uintptr_t)b->shared;
        if (addr >= sh && addr - sh < b->shared_size) {
            if (addr - sh + size > b->shared_size)
                break;
            return (void *)(uintptr_t)addr;
        }
        if (b->cluster) { /* clusters: another block's shared memory (cluster.map_shared_rank) */
            uint64_t off;
            const struct kblock *o = kcluster_window(b, addr, &off);
            if (o) {
                if (off + size > o->shared_size)
                    break;
                return (void *)(uintptr_t)addr;
            }
        }
        uintptr_t lb = (uintptr_t)w->local + (uintptr_t)lane * w->local_stride;
        if (w->local && addr >= lb && addr - lb < w->local_stride) {
            if (addr - lb + size > w->local_stride)
                break;
            return (void *)(uintptr_t)addr;
        }
        /* isa (issue 25): the kernel's parameters through a generic address (cvta.param, sm_70
         * and later), read-only */
        uintptr_t pb = (uintptr_t)b->l->params;
        uint32_t pn = b->l->fn->param_bytes;
        if (!write && pb && addr >= pb && addr - pb < pn) {
            if (addr - pb + size > pn)
                break;
            return (void *)(uintptr_t)addr;
        }
        return global_access(w, in, lane, addr, size, write);
    }
    case KS_GLOBAL:
    case KS_CONST:
        if (space == KS_CONST && write)
            break;
        return global_access(w, in, lane, addr, size, write);
    case KS_SHARED:
        if (addr >= b->shared_size || size > b->shared_size - addr) {
            unsigned char *o = b->cluster ? kcluster_shared(b, addr, size) : NULL;
            if (o)
                return o;
            uint32_t rank = (uint32_t)((b->rank + (addr >> KCLUSTER_SHIFT)) & 0xff);
            if (b->cluster && addr >> KCLUSTER_SHIFT && addr >> KCLUSTER_SHIFT <= 0xff && rank >= b->cluster->n) {
                /* the H100 ends such a launch with LAUNCH_FAILED (docs/probes/kernels/cluster) */
                kfault(w, in, lane, CUDA_ERROR_LAUNCH_FAILED,
                       "%s of %u bytes at shared::cluster address 0x%llx: it names the block of rank %u of a cluster "
                       "of %u", write ? "store" : "load", size, (unsigned long long)addr, rank, b->cluster->n);
                return NULL;
            }
            break;
        }
        return b->shared + addr;
    case KS_LOCAL:
        if (!w->local || addr >= w->local_stride || size > w->local_stride - addr)
            break;
        return w->local + (size_t)lane * w->local_stride + addr;
    case KS_PARAM_KERNEL:
        if (write || addr >= b->l->fn->param_bytes || size > b->l->fn->param_bytes - addr)
            break;
        return b->l->params + addr;
    case KS_PARAM_FRAME: {
        uint32_t fb = w->top->fn->frame_param_bytes;
        if (addr >= fb || size > fb - addr)
            break;
        return w->top->params + (size_t)lane * fb + addr;
    }
    }
    static const char *const names[] = {"generic", "global", "shared", "local", "const", "kernel parameter",
                                        "parameter"};
    kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS, "%s of %u bytes at %s address 0x%llx is outside the %s window",
           write ? "store" : "load", size, names[space], (unsigned long long)addr, names[space]);
    return NULL;
}

/* async copies and barriers (ops_async.c): a bulk copy's range, whose alignment (16 bytes) its
 * instruction checks, so that a 64-byte range at a 16-byte boundary is not misaligned here. */
void *kmem_span(struct kwarp *w, const struct kinsn *in, uint32_t lane, kspace space, uint64_t addr, uint32_t size,
                bool write)
{
    struct kblock *b = w->b;
    if (space == KS_GLOBAL)
        return global_access(w, in, lane, addr, size, write);
    if (space == KS_SHARED && addr < b->shared_size && size <= b->shared_size - addr)
        return b->shared + addr;
    unsigned char *o = space == KS_SHARED && b->cluster ? kcluster_shared(b, addr, size) : NULL;
    if (o)
        return o;
    if (space == KS_SHARED) {
        kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS,
               "%s of %u bytes at shared address 0x%llx is outside the shared window", write ? "store" : "load", size,
               (unsigned long long)addr);
        return NULL;
    }
    return kmem(w, in, lane, space, addr, size, write);
}

/* ---- Scheduling ---- */
/* speed (issue 27): the scheduler's per-lane tables compared and filled 32 entries at a time:
 * SSE2 (every x86-64) as vector compares and masks, elsewhere a loop. */
#if defined(__SSE2__)
/* The lanes whose entry equals v. */
static inline uint32_t lanes_eq_u32(const uint32_t *p, uint32_t v)
{
    const __m128i x = _mm_set1_epi32((int)v);
    uint32_t m = 0;
    for (int i = 0; i < 8; ++i)
        m |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + 4 * i)), x)))
             << (4 * i);
    return m;
}
static inline uint32_t lanes_eq_u8(const uint8_t *p, uint8_t v)
{
    const __m128i x = _mm_set1_epi8((char)v);
    uint32_t lo = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), x));
    uint32_t hi = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), x));
    return lo | hi << 16;
}
static inline void fill_u32(uint32_t *p, uint32_t v)
{
    const __m128i x = _mm_set1_epi32((int)v);
    for (int i = 0; i < 8; ++i)
        _mm_storeu_si128((__m128i *)(p + 4 * i), x);
}
#else
static inline uint32_t lanes_eq_u32(const uint32_t *p, uint32_t v)
{
    uint32_t m = 0;
    for (uint32_t l = 0; l < KLANES; ++l)
        m |= (uint32_t)(p[l] == v) << l;
    return m;
}
static inline uint32_t lanes_eq_u8(const uint8_t *p, uint8_t v)
{
    uint32_t m = 0;
    for (uint32_t l = 0; l < KLANES; ++l)
        m |= (uint32_t)(p[l] == v) << l;
    return m;
}
static inline void fill_u32(uint32_t *p, uint32_t v)
{
    for (uint32_t l = 0; l < KLANES; ++l)
        p[l] = v;
}
#endif

/* Puts the running group's pc back into its lanes' entries, so the next step regroups. */
static void flush_group(struct kframe *f)
{
    if (f->cur_mask == KFULL)
        fill_u32(f->pc, f->cur_pc);
    else
        for (uint32_t m = f->cur_mask; m; m &= m - 1)
            f->pc[kctz(m)] = f->cur_pc;
    f->cur_mask = 0;
}

/* Picks the group at the lowest pc among the frame's runnable lanes; false when none. */
static bool regroup(struct kwarp *w, struct kframe *f)
{
    uint32_t runnable = f->lanes & ~w->blocked & ~w->parked;
    if (!runnable)
        return false;
    /* speed (issue 27): mostly every runnable lane is at one pc (after a barrier, a uniform
     * wait): one comparison of the 32 entries */
    uint32_t pc0 = f->pc[kctz(runnable)];
    if (!(runnable & ~lanes_eq_u32(f->pc, pc0))) {
        f->cur_pc = pc0;
        f->cur_mask = runnable;
        f->wait_min = UINT32_MAX;
        return true;
    }
    uint32_t min = UINT32_MAX, mask = 0, next = UINT32_MAX;
    for (uint32_t m = runnable; m; m &= m - 1) {
        uint32_t l = (uint32_t)kctz(m), pc = f->pc[l];
        if (pc < min) {
            if (min != UINT32_MAX)
                next = min;
            min = pc;
            mask = 1u << l;
        } else if (pc == min) {
            mask |= 1u << l;
        } else if (pc < next) {
            next = pc;
        }
    }
    f->cur_pc = min;
    f->cur_mask = mask;
    f->wait_min = next;
    return true;
}

/* Lanes waiting at cur_pc join the running group. */
static void merge_waiting(struct kwarp *w, struct kframe *f)
{
    uint32_t runnable = f->lanes & ~w->blocked & ~w->parked & ~f->cur_mask;
    uint32_t next = UINT32_MAX;
    for (uint32_t m = runnable; m; m &= m - 1) {
        uint32_t l = (uint32_t)kctz(m);
        if (f->pc[l] == f->cur_pc)
            f->cur_mask |= 1u << l;
        else if (f->pc[l] < next)
            next = f->pc[l];
    }
    f->wait_min = next;
}

/* After a jump: the group keeps running only while it is still the lowest (lanes waiting at
 * the pc it jumped to join it at the next step). */
static void after_jump(struct kframe *f)
{
    if (f->cur_pc > f->wait_min)
        flush_group(f);
}

static uint32_t guard_mask(struct kwarp *w, const struct kinsn *in, uint32_t mask)
{
    if (in->guard == KOPND_NONE)
        return mask;
    const uint64_t *g = kw_slot(w, in->guard);
    uint32_t exec = 0;
    bool neg = (in->flags & KF_GUARD_NEG) != 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)kctz(m);
        if ((g[l] != 0) != neg)
            exec |= 1u << l;
    }
    return exec;
}

static void release_barrier(struct kblock *b, uint32_t id)
{
    uint32_t result = b->bar[id].red_acc;
    uint32_t op = b->bar[id].red_op;
    if (op == KF_BAR_RED_AND)
        result = b->bar[id].red_acc == b->bar[id].arrived;
    else if (op == KF_BAR_RED_OR)
        result = b->bar[id].red_acc != 0;
    for (uint32_t i = 0; i < b->nwarps; ++i) {
        struct kwarp *w = &b->warps[i];
        if (!w->blocked)
            continue;
        uint32_t lanes = lanes_eq_u8(w->bar_id, (uint8_t)id) & w->blocked;
        if (!lanes)
            continue;
        w->blocked &= ~lanes;
        if (op && b->bar[id].red_in) {
            for (uint32_t m = lanes; m; m &= m - 1) {
                uint32_t l = (uint32_t)kctz(m);
                struct kframe *f = &w->frames[w->bar_depth[l]];
                kopnd d = b->bar[id].red_in->dst[0];
                if (KOPND_SPACE(d) == 0)
                    f->regs[(size_t)KOPND_INDEX(d) * KLANES + l] = result;
            }
        }
        flush_group(w->top);
    }
    b->bar_pending &= (uint16_t)~(1u << id);
    b->bar[id].arrived = 0;
    b->bar[id].expected = 0;
    b->bar[id].red_acc = 0;
    b->bar[id].red_op = 0;
    b->bar[id].red_in = NULL;
}

/* Releases every barrier whose threads have all arrived; true when one was released. */
static bool check_barriers(struct kblock *b)
{
    bool any = false;
    for (uint32_t m = b->bar_pending; m; m &= m - 1) {
        uint32_t id = (uint32_t)kctz(m);
        uint32_t expected = b->bar[id].expected ? b->bar[id].expected : b->threads_live;
        if (b->bar[id].arrived >= expected) {
            release_barrier(b, id);
            any = true;
        }
    }
    return any;
}

static uint64_t uniform_value(struct kwarp *w, kopnd o, uint32_t mask)
{
    return kw_slot(w, o)[mask ? kctz(mask) : 0];
}

static bool do_barrier(struct kwarp *w, struct kframe *f, const struct kinsn *in, uint32_t exec)
{
    struct kblock *b = w->b;
    uint64_t id = uniform_value(w, in->src[0], exec);
    if (id >= 16) {
        kfault(w, in, (uint32_t)kctz(exec), CUDA_ERROR_ILLEGAL_INSTRUCTION, "barrier %llu: there are 16 (0..15)",
               (unsigned long long)id);
        return false;
    }
    uint32_t count = 0;
    if (in->flags & KF_BAR_COUNT) {
        uint64_t c = uniform_value(w, in->src[1], exec);
        if (c == 0 || c % KLANES || c > (uint64_t)b->nwarps * KLANES) {
            kfault(w, in, (uint32_t)kctz(exec), CUDA_ERROR_ILLEGAL_INSTRUCTION,
                   "barrier thread count %llu is not a multiple of 32 up to the block's %u warps' threads",
                   (unsigned long long)c, b->nwarps);
            return false;
        }
        count = (uint32_t)c;
    }
    if (count)
        b->bar[id].expected = count;
    uint32_t red = in->flags & (KF_BAR_RED_POPC | KF_BAR_RED_AND | KF_BAR_RED_OR);
    if (red) {
        const uint64_t *pred = kw_slot(w, in->src[2]);
        bool neg = (in->mods & 1) != 0;
        b->bar[id].red_op = red;
        b->bar[id].red_in = in;
        for (uint32_t m = exec; m; m &= m - 1)
            b->bar[id].red_acc += (pred[kctz(m)] != 0) != neg;
    }
    b->bar[id].arrived += (uint32_t)kpopc(exec);
    b->bar_pending |= (uint16_t)(1u << id);
    if (!(in->flags & KF_BAR_ARRIVE) && exec == KFULL) {
        /* speed (issue 27): a whole warp arrives (most barriers): plain stores to every entry */
        w->blocked = KFULL;
        memset(w->bar_id, (int)id, sizeof(w->bar_id));
        memset(w->bar_depth, (int)(w->depth - 1), sizeof(w->bar_depth));
        fill_u32(f->pc, f->cur_pc + 1);
        f->cur_mask = 0;
    } else if (!(in->flags & KF_BAR_ARRIVE)) {
        w->blocked |= exec;
        for (uint32_t m = exec; m; m &= m - 1) {
            uint32_t l = (uint32_t)kctz(m);
            w->bar_id[l] = (uint8_t)id;
            w->bar_depth[l] = (uint8_t)(w->depth - 1);
            f->pc[l] = f->cur_pc + 1;
        }
        f->cur_mask &= ~exec;
    }
    if (f->cur_mask)
        f->cur_pc++;
    check_barriers(b);
    return true;
}

/* Removes lanes that exited from every frame; pops frames that have no lanes left. */
static void pop_finished(struct kwarp *w)
{
    while (w->depth > 1 && w->top->lanes == 0) {
        struct kframe *f = w->top, *caller = &w->frames[w->depth - 2];
        const struct kcall *c = f->call->aux;
        uint32_t fb = caller->fn->frame_param_bytes, cb = f->fn->frame_param_bytes;
        if (c->has_ret && f->fn->nrets) {
            uint32_t n = f->fn->ret.size;
            for (uint32_t m = f->returned; m; m &= m - 1) {
                uint32_t l = (uint32_t)kctz(m);
                memcpy(caller->params + (size_t)l * fb + c->ret_offset, f->params + (size_t)l * cb + f->fn->ret.offset,
                       n);
            }
        }
        free(f->regs);
        f->regs = NULL;
        w->local_used = f->local_off;
        w->depth--;
        w->top = caller;
        flush_group(caller);
    }
}

static void exit_lanes(struct kwarp *w, uint32_t exec)
{
    w->live &= ~exec;
    w->b->threads_live -= (uint32_t)kpopc(exec);
    for (uint32_t d = 0; d < w->depth; ++d) {
        w->frames[d].lanes &= ~exec;
        w->frames[d].cur_mask &= ~exec;
    }
}

static const struct kfunc *indirect_callee(struct kwarp *w, const struct kinsn *in, uint32_t *exec)
{
    const uint64_t *target = kw_slot(w, in->src[0]);
    uint32_t first = (uint32_t)kctz(*exec);
    uint64_t v = target[first];
    const struct kmodule *m = w->top->fn->module;
    const struct kfunc *callee = NULL;
    for (uint32_t i = 0; i < m->nfuncs; ++i)
        if ((uint64_t)(uintptr_t)m->funcs[i] == v && m->funcs[i]->defined && !m->funcs[i]->entry)
            callee = m->funcs[i];
    if (!callee) {
        kfault(w, in, first, CUDA_ERROR_ILLEGAL_ADDRESS, "indirect call through 0x%llx, which is no function of the module",
               (unsigned long long)v);
        return NULL;
    }
    uint32_t same = 0;
    for (uint32_t m2 = *exec; m2; m2 &= m2 - 1)
        if (target[kctz(m2)] == v)
            same |= 1u << kctz(m2);
    *exec = same;
    return callee;
}

static void run_builtin(struct kwarp *w, struct kframe *f, const struct kinsn *in, const struct kcall *c, uint32_t exec)
{
    uint32_t fb = f->fn->frame_param_bytes;
    for (uint32_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)kctz(m);
        unsigned char *pa = f->params + (size_t)l * fb;
        uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0;
        if (c->nargs > 0)
            memcpy(&a0, pa + c->arg_offset[0], 8);
        if (c->nargs > 1)
            memcpy(&a1, pa + c->arg_offset[1], c->builtin == KB_SET_CONDITIONAL ? 4 : 8);
        if (c->nargs > 2)
            memcpy(&a2, pa + c->arg_offset[2], 4);
        if (c->nargs > 3)
            memcpy(&a3, pa + c->arg_offset[3], 8);
        if (c->nargs > 4)
            memcpy(&a4, pa + c->arg_offset[4], 8);
        uint32_t ret = 0;
        if (c->builtin >= KB_CDP_FIRST) {
            kcdp_call(w, f, in, c, exec); /* the device runtime (grid, issue 25): its own arguments */
            return;
        }
        switch (c->builtin) {
        case KB_VPRINTF:
            kprintf(w, in, l, a0, a1);
            break;
        case KB_ASSERTFAIL:
            kassertfail(w, in, l, a0, a1, (uint32_t)a2, a3);
            return;
        case KB_SET_CONDITIONAL: {
            const struct khost *h = w->b->l->host;
            if (!h || !h->set_conditional || !h->set_conditional(a0, (uint32_t)a1)) {
                kfault(w, in, l, CUDA_ERROR_LAUNCH_FAILED,
                       "cudaGraphSetConditional: 0x%llx is no conditional handle of a graph", (unsigned long long)a0);
                return;
            }
            break;
        }
        case KB_MALLOC: { /* link part: the context's device heap (khost.heap_alloc) */
            const struct klaunch *la = w->b->l;
            uint64_t p = la->heap && la->host && la->host->heap_alloc ? la->host->heap_alloc(la->heap, a0) : 0;
            if (c->has_ret)
                memcpy(pa + c->ret_offset, &p, 8);
            continue;
        }
        case KB_FREE:
            /* devrt (issue 25): as the H100's allocator answers each bad free (devrt.c) */
            if (!kdevrt_free(w, in, l, a0))
                return;
            continue;
        default:
            kfault(w, in, l, CUDA_ERROR_LAUNCH_FAILED, "device-side %s is not supported",
                   c->builtin == KB_MALLOC ? "malloc" : "free");
            return;
        }
        if (kfaulted(w))
            return;
        if (c->has_ret)
            memcpy(pa + c->ret_offset, &ret, 4);
    }
}

static void do_call(struct kwarp *w, struct kframe *f, const struct kinsn *in, uint32_t exec, uint32_t mask)
{
    const struct kcall *c = in->aux;
    if (c->builtin) {
        run_builtin(w, f, in, c, exec);
        f->cur_pc++;
        return;
    }
    uint32_t calling = exec;
    const struct kfunc *callee = c->callee ? c->callee : indirect_callee(w, in, &calling);
    if (!callee)
        return;
    if (w->depth >= KMAX_FRAMES) {
        kfault(w, in, (uint32_t)kctz(calling), CUDA_ERROR_LAUNCH_FAILED,
               "call to %s: more than %d nested calls (stack overflow)", callee->name, KMAX_FRAMES);
        return;
    }
    uint32_t local_off = (w->top->local_off + f->fn->local_bytes + 15) & ~15u;
    if (callee->local_bytes && (!w->local || local_off + callee->local_bytes > w->local_stride)) {
        kfault(w, in, (uint32_t)kctz(calling), CUDA_ERROR_LAUNCH_FAILED,
               "call to %s: the thread's %u-byte stack is full (cuCtxSetLimit(CU_LIMIT_STACK_SIZE) raises it)",
               callee->name, w->local_stride);
        return;
    }
    size_t regs_bytes = (size_t)callee->nregs * KLANES * sizeof(uint64_t);
    size_t param_bytes = (size_t)callee->frame_param_bytes * KLANES;
    uint64_t *regs = malloc(regs_bytes + param_bytes + 16);
    if (!regs) {
        kfault(w, in, (uint32_t)kctz(calling), CUDA_ERROR_OUT_OF_MEMORY, "call to %s: out of host memory", callee->name);
        return;
    }
    struct kframe *nf = &w->frames[w->depth];
    nf->fn = callee;
    nf->regs = regs;
    nf->params = (unsigned char *)regs + regs_bytes;
    uint32_t fb = f->fn->frame_param_bytes, cb = callee->frame_param_bytes;
    for (uint32_t m = calling; m; m &= m - 1) {
        uint32_t l = (uint32_t)kctz(m);
        for (uint32_t i = 0; i < c->nargs && i < callee->nparams; ++i)
            memcpy(nf->params + (size_t)l * cb + callee->params[i].offset, f->params + (size_t)l * fb + c->arg_offset[i],
                   callee->params[i].size);
    }
    nf->local_off = local_off;
    nf->lanes = calling;
    nf->returned = 0;
    nf->ret_pc = f->cur_pc + 1;
    nf->call = in;
    nf->cur_pc = 0;
    nf->cur_mask = calling;
    nf->wait_min = UINT32_MAX;
    nf->nat = knative_lookup(w->b->l->native, callee);
    /* The caller's lanes: the callers resume after the call, the lanes whose guard was false
     * go on now, an indirect call's lanes with another target call it again. */
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)kctz(m);
        f->pc[l] = (exec >> l & 1) && !(calling >> l & 1) ? f->cur_pc : f->cur_pc + 1;
    }
    f->cur_mask = 0;
    w->depth++;
    w->top = nf;
}

/* Runs the warp until it finishes, waits at a barrier with every runnable lane, or faults. */
static void run_warp(struct kwarp *w)
{
    struct klaunch *l = w->b->l;
    /* Field by field (speed, issue 27): an initializer zeroes the whole struct first, which gcc
     * does with `rep stos`, a fifth of block_step's samples in saxpy. regs, consts and code are
     * set before each call below. */
    struct knat_ctx nc;
    nc.w = w;
    nc.regs = NULL;
    nc.consts = NULL;
    nc.special = w->special;
    nc.code = NULL;
    nc.shared = w->b->shared;
    nc.shared_size = w->b->shared_size;
    nc.params = l->params;
    nc.param_bytes = l->fn->param_bytes;
    nc.ok = &w->ok_lo;
    nc.faulted = &l->faulted;
    nc.kmem = kmem;
    /* speed (issue 27): a cooperative block's turns, which the native code's backward branches
     * count as the executor's do */
    nc.coop_slice = l->resumable ? KCOOP_SLICE : 0;
    nc.slice = &w->b->slice;
    nc.yield = &w->b->yield;
    w->parked = 0;
    for (;;) {
        struct kframe *f = w->top;
        if (!f->cur_mask) {
            if (!regroup(w, f)) {
                if (w->parked)
                    w->yield_pending = true; /* every runnable lane failed a wait */
                return;
            }
        } else if (f->cur_pc == f->wait_min) {
            merge_waiting(w, f);
        }
        if (f->nat) {
            /* The native tier runs the group as far as it can; what it leaves (a divergent
             * branch, a call, a barrier ...) is the next step here. */
            nc.regs = f->regs;
            nc.consts = f->fn->consts;
            nc.code = f->fn->code;
            uint32_t pc = f->nat(&nc, f->cur_pc, f->cur_mask, f->wait_min);
            if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
                return;
            if (w->b->yield) { /* speed (issue 27): a cooperative block's turn ended at a backward branch */
                if (pc != f->cur_pc) {
                    f->cur_pc = pc;
                    after_jump(f);
                }
                return;
            }
            if (pc != f->cur_pc) {
                f->cur_pc = pc;
                after_jump(f);
                continue;
            }
        }
        const struct kinsn *in = &f->fn->code[f->cur_pc];
        uint32_t mask = f->cur_mask;
        uint32_t exec = guard_mask(w, in, mask);
        switch ((kkind)in->kind) {
        case KK_OP:
            if (exec) {
                in->exec(w, in, exec);
                if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
                    return;
            }
            f->cur_pc++;
            break;
        case KK_NOP:
            f->cur_pc++;
            break;
        case KK_BRA:
            /* A backward branch: a cancellation point (and every loop's). */
            if (exec && in->target <= f->cur_pc && atomic_load_explicit(&l->faulted, memory_order_relaxed))
                return;
            if (exec && in->target <= f->cur_pc && l->resumable && ++w->b->slice >= KCOOP_SLICE) {
                /* A cooperative launch's block gives its thread to the others now and then, so
                 * that a block spinning on a grid barrier lets the blocks it waits for run. */
                w->b->yield = true;
                if (exec == mask) {
                    f->cur_pc = in->target;
                    after_jump(f);
                } else {
                    for (uint32_t m = mask; m; m &= m - 1) {
                        uint32_t lane = (uint32_t)kctz(m);
                        f->pc[lane] = (exec >> lane & 1) ? in->target : f->cur_pc + 1;
                    }
                    f->cur_mask = 0;
                }
                return;
            }
            if (exec == mask) {
                f->cur_pc = in->target;
                after_jump(f);
            } else if (!exec) {
                f->cur_pc++;
            } else {
                for (uint32_t m = mask; m; m &= m - 1) {
                    uint32_t lane = (uint32_t)kctz(m);
                    f->pc[lane] = (exec >> lane & 1) ? in->target : f->cur_pc + 1;
                }
                f->cur_mask = 0;
            }
            break;
        case KK_BRX: {
            if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
                return; /* a cancellation point: its targets may lie behind it */
            const uint64_t *idx = kw_slot(w, in->src[0]);
            const uint32_t *targets = in->aux;
            for (uint32_t m = mask; m; m &= m - 1) {
                uint32_t lane = (uint32_t)kctz(m);
                if (exec >> lane & 1) {
                    uint64_t i = (uint32_t)idx[lane];
                    if (i >= in->target) {
                        kfault(w, in, lane, CUDA_ERROR_ILLEGAL_INSTRUCTION,
                               "brx.idx index %llu is outside its %u targets", (unsigned long long)i, in->target);
                        return;
                    }
                    f->pc[lane] = targets[i];
                } else {
                    f->pc[lane] = f->cur_pc + 1;
                }
            }
            f->cur_mask = 0;
            break;
        }
        case KK_CALL:
            if (!exec) {
                f->cur_pc++;
                break;
            }
            if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
                return; /* a cancellation point */
            do_call(w, f, in, exec, mask);
            if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
                return;
            break;
        case KK_RET:
            if (w->depth == 1) {
                /* ret in a kernel ends its threads, as exit does */
                exit_lanes(w, exec);
                if (f->cur_mask)
                    f->cur_pc++;
                break;
            }
            f->lanes &= ~exec;
            f->returned |= exec;
            f->cur_mask &= ~exec;
            if (f->cur_mask)
                f->cur_pc++;
            pop_finished(w);
            break;
        case KK_EXIT:
            exit_lanes(w, exec);
            if (f->cur_mask)
                f->cur_pc++;
            pop_finished(w);
            check_barriers(w->b);
            break;
        case KK_BAR:
            if (!exec) {
                f->cur_pc++;
                break;
            }
            if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
                return; /* a cancellation point: the block's other warps see it as they run */
            if (!do_barrier(w, f, in, exec))
                return;
            break;
        case KK_WAIT: {
            /* async copies and barriers (ops_async.c): the lanes in w->retry run this
             * instruction again; a failed wait gives the block's other warps their turn. */
            w->retry = 0;
            w->yield = false;
            if (exec) {
                in->exec(w, in, exec);
                if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
                    return;
            }
            uint32_t retry = w->retry & mask;
            if (retry == mask) {
                /* the whole group waits here */
            } else if (retry) {
                for (uint32_t m = mask; m; m &= m - 1) {
                    uint32_t lane = (uint32_t)kctz(m);
                    f->pc[lane] = (retry >> lane & 1) ? f->cur_pc : f->cur_pc + 1;
                }
                f->cur_mask = 0;
            } else {
                f->cur_pc++;
            }
            if (w->yield) {
                w->wait_at = in;
                /* Lanes of this frame on other paths may be the ones that arrive (a GPU runs
                 * them independently): the waiting group steps aside until they have had
                 * their turn too. */
                if (f->lanes & ~w->blocked & ~w->parked & ~mask) {
                    if (f->cur_mask)
                        flush_group(f);
                    w->parked |= mask;
                    break;
                }
                w->yield_pending = true;
                return;
            }
            break;
        }
        case KK_TRAP:
            if (exec) {
                kfault(w, in, (uint32_t)kctz(exec), CUDA_ERROR_LAUNCH_FAILED, "trap");
                return;
            }
            f->cur_pc++;
            break;
        }
        if (w->depth == 1 && !w->live)
            return;
    }
}

/* ---- Blocks ---- */
/* Blocks per cluster (1: a launch without clusters); klaunch_init makes every dimension at least 1. */
static uint32_t cluster_size(const struct klaunch *l) { return l->cluster[0] * l->cluster[1] * l->cluster[2]; }

void klaunch_init(struct klaunch *l)
{
    static _Atomic uint64_t serials;
    l->serial = atomic_fetch_add(&serials, 1) + 1;
    atomic_init(&l->faulted, 0);
    l->fault_code = CUDA_SUCCESS;
    l->fault_reason[0] = 0;
    os_mutex_init(&l->print_lock);
    kprint_init(l);
    /* grid (issue 25): the workspace cooperative_groups finds through %envreg1:%envreg2 (the
     * driver gives every launch one: this_grid().is_valid() is true in any launch, probed), and
     * the device runtime's state, which a launch from a kernel shares with its parent. A
     * cooperative launch's blocks take turns (below); the native code's backward branches count
     * them too (speed, issue 27: YIELD in native_emit.c), so it runs natively as others do. */
    l->workspace[0] = sizeof(l->workspace);
    l->workspace[1] = l->workspace[2] = l->workspace[3] = 0;
    l->cdp = l->parent ? l->parent->cdp : NULL;
    if (!l->parent)
        l->depth = 0;
    for (int i = 0; i < 3; ++i)
        if (!l->cluster[i])
            l->cluster[i] = 1;
    /* clusters: the blocks of a cluster take turns on one thread as a cooperative grid's do, in
     * both tiers (the native code's backward branches count the turn: YIELD) */
    l->resumable = l->cooperative || cluster_size(l) > 1;
    knative_prepare(l);
}

/* %smid: the block's linear index modulo the pool's workers (a mask where they are a power of
 * two, as they mostly are: the division was a visible part of a block's set-up). */
static uint64_t smid_of(const struct klaunch *l, uint32_t index)
{
    uint32_t n = l->workers->count;
    if (!n)
        return 0;
    return (n & (n - 1)) == 0 ? index & (n - 1) : index % n;
}

/* Sets each row rows[i][0] of the block's special registers to rows[i][1] in every lane. */
static void fill_rows(uint64_t (*sp)[KLANES], const uint64_t (*rows)[2], size_t n)
{
    for (size_t i = 0; i < n; ++i)
        for (uint32_t lane = 0; lane < KLANES; ++lane)
            sp[rows[i][0]][lane] = rows[i][1];
}

/* The block's shared special registers (every row but %tid and %warpid): once per block. */
static void init_block_specials(struct kblock *b)
{
    const struct klaunch *l = b->l;
    uint64_t(*sp)[KLANES] = b->uniform;
    const uint64_t uniform[][2] = {
        {KSP_ntid_x, l->block[0]},     {KSP_ntid_y, l->block[1]},     {KSP_ntid_z, l->block[2]},
        {KSP_ctaid_x, b->ctaid[0]},    {KSP_ctaid_y, b->ctaid[1]},    {KSP_ctaid_z, b->ctaid[2]},
        {KSP_nctaid_x, l->grid[0]},    {KSP_nctaid_y, l->grid[1]},    {KSP_nctaid_z, l->grid[2]},
        {KSP_nwarpid, b->nwarps},      {KSP_smid, 0},                 {KSP_nsmid, l->workers->count},
        {KSP_gridid, 1},               {KSP_dynamic_smem_size, l->dyn_shared},
        {KSP_total_smem_size, b->shared_size},
        {KSP_cluster_nctarank, cluster_size(l)},
        {KSP_cluster_ctarank, b->rank},
        {KSP_is_explicit_cluster, 0},
        /* grid (issue 25): the workspace's address (%envreg1 its upper half); %envreg6 and
         * %envreg10 read 1 and 0x120 on the H200 in every launch (docs/driver-observations.md),
         * the others 0 here (%envreg0 is a number of the driver's that varies). */
        {KSP_envreg1, (uint64_t)(uintptr_t)l->workspace >> 32}, {KSP_envreg2, (uint32_t)(uintptr_t)l->workspace},
        {KSP_envreg6, 1}, {KSP_envreg10, 0x120},
    };
    fill_rows(sp, uniform, sizeof(uniform) / sizeof(uniform[0]));
    /* isa (issue 25): the rest of the PTX ISA's special registers, as the H100 reads them in a
     * launch without clusters (docs/probes/kernels/sreg): every block is a cluster of one, so
     * %clusterid is %ctaid and %nclusterid %nctaid; %gridid is the launch's serial (distinct per
     * launch); %smid the block's linear index modulo %nsmid (the pool's workers are the SMs);
     * %nwarpid the warps an SM holds (64, sm_80 to sm_90); the shared memory sizes and the
     * reserved window's offsets as the H200 gave them (%total_smem_size: static + dynamic rounded
     * up to 128 bytes; %aggr_smem_size: static + dynamic + the 1 KiB reserved per block);
     * %is_explicit_cluster for a launch that named a cluster dimension; the performance monitors
     * and %current_graph_exec read 0, as there (no profiler counts, and the H200 read 0 inside a
     * graph too). */
    const uint64_t more[][2] = {
        /* clusters (probed on the H100, docs/probes/kernels/cluster): a block's place in its
         * cluster and the cluster's in the grid, x fastest; launches without clusters have
         * clusters of one */
        {KSP_clusterid_x, b->ctaid[0] / l->cluster[0]}, {KSP_clusterid_y, b->ctaid[1] / l->cluster[1]},
        {KSP_clusterid_z, b->ctaid[2] / l->cluster[2]},
        {KSP_nclusterid_x, l->grid[0] / l->cluster[0]}, {KSP_nclusterid_y, l->grid[1] / l->cluster[1]},
        {KSP_nclusterid_z, l->grid[2] / l->cluster[2]},
        {KSP_cluster_ctaid_x, b->ctaid[0] % l->cluster[0]}, {KSP_cluster_ctaid_y, b->ctaid[1] % l->cluster[1]},
        {KSP_cluster_ctaid_z, b->ctaid[2] % l->cluster[2]},
        {KSP_cluster_nctaid_x, l->cluster[0]}, {KSP_cluster_nctaid_y, l->cluster[1]},
        {KSP_cluster_nctaid_z, l->cluster[2]},
        {KSP_gridid, l->serial},        {KSP_nwarpid, KSREG_NWARPID},
        {KSP_smid, smid_of(l, b->index)},
        {KSP_total_smem_size, ksreg_total_smem(l->fn->static_shared, l->dyn_shared)},
        {KSP_aggr_smem_size, (uint64_t)l->fn->static_shared + l->dyn_shared + KSREG_RESERVED_SMEM},
        {KSP_is_explicit_cluster, l->explicit_cluster},
        {KSP_reserved_smem_offset_begin, KSREG_RESERVED_BEGIN}, {KSP_reserved_smem_offset_end, KSREG_RESERVED_END},
        {KSP_reserved_smem_offset_cap, KSREG_RESERVED_CAP},     {KSP_reserved_smem_offset_0, KSREG_RESERVED_0},
        {KSP_reserved_smem_offset_1, KSREG_RESERVED_1},
    };
    fill_rows(sp, more, sizeof(more) / sizeof(more[0]));
    for (uint32_t lane = 0; lane < KLANES; ++lane) {
        sp[KSP_laneid][lane] = lane;
        sp[KSP_lanemask_eq][lane] = 1u << lane;
        sp[KSP_lanemask_le][lane] = lane == 31 ? KFULL : (2u << lane) - 1;
        sp[KSP_lanemask_lt][lane] = (1u << lane) - 1;
        sp[KSP_lanemask_ge][lane] = ~((1u << lane) - 1) & KFULL;
        sp[KSP_lanemask_gt][lane] = lane == 31 ? 0 : ~((2u << lane) - 1) & KFULL;
    }
}

/* speed (issue 27): the rows of init_block_specials that depend on the block's index, for
 * memory that held another block of the same launch (block_begin). */
static void update_block_specials(struct kblock *b)
{
    const struct klaunch *l = b->l;
    uint64_t(*sp)[KLANES] = b->uniform;
    if (cluster_size(l) == 1) {
        /* clusters of one: %clusterid is %ctaid, the block's place in its cluster is 0 (kept) */
        const uint64_t rows[][2] = {
            {KSP_ctaid_x, b->ctaid[0]},     {KSP_ctaid_y, b->ctaid[1]},     {KSP_ctaid_z, b->ctaid[2]},
            {KSP_clusterid_x, b->ctaid[0]}, {KSP_clusterid_y, b->ctaid[1]}, {KSP_clusterid_z, b->ctaid[2]},
            {KSP_smid, smid_of(l, b->index)},
        };
        fill_rows(sp, rows, sizeof(rows) / sizeof(rows[0]));
        return;
    }
    const uint64_t rows[][2] = {
        {KSP_ctaid_x, b->ctaid[0]},     {KSP_ctaid_y, b->ctaid[1]},     {KSP_ctaid_z, b->ctaid[2]},
        /* clusters: the block's cluster and its place in it (init_block_specials) */
        {KSP_clusterid_x, b->ctaid[0] / l->cluster[0]}, {KSP_clusterid_y, b->ctaid[1] / l->cluster[1]},
        {KSP_clusterid_z, b->ctaid[2] / l->cluster[2]},
        {KSP_cluster_ctaid_x, b->ctaid[0] % l->cluster[0]}, {KSP_cluster_ctaid_y, b->ctaid[1] % l->cluster[1]},
        {KSP_cluster_ctaid_z, b->ctaid[2] % l->cluster[2]}, {KSP_cluster_ctarank, b->rank},
        {KSP_smid, smid_of(l, b->index)},
    };
    fill_rows(sp, rows, sizeof(rows) / sizeof(rows[0]));
}

/* The warp's own special registers (%tid, %warpid) and the rows it reads the others from. */
static void init_warp_specials(struct kwarp *w, struct kblock *b)
{
    static const kspecial own[4] = {KSP_tid_x, KSP_tid_y, KSP_tid_z, KSP_warpid};
    for (int i = 0; i < KSP_COUNT; ++i)
        w->special[i] = b->uniform[i];
    for (int i = 0; i < 4; ++i)
        w->special[own[i]] = w->own[i];
    /* %tid of the warp's first thread, then counted up (no division per lane). */
    const struct klaunch *l = b->l;
    uint32_t bx = l->block[0], by = l->block[1], t0 = w->index * KLANES;
    uint32_t tx = t0 % bx, ty = t0 / bx % by, tz = t0 / (bx * by);
    for (uint32_t lane = 0; lane < KLANES; ++lane) {
        w->own[0][lane] = tx;
        w->own[1][lane] = ty;
        w->own[2][lane] = tz;
        w->own[3][lane] = w->index;
        if (++tx == bx) {
            tx = 0;
            if (++ty == by) {
                ty = 0;
                tz++;
            }
        }
    }
}

/* The extents of memory the last block this thread ran learnt, with its launch's serial. */
static OS_THREAD_LOCAL struct {
    uint64_t serial;
    uintptr_t ok[6];
} ok_seed;

static void run_block(void *arg, uint64_t index) { klaunch_run_block(arg, index); }

static struct kblock *block_begin(struct klaunch *l, uint64_t index);
static bool block_step(struct kblock *b);
static void block_end(struct kblock *b);

/* ---- Clusters ----
 * A launch with clusters of several blocks (cuLaunchKernelEx's cluster dimension, or the
 * kernel's .reqnctapercluster: __cluster_dims__) runs each cluster as one unit: its blocks begin
 * together (a cluster is resident at once, as on the GPU) and take turns on one thread, a turn
 * ending after KCOOP_SLICE backward branches or when every warp of the block only failed waits
 * (barrier.cluster.wait; an mbarrier another block completes). So blocks can wait for each
 * other and use each other's shared memory, which stays until the whole cluster has ended (a
 * block that ends early leaves its window readable to the others, never freed under them). A
 * pass over the cluster in which every block only failed waits and nothing changed,
 * KWAIT_IDLE_ROUNDS times in a row, is a deadlock: the launch fails, as a block's does. */

/* The linear index of the block of rank r in cluster ci (both x fastest). */
static uint64_t cluster_block(const struct klaunch *l, uint64_t ci, uint32_t r)
{
    uint64_t ncx = l->grid[0] / l->cluster[0], ncy = l->grid[1] / l->cluster[1];
    uint64_t x = ci % ncx * l->cluster[0] + r % l->cluster[0];
    uint64_t y = ci / ncx % ncy * l->cluster[1] + r / l->cluster[0] % l->cluster[1];
    uint64_t z = ci / (ncx * ncy) * l->cluster[2] + r / (l->cluster[0] * l->cluster[1]);
    return x + l->grid[0] * (y + l->grid[1] * z);
}

/* Begins every block of cluster ci (false: the launch has ended or this faulted it; the blocks
 * begun are ended again). */
static bool cluster_begin(struct klaunch *l, uint64_t ci, struct kcluster *c)
{
    memset(c, 0, sizeof(*c));
    c->n = cluster_size(l);
    for (uint32_t r = 0; r < c->n; ++r) {
        struct kblock *b = block_begin(l, cluster_block(l, ci, r));
        if (!b) {
            for (uint32_t k = 0; k < r; ++k)
                block_end(c->blocks[k]);
            return false;
        }
        b->cluster = c;
        c->blocks[r] = b;
    }
    c->left = c->n;
    return true;
}

static void cluster_end(struct kcluster *c)
{
    for (uint32_t r = 0; r < c->n; ++r)
        block_end(c->blocks[r]);
}

static uint64_t cluster_epoch(const struct kcluster *c)
{
    uint64_t e = c->epoch;
    for (uint32_t r = 0; r < c->n; ++r)
        e += c->blocks[r]->mbar_epoch;
    return e;
}

/* One turn of every block of the cluster that has not ended: true once all have (or the
 * launch faulted). */
static bool cluster_pass(struct kcluster *c)
{
    struct klaunch *l = c->blocks[0]->l;
    bool idle = true;
    uint64_t epoch = cluster_epoch(c);
    for (uint32_t r = 0; r < c->n; ++r) {
        struct kblock *b = c->blocks[r];
        if (b->finished)
            continue;
        if (block_step(b)) {
            b->finished = true;
            c->left--;
            idle = false;
        } else if (!b->idle_yield) {
            idle = false;
        }
        if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
            return true;
    }
    if (!c->left)
        return true;
    if (!idle || epoch != cluster_epoch(c)) {
        c->idle_passes = 0;
        return false;
    }
    if (++c->idle_passes < KWAIT_IDLE_ROUNDS)
        return false;
    struct kwarp *w = NULL;
    for (uint32_t r = 0; r < c->n && !w; ++r)
        for (uint32_t i = 0; i < c->blocks[r]->nwarps && !w; ++i)
            if (!c->blocks[r]->finished && c->blocks[r]->warps[i].live)
                w = &c->blocks[r]->warps[i];
    if (!w)
        w = &c->blocks[0]->warps[0];
    uint32_t lanes = w->top->lanes & ~w->blocked;
    kfault(w, w->yield_pending ? w->wait_at : NULL, lanes ? (uint32_t)kctz(lanes) : 0, CUDA_ERROR_LAUNCH_FAILED,
           "every warp of the cluster's %u blocks waits (barrier.cluster.wait, mbarrier test_wait/try_wait or a "
           "barrier) and none can complete: %u passes without an arrival (a GPU would hang here)",
           c->left, c->idle_passes);
    return true;
}

static void run_cluster(void *arg, uint64_t ci)
{
    struct klaunch *l = arg;
    struct kcluster c;
    if (!cluster_begin(l, ci, &c))
        return;
    while (!cluster_pass(&c))
        ;
    cluster_end(&c);
}

unsigned char *kcluster_shared(const struct kblock *b, uint64_t addr, uint64_t size)
{
    const struct kcluster *c = b->cluster;
    uint64_t rel = addr >> KCLUSTER_SHIFT, off = addr & ((1u << KCLUSTER_SHIFT) - 1);
    if (!c || rel == 0 || rel > 0xff)
        return NULL;
    uint32_t rank = (uint32_t)((b->rank + rel) & 0xff);
    if (rank >= c->n)
        return NULL;
    const struct kblock *o = c->blocks[rank];
    if (off >= o->shared_size || size > o->shared_size - off)
        return NULL;
    return o->shared + off;
}

struct kblock *kcluster_window(const struct kblock *b, uint64_t g, uint64_t *off)
{
    const struct kcluster *c = b->cluster;
    if (!c) {
        uintptr_t sh = (uintptr_t)b->shared;
        if (g >= sh && g - sh < b->shared_size) {
            *off = g - sh;
            return (struct kblock *)b;
        }
        return NULL;
    }
    for (uint32_t r = 0; r < c->n; ++r) {
        uintptr_t sh = (uintptr_t)c->blocks[r]->shared;
        if (g >= sh && g - sh < c->blocks[r]->shared_size) {
            *off = g - sh;
            return c->blocks[r];
        }
    }
    return NULL;
}

/* ---- Cooperative launches (grid, issue 25) ----
 * Every block of a cooperative grid is resident at once, as on the GPU, so that blocks may wait
 * for each other (cooperative_groups' grid.sync() spins on an atomic word of the workspace).
 * The launch is no larger than the occupancy the device reports (kernel_launch.c refuses a
 * larger one), but the pool may have fewer threads than blocks, so blocks are resumable
 * contexts: a block runs on a thread until it has taken KCOOP_SLICE backward branches (every
 * spin-wait is a loop), then goes back to the launch's queue and the thread takes another. The
 * warps' state is data (exec.c above), so a block resumes where it stopped, on any thread. The
 * pool's threads each run one task that takes new blocks first (so every block reaches the
 * barrier) and then the queue's, until every block has ended: a grid sync never deadlocks,
 * whatever the pool's size (one thread runs the whole grid if it must). */
struct kcoop {
    struct klaunch *l;
    os_mutex lock;
    os_cond changed;      /* a block went back to the queue, or the last one ended */
    struct kblock **queue; /* a ring of n */
    uint64_t n, head, count, next_new, done;
};

static void coop_push(struct kcoop *c, struct kblock *b)
{
    c->queue[(c->head + c->count) % c->n] = b;
    c->count++;
    os_cond_signal(&c->changed);
}

static void coop_task(void *arg, uint64_t task)
{
    (void)task;
    struct kcoop *c = arg;
    struct klaunch *l = c->l;
    os_mutex_lock(&c->lock);
    while (c->done < c->n) {
        struct kblock *b = NULL;
        if (c->next_new < c->n) {
            uint64_t index = c->next_new++;
            os_mutex_unlock(&c->lock);
            if (cluster_size(l) > 1) { /* clusters: the unit is a cluster, led by its rank 0 */
                struct kcluster *cl = malloc(sizeof(*cl));
                if (!cl)
                    klaunch_cancel(l, CUDA_ERROR_OUT_OF_MEMORY, "cooperative launch: no host memory for a cluster");
                else if (!cluster_begin(l, index, cl))
                    free(cl);
                else
                    b = cl->blocks[0];
            } else {
                b = block_begin(l, index);
            }
            os_mutex_lock(&c->lock);
            if (!b) {
                c->done++; /* it faulted (no memory) or the launch had ended */
                continue;
            }
        } else if (c->count) {
            b = c->queue[c->head];
            c->head = (c->head + 1) % c->n;
            c->count--;
        } else {
            os_cond_wait(&c->changed, &c->lock); /* the other blocks are on other threads */
            continue;
        }
        os_mutex_unlock(&c->lock);
        struct kcluster *cl = b->cluster;
        bool finished = cl ? cluster_pass(cl) : block_step(b);
        if (finished && cl) {
            cluster_end(cl);
            free(cl);
        } else if (finished) {
            block_end(b);
        }
        os_mutex_lock(&c->lock);
        if (!finished) {
            coop_push(c, b);
        } else if (++c->done == c->n) {
            os_cond_broadcast(&c->changed);
        }
    }
    os_cond_broadcast(&c->changed);
    os_mutex_unlock(&c->lock);
}

static void coop_run(struct klaunch *l, uint64_t n)
{
    struct kcoop c = {.l = l, .n = n};
    c.queue = malloc(sizeof(*c.queue) * n);
    if (!c.queue) {
        klaunch_cancel(l, CUDA_ERROR_OUT_OF_MEMORY, "cooperative launch: no host memory for its blocks' queue");
        return;
    }
    os_mutex_init(&c.lock);
    os_cond_init(&c.changed);
    uint64_t tasks = l->workers->count ? l->workers->count : 1;
    if (tasks > n)
        tasks = n;
    /* No stop word: a task that starts after a fault still ends the blocks in the queue. */
    l->workers->run(l->workers, tasks, NULL, coop_task, &c);
    /* Every task ran to the end, so every block begun has ended. */
    os_cond_destroy(&c.changed);
    os_mutex_destroy(&c.lock);
    free(c.queue);
}

void klaunch_run(struct klaunch *l)
{
    uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint32_t cs = cluster_size(l);
    if (l->cooperative)
        coop_run(l, n / cs); /* clusters of one: blocks */
    else if (cs > 1)
        l->workers->run(l->workers, n / cs, &l->faulted, run_cluster, l);
    else
        l->workers->run(l->workers, n, &l->faulted, run_block, l);
    /* The grids its kernels queued to run after it (cudaStreamTailLaunch). A child grid's run
     * them when it is complete (devrt: cdp.c's child_run). */
    if (atomic_load(&l->cdp) && !l->parent)
        kcdp_run_tails(l);
}

void klaunch_run_block(struct klaunch *l, uint64_t index)
{
    struct kblock *b = block_begin(l, index);
    if (!b)
        return;
    block_step(b);
    block_end(b);
}

/* Sets up block `index`: NULL when the launch has ended (or this faults it, out of memory). */
static struct kblock *block_begin(struct klaunch *l, uint64_t index)
{
    if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
        return NULL;
    const struct kfunc *fn = l->fn;
    uint32_t nthreads = l->block[0] * l->block[1] * l->block[2];
    uint32_t nwarps = (nthreads + KLANES - 1) / KLANES;
    size_t regs_bytes = (size_t)fn->nregs * KLANES * sizeof(uint64_t);
    size_t params_bytes = (size_t)fn->frame_param_bytes * KLANES;
    uint32_t stack = l->stack_bytes > fn->local_bytes ? l->stack_bytes : fn->local_bytes;
    uint32_t stride = fn->module->uses_local ? (stack + 15) & ~15u : 0;
    size_t shared_bytes = (size_t)fn->dyn_shared_offset + l->dyn_shared;
    if (shared_bytes < fn->static_shared)
        shared_bytes = fn->static_shared;
    size_t per_warp = sizeof(struct kwarp) + sizeof(struct kframe) * KMAX_FRAMES + regs_bytes + params_bytes +
                      (size_t)stride * KLANES + 192;
    size_t total = sizeof(struct kblock) + (size_t)nwarps * per_warp + shared_bytes + 64;
    struct scratch *s = scratch_get(total);
    if (!s) {
        os_mutex_lock(&l->print_lock);
        int expected = 0;
        if (atomic_compare_exchange_strong(&l->faulted, &expected, 1)) {
            l->fault_code = CUDA_ERROR_OUT_OF_MEMORY;
            snprintf(l->fault_reason, sizeof(l->fault_reason), "kernel %s: no host memory for a block (%zu bytes)",
                     fn->name, total);
        }
        os_mutex_unlock(&l->print_lock);
        return NULL;
    }
    unsigned char *p = scratch_mem(s);
#define TAKE(type, n) ((type *)(void *)(p += 0, p = (unsigned char *)(((uintptr_t)p + 63) & ~(uintptr_t)63), p += (n), p - (n)))
    struct kblock *b = TAKE(struct kblock, sizeof(struct kblock));
    /* speed (issue 27): memory that held a block of this launch before has the same layout
     * (the launch fixes it) and still holds what does not depend on the block's index: the
     * uniform special registers, the warps' rows of them and their %tid. Only the rest is set. */
    bool warm = s->setup_serial == l->serial;
    s->setup_serial = 0; /* until the set-up below is complete */
    if (warm) {
        memset(b, 0, offsetof(struct kblock, uniform));
        size_t tail = offsetof(struct kblock, uniform) + sizeof(b->uniform);
        memset((unsigned char *)b + tail, 0, sizeof(*b) - tail);
    } else {
        memset(b, 0, sizeof(*b));
    }
    b->scratch = s;
    b->l = l;
    b->index = (uint32_t)index;
    if (l->grid[1] == 1 && l->grid[2] == 1) { /* speed (issue 27): no divisions for 1D grids */
        b->ctaid[0] = (uint32_t)index;
        b->ctaid[1] = b->ctaid[2] = 0;
    } else {
        b->ctaid[0] = (uint32_t)(index % l->grid[0]);
        b->ctaid[1] = (uint32_t)(index / l->grid[0] % l->grid[1]);
        b->ctaid[2] = (uint32_t)(index / ((uint64_t)l->grid[0] * l->grid[1]));
    }
    if (l->resumable) /* clusters (or a cooperative grid, whose clusters are of one) */
        b->rank = b->ctaid[0] % l->cluster[0] +
                  l->cluster[0] * (b->ctaid[1] % l->cluster[1] + l->cluster[1] * (b->ctaid[2] % l->cluster[2]));
    else
        b->rank = 0;
    b->nwarps = nwarps;
    b->threads_live = nthreads;
    b->shared_size = (uint32_t)shared_bytes;
    b->shared = TAKE(unsigned char, shared_bytes ? shared_bytes : 1);
    b->warps = TAKE(struct kwarp, sizeof(struct kwarp) * nwarps);
    if (warm)
        update_block_specials(b);
    else
        init_block_specials(b);
    knat_fn nat = knative_lookup(l->native, fn);
    /* What this thread learnt in the launch's earlier blocks: memory cannot go away while a
     * launch runs (frees wait for queued work), so the extents stay true for all of it. (Read
     * once per block: a thread-local variable of a shared library costs a call.) */
    uintptr_t seed[6] = {0};
    if (ok_seed.serial == l->serial)
        memcpy(seed, ok_seed.ok, sizeof(seed));
    for (uint32_t i = 0; i < nwarps; ++i) {
        struct kwarp *w = &b->warps[i];
        w->b = b;
        w->index = i;
        uint32_t first = i * KLANES;
        uint32_t n = nthreads - first < KLANES ? nthreads - first : KLANES;
        w->live = n == KLANES ? KFULL : (1u << n) - 1;
        w->blocked = 0;
        w->frames = TAKE(struct kframe, sizeof(struct kframe) * KMAX_FRAMES);
        w->depth = 1;
        w->top = &w->frames[0];
        struct kframe *f = w->top;
        f->fn = fn;
        f->regs = TAKE(uint64_t, regs_bytes ? regs_bytes : 8);
        f->params = TAKE(unsigned char, params_bytes ? params_bytes : 1);
        f->local_off = 0;
        f->lanes = w->live;
        f->returned = 0;
        f->cur_pc = 0;
        f->cur_mask = w->live;
        f->wait_min = UINT32_MAX;
        f->call = NULL;
        f->nat = nat;
        w->local_stride = stride;
        w->local = stride ? TAKE(unsigned char, (size_t)stride * KLANES) : NULL;
        w->local_used = 0;
        w->retry = 0;
        w->yield = false;
        w->yield_pending = false;
        w->parked = 0;
        w->wait_at = NULL;
        /* speed (issue 27): warm memory's rows are zero unless the last block wrote them */
        if (!warm || (w->dirty & KWARP_DIRTY_CL_PHASE))
            memset(w->cl_phase, 0, sizeof(w->cl_phase));
        if (!warm || (w->dirty & KWARP_DIRTY_DEV_ERROR))
            memset(w->dev_error, 0, sizeof(w->dev_error));
        w->dirty = 0;
        w->ok_lo = seed[0], w->ok_hi = seed[1], w->okw_lo = seed[2];
        w->okw_hi = seed[3], w->ok2_lo = seed[4], w->ok2_hi = seed[5];
        if (!warm)
            init_warp_specials(w, b);
    }
#undef TAKE
    s->setup_serial = l->serial;
    return b;
}

/* Runs the block until it ends (true: also when the launch faulted) or, in a cooperative
 * launch, until its turn is over (false). */
static bool block_step(struct kblock *b)
{
    struct klaunch *l = b->l;
    uint32_t nwarps = b->nwarps;
    b->slice = 0;
    b->yield = false;
    b->idle_yield = false;
    if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
        return true;
    for (;;) {
        bool progress = false, done = true;
        /* A round in which every warp that ran only failed waits (KK_WAIT) and no mbarrier
         * changed is idle; many idle rounds in a row are a deadlock (below). */
        bool busy = false;
        uint64_t epoch = b->mbar_epoch;
        for (uint32_t i = 0; i < nwarps; ++i) {
            struct kwarp *w = &b->warps[i];
            if (!w->live)
                continue;
            done = false;
            if (w->top->lanes & ~w->blocked) {
                w->yield_pending = false;
                run_warp(w);
                progress = true;
                if (!w->yield_pending)
                    busy = true;
                if (atomic_load_explicit(&l->faulted, memory_order_relaxed))
                    return true;
                if (b->yield)
                    return false;
            }
        }
        if (done)
            break;
        bool released = check_barriers(b);
        if (progress && !busy && !released && epoch == b->mbar_epoch && b->cluster) {
            /* clusters: what the warps wait for may come from another block of the cluster;
             * the cluster's loop (run_cluster) tells a deadlock from a wait */
            b->idle_yield = true;
            return false;
        }
        if (progress && !busy && !released && epoch == b->mbar_epoch) {
            /* Every warp waits on an mbarrier (or barrier.cluster) that nothing in the block
             * can complete any more: a GPU would hang; the launch fails instead. A waiting
             * warp re-runs its loop each round, so a loop that gives up by itself after fewer
             * rounds than this is not mistaken for one. */
            if (++b->idle_rounds >= KWAIT_IDLE_ROUNDS) {
                struct kwarp *w = NULL;
                for (uint32_t i = 0; i < nwarps && !w; ++i)
                    if (b->warps[i].live && b->warps[i].yield_pending)
                        w = &b->warps[i];
                if (!w)
                    w = &b->warps[0];
                uint32_t lanes = w->top->lanes & ~w->blocked;
                kfault(w, w->yield_pending ? w->wait_at : NULL, lanes ? (uint32_t)kctz(lanes) : 0,
                       CUDA_ERROR_LAUNCH_FAILED,
                       "every warp of the block waits (mbarrier test_wait/try_wait, barrier.cluster.wait or a "
                       "barrier) and none can complete: %u rounds without an arrival (a GPU would hang here)",
                       b->idle_rounds);
                return true;
            }
        } else {
            b->idle_rounds = 0;
        }
        if (!released && !progress) {
            struct kwarp *w = NULL;
            for (uint32_t i = 0; i < nwarps && !w; ++i)
                if (b->warps[i].live)
                    w = &b->warps[i];
            uint32_t lane = (uint32_t)kctz(w->blocked ? w->blocked : w->live);
            uint32_t id = w->bar_id[lane];
            const struct kframe *f = &w->frames[w->bar_depth[lane]];
            /* A blocked lane's pc is the one after its barrier. */
            const struct kinsn *bar = f->pc[lane] ? &f->fn->code[f->pc[lane] - 1] : NULL;
            kfault(w, bar, lane, CUDA_ERROR_LAUNCH_FAILED,
                   "barrier %u can never complete: %u of the block's %u live threads arrived (a GPU would hang here)",
                   id, b->bar[id].arrived, b->threads_live);
            return true;
        }
    }
    return true;
}

/* Frees the block (after block_step said it ended). */
static void block_end(struct kblock *b)
{
    struct klaunch *l = b->l;
    uint32_t nwarps = b->nwarps;
    struct scratch *s = b->scratch;
    if (nwarps) {
        const struct kwarp *w = &b->warps[nwarps - 1];
        ok_seed.serial = l->serial;
        ok_seed.ok[0] = w->ok_lo, ok_seed.ok[1] = w->ok_hi, ok_seed.ok[2] = w->okw_lo;
        ok_seed.ok[3] = w->okw_hi, ok_seed.ok[4] = w->ok2_lo, ok_seed.ok[5] = w->ok2_hi;
    }
    for (uint32_t i = 0; i < nwarps; ++i) {
        struct kwarp *w = &b->warps[i];
        while (w->depth > 1) {
            free(w->top->regs);
            w->depth--;
            w->top = &w->frames[w->depth - 1];
        }
    }
    scratch_put(s);
}

CUresult klaunch_finish(struct klaunch *l)
{
    kprint_flush(l);
    os_mutex_destroy(&l->print_lock);
    if (!l->parent && l->cdp) {
        kcdp_free(l->cdp);
        l->cdp = NULL;
    }
    return atomic_load(&l->faulted) ? l->fault_code : CUDA_SUCCESS;
}
