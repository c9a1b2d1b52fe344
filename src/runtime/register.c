/*
 * src/runtime/register.c: the registration and launch ABI of compiled CUDA programs.
 *
 * A CUDA compiler turns each translation unit's device code into a fat binary embedded in the
 * host object, and emits a constructor that registers it: __cudaRegisterFatBinary with a
 * wrapper {magic 0x466243b1, version, data, unused}, then one __cudaRegisterFunction per
 * kernel (its host stub, the address a program launches, and its mangled device name) and one
 * __cudaRegisterVar per __device__ / __constant__ variable (its host shadow and device name).
 * nvcc's crt/host_runtime.h and clang's CGCUDANV code generation both follow that shape.
 *
 * Nothing is loaded at registration: constructors run before main, before the program has
 * picked a device, and CUDA loads a module lazily, in the context where it is first used
 * (CUDA_MODULE_LOADING=LAZY is the default since CUDA 12.2). A kernel entry caches the
 * function of the last context and generation it was resolved in, so a launch costs a lookup
 * in a hash table and a comparison.
 *
 * The launch side: `k<<<g, b, s, st>>>(args)` becomes a push of the configuration in the
 * caller and a call of the stub, which pops it and calls cudaLaunchKernel(stub, ...) (clang in
 * CUDA >= 9.2 mode, nvcc with __NV_LEGACY_LAUNCH), __cudaGetKernel + __cudaLaunchKernel
 * (nvcc 12.8 and later), or cudaConfigureCall / cudaSetupArgument / cudaLaunch (clang with no
 * CUDA installation to read a version from).
 *
 * The tables are guarded by a spin lock, taken for a lookup or an insertion only: module loads
 * (PTX parsing) run outside it, and a thread that loses the race to install its module
 * unloads it again.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

#define RT_FATBIN_WRAPPER_MAGIC 0x466243b1u
#define RT_KERNEL_MAGIC         0x6b65726eu /* "kern": __cudaLaunchKernel checks its handle */
#define RT_BUCKETS              256
#define RT_KERNEL_RESOLVED      4
#define RT_CONFIG_DEPTH         16
#define RT_ARG_BYTES            4096 /* CUDA's limit on a kernel's parameters until 12.1 */
#define RT_ARG_COUNT            512

/* The wrapper a compiler emits in .nvFatBinSegment (nvcc's fatbinary_section.h, clang's
 * __cuda_fatbin_wrapper): the same four fields in both. */
struct rt_wrapper {
    int magic;
    int version;
    const void *data;
    const void *unused;
};

struct rt_module {
    CUcontext ctx;
    unsigned int generation;
    CUmodule module;
    size_t images;          /* a link's module: how many of its images it holds */
    struct rt_module *next;
};

/* Relocatable device code (nvcc -rdc=true, clang -fgpu-rdc; link part): the images one link
 * joins, loaded as one module per context through cuLinkCreate .. cuLinkComplete. nvcc's
 * device-link stub registers a version 2 wrapper whose last field is the NULL-terminated list of
 * the translation units' fat binaries (crt/link.stub: __cudaPrelinkedFatbins), each its own
 * link. clang's units register themselves one by one (version 2, no list: the stub that
 * ExtmemCuda.cmake makes per unit), all joining the process's one link of clang units. */
struct rt_link {
    const void **images;    /* fat binary containers or PTX texts */
    size_t n, cap;
    struct rt_module *modules;
    unsigned int refs;      /* the registrations that use it */
};

struct rt_fatbin {
    const void *slot;       /* the handle points here: compilers only pass it back */
    const void *image;      /* the wrapper's data */
    char bad[160];          /* why the image cannot be loaded; empty when it can */
    struct rt_module *modules;
    struct rt_link *link;   /* relocatable device code: the link that holds it, else NULL */
    struct rt_fatbin *next; /* every registered fat binary */
};

struct rt_kernel {
    uint32_t magic;
    const void *host;       /* the stub */
    const char *name;       /* the device name, from the program's read-only data */
    struct rt_fatbin *fb;
    struct rt_kernel *next; /* bucket chain */
    /* The last resolution, read and written under the lock. */
    CUcontext ctx;
    unsigned int generation;
    CUfunction function;
    /* The functions it resolved to lately (a context each), for rt_kernel_host: a graph node
     * made in one context is read back after a launch resolved the kernel in another. */
    CUfunction resolved[RT_KERNEL_RESOLVED];
    unsigned int resolved_next;
};

struct rt_var {
    const void *host;       /* the host shadow (a managed variable: its pointer's address) */
    const char *name;
    size_t size;
    void **managed;         /* __cudaRegisterManagedVar: where the host reads the address */
    struct rt_fatbin *fb;
    struct rt_var *next;
};

static atomic_flag rt_reg_lock = ATOMIC_FLAG_INIT;
static struct rt_fatbin *rt_fatbins;
static struct rt_link rt_clang_link; /* clang -fgpu-rdc's units, all of the process's */
static struct rt_kernel *rt_kernels[RT_BUCKETS];
static struct rt_var *rt_vars[RT_BUCKETS];

static void reg_lock(void)
{
    while (atomic_flag_test_and_set_explicit(&rt_reg_lock, memory_order_acquire))
        ;
}

static void reg_unlock(void)
{
    atomic_flag_clear_explicit(&rt_reg_lock, memory_order_release);
}

static size_t bucket(const void *p)
{
    uintptr_t v = (uintptr_t)p;
    return (size_t)((v >> 4) ^ (v >> 12)) % RT_BUCKETS;
}

static struct rt_fatbin *fatbin_of(void **handle)
{
    /* The handle is the address of the first member. */
    return (struct rt_fatbin *)(void *)handle;
}

/* ---- Registration ---------------------------------------------------------------------- */

/* A fat binary container with entries (nvcc's device-link stub registers an empty one when its
 * units' code stays relocatable PTX). */
static bool container_has_entries(const void *image)
{
    const unsigned char *p = image;
    if (!(p[0] == 0x50 && p[1] == 0xed && p[2] == 0x55 && p[3] == 0xba))
        return true; /* PTX text */
    uint64_t body;
    memcpy(&body, p + 8, sizeof body);
    return body != 0;
}

static bool link_append(struct rt_link *l, const void *image)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 8;
        const void **n = realloc(l->images, ncap * sizeof *n);
        if (n == NULL)
            return false;
        l->images = n;
        l->cap = ncap;
    }
    l->images[l->n++] = image;
    return true;
}

/* A version 2 wrapper: relocatable device code (struct rt_link). */
static void register_linked(struct rt_fatbin *fb, const struct rt_wrapper *w)
{
    if (w->unused == NULL) {
        /* A clang unit: it joins the process's clang link. */
        if (w->data == NULL) {
            snprintf(fb->bad, sizeof fb->bad, "the wrapper holds no device code");
            return;
        }
        reg_lock();
        bool ok = link_append(&rt_clang_link, w->data);
        if (ok) {
            rt_clang_link.refs++;
            fb->link = &rt_clang_link;
        }
        reg_unlock();
        if (!ok)
            snprintf(fb->bad, sizeof fb->bad, "out of host memory for the relocatable device code");
        return;
    }
    /* nvcc's device-link stub: its own (often empty) fat binary, then its units'. */
    struct rt_link *l = calloc(1, sizeof *l);
    bool ok = l != NULL;
    if (ok && w->data != NULL && container_has_entries(w->data))
        ok = link_append(l, w->data);
    for (const void *const *unit = w->unused; ok && *unit != NULL; ++unit)
        ok = link_append(l, *unit);
    if (!ok) {
        if (l)
            free(l->images);
        free(l);
        snprintf(fb->bad, sizeof fb->bad, "out of host memory for the relocatable device code");
        return;
    }
    l->refs = 1;
    fb->link = l;
}

void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin)
{
    struct rt_fatbin *fb = calloc(1, sizeof *fb);
    if (fb == NULL) {
        /* Start-up code has no way to fail: kernels of this unit will be unknown, and say so. */
        rt_fail(cudaErrorMemoryAllocation, "__cudaRegisterFatBinary: out of host memory");
        return NULL;
    }
    const struct rt_wrapper *w = fatCubin;
    fb->slot = fatCubin;
    if (w == NULL)
        snprintf(fb->bad, sizeof fb->bad, "the compiler passed no fat binary wrapper");
    else if ((uint32_t)w->magic != RT_FATBIN_WRAPPER_MAGIC)
        snprintf(fb->bad, sizeof fb->bad, "the wrapper's magic is 0x%08x, not 0x%08x", (unsigned)w->magic,
                 RT_FATBIN_WRAPPER_MAGIC);
    else if (w->version != 1 && w->version != 2)
        snprintf(fb->bad, sizeof fb->bad, "wrapper version %d is none that nvcc or clang write (1, or 2 for "
                 "relocatable device code)", w->version);
    else if (w->version == 2)
        register_linked(fb, w);
    else if (w->data == NULL)
        snprintf(fb->bad, sizeof fb->bad, "the wrapper holds no device code");
    else
        fb->image = w->data;
    reg_lock();
    fb->next = rt_fatbins;
    rt_fatbins = fb;
    reg_unlock();
    return (void **)&fb->slot;
}

void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    /* Loading waits for the first use (see the file comment). */
    (void)fatCubinHandle;
}

void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim,
                                      dim3 *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    if (fatCubinHandle == NULL || hostFun == NULL || deviceName == NULL)
        return;
    struct rt_kernel *k = calloc(1, sizeof *k);
    if (k == NULL) {
        rt_fail(cudaErrorMemoryAllocation, "__cudaRegisterFunction: out of host memory for %s", deviceName);
        return;
    }
    k->magic = RT_KERNEL_MAGIC;
    k->host = hostFun;
    k->name = deviceName;
    k->fb = fatbin_of(fatCubinHandle);
    size_t b = bucket(hostFun);
    reg_lock();
    k->next = rt_kernels[b];
    rt_kernels[b] = k;
    reg_unlock();
}

static void register_var(void **handle, const void *host, void **managed, const char *name, size_t size)
{
    if (handle == NULL || host == NULL || name == NULL)
        return;
    struct rt_var *v = calloc(1, sizeof *v);
    if (v == NULL) {
        rt_fail(cudaErrorMemoryAllocation, "__cudaRegisterVar: out of host memory for %s", name);
        return;
    }
    v->host = host;
    v->name = name;
    v->size = size;
    v->managed = managed;
    v->fb = fatbin_of(handle);
    size_t b = bucket(host);
    reg_lock();
    v->next = rt_vars[b];
    rt_vars[b] = v;
    reg_unlock();
}

void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName,
                                 int ext, size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)constant, (void)global;
    register_var(fatCubinHandle, hostVar, NULL, deviceName, size);
}

void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                                        const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)constant, (void)global;
    /* The host reaches a managed variable through *hostVarPtrAddress, which the module load
     * points at the variable's (host-visible) device storage. */
    register_var(fatCubinHandle, hostVarPtrAddress, hostVarPtrAddress, deviceName, size);
}

void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    if (fatCubinHandle == NULL)
        return;
    struct rt_fatbin *fb = fatbin_of(fatCubinHandle);
    reg_lock();
    for (struct rt_fatbin **p = &rt_fatbins; *p; p = &(*p)->next)
        if (*p == fb) {
            *p = fb->next;
            break;
        }
    for (size_t b = 0; b < RT_BUCKETS; ++b) {
        for (struct rt_kernel **p = &rt_kernels[b]; *p;) {
            struct rt_kernel *k = *p;
            if (k->fb == fb) {
                *p = k->next;
                k->magic = 0;
                free(k);
            } else {
                p = &k->next;
            }
        }
        for (struct rt_var **p = &rt_vars[b]; *p;) {
            struct rt_var *v = *p;
            if (v->fb == fb) {
                *p = v->next;
                free(v);
            } else {
                p = &v->next;
            }
        }
    }
    reg_unlock();
    /* Runs at exit (atexit from the compiler's constructor: before the driver's own
     * destructors, which run last) or when a library with kernels is unloaded. A module of the
     * current generation is unloaded in its context, if that context is still alive; one a
     * reset or a destroyed context took with it needs nothing. */
    unsigned int generation = rt_context_generation();
    struct rt_module *modules = fb->modules;
    if (fb->link) {
        /* The link's modules go with its last registration. */
        reg_lock();
        struct rt_link *l = fb->link;
        modules = NULL;
        if (--l->refs == 0) {
            modules = l->modules;
            l->modules = NULL;
            free(l->images);
            l->images = NULL;
            l->n = l->cap = 0;
            if (l != &rt_clang_link)
                free(l);
        }
        reg_unlock();
    }
    for (struct rt_module *m = modules; m;) {
        struct rt_module *next = m->next;
        if (m->generation == generation && cuCtxPushCurrent(m->ctx) == CUDA_SUCCESS) {
            (void)cuModuleUnload(m->module);
            CUcontext popped;
            (void)cuCtxPopCurrent(&popped);
        }
        free(m);
        m = next;
    }
    free(fb);
}

/* ---- Loading --------------------------------------------------------------------------- */

/* A link's first n images as one module of the current context, through the driver's linker
 * (cuLinkCreate .. cuModuleLoadData). A unit whose fat binary has no PTX the device can run is
 * left out: libcudadevrt's (SASS only), whose functions the engine provides itself, and SASS-only
 * units, whose kernels are then not found, saying so. */
static CUresult link_load(const struct rt_link *l, size_t n, CUmodule *out)
{
    CUlinkState st;
    CUresult r = cuLinkCreate(0, NULL, NULL, &st);
    if (r != CUDA_SUCCESS)
        return r;
    for (size_t i = 0; i < n && r == CUDA_SUCCESS; ++i) {
        const unsigned char *p = l->images[i];
        bool fatbin = p[0] == 0x50 && p[1] == 0xed && p[2] == 0x55 && p[3] == 0xba;
        size_t size;
        if (fatbin) {
            uint16_t header;
            uint64_t body;
            memcpy(&header, p + 6, sizeof header);
            memcpy(&body, p + 8, sizeof body);
            size = (size_t)(header + body);
        } else {
            size = strlen((const char *)p) + 1;
        }
        char name[48];
        snprintf(name, sizeof name, "relocatable unit %zu", i + 1);
        r = cuLinkAddData(st, fatbin ? CU_JIT_INPUT_FATBINARY : CU_JIT_INPUT_PTX, (void *)(uintptr_t)p, size, name, 0,
                          NULL, NULL);
        if (r == CUDA_ERROR_NO_BINARY_FOR_GPU)
            r = CUDA_SUCCESS;
    }
    void *image = NULL;
    size_t image_size = 0;
    if (r == CUDA_SUCCESS)
        r = cuLinkComplete(st, &image, &image_size);
    if (r == CUDA_SUCCESS)
        r = cuModuleLoadData(out, image);
    (void)cuLinkDestroy(st);
    return r;
}

/* The fat binary's module in the current context (ctx, generation), loaded on first use. */
static cudaError_t fatbin_module(const char *fn, struct rt_fatbin *fb, CUcontext ctx, unsigned int generation,
                                 CUmodule *out)
{
    if (fb->bad[0])
        return rt_fail(cudaErrorInvalidKernelImage, "%s: the device code cannot be loaded: %s", fn, fb->bad);
    /* A linked unit's module is its link's, holding every image registered so far. */
    struct rt_link *link = fb->link;
    reg_lock();
    struct rt_module **list = link ? &link->modules : &fb->modules;
    size_t images = link ? link->n : 0;
    for (struct rt_module *m = *list; m; m = m->next)
        if (m->ctx == ctx && m->generation == generation && m->images == images) {
            *out = m->module;
            reg_unlock();
            return cudaSuccess;
        }
    reg_unlock();

    struct rt_module *m = calloc(1, sizeof *m);
    if (m == NULL)
        return rt_fail(cudaErrorMemoryAllocation, "%s: out of host memory", fn);
    CUresult r;
    if (link) {
        r = link_load(link, images, &m->module);
    } else {
        /* nvcc embeds a fat binary; extmem's CMake helper has clang embed the PTX text itself
         * (NUL-terminated), which cuModuleLoadData takes as the driver does. */
        const unsigned char *head = fb->image; /* byte by byte: PTX text may be shorter than 4 */
        bool fatbin = head[0] == 0x50 && head[1] == 0xed && head[2] == 0x55 && head[3] == 0xba;
        r = fatbin ? cuModuleLoadFatBinary(&m->module, fb->image) : cuModuleLoadData(&m->module, fb->image);
    }
    if (r != CUDA_SUCCESS) {
        free(m);
        return rt_cu(r);
    }
    m->ctx = ctx;
    m->generation = generation;
    m->images = images;

    reg_lock();
    for (struct rt_module *o = *list; o; o = o->next)
        if (o->ctx == ctx && o->generation == generation && o->images == images) {
            /* Another thread loaded it meanwhile: keep one. */
            *out = o->module;
            reg_unlock();
            (void)cuModuleUnload(m->module);
            free(m);
            return cudaSuccess;
        }
    /* Entries of earlier generations name modules a reset destroyed: drop them. */
    for (struct rt_module **p = list; *p;) {
        if ((*p)->generation != generation) {
            struct rt_module *old = *p;
            *p = old->next;
            free(old);
        } else {
            p = &(*p)->next;
        }
    }
    m->next = *list;
    *list = m;
    reg_unlock();
    *out = m->module;
    return cudaSuccess;
}

/* Points every managed variable of fb at its storage in module. Entries live as long as their
 * fat binary, which is not unregistered while code that uses it runs, and a chain only grows
 * at its head: a chain read from its head taken under the lock is stable. */
static cudaError_t bind_managed(struct rt_fatbin *fb, CUmodule module)
{
    for (size_t b = 0; b < RT_BUCKETS; ++b) {
        reg_lock();
        struct rt_var *v = rt_vars[b];
        reg_unlock();
        for (; v; v = v->next) {
            if (v->fb != fb || v->managed == NULL)
                continue;
            CUdeviceptr dptr;
            size_t size;
            CUresult r = cuModuleGetGlobal(&dptr, &size, module, v->name);
            if (r != CUDA_SUCCESS)
                return rt_cu(r);
            *v->managed = (void *)(uintptr_t)dptr;
        }
    }
    return cudaSuccess;
}

static cudaError_t current(CUcontext *ctx, unsigned int *generation)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUresult r = cuCtxGetCurrent(ctx);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    *generation = rt_context_generation();
    return cudaSuccess;
}

static struct rt_kernel *kernel_find(const void *host)
{
    reg_lock();
    struct rt_kernel *k = rt_kernels[bucket(host)];
    while (k && k->host != host)
        k = k->next;
    reg_unlock();
    return k;
}

static cudaError_t kernel_resolve(const char *fn, struct rt_kernel *k, CUfunction *f)
{
    CUcontext ctx = NULL;
    unsigned int generation = 0;
    cudaError_t err = current(&ctx, &generation);
    if (err != cudaSuccess)
        return err;
    reg_lock();
    if (k->function && k->ctx == ctx && k->generation == generation) {
        *f = k->function;
        reg_unlock();
        return cudaSuccess;
    }
    reg_unlock();

    CUmodule module;
    err = fatbin_module(fn, k->fb, ctx, generation, &module);
    if (err != cudaSuccess)
        return err;
    err = bind_managed(k->fb, module);
    if (err != cudaSuccess)
        return err;
    CUfunction found;
    CUresult r = cuModuleGetFunction(&found, module, k->name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return rt_fail(cudaErrorInvalidDeviceFunction,
                       "%s: kernel %s is registered but its module has no such entry: the fat binary holds no "
                       "PTX for it",
                       fn, k->name);
    if (r != CUDA_SUCCESS)
        return rt_cu(r);
    reg_lock();
    k->function = found;
    k->ctx = ctx;
    k->generation = generation;
    bool known = false;
    for (unsigned int i = 0; i < RT_KERNEL_RESOLVED; ++i)
        known |= k->resolved[i] == found;
    if (!known)
        k->resolved[k->resolved_next++ % RT_KERNEL_RESOLVED] = found;
    reg_unlock();
    *f = found;
    return cudaSuccess;
}

cudaError_t rt_kernel_function(const char *fn, const void *hostFun, CUfunction *f)
{
    if (hostFun == NULL)
        return rt_fail(cudaErrorInvalidDeviceFunction, "%s: func is NULL", fn);
    struct rt_kernel *k = kernel_find(hostFun);
    /* "If the specified function does not exist, then it is assumed to be a cudaKernel_t and
     * used as is" (cuda_runtime_api.h, for every call taking a kernel): a kernel handle from
     * cudaLibraryGetKernel or cudaGetKernel. The driver checks the handle. */
    if (k == NULL) {
        rt_context();
        CUresult r = cuKernelGetFunction(f, (CUkernel)(uintptr_t)hostFun);
        if (r == CUDA_SUCCESS)
            return cudaSuccess;
    }
    /* NVIDIA's runtime says cudaErrorInvalidResourceHandle for an address that names no
     * kernel (probed on an H100, CUDA 13.0), cudaErrorInvalidDeviceFunction for NULL. */
    if (k == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle,
                       "%s: %p is not a kernel: no __global__ function was registered with this host address "
                       "(was the program compiled as CUDA, and its device code embedded?)",
                       fn, hostFun);
    return kernel_resolve(fn, k, f);
}

const void *rt_kernel_host(CUfunction f)
{
    /* A kernel a graph node names was resolved when the node was made, in its context; each
     * kernel keeps the functions of its last few resolutions. */
    const void *host = NULL;
    if (f == NULL)
        return NULL;
    reg_lock();
    for (size_t b = 0; b < RT_BUCKETS && host == NULL; ++b)
        for (struct rt_kernel *k = rt_kernels[b]; k != NULL && host == NULL; k = k->next)
            for (unsigned int i = 0; i < RT_KERNEL_RESOLVED && host == NULL; ++i)
                if (k->resolved[i] == f)
                    host = k->host;
    reg_unlock();
    return host;
}

cudaError_t rt_symbol(const char *fn, const void *symbol, CUdeviceptr *dptr, size_t *size)
{
    if (symbol == NULL)
        return rt_fail(cudaErrorInvalidSymbol, "%s: symbol is NULL", fn);
    reg_lock();
    struct rt_var *v = rt_vars[bucket(symbol)];
    while (v && v->host != symbol)
        v = v->next;
    reg_unlock();
    if (v == NULL)
        return rt_fail(cudaErrorInvalidSymbol,
                       "%s: %p is not a device variable: pass the __device__ or __constant__ variable itself "
                       "(as in cudaMemcpyToSymbol(var, ...)), not its name or address as a string",
                       fn, symbol);
    CUcontext ctx = NULL;
    unsigned int generation = 0;
    cudaError_t err = current(&ctx, &generation);
    if (err != cudaSuccess)
        return err;
    CUmodule module;
    err = fatbin_module(fn, v->fb, ctx, generation, &module);
    if (err != cudaSuccess)
        return err;
    err = bind_managed(v->fb, module);
    if (err != cudaSuccess)
        return err;
    CUresult r = cuModuleGetGlobal(dptr, size, module, v->name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return rt_fail(cudaErrorInvalidSymbol, "%s: variable %s is registered but its module does not define it", fn,
                       v->name);
    return rt_cu(r);
}

char CUDARTAPI __cudaInitModule(void **fatCubinHandle)
{
    /* nvcc calls this before host code touches a managed variable: load now, so that the
     * variable's pointer is set. */
    if (fatCubinHandle == NULL)
        return 0;
    struct rt_fatbin *fb = fatbin_of(fatCubinHandle);
    CUcontext ctx = NULL;
    unsigned int generation = 0;
    CUmodule module;
    if (current(&ctx, &generation) != cudaSuccess ||
        fatbin_module("__cudaInitModule", fb, ctx, generation, &module) != cudaSuccess ||
        bind_managed(fb, module) != cudaSuccess)
        return 0;
    return 1;
}

/* ---- Launches -------------------------------------------------------------------------- */

struct rt_config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
};

/* Per thread: the configurations pushed and not yet popped, and the legacy ABI's arguments. */
static RT_THREAD_LOCAL struct rt_config rt_configs[RT_CONFIG_DEPTH];
static RT_THREAD_LOCAL int rt_config_count;
static RT_THREAD_LOCAL _Alignas(16) unsigned char rt_arg_bytes[RT_ARG_BYTES];
static RT_THREAD_LOCAL size_t rt_arg_offsets[RT_ARG_COUNT];
static RT_THREAD_LOCAL int rt_arg_count;

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream)
{
    if (rt_config_count == RT_CONFIG_DEPTH) {
        rt_fail(cudaErrorInvalidConfiguration, "__cudaPushCallConfiguration: more than %d launches nested",
                RT_CONFIG_DEPTH);
        return 1; /* nonzero: the caller skips the stub */
    }
    rt_configs[rt_config_count++] = (struct rt_config){gridDim, blockDim, sharedMem, stream};
    return 0;
}

cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (rt_config_count == 0)
        return rt_fail(cudaErrorMissingConfiguration,
                       "__cudaPopCallConfiguration: no launch configuration was pushed: a kernel stub was called "
                       "without <<<...>>>");
    struct rt_config c = rt_configs[--rt_config_count];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    *(cudaStream_t *)stream = c.stream;
    return cudaSuccess;
}

static cudaError_t launch_as(const char *fn, CUfunction f, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream, bool cooperative)
{
    /* The shape is the driver's to judge, as with NVIDIA's runtime: a dimension of 0 or a
     * block above the kernel's limit is cudaErrorInvalidValue there (H100, CUDA 13.0). */
    if (shared > UINT32_MAX)
        return rt_fail(cudaErrorInvalidValue, "%s: %zu bytes of dynamic shared memory is too many", fn, shared);
    if (cooperative) /* grid (issue 25) */
        return rt_cu(cuLaunchCooperativeKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                               (unsigned int)shared, stream, args));
    return rt_cu(cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, (unsigned int)shared, stream,
                                args, NULL));
}

static cudaError_t launch(const char *fn, CUfunction f, dim3 grid, dim3 block, void **args, size_t shared,
                          cudaStream_t stream)
{
    return launch_as(fn, f, grid, block, args, shared, stream, false);
}

static cudaError_t launch_host_as(const char *fn, const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                  cudaStream_t stream, bool cooperative)
{
    CUfunction f;
    cudaError_t err = rt_kernel_function(fn, func, &f);
    if (err != cudaSuccess)
        return err;
    return launch_as(fn, f, grid, block, args, shared, stream, cooperative);
}

static cudaError_t launch_host(const char *fn, const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                               cudaStream_t stream)
{
    return launch_host_as(fn, func, grid, block, args, shared, stream, false);
}

/* grid (issue 25): every block of the grid resident at once (cuLaunchCooperativeKernel);
 * cudaErrorCooperativeLaunchTooLarge past the occupancy limit. */
cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                  size_t sharedMem, cudaStream_t stream)
{
    return launch_host_as("cudaLaunchCooperativeKernel", func, gridDim, blockDim, args, sharedMem, stream, true);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                       size_t sharedMem, cudaStream_t stream)
{
    return launch_host_as("cudaLaunchCooperativeKernel", func, gridDim, blockDim, args, sharedMem, rt_ptsz(stream),
                          true);
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                       cudaStream_t stream)
{
    return launch_host("cudaLaunchKernel", func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                            size_t sharedMem, cudaStream_t stream)
{
    return launch_host("cudaLaunchKernel", func, gridDim, blockDim, args, sharedMem, rt_ptsz(stream));
}

cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    if (kernel == NULL)
        return rt_fail(cudaErrorInvalidValue, "__cudaGetKernel: kernel is NULL");
    if (hostFun == NULL)
        return rt_fail(cudaErrorInvalidDeviceFunction, "__cudaGetKernel: hostFun is NULL");
    struct rt_kernel *k = kernel_find(hostFun);
    if (k == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "__cudaGetKernel: %p is not a registered kernel", hostFun);
    /* The handle is the entry itself: loading waits for the launch, in its context. */
    *kernel = (cudaKernel_t)(void *)k;
    return cudaSuccess;
}

/* The public form (CUDA 12.0): the same handle, which __cudaLaunchKernel and the launch calls
 * take. */
cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    const char *fn = "cudaGetKernel";
    if (kernelPtr == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: kernelPtr is NULL", fn);
    if (entryFuncAddr == NULL)
        return rt_fail(cudaErrorInvalidDeviceFunction, "%s: entryFuncAddr is NULL", fn);
    struct rt_kernel *k = kernel_find(entryFuncAddr);
    if (k == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "%s: %p is not a registered kernel", fn, entryFuncAddr);
    *kernelPtr = (cudaKernel_t)(void *)k;
    return cudaSuccess;
}

static cudaError_t launch_kernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                 cudaStream_t stream)
{
    const char *fn = "__cudaLaunchKernel";
    struct rt_kernel *k = (struct rt_kernel *)(void *)kernel;
    if (k == NULL)
        return rt_fail(cudaErrorInvalidDeviceFunction, "%s: kernel is NULL (its __cudaGetKernel failed)", fn);
    if (k->magic != RT_KERNEL_MAGIC)
        return rt_fail(cudaErrorInvalidResourceHandle,
                       "%s: kernel %p is not from __cudaGetKernel (its registration failed, or its fat binary "
                       "was unregistered)",
                       fn, (void *)kernel);
    CUfunction f;
    cudaError_t err = kernel_resolve(fn, k, &f);
    if (err != cudaSuccess)
        return err;
    return launch(fn, f, grid, block, args, shared, stream);
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream)
{
    return launch_kernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                              size_t sharedMem, cudaStream_t stream)
{
    return launch_kernel(kernel, gridDim, blockDim, args, sharedMem, rt_ptsz(stream));
}

/* cudaLaunchKernelExC: the attributes with no effect here are accepted, the others refused. */
static cudaError_t launch_ex(const cudaLaunchConfig_t *config, const void *func, void **args, bool ptsz)
{
    const char *fn = "cudaLaunchKernelExC";
    if (config == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: config is NULL", fn);
    if (config->numAttrs != 0 && config->attrs == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: numAttrs is %u and attrs is NULL", fn, config->numAttrs);
    bool cooperative = false, cluster = false;
    unsigned cdim[3] = {1, 1, 1};
    for (unsigned int i = 0; i < config->numAttrs; ++i) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributeClusterSchedulingPolicyPreference:
        case cudaLaunchAttributePriority:
            break;
        case cudaLaunchAttributeCooperative:
            cooperative = a->val.cooperative != 0; /* grid (issue 25): cuLaunchCooperativeKernel's launch */
            break;
        case cudaLaunchAttributeClusterDimension:
            /* clusters: the driver checks the shape with the kernel (the last attribute decides) */
            cluster = true;
            cdim[0] = a->val.clusterDim.x, cdim[1] = a->val.clusterDim.y, cdim[2] = a->val.clusterDim.z;
            break;
        default:
            return rt_fail(cudaErrorNotSupported, "%s: attrs[%u] has attribute %d, which extmem does not run", fn, i,
                           (int)a->id);
        }
    }
    if (cluster) {
        CUfunction f;
        cudaError_t err = rt_kernel_function(fn, func, &f);
        if (err != cudaSuccess)
            return err;
        if (config->dynamicSmemBytes > UINT32_MAX)
            return rt_fail(cudaErrorInvalidValue, "%s: %zu bytes of dynamic shared memory is too many", fn,
                           config->dynamicSmemBytes);
        CUlaunchAttribute attrs[2];
        memset(attrs, 0, sizeof(attrs));
        attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[0].value.clusterDim.x = cdim[0], attrs[0].value.clusterDim.y = cdim[1];
        attrs[0].value.clusterDim.z = cdim[2];
        attrs[1].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        attrs[1].value.cooperative = cooperative;
        CUlaunchConfig c = {config->gridDim.x, config->gridDim.y, config->gridDim.z, config->blockDim.x,
                            config->blockDim.y, config->blockDim.z, (unsigned)config->dynamicSmemBytes,
                            ptsz ? rt_ptsz(config->stream) : config->stream, attrs, 2};
        return rt_cu(cuLaunchKernelEx(&c, f, args, NULL));
    }
    return launch_host_as(fn, func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                          ptsz ? rt_ptsz(config->stream) : config->stream, cooperative);
}

cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return launch_ex(config, func, args, false);
}

cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return launch_ex(config, func, args, true);
}

/* ---- The legacy launch ABI ---- */

cudaError_t CUDARTAPI cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream)
{
    if (__cudaPushCallConfiguration(gridDim, blockDim, sharedMem, stream) != 0)
        return cudaErrorInvalidConfiguration;
    rt_arg_count = 0;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetupArgument(const void *arg, size_t size, size_t offset)
{
    if (offset > RT_ARG_BYTES || size > RT_ARG_BYTES - offset || rt_arg_count == RT_ARG_COUNT)
        return rt_fail(cudaErrorInvalidValue,
                       "cudaSetupArgument: an argument of %zu bytes at offset %zu passes the %d bytes of kernel "
                       "parameters",
                       size, offset, RT_ARG_BYTES);
    if (arg == NULL && size != 0)
        return rt_fail(cudaErrorInvalidValue, "cudaSetupArgument: arg is NULL");
    if (size)
        memcpy(rt_arg_bytes + offset, arg, size);
    rt_arg_offsets[rt_arg_count++] = offset;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLaunch(const void *func)
{
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
    int count = rt_arg_count;
    rt_arg_count = 0;
    if (rt_config_count == 0)
        return rt_fail(cudaErrorMissingConfiguration, "cudaLaunch: no cudaConfigureCall came before it");
    cudaError_t err = __cudaPopCallConfiguration(&grid, &block, &shared, &stream);
    if (err != cudaSuccess)
        return err;
    void *args[RT_ARG_COUNT];
    for (int i = 0; i < count; ++i)
        args[i] = rt_arg_bytes + rt_arg_offsets[i];
    return launch_host("cudaLaunch", func, grid, block, args, shared, stream);
}
