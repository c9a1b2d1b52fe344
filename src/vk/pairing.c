/*
 * Device pairing without Vulkan at link time (DESIGN.md §7).
 *
 * Interop code written the way NVIDIA's samples are written picks the Vulkan physical device
 * whose VkPhysicalDeviceIDProperties::deviceUUID equals cuDeviceGetUuid. For that code to find
 * lavapipe on extmem, cuDeviceGetUuid must answer lavapipe's deviceUUID, so the core needs it
 * without depending on Vulkan: this file reaches the loader only through dlopen/dlsym and
 * declares the few Vulkan types it uses itself (checked against vulkan_core.h where the
 * headers are installed), so it compiles into the core as it is.
 */
#include "vk/pairing.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- The Vulkan 1.1 subset used here (vulkan_core.h; the names are Vulkan's). ---- */
typedef struct pr_instance *pr_VkInstance;
typedef struct pr_physical_device *pr_VkPhysicalDevice;
typedef int32_t pr_VkResult;
typedef void (*pr_PFN_vkVoidFunction)(void);

enum {
    PR_VK_STRUCTURE_TYPE_APPLICATION_INFO = 0,
    PR_VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1,
    PR_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001,
    PR_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES = 1000071004,
    PR_VK_PHYSICAL_DEVICE_TYPE_CPU = 4,
    PR_VK_VENDOR_ID_MESA = 0x10005,
    PR_VK_API_VERSION_1_1 = (1u << 22) | (1u << 12),
    PR_VK_UUID_SIZE = 16,
};

typedef struct {
    int32_t sType;
    const void *pNext;
    const char *pApplicationName;
    uint32_t applicationVersion;
    const char *pEngineName;
    uint32_t engineVersion;
    uint32_t apiVersion;
} pr_VkApplicationInfo;

typedef struct {
    int32_t sType;
    const void *pNext;
    uint32_t flags;
    const pr_VkApplicationInfo *pApplicationInfo;
    uint32_t enabledLayerCount;
    const char *const *ppEnabledLayerNames;
    uint32_t enabledExtensionCount;
    const char *const *ppEnabledExtensionNames;
} pr_VkInstanceCreateInfo;

/* VkPhysicalDeviceProperties: the leading members read here, then room for the rest
 * (limits and sparse properties; 824 bytes in all on LP64), which the driver writes. */
typedef struct {
    uint32_t apiVersion;
    uint32_t driverVersion;
    uint32_t vendorID;
    uint32_t deviceID;
    int32_t deviceType;
    char deviceName[256];
    uint8_t pipelineCacheUUID[16];
    uint64_t rest[128];
} pr_VkPhysicalDeviceProperties;

typedef struct {
    int32_t sType;
    void *pNext;
    uint8_t deviceUUID[16];
    uint8_t driverUUID[16];
    uint8_t deviceLUID[8];
    uint32_t deviceNodeMask;
    uint32_t deviceLUIDValid;
} pr_VkPhysicalDeviceIDProperties;

typedef struct {
    int32_t sType;
    void *pNext;
    pr_VkPhysicalDeviceProperties properties;
} pr_VkPhysicalDeviceProperties2;

#if defined(__has_include)
#if __has_include(<vulkan/vulkan_core.h>)
#include <vulkan/vulkan_core.h>
_Static_assert(sizeof(pr_VkApplicationInfo) == sizeof(VkApplicationInfo), "VkApplicationInfo");
_Static_assert(sizeof(pr_VkInstanceCreateInfo) == sizeof(VkInstanceCreateInfo), "VkInstanceCreateInfo");
_Static_assert(sizeof(pr_VkPhysicalDeviceIDProperties) == sizeof(VkPhysicalDeviceIDProperties), "ID properties");
_Static_assert(sizeof(pr_VkPhysicalDeviceProperties) >= sizeof(VkPhysicalDeviceProperties), "properties room");
_Static_assert(offsetof(pr_VkPhysicalDeviceProperties, deviceName) == offsetof(VkPhysicalDeviceProperties, deviceName),
               "deviceName");
_Static_assert(offsetof(pr_VkPhysicalDeviceProperties2, properties) == offsetof(VkPhysicalDeviceProperties2, properties),
               "properties");
_Static_assert((int)PR_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
               "sType");
_Static_assert((int)PR_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
               "sType");
_Static_assert((int)PR_VK_PHYSICAL_DEVICE_TYPE_CPU == (int)VK_PHYSICAL_DEVICE_TYPE_CPU, "device type");
_Static_assert((int)PR_VK_VENDOR_ID_MESA == (int)VK_VENDOR_ID_MESA, "vendor");
_Static_assert((unsigned)PR_VK_API_VERSION_1_1 == (unsigned)VK_API_VERSION_1_1, "version");
#endif
#endif

typedef pr_PFN_vkVoidFunction (*pr_PFN_vkGetInstanceProcAddr)(pr_VkInstance, const char *);
typedef pr_VkResult (*pr_PFN_vkCreateInstance)(const pr_VkInstanceCreateInfo *, const void *, pr_VkInstance *);
typedef void (*pr_PFN_vkDestroyInstance)(pr_VkInstance, const void *);
typedef pr_VkResult (*pr_PFN_vkEnumeratePhysicalDevices)(pr_VkInstance, uint32_t *, pr_VkPhysicalDevice *);
typedef void (*pr_PFN_vkGetPhysicalDeviceProperties2)(pr_VkPhysicalDevice, pr_VkPhysicalDeviceProperties2 *);

/* lavapipe is the CPU device Mesa names llvmpipe ("llvmpipe (LLVM 15.0.6, 256 bits)"). */
static int is_lavapipe(const pr_VkPhysicalDeviceProperties *p)
{
    return p->deviceType == PR_VK_PHYSICAL_DEVICE_TYPE_CPU && p->vendorID == PR_VK_VENDOR_ID_MESA &&
           strncmp(p->deviceName, "llvmpipe", 8) == 0 && p->apiVersion >= PR_VK_API_VERSION_1_1;
}

static int find_in_instance(pr_PFN_vkGetInstanceProcAddr gipa, pr_VkInstance inst, unsigned char uuid[16])
{
    pr_PFN_vkEnumeratePhysicalDevices enumerate =
        (pr_PFN_vkEnumeratePhysicalDevices)gipa(inst, "vkEnumeratePhysicalDevices");
    pr_PFN_vkGetPhysicalDeviceProperties2 props2 =
        (pr_PFN_vkGetPhysicalDeviceProperties2)gipa(inst, "vkGetPhysicalDeviceProperties2");
    if (!enumerate || !props2)
        return EXTMEM_VK_PAIRING_NO_LOADER;

    pr_VkPhysicalDevice devs[16];
    uint32_t count = 16;
    pr_VkResult r = enumerate(inst, &count, devs);
    if (r < 0) /* VK_INCOMPLETE (5) still fills the array */
        return EXTMEM_VK_PAIRING_NOT_FOUND;
    for (uint32_t i = 0; i < count; ++i) {
        pr_VkPhysicalDeviceIDProperties id;
        pr_VkPhysicalDeviceProperties2 p2;
        memset(&id, 0, sizeof(id));
        memset(&p2, 0, sizeof(p2));
        id.sType = PR_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        p2.sType = PR_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        p2.pNext = &id;
        props2(devs[i], &p2);
        if (is_lavapipe(&p2.properties)) {
            memcpy(uuid, id.deviceUUID, PR_VK_UUID_SIZE);
            return 0;
        }
    }
    return EXTMEM_VK_PAIRING_NOT_FOUND;
}

int extmem_vk_lavapipe_uuid(unsigned char uuid[16])
{
    if (!uuid)
        return EXTMEM_VK_PAIRING_NOT_FOUND;
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return EXTMEM_VK_PAIRING_NO_LOADER;
    int result = EXTMEM_VK_PAIRING_NO_LOADER;
    pr_PFN_vkGetInstanceProcAddr gipa;
    /* ISO C forbids converting void * to a function pointer; POSIX guarantees dlsym's works. */
    *(void **)&gipa = dlsym(lib, "vkGetInstanceProcAddr");
    pr_PFN_vkCreateInstance create = gipa ? (pr_PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance") : NULL;
    if (!create)
        goto done;

    pr_VkApplicationInfo app;
    memset(&app, 0, sizeof(app));
    app.sType = PR_VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "extmem device pairing";
    app.pEngineName = "extmem";
    app.apiVersion = PR_VK_API_VERSION_1_1;
    pr_VkInstanceCreateInfo ici;
    memset(&ici, 0, sizeof(ici));
    ici.sType = PR_VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ici.pApplicationInfo = &app;
    pr_VkInstance inst = NULL;
    if (create(&ici, NULL, &inst) != 0 || !inst) {
        result = EXTMEM_VK_PAIRING_NOT_FOUND; /* a loader without drivers */
        goto done;
    }
    result = find_in_instance(gipa, inst, uuid);
    pr_PFN_vkDestroyInstance destroy = (pr_PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance");
    if (destroy)
        destroy(inst, NULL);
done:
    dlclose(lib);
    return result;
}
