/*
 * The rest of the device runtime (devrt, issue 25): what cuda_device_runtime_api.h gives
 * kernels besides launches, streams and events (cdp.c), as built-in functions of the engine:
 * cudaMalloc/cudaFree (the device heap's malloc and free, as the CUDA programming guide says
 * they are in kernels), cudaMemcpyAsync, cudaMemcpy2DAsync, cudaMemcpy3DAsync, cudaMemsetAsync
 * and its 2D and 3D forms (and their _ptsz names), cudaGetErrorName/cudaGetErrorString,
 * cudaFuncGetAttributes, the occupancy functions, cudaDeviceGetCacheConfig,
 * cudaDeviceGetSharedMemConfig, the legacy cooperative-groups calls (cudaCG*) and cudaGraphLaunch
 * of no graph. What each answers is what the H100's libcudadevrt answered (CUDA 13.0, driver
 * 580; docs/probes/kernels/devrt, docs/driver-observations.md "The device runtime"):
 *
 * - Copies and fills take device memory only: an address where no device memory starts (0x1000,
 *   a shared or local variable) is cudaErrorInvalidValue, not a fault; a direction other than
 *   cudaMemcpyDeviceToDevice or cudaMemcpyDefault is cudaErrorInvalidMemcpyDirection; a row wider
 *   than a copy's pitch cudaErrorInvalidPitchValue, than a fill's cudaErrorInvalidValue; a stream
 *   the device runtime never gave cudaErrorUnknown. They run in their stream's order as the
 *   device's launches do (cdp.c): at once in the default, a created or the fire-and-forget
 *   stream, after the grid in the tail stream, where each holds a pending launch until it ran
 *   (past the limit: cudaErrorUnknown, as the H100 answers). A range that runs past device
 *   memory faults (CUDA_ERROR_ILLEGAL_ADDRESS) when the copy runs.
 * - free and cudaFree of what the heap does not hold live: NULL does nothing; where a freed
 *   block starts (its header says so) is the GPU's double free, CUDA_ERROR_LAUNCH_FAILED; any
 *   other address is let pass if the header's place before it (16 bytes) can be read, as the
 *   GPU's allocator reads it: an interior pointer, a global, shared or local variable's address,
 *   a cudaMalloc pointer with memory before it; an odd address (not 4-byte aligned) is
 *   CUDA_ERROR_MISALIGNED_ADDRESS and an address with no memory before it
 *   CUDA_ERROR_ILLEGAL_ADDRESS (the H100's answers to free(p + 1), free(0x1000) and the free of a
 *   fresh cudaMalloc pointer).
 * - cudaFuncGetAttributes writes the first seven fields (sharedSizeBytes to binaryVersion) with
 *   the host's values and leaves the rest of the struct as it was, as the H100's does; the
 *   occupancy functions answer with the kernel's defaults (no attribute the host set applies),
 *   accept any flags, write 0 on an error and, like cudaDeviceGetLimit, leave no error for
 *   cudaGetLastError; the occupancy of a NULL function faults (CUDA_ERROR_ILLEGAL_ADDRESS).
 */
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>

#include "cuda_errors.h"

/* The device runtime's error numbers (cudaError_t) used here. */
enum {
    DR_SUCCESS = 0,
    DR_INVALID_VALUE = 1,
    DR_MEMORY_ALLOCATION = 2,
    DR_INVALID_PITCH = 12,
    DR_INVALID_MEMCPY_DIRECTION = 21,
    DR_INVALID_DEVICE_FUNCTION = 98,
    DR_NOT_SUPPORTED = 801,
    DR_UNKNOWN = 999,
};
#define DR_STREAM_TAIL 3u

static const struct {
    const char *name;
    int builtin;
    uint32_t nargs;
} names[] = {
    {"Malloc", KB_DEVRT_MALLOC, 2},
    {"Free", KB_DEVRT_FREE, 1},
    {"MemcpyAsync", KB_CDP_MEMCPY_ASYNC, 5},
    {"MemcpyAsync_ptsz", KB_CDP_MEMCPY_ASYNC, 5},
    {"Memcpy2DAsync", KB_DEVRT_MEMCPY_2D_ASYNC, 8},
    {"Memcpy2DAsync_ptsz", KB_DEVRT_MEMCPY_2D_ASYNC, 8},
    {"Memcpy3DAsync", KB_DEVRT_MEMCPY_3D_ASYNC, 2},
    {"Memcpy3DAsync_ptsz", KB_DEVRT_MEMCPY_3D_ASYNC, 2},
    {"MemsetAsync", KB_CDP_MEMSET_ASYNC, 4},
    {"MemsetAsync_ptsz", KB_CDP_MEMSET_ASYNC, 4},
    {"Memset2DAsync", KB_DEVRT_MEMSET_2D_ASYNC, 6},
    {"Memset2DAsync_ptsz", KB_DEVRT_MEMSET_2D_ASYNC, 6},
    {"Memset3DAsync", KB_DEVRT_MEMSET_3D_ASYNC, 4},
    {"Memset3DAsync_ptsz", KB_DEVRT_MEMSET_3D_ASYNC, 4},
    {"GetErrorName", KB_DEVRT_GET_ERROR_NAME, 1},
    {"GetErrorString", KB_DEVRT_GET_ERROR_STRING, 1},
    {"FuncGetAttributes", KB_DEVRT_FUNC_GET_ATTRIBUTES, 2},
    {"OccupancyMaxActiveBlocksPerMultiprocessor", KB_DEVRT_OCCUPANCY, 4},
    {"OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", KB_DEVRT_OCCUPANCY_WITH_FLAGS, 5},
    {"DeviceGetCacheConfig", KB_DEVRT_DEVICE_GET_CACHE_CONFIG, 1},
    {"DeviceGetSharedMemConfig", KB_DEVRT_DEVICE_GET_SHARED_MEM_CONFIG, 1},
    {"CGGetIntrinsicHandle", KB_DEVRT_CG_GET_INTRINSIC_HANDLE, 1},
    {"CGSynchronize", KB_DEVRT_CG_SYNCHRONIZE, 2},
    {"CGSynchronizeGrid", KB_DEVRT_CG_SYNCHRONIZE, 2},
    {"CGGetSize", KB_DEVRT_CG_GET_SIZE, 3},
    {"CGGetRank", KB_DEVRT_CG_GET_RANK, 3},
    {"GraphLaunch", KB_DEVRT_GRAPH_LAUNCH, 2},
};

int kdevrt_builtin_of(const char *rest, uint32_t *nargs)
{
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
        if (strcmp(rest, names[i].name) == 0) {
            if (nargs)
                *nargs = names[i].nargs;
            return names[i].builtin;
        }
    }
    return KB_NONE;
}

/* ---- Error names and strings: the runtime's table, read by kernels in place ---- */
#define RT_NO_CU 0
static const struct {
    int code;
    const char *name, *text;
} texts[] = {
#define DR_ROW(name, value, cu, text) {value, #name, text},
    CUDA_ERRORS_TABLE(DR_ROW)
#undef DR_ROW
};
static const char unrecognized[] = "unrecognized error code";

static const char *error_text(int code, bool name)
{
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); ++i)
        if (texts[i].code == code)
            return name ? texts[i].name : texts[i].text;
    return unrecognized;
}

static bool in_string(const char *str, uintptr_t addr, size_t size, uintptr_t *lo, uintptr_t *hi)
{
    uintptr_t b = (uintptr_t)str, e = b + strlen(str) + 1;
    if (addr < b || addr >= e || size > e - addr)
        return false;
    *lo = b;
    *hi = e;
    return true;
}

bool kdevrt_text_extent(uintptr_t addr, size_t size, uintptr_t *lo, uintptr_t *hi)
{
    if (in_string(unrecognized, addr, size, lo, hi))
        return true;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); ++i)
        if (in_string(texts[i].name, addr, size, lo, hi) || in_string(texts[i].text, addr, size, lo, hi))
            return true;
    return false;
}

/* ---- free and cudaFree ---- */
bool kdevrt_free(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t addr)
{
    const struct klaunch *la = w->b->l;
    if (!addr)
        return true; /* free(NULL) does nothing, as in C (and on the H100) */
    int why = la->heap && la->host && la->host->heap_free ? la->host->heap_free(la->heap, addr) : KHEAP_OUTSIDE;
    if (why == KHEAP_FREED)
        return true;
    if (why == KHEAP_FREED_BEFORE) {
        kfault(w, in, lane, CUDA_ERROR_LAUNCH_FAILED,
               "free(0x%llx): the block there was freed already (a double free: the GPU's allocator traps)",
               (unsigned long long)addr);
        return false;
    }
    /* Not a block: the GPU's allocator reads the header before the address and, finding none,
     * lets it pass; where that cannot be read it faults as the load would. The heap's own memory
     * and the shared and local windows are readable there (the H100 let free(p - 16) of the
     * heap's first block pass, and frees of shared and local variables). */
    if (addr & 3) {
        kfault(w, in, lane, CUDA_ERROR_MISALIGNED_ADDRESS,
               "free(0x%llx): no block of the device heap starts at an address that is not 4-byte aligned (the "
               "allocator's read of its header is misaligned)", (unsigned long long)addr);
        return false;
    }
    if (why == KHEAP_NOT_A_BLOCK)
        return true;
    const struct kblock *b = w->b;
    uintptr_t sh = (uintptr_t)b->shared, lb = (uintptr_t)w->local;
    if ((addr >= sh && addr - sh < b->shared_size) ||
        (w->local && addr >= lb && addr - lb < (uint64_t)w->local_stride * KLANES))
        return true;
    uintptr_t lo, hi;
    if (addr < 16 || !la->space->extent(la->space, (uintptr_t)addr - 16, 16, false, &lo, &hi)) {
        kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS,
               "free(0x%llx): the address is not in the device heap, and no memory is before it (where the GPU's "
               "allocator reads a block's header)", (unsigned long long)addr);
        return false;
    }
    return true;
}

/* ---- Copies and fills ---- */
static bool device_memory(const struct klaunch *l, uint64_t addr)
{
    uintptr_t lo, hi;
    return addr && l->space->extent(l->space, (uintptr_t)addr, 1, false, &lo, &hi);
}

static bool op_exec(const struct kaddr_space *as, const struct kdevrt_op *op, char *why, size_t why_size)
{
    uintptr_t lo, hi;
    for (uint64_t z = 0; z < op->depth; ++z) {
        for (uint64_t y = 0; y < op->height; ++y) {
            uint64_t d = op->dst + z * op->dslice + y * op->dpitch;
            uint64_t s = op->src + z * op->sslice + y * op->spitch;
            if (d + op->width < d || !as->extent(as, (uintptr_t)d, op->width, true, &lo, &hi)) {
                snprintf(why, why_size, "%s of %llu bytes to 0x%llx from a kernel: no device memory the kernel may "
                         "write is there", op->kind == 1 ? "cudaMemcpyAsync" : "cudaMemsetAsync",
                         (unsigned long long)op->width, (unsigned long long)d);
                return false;
            }
            if (op->kind == 1) {
                if (s + op->width < s || !as->extent(as, (uintptr_t)s, op->width, false, &lo, &hi)) {
                    snprintf(why, why_size, "cudaMemcpyAsync of %llu bytes from 0x%llx from a kernel: no device "
                             "memory is there", (unsigned long long)op->width, (unsigned long long)s);
                    return false;
                }
                memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, op->width);
            } else {
                memset((void *)(uintptr_t)d, (int)(op->value & 0xff), op->width);
            }
        }
    }
    return true;
}

bool kdevrt_op_run(struct klaunch *l, const struct kdevrt_op *op)
{
    char why[256];
    if (op_exec(l->space, op, why, sizeof(why)))
        return true;
    l->fault_code = CUDA_ERROR_ILLEGAL_ADDRESS;
    snprintf(l->fault_reason, sizeof(l->fault_reason), "%s", why);
    return false;
}

/* Runs op in `stream` (validated): a cudaError_t; false when it faulted the launch. */
static bool op_submit(struct kwarp *w, const struct kinsn *in, uint32_t lane, const struct kdevrt_op *op,
                      uint64_t stream, uint32_t *err)
{
    if (!op->width || !op->height || !op->depth)
        return true;
    bool queued;
    *err = kcdp_queue_op(w, op, stream == DR_STREAM_TAIL, &queued);
    if (queued)
        return true;
    char why[256];
    if (op_exec(w->b->l->space, op, why, sizeof(why)))
        return true;
    kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS, "%s", why);
    return false;
}

/* ---- Functions ---- */
static const struct kfunc *func_at(const struct kwarp *w, uint64_t addr)
{
    const struct kmodule *m = w->top->fn->module;
    for (uint32_t i = 0; i < m->nfuncs; ++i)
        if ((uint64_t)(uintptr_t)m->funcs[i] == addr && m->funcs[i]->defined)
            return m->funcs[i];
    return NULL;
}

/* The first seven fields of struct cudaFuncAttributes (40 bytes), as cuFuncGetAttribute answers
 * them on the host (src/module/function.c). */
static void func_attributes(const struct klaunch *l, const struct kfunc *fn, unsigned char out[40])
{
    const struct kmodule *m = fn->module;
    uint64_t shared = fn->static_shared, local = fn->local_bytes, cbytes = 0;
    for (uint32_t i = 0; i < m->nvars; ++i)
        if (m->vars[i].space == KS_CONST)
            cbytes += m->vars[i].size;
    if (cbytes > INT32_MAX)
        cbytes = INT32_MAX;
    int32_t ints[4];
    ints[0] = (int32_t)kfunc_max_threads(fn);
    ints[1] = (int32_t)(fn->nregs > 255 ? 255 : fn->nregs);
    ints[2] = (int32_t)m->target_sm;
    int major = 0, minor = 0;
    if (l->host && l->host->device_attribute) {
        l->host->device_attribute(75 /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */, 0, &major);
        l->host->device_attribute(76 /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR */, 0, &minor);
    }
    ints[3] = major * 10 + minor;
    memcpy(out, &shared, 8);
    memcpy(out + 8, &cbytes, 8);
    memcpy(out + 16, &local, 8);
    memcpy(out + 24, ints, 16);
}

static bool put(struct kwarp *w, const struct kinsn *in, uint32_t lane, uint64_t addr, const void *v, unsigned n)
{
    void *p = kmem(w, in, lane, KS_GENERIC, addr, n, true);
    if (!p)
        return false;
    memcpy(p, v, n);
    return true;
}

bool kdevrt_call(struct kwarp *w, const struct kinsn *in, const struct kcall *c, uint32_t lane, unsigned char *pa,
                 const uint64_t *a, uint64_t *ret, unsigned *ret_size, uint32_t *err, bool *sets_error)
{
    struct klaunch *l = w->b->l;
    switch (c->builtin) {
    case KB_DEVRT_MALLOC: {
        /* cudaMalloc in a kernel is the device heap's malloc (CUDA programming guide, dynamic
         * parallelism, "Memory Allocation and Lifetime"): freed by cudaFree or free. */
        if (!a[0]) {
            *err = DR_INVALID_VALUE;
            return true;
        }
        uint64_t p = l->heap && l->host && l->host->heap_alloc ? l->host->heap_alloc(l->heap, a[1]) : 0;
        if (!p) {
            *err = DR_MEMORY_ALLOCATION;
            return true;
        }
        if (!put(w, in, lane, a[0], &p, 8)) {
            if (l->host && l->host->heap_free)
                l->host->heap_free(l->heap, p); /* the launch faulted: nothing stays taken */
            return false;
        }
        return true;
    }
    case KB_DEVRT_FREE:
        return kdevrt_free(w, in, lane, a[0]);
    case KB_CDP_MEMCPY_ASYNC:
    case KB_DEVRT_MEMCPY_2D_ASYNC: {
        bool two = c->builtin == KB_DEVRT_MEMCPY_2D_ASYNC;
        struct kdevrt_op op = {.kind = 1, .depth = 1};
        uint32_t kind = (uint32_t)(two ? a[6] : a[3]);
        uint64_t stream = two ? a[7] : a[4];
        op.dst = a[0];
        if (two) {
            op.dpitch = a[1], op.src = a[2], op.spitch = a[3], op.width = a[4], op.height = a[5];
        } else {
            op.src = a[1], op.width = a[2], op.height = 1;
        }
        if (kind != 3 && kind != 4)
            *err = DR_INVALID_MEMCPY_DIRECTION;
        else if (!kcdp_stream_ok(w, stream))
            *err = DR_UNKNOWN;
        else if (!op.width || !op.height)
            *err = DR_SUCCESS;
        else if (two && (op.dpitch < op.width || op.spitch < op.width))
            *err = DR_INVALID_PITCH;
        else if (!device_memory(l, op.dst) || !device_memory(l, op.src))
            *err = DR_INVALID_VALUE;
        else
            return op_submit(w, in, lane, &op, stream, err);
        return true;
    }
    case KB_DEVRT_MEMCPY_3D_ASYNC: {
        /* struct cudaMemcpy3DParms: srcArray, srcPos (x, y, z), srcPtr (ptr, pitch, xsize, ysize),
         * dstArray, dstPos, dstPtr, extent (width, height, depth), kind */
        uint64_t stream = a[1];
        if (!a[0]) {
            *err = DR_INVALID_VALUE;
            return true;
        }
        const unsigned char *pp = kmem(w, in, lane, KS_GENERIC, a[0], 156, false);
        if (!pp)
            return false;
        uint64_t q[19];
        memcpy(q, pp, sizeof(q));
        uint32_t kind;
        memcpy(&kind, pp + 152, 4);
        struct kdevrt_op op = {.kind = 1};
        uint64_t spitch = q[5], sys = q[7], dpitch = q[13], dys = q[15];
        op.width = q[16], op.height = q[17], op.depth = q[18];
        if (q[0] || q[8])
            *err = DR_INVALID_VALUE; /* CUDA arrays: not in a kernel */
        else if (kind != 3 && kind != 4)
            *err = DR_INVALID_MEMCPY_DIRECTION;
        else if (!kcdp_stream_ok(w, stream))
            *err = DR_UNKNOWN;
        else if (!op.width || !op.height || !op.depth)
            *err = DR_SUCCESS;
        else if (spitch < op.width || dpitch < op.width)
            *err = DR_INVALID_PITCH;
        else {
            op.spitch = spitch, op.dpitch = dpitch, op.sslice = spitch * sys, op.dslice = dpitch * dys;
            op.src = q[4] + q[3] * op.sslice + q[2] * spitch + q[1];
            op.dst = q[12] + q[11] * op.dslice + q[10] * dpitch + q[9];
            if (!device_memory(l, op.dst) || !device_memory(l, op.src))
                *err = DR_INVALID_VALUE;
            else
                return op_submit(w, in, lane, &op, stream, err);
        }
        return true;
    }
    case KB_CDP_MEMSET_ASYNC:
    case KB_DEVRT_MEMSET_2D_ASYNC:
    case KB_DEVRT_MEMSET_3D_ASYNC: {
        struct kdevrt_op op = {.kind = 2, .height = 1, .depth = 1};
        uint64_t stream;
        if (c->builtin == KB_CDP_MEMSET_ASYNC) {
            op.dst = a[0], op.value = (uint32_t)a[1], op.width = a[2], stream = a[3];
        } else if (c->builtin == KB_DEVRT_MEMSET_2D_ASYNC) {
            op.dst = a[0], op.dpitch = a[1], op.value = (uint32_t)a[2], op.width = a[3], op.height = a[4];
            stream = a[5];
        } else {
            uint64_t pitched[4], extent[3]; /* struct cudaPitchedPtr, struct cudaExtent by value */
            memcpy(pitched, pa + c->arg_offset[0], sizeof(pitched));
            memcpy(extent, pa + c->arg_offset[2], sizeof(extent));
            op.dst = pitched[0], op.dpitch = pitched[1], op.dslice = pitched[1] * pitched[3];
            op.width = extent[0], op.height = extent[1], op.depth = extent[2];
            op.value = (uint32_t)a[1];
            stream = a[3];
        }
        if (!kcdp_stream_ok(w, stream))
            *err = DR_UNKNOWN;
        else if (!op.width || !op.height || !op.depth)
            *err = DR_SUCCESS;
        else if (c->builtin != KB_CDP_MEMSET_ASYNC && op.dpitch < op.width)
            *err = DR_INVALID_VALUE;
        else if (!device_memory(l, op.dst))
            *err = DR_INVALID_VALUE;
        else
            return op_submit(w, in, lane, &op, stream, err);
        return true;
    }
    case KB_DEVRT_GET_ERROR_NAME:
    case KB_DEVRT_GET_ERROR_STRING:
        *ret_size = 8;
        *ret = (uint64_t)(uintptr_t)error_text((int)(int32_t)(uint32_t)a[0], c->builtin == KB_DEVRT_GET_ERROR_NAME);
        *sets_error = false;
        return true;
    case KB_DEVRT_FUNC_GET_ATTRIBUTES: {
        const struct kfunc *fn = a[1] ? func_at(w, a[1]) : NULL;
        if (!a[0] || !a[1])
            *err = DR_INVALID_VALUE;
        else if (!fn)
            *err = DR_INVALID_DEVICE_FUNCTION;
        else {
            unsigned char out[40];
            func_attributes(l, fn, out);
            if (!put(w, in, lane, a[0], out, sizeof(out)))
                return false;
        }
        return true;
    }
    case KB_DEVRT_OCCUPANCY:
    case KB_DEVRT_OCCUPANCY_WITH_FLAGS: {
        *sets_error = false; /* the H100's leaves no error for cudaGetLastError */
        if (!a[1]) {
            kfault(w, in, lane, CUDA_ERROR_ILLEGAL_ADDRESS,
                   "cudaOccupancyMaxActiveBlocksPerMultiprocessor in a kernel: the function is NULL (the H100's device "
                   "runtime faults reading it)");
            return false;
        }
        const struct kfunc *fn = func_at(w, a[1]);
        int block = (int)(int32_t)(uint32_t)a[2];
        int32_t n = 0;
        if (!a[0] || !fn || !fn->entry || block <= 0)
            *err = DR_INVALID_VALUE;
        else
            n = l->host && l->host->occupancy ? l->host->occupancy(fn, block, a[3]) : 0;
        if (a[0] && !put(w, in, lane, a[0], &n, 4))
            return false;
        return true;
    }
    case KB_DEVRT_DEVICE_GET_CACHE_CONFIG:
    case KB_DEVRT_DEVICE_GET_SHARED_MEM_CONFIG: {
        bool cache = c->builtin == KB_DEVRT_DEVICE_GET_CACHE_CONFIG;
        uint64_t v = cache ? 0 : 1; /* cudaFuncCachePreferNone, cudaSharedMemBankSizeFourByte */
        if (!a[0]) {
            *err = DR_INVALID_VALUE;
            return true;
        }
        if (l->host && l->host->device_limit)
            l->host->device_limit(l->api_ctx, cache ? KDEVRT_CFG_CACHE : KDEVRT_CFG_SHARED_MEM, &v);
        uint32_t v32 = (uint32_t)v;
        return put(w, in, lane, a[0], &v32, 4);
    }
    case KB_DEVRT_CG_GET_INTRINSIC_HANDLE:
        /* The legacy cooperative-groups calls: on the H100 every one answers 0 (no handle, sizes
         * and ranks 0, success) in a plain launch; cooperative_groups no longer calls them. */
        *ret_size = 8;
        *ret = 0;
        *sets_error = false;
        return true;
    case KB_DEVRT_CG_SYNCHRONIZE:
        return true;
    case KB_DEVRT_CG_GET_SIZE:
    case KB_DEVRT_CG_GET_RANK: {
        uint32_t zero = 0;
        if ((a[0] && !put(w, in, lane, a[0], &zero, 4)) || (a[1] && !put(w, in, lane, a[1], &zero, 4)))
            return false;
        return true;
    }
    case KB_DEVRT_GRAPH_LAUNCH:
        /* No graph (0): nothing to launch, success as on the H100. A graph launched from a kernel
         * (cudaGraphInstantiateFlagDeviceLaunch) is not run by the software device. */
        if (a[0])
            *err = DR_NOT_SUPPORTED;
        return true;
    }
    kfault(w, in, lane, CUDA_ERROR_LAUNCH_FAILED, "device runtime function %d is not provided", c->builtin);
    return false;
}
