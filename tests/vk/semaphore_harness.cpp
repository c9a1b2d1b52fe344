#include "semaphore_harness.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace extmem_vk_sem_test {

#define TRY(call)                                                                                                \
    do {                                                                                                         \
        VkResult try_r_ = (call);                                                                                \
        if (try_r_ != VK_SUCCESS)                                                                                \
            return std::string(#call) + " failed: VkResult " + std::to_string((int)try_r_);                    \
    } while (0)

VKAPI_ATTR VkBool32 VKAPI_CALL ValidationLog::callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT, 
                                                       const VkDebugUtilsMessengerCallbackDataEXT *data, void *self)
{
    ValidationLog *log = static_cast<ValidationLog *>(self);
    log->seen_++;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        log->errors_ += data->pMessage ? data->pMessage : "(no text)";
        log->errors_ += "\n";
    }
    return VK_FALSE;
}

static bool has_layer(const char *name)
{
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    for (const VkLayerProperties &l : layers)
        if (strcmp(l.layerName, name) == 0)
            return true;
    return false;
}

std::string Instance::init(ValidationLog *log, Order order, uint32_t api)
{
    api_version = api;
    TRY(volkInitialize());
    VkApplicationInfo app = {};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "extmem semaphore tests";
    app.apiVersion = api;
    VkInstanceCreateInfo ici = {};
    ici.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ici.pApplicationInfo = &app;
    const char *layers[2] = {"VK_LAYER_KHRONOS_validation", "VK_LAYER_EXTMEM_external_semaphore"};
    if (order == VALIDATION_BELOW)
        std::swap(layers[0], layers[1]);
    // extmem as the driver: the application enables validation alone, or the environment does.
    const uint32_t nlayers = order == VALIDATION_BY_APPLICATION ? 1 : order == VALIDATION_BY_ENVIRONMENT ? 0 : 2;
    const bool v10 = api < VK_API_VERSION_1_1;
    const char *extensions[] = {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME,
                                VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_EXTENSION_NAME,
                                VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    const uint32_t first_ext = v10 ? 0 : 2;
    ici.enabledExtensionCount = 2 - first_ext;
    ici.ppEnabledExtensionNames = extensions + first_ext;
    VkDebugUtilsMessengerCreateInfoEXT mci = {};
    if (log) {
        // Environment-enabled layers sit above the application's: keep the layer order here.
        unsetenv("VK_INSTANCE_LAYERS");
        unsetenv("VK_LOADER_LAYERS_ENABLE");
        if (order == VALIDATION_BY_ENVIRONMENT)
            setenv("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation", 1);
        for (uint32_t i = 0; i < (nlayers ? nlayers : 1); ++i)
            if (!has_layer(layers[i]))
                return std::string(layers[i]) + " is not installed";
        mci.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
        mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
        mci.pfnUserCallback = ValidationLog::callback;
        mci.pUserData = log;
        ici.pNext = &mci;
        ici.enabledLayerCount = nlayers;
        ici.ppEnabledLayerNames = layers;
        ici.enabledExtensionCount = 3 - first_ext;
    }
    TRY(vkCreateInstance(&ici, nullptr, &instance));
    volkLoadInstance(instance);
    if (log)
        TRY(vkCreateDebugUtilsMessengerEXT(instance, &mci, nullptr, &messenger_));

    uint32_t count = 0;
    TRY(vkEnumeratePhysicalDevices(instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devs(count);
    TRY(vkEnumeratePhysicalDevices(instance, &count, devs.data()));
    for (VkPhysicalDevice d : devs) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(d, &p);
        if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && strncmp(p.deviceName, "llvmpipe", 8) == 0)
            physical = d;
    }
    if (!physical)
        return "no lavapipe among " + std::to_string(count) + " Vulkan devices (mesa-vulkan-drivers)";
    uint32_t nfam = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &nfam, nullptr);
    std::vector<VkQueueFamilyProperties> fams(nfam);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &nfam, fams.data());
    for (family = 0; family < nfam; ++family)
        if (fams[family].queueFlags & VK_QUEUE_COMPUTE_BIT)
            break;
    if (family == nfam)
        return "lavapipe has no compute queue";
    if (!has_device_extension(physical, nullptr, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME))
        return "no VK_KHR_external_semaphore_fd: is VK_LAYER_EXTMEM_external_semaphore enabled "
               "(VK_ADD_LAYER_PATH=<build>/src/vk/layer VK_INSTANCE_LAYERS=VK_LAYER_EXTMEM_external_semaphore)?";
    return "";
}

void Instance::close()
{
    if (messenger_)
        vkDestroyDebugUtilsMessengerEXT(instance, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
    if (instance)
        vkDestroyInstance(instance, nullptr);
    instance = VK_NULL_HANDLE;
}

bool has_device_extension(VkPhysicalDevice physical, const char *layer, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(physical, layer, &n, nullptr) != VK_SUCCESS)
        return false;
    std::vector<VkExtensionProperties> props(n);
    vkEnumerateDeviceExtensionProperties(physical, layer, &n, props.data());
    for (const VkExtensionProperties &p : props)
        if (strcmp(p.extensionName, name) == 0)
            return true;
    return false;
}

std::string Device::init(const Instance &vk)
{
    physical = vk.physical;
    family = vk.family;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {};
    qi.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qi.queueFamilyIndex = family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    const char *extensions[] = {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
    // A Vulkan 1.0 application: the extensions 1.1 made core, no feature structures.
    const char *extensions_10[] = {VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME,
                                   VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
    VkPhysicalDeviceVulkan13Features v13 = {};
    v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    v13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features v12 = {};
    v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    v12.pNext = &v13;
    v12.timelineSemaphore = VK_TRUE;
    VkDeviceCreateInfo di = {};
    di.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    if (vk.api_version < VK_API_VERSION_1_1) {
        di.enabledExtensionCount = 2;
        di.ppEnabledExtensionNames = extensions_10;
    } else {
        di.pNext = &v12;
        di.enabledExtensionCount = 2;
        di.ppEnabledExtensionNames = extensions;
    }
    TRY(vkCreateDevice(physical, &di, nullptr, &device));
    vkGetDeviceQueue(device, family, 0, &queue);
    return "";
}

void Device::close()
{
    if (device)
        vkDestroyDevice(device, nullptr);
    device = VK_NULL_HANDLE;
}

VkSemaphore Device::semaphore(bool timeline, uint64_t initial, bool exportable)
{
    VkExportSemaphoreCreateInfo exp = {};
    exp.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
    exp.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkSemaphoreTypeCreateInfo type = {};
    type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
    type.pNext = exportable ? &exp : nullptr;
    type.semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY;
    type.initialValue = timeline ? initial : 0;
    VkSemaphoreCreateInfo ci = {};
    ci.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    ci.pNext = &type;
    VkSemaphore s = VK_NULL_HANDLE;
    vkCreateSemaphore(device, &ci, nullptr, &s);
    return s;
}

int Device::export_fd(VkSemaphore s)
{
    VkSemaphoreGetFdInfoKHR gi = {};
    gi.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR;
    gi.semaphore = s;
    gi.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    return vkGetSemaphoreFdKHR(device, &gi, &fd) == VK_SUCCESS ? fd : -1;
}

VkResult Device::import_fd(VkSemaphore s, int fd, VkSemaphoreImportFlags flags)
{
    VkImportSemaphoreFdInfoKHR ii = {};
    ii.sType = VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR;
    ii.semaphore = s;
    ii.flags = flags;
    ii.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    ii.fd = fd;
    return vkImportSemaphoreFdKHR(device, &ii);
}

VkFence Device::fence()
{
    VkFenceCreateInfo fi = {};
    fi.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    VkFence f = VK_NULL_HANDLE;
    vkCreateFence(device, &fi, nullptr, &f);
    return f;
}

VkResult Device::submit(const SemList &waits, const SemList &signals, VkFence fence, VkCommandBuffer cmd)
{
    std::vector<VkSemaphore> ws, ss;
    std::vector<uint64_t> wv, sv;
    std::vector<VkPipelineStageFlags> stages;
    for (const auto &w : waits) {
        ws.push_back(w.first);
        wv.push_back(w.second);
        stages.push_back(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
    }
    for (const auto &s : signals) {
        ss.push_back(s.first);
        sv.push_back(s.second);
    }
    VkTimelineSemaphoreSubmitInfo tl = {};
    tl.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
    tl.waitSemaphoreValueCount = (uint32_t)wv.size();
    tl.pWaitSemaphoreValues = wv.data();
    tl.signalSemaphoreValueCount = (uint32_t)sv.size();
    tl.pSignalSemaphoreValues = sv.data();
    VkSubmitInfo si = {};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.pNext = &tl;
    si.waitSemaphoreCount = (uint32_t)ws.size();
    si.pWaitSemaphores = ws.data();
    si.pWaitDstStageMask = stages.data();
    si.signalSemaphoreCount = (uint32_t)ss.size();
    si.pSignalSemaphores = ss.data();
    si.commandBufferCount = cmd ? 1 : 0;
    si.pCommandBuffers = &cmd;
    return vkQueueSubmit(queue, 1, &si, fence);
}

VkResult Device::submit2(const SemList &waits, const SemList &signals, VkFence fence)
{
    std::vector<VkSemaphoreSubmitInfo> ws, ss;
    for (const auto &w : waits) {
        VkSemaphoreSubmitInfo i = {};
        i.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;
        i.semaphore = w.first;
        i.value = w.second;
        i.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        ws.push_back(i);
    }
    for (const auto &s : signals) {
        VkSemaphoreSubmitInfo i = {};
        i.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO;
        i.semaphore = s.first;
        i.value = s.second;
        i.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        ss.push_back(i);
    }
    VkSubmitInfo2 si = {};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2;
    si.waitSemaphoreInfoCount = (uint32_t)ws.size();
    si.pWaitSemaphoreInfos = ws.data();
    si.signalSemaphoreInfoCount = (uint32_t)ss.size();
    si.pSignalSemaphoreInfos = ss.data();
    return vkQueueSubmit2(queue, 1, &si, fence);
}

static socklen_t address(const std::string &name, sockaddr_un *a)
{
    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    memcpy(a->sun_path + 1, name.data(), name.size()); // sun_path[0] = 0: the abstract namespace
    return (socklen_t)(offsetof(sockaddr_un, sun_path) + 1 + name.size());
}

int listen_somewhere(std::string *name)
{
    *name = "extmem-sem-test-" + std::to_string(getpid()) + "-" + std::to_string(std::random_device{}());
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    sockaddr_un a;
    socklen_t len = address(*name, &a);
    if (s < 0 || bind(s, reinterpret_cast<sockaddr *>(&a), len) != 0 || listen(s, 1) != 0) {
        if (s >= 0)
            ::close(s);
        return -1;
    }
    return s;
}

int connect_to(const std::string &name)
{
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    sockaddr_un a;
    socklen_t len = address(name, &a);
    if (s < 0 || connect(s, reinterpret_cast<sockaddr *>(&a), len) != 0) {
        if (s >= 0)
            ::close(s);
        return -1;
    }
    return s;
}

int send_fd(int sock, int fd)
{
    char control[CMSG_SPACE(sizeof(int))] = {};
    char byte = 'f';
    iovec iov = {&byte, 1};
    msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

int recv_fd(int sock)
{
    char control[CMSG_SPACE(sizeof(int))] = {};
    char byte;
    iovec iov = {&byte, 1};
    msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
        return -1;
    cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
        return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof(int));
    return fd;
}

} // namespace extmem_vk_sem_test
