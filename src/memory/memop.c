/*
 * Stream memory operations: cuStreamWaitValue32/64, cuStreamWriteValue32/64 and
 * cuStreamBatchMemOp (docs/streams.md).
 *
 * Each call is one piece of stream work that reads or writes a 32- or 64-bit word of memory a
 * kernel may touch. A wait keeps its stream's worker polling the word until the condition
 * holds; nothing tells it when the word changes (any thread, kernel or process may write it, as
 * any agent may write a GPU's word), so it spins briefly and then sleeps in growing slices up to
 * a millisecond. A wait nobody will satisfy must not hang the process's exit: it is given up
 * once the library unloads, as an external semaphore's wait is. On the legacy default stream a
 * wait goes to the context's deferred queue, so the calling thread never waits (stream.c).
 *
 * The word is read with acquire and written with release ordering, so work after a wait sees
 * what the writer wrote before its write; a write without NO_MEMORY_BARRIER is preceded by a
 * full fence, as CUDA's default write has __threadfence_system()'s meaning.
 */
#include "memory/memory.h"
#include "exec/exec.h"
#include "exec/per_thread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CUDA: "count ... must be less than 256". */
#define MAX_BATCH 255

/* The most a wait sleeps between two looks at its word. */
#define WAIT_SLICE_MAX_NS (1000u * 1000u)

struct memop {
    CUstreamBatchMemOpType type;
    uintptr_t addr;
    uint64_t value;
    unsigned int flags;
};

struct memop_work {
    struct work w;
    unsigned int count;
    CUcontext ctx;                    /* for a capture's node */
    CUstreamBatchMemOpParams *given;  /* the caller's operations, for a capture's node */
    struct memop ops[];
};

/* ---- Running ---- */

static uint64_t load_word(const struct memop *op, bool wide)
{
    if (wide)
        return atomic_load_explicit((_Atomic uint64_t *)op->addr, memory_order_acquire);
    return atomic_load_explicit((_Atomic uint32_t *)op->addr, memory_order_acquire);
}

static bool satisfied(const struct memop *op, bool wide)
{
    uint64_t v = load_word(op, wide), want = op->value;
    switch (op->flags & 3u) {
    case CU_STREAM_WAIT_VALUE_GEQ:
        return wide ? (int64_t)(v - want) >= 0 : (int32_t)(uint32_t)(v - want) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ: return v == want;
    case CU_STREAM_WAIT_VALUE_AND: return (v & want) != 0;
    default: /* NOR */
        return wide ? ~(v | want) != 0 : (uint32_t)~(v | want) != 0;
    }
}

static void wait_for(const struct memop *op, bool wide)
{
    for (int spin = 0; spin < 256; ++spin) {
        if (satisfied(op, wide))
            return;
        os_cpu_relax();
    }
    os_mutex lock;
    os_cond cond;
    os_mutex_init(&lock);
    os_cond_init(&cond);
    uint64_t slice = 20u * 1000u;
    os_mutex_lock(&lock);
    while (!satisfied(op, wide)) {
        if (device_unloading()) {
            log_warn("cuStreamWaitValue: a stream's wait for the word at 0x%llx was given up: the library is unloading",
                     (unsigned long long)op->addr);
            break;
        }
        os_cond_timedwait(&cond, &lock, slice); /* nobody signals it: a sleep that keeps no thread awake */
        if (slice < WAIT_SLICE_MAX_NS)
            slice *= 2;
    }
    os_mutex_unlock(&lock);
    os_cond_destroy(&cond);
    os_mutex_destroy(&lock);
}

static void run_ops(struct work *w)
{
    struct memop_work *mw = (struct memop_work *)w;
    for (unsigned int i = 0; i < mw->count; ++i) {
        const struct memop *op = &mw->ops[i];
        switch (op->type) {
        case CU_STREAM_MEM_OP_WAIT_VALUE_32: wait_for(op, false); break;
        case CU_STREAM_MEM_OP_WAIT_VALUE_64: wait_for(op, true); break;
        case CU_STREAM_MEM_OP_WRITE_VALUE_32:
            if (!(op->flags & CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER))
                atomic_thread_fence(memory_order_seq_cst);
            atomic_store_explicit((_Atomic uint32_t *)op->addr, (uint32_t)op->value, memory_order_release);
            break;
        case CU_STREAM_MEM_OP_WRITE_VALUE_64:
            if (!(op->flags & CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER))
                atomic_thread_fence(memory_order_seq_cst);
            atomic_store_explicit((_Atomic uint64_t *)op->addr, op->value, memory_order_release);
            break;
        default: /* BARRIER: the CPU's fence covers every scope */
            atomic_thread_fence(memory_order_seq_cst);
            break;
        }
    }
    free(mw);
}

static void discard_ops(struct work *w) { free(w); }

/* ---- Checks ---- */

static bool is_wait(CUstreamBatchMemOpType t)
{
    return t == CU_STREAM_MEM_OP_WAIT_VALUE_32 || t == CU_STREAM_MEM_OP_WAIT_VALUE_64;
}

/* The word must be aligned memory a kernel may touch: device, host or registered memory, or a
 * mapped VMM range (with write access for a write). Managed memory is refused, as NVIDIA's
 * driver refuses it for every operation (H200, 580.159.04; CUDA documents it for a 32-bit wait). */
static CUresult check_word(const char *fn, const char *what, uintptr_t addr, size_t size, bool write)
{
    if (!addr)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is 0", fn, what);
    if (addr % size)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is not aligned to its %zu-byte word", fn, what,
                    (unsigned long long)addr, size);
    uintptr_t lo, hi;
    if (!mem_kernel_extent(addr, size, write, &lo, &hi))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is not memory the device may %s (device, host, registered "
                    "or managed memory, a VMM mapping with that access)", fn, what, (unsigned long long)addr,
                    write ? "write" : "read");
    amap_lock_read();
    struct range *r = amap_find(&amap_memory, addr);
    bool managed = r && r->managed;
    amap_unlock();
    if (managed)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is managed memory (cuMemAllocManaged), which stream "
                    "memory operations do not take, as on the driver", fn, what, (unsigned long long)addr);
    return CUDA_SUCCESS;
}

/* Checks op (element i of a batch when `batch`) and fills *out. */
static CUresult check_op(const char *fn, const CUstreamBatchMemOpParams *op, unsigned int i, bool batch,
                         struct memop *out)
{
    char what[48] = "addr";
    if (batch)
        snprintf(what, sizeof what, "paramArray[%u].address", i);
    out->type = op->operation;
    switch (op->operation) {
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64: {
        bool wide = op->operation == CU_STREAM_MEM_OP_WAIT_VALUE_64;
        if (op->waitValue.flags & CU_STREAM_WAIT_VALUE_FLUSH)
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: CU_STREAM_WAIT_VALUE_FLUSH: the device has no remote writes to "
                        "flush (CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0, as on the H100)", fn);
        if (op->waitValue.flags & ~3u)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: wait flags 0x%x have bits other than the condition (GEQ, EQ, "
                        "AND, NOR)", fn, op->waitValue.flags);
        out->addr = (uintptr_t)op->waitValue.address;
        out->value = wide ? op->waitValue.value64 : op->waitValue.value;
        out->flags = op->waitValue.flags;
        return check_word(fn, what, out->addr, wide ? 8 : 4, false);
    }
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
    case CU_STREAM_MEM_OP_WRITE_VALUE_64: {
        bool wide = op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
        if (op->writeValue.flags)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: write flags 0x%x are not 0 (the _v2 forms take no "
                        "CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER)", fn, op->writeValue.flags);
        out->addr = (uintptr_t)op->writeValue.address;
        out->value = wide ? op->writeValue.value64 : op->writeValue.value;
        out->flags = op->writeValue.flags;
        return check_word(fn, what, out->addr, wide ? 8 : 4, true);
    }
    case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: paramArray[%u] is FLUSH_REMOTE_WRITES: the device has no remote "
                    "writes to flush (CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0, as on the H100)", fn, i);
    case CU_STREAM_MEM_OP_BARRIER:
        if (op->memoryBarrier.flags != CU_STREAM_MEMORY_BARRIER_TYPE_SYS &&
            op->memoryBarrier.flags != CU_STREAM_MEMORY_BARRIER_TYPE_GPU)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: paramArray[%u].memoryBarrier.flags %u is not SYS (0) or GPU (1)",
                        fn, i, op->memoryBarrier.flags);
        return CUDA_SUCCESS;
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: paramArray[%u].operation %d is not a CUstreamBatchMemOpType", fn, i,
                    (int)op->operation);
    }
}

/* A capturing stream records the operations as a batch memory operation node, as the driver
 * does (src/graph). */
static CUresult describe_ops(struct work *w, CUgraphNodeParams *p)
{
    struct memop_work *mw = (struct memop_work *)w;
    if (!mw->given)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "cuStreamBatchMemOp: out of host memory for the capture's node");
    p->type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
    p->memOp.ctx = mw->ctx;
    p->memOp.count = mw->count;
    p->memOp.paramArray = mw->given;
    p->memOp.flags = 0;
    return CUDA_SUCCESS;
}

static void discard_described(struct work *w)
{
    free(((struct memop_work *)w)->given);
    discard_ops(w);
}

/* The stream first (a bad handle is INVALID_HANDLE whatever else is wrong), then every
 * operation; then one piece of work for them all. */
static CUresult submit(const char *fn, CUstream stream, unsigned int count, const CUstreamBatchMemOpParams *ops,
                       bool batch)
{
    struct target t;
    CUresult r = target_get(fn, stream, &t);
    if (r)
        return r;
    struct memop_work *mw = NULL;
    bool waits = false;
    if (count == 0) { /* nothing to do: NVIDIA's driver answers success */
        target_put(&t);
        return CUDA_SUCCESS;
    }
    if (count > MAX_BATCH)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: count %u is above %d (CUDA: less than 256)", fn, count, MAX_BATCH);
    else if (!ops) /* NVIDIA's driver crashes */
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: paramArray is NULL", fn);
    else if (!(mw = calloc(1, sizeof(*mw) + (size_t)count * sizeof(mw->ops[0]))))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %u operations", fn, count);
    for (unsigned int i = 0; mw && i < count && !r; ++i) {
        r = check_op(fn, &ops[i], i, batch, &mw->ops[i]);
        waits |= is_wait(ops[i].operation);
    }
    if (r) {
        free(mw);
        target_put(&t);
        return r;
    }
    mw->count = count;
    mw->w.run = run_ops;
    mw->w.discard = discard_ops;
    if (t.capture) { /* only a capture needs the operations as given */
        mw->ctx = (CUcontext)(uintptr_t)t.ctx->base.handle;
        if ((mw->given = malloc((size_t)count * sizeof(*ops))))
            memcpy(mw->given, ops, (size_t)count * sizeof(*ops));
        mw->w.describe = describe_ops;
        mw->w.discard = discard_described;
    }
    /* A wait on the legacy stream must not hold the caller: it joins the deferred queue. */
    if (waits)
        r = target_defer(&t, &mw->w);
    else
        r = target_submit(&t, &mw->w);
    target_put(&t);
    return r;
}

static CUresult one(const char *fn, CUstream stream, CUstreamBatchMemOpType type, CUdeviceptr addr, uint64_t value,
                    unsigned int flags)
{
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.operation = type;
    if (is_wait(type)) {
        op.waitValue.address = addr;
        op.waitValue.value64 = value;
        if (type == CU_STREAM_MEM_OP_WAIT_VALUE_32)
            op.waitValue.value = (cuuint32_t)value;
        op.waitValue.flags = flags;
    } else {
        op.writeValue.address = addr;
        op.writeValue.value64 = value;
        if (type == CU_STREAM_MEM_OP_WRITE_VALUE_32)
            op.writeValue.value = (cuuint32_t)value;
        op.writeValue.flags = flags;
    }
    return submit(fn, stream, 1, &op, false);
}

/* ---- Entry points ----
 * The _v2 forms (CUDA 11.7) and their _ptsz variants work. The older forms (CUDA 8) are refused
 * through the entry-point list (src/entry/driver_api.h, reason STREAM_MEMOP_V1), as the H100
 * and H200 refuse them: they answer 0 for CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1. */

#define MEMOP_ENTRIES(name, type, vtype)                                                                         \
    CUresult CUDAAPI name##_v2(CUstream stream, CUdeviceptr addr, vtype value, unsigned int flags)               \
    {                                                                                                            \
        return one(#name, stream, type, addr, value, flags);                                                     \
    }                                                                                                            \
    CUresult CUDAAPI name##_v2_ptsz(CUstream stream, CUdeviceptr addr, vtype value, unsigned int flags)          \
    {                                                                                                            \
        return one(#name, per_thread(stream), type, addr, value, flags);                                         \
    }

#undef cuStreamWaitValue32
#undef cuStreamWaitValue64
#undef cuStreamWriteValue32
#undef cuStreamWriteValue64
#undef cuStreamBatchMemOp
MEMOP_ENTRIES(cuStreamWaitValue32, CU_STREAM_MEM_OP_WAIT_VALUE_32, cuuint32_t)
MEMOP_ENTRIES(cuStreamWaitValue64, CU_STREAM_MEM_OP_WAIT_VALUE_64, cuuint64_t)
MEMOP_ENTRIES(cuStreamWriteValue32, CU_STREAM_MEM_OP_WRITE_VALUE_32, cuuint32_t)
MEMOP_ENTRIES(cuStreamWriteValue64, CU_STREAM_MEM_OP_WRITE_VALUE_64, cuuint64_t)

static CUresult batch_entry(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                            unsigned int flags)
{
    static const char fn[] = "cuStreamBatchMemOp";
    if (flags != 0) {
        /* After the stream, as every other check. */
        struct target t;
        CUresult r = target_get(fn, stream, &t);
        if (r)
            return r;
        target_put(&t);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x is not 0", fn, flags);
    }
    return submit(fn, stream, count, paramArray, true);
}

CUresult CUDAAPI cuStreamBatchMemOp_v2(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                                       unsigned int flags)
{
    return batch_entry(stream, count, paramArray, flags);
}

CUresult CUDAAPI cuStreamBatchMemOp_v2_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                                            unsigned int flags)
{
    return batch_entry(per_thread(stream), count, paramArray, flags);
}
