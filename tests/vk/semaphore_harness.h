/* tests/vk/semaphore_harness.h: lavapipe devices with VK_KHR_external_semaphore_fd (extmem's
 * layer adds it), for the semaphore tests and the semaphore benchmark. Vulkan 1.3, timeline
 * semaphores and synchronization2 on; every device of one instance. */
#ifndef EXTMEM_TESTS_VK_SEMAPHORE_HARNESS_H
#define EXTMEM_TESTS_VK_SEMAPHORE_HARNESS_H

#include <volk.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace extmem_vk_sem_test {

/* Collects what a debug messenger says; errors() is "" when no error was said. */
class ValidationLog {
public:
    std::string errors() const { return errors_; }
    int messages_seen() const { return seen_; }
    static VKAPI_ATTR VkBool32 VKAPI_CALL callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT *data, void *self);
private:
    std::string errors_;
    int seen_ = 0;
};

class Instance {
public:
    Instance() = default;
    ~Instance() { close(); }
    Instance(const Instance &) = delete;
    Instance &operator=(const Instance &) = delete;
    /* Where a log puts the validation layer: above extmem's layer (the application's own
     * order, validation first) or below it, between extmem's layer and the driver. With extmem
     * as the driver (driver_mode()): validation alone, enabled by the application, or by the
     * environment (VK_INSTANCE_LAYERS); the loader puts it above the driver either way. */
    enum Order { VALIDATION_ABOVE, VALIDATION_BELOW, VALIDATION_BY_APPLICATION, VALIDATION_BY_ENVIRONMENT };
    /* "" on success. With a log: VK_LAYER_KHRONOS_validation and extmem's layer both enabled
     * here in `order`, whatever VK_INSTANCE_LAYERS says, its messages to log. api_version:
     * the application's Vulkan version; below 1.1 the instance enables what a 1.0 application
     * needs for external semaphores (VK_KHR_get_physical_device_properties2 and
     * VK_KHR_external_semaphore_capabilities), and Device::init the device extensions. */
    /* True where the tests run with extmem's driver (libvulkan_extmem.so, src/vk/layer/driver.c)
     * wrapping lavapipe, as extmem-run arranges: EXTMEM_VK_DRIVER_FILE names the real driver. */
    static bool driver_mode() { return getenv("EXTMEM_VK_DRIVER_FILE") != nullptr; }
    std::string init(ValidationLog *log = nullptr, Order order = VALIDATION_ABOVE,
                     uint32_t api_version = VK_API_VERSION_1_3);
    void close();
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    uint32_t family = 0; /* a compute queue family */
    uint32_t api_version = VK_API_VERSION_1_3;
private:
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

typedef std::vector<std::pair<VkSemaphore, uint64_t>> SemList; /* semaphore, timeline value */

class Device {
public:
    Device() = default;
    ~Device() { close(); }
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;
    std::string init(const Instance &vk);
    void close();

    VkSemaphore semaphore(bool timeline, uint64_t initial, bool exportable);
    int export_fd(VkSemaphore s); /* -1 on failure */
    VkResult import_fd(VkSemaphore s, int fd, VkSemaphoreImportFlags flags);
    VkFence fence();
    /* One batch (vkQueueSubmit with VkTimelineSemaphoreSubmitInfo), waits at ALL_COMMANDS. */
    VkResult submit(const SemList &waits, const SemList &signals, VkFence fence,
                    VkCommandBuffer cmd = VK_NULL_HANDLE);
    VkResult submit2(const SemList &waits, const SemList &signals, VkFence fence);
    void destroy(VkSemaphore s) { vkDestroySemaphore(device, s, nullptr); }
    void destroy(VkFence f) { vkDestroyFence(device, f, nullptr); }

    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
};

bool has_device_extension(VkPhysicalDevice physical, const char *layer, const char *name);

/* Unix sockets in the abstract namespace, and fds over them (SCM_RIGHTS). */
int listen_somewhere(std::string *name); /* a listening socket; -1 on failure */
int connect_to(const std::string &name);
int send_fd(int sock, int fd);
int recv_fd(int sock); /* -1 on failure */

} // namespace extmem_vk_sem_test

#endif
