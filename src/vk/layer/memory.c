/*
 * External memory, all of it through the layer (docs/vulkan-import.md). lavapipe imports only
 * its own memfds (docs/lavapipe-memfd.md), so the memory other exporters make (extmem's memfds
 * from cuMemExportToShareableHandle, dma-bufs from cuMemGetHandleForAddressRange:
 * VK_EXT_external_memory_dma_buf, which the layer adds where the driver lacks it) cannot reach it
 * by fd. The layer maps such an fd and hands the driver the mapping through
 * VK_EXT_external_memory_host: the Vulkan memory and the exporter's are the same pages, no copy.
 * The mapping keeps the pages alive until vkFreeMemory, whatever the exporter frees or closes.
 *
 * So that the driver sees one kind of external memory only, the layer makes the exportable
 * memory too (a sealed memfd of its own, "extmem-vulkan-memory", mapped and imported the same
 * way; vkGetMemoryFdKHR hands out descriptors of it, which extmem's cuImportExternalMemory takes
 * as its own), imports lavapipe's memfds by their Mesa header the same way, and creates buffers
 * and images that name OPAQUE_FD or DMA_BUF handle types as HOST_ALLOCATION ones at the driver:
 * a validation layer below this one sees consistent host-memory imports, never an fd import of
 * memory the driver did not make.
 *
 * The fd's ownership follows the Vulkan specification ("Importing memory from a file
 * descriptor transfers ownership of the file descriptor from the application to the Vulkan
 * implementation"): after a successful import the layer owns it (it keeps it, so that
 * vkGetMemoryFdKHR can hand the same memory on) and closes it at vkFreeMemory; after a failure
 * the application still owns it and the layer has not touched it.
 */
#include "layer.h"
#include "os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the layer made of one imported allocation. */
struct lmemory {
    void *map;
    size_t map_len;
    int fd;                                  /* the imported fd, the layer's now */
    VkExternalMemoryHandleTypeFlagBits type; /* how it was imported */
};

enum fd_kind { FD_OTHER, FD_DRIVERS, FD_MEMFD, FD_DMABUF, FD_EXTMEM_NOT_MEMORY };

/* What the fd is (readlink of /proc/self/fd/N, as docs/lavapipe-memfd.md measured) and how
 * many bytes it holds. A memfd is taken only when sealed against shrinking: nobody can cut the
 * pages from under the mapping (extmem seals every memfd it makes). */
static enum fd_kind classify(int fd, uint64_t *size)
{
    char link[64], target[128];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n <= 0)
        return FD_OTHER;
    target[n] = '\0';
    if (strncmp(target, "/memfd:llvmpipe memory fd", 25) == 0)
        return FD_DRIVERS;
    /* extmem's objects that are not memory: a memory pool's handle (cuMemPoolExportToShareable-
     * Handle: the pool's page of bookkeeping) and an interprocess event's page. */
    if (strncmp(target, "/memfd:extmem-pool-", 19) == 0 || strncmp(target, "/memfd:extmem-event-", 20) == 0)
        return FD_EXTMEM_NOT_MEMORY;
    if (strncmp(target, "/memfd:", 7) == 0) {
        struct stat st;
        int seals = fcntl(fd, F_GET_SEALS);
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || seals < 0 || !(seals & F_SEAL_SHRINK))
            return FD_OTHER;
        *size = (uint64_t)st.st_size;
        return FD_MEMFD;
    }
    if (strncmp(target, "anon_inode:dmabuf", 17) == 0 || strncmp(target, "/dmabuf:", 8) == 0) {
        off_t end = lseek(fd, 0, SEEK_END);
        if (end <= 0)
            return FD_OTHER;
        *size = (uint64_t)end;
        return FD_DMABUF;
    }
    return FD_OTHER;
}

static size_t round_up(uint64_t v, uint64_t to) { return (size_t)((v + to - 1) / to * to); }

/* The structures of a VkMemoryAllocateInfo chain the layer keeps when it imports by host
 * pointer (the import, export and dedicated-allocation ones go: the driver sees host memory). */
static size_t kept_size(VkStructureType type)
{
    switch (type) {
    case VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO:
        return sizeof(VkMemoryAllocateFlagsInfo);
    case VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT:
        return sizeof(VkMemoryPriorityAllocateInfoEXT);
    case VK_STRUCTURE_TYPE_MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO:
        return sizeof(VkMemoryOpaqueCaptureAddressAllocateInfo);
    default:
        return 0;
    }
}

static bool dropped(VkStructureType type)
{
    return type == VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR || type == VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO ||
           type == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO;
}

/* The memory types the driver can give host memory at `map` (one page of it is enough). */
static uint32_t host_types(struct ldevice *dev, void *map)
{
    VkMemoryHostPointerPropertiesEXT props = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    if (dev->GetMemoryHostPointerPropertiesEXT(dev->handle, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, map,
                                               &props) != VK_SUCCESS)
        return 0;
    return props.memoryTypeBits;
}

/* Where the data of lavapipe's exportable memfd starts and how many bytes it holds: Mesa's
 * header, read by the same code extmem's cuImportExternalMemory uses (src/posix/external.c,
 * linked in with the payload's OS layer), so the two never disagree about lavapipe's memory. */
static bool mesa_data(int fd, uint64_t *data, uint64_t *size)
{
    os_external ext;
    char why[200];
    if (os_external_identify(fd, false, &ext, why, sizeof(why)) != 0 || ext.kind != OS_EXTERNAL_MESA)
        return false;
    *data = ext.data_offset;
    *size = ext.data_size;
    return true;
}

/* Memory the layer makes for an exportable allocation: a memfd sealed against resizing, as
 * extmem's own are (so that cuImportExternalMemory takes it as extmem's). */
static int make_memfd(size_t len)
{
    int fd = memfd_create("extmem-vulkan-memory", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)len) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

/* The driver's allocation of host memory at map (len bytes), with what the application chained
 * that still means something for host memory; records it for vkFreeMemory and vkGetMemoryFdKHR. */
static VkResult allocate_host(struct ldevice *dev, VkDevice device, const VkMemoryAllocateInfo *info,
                              const VkAllocationCallbacks *alloc, void *map, size_t len, int fd,
                              VkExternalMemoryHandleTypeFlagBits type, VkDeviceMemory *out)
{
    if (!(host_types(dev, map) & (1u << info->memoryTypeIndex)))
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "vkAllocateMemory: memory type %u cannot hold external memory on this driver "
                           "(vkGetMemoryFdPropertiesKHR says which can)", info->memoryTypeIndex);
    struct layer_arena arena = {0};
    VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;
    struct lmemory *mem = calloc(1, sizeof(*mem));
    VkImportMemoryHostPointerInfoEXT *host = layer_alloc(&arena, sizeof(*host));
    if (!mem || !host)
        goto fail;
    host->sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT;
    host->handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    host->pHostPointer = map;
    VkBaseOutStructure *last = (VkBaseOutStructure *)host;
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (dropped(s->sType))
            continue;
        size_t n = kept_size(s->sType);
        VkBaseOutStructure *copy = n ? layer_alloc(&arena, n) : NULL;
        if (!copy) {
            if (!n)
                r = layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                                "vkAllocateMemory: the layer makes external memory host memory for the driver and "
                                "does not know structure type %d in the chain", (int)s->sType);
            goto fail;
        }
        memcpy(copy, s, n);
        copy->pNext = NULL;
        last->pNext = copy;
        last = copy;
    }
    VkMemoryAllocateInfo down = *info;
    down.pNext = host;
    down.allocationSize = len;
    if ((r = dev->AllocateMemory(device, &down, alloc, out)) != VK_SUCCESS)
        goto fail;
    *mem = (struct lmemory){.map = map, .map_len = len, .fd = fd, .type = type};
    os_mutex_lock(&dev->lock);
    int err = lmap_put(&dev->memories, (uint64_t)*out, mem);
    os_mutex_unlock(&dev->lock);
    if (err) {
        dev->FreeMemory(device, *out, alloc);
        *out = VK_NULL_HANDLE;
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    layer_arena_free(&arena);
    return VK_SUCCESS;
fail:
    free(mem);
    layer_arena_free(&arena);
    return r;
}

/* An exportable allocation (VkExportMemoryAllocateInfo naming OPAQUE_FD): memory the layer makes. */
static VkResult allocate_exportable(struct ldevice *dev, VkDevice device, const VkMemoryAllocateInfo *info,
                                    const VkExportMemoryAllocateInfo *exp, const VkAllocationCallbacks *alloc,
                                    VkDeviceMemory *out)
{
    if (exp->handleTypes & ~(VkExternalMemoryHandleTypeFlags)VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "vkAllocateMemory: export handle types 0x%x: memory is exportable as OPAQUE_FD only "
                           "(vkGetPhysicalDeviceExternalBufferProperties)", (unsigned)exp->handleTypes);
    const size_t len = round_up(info->allocationSize ? info->allocationSize : 1, dev->host_alignment);
    int fd = make_memfd(len);
    if (fd < 0)
        return layer_error(layer_os_result(errno), "vkAllocateMemory: making exportable memory failed: %s",
                           strerror(errno));
    void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        int err = errno;
        close(fd);
        return layer_error(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory: mapping exportable memory failed: %s",
                           strerror(err));
    }
    VkResult r = allocate_host(dev, device, info, alloc, map, len, fd, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, out);
    if (r != VK_SUCCESS) {
        munmap(map, len);
        close(fd);
    }
    return r;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *info,
                                                    const VkAllocationCallbacks *alloc, VkDeviceMemory *out)
{
    struct ldevice *dev = layer_device(device);
    if (!dev)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkAllocateMemory: the device is unknown to the layer");
    const VkImportMemoryFdInfoKHR *import = layer_find(info->pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR);
    const VkExportMemoryAllocateInfo *exp = layer_find(info->pNext, VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
    if (!import && exp && exp->handleTypes)
        return allocate_exportable(dev, device, info, exp, alloc, out);
    if (!import || (import->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT &&
                    import->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT))
        return dev->AllocateMemory(device, info, alloc, out);
    const bool dmabuf = import->handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
    if (dmabuf && !dev->dmabuf_added)
        return dev->AllocateMemory(device, info, alloc, out); /* the driver's own dma-buf import */
    uint64_t size = 0, data = 0;
    enum fd_kind kind = classify(import->fd, &size);
    if (kind == FD_EXTMEM_NOT_MEMORY)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "vkAllocateMemory: fd %d is an extmem memory pool's (or event's) handle, not memory: a pool's "
                           "allocations are shared with cuMemPoolExportPointer, and memory Vulkan can import comes from "
                           "cuMemExportToShareableHandle", import->fd);
    if (dmabuf != (kind == FD_DMABUF) || kind == FD_OTHER)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE, "vkAllocateMemory: fd %d is %s, not %s", import->fd,
                           kind == FD_DMABUF ? "a dma-buf" : kind == FD_OTHER ? "neither a memfd nor a dma-buf" : "a memfd",
                           dmabuf ? "a dma-buf (VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT)" : "an OPAQUE_FD memfd");
    if (kind == FD_DRIVERS && !mesa_data(import->fd, &data, &size))
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "vkAllocateMemory: fd %d is named as lavapipe's memory but has no Mesa header", import->fd);
    if (info->allocationSize == 0 || info->allocationSize > size)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "vkAllocateMemory: allocationSize %llu is more than the %llu bytes fd %d holds",
                           (unsigned long long)info->allocationSize, (unsigned long long)size, import->fd);

    /* The driver's host-pointer rules: the pointer and the size multiples of its alignment. */
    const size_t len = round_up(info->allocationSize, dev->host_alignment);
    void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, import->fd, (off_t)data);
    if (map == MAP_FAILED)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE, "vkAllocateMemory: fd %d cannot be mapped: %s", import->fd,
                           strerror(errno));
    VkResult r = allocate_host(dev, device, info, alloc, map, len, import->fd, import->handleType, out);
    if (r != VK_SUCCESS) {
        munmap(map, len);
        return r; /* the fd is still the application's */
    }
    layer_info("vkAllocateMemory: fd %d (%s, %llu bytes) imported as host memory %p", import->fd,
               kind == FD_MEMFD ? "a memfd" : kind == FD_DRIVERS ? "lavapipe's memfd" : "a dma-buf",
               (unsigned long long)info->allocationSize, map);
    return VK_SUCCESS; /* the fd is the layer's from here on */
}

static void release(struct lmemory *mem)
{
    munmap(mem->map, mem->map_len);
    close(mem->fd);
    free(mem);
}

VKAPI_ATTR void VKAPI_CALL layer_FreeMemory(VkDevice device, VkDeviceMemory memory, const VkAllocationCallbacks *alloc)
{
    struct ldevice *dev = layer_device(device);
    if (!dev)
        return;
    dev->FreeMemory(device, memory, alloc);
    if (!memory)
        return;
    os_mutex_lock(&dev->lock);
    struct lmemory *mem = lmap_remove(&dev->memories, (uint64_t)memory);
    os_mutex_unlock(&dev->lock);
    if (mem)
        release(mem); /* after the driver let go of the pages */
}

VKAPI_ATTR VkResult VKAPI_CALL layer_GetMemoryFdKHR(VkDevice device, const VkMemoryGetFdInfoKHR *info, int *fd)
{
    struct ldevice *dev = layer_device(device);
    if (!dev)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkGetMemoryFdKHR: the device is unknown to the layer");
    os_mutex_lock(&dev->lock);
    struct lmemory *mem = lmap_get(&dev->memories, (uint64_t)info->memory);
    int dup_fd = -1, err = 0;
    bool same_type = mem && mem->type == info->handleType;
    if (same_type && (dup_fd = fcntl(mem->fd, F_DUPFD_CLOEXEC, 0)) < 0)
        err = errno;
    os_mutex_unlock(&dev->lock);
    if (!mem && info->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT)
        return dev->GetMemoryFdKHR(device, info, fd);
    if (!same_type)
        return layer_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                           "vkGetMemoryFdKHR: memory %p can be exported only as the handle type it was imported "
                           "with (the layer exports no dma-buf of the driver's own memory)",
                           (void *)(uintptr_t)info->memory);
    if (dup_fd < 0)
        return layer_error(layer_os_result(err), "vkGetMemoryFdKHR: duplicating the imported fd failed: %s",
                           strerror(err));
    *fd = dup_fd; /* another descriptor of the same pages, the application's */
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_GetMemoryFdPropertiesKHR(VkDevice device, VkExternalMemoryHandleTypeFlagBits type,
                                                              int fd, VkMemoryFdPropertiesKHR *props)
{
    struct ldevice *dev = layer_device(device);
    if (!dev)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkGetMemoryFdPropertiesKHR: the device is unknown");
    if (type != VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT || !dev->dmabuf_added)
        return dev->GetMemoryFdPropertiesKHR(device, type, fd, props);
    uint64_t size = 0;
    if (classify(fd, &size) != FD_DMABUF)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE, "vkGetMemoryFdPropertiesKHR: fd %d is not a dma-buf", fd);
    const size_t len = round_up(size < dev->host_alignment ? dev->host_alignment : size, dev->host_alignment);
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE, "vkGetMemoryFdPropertiesKHR: fd %d cannot be mapped: %s",
                           fd, strerror(errno));
    props->memoryTypeBits = host_types(dev, map);
    munmap(map, len);
    return VK_SUCCESS;
}

/* Where the layer adds VK_EXT_external_memory_dma_buf, a dma-buf is importable into buffers of
 * every usage the driver's host memory takes (answered from the driver's own host-allocation
 * properties); OPAQUE_FD stays the driver's answer (lavapipe's: import and export). */
VKAPI_ATTR void VKAPI_CALL layer_GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice physical, const VkPhysicalDeviceExternalBufferInfo *info, VkExternalBufferProperties *props)
{
    struct linstance *inst = layer_instance(physical);
    if (!inst || !inst->GetPhysicalDeviceExternalBufferProperties) {
        props->externalMemoryProperties = (VkExternalMemoryProperties){0};
        return;
    }
    if (info->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT || !layer_adds_dmabuf(inst, physical)) {
        inst->GetPhysicalDeviceExternalBufferProperties(physical, info, props);
        return;
    }
    VkPhysicalDeviceExternalBufferInfo host = *info;
    host.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    inst->GetPhysicalDeviceExternalBufferProperties(physical, &host, props);
    VkExternalMemoryProperties *p = &props->externalMemoryProperties;
    const bool importable = p->externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
    p->externalMemoryFeatures = importable ? VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT : 0;
    p->exportFromImportedHandleTypes = importable ? VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT : 0;
    p->compatibleHandleTypes = importable ? VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT : 0;
}

/* Structures that may come before the external-memory one in a buffer's or image's chain. */
static size_t resource_struct_size(VkStructureType type)
{
    switch (type) {
    case VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO:
        return sizeof(VkImageFormatListCreateInfo);
    case VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO:
        return sizeof(VkImageStencilUsageCreateInfo);
    case VK_STRUCTURE_TYPE_IMAGE_SWAPCHAIN_CREATE_INFO_KHR:
        return sizeof(VkImageSwapchainCreateInfoKHR);
    case VK_STRUCTURE_TYPE_BUFFER_OPAQUE_CAPTURE_ADDRESS_CREATE_INFO:
        return sizeof(VkBufferOpaqueCaptureAddressCreateInfo);
    case VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT:
        return sizeof(VkBufferDeviceAddressCreateInfoEXT);
    default:
        return 0;
    }
}

/* A copy of a buffer's or image's chain whose external-memory structure (`type`: both have the
 * same layout) names HOST_ALLOCATION in place of OPAQUE_FD and DMA_BUF: the memory the driver
 * will see bound is host memory (allocate_host). NULL when nothing is to change, or a structure
 * before it is one the layer does not know (the chain then goes down as it is). */
static const void *host_chain(const void *chain, VkStructureType type, struct layer_arena *arena)
{
    const VkExternalMemoryBufferCreateInfo *ext = layer_find(chain, type);
    const VkExternalMemoryHandleTypeFlags fds =
        VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT | VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
    if (!ext || !(ext->handleTypes & fds))
        return NULL;
    VkBaseOutStructure *first = NULL, *last = NULL;
    for (const VkBaseInStructure *s = chain;; s = s->pNext) {
        size_t n = s == (const void *)ext ? sizeof(*ext) : resource_struct_size(s->sType);
        VkBaseOutStructure *copy = n ? layer_alloc(arena, n) : NULL;
        if (!copy) {
            layer_info("a buffer or image chain with structure type %d before its external memory structure: "
                       "passed down as it is", (int)s->sType);
            return NULL;
        }
        memcpy(copy, s, n);
        if (last)
            last->pNext = copy;
        else
            first = copy;
        last = copy;
        if (s == (const void *)ext) {
            VkExternalMemoryBufferCreateInfo *e = (VkExternalMemoryBufferCreateInfo *)copy;
            e->handleTypes = (e->handleTypes & ~fds) | VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
            break;
        }
    }
    last->pNext = (VkBaseOutStructure *)((const VkBaseInStructure *)ext)->pNext;
    return first;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateBuffer(VkDevice device, const VkBufferCreateInfo *info,
                                                  const VkAllocationCallbacks *alloc, VkBuffer *out)
{
    struct ldevice *dev = layer_device(device);
    if (!dev)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateBuffer: the device is unknown to the layer");
    struct layer_arena arena = {0};
    VkBufferCreateInfo down = *info;
    const void *chain = host_chain(info->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, &arena);
    if (chain)
        down.pNext = chain;
    VkResult r = dev->CreateBuffer(device, &down, alloc, out);
    layer_arena_free(&arena);
    return r;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateImage(VkDevice device, const VkImageCreateInfo *info,
                                                 const VkAllocationCallbacks *alloc, VkImage *out)
{
    struct ldevice *dev = layer_device(device);
    if (!dev)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateImage: the device is unknown to the layer");
    struct layer_arena arena = {0};
    VkImageCreateInfo down = *info;
    const void *chain = host_chain(info->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO, &arena);
    if (chain)
        down.pNext = chain;
    VkResult r = dev->CreateImage(device, &down, alloc, out);
    layer_arena_free(&arena);
    return r;
}

void layer_memories_free(struct ldevice *dev)
{
    /* What the application never freed goes with the device (vkDestroyDevice frees the
     * driver's side of it). */
    for (size_t i = 0; i < dev->memories.capacity; ++i)
        if (dev->memories.keys[i])
            release(dev->memories.values[i]);
    lmap_free(&dev->memories);
}
