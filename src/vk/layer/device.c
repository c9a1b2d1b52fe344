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

/* The create info the driver sees: the extension the layer implements taken off the list,
 * VK_KHR_timeline_semaphore put on it where the application's Vulkan version lacks timeline
 * semaphores in core, and the timelineSemaphore feature asked for unless the application's
 * chain already says something about it (VUID-VkDeviceCreateInfo-pNext-02830 forbids a second
 * statement; lavapipe creates timeline semaphores either way). */
static VkResult driver_create_info(const VkDeviceCreateInfo *info, bool timeline_ext, struct ldevice *dev,
                                   struct layer_arena *arena, VkDeviceCreateInfo *out)
{
    *out = *info;
    const char **names = layer_alloc(arena, (info->enabledExtensionCount + 1) * sizeof(char *));
    if (!names)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t n = 0;
    bool timeline_named = false;
    for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
        const char *name = info->ppEnabledExtensionNames[i];
        if (strcmp(name, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) == 0) {
            dev->fd_enabled = true;
            continue;
        }
        if (strcmp(name, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME) == 0)
            timeline_named = dev->timeline_khr = true;
        if (strcmp(name, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME) == 0)
            dev->sync2_khr = true;
        names[n++] = name;
    }
    if (timeline_ext && !timeline_named)
        names[n++] = VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME;
    out->enabledExtensionCount = n;
    out->ppEnabledExtensionNames = names;

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

static void load_commands(struct ldevice *dev)
{
    VkDevice d = dev->handle;
#define GET(name) (PFN_vk##name) dev->gdpa(d, "vk" #name)
#define GET2(name) (GET(name) ? GET(name) : (PFN_vk##name)GET(name##KHR))
    dev->DestroyDevice = GET(DestroyDevice);
    dev->CreateSemaphore = GET(CreateSemaphore);
    dev->DestroySemaphore = GET(DestroySemaphore);
    dev->QueueSubmit = GET(QueueSubmit);
    dev->QueueSubmit2 = GET2(QueueSubmit2);
    dev->QueuePresentKHR = GET(QueuePresentKHR);
    dev->SignalSemaphore = GET2(SignalSemaphore);
    dev->WaitSemaphores = GET2(WaitSemaphores);
    dev->GetSemaphoreCounterValue = GET2(GetSemaphoreCounterValue);
#undef GET2
#undef GET
}

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                                                  const VkAllocationCallbacks *alloc, VkDevice *out)
{
    VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)info->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerDeviceCreateInfo *)link->pNext;
    struct linstance *inst = layer_instance(physical);
    if (!link || !inst)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice: %s",
                           !link ? "no loader link in the create info" : "the physical device's instance is unknown");
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(inst->handle, "vkCreateDevice");
    if (!create)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice: the next layer has no vkCreateDevice");
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;

    struct layer_arena arena = {0};
    struct ldevice *dev = calloc(1, sizeof(*dev));
    if (!dev)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    dev->inst = inst;
    dev->gdpa = gdpa;
    bool timeline_ext = false;
    dev->active = layer_adds_extension(inst, physical, &timeline_ext);
    VkDeviceCreateInfo down = *info;
    VkResult r = VK_SUCCESS;
    if (dev->active && (r = driver_create_info(info, timeline_ext, dev, &arena, &down)) != VK_SUCCESS)
        goto fail;
    if ((r = create(physical, &down, alloc, out)) != VK_SUCCESS)
        goto fail;
    dev->handle = *out;
    load_commands(dev);
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
    os_cond_destroy(&dev->work);
    os_mutex_destroy(&dev->lock);
    free(dev);
}

PFN_vkVoidFunction layer_device_command(struct ldevice *dev, const char *name)
{
    if (strcmp(name, "vkDestroyDevice") == 0)
        return (PFN_vkVoidFunction)layer_DestroyDevice;
    if (!dev->active || strncmp(name, "vk", 2) != 0)
        return NULL;
    /* A KHR name answers only where the application enabled its extension (the next layer
     * says so); the layer then serves it with the core command. */
    static const struct {
        const char *name;
        PFN_vkVoidFunction fn;
        int needs; /* 0: always; 1: the fd extension; 2: the next layer knows the name */
    } commands[] = {
        {"vkCreateSemaphore", (PFN_vkVoidFunction)layer_CreateSemaphore, 0},
        {"vkDestroySemaphore", (PFN_vkVoidFunction)layer_DestroySemaphore, 0},
        {"vkGetSemaphoreFdKHR", (PFN_vkVoidFunction)layer_GetSemaphoreFdKHR, 1},
        {"vkImportSemaphoreFdKHR", (PFN_vkVoidFunction)layer_ImportSemaphoreFdKHR, 1},
        {"vkQueueSubmit", (PFN_vkVoidFunction)layer_QueueSubmit, 0},
        {"vkQueueSubmit2", (PFN_vkVoidFunction)layer_QueueSubmit2, 2},
        {"vkQueueSubmit2KHR", (PFN_vkVoidFunction)layer_QueueSubmit2, 2},
        {"vkQueuePresentKHR", (PFN_vkVoidFunction)layer_QueuePresentKHR, 2},
        {"vkSignalSemaphore", (PFN_vkVoidFunction)layer_SignalSemaphore, 2},
        {"vkSignalSemaphoreKHR", (PFN_vkVoidFunction)layer_SignalSemaphore, 2},
        {"vkWaitSemaphores", (PFN_vkVoidFunction)layer_WaitSemaphores, 2},
        {"vkWaitSemaphoresKHR", (PFN_vkVoidFunction)layer_WaitSemaphores, 2},
        {"vkGetSemaphoreCounterValue", (PFN_vkVoidFunction)layer_GetSemaphoreCounterValue, 2},
        {"vkGetSemaphoreCounterValueKHR", (PFN_vkVoidFunction)layer_GetSemaphoreCounterValue, 2},
    };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); ++i) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        if (commands[i].needs == 1 && !dev->fd_enabled)
            return NULL;
        if (commands[i].needs == 2 && !dev->gdpa(dev->handle, name))
            return NULL;
        return commands[i].fn;
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
