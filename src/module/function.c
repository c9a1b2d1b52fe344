/*
 * Functions: a module's kernels as handles, their attributes, and the occupancy calculator
 * (module.h; docs/kernels.md says what each attribute is on the software device).
 */
#include "module/module.h"

#include <string.h>

void function_release(struct function *f) { obj_release(&f->base); }

CUresult function_lookup(const char *fn, CUfunction handle, struct function **out)
{
    uint64_t h = (uint64_t)(uintptr_t)handle;
    struct obj *o;
    obj_status st = obj_lookup(h, OBJ_FUNCTION, &o);
    if (st == OBJ_WRONG_TYPE && OBJ_HANDLE_TYPE(h) == OBJ_KERNEL)
        return kernel_function(fn, h, out); /* the driver takes a CUkernel for a CUfunction */
    if (st == OBJ_DESTROYED)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: function 0x%llx belonged to a module that was unloaded (or its "
                    "context destroyed)", fn, (unsigned long long)h);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn, obj_status_text(st, OBJ_FUNCTION, h));
    *out = (struct function *)o;
    return CUDA_SUCCESS;
}

unsigned function_max_threads(const struct kfunc *kf) { return kfunc_max_threads(kf); }

int function_max_dynamic_shared(const struct function *f)
{
    int set = atomic_load(&((struct function *)f)->max_dynamic_shared);
    if (set >= 0)
        return set;
    /* Without opting in, static and dynamic shared memory share 48 KiB, as on the GPU. */
    int left = DEVICE_SHARED_PER_BLOCK - (int)f->kf->static_shared;
    return left > 0 ? left : 0;
}

static int const_bytes(const struct kmodule *km)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < km->nvars; ++i)
        if (km->vars[i].space == KS_CONST)
            n += km->vars[i].size;
    return n > INT32_MAX ? INT32_MAX : (int)n;
}

static int num_regs(const struct kfunc *kf) { return kf->nregs > 255 ? 255 : (int)kf->nregs; }

static CUresult attribute(const char *fn, const struct function *f, CUfunction_attribute a, int *pi)
{
    const struct kfunc *kf = f->kf;
    struct function *mf = (struct function *)f;
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = (int)function_max_threads(kf); break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)kf->static_shared; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = const_bytes(f->mod->km); break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)kf->local_bytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = num_regs(kf); break;
    /* The virtual architecture the PTX was written for (.target sm_75: 75), as the driver
     * reports for JIT-compiled PTX; the binary is made for the device itself. */
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = (int)f->mod->km->target_sm; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = device_sm(); break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = function_max_dynamic_shared(f); break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = atomic_load(&mf->carveout); break;
    /* clusters: __cluster_dims__ (.explicitcluster, .reqnctapercluster) as the H100 reports
     * them (1 and 4, 1, 1 for __cluster_dims__(4, 1, 1); docs/probes/kernels/cluster) */
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = kf->explicitcluster; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: {
        int i = a - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH;
        *pi = kf->reqnctapercluster[0] ? (int)kf->reqnctapercluster[i] : atomic_load(&mf->required_cluster[i]);
        break;
    }
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *pi = atomic_load(&mf->non_portable_cluster); break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = atomic_load(&mf->cluster_policy); break;
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d is not a CUfunction_attribute (0..%d)", fn, (int)a,
                    CU_FUNC_ATTRIBUTE_MAX - 1);
    }
    return CUDA_SUCCESS;
}

static CUresult set_attribute(const char *fn, struct function *f, CUfunction_attribute a, int value)
{
    int lo = 0, hi = 1;
    atomic_int *slot = NULL;
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        hi = DEVICE_SHARED_PER_BLOCK_OPTIN - (int)f->kf->static_shared;
        slot = &f->max_dynamic_shared;
        break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        lo = -1;
        hi = 100;
        slot = &f->carveout;
        break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: slot = &f->non_portable_cluster; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        hi = CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING;
        slot = &f->cluster_policy;
        break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        /* clusters: a shape set at compile time (__cluster_dims__) cannot be changed; the
         * shape's validity is checked at launch, as the driver's API documents */
        if (f->kf->reqnctapercluster[0])
            return fail(CUDA_ERROR_NOT_PERMITTED, "%s: kernel %s has a cluster shape of %ux%ux%u from compile time "
                        "(__cluster_dims__): it cannot be set at run time", fn, f->kf->name,
                        f->kf->reqnctapercluster[0], f->kf->reqnctapercluster[1], f->kf->reqnctapercluster[2]);
        hi = KMAX_CLUSTER;
        slot = &f->required_cluster[a - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH];
        break;
    default:
        if ((int)a >= 0 && a < CU_FUNC_ATTRIBUTE_MAX)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d is read-only", fn, (int)a);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d is not a CUfunction_attribute (0..%d)", fn, (int)a,
                    CU_FUNC_ATTRIBUTE_MAX - 1);
    }
    if (value < lo || value > hi)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d of kernel %s: %d is outside %d..%d%s", fn, (int)a,
                    f->kf->name, value, lo, hi,
                    a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
                        ? " (163 KiB of shared memory per block, less the kernel's static shared memory)"
                        : "");
    if (slot)
        atomic_store(slot, value);
    return CUDA_SUCCESS;
}

/* The door of the function calls: initialised, a function (or kernel), with a reference. */
static CUresult enter(const char *fn, CUfunction hfunc, struct function **f)
{
    REQUIRE_INIT(fn);
    return function_lookup(fn, hfunc, f);
}

CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    REQUIRE_INIT("cuFuncGetAttribute");
    if (!pi)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuFuncGetAttribute: pi is NULL");
    struct function *f;
    CUresult r = enter("cuFuncGetAttribute", hfunc, &f);
    if (r)
        return r;
    r = attribute("cuFuncGetAttribute", f, attrib, pi);
    function_release(f);
    return r;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    struct function *f;
    CUresult r = enter("cuFuncSetAttribute", hfunc, &f);
    if (r)
        return r;
    r = set_attribute("cuFuncSetAttribute", f, attrib, value);
    function_release(f);
    return r;
}

CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    struct function *f;
    CUresult r = enter("cuFuncSetCacheConfig", hfunc, &f);
    if (r)
        return r;
    /* A preference only: the software device has no L1 to split. */
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuFuncSetCacheConfig: config %d is not a CUfunc_cache (0..3)", (int)config);
    else
        atomic_store(&f->cache_config, (int)config);
    function_release(f);
    return r;
}

CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
    struct function *f;
    CUresult r = enter("cuFuncSetSharedMemConfig", hfunc, &f);
    if (r)
        return r;
    /* Bank sizes are fixed since compute capability 5.0, on the software device too. */
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuFuncSetSharedMemConfig: config %d is not a CUsharedconfig (0..2)",
                 (int)config);
    function_release(f);
    return r;
}

CUresult CUDAAPI cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    REQUIRE_INIT("cuFuncGetModule");
    if (!hmod)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuFuncGetModule: hmod is NULL");
    struct function *f;
    CUresult r = enter("cuFuncGetModule", hfunc, &f);
    if (r)
        return r;
    *hmod = (CUmodule)(uintptr_t)f->mod->base.handle;
    function_release(f);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction hfunc)
{
    REQUIRE_INIT("cuFuncGetName");
    if (!name)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuFuncGetName: name is NULL");
    struct function *f;
    CUresult r = enter("cuFuncGetName", hfunc, &f);
    if (r)
        return r;
    *name = f->kf->name; /* lives as long as the module */
    function_release(f);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    struct function *f;
    CUresult r = enter("cuFuncGetParamInfo", func, &f);
    if (r)
        return r;
    if (!paramOffset && !paramSize)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuFuncGetParamInfo: paramOffset and paramSize are both NULL");
    else if (paramIndex >= f->kf->nparams)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuFuncGetParamInfo: kernel %s has %u parameters, not %zu", f->kf->name,
                 f->kf->nparams, paramIndex + 1);
    if (!r && paramOffset)
        *paramOffset = f->kf->params[paramIndex].offset;
    if (!r && paramSize)
        *paramSize = f->kf->params[paramIndex].size;
    function_release(f);
    return r;
}

CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
    REQUIRE_INIT("cuFuncIsLoaded");
    if (!state)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuFuncIsLoaded: state is NULL");
    struct function *f;
    CUresult r = enter("cuFuncIsLoaded", function, &f);
    if (r)
        return r;
    *state = CU_FUNCTION_LOADING_STATE_LOADED; /* decoded when its module loaded */
    function_release(f);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncLoad(CUfunction function)
{
    struct function *f;
    CUresult r = enter("cuFuncLoad", function, &f);
    if (r)
        return r;
    function_release(f);
    return CUDA_SUCCESS;
}

/* ---- Occupancy ----
 * A model of one sm_80 multiprocessor: 2048 threads, 32 blocks, 65536 registers (allocated
 * per warp in units of 256), 164 KiB of shared memory with 1 KiB reserved per block. The
 * software device runs blocks on CPU threads and is not limited this way; the numbers let
 * programs size their grids as they would for a GPU. */

/* devrt (issue 25): the shared memory a multiprocessor gives the blocks under a carveout
 * preference (cuFuncSetAttribute PREFERRED_SHARED_MEMORY_CARVEOUT, percent), as CUDA's occupancy
 * calculator takes it (cuda_occupancy.h, cudaOccSMemPreferenceVoltaPlus): the preference's share
 * of the multiprocessor's shared memory, rounded up to a size the sm_80 multiprocessor has (0, 8,
 * 16, 32, 64, 100, 132 or 164 KiB); when that holds no block, the size that holds one. -1: all. */
static size_t carveout_shared(int carveout, size_t per_block)
{
    static const size_t sizes_kib[] = {0, 8, 16, 32, 64, 100, 132, 164};
    size_t want = carveout < 0 ? DEVICE_SHARED_PER_SM : (size_t)carveout * DEVICE_SHARED_PER_SM / 100;
    if (want < per_block)
        want = per_block;
    for (size_t i = 0; i < sizeof(sizes_kib) / sizeof(sizes_kib[0]); ++i)
        if (want <= sizes_kib[i] * 1024)
            return sizes_kib[i] * 1024;
    return DEVICE_SHARED_PER_SM;
}

static int occupancy_model(const struct kfunc *kf, int block, size_t dyn, int max_dyn, int carveout)
{
    /* Dynamic shared memory past what the kernel may have (48 KiB less its static shared memory
     * unless cuFuncSetAttribute raised it): no block fits, as the H200 answers (docs/probes/
     * kernels/grid). */
    if (block <= 0 || (unsigned)block > function_max_threads(kf) ||
        dyn > (size_t)DEVICE_SHARED_PER_BLOCK_OPTIN || dyn > (size_t)max_dyn)
        return 0;
    int warps = (block + 31) / 32;
    int by_threads = DEVICE_THREADS_PER_SM / (warps * 32);
    int regs = (num_regs(kf) + 7) / 8 * 8;
    int per_warp = (regs * 32 + 255) / 256 * 256;
    int by_regs = per_warp ? DEVICE_REGISTERS_PER_SM / (per_warp * warps) : DEVICE_BLOCKS_PER_SM;
    /* isa (issue 25): the register count is the PTX's virtual registers (capped at 255), not
     * what ptxas would allocate, and the software device launches any block that passes the
     * launch checks: such a block always fits once. (CUB's histogram sized its grid from an
     * occupancy of 0 for its 384-thread sweep kernel and launched nothing.) */
    if (by_regs < 1)
        by_regs = 1;
    size_t smem = kf->static_shared + dyn;
    size_t per_block = smem + DEVICE_RESERVED_SHARED_PER_BLOCK;
    int by_smem = smem ? (int)(carveout_shared(carveout, per_block) / per_block) : DEVICE_BLOCKS_PER_SM;
    int n = DEVICE_BLOCKS_PER_SM;
    n = by_threads < n ? by_threads : n;
    n = by_regs < n ? by_regs : n;
    return by_smem < n ? by_smem : n;
}

static int occupancy(const struct function *f, int block, size_t dyn)
{
    return occupancy_model(f->kf, block, dyn, function_max_dynamic_shared(f),
                           atomic_load(&((struct function *)f)->carveout));
}

/* devrt (issue 25): the device runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor, which on
 * the H100 applies none of the attributes the host set (docs/probes/kernels/devrt): the default
 * dynamic shared memory limit, no carveout preference. */
int function_occupancy_default(const struct kfunc *kf, int block, size_t dyn)
{
    int left = DEVICE_SHARED_PER_BLOCK - (int)kf->static_shared;
    return occupancy_model(kf, block, dyn, left > 0 ? left : 0, -1);
}

int function_occupancy(const struct function *f, int block, size_t dyn) { return occupancy(f, block, dyn); }

static CUresult check_flags(const char *fn, unsigned int flags)
{
    if (flags & ~(unsigned int)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: only CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE (0x1) is "
                    "defined", fn, flags);
    return CUDA_SUCCESS;
}

static CUresult max_active(const char *fn, int *numBlocks, CUfunction func, int blockSize, size_t dyn,
                           unsigned int flags)
{
    REQUIRE_INIT(fn);
    if (!numBlocks)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numBlocks is NULL", fn);
    struct function *f;
    CUresult r = function_lookup(fn, func, &f);
    if (r)
        return r;
    if (!(r = check_flags(fn, flags)) && blockSize <= 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: blockSize is %d", fn, blockSize);
    if (!r)
        *numBlocks = occupancy(f, blockSize, dyn);
    function_release(f);
    return r;
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                            size_t dynamicSMemSize)
{
    return max_active("cuOccupancyMaxActiveBlocksPerMultiprocessor", numBlocks, func, blockSize, dynamicSMemSize, 0);
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                                     size_t dynamicSMemSize, unsigned int flags)
{
    return max_active("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", numBlocks, func, blockSize,
                      dynamicSMemSize, flags);
}

static CUresult potential(const char *fn, int *minGridSize, int *blockSize, CUfunction func, CUoccupancyB2DSize b2d,
                          size_t dyn, int limit, unsigned int flags)
{
    REQUIRE_INIT(fn);
    if (!minGridSize || !blockSize)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !minGridSize ? "minGridSize" : "blockSize");
    struct function *f;
    CUresult r = function_lookup(fn, func, &f);
    if (r)
        return r;
    if ((r = check_flags(fn, flags)) || (limit < 0 && (r = fail(CUDA_ERROR_INVALID_VALUE, "%s: blockSizeLimit is %d",
                                                                 fn, limit)))) {
        function_release(f);
        return r;
    }
    int top = (int)function_max_threads(f->kf);
    if (limit > 0 && limit < top)
        top = limit;
    /* The block size with the most resident threads, the largest on a tie (as CUDA's own
     * calculator walks down from the top in warps). */
    int best_block = 0, best_blocks = 0, best_threads = 0;
    for (int b = (top + 31) / 32 * 32; b > 0; b -= 32) {
        int size = b > top ? top : b;
        size_t need = b2d ? b2d(size) : dyn;
        int blocks = occupancy(f, size, need);
        if (blocks * size > best_threads) {
            best_threads = blocks * size;
            best_block = size;
            best_blocks = blocks;
        }
    }
    *blockSize = best_block;
    *minGridSize = best_blocks * (int)pool_worker_count();
    function_release(f);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                 CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                                 int blockSizeLimit)
{
    return potential("cuOccupancyMaxPotentialBlockSize", minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                     dynamicSMemSize, blockSizeLimit, 0);
}

CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                          size_t dynamicSMemSize, int blockSizeLimit,
                                                          unsigned int flags)
{
    return potential("cuOccupancyMaxPotentialBlockSizeWithFlags", minGridSize, blockSize, func,
                     blockSizeToDynamicSMemSize, dynamicSMemSize, blockSizeLimit, flags);
}

CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func, int numBlocks,
                                                        int blockSize)
{
    const char *fn = "cuOccupancyAvailableDynamicSMemPerBlock";
    REQUIRE_INIT(fn);
    if (!dynamicSmemSize)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: dynamicSmemSize is NULL", fn);
    struct function *f;
    CUresult r = function_lookup(fn, func, &f);
    if (r)
        return r;
    if (numBlocks <= 0 || blockSize <= 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: numBlocks %d and blockSize %d must be positive", fn, numBlocks, blockSize);
    else if (occupancy(f, blockSize, 0) < numBlocks)
        *dynamicSmemSize = 0;
    else {
        size_t per = DEVICE_SHARED_PER_SM / (size_t)numBlocks;
        size_t taken = DEVICE_RESERVED_SHARED_PER_BLOCK + f->kf->static_shared;
        size_t avail = per > taken ? per - taken : 0;
        size_t cap = (size_t)function_max_dynamic_shared(f);
        *dynamicSmemSize = avail < cap ? avail : cap;
    }
    function_release(f);
    return r;
}

bool function_required_cluster(const struct function *f, unsigned dims[3])
{
    const struct kfunc *kf = f->kf;
    for (int i = 0; i < 3; ++i)
        dims[i] = kf->reqnctapercluster[0] ? kf->reqnctapercluster[i]
                                           : (unsigned)atomic_load(&((struct function *)f)->required_cluster[i]);
    return dims[0] && dims[1] && dims[2];
}

unsigned function_max_cluster(const struct function *f)
{
    unsigned max = atomic_load(&((struct function *)f)->non_portable_cluster) ? KMAX_CLUSTER : 8;
    if (f->kf->maxclusterrank && f->kf->maxclusterrank < max)
        max = f->kf->maxclusterrank;
    return max;
}

/* ---- Clusters: occupancy ----
 * The cluster shape of an occupancy query: the config's CLUSTER_DIMENSION (which must match a
 * required one), else the kernel's required shape; CUDA_ERROR_INVALID_CLUSTER_SIZE without
 * either, or for a shape the kernel may not launch. */
static CUresult query_cluster(const char *fn, const struct function *f, const CUlaunchConfig *config, unsigned d[3],
                              bool need)
{
    unsigned req[3];
    bool required = function_required_cluster(f, req);
    bool named = false;
    if (config->numAttrs && !config->attrs)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: config->numAttrs is %u but config->attrs is NULL", fn,
                    config->numAttrs);
    for (unsigned i = 0; i < config->numAttrs; ++i)
        if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            named = true;
            d[0] = config->attrs[i].value.clusterDim.x;
            d[1] = config->attrs[i].value.clusterDim.y;
            d[2] = config->attrs[i].value.clusterDim.z;
        }
    if (named && required && (d[0] != req[0] || d[1] != req[1] || d[2] != req[2]))
        return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, "%s: clusters of %ux%ux%u, but kernel %s requires %ux%ux%u", fn,
                    d[0], d[1], d[2], f->kf->name, req[0], req[1], req[2]);
    if (!named && required)
        memcpy(d, req, sizeof(req));
    if (!named && !required) {
        if (need)
            return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, "%s: config names no cluster dimension "
                        "(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) and kernel %s requires none", fn, f->kf->name);
        d[0] = d[1] = d[2] = 0;
        return CUDA_SUCCESS;
    }
    if (!d[0] || !d[1] || !d[2] || (uint64_t)d[0] * d[1] * d[2] > function_max_cluster(f))
        return fail(CUDA_ERROR_INVALID_CLUSTER_SIZE, "%s: a cluster of %ux%ux%u: kernel %s takes 1 to %u blocks", fn,
                    d[0], d[1], d[2], f->kf->name, function_max_cluster(f));
    return CUDA_SUCCESS;
}

/* The config's block for a cluster occupancy query: INVALID_VALUE for a block of no threads or
 * more than the kernel takes; else *per_sm, the blocks a multiprocessor holds (0 where the
 * dynamic shared memory is past the kernel's limit, so no block fits). */
static CUresult query_block(const char *fn, const struct function *f, const CUlaunchConfig *config, int *per_sm)
{
    uint64_t threads = (uint64_t)config->blockDimX * config->blockDimY * config->blockDimZ;
    if (!threads || threads > function_max_threads(f->kf))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: a block of %ux%ux%u threads: kernel %s takes 1 to %u", fn,
                    config->blockDimX, config->blockDimY, config->blockDimZ, f->kf->name, function_max_threads(f->kf));
    *per_sm = config->sharedMemBytes > (unsigned)function_max_dynamic_shared(f)
                  ? 0 : occupancy(f, (int)threads, config->sharedMemBytes);
    return CUDA_SUCCESS;
}

/* Resident clusters: the blocks the device holds at once (occupancy x multiprocessors) in whole
 * clusters, and at least one where a block fits: the software device's blocks of a cluster take
 * turns on one thread, so any cluster the launch checks allow runs. */
CUresult CUDAAPI cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func, const CUlaunchConfig *config)
{
    const char *fn = "cuOccupancyMaxActiveClusters";
    REQUIRE_INIT(fn);
    if (!numClusters || !config)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !numClusters ? "numClusters" : "config");
    struct function *f;
    CUresult r = function_lookup(fn, func, &f);
    if (r)
        return r;
    unsigned d[3];
    int per_sm;
    if (!(r = query_cluster(fn, f, config, d, true)) && !(r = query_block(fn, f, config, &per_sm))) {
        uint64_t blocks = (uint64_t)per_sm * pool_worker_count(), size = (uint64_t)d[0] * d[1] * d[2];
        uint64_t n = per_sm ? (blocks / size ? blocks / size : 1) : 0;
        *numClusters = n > INT32_MAX ? INT32_MAX : (int)n;
    }
    function_release(f);
    return r;
}

/* The largest cluster the kernel may launch with the config's block and shared memory: 8, or 16
 * with NON_PORTABLE_CLUSTER_SIZE_ALLOWED (fewer under .maxclusterrank); 0 where no block fits
 * (dynamic shared memory past the kernel's limit), as the H100 answers (docs/probes/kernels/cluster). */
CUresult CUDAAPI cuOccupancyMaxPotentialClusterSize(int *clusterSize, CUfunction func, const CUlaunchConfig *config)
{
    const char *fn = "cuOccupancyMaxPotentialClusterSize";
    REQUIRE_INIT(fn);
    if (!clusterSize || !config)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !clusterSize ? "clusterSize" : "config");
    struct function *f;
    CUresult r = function_lookup(fn, func, &f);
    if (r)
        return r;
    unsigned d[3];
    int per_sm;
    if (!(r = query_cluster(fn, f, config, d, false)) && !(r = query_block(fn, f, config, &per_sm)))
        *clusterSize = !per_sm ? 0 : d[0] ? (int)(d[0] * d[1] * d[2]) : (int)function_max_cluster(f);
    function_release(f);
    return r;
}
