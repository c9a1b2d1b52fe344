/*
 * Libraries (CUDA 12's context-independent loading): the PTX is checked when the library is
 * loaded and decoded again, as a module, in each context that uses it, on first use
 * (module.h). A CUkernel names an entry of the library; its CUfunction is the entry in the
 * current context's module.
 */
#include "module/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kernel;

struct library {
    struct obj base;
    char *text; /* the PTX */
    size_t len;
    char name[128];
    os_mutex lock;            /* guards mods */
    struct module **mods;     /* a reference each: the library's module in each context */
    uint32_t nmods, cap_mods;
    struct kernel **kernels;  /* one per entry, in declaration order */
    uint32_t nkernels;
};

struct kernel {
    struct obj base;
    struct library *lib; /* a reference */
    char *name;
};

static void library_destroy(struct obj *o)
{
    struct library *lib = (struct library *)o;
    for (uint32_t i = 0; i < lib->nmods; ++i)
        module_release(lib->mods[i]);
    free(lib->mods);
    free(lib->kernels);
    free(lib->text);
    os_mutex_destroy(&lib->lock);
    free(lib);
}

static void kernel_destroy(struct obj *o)
{
    struct kernel *k = (struct kernel *)o;
    obj_release(&k->lib->base);
    free(k->name);
    free(k);
}

static CUresult library_lookup(const char *fn, CUlibrary handle, struct library **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_LIBRARY, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn, obj_status_text(st, OBJ_LIBRARY, (uint64_t)(uintptr_t)handle));
    *out = (struct library *)o;
    return CUDA_SUCCESS;
}

static CUresult kernel_lookup(const char *fn, uint64_t handle, struct kernel **out)
{
    struct obj *o;
    obj_status st = obj_lookup(handle, OBJ_KERNEL, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn, obj_status_text(st, OBJ_KERNEL, handle));
    *out = (struct kernel *)o;
    return CUDA_SUCCESS;
}

/* The library's module in ctx, loaded there on first use; with a reference. */
static CUresult library_module(const char *fn, struct library *lib, struct ctx *ctx, struct module **out)
{
    CUresult r = CUDA_SUCCESS;
    os_mutex_lock(&lib->lock);
    struct module *m = NULL;
    for (uint32_t i = 0; i < lib->nmods && !m; ++i) {
        if (atomic_load(&lib->mods[i]->dead)) { /* its context was destroyed */
            module_release(lib->mods[i]);
            lib->mods[i--] = lib->mods[--lib->nmods];
        } else if (lib->mods[i]->ctx == ctx) {
            m = lib->mods[i];
        }
    }
    if (!m && lib->nmods == lib->cap_mods) {
        uint32_t cap = lib->cap_mods ? lib->cap_mods * 2 : 4;
        struct module **mods = realloc(lib->mods, cap * sizeof(*mods));
        if (!mods)
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the library's modules", fn);
        else {
            lib->mods = mods;
            lib->cap_mods = cap;
        }
    }
    if (!m && !r && !(r = module_load_ptx(fn, ctx, lib->text, lib->len, lib->name, NULL, &m))) {
        m->library_owned = true;
        obj_retain(&m->base); /* the library's */
        lib->mods[lib->nmods++] = m;
    }
    if (m && !r)
        obj_retain(&m->base);
    os_mutex_unlock(&lib->lock);
    if (!r)
        *out = m;
    return r;
}

static CUresult kernel_function_of(const char *fn, struct kernel *k, struct function **out)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct module *m;
    if (!(r = library_module(fn, k->lib, ctx, &m))) {
        r = module_function(fn, m, k->name, out);
        module_release(m);
    }
    ctx_release(ctx);
    return r;
}

CUresult kernel_function(const char *fn, uint64_t handle, struct function **out)
{
    struct kernel *k;
    CUresult r = kernel_lookup(fn, handle, &k);
    if (r)
        return r;
    r = kernel_function_of(fn, k, out);
    obj_release(&k->base);
    return r;
}

static CUresult check_library_options(const char *fn, unsigned int n, const CUlibraryOption *options, void **values,
                                      bool from_file)
{
    if (n && (!options || !values))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numLibraryOptions is %u but %s is NULL", fn, n,
                    !options ? "libraryOptions" : "libraryOptionValues");
    for (unsigned i = 0; i < n; ++i) {
        if (options[i] == CU_LIBRARY_BINARY_IS_PRESERVED && from_file)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: CU_LIBRARY_BINARY_IS_PRESERVED is for cuLibraryLoadData only", fn);
        if (options[i] == CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE)
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE: the software "
                        "device has no unified function table", fn);
        if (options[i] != CU_LIBRARY_BINARY_IS_PRESERVED)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: libraryOptions[%u] is %d, not a CUlibraryOption", fn, i,
                        (int)options[i]);
    }
    return CUDA_SUCCESS;
}

/* Makes the library's kernels: one handle per entry of the module. */
static CUresult make_kernels(const char *fn, struct library *lib, const struct kmodule *km)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < km->nfuncs; ++i)
        n += km->funcs[i]->entry;
    if (n && !(lib->kernels = calloc(n, sizeof(*lib->kernels))))
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the library's kernels", fn);
    for (uint32_t i = 0; i < km->nfuncs; ++i) {
        if (!km->funcs[i]->entry)
            continue;
        struct kernel *k = calloc(1, sizeof(*k));
        if (!k || !(k->name = malloc(strlen(km->funcs[i]->name) + 1))) {
            free(k);
            return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the library's kernels", fn);
        }
        strcpy(k->name, km->funcs[i]->name);
        obj_retain(&lib->base);
        k->lib = lib;
        if (!obj_register(&k->base, OBJ_KERNEL, kernel_destroy)) {
            kernel_destroy(&k->base);
            return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
        }
        lib->kernels[lib->nkernels++] = k;
    }
    return CUDA_SUCCESS;
}

static void unregister_kernels(struct library *lib)
{
    for (uint32_t i = 0; i < lib->nkernels; ++i)
        obj_unregister(&lib->kernels[i]->base);
    lib->nkernels = 0;
}

static CUresult load(const char *fn, CUlibrary *library, const void *code, size_t size, const char *file,
                     CUjit_option *jitOptions, void **jitValues, unsigned int numJit, CUlibraryOption *libOptions,
                     void **libValues, unsigned int numLib)
{
    if (!library)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: library is NULL", fn);
    struct jit_options jo;
    CUresult r = jit_options_read(fn, numJit, jitOptions, jitValues, &jo);
    if (r || (r = check_library_options(fn, numLib, libOptions, libValues, file != NULL)))
        return r;
    uint64_t start = os_time_ns();
    struct library *lib = calloc(1, sizeof(*lib));
    if (!lib)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the library", fn);
    os_mutex_init(&lib->lock);
    char name[96];
    struct kmodule *km = NULL;
    if ((r = image_ptx(fn, code, size, device_sm(), &lib->text, &lib->len, name)))
        goto fail_lib;
    snprintf(lib->name, sizeof(lib->name), "%s%s%s%s", file ? file : "", file ? " (" : "", name, file ? ")" : "");
    /* Decoded once now so that a bad image fails here, as on the driver, and to learn the
     * kernels' names; each context decodes its own copy when it first uses the library. */
    if ((r = kmod_parse(fn, lib->text, lib->len, lib->name, &jo.err, &km)))
        goto fail_lib;
    if (!obj_register(&lib->base, OBJ_LIBRARY, library_destroy)) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
        goto fail_lib;
    }
    if ((r = make_kernels(fn, lib, km))) {
        unregister_kernels(lib);
        obj_unregister(&lib->base);
        goto out;
    }
    klog_printf(&jo.info, "extmem: loaded library %s: %u kernels\n", lib->name, lib->nkernels);
    *library = (CUlibrary)(uintptr_t)lib->base.handle;
    goto out;

fail_lib:
    library_destroy(&lib->base);
out:
    if (km)
        kmod_free(km);
    if (r && jo.err.buf)
        klog_printf(&jo.err, "%s\n", extmem_error_detail());
    if (numJit)
        jit_options_finish(&jo, jitValues, (float)(os_time_ns() - start) / 1e6f);
    return r;
}

CUresult CUDAAPI cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                   void **jitOptionsValues, unsigned int numJitOptions, CUlibraryOption *libraryOptions,
                                   void **libraryOptionValues, unsigned int numLibraryOptions)
{
    REQUIRE_INIT("cuLibraryLoadData");
    return load("cuLibraryLoadData", library, code, 0, NULL, jitOptions, jitOptionsValues, numJitOptions,
                libraryOptions, libraryOptionValues, numLibraryOptions);
}

CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                       void **jitOptionsValues, unsigned int numJitOptions,
                                       CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                       unsigned int numLibraryOptions)
{
    const char *fn = "cuLibraryLoadFromFile";
    REQUIRE_INIT(fn);
    if (!library)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: library is NULL", fn);
    char *data;
    size_t size;
    CUresult r = module_read_file(fn, fileName, &data, &size);
    if (r)
        return r;
    if (size == 0)
        r = fail(CUDA_ERROR_INVALID_IMAGE, "%s: %s is empty", fn, fileName);
    else
        r = load(fn, library, data, size, fileName, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                 libraryOptionValues, numLibraryOptions);
    free(data);
    return r;
}

CUresult CUDAAPI cuLibraryUnload(CUlibrary library)
{
    const char *fn = "cuLibraryUnload";
    REQUIRE_INIT(fn);
    CUresult r = device_wait_allowed(fn);
    if (r)
        return r;
    struct library *lib;
    if ((r = library_lookup(fn, library, &lib)))
        return r;
    if (!obj_unregister(&lib->base)) {
        obj_release(&lib->base);
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: library 0x%llx is being unloaded already", fn,
                    (unsigned long long)(uintptr_t)library);
    }
    /* Kernels of its modules may be queued: wait for the device, as cuModuleUnload does. */
    bool held = device_teardown_begin(fn);
    os_mutex_lock(&lib->lock);
    for (uint32_t i = 0; i < lib->nmods; ++i)
        if (module_unlist(lib->mods[i]))
            module_teardown(lib->mods[i]);
    os_mutex_unlock(&lib->lock);
    unregister_kernels(lib);
    if (held)
        device_release_end();
    obj_release(&lib->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    const char *fn = "cuLibraryGetKernel";
    REQUIRE_INIT(fn);
    if (!pKernel || !name)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !pKernel ? "pKernel" : "name");
    struct library *lib;
    CUresult r = library_lookup(fn, library, &lib);
    if (r)
        return r;
    uint32_t i = 0;
    while (i < lib->nkernels && strcmp(lib->kernels[i]->name, name) != 0)
        i++;
    /* The failure is recorded only once the search failed: a found kernel leaves no error. */
    if (i < lib->nkernels)
        *pKernel = (CUkernel)(uintptr_t)lib->kernels[i]->base.handle;
    else
        r = fail(CUDA_ERROR_NOT_FOUND, "%s: library 0x%llx (%s) has no kernel named \"%s\"", fn,
                 (unsigned long long)(uintptr_t)library, lib->name, name);
    obj_release(&lib->base);
    return r;
}

CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib_handle)
{
    const char *fn = "cuLibraryGetKernelCount";
    REQUIRE_INIT(fn);
    if (!count)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: count is NULL", fn);
    struct library *lib;
    CUresult r = library_lookup(fn, lib_handle, &lib);
    if (r)
        return r;
    *count = lib->nkernels;
    obj_release(&lib->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib_handle)
{
    const char *fn = "cuLibraryEnumerateKernels";
    REQUIRE_INIT(fn);
    if (!kernels)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: kernels is NULL", fn);
    struct library *lib;
    CUresult r = library_lookup(fn, lib_handle, &lib);
    if (r)
        return r;
    if (numKernels < lib->nkernels)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: numKernels is %u but the library has %u kernels", fn, numKernels,
                 lib->nkernels);
    for (uint32_t i = 0; !r && i < lib->nkernels; ++i)
        kernels[i] = (CUkernel)(uintptr_t)lib->kernels[i]->base.handle;
    obj_release(&lib->base);
    return r;
}

/* The library's module in the current context, with a reference. */
static CUresult current_module(const char *fn, CUlibrary library, struct module **out)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct library *lib;
    if (!(r = library_lookup(fn, library, &lib))) {
        r = library_module(fn, lib, ctx, out);
        obj_release(&lib->base);
    }
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    const char *fn = "cuLibraryGetModule";
    REQUIRE_INIT(fn);
    if (!pMod)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pMod is NULL", fn);
    struct module *m;
    CUresult r = current_module(fn, library, &m);
    if (r)
        return r;
    *pMod = (CUmodule)(uintptr_t)m->base.handle;
    module_release(m);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    const char *fn = "cuLibraryGetGlobal";
    REQUIRE_INIT(fn);
    struct module *m;
    CUresult r = current_module(fn, library, &m);
    if (r)
        return r;
    r = module_global(fn, m, name, dptr, bytes);
    module_release(m);
    return r;
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    const char *fn = "cuKernelGetFunction";
    REQUIRE_INIT(fn);
    if (!pFunc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pFunc is NULL", fn);
    struct function *f;
    CUresult r = kernel_function(fn, (uint64_t)(uintptr_t)kernel, &f);
    if (r)
        return r;
    *pFunc = (CUfunction)(uintptr_t)f->base.handle;
    function_release(f);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    const char *fn = "cuKernelGetLibrary";
    REQUIRE_INIT(fn);
    if (!pLib)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pLib is NULL", fn);
    struct kernel *k;
    CUresult r = kernel_lookup(fn, (uint64_t)(uintptr_t)kernel, &k);
    if (r)
        return r;
    *pLib = (CUlibrary)(uintptr_t)k->lib->base.handle;
    obj_release(&k->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel hfunc)
{
    const char *fn = "cuKernelGetName";
    REQUIRE_INIT(fn);
    if (!name)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: name is NULL", fn);
    struct kernel *k;
    CUresult r = kernel_lookup(fn, (uint64_t)(uintptr_t)hfunc, &k);
    if (r)
        return r;
    *name = k->name; /* lives as long as the library */
    obj_release(&k->base);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
    REQUIRE_INIT("cuKernelGetAttribute");
    CUresult r = device_check("cuKernelGetAttribute", dev);
    if (r)
        return r;
    return cuFuncGetAttribute(pi, attrib, (CUfunction)(void *)kernel);
}

CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
    REQUIRE_INIT("cuKernelSetAttribute");
    CUresult r = device_check("cuKernelSetAttribute", dev);
    if (r)
        return r;
    return cuFuncSetAttribute((CUfunction)(void *)kernel, attrib, val);
}

/* The kernel's function in the current context, then the function's answer. */
CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    CUfunction f;
    CUresult r = cuKernelGetFunction(&f, kernel);
    return r ? r : cuFuncGetParamInfo(f, paramIndex, paramOffset, paramSize);
}

CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    const char *fn = "cuKernelSetCacheConfig";
    REQUIRE_INIT(fn);
    CUresult r = device_check(fn, dev);
    if (r)
        return r;
    CUfunction f;
    if ((r = cuKernelGetFunction(&f, kernel)))
        return r;
    return cuFuncSetCacheConfig(f, config);
}
