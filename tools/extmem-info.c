/*
 * extmem-info: what the software device is on this machine, like vulkaninfo or deviceQuery.
 *
 * Prints the library and driver versions, the device's identity and memory, every device
 * attribute by name, and for each interop feature whether it works here and, where it does
 * not, why. --json prints the same as one JSON object.
 */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif

#include "extmem/extmem.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The only platform island of this tool: loading a library by name and looking at files. */
#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#include <glob.h>
#include <unistd.h>
#endif

/* ---- Attribute names ----
 * Indexed by value. Where the enum gives one value two names (8, 12, 27-29, 102), the
 * first name is used. Naming the enumerator makes the compiler check every entry. */
#define A(name) [CU_DEVICE_ATTRIBUTE_##name] = #name
static const char *const attribute_names[CU_DEVICE_ATTRIBUTE_MAX] = {
    A(MAX_THREADS_PER_BLOCK),
    A(MAX_BLOCK_DIM_X),
    A(MAX_BLOCK_DIM_Y),
    A(MAX_BLOCK_DIM_Z),
    A(MAX_GRID_DIM_X),
    A(MAX_GRID_DIM_Y),
    A(MAX_GRID_DIM_Z),
    A(MAX_SHARED_MEMORY_PER_BLOCK),
    A(TOTAL_CONSTANT_MEMORY),
    A(WARP_SIZE),
    A(MAX_PITCH),
    A(MAX_REGISTERS_PER_BLOCK),
    A(CLOCK_RATE),
    A(TEXTURE_ALIGNMENT),
    A(GPU_OVERLAP),
    A(MULTIPROCESSOR_COUNT),
    A(KERNEL_EXEC_TIMEOUT),
    A(INTEGRATED),
    A(CAN_MAP_HOST_MEMORY),
    A(COMPUTE_MODE),
    A(MAXIMUM_TEXTURE1D_WIDTH),
    A(MAXIMUM_TEXTURE2D_WIDTH),
    A(MAXIMUM_TEXTURE2D_HEIGHT),
    A(MAXIMUM_TEXTURE3D_WIDTH),
    A(MAXIMUM_TEXTURE3D_HEIGHT),
    A(MAXIMUM_TEXTURE3D_DEPTH),
    A(MAXIMUM_TEXTURE2D_LAYERED_WIDTH),
    A(MAXIMUM_TEXTURE2D_LAYERED_HEIGHT),
    A(MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
    A(SURFACE_ALIGNMENT),
    A(CONCURRENT_KERNELS),
    A(ECC_ENABLED),
    A(PCI_BUS_ID),
    A(PCI_DEVICE_ID),
    A(TCC_DRIVER),
    A(MEMORY_CLOCK_RATE),
    A(GLOBAL_MEMORY_BUS_WIDTH),
    A(L2_CACHE_SIZE),
    A(MAX_THREADS_PER_MULTIPROCESSOR),
    A(ASYNC_ENGINE_COUNT),
    A(UNIFIED_ADDRESSING),
    A(MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
    A(MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
    A(CAN_TEX2D_GATHER),
    A(MAXIMUM_TEXTURE2D_GATHER_WIDTH),
    A(MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
    A(MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
    A(MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
    A(MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
    A(PCI_DOMAIN_ID),
    A(TEXTURE_PITCH_ALIGNMENT),
    A(MAXIMUM_TEXTURECUBEMAP_WIDTH),
    A(MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
    A(MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
    A(MAXIMUM_SURFACE1D_WIDTH),
    A(MAXIMUM_SURFACE2D_WIDTH),
    A(MAXIMUM_SURFACE2D_HEIGHT),
    A(MAXIMUM_SURFACE3D_WIDTH),
    A(MAXIMUM_SURFACE3D_HEIGHT),
    A(MAXIMUM_SURFACE3D_DEPTH),
    A(MAXIMUM_SURFACE1D_LAYERED_WIDTH),
    A(MAXIMUM_SURFACE1D_LAYERED_LAYERS),
    A(MAXIMUM_SURFACE2D_LAYERED_WIDTH),
    A(MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
    A(MAXIMUM_SURFACE2D_LAYERED_LAYERS),
    A(MAXIMUM_SURFACECUBEMAP_WIDTH),
    A(MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
    A(MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
    A(MAXIMUM_TEXTURE1D_LINEAR_WIDTH),
    A(MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
    A(MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
    A(MAXIMUM_TEXTURE2D_LINEAR_PITCH),
    A(MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
    A(MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
    A(COMPUTE_CAPABILITY_MAJOR),
    A(COMPUTE_CAPABILITY_MINOR),
    A(MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
    A(STREAM_PRIORITIES_SUPPORTED),
    A(GLOBAL_L1_CACHE_SUPPORTED),
    A(LOCAL_L1_CACHE_SUPPORTED),
    A(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
    A(MAX_REGISTERS_PER_MULTIPROCESSOR),
    A(MANAGED_MEMORY),
    A(MULTI_GPU_BOARD),
    A(MULTI_GPU_BOARD_GROUP_ID),
    A(HOST_NATIVE_ATOMIC_SUPPORTED),
    A(SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO),
    A(PAGEABLE_MEMORY_ACCESS),
    A(CONCURRENT_MANAGED_ACCESS),
    A(COMPUTE_PREEMPTION_SUPPORTED),
    A(CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
    A(CAN_USE_STREAM_MEM_OPS_V1),
    A(CAN_USE_64_BIT_STREAM_MEM_OPS_V1),
    A(CAN_USE_STREAM_WAIT_VALUE_NOR_V1),
    A(COOPERATIVE_LAUNCH),
    A(COOPERATIVE_MULTI_DEVICE_LAUNCH),
    A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
    A(CAN_FLUSH_REMOTE_WRITES),
    A(HOST_REGISTER_SUPPORTED),
    A(PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
    A(DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
    A(VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED),
    A(HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED),
    A(HANDLE_TYPE_WIN32_HANDLE_SUPPORTED),
    A(HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED),
    A(MAX_BLOCKS_PER_MULTIPROCESSOR),
    A(GENERIC_COMPRESSION_SUPPORTED),
    A(MAX_PERSISTING_L2_CACHE_SIZE),
    A(MAX_ACCESS_POLICY_WINDOW_SIZE),
    A(GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED),
    A(RESERVED_SHARED_MEMORY_PER_BLOCK),
    A(SPARSE_CUDA_ARRAY_SUPPORTED),
    A(READ_ONLY_HOST_REGISTER_SUPPORTED),
    A(TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
    A(MEMORY_POOLS_SUPPORTED),
    A(GPU_DIRECT_RDMA_SUPPORTED),
    A(GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
    A(GPU_DIRECT_RDMA_WRITES_ORDERING),
    A(MEMPOOL_SUPPORTED_HANDLE_TYPES),
    A(CLUSTER_LAUNCH),
    A(DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
    A(CAN_USE_64_BIT_STREAM_MEM_OPS),
    A(CAN_USE_STREAM_WAIT_VALUE_NOR),
    A(DMA_BUF_SUPPORTED),
    A(IPC_EVENT_SUPPORTED),
    A(MEM_SYNC_DOMAIN_COUNT),
    A(TENSOR_MAP_ACCESS_SUPPORTED),
    A(HANDLE_TYPE_FABRIC_SUPPORTED),
    A(UNIFIED_FUNCTION_POINTERS),
    A(NUMA_CONFIG),
    A(NUMA_ID),
    A(MULTICAST_SUPPORTED),
    A(MPS_ENABLED),
    A(HOST_NUMA_ID),
    A(D3D12_CIG_SUPPORTED),
    A(MEM_DECOMPRESS_ALGORITHM_MASK),
    A(MEM_DECOMPRESS_MAXIMUM_LENGTH),
    A(VULKAN_CIG_SUPPORTED),
    A(GPU_PCI_DEVICE_ID),
    A(GPU_PCI_SUBSYSTEM_ID),
    A(HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED),
    A(HOST_NUMA_MEMORY_POOLS_SUPPORTED),
    A(HOST_NUMA_MULTINODE_IPC_SUPPORTED),
    A(HOST_MEMORY_POOLS_SUPPORTED),
    A(HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED),
    A(HOST_ALLOC_DMA_BUF_SUPPORTED),
    A(ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED),
};
#undef A

/* A name for every value, even one a newer header adds before this table learns it. */
static const char *attribute_name(int a)
{
    static char unnamed[32];
    if (a > 0 && a < (int)CU_DEVICE_ATTRIBUTE_MAX && attribute_names[a])
        return attribute_names[a];
    snprintf(unnamed, sizeof(unnamed), "ATTRIBUTE_%d", a);
    return unnamed;
}

/* ---- What the tool gathers ---- */

#define FEATURE_COUNT 16 /* room for every platform's list; add_feature refuses more */

struct feature {
    const char *key;   /* JSON key */
    const char *title; /* text output */
    bool works;
    char why[320];
};

struct info {
    const char *version;
    int driver_version;
    char name[256];
    char uuid[40];
    char luid[20];
    unsigned int node_mask;
    size_t total, free_bytes;
    unsigned int workers;
    int attr[CU_DEVICE_ATTRIBUTE_MAX];
    struct feature features[FEATURE_COUNT];
    int feature_count;
};

static int report_failure(const char *call, CUresult r)
{
    const char *name = NULL;
    cuGetErrorName(r, &name);
    fprintf(stderr, "extmem-info: %s failed: %s (%d)\n  %s\n", call, name ? name : "unknown error", (int)r,
            extmem_error_detail());
    return 1;
}

#define CHECK(call)                                                                                              \
    do {                                                                                                         \
        CUresult check_r_ = (call);                                                                              \
        if (check_r_ != CUDA_SUCCESS)                                                                            \
            return report_failure(#call, check_r_);                                                              \
    } while (0)

/* Whether this build of the library has an entry point, by the route loaders use. */
static bool has_entry_point(const char *symbol)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = cuGetProcAddress(symbol, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    extmem_error_clear(); /* a miss is an answer here, not a failure to report */
    return r == CUDA_SUCCESS && fn != NULL && status == CU_GET_PROC_ADDRESS_SUCCESS;
}

static struct feature *add_feature(struct info *in, const char *key, const char *title)
{
    static struct feature overflow; /* written to, never listed */
    if (in->feature_count == FEATURE_COUNT) {
        fprintf(stderr, "extmem-info: more than %d features; %s is left out (raise FEATURE_COUNT)\n", FEATURE_COUNT,
                key);
        return &overflow;
    }
    struct feature *f = &in->features[in->feature_count++];
    f->key = key;
    f->title = title;
    f->works = false;
    f->why[0] = '\0';
    return f;
}

static void say(struct feature *f, bool works, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof(f->why), fmt, ap);
    va_end(ap);
    f->works = works;
}

/* A feature the device announces through an attribute and reaches through entry_point. */
static void attribute_feature(struct info *in, const char *key, const char *title, int attr, const char *entry_point)
{
    struct feature *f = add_feature(in, key, title);
    if (in->attr[attr] == 1)
        say(f, true, "attribute %d (%s) is 1", attr, attribute_name(attr));
    else if (!has_entry_point(entry_point))
        say(f, false, "not in this build: the library has no %s; attribute %d is %d", entry_point, attr, in->attr[attr]);
    else
        say(f, false, "attribute %d (%s) is %d on this machine", attr, attribute_name(attr), in->attr[attr]);
}

#if defined(_WIN32)
static bool library_loads(const char *name, char *err, size_t err_size)
{
    HMODULE h = LoadLibraryA(name);
    if (!h) {
        snprintf(err, err_size, "LoadLibrary failed with error %lu", (unsigned long)GetLastError());
        return false;
    }
    FreeLibrary(h);
    return true;
}
#else
static bool library_loads(const char *name, char *err, size_t err_size)
{
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(err, err_size, "%s", e ? e : "dlopen failed");
        return false;
    }
    dlclose(h);
    return true;
}
#endif

static void dma_buf_feature(struct info *in)
{
    struct feature *f = add_feature(in, "dma_buf", "dma-buf export");
    int attr = CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED;
#if defined(_WIN32)
    say(f, false, "Linux only: dma-bufs are a Linux kernel object; attribute %d is %d", attr, in->attr[attr]);
#else
    /* extmem makes a dma-buf from a memfd range through udmabuf (DESIGN.md §10). */
    bool present = access("/dev/udmabuf", F_OK) == 0;
    bool usable = present && access("/dev/udmabuf", R_OK | W_OK) == 0;
    const char *dev = !present ? "/dev/udmabuf does not exist (load the udmabuf module: modprobe udmabuf)"
                      : !usable ? "/dev/udmabuf exists but this user cannot open it read-write"
                                : "/dev/udmabuf exists and is usable";
    if (in->attr[attr] == 1)
        say(f, true, "attribute %d is 1; %s", attr, dev);
    else if (usable && !has_entry_point("cuMemGetHandleForAddressRange"))
        say(f, false, "not in this build: the library has no cuMemGetHandleForAddressRange; %s", dev);
    else
        say(f, false, "attribute %d is %d: %s%s", attr, in->attr[attr], dev,
            has_entry_point("cuMemGetHandleForAddressRange") ? ""
                                                             : "; cuMemGetHandleForAddressRange is not in this build either");
#endif
}

/* A handle type of cuImportExternalMemory: works where `native` (this platform's type). */
static void external_memory_feature(struct info *in, const char *key, const char *title, bool native,
                                    const char *works_why)
{
    struct feature *f = add_feature(in, key, title);
    if (!native)
        say(f, false, "%s", works_why);
    else if (!has_entry_point("cuImportExternalMemory"))
        say(f, false, "not in this build: the library has no cuImportExternalMemory");
    else
        say(f, true, "%s", works_why);
}

/* PTX kernels: a one-instruction module loaded and launched, as a program would. */
static void kernel_feature(struct info *in)
{
    struct feature *f = add_feature(in, "ptx_kernels", "PTX kernels");
    if (!has_entry_point("cuModuleLoadData") || !has_entry_point("cuLaunchKernel")) {
        say(f, false, "not in this build: the library has no cuModuleLoadData/cuLaunchKernel");
        return;
    }
    static const char ptx[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                              ".visible .entry probe(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n"
                              "ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], 7;\nret;\n}\n";
    CUcontext ctx = NULL;
    CUmodule m = NULL;
    CUfunction fn = NULL;
    CUdeviceptr p = 0;
    unsigned int v = 0;
    void *params[] = {&p};
    CUresult r = cuDevicePrimaryCtxRetain(&ctx, 0);
    if (!r && !(r = cuCtxPushCurrent(ctx))) {
        if (!(r = cuModuleLoadData(&m, ptx)) && !(r = cuModuleGetFunction(&fn, m, "probe")) && !(r = cuMemAlloc(&p, 4)) &&
            !(r = cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL)))
            r = cuMemcpyDtoH(&v, p, 4);
        char why[200];
        snprintf(why, sizeof(why), "%s", r ? extmem_error_detail() : "");
        if (p)
            cuMemFree(p);
        if (m)
            cuModuleUnload(m);
        cuCtxPopCurrent(NULL);
        if (r)
            say(f, false, "a probe kernel failed: %s", why);
        else
            say(f, v == 7, "the portable executor ran a probe kernel; PTX ISA up to 9.0, targets up to sm_%d%d "
                           "(compute capability %d.%d)",
                in->attr[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR], in->attr[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR],
                in->attr[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR], in->attr[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR]);
    } else {
        say(f, false, "no context for the probe: %s", extmem_error_detail());
    }
    if (ctx)
        cuDevicePrimaryCtxRelease(0);
    extmem_error_clear();
}

static void vulkan_feature(struct info *in)
{
    struct feature *f = add_feature(in, "vulkan", "Vulkan (loader + lavapipe)");
    char err[256];
#if defined(_WIN32)
    if (library_loads("vulkan-1.dll", err, sizeof(err)))
        say(f, true, "vulkan-1.dll loads");
    else
        say(f, false, "vulkan-1.dll cannot be loaded: %s", err);
#else
    bool loader = library_loads("libvulkan.so.1", err, sizeof(err));
    glob_t g;
    char icd[200] = "";
    if (glob("/usr/share/vulkan/icd.d/lvp_icd*.json", 0, NULL, &g) == 0) {
        snprintf(icd, sizeof(icd), "%s", g.gl_pathv[0]);
        globfree(&g);
    }
    if (loader && icd[0])
        say(f, true, "libvulkan.so.1 loads; lavapipe's ICD is %s", icd);
    else if (loader)
        say(f, false, "libvulkan.so.1 loads, but no lavapipe ICD /usr/share/vulkan/icd.d/lvp_icd*.json "
                      "(install mesa-vulkan-drivers)");
    else if (icd[0])
        say(f, false, "lavapipe's ICD is %s, but libvulkan.so.1 cannot be loaded: %s", icd, err);
    else
        say(f, false, "libvulkan.so.1 cannot be loaded (install libvulkan1) and no lavapipe ICD "
                      "/usr/share/vulkan/icd.d/lvp_icd*.json (install mesa-vulkan-drivers)");
#endif
}

static void gather_features(struct info *in)
{
    attribute_feature(in, "vmm", "VMM (cuMemCreate, cuMemMap)", CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                      "cuMemCreate");
#if defined(_WIN32)
    {
        struct feature *f = add_feature(in, "posix_fd", "POSIX fd handles");
        say(f, false, "Linux only; attribute 103 is %d", in->attr[CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED]);
    }
    attribute_feature(in, "win32_handle", "Win32 NT handles", CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED,
                      "cuMemExportToShareableHandle");
    attribute_feature(in, "win32_kmt_handle", "Win32 KMT handles",
                      CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED, "cuMemExportToShareableHandle");
#else
    attribute_feature(in, "posix_fd", "POSIX fd handles", CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
                      "cuMemExportToShareableHandle");
    {
        struct feature *f = add_feature(in, "win32_handle", "Win32 NT handles");
        say(f, false, "Windows only; attribute 104 is %d",
            in->attr[CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED]);
        f = add_feature(in, "win32_kmt_handle", "Win32 KMT handles");
        say(f, false, "Windows only; attribute 105 is %d",
            in->attr[CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED]);
    }
#endif
    dma_buf_feature(in);
    {
        struct feature *f = add_feature(in, "ipc_memory", "IPC memory handles");
        if (has_entry_point("cuIpcGetMemHandle"))
            say(f, true, "cuIpcGetMemHandle and cuIpcOpenMemHandle are in this build");
        else
            say(f, false, "not in this build: the library has no cuIpcGetMemHandle");
    }
    attribute_feature(in, "ipc_events", "IPC events", CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, "cuIpcGetEventHandle");
#if defined(_WIN32)
    external_memory_feature(in, "external_memory_opaque_fd", "external memory OPAQUE_FD", false,
                            "Linux only: file descriptors are a POSIX handle type");
    external_memory_feature(in, "external_memory_dmabuf_fd", "external memory DMABUF_FD", false,
                            "Linux only: dma-bufs are Linux kernel objects");
    external_memory_feature(in, "external_memory_opaque_win32", "external memory OPAQUE_WIN32", true,
                            "any section, by NT handle (it stays yours) or by name");
    external_memory_feature(in, "external_memory_opaque_win32_kmt", "external memory OPAQUE_WIN32_KMT", true,
                            "extmem's KMT tokens (cuMemExportToShareableHandle, CU_MEM_HANDLE_TYPE_WIN32_KMT)");
    {
        struct feature *f = add_feature(in, "d3d12", "Direct3D 12 memory");
        char err[256];
        if (library_loads("d3d12.dll", err, sizeof(err)))
            say(f, true, "d3d12.dll loads: D3D12_HEAP / D3D12_RESOURCE memory the CPU reaches imports zero copy");
        else
            say(f, false, "d3d12.dll cannot be loaded: %s", err);
    }
#else
    external_memory_feature(in, "external_memory_opaque_fd", "external memory OPAQUE_FD", true,
                            "own exports and Mesa lavapipe memfds; other fds are refused, as the real driver refuses them");
    external_memory_feature(in, "external_memory_dmabuf_fd", "external memory DMABUF_FD", true,
                            "a dma-buf fd is mapped with mmap");
#endif
    vulkan_feature(in);
    kernel_feature(in);
}

/* ---- Output ---- */

static void format_uuid(const CUuuid *u, char out[40])
{
    const unsigned char *b = (const unsigned char *)u->bytes;
    snprintf(out, 40, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4],
            b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c == '\n')
            fputs("\\n", stdout);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static double gib(size_t bytes) { return (double)bytes / (1024.0 * 1024.0 * 1024.0); }

static void print_text(const struct info *in)
{
    printf("extmem-info\n\n");
    printf("extmem version    %s\n", in->version);
    printf("driver version    %d (CUDA %d.%d)\n\n", in->driver_version, in->driver_version / 1000,
           in->driver_version % 1000 / 10);
    printf("Device 0: %s\n", in->name);
    printf("  UUID            %s\n", in->uuid);
    printf("  LUID            %s (node mask %u)\n", in->luid, in->node_mask);
    printf("  total memory    %.2f GiB (%zu bytes)\n", gib(in->total), in->total);
    printf("  free memory     %.2f GiB (%zu bytes)\n", gib(in->free_bytes), in->free_bytes);
    printf("  worker threads  %u\n\n", in->workers);

    printf("Attributes (%d)\n", (int)CU_DEVICE_ATTRIBUTE_MAX - 1);
    for (int a = 1; a < (int)CU_DEVICE_ATTRIBUTE_MAX; ++a)
        printf("  %3d  %-46s %d\n", a, attribute_name(a), in->attr[a]);

    printf("\nFeatures\n");
    for (int i = 0; i < in->feature_count; ++i) {
        const struct feature *f = &in->features[i];
        printf("  %-34s %-4s %s\n", f->title, f->works ? "yes" : "no", f->why);
    }
}

static void print_json(const struct info *in)
{
    printf("{\n  \"extmem_version\": ");
    json_string(in->version);
    printf(",\n  \"driver_version\": %d,\n  \"device\": {\n    \"ordinal\": 0,\n    \"name\": ", in->driver_version);
    json_string(in->name);
    printf(",\n    \"uuid\": \"%s\",\n    \"luid\": \"%s\",\n    \"luid_node_mask\": %u,\n", in->uuid, in->luid,
           in->node_mask);
    printf("    \"total_memory\": %zu,\n    \"free_memory\": %zu,\n    \"worker_threads\": %u\n  },\n", in->total,
           in->free_bytes, in->workers);
    printf("  \"attributes\": {\n");
    for (int a = 1; a < (int)CU_DEVICE_ATTRIBUTE_MAX; ++a)
        printf("    \"%s\": %d%s\n", attribute_name(a), in->attr[a], a + 1 < (int)CU_DEVICE_ATTRIBUTE_MAX ? "," : "");
    printf("  },\n  \"features\": {\n");
    for (int i = 0; i < in->feature_count; ++i) {
        const struct feature *f = &in->features[i];
        printf("    \"%s\": {\"supported\": %s, \"reason\": ", f->key, f->works ? "true" : "false");
        json_string(f->why);
        printf("}%s\n", i + 1 < in->feature_count ? "," : "");
    }
    printf("  }\n}\n");
}

static void usage(FILE *to)
{
    fprintf(to, "usage: extmem-info [--json] [--help]\n"
                "  Prints the extmem software device: versions, identity, memory, every device\n"
                "  attribute, and which interop features work on this machine (and why not).\n"
                "  --json   one JSON object instead of text\n"
                "  --help   this text\n");
}

static int gather(struct info *in)
{
    CUdevice dev;
    CUuuid uuid;
    char luid[8];
    CUcontext ctx;

    in->version = extmem_version();
    CHECK(cuDriverGetVersion(&in->driver_version));
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceGetName(in->name, (int)sizeof(in->name), dev));
    CHECK(cuDeviceGetUuid(&uuid, dev));
    format_uuid(&uuid, in->uuid);
    CHECK(cuDeviceGetLuid(luid, &in->node_mask, dev));
    for (int i = 0; i < 8; ++i)
        snprintf(in->luid + 2 * i, 3, "%02x", (unsigned char)luid[i]);
    CHECK(cuDeviceTotalMem(&in->total, dev));
    for (int a = 1; a < (int)CU_DEVICE_ATTRIBUTE_MAX; ++a)
        CHECK(cuDeviceGetAttribute(&in->attr[a], (CUdevice_attribute)a, dev));
    in->workers = extmem_worker_count();

    /* Free memory is a context query. */
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CUresult r = cuCtxSetCurrent(ctx);
    size_t total_again;
    if (r == CUDA_SUCCESS)
        r = cuMemGetInfo(&in->free_bytes, &total_again);
    cuCtxSetCurrent(NULL);
    cuDevicePrimaryCtxRelease(dev);
    if (r != CUDA_SUCCESS)
        return report_failure("cuMemGetInfo", r);

    gather_features(in);
    return 0;
}

int main(int argc, char **argv)
{
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "extmem-info: unknown option %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }

    static struct info in; /* large: keep it off the stack */
    if (gather(&in) != 0)
        return 1;
    if (json)
        print_json(&in);
    else
        print_text(&in);
    return 0;
}
