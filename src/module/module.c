/*
 * Modules: PTX (raw or from a fat binary) decoded by the kernel engine, with device memory for
 * its variables, in the context that loaded it (module.h; DESIGN.md §13).
 */
#include "module/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The module object ---- */

static void module_destroy(struct obj *o)
{
    struct module *m = (struct module *)o;
    if (m->km)
        kmod_free(m->km);
    free(m->funcs);
    os_mutex_destroy(&m->lock);
    if (m->ctx)
        ctx_release(m->ctx);
    free(m);
}

static void function_destroy(struct obj *o)
{
    struct function *f = (struct function *)o;
    obj_release(&f->mod->base);
    free(f->legacy);
    free(f);
}

void module_release(struct module *m) { obj_release(&m->base); }

CUresult module_lookup(const char *fn, CUmodule handle, struct module **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_MODULE, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn, obj_status_text(st, OBJ_MODULE, (uint64_t)(uintptr_t)handle));
    *out = (struct module *)o;
    return CUDA_SUCCESS;
}

/* Device memory for the module's .global and .const variables: shareable memory like
 * cuMemAlloc's, registered as the context's (so copies and kernels reach it) under a kind
 * of its own, which cuMemFree refuses: only the module frees it. */
static CUresult data_create(const char *fn, struct ctx *ctx, struct kmodule *km, struct range **out)
{
    *out = NULL;
    if (!km->data_bytes)
        return CUDA_SUCCESS;
    size_t page = os_page_size();
    if (km->data_align > page)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: a module variable asks for %u-byte alignment, more than a page (%zu)",
                    fn, km->data_align, page);
    if (km->data_bytes > SIZE_MAX - page)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: %llu bytes of module variables", fn,
                    (unsigned long long)km->data_bytes);
    CUresult r = mem_check_available(fn, (size_t)km->data_bytes);
    if (r)
        return r;
    struct range *rg = calloc(1, sizeof(*rg));
    if (!rg)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the module's memory record", fn);
    rg->size = (size_t)km->data_bytes;
    rg->map_size = (rg->size + page - 1) / page * page;
    rg->kind = RANGE_MODULE;
    void *addr;
    int err = os_memory_create(&rg->mem, rg->map_size, "extmem-module", NULL);
    if (err)
        goto fail_free;
    if ((err = os_memory_map(&rg->mem, 0, rg->map_size, &addr)))
        goto fail_close;
    rg->base = rg->unmap_base = (uintptr_t)addr;
    rg->unmap_len = rg->map_size;
    kmod_bind(km, rg->base);
    mem_register(ctx, rg);
    *out = rg;
    return CUDA_SUCCESS;

fail_close:
    os_memory_close(&rg->mem);
fail_free:
    free(rg);
    char text[160];
    return fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                "%s: %zu bytes of memory for the module's variables: %s", fn, (size_t)km->data_bytes,
                os_error_string(err, text, sizeof(text)));
}

static void data_free(struct range *r)
{
    amap_lock_write();
    mem_unpublish(r);
    amap_unlock();
    mem_free_range(r);
}

/* Unloads the modules of a context that is being destroyed (device.h: modules before memory,
 * whose list holds their data). */
static void module_destroy_all(struct ctx *ctx);
static const struct ctx_step teardown_step = {CTX_STEP_MODULES, module_destroy_all};

CUresult module_load_ptx(const char *fn, struct ctx *ctx, const char *text, size_t len, const char *name,
                         struct klog *errlog, struct module **out)
{
    struct kmodule *km;
    CUresult r = kmod_parse(fn, text, len, name, errlog, &km);
    if (r)
        return r;
    struct module *m = calloc(1, sizeof(*m));
    if (!m) {
        kmod_free(km);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the module", fn);
    }
    os_mutex_init(&m->lock);
    m->km = km;
    if (km->nfuncs && !(m->funcs = calloc(km->nfuncs, sizeof(*m->funcs)))) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the module's functions", fn);
        goto fail_module;
    }
    if ((r = data_create(fn, ctx, km, &m->data)))
        goto fail_module;
    obj_retain(&ctx->base);
    m->ctx = ctx;
    if (!obj_register(&m->base, OBJ_MODULE, module_destroy)) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
        goto fail_data;
    }
    os_mutex_lock(&ctx->lock);
    list_add(&ctx->modules, &m->ctx_node);
    ctx_add_teardown(ctx, &teardown_step);
    m->listed = true;
    os_mutex_unlock(&ctx->lock);
    *out = m;
    return CUDA_SUCCESS;

fail_data:
    if (m->data)
        data_free(m->data);
fail_module:
    module_destroy(&m->base);
    return r;
}

bool module_unlist(struct module *m)
{
    os_mutex_lock(&m->ctx->lock);
    bool mine = m->listed;
    if (mine) {
        list_del(&m->ctx_node);
        m->listed = false;
    }
    os_mutex_unlock(&m->ctx->lock);
    return mine;
}

void module_teardown(struct module *m)
{
    atomic_store(&m->dead, true);
    obj_retain(&m->base); /* the functions' references may be the last but the registry's */
    os_mutex_lock(&m->lock);
    for (uint32_t i = 0; m->funcs && i < m->km->nfuncs; ++i) {
        if (m->funcs[i])
            obj_unregister(&m->funcs[i]->base);
        m->funcs[i] = NULL;
    }
    os_mutex_unlock(&m->lock);
    if (m->data)
        data_free(m->data);
    m->data = NULL;
    obj_unregister(&m->base);
    obj_release(&m->base);
}

static void module_destroy_all(struct ctx *ctx)
{
    for (;;) {
        os_mutex_lock(&ctx->lock);
        struct module *m = list_empty(&ctx->modules) ? NULL : list_entry(ctx->modules.next, struct module, ctx_node);
        if (m) {
            list_del(&m->ctx_node);
            m->listed = false;
        }
        os_mutex_unlock(&ctx->lock);
        if (!m)
            return;
        module_teardown(m);
    }
}

CUresult module_function(const char *fn, struct module *m, const char *name, struct function **out)
{
    if (!name)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: name is NULL", fn);
    uint32_t i = 0;
    while (i < m->km->nfuncs && !(m->km->funcs[i]->entry && strcmp(m->km->funcs[i]->name, name) == 0))
        i++;
    if (i == m->km->nfuncs)
        return fail(CUDA_ERROR_NOT_FOUND, "%s: module 0x%llx (%s) has no kernel named \"%s\"%s", fn,
                    (unsigned long long)m->base.handle, m->km->source_name, name,
                    strchr(name, '(') || strchr(name, ':') ? "" : " (C++ kernels have mangled names unless extern \"C\")");
    CUresult r = CUDA_SUCCESS;
    os_mutex_lock(&m->lock);
    struct function *f = m->funcs ? m->funcs[i] : NULL;
    if (!f && atomic_load(&m->dead)) {
        r = fail(CUDA_ERROR_INVALID_HANDLE, "%s: module 0x%llx was unloaded", fn, (unsigned long long)m->base.handle);
    } else if (!f) {
        f = calloc(1, sizeof(*f));
        if (f) {
            obj_retain(&m->base);
            f->mod = m;
            f->kf = m->km->funcs[i];
            atomic_init(&f->max_dynamic_shared, -1);
            atomic_init(&f->carveout, -1);
            if (!obj_register(&f->base, OBJ_FUNCTION, function_destroy)) {
                function_destroy(&f->base);
                f = NULL;
            }
        }
        if (!f)
            r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the function", fn);
        else
            m->funcs[i] = f;
    }
    if (f && !r)
        obj_retain(&f->base);
    os_mutex_unlock(&m->lock);
    if (!r)
        *out = f;
    return r;
}

CUresult module_global(const char *fn, struct module *m, const char *name, CUdeviceptr *dptr, size_t *bytes)
{
    if (!name)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: name is NULL", fn);
    const struct kvar *v = kmod_var(m->km, name);
    if (!v)
        return fail(CUDA_ERROR_NOT_FOUND, "%s: module 0x%llx (%s) has no .global or .const variable named \"%s\"", fn,
                    (unsigned long long)m->base.handle, m->km->source_name, name);
    if (dptr)
        *dptr = (CUdeviceptr)(m->km->data_base + v->offset);
    if (bytes)
        *bytes = (size_t)v->size;
    return CUDA_SUCCESS;
}

/* ---- JIT options ---- */

static uintptr_t opt_value(void **values, unsigned i) { return (uintptr_t)values[i]; }

CUresult jit_options_read(const char *fn, unsigned int n, const CUjit_option *options, void **values,
                          struct jit_options *jo)
{
    memset(jo, 0, sizeof(*jo));
    jo->info_index = jo->err_index = jo->wall_index = -1;
    if (n && (!options || !values))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numOptions is %u but %s is NULL", fn, n,
                    !options ? "options" : "optionValues");
    int info_size_at = -1, err_size_at = -1;
    for (unsigned i = 0; i < n; ++i) {
        uintptr_t v = opt_value(values, i);
        const char *bad = NULL;
        switch (options[i]) {
        case CU_JIT_INFO_LOG_BUFFER: jo->info.buf = (char *)values[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER: jo->err.buf = (char *)values[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: jo->info.size = (unsigned int)v; info_size_at = (int)i; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: jo->err.size = (unsigned int)v; err_size_at = (int)i; break;
        case CU_JIT_WALL_TIME: jo->wall_index = (int)i; break;
        case CU_JIT_OPTIMIZATION_LEVEL:
            if (v > 4)
                bad = "an optimisation level is 0 to 4";
            break;
        case CU_JIT_TARGET:
            /* Any target up to the device's: the engine runs PTX of every target it accepts. */
            if ((v & 0xffff) < 30 || (v & 0xffff) > (uintptr_t)device_sm() || (v >> 16) > 2)
                bad = "it must be a CUjit_target not above the device's compute capability";
            break;
        case CU_JIT_FALLBACK_STRATEGY:
            if (v > CU_PREFER_BINARY)
                bad = "it must be CU_PREFER_PTX or CU_PREFER_BINARY";
            break;
        case CU_JIT_CACHE_MODE:
            if (v > CU_JIT_CACHE_OPTION_CA)
                bad = "it must be a CUjit_cacheMode";
            break;
        case CU_JIT_GENERATE_DEBUG_INFO:
        case CU_JIT_LOG_VERBOSE:
        case CU_JIT_GENERATE_LINE_INFO:
        case CU_JIT_NEW_SM3X_OPT:
        case CU_JIT_FAST_COMPILE:
        case CU_JIT_LTO:
        case CU_JIT_FTZ:
        case CU_JIT_PREC_DIV:
        case CU_JIT_PREC_SQRT:
        case CU_JIT_FMA:
        case CU_JIT_POSITION_INDEPENDENT_CODE:
        case CU_JIT_OVERRIDE_DIRECTIVE_VALUES:
        case CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES:
            if (v > 1)
                bad = "it is a flag: 0 or 1";
            break;
        case CU_JIT_THREADS_PER_BLOCK:
        case CU_JIT_MAX_THREADS_PER_BLOCK:
            if (v > 1024)
                bad = "a block has at most 1024 threads";
            break;
        case CU_JIT_MAX_REGISTERS:
        case CU_JIT_TARGET_FROM_CUCONTEXT:
        case CU_JIT_MIN_CTA_PER_SM:
        case CU_JIT_SPLIT_COMPILE:
        case CU_JIT_GLOBAL_SYMBOL_NAMES:
        case CU_JIT_GLOBAL_SYMBOL_ADDRESSES:
        case CU_JIT_GLOBAL_SYMBOL_COUNT:
        case CU_JIT_REFERENCED_KERNEL_NAMES:
        case CU_JIT_REFERENCED_KERNEL_COUNT:
        case CU_JIT_REFERENCED_VARIABLE_NAMES:
        case CU_JIT_REFERENCED_VARIABLE_COUNT:
            break; /* hints for code generation, which the engine does not do */
        default:
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: options[%u] is %d, not a CUjit_option (0..%d)", fn, i,
                        (int)options[i], CU_JIT_NUM_OPTIONS - 1);
        }
        if (bad)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: option %d (options[%u]) has the value %llu: %s", fn,
                        (int)options[i], i, (unsigned long long)v, bad);
    }
    /* A buffer without its size (or a size without its buffer) is not used. */
    if (!jo->info.buf || info_size_at < 0)
        jo->info = (struct klog){NULL, 0, 0};
    else
        jo->info_index = info_size_at;
    if (!jo->err.buf || err_size_at < 0)
        jo->err = (struct klog){NULL, 0, 0};
    else
        jo->err_index = err_size_at;
    if (jo->info.size)
        jo->info.buf[0] = 0;
    if (jo->err.size)
        jo->err.buf[0] = 0;
    return CUDA_SUCCESS;
}

void jit_options_finish(const struct jit_options *jo, void **values, float ms)
{
    /* The size options are written back with the bytes the messages take, as the driver
     * does; the wall time is a float in the option's slot. */
    if (jo->info_index >= 0)
        values[jo->info_index] = (void *)(uintptr_t)jo->info.used;
    if (jo->err_index >= 0)
        values[jo->err_index] = (void *)(uintptr_t)jo->err.used;
    if (jo->wall_index >= 0) {
        values[jo->wall_index] = NULL;
        memcpy(&values[jo->wall_index], &ms, sizeof(ms));
    }
}

/* ---- Entry points ---- */

/* Loads image into the current context. `size` is known for files (else 0). */
static CUresult load(const char *fn, CUmodule *module, const void *image, size_t size, const char *file,
                     unsigned int nopts, CUjit_option *options, void **values)
{
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct jit_options jo;
    memset(&jo, 0, sizeof(jo));
    jo.info_index = jo.err_index = jo.wall_index = -1;
    char *text = NULL;
    size_t len = 0;
    char name[96];
    uint64_t start = os_time_ns();
    struct module *m = NULL;
    if (!module)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: module is NULL", fn);
    else if (!(r = jit_options_read(fn, nopts, options, values, &jo)) &&
             !(r = image_ptx(fn, image, size, device_sm(), &text, &len, name))) {
        char full[400];
        if (file)
            snprintf(full, sizeof(full), "%s (%s)", file, name);
        else
            snprintf(full, sizeof(full), "%s", name);
        r = module_load_ptx(fn, ctx, text, len, full, &jo.err, &m);
        if (!r) {
            klog_printf(&jo.info, "extmem: loaded %s: PTX ISA %u.%u for sm_%u, %u functions, %llu bytes of variables; "
                        "run by the software device's portable executor\n", full, m->km->ptx_version / 10,
                        m->km->ptx_version % 10, m->km->target_sm, m->km->nfuncs,
                        (unsigned long long)m->km->data_bytes);
            *module = (CUmodule)(uintptr_t)m->base.handle;
        }
    }
    if (r && nopts && options && values && jo.err.buf)
        klog_printf(&jo.err, "%s: %s\n", result_name(r) ? result_name(r) : "error", extmem_error_detail());
    if (nopts && options && values && (!r || jo.err.buf || jo.info.buf))
        jit_options_finish(&jo, values, (float)(os_time_ns() - start) / 1e6f);
    free(text);
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image)
{
    return load("cuModuleLoadData", module, image, 0, NULL, 0, NULL, NULL);
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                                    void **optionValues)
{
    return load("cuModuleLoadDataEx", module, image, 0, NULL, numOptions, options, optionValues);
}

CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    return load("cuModuleLoadFatBinary", module, fatCubin, 0, NULL, 0, NULL, NULL);
}

CUresult module_read_file(const char *fn, const char *path, char **data, size_t *size)
{
    if (!path)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: the file name is NULL", fn);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(CUDA_ERROR_FILE_NOT_FOUND, "%s: cannot open %s", fn, path);
    char *buf = NULL;
    size_t used = 0, cap = 0;
    CUresult r = CUDA_SUCCESS;
    for (;;) {
        if (cap - used < 4096) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *n = realloc(buf, ncap + 1);
            if (!n) {
                r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: no host memory to read %s", fn, path);
                break;
            }
            buf = n;
            cap = ncap;
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (got == 0) {
            if (ferror(f))
                r = fail(CUDA_ERROR_FILE_NOT_FOUND, "%s: reading %s failed", fn, path);
            break;
        }
    }
    fclose(f);
    if (r) {
        free(buf);
        return r;
    }
    if (!buf && !(buf = malloc(1)))
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: no host memory to read %s", fn, path);
    buf[used] = 0;
    *data = buf;
    *size = used;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname)
{
    REQUIRE_INIT("cuModuleLoad");
    if (!module || !fname)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleLoad: %s is NULL", !module ? "module" : "fname");
    char *data;
    size_t size;
    CUresult r = module_read_file("cuModuleLoad", fname, &data, &size);
    if (r)
        return r;
    if (size == 0)
        r = fail(CUDA_ERROR_INVALID_IMAGE, "cuModuleLoad: %s is empty", fname);
    else
        r = load("cuModuleLoad", module, data, size, fname, 0, NULL, NULL);
    free(data);
    return r;
}

CUresult CUDAAPI cuModuleUnload(CUmodule hmod)
{
    REQUIRE_INIT("cuModuleUnload");
    CUresult r = device_wait_allowed("cuModuleUnload");
    if (r)
        return r;
    struct ctx *ctx;
    if ((r = ctx_current("cuModuleUnload", &ctx)))
        return r;
    ctx_release(ctx);
    struct module *m;
    if ((r = module_lookup("cuModuleUnload", hmod, &m)))
        return r;
    if (m->library_owned) {
        module_release(m);
        return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleUnload: module 0x%llx belongs to a library: unload it with "
                    "cuLibraryUnload", (unsigned long long)(uintptr_t)hmod);
    }
    if (!module_unlist(m)) {
        module_release(m);
        return fail(CUDA_ERROR_INVALID_HANDLE, "cuModuleUnload: module 0x%llx is being unloaded already",
                    (unsigned long long)(uintptr_t)hmod);
    }
    /* Synchronous, as cuMemFree: queued kernels of the module may still use its memory. One that
     * does not end is cancelled after the grace period (the driver would wait for ever). */
    bool held = device_teardown_begin("cuModuleUnload");
    module_teardown(m);
    if (held)
        device_release_end();
    module_release(m);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    REQUIRE_INIT("cuModuleGetLoadingMode");
    if (!mode)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleGetLoadingMode: mode is NULL");
    /* CUDA_MODULE_LOADING, as the driver reads it; lazy since CUDA 12.2. Kernels are decoded
     * when their module loads either way. */
    const char *env = os_getenv("CUDA_MODULE_LOADING");
    *mode = env && strcmp(env, "EAGER") == 0 ? CU_MODULE_EAGER_LOADING : CU_MODULE_LAZY_LOADING;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuModuleGetFunction", &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!hfunc)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleGetFunction: hfunc is NULL");
    struct module *m;
    if ((r = module_lookup("cuModuleGetFunction", hmod, &m)))
        return r;
    struct function *f;
    if (!(r = module_function("cuModuleGetFunction", m, name, &f))) {
        *hfunc = (CUfunction)(uintptr_t)f->base.handle;
        function_release(f);
    }
    module_release(m);
    return r;
}

/* The module's kernels (its .entry functions) in declaration order. */
static uint32_t entry_count(const struct kmodule *km)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < km->nfuncs; ++i)
        n += km->funcs[i]->entry;
    return n;
}

CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    REQUIRE_INIT("cuModuleGetFunctionCount");
    if (!count)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleGetFunctionCount: count is NULL");
    struct module *m;
    CUresult r = module_lookup("cuModuleGetFunctionCount", mod, &m);
    if (r)
        return r;
    *count = entry_count(m->km);
    module_release(m);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
    REQUIRE_INIT("cuModuleEnumerateFunctions");
    if (!functions)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuModuleEnumerateFunctions: functions is NULL");
    struct module *m;
    CUresult r = module_lookup("cuModuleEnumerateFunctions", mod, &m);
    if (r)
        return r;
    uint32_t n = entry_count(m->km);
    if (numFunctions < n)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuModuleEnumerateFunctions: numFunctions is %u but the module has %u kernels",
                 numFunctions, n);
    for (uint32_t i = 0, k = 0; !r && i < m->km->nfuncs; ++i) {
        if (!m->km->funcs[i]->entry)
            continue;
        struct function *f;
        if ((r = module_function("cuModuleEnumerateFunctions", m, m->km->funcs[i]->name, &f)))
            break;
        functions[k++] = (CUfunction)(uintptr_t)f->base.handle;
        function_release(f);
    }
    module_release(m);
    return r;
}

CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuModuleGetGlobal", &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    struct module *m;
    if ((r = module_lookup("cuModuleGetGlobal", hmod, &m)))
        return r;
    r = module_global("cuModuleGetGlobal", m, name, dptr, bytes);
    module_release(m);
    return r;
}
