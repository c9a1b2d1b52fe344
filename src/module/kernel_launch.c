/*
 * cuLaunchKernel and cuLaunchKernelEx: a kernel of a module, queued as stream work and run
 * block by block on the worker pool by the kernel engine (DESIGN.md §13; docs/kernels.md).
 */
#include "module/module.h"
#include "exec/exec.h"
#include "exec/per_thread.h"
#include "image/image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- What the engine is given (src/kernel/kernel.h): the core, behind three objects ---- */
/* The address space: the address maps (memory.c). */
static bool kernel_extent(const struct kaddr_space *space, uintptr_t addr, size_t size, bool write, uintptr_t *lo,
                          uintptr_t *hi)
{
    (void)space;
    return mem_kernel_extent(addr, size, write, lo, hi);
}

static const struct kaddr_space address_space = {kernel_extent};

/* The workers: the device's pool (pool.c), this thread helping. */
struct pool_blocks {
    struct pool_job job; /* first: pool_block finds the rest from it */
    void (*block)(void *arg, uint64_t i);
    void *arg;
};

static void pool_block(struct pool_job *job, uint64_t index)
{
    struct pool_blocks *p = (struct pool_blocks *)job;
    p->block(p->arg, index);
}

static void pool_blocks_run(const struct kworkers *workers, uint64_t n, atomic_int *stop,
                            void (*block)(void *arg, uint64_t i), void *arg)
{
    (void)workers;
    struct pool_blocks p = {.job = {.run = pool_block, .count = n, .stop = stop}, .block = block, .arg = arg};
    pool_run(&p.job);
}

/* cudaGraphSetConditional from a kernel: the graphs' handles are src/graph's, above this folder,
 * which sets the hook when it makes the first (module.h). */
bool (*_Atomic kernel_set_conditional_hook)(uint64_t handle, uint32_t value);

static bool set_conditional(uint64_t handle, uint32_t value)
{
    bool (*hook)(uint64_t, uint32_t) = atomic_load(&kernel_set_conditional_hook);
    return hook && hook(handle, value);
}

/* grid (issue 25): cudaDeviceGetAttribute from a kernel (the device runtime, src/kernel/cdp.c). */
static int device_attribute(int attr, int device, int *value)
{
    return (int)cuDeviceGetAttribute(value, (CUdevice_attribute)attr, (CUdevice)device);
}

/* link part: free in a kernel (src/memory/heap.c), its answer in the engine's words. */
static int heap_free(void *heap, uint64_t addr)
{
    int r = mem_heap_free(heap, addr);
    return r == MEM_HEAP_FREED ? KHEAP_FREED : r == MEM_HEAP_NOT_A_BLOCK ? KHEAP_NOT_A_BLOCK
         : r == MEM_HEAP_FREED_BEFORE ? KHEAP_FREED_BEFORE : KHEAP_OUTSIDE;
}

/* devrt (issue 25): cudaDeviceGetLimit and the cache configuration from a kernel: the launch's
 * context's, as cuCtxGetLimit and cuCtxGetCacheConfig answer them. */
static int device_limit(void *api_ctx, int limit, uint64_t *value)
{
    struct ctx *ctx = api_ctx;
    if (!ctx)
        return CUDA_ERROR_NOT_SUPPORTED;
    os_mutex_lock(&ctx->lock);
    switch (limit) {
    case CU_LIMIT_STACK_SIZE: *value = ctx->stack_limit; break;
    case CU_LIMIT_PRINTF_FIFO_SIZE: *value = ctx->printf_fifo_limit; break;
    case CU_LIMIT_MALLOC_HEAP_SIZE: *value = ctx->malloc_heap_limit; break;
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: *value = ctx->pending_launch_limit; break;
    case CU_LIMIT_MAX_L2_FETCH_GRANULARITY: *value = 64; break;
    case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: *value = 0; break; /* no L2 set-aside (cuCtxGetLimit's 0) */
    case CU_LIMIT_SHMEM_SIZE: *value = DEVICE_SHARED_PER_BLOCK_OPTIN; break;
    case KDEVRT_CFG_CACHE: *value = (uint64_t)atomic_load(&ctx->cache_config); break;
    case KDEVRT_CFG_SHARED_MEM: *value = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE; break; /* as cuCtxGetSharedMemConfig */
    default: os_mutex_unlock(&ctx->lock); return CUDA_ERROR_INVALID_VALUE;
    }
    os_mutex_unlock(&ctx->lock);
    return CUDA_SUCCESS;
}

static int occupancy(const struct kfunc *fn, int block, uint64_t dyn)
{
    return function_occupancy_default(fn, block, (size_t)dyn);
}

/* The host: the device's threads and the library's unload (drain.c). */
static const struct khost host = {
    .device_attribute = device_attribute,
    .device_limit = device_limit, /* devrt */
    .occupancy = occupancy,
    .set_conditional = set_conditional,
    .image = image_for_kernel,
    .heap_alloc = mem_heap_alloc, /* link part */
    .heap_free = heap_free,
    .unloading = device_unloading,
    .thread_started = device_worker_started,
    .thread_unstarted = device_worker_leaving_unstarted,
    .thread_enter = device_thread_mark,
    .thread_leaving = device_worker_leaving,
};

struct kernel_work {
    struct work w;
    struct kworkers workers;
    struct klaunch l;
    struct module *mod; /* a reference: the decoded code outlives an unload until this ran */
    struct ctx *ctx;    /* a reference, for the sticky error */
    CUfunction handle;  /* for a capture's kernel node */
    bool cooperative;   /* grid (issue 25): launched as a cooperative launch (a capture's node says so) */
    unsigned named_cluster[3]; /* clusters: the cluster dimension the launch named (0: none; a capture's node says so) */
    void *extra[5];     /* describe: the parameters as cuLaunchKernel's `extra` */
    size_t extra_size;
    _Alignas(16) unsigned char params[];
};

static void discard(struct work *w)
{
    struct kernel_work *k = (struct kernel_work *)w;
    module_release(k->mod);
    ctx_release(k->ctx);
    if (!k->w.borrowed)
        free(k);
}

/* A capturing stream records the launch as a kernel node (src/graph), its parameters as they
 * were gathered at the call. */
static CUresult describe(struct work *w, CUgraphNodeParams *p)
{
    struct kernel_work *k = (struct kernel_work *)w;
    p->type = CU_GRAPH_NODE_TYPE_KERNEL;
    p->kernel.func = k->handle;
    p->kernel.gridDimX = k->l.grid[0];
    p->kernel.gridDimY = k->l.grid[1];
    p->kernel.gridDimZ = k->l.grid[2];
    p->kernel.blockDimX = k->l.block[0];
    p->kernel.blockDimY = k->l.block[1];
    p->kernel.blockDimZ = k->l.block[2];
    p->kernel.sharedMemBytes = k->l.dyn_shared;
    k->extra_size = k->l.fn->param_bytes;
    k->extra[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
    k->extra[1] = k->params;
    k->extra[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
    k->extra[3] = &k->extra_size;
    k->extra[4] = CU_LAUNCH_PARAM_END;
    p->kernel.extra = k->extra;
    return CUDA_SUCCESS;
}

/* How src/device/kernel_cancel.c ends a running launch (the watchdog, a teardown, the unload). */
static bool cancel_launch(void *launch, CUresult code, const char *reason)
{
    return klaunch_cancel(launch, code, reason);
}

static void run(struct work *w)
{
    struct kernel_work *k = (struct kernel_work *)w;
    /* After a fault the GPU runs no more of the context's work: neither does this device. */
    if (!atomic_load(&k->ctx->sticky)) {
        klaunch_init(&k->l);
        /* Listed as running: the watchdog, a teardown or the unload may end it. */
        struct kernel_run kr = {.launch = &k->l, .name = k->l.fn->name, .cancel = cancel_launch};
        kernel_run_begin(&kr);
        klaunch_run(&k->l); /* after a fault or a cancel, the blocks not yet started are skipped */
        kernel_run_end(&kr);
        CUresult r = klaunch_finish(&k->l);
        if (r)
            ctx_set_sticky(k->ctx, r, k->l.fault_reason);
    }
    discard(w);
}

struct launch {
    unsigned int grid[3], block[3];
    unsigned int shared;
    CUstream stream;
    bool cooperative; /* grid (issue 25): every block resident at once */
    bool explicit_cluster; /* isa (issue 25): a cluster dimension was given (%is_explicit_cluster) */
    unsigned int cluster[3]; /* clusters: the cluster dimension given (0: none) */
};

bool kernel_work_cooperative(const struct work *w)
{
    return w->run == run && ((const struct kernel_work *)w)->cooperative;
}

bool kernel_work_cluster(const struct work *w, unsigned dims[3])
{
    if (w->run != run || !((const struct kernel_work *)w)->named_cluster[0])
        return false;
    memcpy(dims, ((const struct kernel_work *)w)->named_cluster, sizeof(unsigned) * 3);
    return true;
}

/* grid (issue 25): a cooperative grid must fit on the device at once: at most the occupancy the
 * device reports for the kernel, its block size and shared memory, times the multiprocessors
 * (cuOccupancyMaxActiveBlocksPerMultiprocessor x MULTIPROCESSOR_COUNT), as on the GPU.
 * Dynamic shared memory past the kernel's limit leaves room for no block, which the driver
 * answers COOPERATIVE_LAUNCH_TOO_LARGE too (100000 bytes without the opt-in, on the H200). */
static uint64_t resident_limit(const struct function *f, const struct launch *c)
{
    int threads = (int)(c->block[0] * c->block[1] * c->block[2]);
    int per_sm = c->shared > (unsigned)function_max_dynamic_shared(f) ? 0 : function_occupancy(f, threads, c->shared);
    return (uint64_t)per_sm * pool_worker_count();
}

static CUresult check_cooperative(const char *fn, const struct function *f, const struct launch *c)
{
    uint64_t blocks = (uint64_t)c->grid[0] * c->grid[1] * c->grid[2];
    int threads = (int)(c->block[0] * c->block[1] * c->block[2]);
    int per_sm = c->shared > (unsigned)function_max_dynamic_shared(f) ? 0 : function_occupancy(f, threads, c->shared);
    uint64_t limit = resident_limit(f, c);
    if (blocks > limit)
        return fail(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "%s: a cooperative grid of %llu blocks of kernel %s: at "
                    "most %llu are resident at once (%d blocks of %d threads with %u bytes of dynamic shared memory "
                    "per multiprocessor, %u multiprocessors)", fn, (unsigned long long)blocks, f->kf->name,
                    (unsigned long long)limit, per_sm, threads, c->shared, pool_worker_count());
    return CUDA_SUCCESS;
}

static CUresult check_dims(const char *fn, const char *what, const unsigned int v[3], const unsigned int max[3])
{
    static const char axis[] = "xyz";
    for (int i = 0; i < 3; ++i) {
        if (v[i] == 0)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s.%c is 0", fn, what, axis[i]);
        if (v[i] > max[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s.%c is %u: the device allows at most %u", fn, what, axis[i],
                        v[i], max[i]);
    }
    return CUDA_SUCCESS;
}

/* clusters: the cluster shape of the launch (the one it names, else the kernel's), checked as
 * the H100's driver checks it (docs/probes/kernels/cluster): a shape of zero, one the grid is not
 * a multiple of, more blocks than 8 (16 with NON_PORTABLE_CLUSTER_SIZE_ALLOWED), or another than
 * the kernel's __cluster_dims__ is CUDA_ERROR_INVALID_CLUSTER_SIZE. */
static CUresult check_cluster(const char *fn, const struct function *f, const struct launch *c, unsigned out[3])
{
    unsigned req[3];
    bool required = function_required_cluster(f, req);
    out[0] = out[1] = out[2] = 1;
    if (!c->explicit_cluster && !required)
        return CUDA_SUCCESS;
    const unsigned *d = c->explicit_cluster ? c->cluster : req;
    if (!d[0] || !d[1] || !d[2])
        return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, "%s: a cluster of %ux%ux%u blocks: every dimension must be at "
                    "least 1", fn, d[0], d[1], d[2]);
    if (device_sm() < 90 && (uint64_t)d[0] * d[1] * d[2] > 1)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: kernel %s is launched in clusters of %ux%ux%u blocks: thread block "
                    "clusters need compute capability 9.0, and the software device claims %d.%d "
                    "(EXTMEM_COMPUTE_CAPABILITY=9.0 claims 9.0)", fn, f->kf->name, d[0], d[1], d[2],
                    device_sm() / 10, device_sm() % 10);
    if (c->explicit_cluster && required && (d[0] != req[0] || d[1] != req[1] || d[2] != req[2]))
        return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, "%s: clusters of %ux%ux%u blocks, but kernel %s requires "
                    "%ux%ux%u (__cluster_dims__ or CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_*)", fn, d[0], d[1], d[2],
                    f->kf->name, req[0], req[1], req[2]);
    uint64_t n = (uint64_t)d[0] * d[1] * d[2];
    unsigned max = function_max_cluster(f);
    if (n > max)
        return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, "%s: a cluster of %ux%ux%u is %llu blocks: kernel %s allows at "
                    "most %u%s", fn, d[0], d[1], d[2], (unsigned long long)n, f->kf->name, max,
                    max == 8 ? " (16 with CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)" : "");
    for (int i = 0; i < 3; ++i)
        if (c->grid[i] % d[i])
            return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, "%s: a grid of %ux%ux%u is not a whole number of clusters "
                        "of %ux%ux%u", fn, c->grid[0], c->grid[1], c->grid[2], d[0], d[1], d[2]);
    memcpy(out, d, sizeof(unsigned) * 3);
    return CUDA_SUCCESS;
}

static CUresult check_shape(const char *fn, const struct function *f, const struct launch *c)
{
    static const unsigned int grid_max[3] = {2147483647u, 65535u, 65535u};
    static const unsigned int block_max[3] = {1024u, 1024u, 64u};
    CUresult r;
    if ((r = check_dims(fn, "grid", c->grid, grid_max)) || (r = check_dims(fn, "block", c->block, block_max)))
        return r;
    if (c->cooperative && (uint64_t)c->block[0] * c->block[1] * c->block[2] <= 1024 &&
        (r = check_cooperative(fn, f, c)))
        return r;
    const struct kfunc *kf = f->kf;
    uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
    if (threads > 1024)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: a block of %ux%ux%u is %llu threads: at most 1024", fn, c->block[0],
                    c->block[1], c->block[2], (unsigned long long)threads);
    if (kf->reqntid[0]) {
        for (int i = 0; i < 3; ++i)
            if (c->block[i] != (kf->reqntid[i] ? kf->reqntid[i] : 1))
                return fail(CUDA_ERROR_INVALID_VALUE, "%s: kernel %s requires blocks of %ux%ux%u (.reqntid), not %ux%ux%u",
                            fn, kf->name, kf->reqntid[0], kf->reqntid[1] ? kf->reqntid[1] : 1,
                            kf->reqntid[2] ? kf->reqntid[2] : 1, c->block[0], c->block[1], c->block[2]);
    } else if (threads > function_max_threads(kf)) {
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: kernel %s allows at most %u threads per block (.maxntid, "
                    "__launch_bounds__), not %llu", fn, kf->name, function_max_threads(kf), (unsigned long long)threads);
    }
    int max_dyn = function_max_dynamic_shared(f);
    if (c->shared > (unsigned)max_dyn) {
        bool raised = atomic_load(&((struct function *)f)->max_dynamic_shared) >= 0;
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %u bytes of dynamic shared memory for kernel %s: %s %d%s", fn,
                    c->shared, kf->name, raised ? "its raised limit is" : "without opting in the limit is", max_dyn,
                    raised ? "" : " (48 KiB less its static shared memory; raise it with cuFuncSetAttribute("
                                  "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES))");
    }
    return CUDA_SUCCESS;
}

/* The size of a buffer laid out as the parameters are: a C struct of them may end with padding
 * up to the largest parameter's alignment. */
static size_t params_padded(const struct kfunc *kf)
{
    uint32_t align = 1;
    for (uint32_t i = 0; i < kf->nparams; ++i)
        align = kf->params[i].align > align ? kf->params[i].align : align;
    return (kf->param_bytes + align - 1) / align * align;
}

/* Copies the parameters into buf (kf->param_bytes). */
static CUresult gather_params(const char *fn, const struct kfunc *kf, void **kernelParams, void **extra,
                              unsigned char *buf)
{
    if (kernelParams && extra)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: both kernelParams and extra are given: pass one", fn);
    if (kernelParams) {
        for (uint32_t i = 0; i < kf->nparams; ++i) {
            if (!kernelParams[i])
                return fail(CUDA_ERROR_INVALID_VALUE, "%s: kernelParams[%u] (parameter %s of kernel %s) is NULL", fn, i,
                            kf->params[i].name, kf->name);
            memcpy(buf + kf->params[i].offset, kernelParams[i], kf->params[i].size);
        }
        return CUDA_SUCCESS;
    }
    if (!extra) {
        if (kf->nparams)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: kernel %s has %u parameters but neither kernelParams nor extra "
                        "is given", fn, kf->name, kf->nparams);
        return CUDA_SUCCESS;
    }
    const void *data = NULL;
    const size_t *size = NULL;
    for (unsigned i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            data = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = extra[i + 1];
        else
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: extra[%u] is %p, not CU_LAUNCH_PARAM_BUFFER_POINTER, "
                        "CU_LAUNCH_PARAM_BUFFER_SIZE or CU_LAUNCH_PARAM_END", fn, i, extra[i]);
    }
    if (!data || !size)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: extra has no %s", fn,
                    !data ? "CU_LAUNCH_PARAM_BUFFER_POINTER (or it is NULL)" : "CU_LAUNCH_PARAM_BUFFER_SIZE");
    size_t padded = params_padded(kf);
    if (*size < kf->param_bytes || *size > padded)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the parameter buffer is %zu bytes but kernel %s's parameters take %u",
                    fn, *size, kf->name, kf->param_bytes);
    memcpy(buf, data, kf->param_bytes);
    return CUDA_SUCCESS;
}

CUresult kernel_args_copy(const char *fn, CUfunction hf, void **kernelParams, void **extra, struct kernel_args *out)
{
    memset(out, 0, sizeof(*out));
    struct function *f;
    CUresult r = function_lookup(fn, hf, &f);
    if (r)
        return r;
    const struct kfunc *kf = f->kf;
    out->size = kf->param_bytes;
    out->count = kf->nparams;
    out->buf = calloc(1, kf->param_bytes + 1);
    out->offsets = calloc(kf->nparams + 1, sizeof(*out->offsets));
    if (!out->buf || !out->offsets)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for kernel %s's parameters", fn, kf->name);
    else if (!(r = gather_params(fn, kf, kernelParams, extra, out->buf)))
        for (uint32_t i = 0; i < kf->nparams; ++i)
            out->offsets[i] = kf->params[i].offset;
    if (r) {
        free(out->buf);
        free(out->offsets);
        memset(out, 0, sizeof(*out));
    }
    function_release(f);
    return r;
}

static CUresult launch(const char *fn, CUfunction hf, const struct launch *c, void **kernelParams, void **extra)
{
    struct target t;
    CUresult r = target_get(fn, c->stream, &t);
    if (r)
        return r;
    struct function *f = NULL;
    struct kernel_work *k = NULL;
    if ((r = function_lookup(fn, hf, &f)))
        goto out;
    if (f->mod->ctx != t.ctx) {
        r = fail(CUDA_ERROR_INVALID_HANDLE, "%s: function 0x%llx belongs to a module of another context", fn,
                 (unsigned long long)(uintptr_t)hf);
        goto out;
    }
    if ((r = check_shape(fn, f, c)))
        goto out;
    unsigned cluster[3];
    if ((r = check_cluster(fn, f, c, cluster)))
        goto out;
    const struct kfunc *kf = f->kf;
    size_t size = sizeof(*k) + kf->param_bytes + 1;
    /* A graph's launch has memory of its own for its kernels' work, kept from launch to launch. */
    bool borrowed = t.sink && t.sink->alloc;
    if (!(k = borrowed ? t.sink->alloc(t.sink, size) : calloc(1, size))) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the launch", fn);
        goto out;
    }
    k->w.borrowed = borrowed;
    if ((r = gather_params(fn, kf, kernelParams, extra, k->params)))
        goto out;
    k->w.run = run;
    k->w.discard = discard;
    k->w.describe = describe;
    k->handle = hf;
    k->workers.count = pool_worker_count();
    k->workers.run = pool_blocks_run;
    k->l.fn = kf;
    k->l.space = &address_space;
    k->l.workers = &k->workers;
    k->l.host = &host;
    k->l.api_ctx = t.ctx; /* devrt: k holds a reference (below) */
    if (kf->module->uses_heap && (r = mem_heap_get(fn, t.ctx, &k->l.heap))) /* link part: malloc, free */
        goto out;
    memcpy(k->l.grid, c->grid, sizeof(k->l.grid));
    memcpy(k->l.block, c->block, sizeof(k->l.block));
    k->l.dyn_shared = c->shared;
    k->l.explicit_cluster = c->explicit_cluster || cluster[0] * cluster[1] * cluster[2] > 1 ||
                            kf->explicitcluster;
    memcpy(k->l.cluster, cluster, sizeof(k->l.cluster));
    if (c->explicit_cluster)
        memcpy(k->named_cluster, cluster, sizeof(k->named_cluster));
    k->l.params = k->params;
    k->cooperative = c->cooperative;
    /* A plain launch of a kernel that reads the grid workspace (cooperative_groups' grid group)
     * whose grid the device holds at once runs as a cooperative one too: on a GPU all its
     * blocks would be resident, so a grid.sync() that works there works here (a larger grid
     * deadlocks on both). */
    k->l.cooperative = c->cooperative ||
                       (kf->module->reads_workspace &&
                        (uint64_t)c->grid[0] * c->grid[1] * c->grid[2] <= resident_limit(f, c));
    k->l.parent = NULL;
    k->l.depth = 0;
    os_mutex_lock(&t.ctx->lock);
    uint32_t stack = t.ctx->stack_limit;
    k->l.printf_limit = t.ctx->printf_fifo_limit;
    size_t pending = t.ctx->pending_launch_limit;
    os_mutex_unlock(&t.ctx->lock);
    k->l.pending_limit = pending > UINT32_MAX ? UINT32_MAX : (uint32_t)pending;
    k->l.stack_bytes = stack > kf->local_bytes ? stack : kf->local_bytes;
    obj_retain(&f->mod->base);
    k->mod = f->mod;
    obj_retain(&t.ctx->base);
    k->ctx = t.ctx;
    r = target_submit(&t, &k->w);
    k = NULL;
out:
    if (k && !k->w.borrowed)
        free(k);
    if (f)
        function_release(f);
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    struct launch c = {{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes, hStream, false, false, {0, 0, 0}};
    return launch("cuLaunchKernel", f, &c, kernelParams, extra);
}

/* grid (issue 25): cooperative launches. The grid's blocks are all resident at once (the
 * engine runs them as resumable contexts, src/kernel/exec.c), so they may wait for each other:
 * cooperative_groups' grid.sync(). A larger grid than the device holds at once is refused. */
CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                           void **kernelParams)
{
    const char *fn = "cuLaunchCooperativeKernel";
    REQUIRE_INIT(fn);
    struct launch c = {{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes, hStream, true, false, {0, 0, 0}};
    return launch(fn, f, &c, kernelParams, NULL);
}

CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                                unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                                void **kernelParams)
{
    return cuLaunchCooperativeKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                                     per_thread(hStream), kernelParams);
}

/* Deprecated since CUDA 11.3, still exported: one launch per device of the list. The software
 * device is one device, so the list has one entry; the flags say whether the launch waits for
 * the device's other work first and whether that work waits for it, which stream order gives
 * here anyway (the launch is queued on its stream as cuLaunchCooperativeKernel's). */
CUresult CUDAAPI cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices,
                                                      unsigned int flags)
{
    const char *fn = "cuLaunchCooperativeKernelMultiDevice";
    REQUIRE_INIT(fn);
    if (!launchParamsList)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: launchParamsList is NULL", fn);
    if (numDevices != 1)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numDevices is %u: the software device is the one device there is",
                    fn, numDevices);
    if (flags & ~(unsigned int)(CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
                                CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: only the NO_PRE_LAUNCH_SYNC (1) and "
                    "NO_POST_LAUNCH_SYNC (2) flags are defined", fn, flags);
    const CUDA_LAUNCH_PARAMS *p = launchParamsList;
    if (!p->hStream)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: launchParamsList[0].hStream is NULL: each launch needs a stream "
                    "the program created (the H200 refuses the NULL stream too)", fn);
    struct launch c = {{p->gridDimX, p->gridDimY, p->gridDimZ}, {p->blockDimX, p->blockDimY, p->blockDimZ},
                       p->sharedMemBytes, p->hStream, true, false, {0, 0, 0}};
    return launch(fn, p->function, &c, p->kernelParams, NULL);
}

static CUresult check_attributes(const char *fn, const CUlaunchConfig *config, bool *cooperative)
{
    *cooperative = false;
    if (config->numAttrs && !config->attrs)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: config->numAttrs is %u but config->attrs is NULL", fn,
                    config->numAttrs);
    for (unsigned i = 0; i < config->numAttrs; ++i) {
        const CUlaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case CU_LAUNCH_ATTRIBUTE_IGNORE:
        case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        case CU_LAUNCH_ATTRIBUTE_PRIORITY:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
        case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
            break; /* hints and orderings a device running one kernel's blocks on CPU threads meets anyway */
        case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
            if (a->value.sharedMemCarveout > 100 && a->value.sharedMemCarveout != (unsigned)-1)
                return fail(CUDA_ERROR_INVALID_VALUE, "%s: attrs[%u]: a shared memory carveout of %u%%", fn, i,
                            a->value.sharedMemCarveout);
            break;
        case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
            /* grid (issue 25): nonzero makes it a cooperative launch (the last such attribute
             * decides), as cuLaunchCooperativeKernel's */
            *cooperative = a->value.cooperative != 0;
            break;
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
            break; /* clusters: checked with the kernel (check_cluster) */
        case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION: {
            unsigned x = a->value.clusterDim.x, y = a->value.clusterDim.y, z = a->value.clusterDim.z;
            if (x > 1 || y > 1 || z > 1)
                return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: attrs[%u]: a preferred cluster shape of %ux%ux%u: preferred "
                            "clusters (compute capability 10.0) are not supported; name the shape with "
                            "CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION", fn, i, x, y, z);
            break;
        }
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
        case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
        case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: attrs[%u]: launch attribute %d is not supported by the software "
                        "device", fn, i, (int)a->id);
        default:
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: attrs[%u].id is %d, not a CUlaunchAttributeID", fn, i, (int)a->id);
        }
    }
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    const char *fn = "cuLaunchKernelEx";
    REQUIRE_INIT(fn);
    if (!config)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: config is NULL", fn);
    bool cooperative;
    CUresult r = check_attributes(fn, config, &cooperative);
    if (r)
        return r;
    struct launch c = {{config->gridDimX, config->gridDimY, config->gridDimZ},
                       {config->blockDimX, config->blockDimY, config->blockDimZ},
                       config->sharedMemBytes,
                       config->hStream,
                       cooperative,
                       false,
                       {0, 0, 0}};
    for (unsigned i = 0; i < config->numAttrs; ++i) /* isa: checked above */
        if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            c.explicit_cluster = true; /* the last one decides */
            c.cluster[0] = config->attrs[i].value.clusterDim.x;
            c.cluster[1] = config->attrs[i].value.clusterDim.y;
            c.cluster[2] = config->attrs[i].value.clusterDim.z;
        }
    return launch(fn, f, &c, kernelParams, extra);
}

/* ---- The legacy launch path ----
 * CUDA 1.x's calls, which PyCUDA still makes: a function keeps a block shape, a dynamic shared
 * size and a parameter buffer, set one call at a time, and cuLaunch* launches with them. The
 * buffer is 4096 bytes (the driver's limit on a kernel's parameters of that era); cuParamSetSize
 * says how much of it the launch passes. */
#define LEGACY_PARAM_BYTES 4096

struct legacy_launch {
    unsigned int block[3]; /* all 0 until cuFuncSetBlockShape */
    unsigned int shared;
    unsigned int size;
    unsigned char params[LEGACY_PARAM_BYTES];
};

/* The door of the legacy calls: the function (a reference) and its state, made on first use,
 * with f->mod->lock held on success; legacy_leave lets go of both. */
static CUresult legacy_enter(const char *fn, CUfunction hf, struct function **f, struct legacy_launch **l)
{
    REQUIRE_INIT(fn);
    CUresult r = function_lookup(fn, hf, f);
    if (r)
        return r;
    os_mutex_lock(&(*f)->mod->lock);
    if (!(*f)->legacy && !((*f)->legacy = calloc(1, sizeof(*(*f)->legacy)))) {
        os_mutex_unlock(&(*f)->mod->lock);
        function_release(*f);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the function's launch state", fn);
    }
    *l = (*f)->legacy;
    return CUDA_SUCCESS;
}

static void legacy_leave(struct function *f)
{
    os_mutex_unlock(&f->mod->lock);
    function_release(f);
}

CUresult CUDAAPI cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z)
{
    const char *fn = "cuFuncSetBlockShape";
    struct function *f;
    struct legacy_launch *l;
    CUresult r = legacy_enter(fn, hfunc, &f, &l);
    if (r)
        return r;
    if (x <= 0 || y <= 0 || z <= 0 || x > 1024 || y > 1024 || z > 64 || (int64_t)x * y * z > 1024)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a block of %dx%dx%d: each dimension must be positive, x and y at "
                 "most 1024, z at most 64, and at most 1024 threads in all", fn, x, y, z);
    else
        l->block[0] = (unsigned)x, l->block[1] = (unsigned)y, l->block[2] = (unsigned)z;
    legacy_leave(f);
    return r;
}

CUresult CUDAAPI cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes)
{
    struct function *f;
    struct legacy_launch *l;
    CUresult r = legacy_enter("cuFuncSetSharedSize", hfunc, &f, &l);
    if (r)
        return r;
    l->shared = bytes; /* checked by the launch, as cuLaunchKernel checks its own */
    legacy_leave(f);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuParamSetSize(CUfunction hfunc, unsigned int numbytes)
{
    struct function *f;
    struct legacy_launch *l;
    CUresult r = legacy_enter("cuParamSetSize", hfunc, &f, &l);
    if (r)
        return r;
    /* Any size is taken, as by the driver (5000 included); the launch checks it against the
     * kernel's parameters. */
    l->size = numbytes;
    legacy_leave(f);
    return CUDA_SUCCESS;
}

static CUresult param_set(const char *fn, CUfunction hfunc, int offset, const void *ptr, unsigned int numbytes)
{
    struct function *f;
    struct legacy_launch *l;
    CUresult r = legacy_enter(fn, hfunc, &f, &l);
    if (r)
        return r;
    if (!ptr)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: ptr is NULL", fn);
    else if (offset < 0 || (uint64_t)offset + numbytes > LEGACY_PARAM_BYTES)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %u bytes at offset %d: the parameter buffer is %d bytes", fn, numbytes,
                 offset, LEGACY_PARAM_BYTES);
    else
        memcpy(l->params + offset, ptr, numbytes);
    legacy_leave(f);
    return r;
}

CUresult CUDAAPI cuParamSeti(CUfunction hfunc, int offset, unsigned int value)
{
    return param_set("cuParamSeti", hfunc, offset, &value, sizeof(value));
}

CUresult CUDAAPI cuParamSetf(CUfunction hfunc, int offset, float value)
{
    return param_set("cuParamSetf", hfunc, offset, &value, sizeof(value));
}

CUresult CUDAAPI cuParamSetv(CUfunction hfunc, int offset, void *ptr, unsigned int numbytes)
{
    return param_set("cuParamSetv", hfunc, offset, ptr, numbytes);
}

CUresult CUDAAPI cuParamSetTexRef(CUfunction hfunc, int texunit, CUtexref hTexRef)
{
    const char *fn = "cuParamSetTexRef";
    REQUIRE_INIT(fn);
    struct function *f;
    CUresult r = function_lookup(fn, hfunc, &f);
    if (r)
        return r;
    function_release(f);
    (void)hTexRef;
    return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: texunit %d: the software device has no texture references (removed "
                "from CUDA 12; bind textures with texture objects)", fn, texunit);
}

static CUresult legacy_launch(const char *fn, CUfunction hfunc, int width, int height, CUstream stream)
{
    struct function *f;
    struct legacy_launch *l;
    CUresult r = legacy_enter(fn, hfunc, &f, &l);
    if (r)
        return r;
    /* The state as it is now: later cuParamSet* calls do not reach this launch. */
    struct launch c = {{(unsigned)width, (unsigned)height, 1}, {l->block[0], l->block[1], l->block[2]}, l->shared,
                       stream, false, false, {0, 0, 0}};
    size_t size = l->size;
    unsigned char *buf = malloc(LEGACY_PARAM_BYTES);
    if (buf)
        memcpy(buf, l->params, LEGACY_PARAM_BYTES);
    const struct kfunc *kf = f->kf;
    size_t padded = params_padded(kf);
    if (!buf)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    else if (width <= 0 || height <= 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: a grid of %dx%d: both must be positive", fn, width, height);
    else if (!c.block[0])
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: kernel %s has no block shape: call cuFuncSetBlockShape first", fn,
                 kf->name);
    else if (size < kf->param_bytes)
        /* The driver launches, reads past the parameters it was given and faults (ILLEGAL_ADDRESS,
         * docs/driver-observations.md): extmem refuses instead (DESIGN.md §4). */
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: cuParamSetSize gave %zu bytes of parameters but kernel %s's take %u: "
                 "the kernel would read past them", fn, size, kf->name, kf->param_bytes);
    else if (size > padded)
        r = fail(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "%s: cuParamSetSize gave %zu bytes of parameters but kernel %s's "
                 "take %u (the driver's code for a size too large)", fn, size, kf->name, kf->param_bytes);
    legacy_leave(f);
    if (!r) {
        void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
        r = launch(fn, hfunc, &c, NULL, extra);
    }
    free(buf);
    return r;
}

CUresult CUDAAPI cuLaunch(CUfunction f) { return legacy_launch("cuLaunch", f, 1, 1, NULL); }

CUresult CUDAAPI cuLaunchGrid(CUfunction f, int grid_width, int grid_height)
{
    return legacy_launch("cuLaunchGrid", f, grid_width, grid_height, NULL);
}

CUresult CUDAAPI cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream)
{
    return legacy_launch("cuLaunchGridAsync", f, grid_width, grid_height, hStream);
}

/* ---- Per-thread default stream variants ---- */
CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                     unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                     unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    return cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                          per_thread(hStream), kernelParams, extra);
}

CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    if (!config || config->hStream)
        return cuLaunchKernelEx(config, f, kernelParams, extra);
    CUlaunchConfig c = *config;
    c.hStream = CU_STREAM_PER_THREAD;
    return cuLaunchKernelEx(&c, f, kernelParams, extra);
}
