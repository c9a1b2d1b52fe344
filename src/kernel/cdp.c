/*
 * Dynamic parallelism (CDP2, CUDA 12 and later; grid, issue 25): the device runtime that
 * libcudadevrt gives kernels on the GPU, as built-in functions of the engine. nvcc compiles
 * `k<<<g, b, s, stream>>>(args)` in a kernel (with -rdc=true) to
 * `__cudaCDP2GetParameterBufferV2(k, g, b, s)`, stores of the arguments into that buffer and
 * `__cudaCDP2LaunchDeviceV2(buffer, stream)`; the other device-side runtime calls are
 * `__cudaCDP2*` functions too (older PTX names them `cudaGetParameterBuffer`, `cudaLaunchDevice`
 * ...: the same functions). ops_control.c maps their names to KB_CDP_* when a module declares
 * them without defining them; exec.c's run_builtin hands such calls to kcdp_call.
 *
 * The CUDA programming guide's rules (Dynamic Parallelism, "Execution Environment") and how
 * they are met here:
 * - A child grid completes before its parent grid is complete: a launch into the default
 *   stream, a stream the kernel created or cudaStreamFireAndForget runs right away, inside the
 *   launching thread's call, on the worker pool (this thread helping, so a parent block never
 *   waits for pool threads its own grid holds). That is one of the orders the GPU may choose:
 *   launches of one stream run in order, a child sees what its parent wrote before the launch,
 *   and nothing a parent does after a launch can be waited for by it in CDP2 (device-side
 *   cudaDeviceSynchronize is gone: ops_control.c refuses it at load, as nvcc 13 refuses to
 *   compile it).
 * - cudaStreamTailLaunch: the grid runs after the launching grid and all its other work, in the
 *   order of the launches (kcdp_run_tails, from klaunch_run).
 * - Pending launches: a launch holds its parameter buffer from cudaGetParameterBuffer until its
 *   grid has run; at most CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT buffers are held per launch
 *   tree. One more is cudaErrorLaunchPendingCountExceeded from the buffer's call (the buffer is
 *   NULL, so `<<<>>>` launches nothing) and from cudaGetLastError after it, as the H200 gives it
 *   (40 tail launches pending of a limit of 40, the 41st refused; fire-and-forget launches that
 *   have ended hold nothing: docs/driver-observations.md).
 * - Errors are per thread: each call returns its error and leaves it for cudaGetLastError /
 *   cudaPeekAtLastError, which read that thread's last one.
 * - A fault in a child grid ends the whole tree and is the host launch's fault (sticky for the
 *   context, as on the GPU); cancelling the host launch (watchdog, teardown) ends its children.
 * - Nesting (devrt, issue 25; docs/probes/kernels/devrt): the H100 has no depth limit of its
 *   own in CDP2. A chain of launches into the default stream (or fire-and-forget) holds one
 *   pending launch per level, since a grid is complete only when its children are: with the
 *   limit at 32, the 33rd level's launch is cudaErrorLaunchPendingCountExceeded; with 2048,
 *   2048 levels ran. A chain of tail launches holds one or two (a grid is complete before its
 *   tail launches run): 2100 levels ran with the limit at 2048. Here the first KCDP_INLINE_DEPTH
 *   levels run inside the launching thread's call (above); deeper launches into other streams
 *   run when the launching grid's blocks have ended, before its tail launches (another order
 *   the programming guide allows), so the C stack grows by a few small frames per level. Past
 *   KCDP_MAX_DEPTH levels (the engine's bound on that stack) a launch is
 *   cudaErrorLaunchMaxDepthExceeded.
 */
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>

#define KCDP_SLOT 4096     /* a parameter buffer: the device runtime's limit on a launch's parameters */
#define KCDP_CHUNK 64      /* buffers per piece of the arena */
#define KCDP_INLINE_DEPTH 64 /* devrt: levels run inside the launching thread's call */
#define KCDP_MAX_DEPTH 4096  /* devrt: nested launches at most (the engine's C stack holds them) */
#define KCDP_MAX_PENDING (1u << 20)

/* The device runtime's error numbers (cudaError_t). */
enum {
    CDP_SUCCESS = 0,
    CDP_INVALID_VALUE = 1,
    CDP_INVALID_CONFIGURATION = 9,
    CDP_LAUNCH_MAX_DEPTH_EXCEEDED = 65,
    CDP_LAUNCH_PENDING_COUNT_EXCEEDED = 69,
    CDP_INVALID_DEVICE_FUNCTION = 98,
    CDP_INVALID_DEVICE = 101,
    CDP_UNSUPPORTED_LIMIT = 215,
    CDP_INVALID_RESOURCE_HANDLE = 400,
    CDP_NOT_SUPPORTED = 801,
};

/* The named streams (cuda_device_runtime_api.h). */
#define CDP_STREAM_TAIL 3u
#define CDP_STREAM_FIRE_AND_FORGET 4u

struct kcdp_slot {
    const struct kfunc *fn; /* V2: the kernel, grid, block and shared size given with the buffer */
    uint32_t grid[3], block[3], shared;
    bool used, v2;
};

struct kcdp_chunk {
    unsigned char *mem; /* KCDP_CHUNK buffers of KCDP_SLOT bytes */
    struct kcdp_slot slot[KCDP_CHUNK];
};

/* A grid launched by a kernel. */
struct kchild {
    struct klaunch l;
    struct kchild *next;  /* the tree's tail launches, in order */
    struct klaunch *owner; /* a tail launch: the grid it runs after */
    uint32_t slot;
    bool deferred;        /* devrt: a launch into another stream, run when its owner's blocks ended */
    bool is_op;           /* devrt: a copy or fill of the tail stream (op), no grid */
    struct kdevrt_op op;
};

struct kcdp {
    os_mutex lock;
    struct klaunch *root;
    uint32_t limit;   /* buffers held at most */
    uint32_t held;
    uint32_t nchunks; /* of chunk[] */
    struct kcdp_chunk *_Atomic *chunk;
    uint32_t hint;
    struct kchild *tails, **tails_end;
    struct klaunch **running; /* the grids running now (cancellation reaches them) */
    uint32_t nrunning, cap;
    uint64_t next_handle;
};

static const struct {
    const char *name;
    int builtin;
    uint32_t nargs;
} names[] = {
    {"GetParameterBuffer", KB_CDP_GET_PARAMETER_BUFFER, 2},
    {"GetParameterBufferV2", KB_CDP_GET_PARAMETER_BUFFER_V2, 4},
    {"LaunchDevice", KB_CDP_LAUNCH_DEVICE, 6},
    {"LaunchDevice_ptsz", KB_CDP_LAUNCH_DEVICE, 6},
    {"LaunchDeviceV2", KB_CDP_LAUNCH_DEVICE_V2, 2},
    {"LaunchDeviceV2_ptsz", KB_CDP_LAUNCH_DEVICE_V2, 2},
    {"GetLastError", KB_CDP_GET_LAST_ERROR, 0},
    {"PeekAtLastError", KB_CDP_PEEK_AT_LAST_ERROR, 0},
    {"GetDevice", KB_CDP_GET_DEVICE, 1},
    {"GetDeviceCount", KB_CDP_GET_DEVICE_COUNT, 1},
    {"DeviceGetAttribute", KB_CDP_DEVICE_GET_ATTRIBUTE, 3},
    {"DeviceGetLimit", KB_CDP_DEVICE_GET_LIMIT, 2},
    {"RuntimeGetVersion", KB_CDP_RUNTIME_GET_VERSION, 1},
    {"StreamCreateWithFlags", KB_CDP_STREAM_CREATE_WITH_FLAGS, 2},
    {"StreamDestroy", KB_CDP_STREAM_DESTROY, 1},
    {"StreamWaitEvent", KB_CDP_STREAM_WAIT_EVENT, 3},
    {"StreamWaitEvent_ptsz", KB_CDP_STREAM_WAIT_EVENT, 3},
    {"EventCreateWithFlags", KB_CDP_EVENT_CREATE_WITH_FLAGS, 2},
    {"EventDestroy", KB_CDP_EVENT_DESTROY, 1},
    {"EventRecord", KB_CDP_EVENT_RECORD, 2},
    {"EventRecord_ptsz", KB_CDP_EVENT_RECORD, 2},
    {"EventRecordWithFlags", KB_CDP_EVENT_RECORD_WITH_FLAGS, 3},
    {"EventRecordWithFlags_ptsz", KB_CDP_EVENT_RECORD_WITH_FLAGS, 3},
    {"DeviceSynchronize", KB_CDP_DEVICE_SYNCHRONIZE, 0},
    {"DeviceSynchronizeDeprecationAvoidance", KB_CDP_DEVICE_SYNCHRONIZE, 0},
};

int kcdp_builtin_of(const char *name, uint32_t *nargs)
{
    /* "__cudaCDP2Name" (CUDA 12 and later), "cudaName" (CDP1's PTX), "__cudaName" (the old
     * spelling of cudaDeviceSynchronize's avoidance) */
    const char *rest = NULL;
    if (strncmp(name, "__cudaCDP2", 10) == 0)
        rest = name + 10;
    else if (strncmp(name, "__cuda", 6) == 0)
        rest = name + 6;
    else if (strncmp(name, "cuda", 4) == 0)
        rest = name + 4;
    if (!rest)
        return KB_NONE;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
        if (strcmp(rest, names[i].name) == 0) {
            if (nargs)
                *nargs = names[i].nargs;
            return names[i].builtin;
        }
    }
    return kdevrt_builtin_of(rest, nargs); /* devrt: the rest of the device runtime */
}

/* ---- The tree's state ---- */
static struct klaunch *root_of(struct klaunch *l)
{
    while (l->parent)
        l = l->parent;
    return l;
}

static struct kcdp *tree_of(struct klaunch *l)
{
    struct kcdp *t = atomic_load(&l->cdp);
    if (t)
        return t;
    struct klaunch *root = root_of(l);
    if ((t = atomic_load(&root->cdp)))
        return t;
    t = calloc(1, sizeof(*t));
    /* The limit as the context gives it (0: no launch can be pending), bounded so that the
     * arena's index stays small (2^20 buffers of 4 KiB: 4 GiB) */
    uint32_t limit = root->pending_limit < KCDP_MAX_PENDING ? root->pending_limit : KCDP_MAX_PENDING;
    uint32_t nchunks = limit ? (limit + KCDP_CHUNK - 1) / KCDP_CHUNK : 1;
    struct kcdp_chunk *_Atomic *chunk = t ? calloc(nchunks, sizeof(*chunk)) : NULL;
    if (!chunk) {
        free(t);
        return NULL;
    }
    os_mutex_init(&t->lock);
    t->root = root;
    t->limit = limit;
    t->nchunks = nchunks;
    t->chunk = chunk;
    t->tails_end = &t->tails;
    t->next_handle = 0x1000;
    struct kcdp *expected = NULL;
    if (!atomic_compare_exchange_strong(&root->cdp, &expected, t)) {
        free(chunk);
        os_mutex_destroy(&t->lock);
        free(t);
        return expected;
    }
    return t;
}

void kcdp_free(struct kcdp *t)
{
    if (!t)
        return;
    while (t->tails) { /* tail launches of grids that never ran (a fault ended the tree) */
        struct kchild *c = t->tails;
        t->tails = c->next;
        free(c);
    }
    for (uint32_t i = 0; i < t->nchunks; ++i) {
        struct kcdp_chunk *ch = atomic_load(&t->chunk[i]);
        if (ch) {
            free(ch->mem);
            free(ch);
        }
    }
    free(t->chunk);
    free(t->running);
    os_mutex_destroy(&t->lock);
    free(t);
}

bool kcdp_extent(const struct kcdp *t, uintptr_t addr, size_t size, uintptr_t *lo, uintptr_t *hi)
{
    for (uint32_t i = 0; i < t->nchunks; ++i) {
        struct kcdp_chunk *ch = atomic_load_explicit(&((struct kcdp *)t)->chunk[i], memory_order_acquire);
        if (!ch)
            continue;
        uintptr_t base = (uintptr_t)ch->mem;
        if (addr >= base && addr - base < (uintptr_t)KCDP_CHUNK * KCDP_SLOT) {
            /* each buffer is an extent of its own: an access must not run into the next */
            uintptr_t b = base + (addr - base) / KCDP_SLOT * KCDP_SLOT;
            if (size > KCDP_SLOT || addr + size > b + KCDP_SLOT)
                return false;
            *lo = b;
            *hi = b + KCDP_SLOT;
            return true;
        }
    }
    return false;
}

static unsigned char *slot_mem(struct kcdp *t, uint32_t s)
{
    return atomic_load(&t->chunk[s / KCDP_CHUNK])->mem + (size_t)(s % KCDP_CHUNK) * KCDP_SLOT;
}

static struct kcdp_slot *slot_meta(struct kcdp *t, uint32_t s)
{
    return &atomic_load(&t->chunk[s / KCDP_CHUNK])->slot[s % KCDP_CHUNK];
}

/* Takes a free buffer: its number, or a cudaError_t as -(error). */
static int64_t slot_take(struct kcdp *t)
{
    os_mutex_lock(&t->lock);
    if (t->held >= t->limit) {
        os_mutex_unlock(&t->lock);
        return -CDP_LAUNCH_PENDING_COUNT_EXCEEDED;
    }
    uint32_t total = t->nchunks * KCDP_CHUNK;
    for (uint32_t k = 0; k < total; ++k) {
        uint32_t s = (t->hint + k) % total;
        struct kcdp_chunk *ch = atomic_load(&t->chunk[s / KCDP_CHUNK]);
        if (!ch) {
            ch = calloc(1, sizeof(*ch));
            unsigned char *mem = ch ? calloc(KCDP_CHUNK, KCDP_SLOT) : NULL;
            if (!mem) {
                free(ch);
                os_mutex_unlock(&t->lock);
                return -CDP_LAUNCH_PENDING_COUNT_EXCEEDED; /* no memory for buffers: none can be pending */
            }
            ch->mem = mem;
            atomic_store_explicit(&t->chunk[s / KCDP_CHUNK], ch, memory_order_release);
        }
        struct kcdp_slot *m = &ch->slot[s % KCDP_CHUNK];
        if (!m->used) {
            memset(m, 0, sizeof(*m));
            m->used = true;
            t->held++;
            t->hint = s + 1;
            os_mutex_unlock(&t->lock);
            return s;
        }
    }
    os_mutex_unlock(&t->lock);
    return -CDP_LAUNCH_PENDING_COUNT_EXCEEDED;
}

static void slot_give(struct kcdp *t, uint32_t s)
{
    os_mutex_lock(&t->lock);
    struct kcdp_slot *m = slot_meta(t, s);
    if (m->used) {
        m->used = false;
        t->held--;
    }
    os_mutex_unlock(&t->lock);
}

/* The buffer that starts at addr, held (not launched yet): its number, else -1. */
static int64_t slot_at(struct kcdp *t, uint64_t addr)
{
    for (uint32_t i = 0; i < t->nchunks; ++i) {
        struct kcdp_chunk *ch = atomic_load(&t->chunk[i]);
        if (!ch)
            continue;
        uintptr_t base = (uintptr_t)ch->mem;
        if (addr >= base && addr - base < (uintptr_t)KCDP_CHUNK * KCDP_SLOT) {
            if ((addr - base) % KCDP_SLOT)
                return -1;
            uint32_t s = i * KCDP_CHUNK + (uint32_t)((addr - base) / KCDP_SLOT);
            os_mutex_lock(&t->lock);
            bool used = slot_meta(t, s)->used;
            os_mutex_unlock(&t->lock);
            return used ? (int64_t)s : -1;
        }
    }
    return -1;
}

/* ---- Cancellation ---- */
static void end_launch(struct klaunch *l, CUresult code, const char *reason)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&l->faulted, &expected, 1)) {
        l->fault_code = code;
        snprintf(l->fault_reason, sizeof(l->fault_reason), "%s", reason);
    }
}

void kcdp_cancel(struct klaunch *l, CUresult code, const char *reason)
{
    if (l->parent)
        return; /* the root's cancellation reaches the tree */
    struct kcdp *t = atomic_load(&l->cdp);
    if (!t)
        return;
    os_mutex_lock(&t->lock);
    for (uint32_t i = 0; i < t->nrunning; ++i)
        end_launch(t->running[i], code, reason);
    os_mutex_unlock(&t->lock);
}

/* ---- Running a child grid ---- */
static void run_queued(struct kcdp *t, struct klaunch *l, bool deferred);

static void child_run(struct kcdp *t, struct kchild *c)
{
    struct klaunch *root = t->root;
    if (c->is_op) { /* devrt: a copy or fill has no grid: only its fault is recorded */
        atomic_init(&c->l.faulted, 0);
        c->l.fault_code = CUDA_SUCCESS;
        c->l.fault_reason[0] = 0;
    } else {
        klaunch_init(&c->l);
    }
    bool listed = false;
    os_mutex_lock(&t->lock);
    if (t->nrunning == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 16;
        struct klaunch **p = realloc(t->running, sizeof(*p) * cap);
        if (p)
            t->running = p, t->cap = cap;
    }
    if (t->nrunning < t->cap) {
        t->running[t->nrunning++] = &c->l;
        listed = true;
    }
    os_mutex_unlock(&t->lock);
    if (!listed)
        end_launch(root, CUDA_ERROR_OUT_OF_MEMORY, "dynamic parallelism: no host memory to run a child grid");
    /* After listing it: a cancellation of the root either sees it listed or is seen here. */
    if (!atomic_load(&root->faulted)) {
        if (c->is_op) {
            if (!kdevrt_op_run(&c->l, &c->op) && !atomic_load(&root->faulted))
                klaunch_cancel(root, c->l.fault_code, c->l.fault_reason);
        } else {
            klaunch_run(&c->l); /* its blocks (a child's tail launches run below) */
        }
    }
    /* devrt: its deferred launches: the grid completes with them (after a fault they are taken
     * off the queue without running, as its tail launches below) */
    if (!c->is_op)
        run_queued(t, &c->l, true);
    os_mutex_lock(&t->lock);
    for (uint32_t i = 0; i < t->nrunning; ++i) {
        if (t->running[i] == &c->l) {
            t->running[i] = t->running[--t->nrunning];
            break;
        }
    }
    os_mutex_unlock(&t->lock);
    CUresult r = c->is_op ? CUDA_SUCCESS : klaunch_finish(&c->l);
    if (r && !atomic_load(&root->faulted))
        klaunch_cancel(root, r, c->l.fault_reason); /* the tree's fault: sticky for the context */
    /* devrt: the grid is complete, so its buffer is free before its tail launches run (a chain
     * of tail launches holds one or two pending launches, as on the H100) */
    slot_give(t, c->slot);
    if (!c->is_op)
        run_queued(t, &c->l, false);
    free(c);
}

/* Runs the launches l queued to run after its blocks: its deferred ones (deferred true, devrt)
 * or its tail launches and tail copies, in order. */
static void run_queued(struct kcdp *t, struct klaunch *l, bool deferred)
{
    for (;;) {
        struct kchild *c = NULL, *prev = NULL;
        os_mutex_lock(&t->lock);
        for (struct kchild **pp = &t->tails; *pp; prev = *pp, pp = &(*pp)->next) {
            if ((*pp)->owner == l && (*pp)->deferred == deferred) {
                c = *pp;
                *pp = c->next;
                if (!*pp)
                    t->tails_end = prev ? &prev->next : &t->tails;
                break;
            }
        }
        os_mutex_unlock(&t->lock);
        if (!c)
            return;
        child_run(t, c);
    }
}

void kcdp_run_tails(struct klaunch *l)
{
    struct kcdp *t = atomic_load(&l->cdp);
    if (!t)
        return;
    run_queued(t, l, true);
    run_queued(t, l, false);
}

static uint32_t check_config(const struct kcdp_slot *m)
{
    static const uint32_t grid_max[3] = {2147483647u, 65535u, 65535u}, block_max[3] = {1024u, 1024u, 64u};
    uint64_t threads = 1;
    for (int i = 0; i < 3; ++i) {
        if (!m->grid[i] || !m->block[i] || m->grid[i] > grid_max[i] || m->block[i] > block_max[i])
            return CDP_INVALID_CONFIGURATION;
        threads *= m->block[i];
    }
    const struct kfunc *fn = m->fn;
    if (threads > 1024 || (fn->reqntid[0] && (m->block[0] != fn->reqntid[0] ||
                                              m->block[1] != (fn->reqntid[1] ? fn->reqntid[1] : 1) ||
                                              m->block[2] != (fn->reqntid[2] ? fn->reqntid[2] : 1))))
        return CDP_INVALID_CONFIGURATION;
    if (fn->maxntid[0]) {
        uint64_t max = (uint64_t)fn->maxntid[0] * (fn->maxntid[1] ? fn->maxntid[1] : 1) *
                       (fn->maxntid[2] ? fn->maxntid[2] : 1);
        if (threads > max)
            return CDP_INVALID_CONFIGURATION;
    }
    /* dynamic shared memory: at most what the device gives a block with the opt-in (163 KiB) */
    if ((uint64_t)m->shared + fn->static_shared > 163u * 1024u)
        return CDP_INVALID_CONFIGURATION;
    return CDP_SUCCESS;
}

/* The kernel a function address names: an entry of the launching kernel's module. */
static const struct kfunc *entry_at(const struct kwarp *w, uint64_t addr)
{
    const struct kmodule *m = w->top->fn->module;
    for (uint32_t i = 0; i < m->nfuncs; ++i)
        if ((uint64_t)(uintptr_t)m->funcs[i] == addr && m->funcs[i]->entry && m->funcs[i]->defined)
            return m->funcs[i];
    return NULL;
}

/* Launches the grid buffer s describes into `stream`: a cudaError_t. The buffer is the launch's
 * from here on (given back when its grid has run, or now if it does not run). */
static uint32_t launch(struct kwarp *w, struct kcdp *t, uint32_t s, uint64_t stream)
{
    struct klaunch *pl = w->b->l;
    struct kcdp_slot *m = slot_meta(t, s);
    uint32_t err = m->fn ? check_config(m) : CDP_INVALID_DEVICE_FUNCTION;
    if (!err && pl->depth + 1 > KCDP_MAX_DEPTH)
        err = CDP_LAUNCH_MAX_DEPTH_EXCEEDED;
    struct kchild *c = err ? NULL : calloc(1, sizeof(*c));
    if (!err && !c)
        err = CDP_LAUNCH_PENDING_COUNT_EXCEEDED; /* no host memory to queue it */
    if (err) {
        slot_give(t, s);
        return err;
    }
    c->slot = s;
    struct klaunch *l = &c->l;
    l->fn = m->fn;
    memcpy(l->grid, m->grid, sizeof(l->grid));
    memcpy(l->block, m->block, sizeof(l->block));
    l->dyn_shared = m->shared;
    l->params = slot_mem(t, s);
    l->stack_bytes = pl->stack_bytes > m->fn->local_bytes ? pl->stack_bytes : m->fn->local_bytes;
    l->printf_limit = pl->printf_limit;
    l->space = pl->space;
    l->workers = pl->workers;
    l->host = pl->host;
    l->pending_limit = pl->pending_limit;
    l->heap = pl->heap;       /* devrt: malloc in a child grid (the module's heap) */
    l->api_ctx = pl->api_ctx; /* devrt */
    l->parent = pl;
    l->depth = pl->depth + 1;
    if (stream == CDP_STREAM_TAIL || l->depth > KCDP_INLINE_DEPTH) {
        c->owner = pl;
        c->deferred = stream != CDP_STREAM_TAIL; /* devrt: too deep to run inside this call */
        os_mutex_lock(&t->lock);
        *t->tails_end = c;
        t->tails_end = &c->next;
        os_mutex_unlock(&t->lock);
    } else {
        child_run(t, c); /* runs now: the order a GPU may choose (above) */
    }
    return CDP_SUCCESS;
}

/* ---- devrt (issue 25): copies and fills of the tail stream, the tree's streams ---- */
uint32_t kcdp_queue_op(struct kwarp *w, const struct kdevrt_op *op, bool tail, bool *queued)
{
    struct klaunch *pl = w->b->l;
    *queued = false;
    /* Another stream's copy past the depth where launches run at once waits as they do, after
     * the launches before it (its stream's order). */
    if (!tail && pl->depth + 1 <= KCDP_INLINE_DEPTH)
        return CDP_SUCCESS;
    *queued = true;
    struct kcdp *t = tree_of(pl);
    /* A copy of the tail stream holds a pending launch until it ran; past the limit the H100's
     * device runtime answers cudaErrorUnknown (999), not cudaErrorLaunchPendingCountExceeded. */
    int64_t s = t ? slot_take(t) : -1;
    struct kchild *c = s >= 0 ? calloc(1, sizeof(*c)) : NULL;
    if (!c) {
        if (s >= 0)
            slot_give(t, (uint32_t)s);
        return 999;
    }
    c->slot = (uint32_t)s;
    c->is_op = true;
    c->op = *op;
    c->owner = pl;
    c->deferred = !tail;
    /* what kdevrt_op_run needs of a launch: the address space, and where a fault goes */
    c->l.space = pl->space;
    c->l.parent = pl;
    os_mutex_lock(&t->lock);
    *t->tails_end = c;
    t->tails_end = &c->next;
    os_mutex_unlock(&t->lock);
    return CDP_SUCCESS;
}

bool kcdp_stream_ok(struct kwarp *w, uint64_t stream)
{
    if (stream == 0 || stream == 2 /* cudaStreamPerThread */ || stream == CDP_STREAM_TAIL ||
        stream == CDP_STREAM_FIRE_AND_FORGET)
        return true;
    struct kcdp *t = atomic_load(&w->b->l->cdp);
    if (!t)
        return false;
    os_mutex_lock(&t->lock);
    bool ok = stream >= 0x1000 && stream < t->next_handle;
    os_mutex_unlock(&t->lock);
    return ok;
}

/* ---- The calls ---- */
static void get_dim3(const unsigned char *p, uint32_t d[3]) { memcpy(d, p, 12); }

static bool store(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t addr, uint64_t v, unsigned n)
{
    void *p = kmem(w, in, lane, KS_GENERIC, addr, n, true);
    if (!p)
        return false;
    memcpy(p, &v, n);
    return true;
}

void kcdp_call(struct kwarp *w, struct kframe *f, const struct kinsn *in, const struct kcall *c, uint32_t exec)
{
    uint32_t fb = f->fn->frame_param_bytes;
    struct klaunch *l = w->b->l;
    for (uint32_t mask = exec; mask; mask &= mask - 1) {
        uint32_t lane = (uint32_t)kctz(mask);
        unsigned char *pa = f->params + (size_t)lane * fb;
        uint64_t a[8] = {0}; /* devrt: cudaMemcpy2DAsync takes 8 */
        for (uint32_t i = 0; i < c->nargs && i < 8; ++i)
            memcpy(&a[i], pa + c->arg_offset[i], 8 <= fb - c->arg_offset[i] ? 8 : fb - c->arg_offset[i]);
        uint64_t ret = 0;
        unsigned ret_size = 4;
        uint32_t err = CDP_SUCCESS;
        bool sets_error = true; /* the call leaves its error for cudaGetLastError */
        switch (c->builtin) {
        case KB_CDP_GET_PARAMETER_BUFFER:
        case KB_CDP_GET_PARAMETER_BUFFER_V2: {
            ret_size = 8;
            struct kcdp *t = tree_of(l);
            const struct kfunc *fn = NULL;
            if (c->builtin == KB_CDP_GET_PARAMETER_BUFFER_V2) {
                fn = entry_at(w, a[0]);
                if (!fn)
                    err = CDP_INVALID_DEVICE_FUNCTION;
                else if (fn->param_bytes > KCDP_SLOT)
                    err = CDP_INVALID_VALUE;
            } else if (a[1] > KCDP_SLOT || (a[0] & (a[0] - 1)) || a[0] > KCDP_SLOT) {
                err = CDP_INVALID_VALUE; /* a size or an alignment no buffer has */
            }
            if (!t && !err)
                err = CDP_LAUNCH_PENDING_COUNT_EXCEEDED;
            if (!err) {
                int64_t s = slot_take(t);
                if (s < 0) {
                    err = (uint32_t)-s;
                } else {
                    struct kcdp_slot *m = slot_meta(t, (uint32_t)s);
                    if (fn) {
                        m->v2 = true;
                        m->fn = fn;
                        get_dim3(pa + c->arg_offset[1], m->grid);
                        get_dim3(pa + c->arg_offset[2], m->block);
                        memcpy(&m->shared, pa + c->arg_offset[3], 4);
                    }
                    ret = (uint64_t)(uintptr_t)slot_mem(t, (uint32_t)s);
                    memset(slot_mem(t, (uint32_t)s), 0, KCDP_SLOT);
                }
            }
            break;
        }
        case KB_CDP_LAUNCH_DEVICE_V2:
        case KB_CDP_LAUNCH_DEVICE: {
            struct kcdp *t = atomic_load(&l->cdp);
            uint64_t buf = c->builtin == KB_CDP_LAUNCH_DEVICE ? a[1] : a[0];
            uint64_t stream = c->builtin == KB_CDP_LAUNCH_DEVICE ? a[5] : a[1];
            int64_t s = t ? slot_at(t, buf) : -1;
            if (s < 0) {
                err = CDP_INVALID_VALUE; /* not a buffer cudaGetParameterBuffer gave, or launched already */
                break;
            }
            struct kcdp_slot *m = slot_meta(t, (uint32_t)s);
            if (c->builtin == KB_CDP_LAUNCH_DEVICE) {
                m->fn = entry_at(w, a[0]);
                get_dim3(pa + c->arg_offset[2], m->grid);
                get_dim3(pa + c->arg_offset[3], m->block);
                memcpy(&m->shared, pa + c->arg_offset[4], 4);
            } else if (!m->v2) {
                slot_give(t, (uint32_t)s);
                err = CDP_INVALID_VALUE; /* a buffer of cudaGetParameterBuffer has no launch configuration */
                break;
            }
            err = launch(w, t, (uint32_t)s, stream);
            break;
        }
        case KB_CDP_GET_LAST_ERROR:
            ret = (uint32_t)w->dev_error[lane];
            w->dev_error[lane] = 0;
            sets_error = false;
            break;
        case KB_CDP_PEEK_AT_LAST_ERROR:
            ret = (uint32_t)w->dev_error[lane];
            sets_error = false;
            break;
        case KB_CDP_GET_DEVICE:
            if (!store(w, in, lane, a[0], 0, 4))
                return;
            break;
        case KB_CDP_GET_DEVICE_COUNT:
            if (!store(w, in, lane, a[0], 1, 4))
                return;
            break;
        case KB_CDP_RUNTIME_GET_VERSION:
            /* devrt: the device runtime's own version, 6000 on the H100 with CUDA 13.0 (not the
             * host runtime's 13000; docs/probes/kernels/devrt) */
            if (!a[0]) {
                err = CDP_INVALID_VALUE;
                break;
            }
            if (!store(w, in, lane, a[0], 6000, 4))
                return;
            break;
        case KB_CDP_DEVICE_GET_ATTRIBUTE: {
            int v = 0;
            if ((uint32_t)a[2] != 0)
                err = CDP_INVALID_DEVICE;
            else if (!l->host || !l->host->device_attribute)
                err = CDP_NOT_SUPPORTED;
            else if (l->host->device_attribute((int)(uint32_t)a[1], 0, &v) != CUDA_SUCCESS)
                err = CDP_INVALID_VALUE;
            else if (!store(w, in, lane, a[0], (uint32_t)v, 4))
                return;
            break;
        }
        case KB_CDP_DEVICE_GET_LIMIT: {
            /* devrt (docs/probes/kernels/devrt): the context's limits, as the H100's device runtime
             * answers them: it never leaves its error for cudaGetLastError; NULL is
             * cudaErrorInvalidValue; cudaLimitDevRuntimeSyncDepth (3) and 9 are
             * cudaErrorUnsupportedLimit with the value SIZE_MAX; 0..10 are answered (7 the shared
             * memory per block, 8 zero, 10 the multiprocessor count), the rest cudaErrorInvalidValue. */
            sets_error = false;
            uint32_t lim = (uint32_t)a[1];
            uint64_t v = 0;
            if (!a[0]) {
                err = CDP_INVALID_VALUE;
                break;
            }
            if (lim == 3 || lim == 9) {
                if (!store(w, in, lane, a[0], UINT64_MAX, 8))
                    return;
                err = CDP_UNSUPPORTED_LIMIT;
                break;
            }
            if (lim > 10) {
                err = CDP_INVALID_VALUE;
                break;
            }
            if (lim == 10) {
                int n = 0;
                if (l->host && l->host->device_attribute)
                    l->host->device_attribute(16 /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */, 0, &n);
                v = (uint64_t)n;
            } else if (lim == 8) {
                v = 0;
            } else if (!l->host || !l->host->device_limit || l->host->device_limit(l->api_ctx, (int)lim, &v)) {
                /* no context to ask (a launch made without the API layer): the launch's own */
                v = lim == 0 ? l->stack_bytes : lim == 1 ? (l->printf_limit ? l->printf_limit : 8650752)
                  : lim == 4 ? l->pending_limit : lim == 5 ? 64 : 0;
            }
            if (!store(w, in, lane, a[0], v, 8))
                return;
            break;
        }
        case KB_CDP_STREAM_CREATE_WITH_FLAGS:
        case KB_CDP_EVENT_CREATE_WITH_FLAGS: {
            /* Handles of their own; work in a stream runs in launch order anyway (above), so a
             * stream or an event needs nothing more. Any flags are taken (the H200 took
             * cudaStreamDefault). */
            struct kcdp *t = tree_of(l);
            uint64_t h = 0;
            if (t) {
                os_mutex_lock(&t->lock);
                h = t->next_handle++;
                os_mutex_unlock(&t->lock);
            }
            if (!t)
                err = CDP_LAUNCH_PENDING_COUNT_EXCEEDED;
            else if (!store(w, in, lane, a[0], h, 8))
                return;
            break;
        }
        case KB_CDP_STREAM_DESTROY:
        case KB_CDP_EVENT_DESTROY:
        case KB_CDP_STREAM_WAIT_EVENT:
        case KB_CDP_EVENT_RECORD:
        case KB_CDP_EVENT_RECORD_WITH_FLAGS:
            break; /* every stream's work has run in order when the call returns (above) */
        default:
            /* devrt: the rest of the device runtime (devrt.c) */
            if (c->builtin == KB_CDP_MEMCPY_ASYNC || c->builtin == KB_CDP_MEMSET_ASYNC || c->builtin >= KB_DEVRT_FIRST) {
                if (!kdevrt_call(w, in, c, lane, pa, a, &ret, &ret_size, &err, &sets_error))
                    return;
                break;
            }
            kfault(w, in, lane, CUDA_ERROR_LAUNCH_FAILED, "device runtime function %d is not provided", c->builtin);
            return;
        }
        if (kfaulted(w))
            return;
        if (err) {
            if (sets_error) {
                w->dev_error[lane] = (int32_t)err;
                w->dirty |= KWARP_DIRTY_DEV_ERROR;
            }
            if (ret_size == 8)
                ret = 0;
            else
                ret = err;
        }
        if (c->has_ret)
            memcpy(pa + c->ret_offset, &ret, ret_size);
    }
}
