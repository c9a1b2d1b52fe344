/*
 * The layer's entry points: the loader negotiates interface version 2 and then reaches
 * everything through the two vkGet*ProcAddr it is given (Vulkan-Loader's
 * LoaderLayerInterface.md, "Layer Version Negotiation"). These three are the only symbols the
 * library exports (layer.map); the exported vkGet*ProcAddr exist for loaders that look them
 * up by name, and call the layer's own functions, so no other library's symbols of the same
 * name can take their place.
 */
#include "layer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAYER_EXPORT __attribute__((visibility("default")))

/* VK_NO_PROTOTYPES hides vulkan_core.h's declarations of these two. */
LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char *name);
LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *name);

static void vlog(const char *fmt, va_list ap)
{
    char text[768];
    vsnprintf(text, sizeof(text), fmt, ap);
    fprintf(stderr, "%s: %s\n", LAYER_NAME, text);
}

VkResult layer_error(VkResult r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
    return r;
}

void layer_info(const char *fmt, ...)
{
    const char *level = secure_getenv("EXTMEM_LOG"); /* unset in set-uid programs */
    if (!level || (strcmp(level, "info") != 0 && strcmp(level, "trace") != 0))
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

VkResult layer_os_result(int err)
{
    return err == EMFILE || err == ENFILE ? VK_ERROR_TOO_MANY_OBJECTS : VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetDeviceProcAddr(VkDevice device, const char *name);

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetInstanceProcAddr(VkInstance instance, const char *name)
{
    static const struct {
        const char *name;
        PFN_vkVoidFunction fn;
    } commands[] = {
        {"vkGetInstanceProcAddr", (PFN_vkVoidFunction)layer_GetInstanceProcAddr},
        {"vkCreateInstance", (PFN_vkVoidFunction)layer_CreateInstance},
        {"vkDestroyInstance", (PFN_vkVoidFunction)layer_DestroyInstance},
        {"vkCreateDevice", (PFN_vkVoidFunction)layer_CreateDevice},
        {"vkGetDeviceProcAddr", (PFN_vkVoidFunction)layer_GetDeviceProcAddr},
        {"vkEnumerateDeviceExtensionProperties", (PFN_vkVoidFunction)layer_EnumerateDeviceExtensionProperties},
        {"vkGetPhysicalDeviceExternalSemaphoreProperties",
         (PFN_vkVoidFunction)layer_GetPhysicalDeviceExternalSemaphoreProperties},
        {"vkGetPhysicalDeviceExternalSemaphorePropertiesKHR",
         (PFN_vkVoidFunction)layer_GetPhysicalDeviceExternalSemaphoreProperties},
        {"vkGetPhysicalDeviceExternalBufferProperties", (PFN_vkVoidFunction)layer_GetPhysicalDeviceExternalBufferProperties},
        {"vkGetPhysicalDeviceExternalBufferPropertiesKHR",
         (PFN_vkVoidFunction)layer_GetPhysicalDeviceExternalBufferProperties},
#ifdef LAYER_AS_DRIVER
        {"vkEnumeratePhysicalDevices", (PFN_vkVoidFunction)layer_EnumeratePhysicalDevices},
        {"vkEnumeratePhysicalDeviceGroups", (PFN_vkVoidFunction)layer_EnumeratePhysicalDeviceGroups},
        {"vkEnumeratePhysicalDeviceGroupsKHR", (PFN_vkVoidFunction)layer_EnumeratePhysicalDeviceGroups},
#endif
    };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); ++i)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].fn;
    struct linstance *inst = instance ? layer_instance(instance) : NULL;
#ifdef LAYER_AS_DRIVER
    /* The global commands (vkEnumerateInstanceExtensionProperties ...) are the driver's. */
    if (!inst)
        return layer_driver.gipa(instance, name);
#endif
    return inst ? inst->gipa(instance, name) : NULL;
}

#ifdef LAYER_AS_DRIVER
PFN_vkVoidFunction layer_instance_command(VkInstance instance, const char *name)
{
    return layer_GetInstanceProcAddr(instance, name);
}
#endif

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetDeviceProcAddr(VkDevice device, const char *name)
{
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)layer_GetDeviceProcAddr;
    struct ldevice *dev = device ? layer_device(device) : NULL;
    if (!dev)
        return NULL;
    PFN_vkVoidFunction own = layer_device_command(dev, name);
    return own ? own : dev->gdpa(device, name);
}

#ifndef LAYER_AS_DRIVER
LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char *name)
{
    return layer_GetInstanceProcAddr(instance, name);
}

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *name)
{
    return layer_GetDeviceProcAddr(device, name);
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *v)
{
    if (!v || v->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
        return VK_ERROR_INITIALIZATION_FAILED;
    /* Version 2 is the first with this call; a loader that offers less never calls it. */
    if (v->loaderLayerInterfaceVersion < 2)
        return VK_ERROR_INITIALIZATION_FAILED;
    v->loaderLayerInterfaceVersion = 2;
    v->pfnGetInstanceProcAddr = layer_GetInstanceProcAddr;
    v->pfnGetDeviceProcAddr = layer_GetDeviceProcAddr;
    v->pfnGetPhysicalDeviceProcAddr = NULL; /* no physical-device commands unknown to the loader */
    return VK_SUCCESS;
}
#endif
