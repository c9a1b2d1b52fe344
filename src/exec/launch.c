/* Kernel launches on the software device: a C function per block, over the worker pool. */
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PARAM_BYTES 32764 /* CUDA's limit on kernel parameters */

struct launch_work {
    struct work w;
    struct pool_job job;
    extmem_kernel fn;
    extmem_dim3 grid, block;
    size_t args_size;
    _Alignas(16) unsigned char args[];
};

static void run_block(struct pool_job *job, uint64_t index)
{
    struct launch_work *l = (struct launch_work *)((char *)job - offsetof(struct launch_work, job));
    extmem_block b;
    b.gridDim = l->grid;
    b.blockDim = l->block;
    b.blockIdx.x = (unsigned int)(index % l->grid.x);
    b.blockIdx.y = (unsigned int)(index / l->grid.x % l->grid.y);
    b.blockIdx.z = (unsigned int)(index / ((uint64_t)l->grid.x * l->grid.y));
    l->fn(&b, l->args_size ? l->args : NULL);
}

static void run_launch(struct work *w)
{
    struct launch_work *l = (struct launch_work *)w;
    pool_run(&l->job);
    free(l);
}

static void discard_launch(struct work *w) { free(w); }

static CUresult check_dims(const char *what, extmem_dim3 d, const unsigned int max[3])
{
    const unsigned int v[3] = {d.x, d.y, d.z};
    static const char axis[] = "xyz";
    for (int i = 0; i < 3; ++i) {
        if (v[i] == 0)
            return fail(CUDA_ERROR_INVALID_VALUE, "extmem_launch_kernel: %s.%c is 0", what, axis[i]);
        if (v[i] > max[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "extmem_launch_kernel: %s.%c is %u: the device allows at most %u", what,
                        axis[i], v[i], max[i]);
    }
    return CUDA_SUCCESS;
}

CUresult extmem_launch_kernel(extmem_kernel fn, extmem_dim3 grid, extmem_dim3 block, const void *args,
                              size_t args_size, CUstream hStream)
{
    static const unsigned int grid_max[3] = {2147483647u, 65535u, 65535u};
    static const unsigned int block_max[3] = {1024u, 1024u, 64u};
    struct target t;
    CUresult r = target_get("extmem_launch_kernel", hStream, &t);
    if (r)
        return r;
    if (!fn)
        r = fail(CUDA_ERROR_INVALID_VALUE, "extmem_launch_kernel: fn is NULL");
    else if (!args && args_size)
        r = fail(CUDA_ERROR_INVALID_VALUE, "extmem_launch_kernel: args is NULL but args_size is %zu", args_size);
    else if (args_size > MAX_PARAM_BYTES)
        r = fail(CUDA_ERROR_INVALID_VALUE, "extmem_launch_kernel: args_size %zu exceeds the %d bytes of kernel parameters",
                 args_size, MAX_PARAM_BYTES);
    else if (!(r = check_dims("grid", grid, grid_max)) && !(r = check_dims("block", block, block_max)) &&
             (uint64_t)block.x * block.y * block.z > 1024)
        r = fail(CUDA_ERROR_INVALID_VALUE, "extmem_launch_kernel: block has %llu threads: at most 1024",
                 (unsigned long long)block.x * block.y * block.z);
    struct launch_work *l = NULL;
    if (!r && !(l = calloc(1, sizeof(*l) + args_size)))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "extmem_launch_kernel: out of host memory");
    if (!r) {
        l->w.run = run_launch;
        l->w.discard = discard_launch;
        l->job.run = run_block;
        l->job.count = (uint64_t)grid.x * grid.y * grid.z;
        l->fn = fn;
        l->grid = grid;
        l->block = block;
        l->args_size = args_size;
        if (args_size)
            memcpy(l->args, args, args_size);
        r = target_submit(&t, &l->w);
    }
    target_put(&t);
    return r;
}
