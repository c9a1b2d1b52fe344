/*
 * Devices: vkCreateDevice takes VK_KHR_external_semaphore_fd off the list the driver sees and
 * makes sure the driver's timeline semaphores (the gates) are usable; vkDestroyDevice ends
 * the host jobs before the driver's device goes.
 */
#include "layer.h"

#include <stdlib.h>
#include <string.h>

static os_mutex devices_lock = OS_MUTEX_INITIALIZER;
static struct lmap devices; /* dispatch key -> struct ldevice */

struct ldevice *layer_device(const void *dispatchable)
{
    os_mutex_lock(&devices_lock);
    struct ldevice *dev = lmap_get(&devices, layer_key(dispatchable));
    os_mutex_unlock(&devices_lock);
    return dev;
}

/* Whether the application enabled extension `name`: the layer takes part in a device only for
 * the extensions it enabled (with nothing to export or import the layer has nothing to do, and
 * the driver sees the application's create info unchanged). */
static bool asks_for(const VkDeviceCreateInfo *info, const char *name)
{
    for (uint32_t i = 0; i < info->enabledExtensionCount; ++i)
        if (strcmp(info->ppEnabledExtensionNames[i], name) == 0)
            return true;
    return false;
}

/* The create info the driver sees: the extension the layer implements taken off the list,
 * VK_KHR_timeline_semaphore put on it where the device's effective Vulkan version lacks
 * timeline semaphores in core (below 1.2: the extension needs VK_KHR_get_physical_device_
 * properties2 or 1.1, which the external semaphore extensions the application enabled need
 * too), and the timelineSemaphore feature asked for unless the application's chain already
 * says something about it (VUID-VkDeviceCreateInfo-pNext-02830 forbids a second statement). */
static VkResult driver_create_info(const VkDeviceCreateInfo *info, bool timeline_ext, struct ldevice *dev,
                                   struct layer_arena *arena, VkDeviceCreateInfo *out)
{
    *out = *info;
    const char **names = layer_alloc(arena, (info->enabledExtensionCount + 2) * sizeof(char *));
    if (!names)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t n = 0;
    bool timeline_named = false, host_named = false;
    for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
        const char *name = info->ppEnabledExtensionNames[i];
        if (dev->active && strcmp(name, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) == 0) {
            dev->fd_enabled = true;
            continue;
        }
        if (dev->dmabuf_added && strcmp(name, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME) == 0)
            continue; /* the layer's, not the driver's */
        if (strcmp(name, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME) == 0)
            timeline_named = dev->timeline_khr = true;
        if (strcmp(name, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME) == 0)
            dev->sync2_khr = true;
        if (strcmp(name, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) == 0)
            host_named = true;
        names[n++] = name;
    }
    if (dev->active && dev->version < VK_API_VERSION_1_2 && timeline_ext && !timeline_named)
        names[n++] = VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME;
    /* Imported memory reaches the driver as host memory (memory.c); the extension needs
     * VK_KHR_external_memory, which VK_KHR_external_memory_fd needs too. */
    if (dev->memory_active && !host_named)
        names[n++] = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
    out->enabledExtensionCount = n;
    out->ppEnabledExtensionNames = names;
    if (!dev->active)
        return VK_SUCCESS;

    if (!layer_find(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES) &&
        !layer_find(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
        VkPhysicalDeviceTimelineSemaphoreFeatures *timeline = layer_alloc(arena, sizeof(*timeline));
        if (!timeline)
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        timeline->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES;
        timeline->pNext = (void *)info->pNext;
        timeline->timelineSemaphore = VK_TRUE;
        out->pNext = timeline;
    }
    return VK_SUCCESS;
}

/* The driver's commands the layer calls, by the names the device's effective version gives
 * them: the core name where the version has it, else the extension's (enabled by the
 * application or, for timeline semaphores, by the layer). */
/* The driver's minImportedHostPointerAlignment, where it has VK_EXT_external_memory_host and
 * VK_KHR_external_memory_fd (the properties query by the name the application's version gives
 * it: an application of 1.0 that enabled the external memory extensions enabled
 * VK_KHR_get_physical_device_properties2 with them). False where memory is not the layer's. */
static bool host_alignment(struct linstance *inst, VkPhysicalDevice physical, VkDeviceSize *out)
{
    bool dmabuf;
    if (!layer_driver_imports_host(inst, physical, &dmabuf))
        return false;
    PFN_vkGetPhysicalDeviceProperties2 get =
        (PFN_vkGetPhysicalDeviceProperties2)inst->gipa(inst->handle, inst->api_version >= VK_API_VERSION_1_1
                                                                          ? "vkGetPhysicalDeviceProperties2"
                                                                          : "vkGetPhysicalDeviceProperties2KHR");
    if (!get)
        return false;
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &hp};
    get(physical, &p2);
    *out = hp.minImportedHostPointerAlignment ? hp.minImportedHostPointerAlignment : 4096;
    return true;
}

static void load_commands(struct ldevice *dev)
{
    VkDevice d = dev->handle;
#define GET(name) (PFN_vk##name) dev->gdpa(d, "vk" #name)
#define BY_VERSION(name, v, ext) (dev->version >= (v) ? GET(name) : (ext) ? (PFN_vk##name)GET(name##KHR) : NULL)
    dev->DestroyDevice = GET(DestroyDevice);
#ifdef LAYER_AS_DRIVER
    dev->GetDeviceQueue = GET(GetDeviceQueue);
    dev->GetDeviceQueue2 = dev->version >= VK_API_VERSION_1_1 ? GET(GetDeviceQueue2) : NULL;
#endif
    dev->CreateSemaphore = GET(CreateSemaphore);
    dev->DestroySemaphore = GET(DestroySemaphore);
    dev->QueueSubmit = GET(QueueSubmit);
    dev->QueueSubmit2 = BY_VERSION(QueueSubmit2, VK_API_VERSION_1_3, dev->sync2_khr);
    dev->QueuePresentKHR = GET(QueuePresentKHR);
    dev->SignalSemaphore = BY_VERSION(SignalSemaphore, VK_API_VERSION_1_2, dev->active);
    dev->WaitSemaphores = BY_VERSION(WaitSemaphores, VK_API_VERSION_1_2, dev->active);
    dev->GetSemaphoreCounterValue = BY_VERSION(GetSemaphoreCounterValue, VK_API_VERSION_1_2, dev->active);
    dev->AllocateMemory = GET(AllocateMemory);
    dev->CreateBuffer = GET(CreateBuffer);
    dev->CreateImage = GET(CreateImage);
    dev->FreeMemory = GET(FreeMemory);
    dev->GetMemoryFdKHR = GET(GetMemoryFdKHR);
    dev->GetMemoryFdPropertiesKHR = GET(GetMemoryFdPropertiesKHR);
    dev->GetMemoryHostPointerPropertiesEXT = dev->memory_active ? GET(GetMemoryHostPointerPropertiesEXT) : NULL;
#undef BY_VERSION
#undef GET
}

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                                                  const VkAllocationCallbacks *alloc, VkDevice *out)
{
    struct linstance *inst = layer_instance(physical);
#ifdef LAYER_AS_DRIVER
    /* As the driver: the real driver is next (no link from the loader). */
    if (!inst)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED,
                           "vkCreateDevice: physical device %p was not handed out by vkEnumeratePhysicalDevices",
                           (void *)physical);
    PFN_vkGetInstanceProcAddr gipa = inst->gipa;
    PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)gipa(inst->handle, "vkGetDeviceProcAddr");
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(inst->handle, "vkCreateDevice");
    if (!create || !gdpa)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice: the driver has no vkCreateDevice");
#else
    VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)info->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerDeviceCreateInfo *)link->pNext;
    if (!link || !inst)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice: %s",
                           !link ? "no loader link in the create info" : "the physical device's instance is unknown");
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(inst->handle, "vkCreateDevice");
    if (!create)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice: the next layer has no vkCreateDevice");
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
#endif

    struct layer_arena arena = {0};
    struct ldevice *dev = calloc(1, sizeof(*dev));
    if (!dev)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    dev->inst = inst;
    dev->gdpa = gdpa;
    bool timeline_ext = false;
    dev->active = layer_adds_extension(inst, physical, &timeline_ext, &dev->version) &&
                  asks_for(info, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) &&
                  (dev->version >= VK_API_VERSION_1_2 || timeline_ext);
    dev->dmabuf_added = layer_adds_dmabuf(inst, physical);
    dev->memory_active = (asks_for(info, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME) ||
                          asks_for(info, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME)) &&
                         host_alignment(inst, physical, &dev->host_alignment);
    VkDeviceCreateInfo down = *info;
    VkResult r = VK_SUCCESS;
    if ((dev->active || dev->memory_active) &&
        (r = driver_create_info(info, timeline_ext, dev, &arena, &down)) != VK_SUCCESS)
        goto fail;
    if ((r = create(physical, &down, alloc, out)) != VK_SUCCESS)
        goto fail;
    dev->handle = *out;
    load_commands(dev);
    if (dev->memory_active && !dev->GetMemoryHostPointerPropertiesEXT) {
        layer_error(VK_SUCCESS, "vkCreateDevice: the driver's device has no vkGetMemoryHostPointerPropertiesEXT: "
                                "memory from other exporters is not imported by the layer");
        dev->memory_active = false;
    }
    if (dev->active && (!dev->SignalSemaphore || !dev->WaitSemaphores || !dev->GetSemaphoreCounterValue)) {
        layer_error(VK_SUCCESS, "vkCreateDevice: the driver's device has no vkSignalSemaphore: the layer stays out "
                                "of its way and VK_KHR_external_semaphore_fd is not there");
        dev->active = false;
    }
    os_mutex_init(&dev->lock);
    os_cond_init(&dev->work);
    os_mutex_lock(&devices_lock);
    int err = lmap_put(&devices, layer_key(*out), dev);
    os_mutex_unlock(&devices_lock);
    if (err) {
        dev->DestroyDevice(*out, alloc);
        os_cond_destroy(&dev->work);
        os_mutex_destroy(&dev->lock);
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    layer_info("vkCreateDevice: device %p: %s", (void *)*out,
               dev->active ? "VK_KHR_external_semaphore_fd added by the layer" : "passed through");
    layer_arena_free(&arena);
    return VK_SUCCESS;
fail:
    layer_arena_free(&arena);
    free(dev);
    return r;
}

VKAPI_ATTR void VKAPI_CALL layer_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
    if (!device)
        return;
    os_mutex_lock(&devices_lock);
    struct ldevice *dev = lmap_remove(&devices, layer_key(device));
#ifdef LAYER_AS_DRIVER
    if (dev)
        lmap_remove_value(&devices, dev); /* its queues */
#endif
    if (devices.count == 0)
        lmap_free(&devices);
    os_mutex_unlock(&devices_lock);
    if (!dev)
        return;
    layer_jobs_close(dev);
    for (struct lgate *g = dev->free_gates, *next; g; g = next) {
        next = g->next;
        dev->DestroySemaphore(device, g->semaphore, NULL);
        free(g);
    }
    layer_semaphores_free(dev);
    dev->DestroyDevice(device, alloc);
    layer_memories_free(dev); /* the driver has let go of the pages */
    os_cond_destroy(&dev->work);
    os_mutex_destroy(&dev->lock);
    free(dev);
}

#ifdef LAYER_AS_DRIVER
void layer_device_adopt_queue(struct ldevice *dev, VkQueue queue)
{
    if (!queue)
        return;
    os_mutex_lock(&devices_lock);
    if (lmap_put(&devices, layer_key(queue), dev) != 0)
        layer_error(VK_SUCCESS, "vkGetDeviceQueue: out of memory recording queue %p: submissions to it pass the layer "
                                "by", (void *)queue);
    os_mutex_unlock(&devices_lock);
}

VKAPI_ATTR void VKAPI_CALL layer_GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue *queue)
{
    struct ldevice *dev = layer_device(device);
    if (!dev)
        return;
    dev->GetDeviceQueue(device, family, index, queue);
    layer_device_adopt_queue(dev, *queue);
}

VKAPI_ATTR void VKAPI_CALL layer_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *info, VkQueue *queue)
{
    struct ldevice *dev = layer_device(device);
    if (!dev || !dev->GetDeviceQueue2)
        return;
    dev->GetDeviceQueue2(device, info, queue);
    layer_device_adopt_queue(dev, *queue);
}
#endif

PFN_vkVoidFunction layer_device_command(struct ldevice *dev, const char *name)
{
    if (strcmp(name, "vkDestroyDevice") == 0)
        return (PFN_vkVoidFunction)layer_DestroyDevice;
#ifdef LAYER_AS_DRIVER
    /* Queues are recorded as they are handed out, whatever the layer does with the device. */
    if (strcmp(name, "vkGetDeviceQueue") == 0)
        return (PFN_vkVoidFunction)layer_GetDeviceQueue;
    if (strcmp(name, "vkGetDeviceQueue2") == 0)
        return dev->GetDeviceQueue2 ? (PFN_vkVoidFunction)layer_GetDeviceQueue2 : NULL;
#endif
    if (strncmp(name, "vk", 2) != 0)
        return NULL;
    if (dev->memory_active) {
        static const struct {
            const char *name;
            PFN_vkVoidFunction fn;
        } memory[] = {
            {"vkAllocateMemory", (PFN_vkVoidFunction)layer_AllocateMemory},
            {"vkFreeMemory", (PFN_vkVoidFunction)layer_FreeMemory},
            {"vkGetMemoryFdKHR", (PFN_vkVoidFunction)layer_GetMemoryFdKHR},
            {"vkGetMemoryFdPropertiesKHR", (PFN_vkVoidFunction)layer_GetMemoryFdPropertiesKHR},
            {"vkCreateBuffer", (PFN_vkVoidFunction)layer_CreateBuffer},
            {"vkCreateImage", (PFN_vkVoidFunction)layer_CreateImage},
        };
        for (size_t i = 0; i < sizeof(memory) / sizeof(memory[0]); ++i)
            if (strcmp(name, memory[i].name) == 0)
                return dev->gdpa(dev->handle, name) || (i == 3 && dev->dmabuf_added) ? memory[i].fn : NULL;
    }
    if (!dev->active)
        return NULL;
    /* A name answers as the device's effective version and the application's extensions give
     * it: a core name from its version, a KHR name where the application enabled its
     * extension (not where the layer did for itself). */
    enum { ALWAYS, FD, CORE_1_2, CORE_1_3, TIMELINE_KHR, SYNC2_KHR, NEXT_HAS };
    static const struct {
        const char *name;
        PFN_vkVoidFunction fn;
        int needs;
    } commands[] = {
        {"vkCreateSemaphore", (PFN_vkVoidFunction)layer_CreateSemaphore, ALWAYS},
        {"vkDestroySemaphore", (PFN_vkVoidFunction)layer_DestroySemaphore, ALWAYS},
        {"vkGetSemaphoreFdKHR", (PFN_vkVoidFunction)layer_GetSemaphoreFdKHR, FD},
        {"vkImportSemaphoreFdKHR", (PFN_vkVoidFunction)layer_ImportSemaphoreFdKHR, FD},
        {"vkQueueSubmit", (PFN_vkVoidFunction)layer_QueueSubmit, ALWAYS},
        {"vkQueueSubmit2", (PFN_vkVoidFunction)layer_QueueSubmit2, CORE_1_3},
        {"vkQueueSubmit2KHR", (PFN_vkVoidFunction)layer_QueueSubmit2, SYNC2_KHR},
        {"vkQueuePresentKHR", (PFN_vkVoidFunction)layer_QueuePresentKHR, NEXT_HAS},
        {"vkSignalSemaphore", (PFN_vkVoidFunction)layer_SignalSemaphore, CORE_1_2},
        {"vkSignalSemaphoreKHR", (PFN_vkVoidFunction)layer_SignalSemaphore, TIMELINE_KHR},
        {"vkWaitSemaphores", (PFN_vkVoidFunction)layer_WaitSemaphores, CORE_1_2},
        {"vkWaitSemaphoresKHR", (PFN_vkVoidFunction)layer_WaitSemaphores, TIMELINE_KHR},
        {"vkGetSemaphoreCounterValue", (PFN_vkVoidFunction)layer_GetSemaphoreCounterValue, CORE_1_2},
        {"vkGetSemaphoreCounterValueKHR", (PFN_vkVoidFunction)layer_GetSemaphoreCounterValue, TIMELINE_KHR},
    };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); ++i) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        bool answers = true;
        switch (commands[i].needs) {
        case FD: answers = dev->fd_enabled; break;
        case CORE_1_2: answers = dev->version >= VK_API_VERSION_1_2; break;
        case CORE_1_3: answers = dev->version >= VK_API_VERSION_1_3; break;
        case TIMELINE_KHR: answers = dev->timeline_khr; break;
        case SYNC2_KHR: answers = dev->sync2_khr; break;
        case NEXT_HAS: answers = dev->gdpa(dev->handle, name) != NULL; break;
        default: break;
        }
        return answers ? commands[i].fn : NULL;
    }
    return NULL;
}

VkResult layer_gate_take(struct ldevice *dev, struct lgate **out)
{
    struct lgate *g = dev->free_gates;
    if (g) {
        dev->free_gates = g->next;
        *out = g;
        return VK_SUCCESS;
    }
    g = calloc(1, sizeof(*g));
    if (!g)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    const VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                            .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    const VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
    VkResult r = dev->CreateSemaphore(dev->handle, &info, NULL, &g->semaphore);
    if (r != VK_SUCCESS) {
        free(g);
        return layer_error(r, "the driver refused a timeline semaphore for the layer's own use (VkResult %d)", r);
    }
    *out = g;
    return VK_SUCCESS;
}

void layer_gate_give(struct ldevice *dev, struct lgate *gate)
{
    gate->next = dev->free_gates;
    dev->free_gates = gate;
}
