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
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return (int)os_cpu_clock_khz();
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: return 1;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return (int)pool_worker_count();
    case CU_DEVICE_ATTRIBUTE_INTEGRATED: return 1; /* device memory is host memory */
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: return 1;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: return 1;
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
    /* Memory pools (cuMemPoolCreate, cuMemAllocAsync); their memory exports as the platform's
     * shareable handle: a POSIX fd where there is one. */
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES:
        return OS_HAS_POSIX_FD ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : 0;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return DEVICE_BLOCKS_PER_SM;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS: return 1;
    case CU_DEVICE_ATTRIBUTE_NUMA_ID: return -1;
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID: return -1;
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED: return 1;
    /* The platform's own handle types (vmm_alloc.c): fds on Linux, NT and KMT handles on Windows. */
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: return OS_HAS_POSIX_FD;
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED: return !OS_HAS_POSIX_FD;
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED: return !OS_HAS_POSIX_FD;
    /* 1 only where a dma-buf provider works on this machine (Linux: /dev/udmabuf); host
     * allocations are memfds like device memory, so both answer the same. */
    case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED: return os_dmabuf_supported(NULL);
    case CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED: return os_dmabuf_supported(NULL);
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
