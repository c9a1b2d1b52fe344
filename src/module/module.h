/*
 * src/module/module.h: modules, functions, libraries and kernels: the handles the driver API gives
 * out over the kernel engine's decoded modules (src/kernel/kernel.h).
 *
 * A module belongs to the context that loaded it and dies with it; its functions are
 * registered objects that die with the module, so a CUfunction kept past cuModuleUnload is
 * answered CUDA_ERROR_INVALID_HANDLE, never followed. Work queued with a kernel holds a
 * reference on its module, so the decoded code outlives the unload until the work is done;
 * the module's device memory (its .global and .const variables) is freed only after the
 * device has drained (device_release_begin), as cuMemFree frees.
 */
#ifndef EXTMEM_MODULE_H
#define EXTMEM_MODULE_H

#include "device/device.h"
#include "memory/memory.h"
#include "kernel/kernel.h"

struct function;

struct module {
    struct obj base;
    struct ctx *ctx;           /* a reference: the context that loaded it */
    struct kmodule *km;
    struct range *data;        /* device memory of the variables, or NULL when there are none */
    struct list_node ctx_node; /* ctx->modules, while listed */
    bool listed;               /* in ctx->modules: whoever unlists it tears it down (ctx->lock) */
    bool library_owned;        /* loaded for a CUlibrary: cuLibraryUnload unloads it */
    atomic_bool dead;          /* torn down (its context was destroyed, or it was unloaded) */
    os_mutex lock;             /* guards funcs */
    struct function **funcs;   /* km->nfuncs entries, each made by the first lookup of its name */
};

struct function {
    struct obj base;
    struct module *mod; /* a reference */
    struct kfunc *kf;   /* an entry of mod->km */
    /* cuFuncSetAttribute / cuFuncSetCacheConfig: read when a launch is queued. */
    atomic_int max_dynamic_shared; /* -1: not set (the default limit applies) */
    atomic_int carveout;           /* -1: no preference */
    atomic_int cache_config;
    atomic_int non_portable_cluster;
    atomic_int cluster_policy;
    atomic_int required_cluster[3]; /* clusters: REQUIRED_CLUSTER_WIDTH/HEIGHT/DEPTH set at run time (0: none) */
    /* The legacy launch path's state (cuFuncSetBlockShape, cuParamSet*; kernel_launch.c), made
     * by its first call; under mod->lock. One allocation, freed with the function. */
    struct legacy_launch *legacy;
};

/* ---- Modules (module.c) ---- */
/* Loads PTX text into ctx: decodes it, gives its variables device memory and registers the
 * module. Errors as cuModuleLoadData (the parser's go to errlog). */
CUresult module_load_ptx(const char *fn, struct ctx *ctx, const char *text, size_t len, const char *name,
                         struct klog *errlog, struct module **out);
/* A module handle from the caller, with a reference; CUDA_ERROR_INVALID_HANDLE otherwise. */
CUresult module_lookup(const char *fn, CUmodule handle, struct module **out);
void module_release(struct module *m);
/* The entry `name` of m as a function handle (the same one each time), with a reference.
 * CUDA_ERROR_INVALID_VALUE: name NULL; CUDA_ERROR_NOT_FOUND: no such kernel. */
CUresult module_function(const char *fn, struct module *m, const char *name, struct function **out);
/* A .global or .const variable: its address and size. CUDA_ERROR_NOT_FOUND when m lacks it. */
CUresult module_global(const char *fn, struct module *m, const char *name, CUdeviceptr *dptr, size_t *bytes);
/* Reads a whole file (NUL-terminated after its size bytes): CUDA_ERROR_INVALID_VALUE for a NULL
 * path, CUDA_ERROR_FILE_NOT_FOUND when it cannot be read. For cuModuleLoad and
 * cuLibraryLoadFromFile. */
CUresult module_read_file(const char *fn, const char *path, char **data, size_t *size);
/* Takes m out of its context's list (false when another caller already did) ... */
bool module_unlist(struct module *m);
/* ... and then tears it down: its functions' handles die, its memory is freed (the caller has
 * waited for the device), its handle dies. Drops the registry's reference. */
void module_teardown(struct module *m);
/* Reads cuModuleLoadDataEx's JIT options: the log buffers go to info/err (empty, NUL-ended),
 * everything else is checked and accepted. CUDA_ERROR_INVALID_VALUE for an unknown option
 * or a value outside its range. */
struct jit_options {
    struct klog info, err;
    int info_index, err_index, wall_index; /* where sizes and the time are written back, or -1 */
};
CUresult jit_options_read(const char *fn, unsigned int n, const CUjit_option *options, void **values,
                          struct jit_options *out);
/* Writes back the log sizes and the wall time, as the driver does. */
void jit_options_finish(const struct jit_options *jo, void **values, float ms);

/* ---- Functions (function.c) ---- */
/* A CUfunction, or a CUkernel (resolved in the current context, as the driver accepts one
 * wherever a function goes), with a reference. CUDA_ERROR_INVALID_HANDLE otherwise. */
CUresult function_lookup(const char *fn, CUfunction handle, struct function **out);
void function_release(struct function *f);
/* The most threads a block of f may have: 1024, or fewer under .maxntid / .reqntid. */
unsigned function_max_threads(const struct kfunc *kf);
/* The dynamic shared memory f may take without (and, set, with) opting in. */
int function_max_dynamic_shared(const struct function *f);
/* grid (issue 25): blocks of `block` threads with `dyn` bytes of dynamic shared memory one
 * multiprocessor holds at once (cuOccupancyMaxActiveBlocksPerMultiprocessor's answer). */
int function_occupancy(const struct function *f, int block, size_t dyn);
/* clusters: the cluster shape f requires (its __cluster_dims__, else the REQUIRED_CLUSTER_*
 * attributes set at run time): false when it requires none. */
bool function_required_cluster(const struct function *f, unsigned dims[3]);
/* clusters: the most blocks a cluster of f may have: 8, or 16 with NON_PORTABLE_CLUSTER_SIZE_ALLOWED
 * (the H100's limits, docs/probes/kernels/cluster), fewer under .maxclusterrank. */
unsigned function_max_cluster(const struct function *f);
/* devrt (issue 25): the occupancy of kf with its defaults (no attribute the host set), as the
 * device runtime answers it. */
int function_occupancy_default(const struct kfunc *kf, int block, size_t dyn);
/* grid (issue 25): w is a kernel launch's work, made cooperative (kernel_launch.c). */
struct work;
bool kernel_work_cooperative(const struct work *w);
/* clusters: w is a kernel launch's work that named a cluster dimension (written to dims). */
bool kernel_work_cluster(const struct work *w, unsigned dims[3]);

/* ---- Libraries (library.c) ---- */
/* The function for kernel handle k in the current context, with a reference. */
CUresult kernel_function(const char *fn, uint64_t k, struct function **out);

/* A kernel's arguments as cuLaunchKernel takes them (kernelParams or extra), copied into one
 * buffer laid out as the parameters are, with each parameter's offset: what a graph's kernel
 * node keeps (src/graph). On success free buf and offsets. */
struct kernel_args {
    unsigned char *buf;
    size_t size;        /* the parameters' bytes */
    uint32_t count;     /* parameters */
    uint32_t *offsets;  /* count of them */
};
/* Sets a graph's conditional value for cudaGraphSetConditional in a kernel (src/graph sets it);
 * false when handle is none of its handles. */
extern bool (*_Atomic kernel_set_conditional_hook)(uint64_t handle, uint32_t value);
CUresult kernel_args_copy(const char *fn, CUfunction f, void **kernelParams, void **extra, struct kernel_args *out);

#endif /* EXTMEM_MODULE_H */
