/*
 * vk_devices: prints the Vulkan physical devices the loader gives this process, one name a line
 * after their count ("vulkan devices: N"). tests/run/lavapipe_only.sh reads it to see which
 * drivers the loader was given.
 */
#include <volk.h>

#include <stdio.h>

int main(void)
{
    VkResult r = volkInitialize();
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vk_devices: volkInitialize failed (VkResult %d): no Vulkan loader (libvulkan.so.1)?\n", r);
        return 1;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "vk_devices",
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance instance;
    r = vkCreateInstance(&info, NULL, &instance);
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vk_devices: vkCreateInstance failed: VkResult %d\n", r);
        return 1;
    }
    volkLoadInstance(instance);
    VkPhysicalDevice devices[16];
    uint32_t count = 16;
    r = vkEnumeratePhysicalDevices(instance, &count, devices);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        fprintf(stderr, "vk_devices: vkEnumeratePhysicalDevices failed: VkResult %d\n", r);
        vkDestroyInstance(instance, NULL);
        return 1;
    }
    printf("vulkan devices: %u\n", count);
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        printf("device %u: %s\n", i, p.deviceName);
    }
    vkDestroyInstance(instance, NULL);
    return 0;
}
