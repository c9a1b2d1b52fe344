/*
 * Instances and physical devices: the extension the layer adds shows in the device extension
 * list and in vkGetPhysicalDeviceExternalSemaphoreProperties; the rest goes to the next layer.
 */
#include "layer.h"

#include <stdlib.h>
#include <string.h>

static os_mutex instances_lock = OS_MUTEX_INITIALIZER;
static struct lmap instances; /* dispatch key -> struct linstance */
#ifdef LAYER_AS_DRIVER
static struct lmap physicals; /* driver mode: physical device -> struct linstance */
#endif

/* The device extensions the layer implements, for drivers that lack them. */
static const VkExtensionProperties added[] = {
    {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_FD_SPEC_VERSION},
    {VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_SPEC_VERSION},
};

struct linstance *layer_instance(const void *dispatchable)
{
    os_mutex_lock(&instances_lock);
    struct linstance *inst = lmap_get(&instances, layer_key(dispatchable));
#ifdef LAYER_AS_DRIVER
    if (!inst)
        inst = lmap_get(&physicals, layer_key(dispatchable));
#endif
    os_mutex_unlock(&instances_lock);
    return inst;
}

#ifdef LAYER_AS_DRIVER
void layer_instance_adopt(struct linstance *inst, const VkPhysicalDevice *list, uint32_t count)
{
    os_mutex_lock(&instances_lock);
    for (uint32_t i = 0; i < count; ++i)
        if (list[i] && lmap_put(&physicals, layer_key(list[i]), inst) != 0)
            layer_error(VK_SUCCESS, "vkEnumeratePhysicalDevices: out of memory recording physical device %p: the "
                                    "layer's extensions are not offered on it", (void *)list[i]);
    os_mutex_unlock(&instances_lock);
}

VKAPI_ATTR VkResult VKAPI_CALL layer_EnumeratePhysicalDevices(VkInstance instance, uint32_t *count,
                                                              VkPhysicalDevice *list)
{
    struct linstance *inst = layer_instance(instance);
    if (!inst)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkEnumeratePhysicalDevices: unknown instance %p",
                           (void *)instance);
    VkResult r = inst->EnumeratePhysicalDevices(instance, count, list);
    if ((r == VK_SUCCESS || r == VK_INCOMPLETE) && list)
        layer_instance_adopt(inst, list, *count);
    return r;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t *count,
                                                                   VkPhysicalDeviceGroupProperties *groups)
{
    struct linstance *inst = layer_instance(instance);
    if (!inst || !inst->EnumeratePhysicalDeviceGroups)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkEnumeratePhysicalDeviceGroups: %s",
                           inst ? "the driver has none" : "unknown instance");
    VkResult r = inst->EnumeratePhysicalDeviceGroups(instance, count, groups);
    if ((r == VK_SUCCESS || r == VK_INCOMPLETE) && groups)
        for (uint32_t i = 0; i < *count; ++i)
            layer_instance_adopt(inst, groups[i].physicalDevices, groups[i].physicalDeviceCount);
    return r;
}
#endif

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *alloc,
                                                    VkInstance *out)
{
#ifdef LAYER_AS_DRIVER
    /* As the driver: the real driver is next, and the loader gave no link. */
    PFN_vkGetInstanceProcAddr gipa = layer_driver.gipa;
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (!create)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateInstance: the driver has no vkCreateInstance");
#else
    /* The loader's link for this layer (LoaderLayerInterface.md, "Layer Dispatch
     * Initialization"): take the next layer's vkGetInstanceProcAddr and move the link on
     * for it. */
    VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)info->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerInstanceCreateInfo *)link->pNext;
    if (!link)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED,
                           "vkCreateInstance: no loader link in the create info: the layer must be loaded by the "
                           "Vulkan loader");
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (!create)
        return layer_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateInstance: the next layer has no vkCreateInstance");
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
#endif

    struct linstance *inst = calloc(1, sizeof(*inst));
    if (!inst)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    VkResult r = create(info, alloc, out);
    if (r != VK_SUCCESS)
        goto fail;
    inst->handle = *out;
    inst->gipa = gipa;
#define GET(name) (PFN_vk##name) gipa(*out, "vk" #name)
    inst->DestroyInstance = GET(DestroyInstance);
    inst->EnumerateDeviceExtensionProperties = GET(EnumerateDeviceExtensionProperties);
    inst->GetPhysicalDeviceExternalSemaphoreProperties = GET(GetPhysicalDeviceExternalSemaphoreProperties);
    if (!inst->GetPhysicalDeviceExternalSemaphoreProperties)
        inst->GetPhysicalDeviceExternalSemaphoreProperties =
            (PFN_vkGetPhysicalDeviceExternalSemaphoreProperties)GET(GetPhysicalDeviceExternalSemaphorePropertiesKHR);
    inst->GetPhysicalDeviceProperties = GET(GetPhysicalDeviceProperties);
    /* Core in 1.1, else the KHR name (the application enabled VK_KHR_external_memory_capabilities
     * if it asks for these properties at all). */
    if (info->pApplicationInfo && info->pApplicationInfo->apiVersion >= VK_API_VERSION_1_1)
        inst->GetPhysicalDeviceExternalBufferProperties = GET(GetPhysicalDeviceExternalBufferProperties);
    else
        inst->GetPhysicalDeviceExternalBufferProperties =
            (PFN_vkGetPhysicalDeviceExternalBufferProperties)GET(GetPhysicalDeviceExternalBufferPropertiesKHR);
#ifdef LAYER_AS_DRIVER
    inst->EnumeratePhysicalDevices = GET(EnumeratePhysicalDevices);
    inst->EnumeratePhysicalDeviceGroups = GET(EnumeratePhysicalDeviceGroups);
    if (!inst->EnumeratePhysicalDeviceGroups)
        inst->EnumeratePhysicalDeviceGroups = (PFN_vkEnumeratePhysicalDeviceGroups)GET(EnumeratePhysicalDeviceGroupsKHR);
#endif
#undef GET
    inst->api_version = info->pApplicationInfo && info->pApplicationInfo->apiVersion
                            ? info->pApplicationInfo->apiVersion
                            : VK_API_VERSION_1_0;
    os_mutex_lock(&instances_lock);
    int err = lmap_put(&instances, layer_key(*out), inst);
    os_mutex_unlock(&instances_lock);
    if (err) {
        inst->DestroyInstance(*out, alloc);
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    return VK_SUCCESS;
fail:
    free(inst);
    return r;
}

VKAPI_ATTR void VKAPI_CALL layer_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
    if (!instance)
        return;
    os_mutex_lock(&instances_lock);
    struct linstance *inst = lmap_remove(&instances, layer_key(instance));
    if (instances.count == 0)
        lmap_free(&instances);
#ifdef LAYER_AS_DRIVER
    if (inst)
        lmap_remove_value(&physicals, inst);
    if (physicals.count == 0)
        lmap_free(&physicals);
#endif
    os_mutex_unlock(&instances_lock);
    if (!inst)
        return;
    inst->DestroyInstance(instance, alloc);
    free(inst);
}

/* The driver's (and lower layers') device extensions; NULL when they cannot be listed. */
static VkExtensionProperties *driver_extensions(struct linstance *inst, VkPhysicalDevice physical, uint32_t *count)
{
    *count = 0;
    if (inst->EnumerateDeviceExtensionProperties(physical, NULL, count, NULL) != VK_SUCCESS)
        return NULL;
    VkExtensionProperties *props = calloc(*count + 1, sizeof(*props));
    if (props && inst->EnumerateDeviceExtensionProperties(physical, NULL, count, props) != VK_SUCCESS) {
        free(props);
        return NULL;
    }
    return props;
}

static bool has(const VkExtensionProperties *props, uint32_t count, const char *name)
{
    for (uint32_t i = 0; i < count; ++i)
        if (strcmp(props[i].extensionName, name) == 0)
            return true;
    return false;
}

bool layer_adds_extension(struct linstance *inst, VkPhysicalDevice physical, bool *timeline_ext, uint32_t *version)
{
    uint32_t count;
    VkExtensionProperties *props = driver_extensions(inst, physical, &count);
    *version = VK_API_VERSION_1_0;
    if (!props)
        return false;
    bool lacks = !has(props, count, added[0].extensionName);
    *timeline_ext = has(props, count, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
    free(props);
    if (!inst->GetPhysicalDeviceProperties)
        return false;
    VkPhysicalDeviceProperties dp;
    inst->GetPhysicalDeviceProperties(physical, &dp);
    /* The effective version: the lower of the application's and the device's (Vulkan spec,
     * "Version Numbers"; what the validation layers check every call against). */
    *version = inst->api_version < dp.apiVersion ? inst->api_version : dp.apiVersion;
    /* Vulkan 1.2 requires timelineSemaphore, and so does VK_KHR_timeline_semaphore where a
     * device names it (the spec's "Feature Requirements"). */
    return lacks && (dp.apiVersion >= VK_API_VERSION_1_2 || *timeline_ext);
}

bool layer_driver_imports_host(struct linstance *inst, VkPhysicalDevice physical, bool *dmabuf)
{
    uint32_t count;
    VkExtensionProperties *props = driver_extensions(inst, physical, &count);
    if (!props)
        return false;
    bool host = has(props, count, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) &&
                has(props, count, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
    *dmabuf = has(props, count, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME);
    free(props);
    return host;
}

bool layer_adds_dmabuf(struct linstance *inst, VkPhysicalDevice physical)
{
    bool dmabuf;
    return layer_driver_imports_host(inst, physical, &dmabuf) && !dmabuf;
}

/* The usual two-call protocol: copy what fits, VK_INCOMPLETE when not everything did. */
static VkResult answer(const VkExtensionProperties *list, uint32_t n, uint32_t *count, VkExtensionProperties *props)
{
    if (!props) {
        *count = n;
        return VK_SUCCESS;
    }
    uint32_t copied = *count < n ? *count : n;
    memcpy(props, list, copied * sizeof(*props));
    *count = copied;
    return copied < n ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_EnumerateDeviceExtensionProperties(VkPhysicalDevice physical, const char *layer,
                                                                        uint32_t *count, VkExtensionProperties *props)
{
    if (layer && strcmp(layer, LAYER_NAME) == 0)
        return answer(added, sizeof(added) / sizeof(added[0]), count, props);
    struct linstance *inst = layer_instance(physical);
    if (!inst)
        return VK_ERROR_INITIALIZATION_FAILED;
    bool timeline_ext;
    uint32_t version;
    const bool semaphores = !layer && layer_adds_extension(inst, physical, &timeline_ext, &version);
    const bool dmabuf = !layer && layer_adds_dmabuf(inst, physical);
    if (!semaphores && !dmabuf)
        return inst->EnumerateDeviceExtensionProperties(physical, layer, count, props);
    uint32_t n;
    VkExtensionProperties *all = driver_extensions(inst, physical, &n);
    if (!all)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    VkExtensionProperties *grown = realloc(all, (n + 2) * sizeof(*all));
    if (!grown) {
        free(all);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    all = grown;
    if (semaphores)
        all[n++] = added[0];
    if (dmabuf)
        all[n++] = added[1];
    VkResult r = answer(all, n, count, props);
    free(all);
    return r;
}

VKAPI_ATTR void VKAPI_CALL layer_GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice physical, const VkPhysicalDeviceExternalSemaphoreInfo *info, VkExternalSemaphoreProperties *props)
{
    struct linstance *inst = layer_instance(physical);
    bool timeline_ext;
    uint32_t version;
    if (inst && info->handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT &&
        layer_adds_extension(inst, physical, &timeline_ext, &version)) {
        /* Binary and timeline alike (VkSemaphoreTypeCreateInfo in info->pNext): a payload
         * serves both, and an imported payload can be exported again. */
        props->exportFromImportedHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
        props->compatibleHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
        props->externalSemaphoreFeatures =
            VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
        return;
    }
    if (inst && inst->GetPhysicalDeviceExternalSemaphoreProperties) {
        inst->GetPhysicalDeviceExternalSemaphoreProperties(physical, info, props);
        return;
    }
    props->exportFromImportedHandleTypes = 0;
    props->compatibleHandleTypes = 0;
    props->externalSemaphoreFeatures = 0;
}
