/*
 * src/memory/rdma.c: cuFlushGPUDirectRDMAWrites. A third party's writes into device memory
 * (GPUDirect RDMA) must be visible to the work that follows; the software device's memory is
 * host memory, written through the CPU's coherent caches, so a full fence orders them.
 */
#include <stdatomic.h>

#include "device/device.h"

CUresult CUDAAPI cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                                            CUflushGPUDirectRDMAWritesScope scope)
{
    const char *fn = "cuFlushGPUDirectRDMAWrites";
    REQUIRE_INIT(fn);
    if (target != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: target %d is not CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX",
                    fn, (int)target);
    if (scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER && scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: scope %d is not a CUflushGPUDirectRDMAWritesScope", fn, (int)scope);
    atomic_thread_fence(memory_order_seq_cst);
    return CUDA_SUCCESS;
}
