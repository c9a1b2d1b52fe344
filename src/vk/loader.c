/*
 * The Vulkan loader, reached through volk: extmem_vulkan links neither libvulkan nor the
 * application's volk, so it works with programs that do either.
 */
#include "vk_internal.h"

#include <dlfcn.h>
#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static VkResult load_result = VK_ERROR_INITIALIZATION_FAILED;
static vk_loader_exports exports;

static void *loader_symbol(void *lib, const char *name)
{
    return lib ? dlsym(lib, name) : NULL;
}

static void load(void)
{
    load_result = volkInitialize();
    if (load_result != VK_SUCCESS)
        return;
    /* volk opened the loader already; this only finds it again (RTLD_NOLOAD) and the
     * reference taken here is dropped at once, volk's keeps it loaded. */
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    /* ISO C has no conversion from void * to a function pointer; POSIX makes dlsym's valid. */
    *(void **)&exports.GetDeviceProcAddr = loader_symbol(lib, "vkGetDeviceProcAddr");
    *(void **)&exports.GetPhysicalDeviceProperties2 = loader_symbol(lib, "vkGetPhysicalDeviceProperties2");
    *(void **)&exports.GetPhysicalDeviceMemoryProperties = loader_symbol(lib, "vkGetPhysicalDeviceMemoryProperties");
    if (lib)
        dlclose(lib);
    if (!exports.GetDeviceProcAddr || !exports.GetPhysicalDeviceMemoryProperties)
        load_result = VK_ERROR_INITIALIZATION_FAILED;
}

CUresult vk_loader(const char *fn)
{
    pthread_once(&once, load);
    if (load_result != VK_SUCCESS)
        return vk_fail(CUDA_ERROR_NOT_SUPPORTED,
                       "%s: no Vulkan loader: libvulkan.so.1 cannot be loaded or lacks vkGetDeviceProcAddr (install "
                       "the Vulkan loader, Debian's libvulkan1)",
                       fn);
    return CUDA_SUCCESS;
}

const vk_loader_exports *vk_exports(void) { return &exports; }
