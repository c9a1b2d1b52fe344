/*
 * tests/abi/dropin_libcuda_program.c: extmem as a drop-in libcuda.so.1.
 *
 * Loads "libcuda.so.1" by name and finds every entry point the way loaders and runtimes do:
 * dlsym for cuGetProcAddress_v2 alone, then cuGetProcAddress for the rest (before cuInit, which
 * is itself found that way), called through the PFN_ types of NVIDIA's cudaTypedefs.h. Built against NVIDIA's headers only and linked to
 * neither libcuda nor libextmem; the test runs it with LD_LIBRARY_PATH set to the directory
 * of extmem's libcuda.so.1, and the program checks that the library it got is that one.
 *
 *   abi_dropin_libcuda_program DIR    DIR: where extmem's libcuda.so.1 must come from
 *   abi_dropin_libcuda_program --any  skip that check (to try the program on NVIDIA's driver)
 */
#define _GNU_SOURCE 1 /* dladdr */
#include <cuda.h>
#include <cudaTypedefs.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);         \
            fprintf(stderr, __VA_ARGS__);                                 \
            fputc('\n', stderr);                                          \
            failures++;                                                   \
        }                                                                 \
    } while (0)

static PFN_cuGetProcAddress_v12000 get_proc;
static PFN_cuGetErrorName_v6000 get_error_name;

static const char *cu_name(CUresult r)
{
    const char *s = NULL;
    if (!get_error_name || get_error_name(r, &s) != CUDA_SUCCESS || !s)
        return "(unknown)";
    return s;
}

#define CU_OK(call)                                                                        \
    do {                                                                                   \
        CUresult r_ = (call);                                                              \
        if (r_ != CUDA_SUCCESS) {                                                          \
            CHECK(0, "%s returned %s (%d)", #call, cu_name(r_), (int)r_);                  \
            goto out;                                                                      \
        }                                                                                  \
    } while (0)

/* cuGetProcAddress at the headers' version, as a loader built with them asks. */
static void *entry(const char *name)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = get_proc(name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &st);
    CHECK(r == CUDA_SUCCESS && st == CU_GET_PROC_ADDRESS_SUCCESS && fn,
          "cuGetProcAddress(%s): %s, status %d", name, cu_name(r), (int)st);
    return r == CUDA_SUCCESS ? fn : NULL;
}

/* The library behind handle must be extmem's, from dir. */
static void check_is_extmem(void *handle, const char *dir)
{
    const char *(*version)(void) = (const char *(*)(void))dlsym(handle, "extmem_version");
    CHECK(version != NULL, "libcuda.so.1 does not export extmem_version: not extmem's library");
    if (version) {
        const char *v = version();
        CHECK(v && v[0], "extmem_version() is empty");
        printf("loaded extmem %s as libcuda.so.1\n", v ? v : "?");
    }

    Dl_info info;
    memset(&info, 0, sizeof info);
    CHECK(dladdr((void *)get_proc, &info) != 0 && info.dli_fname, "dladdr(cuGetProcAddress_v2) failed");
    if (info.dli_fname) {
        char got[PATH_MAX], want[PATH_MAX];
        char *slash;
        if (!realpath(info.dli_fname, got) || !realpath(dir, want)) {
            CHECK(0, "realpath(%s) or realpath(%s) failed", info.dli_fname, dir);
            return;
        }
        slash = strrchr(got, '/');
        if (slash)
            *slash = '\0';
        CHECK(strcmp(got, want) == 0, "cuGetProcAddress_v2 comes from %s, not from %s",
              info.dli_fname, want);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR|--any\n", argv[0]);
        return 2;
    }
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "FAIL: dlopen(libcuda.so.1): %s\n", dlerror());
        return 1;
    }
    /* The only symbol a loader looks up by name. */
    get_proc = (PFN_cuGetProcAddress_v12000)dlsym(lib, "cuGetProcAddress_v2");
    if (!get_proc) {
        fprintf(stderr, "FAIL: dlsym(cuGetProcAddress_v2): %s\n", dlerror());
        dlclose(lib);
        return 1;
    }
    if (strcmp(argv[1], "--any") != 0)
        check_is_extmem(lib, argv[1]);

    get_error_name = (PFN_cuGetErrorName_v6000)entry("cuGetErrorName");
    PFN_cuInit_v2000 init = (PFN_cuInit_v2000)entry("cuInit");
    PFN_cuDriverGetVersion_v2020 driver_version = (PFN_cuDriverGetVersion_v2020)entry("cuDriverGetVersion");
    PFN_cuDeviceGet_v2000 device_get = (PFN_cuDeviceGet_v2000)entry("cuDeviceGet");
    PFN_cuDeviceGetUuid_v11040 device_uuid = (PFN_cuDeviceGetUuid_v11040)entry("cuDeviceGetUuid");
    PFN_cuCtxCreate_v12050 ctx_create = (PFN_cuCtxCreate_v12050)entry("cuCtxCreate");
    PFN_cuCtxDestroy_v4000 ctx_destroy = (PFN_cuCtxDestroy_v4000)entry("cuCtxDestroy");
    PFN_cuMemAlloc_v3020 mem_alloc = (PFN_cuMemAlloc_v3020)entry("cuMemAlloc");
    PFN_cuMemFree_v3020 mem_free = (PFN_cuMemFree_v3020)entry("cuMemFree");
    PFN_cuMemcpyHtoD_v3020 htod = (PFN_cuMemcpyHtoD_v3020)entry("cuMemcpyHtoD");
    PFN_cuMemcpyDtoH_v3020 dtoh = (PFN_cuMemcpyDtoH_v3020)entry("cuMemcpyDtoH");
    PFN_cuMemcpyDtoD_v3020 dtod = (PFN_cuMemcpyDtoD_v3020)entry("cuMemcpyDtoD");
    PFN_cuMemsetD8_v3020 memset8 = (PFN_cuMemsetD8_v3020)entry("cuMemsetD8");

    {
        /* A name the driver lacks, as loaders probe for optional entry points: the real
         * driver answers CUDA_SUCCESS, status SYMBOL_NOT_FOUND and pfn NULL
         * (docs/driver-observations.md §12). */
        void *fn = (void *)&failures;
        CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SUCCESS;
        CUresult r = get_proc("cuNoSuchEntryPoint", &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &st);
        CHECK(r == CUDA_SUCCESS && st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND && !fn,
              "cuGetProcAddress(cuNoSuchEntryPoint): %s, status %d", cu_name(r), (int)st);
    }
    if (failures || !init || !driver_version || !device_get || !device_uuid || !ctx_create ||
        !ctx_destroy || !mem_alloc || !mem_free || !htod || !dtoh || !dtod || !memset8)
        goto done;

    enum { N = 1 << 16 };
    static unsigned char src[N], dst[N];
    CUcontext ctx = NULL;
    CUdeviceptr a = 0, b = 0;
    CUdevice dev = -1;
    CUuuid uuid;
    int version = 0;

    CU_OK(driver_version(&version));
    CHECK(version >= CUDA_VERSION, "driver version %d is older than the headers' %d", version, CUDA_VERSION);
    CU_OK(init(0));
    CU_OK(device_get(&dev, 0));
    CU_OK(device_uuid(&uuid, dev));
    CU_OK(ctx_create(&ctx, NULL, 0, dev));
    CU_OK(mem_alloc(&a, N));
    CU_OK(mem_alloc(&b, N));
    for (size_t i = 0; i < N; ++i)
        src[i] = (unsigned char)(i * 13u + 1u);
    CU_OK(htod(a, src, N));
    CU_OK(dtod(b, a, N));
    CU_OK(memset8(b, 0x42, 8));
    CU_OK(dtoh(dst, b, N));
    CHECK(memcmp(dst, "BBBBBBBB", 8) == 0 && memcmp(dst + 8, src + 8, N - 8) == 0,
          "copies through the drop-in library differ");
out:
    if (b)
        CHECK(mem_free(b) == CUDA_SUCCESS, "cuMemFree_v2 failed");
    if (a)
        CHECK(mem_free(a) == CUDA_SUCCESS, "cuMemFree_v2 failed");
    if (ctx)
        CHECK(ctx_destroy(ctx) == CUDA_SUCCESS, "cuCtxDestroy_v2 failed");
done:
    dlclose(lib);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("drop-in libcuda.so.1: all checks passed\n");
    return 0;
}
