/*
 * The software device (DESIGN.md §2): one device, ordinal 0, whose memory is shareable host
 * memory and whose kernels run on the worker pool. Every attribute has a defined value that
 * is honest for what the device is; docs/attributes.md explains each.
 */
#include "device/device.h"
#include "vk/pairing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEVICE_NAME "extmem software device"

/* 2 MiB, as real GPUs report; EXTMEM_GRANULARITY (a power of two, at least a page) lowers it
 * for tests. */
size_t device_granularity(void)
{
    static size_t gran;
    if (!gran) {
        const char *env = os_getenv("EXTMEM_GRANULARITY");
        unsigned long long v = env ? strtoull(env, NULL, 0) : 0;
        gran = v >= os_page_size() && v <= (1ull << 30) && !(v & (v - 1)) ? (size_t)v : (size_t)2 << 20;
    }
    return gran;
}

/* 8.0 by default: every PTX target up to sm_80 loads (a fat binary's best PTX entry is the
 * highest one not above it), and the engine implements the sm_80 instructions it accepts;
 * programs that check for a recent GPU (CuPy, numba, NVIDIA's samples) find one.
 * EXTMEM_COMPUTE_CAPABILITY=major.minor (7.5 to 12.0) claims another; docs/attributes.md. */
int device_sm(void)
{
    static atomic_int sm;
    int v = atomic_load(&sm);
    if (v)
        return v;
    v = 80;
    const char *env = os_getenv("EXTMEM_COMPUTE_CAPABILITY");
    if (env && *env) {
        char *end;
        long major = strtol(env, &end, 10), minor = 0;
        if (*end == '.')
            minor = strtol(end + 1, &end, 10);
        long want = major * 10 + minor;
        if (*end || minor < 0 || minor > 9 || want < 75 || want > 120)
            log_warn("EXTMEM_COMPUTE_CAPABILITY=%s is not major.minor between 7.5 and 12.0: the device says 8.0", env);
        else
            v = (int)want;
    }
    atomic_store(&sm, v);
    return v;
}

CUresult device_check(const char *fn, CUdevice dev)
{
    if (dev < 0 || dev >= EXTMEM_DEVICE_COUNT)
        return fail(CUDA_ERROR_INVALID_DEVICE, "%s: device %d does not exist: the software device is ordinal 0", fn, dev);
    return CUDA_SUCCESS;
}

/* The software device's own identity: a fixed, RFC 4122 version-5 shaped UUID, the same on
 * every machine and run. */
static const unsigned char own_uuid[16] = {0x65, 0x78, 0x74, 0x6d, 0x65, 0x6d, 0x50, 0x73,
                                           0x80, 0x66, 0x74, 0x77, 0x61, 0x72, 0x65, 0x00};

/* Interop code pairs devices by UUID, as NVIDIA's samples do (DESIGN.md §7): in a program that
 * uses Vulkan, the software device answers with lavapipe's deviceUUID, its partner. Asking
 * Vulkan costs milliseconds and memory, so by default extmem asks only once the program has
 * loaded the Vulkan loader itself, and keeps the answer once it has one.
 * EXTMEM_VULKAN_PAIRING=0 never pairs; =1 always does. docs/vulkan-interop.md has the costs. */
static bool paired_uuid(unsigned char uuid[16])
{
    static os_mutex lock = OS_MUTEX_INITIALIZER;
    static unsigned char answer[16];
    static int state; /* 0: not asked yet; 1: paired; -1: never (forced off, or no lavapipe) */
    const char *env = os_getenv("EXTMEM_VULKAN_PAIRING");
    int mode = env && *env ? atoi(env) : -1;
    os_mutex_lock(&lock);
    if (state == 0 && mode == 0)
        state = -1;
    if (state == 0 && (mode == 1 || os_library_loaded(OS_VULKAN_LOADER)))
        state = extmem_vk_lavapipe_uuid(answer) == 0 ? 1 : -1;
    bool paired = state == 1;
    if (paired)
        memcpy(uuid, answer, 16);
    os_mutex_unlock(&lock);
    return paired;
}

void device_uuid(CUuuid *uuid)
{
    if (!paired_uuid((unsigned char *)uuid->bytes))
        memcpy(uuid->bytes, own_uuid, sizeof(own_uuid));
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
    REQUIRE_INIT("cuDeviceGet");
    if (!device)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGet: device is NULL");
    if (ordinal < 0 || ordinal >= EXTMEM_DEVICE_COUNT)
        return fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGet: ordinal %d does not exist: there is %d device", ordinal,
                    EXTMEM_DEVICE_COUNT);
    *device = ordinal;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int *count)
{
    REQUIRE_INIT("cuDeviceGetCount");
    if (!count)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetCount: count is NULL");
    *count = EXTMEM_DEVICE_COUNT;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceGetName");
    if (!name)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetName: name is NULL");
    if (len <= 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetName: len is %d: it must be positive", len);
    CUresult r = device_check("cuDeviceGetName", dev);
    if (r)
        return r;
    snprintf(name, (size_t)len, "%s", DEVICE_NAME);
    return CUDA_SUCCESS;
}

static CUresult get_uuid(const char *fn, CUuuid *uuid, CUdevice dev)
{
    REQUIRE_INIT(fn);
    if (!uuid)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: uuid is NULL", fn);
    CUresult r = device_check(fn, dev);
    if (r)
        return r;
    device_uuid(uuid);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) { return get_uuid("cuDeviceGetUuid", uuid, dev); }

/* The unsuffixed symbol, for binaries built against headers older than CUDA 11.4. */
#undef cuDeviceGetUuid
EXTMEM_API CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) { return get_uuid("cuDeviceGetUuid", uuid, dev); }

/* cuDeviceGetLuid answers with Direct3D's adapter where there is one: src/interop/external_handle.c. */

CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceTotalMem");
    if (!bytes)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceTotalMem: bytes is NULL");
    CUresult r = device_check("cuDeviceTotalMem", dev);
    if (r)
        return r;
    *bytes = (size_t)os_memory_total();
    return CUDA_SUCCESS;
}

/* One value per attribute; see docs/attributes.md for the reasoning behind each. */
static int attribute_value(CUdevice_attribute a)
{
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return 64;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return 2147483647;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: return 65535;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return 65535;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return 32; /* the engine runs warps of 32 lanes */
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return device_sm() / 10;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return device_sm() % 10;
    /* sm_80's shared memory and registers: kernels written for a GPU size themselves by them. */
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: return DEVICE_SHARED_PER_BLOCK;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return DEVICE_SHARED_PER_BLOCK_OPTIN;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return DEVICE_SHARED_PER_SM;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: return DEVICE_RESERVED_SHARED_PER_BLOCK;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return 65536;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: return DEVICE_REGISTERS_PER_SM;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: return DEVICE_REGISTERS_PER_SM;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return 2147483647;
    /* Texture objects over linear memory (src/image/texture.c enforces them). */
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: return DEVICE_TEXTURE_ALIGNMENT;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: return DEVICE_TEXTURE_PITCH_ALIGNMENT;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH: return DEVICE_TEXTURE1D_LINEAR_WIDTH;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH: return DEVICE_TEXTURE2D_LINEAR_WIDTH;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT: return DEVICE_TEXTURE2D_LINEAR_HEIGHT;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH: return DEVICE_TEXTURE2D_LINEAR_PITCH;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return (int)os_cpu_clock_khz();
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: return 1;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return (int)pool_worker_count();
    case CU_DEVICE_ATTRIBUTE_INTEGRATED: return 1; /* device memory is host memory */
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: return 1;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: return 1;
    /* grid (issue 25): cooperative launches (src/kernel/exec.c runs their blocks as resumable
     * contexts), also through cuLaunchCooperativeKernelMultiDevice with this one device. */
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: return 1;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH: return 1;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return (int)os_l2_cache_size();
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: return DEVICE_THREADS_PER_SM;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: return 1;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: return 1;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: return 1;
    /* Kernels refuse addresses outside extmem's memory (mem_kernel_extent: an access there is
     * CUDA_ERROR_ILLEGAL_ADDRESS), so pageable memory is out of their reach, as on the H100. */
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS: return 0;
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES: return 0;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: return 1; /* one address space */
    /* Managed memory is device memory every processor reads in place (src/memory/managed.c):
     * the host and kernels may touch it at the same time, and the host without faults. */
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: return 1;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: return 1;
    case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: return 1;
    /* cuMemHostRegister, READ_ONLY included: a registered range is its own device address. */
    case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED: return 1;
    /* Stream memory operations (src/memory/memop.c): the _v2 forms. The forms before CUDA 11.7
     * (the _V1 attributes, 92-94) are NOT_SUPPORTED, as on the H100, which answers 0 for them. */
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS: return 1;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR: return 1;
    /* Timeline semaphores import (TIMELINE_SEMAPHORE_FD, src/interop/external_semaphore.c). */
    case CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return DEVICE_BLOCKS_PER_SM;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS: return 1;
    case CU_DEVICE_ATTRIBUTE_NUMA_ID: return -1;
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID: return -1;
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED: return 1;
    /* Memory pools (src/memory/pool.c), exportable through the platform's own handle type. */
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES:
        return OS_HAS_POSIX_FD ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : CU_MEM_HANDLE_TYPE_WIN32;
    case CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED: return 1;
    /* The platform's own handle types (vmm_alloc.c): fds on Linux, NT and KMT handles on Windows. */
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: return OS_HAS_POSIX_FD;
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED: return !OS_HAS_POSIX_FD;
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED: return !OS_HAS_POSIX_FD;
    /* 1 only where a dma-buf provider works on this machine (Linux: /dev/udmabuf); host
     * allocations are memfds like device memory, so both answer the same. */
    /* CUDA arrays (src/image): the H100's limits, which cuArray3DCreate and
     * cuMipmappedArrayCreate enforce (docs/probes/images/arrays/array_probe.out). */
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH: return 131072;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH: return 131072;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT: return 65536;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH: return 16384;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT: return 16384;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH: return 16384;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS: return 2048;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS: return 2048;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE: return 8192;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE: return 8192;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS: return 2046;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH: return 131072;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT: return 65536;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH: return 16384;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT: return 16384;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH: return 16384;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS: return 2048;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS: return 2048;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS: return 2046;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT: return 32768;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH: return 32768;
    case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED: return os_dmabuf_supported(NULL);
    case CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED: return os_dmabuf_supported(NULL);
    /* clusters of several blocks run where the device claims 9.0 (docs/kernels.md, "Clusters") */
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: return device_sm() >= 90;
    default:
        /* Everything the software device does not have: shared and constant memory,
         * registers, textures and surfaces, PCI identity, ECC, remote-write flushes,
         * cooperative and cluster launch, RDMA, compression, MPS, CIG, decompression, and the
         * interop capabilities later issues add. */
        return 0;
    }
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceGetAttribute");
    if (!pi)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetAttribute: pi is NULL");
    if ((int)attrib < 1 || attrib >= CU_DEVICE_ATTRIBUTE_MAX)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetAttribute: attribute %d is not a CUdevice_attribute (1..%d)",
                    (int)attrib, (int)CU_DEVICE_ATTRIBUTE_MAX - 1);
    CUresult r = device_check("cuDeviceGetAttribute", dev);
    if (r)
        return r;
    *pi = attribute_value(attrib);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceComputeCapability");
    if (!major || !minor)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceComputeCapability: %s is NULL", !major ? "major" : "minor");
    CUresult r = device_check("cuDeviceComputeCapability", dev);
    if (r)
        return r;
    *major = device_sm() / 10;
    *minor = device_sm() % 10;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceGetExecAffinitySupport");
    if (!pi)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetExecAffinitySupport: pi is NULL");
    if (type != CU_EXEC_AFFINITY_TYPE_SM_COUNT)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetExecAffinitySupport: type %d is not a CUexecAffinityType",
                    (int)type);
    CUresult r = device_check("cuDeviceGetExecAffinitySupport", dev);
    if (r)
        return r;
    *pi = 0; /* contexts always have the whole device: cuCtxCreate refuses affinity parameters */
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceGetProperties");
    if (!prop)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetProperties: prop is NULL");
    CUresult r = device_check("cuDeviceGetProperties", dev);
    if (r)
        return r;
    /* Each field is the attribute of the same meaning, as on the driver (docs/probes/surface). */
    prop->maxThreadsPerBlock = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    prop->maxThreadsDim[0] = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    prop->maxThreadsDim[1] = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    prop->maxThreadsDim[2] = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    prop->maxGridSize[0] = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    prop->maxGridSize[1] = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    prop->maxGridSize[2] = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    prop->sharedMemPerBlock = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    prop->totalConstantMemory = attribute_value(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
    prop->SIMDWidth = attribute_value(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    prop->memPitch = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
    prop->regsPerBlock = attribute_value(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    prop->clockRate = attribute_value(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    prop->textureAlign = attribute_value(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
    return CUDA_SUCCESS;
}

/* The unsuffixed symbol of binaries built before CUDA 3.2, whose size is 32 bits: a total above
 * 4 GiB - 1 is answered as 4 GiB - 1 (the real size does not fit). */
#undef cuDeviceTotalMem
EXTMEM_API CUresult CUDAAPI cuDeviceTotalMem(unsigned int *bytes, CUdevice dev);
CUresult CUDAAPI cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceTotalMem");
    if (!bytes)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceTotalMem: bytes is NULL");
    size_t total = 0;
    CUresult r = cuDeviceTotalMem_v2(&total, dev);
    if (!r)
        *bytes = total > 0xffffffffu ? 0xffffffffu : (unsigned int)total;
    return r;
}

/* ---- PCI identity ----
 * The software device is on no bus. Its PCI attributes (domain, bus, device) are 0, so its
 * address is "0000:00:00.0", which cuDeviceGetByPCIBusId takes back (docs/attributes.md). */
#define DEVICE_PCI_BUS_ID "0000:00:00.0"

CUresult CUDAAPI cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    REQUIRE_INIT("cuDeviceGetPCIBusId");
    if (!pciBusId)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetPCIBusId: pciBusId is NULL");
    if (len <= 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetPCIBusId: len is %d: it must be positive", len);
    CUresult r = device_check("cuDeviceGetPCIBusId", dev);
    if (r)
        return r;
    /* What fits is written even when it does not all fit, as the driver does. */
    snprintf(pciBusId, (size_t)len, "%s", DEVICE_PCI_BUS_ID);
    if ((size_t)len < sizeof(DEVICE_PCI_BUS_ID))
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetPCIBusId: len is %d: the id \"%s\" takes %zu bytes with "
                    "its NUL", len, DEVICE_PCI_BUS_ID, sizeof(DEVICE_PCI_BUS_ID));
    return CUDA_SUCCESS;
}

/* Reads "[domain:]bus:device[.function]" (hex numbers): false for anything else. */
static bool parse_pci(const char *s, unsigned *domain, unsigned *bus, unsigned *device, unsigned *function)
{
    unsigned v[4];
    int n = 0;
    const char *p = s;
    char seps[4] = {0};
    while (n < 4) {
        char *end;
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))
            return false;
        unsigned long x = strtoul(p, &end, 16);
        if (end - p > 8)
            return false;
        v[n] = (unsigned)x;
        seps[n] = *end;
        n++;
        if (*end == 0)
            break;
        if (*end != ':' && *end != '.')
            return false;
        p = end + 1;
    }
    *function = 0;
    if (n == 4 && seps[0] == ':' && seps[1] == ':' && seps[2] == '.' && seps[3] == 0) {
        *domain = v[0], *bus = v[1], *device = v[2], *function = v[3];
    } else if (n == 3 && seps[0] == ':' && seps[1] == ':' && seps[2] == 0) {
        *domain = v[0], *bus = v[1], *device = v[2];
    } else if (n == 3 && seps[0] == ':' && seps[1] == '.' && seps[2] == 0) {
        *domain = 0, *bus = v[0], *device = v[1], *function = v[2];
    } else {
        return false;
    }
    return true;
}

CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    REQUIRE_INIT("cuDeviceGetByPCIBusId");
    if (!dev || !pciBusId)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetByPCIBusId: %s is NULL", !dev ? "dev" : "pciBusId");
    unsigned domain, bus, device, function;
    if (!parse_pci(pciBusId, &domain, &bus, &device, &function))
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetByPCIBusId: \"%.64s\" is not a PCI address "
                    "([domain:]bus:device[.function], in hex)", pciBusId);
    if (domain || bus || device || function)
        return fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGetByPCIBusId: no device at %.64s: the software device "
                    "answers to %s", pciBusId, DEVICE_PCI_BUS_ID);
    *dev = 0;
    return CUDA_SUCCESS;
}

/* ---- Peers: one device, which is not its own peer ---- */

CUresult CUDAAPI cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    REQUIRE_INIT("cuDeviceCanAccessPeer");
    if (!canAccessPeer)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceCanAccessPeer: canAccessPeer is NULL");
    CUresult r = device_check("cuDeviceCanAccessPeer", dev);
    if (r || (r = device_check("cuDeviceCanAccessPeer", peerDev)))
        return r;
    *canAccessPeer = 0; /* the driver's answer for a device and itself */
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                         CUdevice dstDevice)
{
    REQUIRE_INIT("cuDeviceGetP2PAttribute");
    if (!value)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetP2PAttribute: value is NULL");
    if (attrib < CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK ||
        attrib > CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetP2PAttribute: attrib %d is not a CUdevice_P2PAttribute",
                    (int)attrib);
    CUresult r = device_check("cuDeviceGetP2PAttribute", srcDevice);
    if (r || (r = device_check("cuDeviceGetP2PAttribute", dstDevice)))
        return r;
    /* The driver answers a device paired with itself so too (docs/probes/surface). */
    return fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGetP2PAttribute: devices %d and %d are the same device: a device "
                "is not its own peer, and the software device is the only one", srcDevice, dstDevice);
}

/* ---- Atomic capabilities (CUDA 13.0) ---- */

/* What the kernel engine's atomics (src/kernel/ops_atom.c: the CPU's atomics on the memory
 * itself) do on memory the host uses at the same time. The H200 behind PCIe answers 0 for every
 * operation (docs/probes/surface/atomic.out); here device memory is host memory. */
static unsigned int host_atomic_caps(CUatomicOperation op)
{
    const unsigned int ints = CU_ATOMIC_CAPABILITY_SIGNED | CU_ATOMIC_CAPABILITY_UNSIGNED |
                              CU_ATOMIC_CAPABILITY_SCALAR_32 | CU_ATOMIC_CAPABILITY_SCALAR_64;
    switch (op) {
    case CU_ATOMIC_OPERATION_INTEGER_ADD:
    case CU_ATOMIC_OPERATION_INTEGER_MIN:
    case CU_ATOMIC_OPERATION_INTEGER_MAX:
    case CU_ATOMIC_OPERATION_AND:
    case CU_ATOMIC_OPERATION_OR:
    case CU_ATOMIC_OPERATION_XOR: return ints | CU_ATOMIC_CAPABILITY_REDUCTION; /* atom and red */
    case CU_ATOMIC_OPERATION_INTEGER_INCREMENT:
    case CU_ATOMIC_OPERATION_INTEGER_DECREMENT: /* atom.inc/dec.u32 */
        return CU_ATOMIC_CAPABILITY_UNSIGNED | CU_ATOMIC_CAPABILITY_REDUCTION | CU_ATOMIC_CAPABILITY_SCALAR_32;
    case CU_ATOMIC_OPERATION_EXCHANGE:
    case CU_ATOMIC_OPERATION_CAS: return ints;
    case CU_ATOMIC_OPERATION_FLOAT_ADD: /* atom.add.f32/f64 */
        return CU_ATOMIC_CAPABILITY_SIGNED | CU_ATOMIC_CAPABILITY_REDUCTION | CU_ATOMIC_CAPABILITY_SCALAR_32 |
               CU_ATOMIC_CAPABILITY_SCALAR_64;
    default: return 0; /* float min and max: not PTX atomics for sm_90 global memory */
    }
}

static CUresult atomic_args(const char *fn, unsigned int *capabilities, const CUatomicOperation *operations,
                            unsigned int count)
{
    if (!capabilities || !operations || count == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s", fn,
                    !capabilities ? "capabilities is NULL" : !operations ? "operations is NULL" : "count is 0");
    for (unsigned int i = 0; i < count; ++i)
        if ((unsigned)operations[i] >= (unsigned)CU_ATOMIC_OPERATION_MAX)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: operations[%u] = %d is not a CUatomicOperation", fn, i,
                        (int)operations[i]);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetHostAtomicCapabilities(unsigned int *capabilities, const CUatomicOperation *operations,
                                                   unsigned int count, CUdevice dev)
{
    const char *fn = "cuDeviceGetHostAtomicCapabilities";
    REQUIRE_INIT(fn);
    CUresult r = atomic_args(fn, capabilities, operations, count);
    if (r || (r = device_check(fn, dev)))
        return r;
    for (unsigned int i = 0; i < count; ++i)
        capabilities[i] = host_atomic_caps(operations[i]);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetP2PAtomicCapabilities(unsigned int *capabilities, const CUatomicOperation *operations,
                                                  unsigned int count, CUdevice srcDevice, CUdevice dstDevice)
{
    const char *fn = "cuDeviceGetP2PAtomicCapabilities";
    REQUIRE_INIT(fn);
    CUresult r = atomic_args(fn, capabilities, operations, count);
    if (r || (r = device_check(fn, srcDevice)) || (r = device_check(fn, dstDevice)))
        return r;
    return fail(CUDA_ERROR_INVALID_DEVICE, "%s: devices %d and %d are the same device: it is not its own peer, as "
                "the H200 answers, and the software device is the only one", fn, srcDevice, dstDevice);
}

/* ---- Linear textures ---- */

CUresult CUDAAPI cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, CUarray_format format,
                                                    unsigned numChannels, CUdevice dev)
{
    const char *fn = "cuDeviceGetTexture1DLinearMaxWidth";
    REQUIRE_INIT(fn);
    if (!maxWidthInElements)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: maxWidthInElements is NULL", fn);
    size_t bytes;
    switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8: bytes = 1; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF: bytes = 2; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32: case CU_AD_FORMAT_FLOAT: bytes = 4; break;
    default:
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: format 0x%x is not a plain integer, half or float CUarray_format", fn,
                    (unsigned)format);
    }
    if (numChannels != 1 && numChannels != 2 && numChannels != 4)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numChannels is %u: it must be 1, 2 or 4", fn, numChannels);
    CUresult r = device_check(fn, dev);
    if (r)
        return r;
    /* The H100's limits: 2^30 elements and 2^32 bytes (2^28 four-float elements). */
    size_t by_bytes = ((size_t)1 << 32) / (bytes * numChannels), by_count = (size_t)1 << 30;
    *maxWidthInElements = by_bytes < by_count ? by_bytes : by_count;
    return CUDA_SUCCESS;
}
