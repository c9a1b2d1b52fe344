/*
 * vk_window.h: what extmem's windowed Vulkan-CUDA samples have in common (vulkan_image.cu,
 * vulkan_heightfield.cu, vulkan_mmap_pi.cu): an XCB window, a Vulkan instance and a device that
 * can draw to it, a swapchain with its render pass and framebuffers, the per-frame objects of a
 * render loop, and the window read back from the X server for the checks and the screenshot.
 * The samples' own parts (what CUDA computes, what is shared with it, what is drawn) stay in
 * each program. vk_window.cpp is plain C++ (no CUDA): both builds (clang through
 * cmake/ExtmemCuda.cmake, nvcc -cudart shared) compile it with the program.
 *
 * Every Vulkan call is checked; the first failure ends the program with the call's name
 * (VK(call)), as the samples' own calls do.
 */
#ifndef EXTMEM_SAMPLES_VK_WINDOW_H
#define EXTMEM_SAMPLES_VK_WINDOW_H

#include <volk.h>
// With volk's VK_NO_PROTOTYPES this header declares only the XCB surface's types; the function
// comes from vkGetInstanceProcAddr.
#include <xcb/xcb.h>
#include <vulkan/vulkan_xcb.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vkwin {

// The program's name, for every message (each program sets it first thing in main).
extern const char *program;

constexpr uint32_t FRAMES_IN_FLIGHT = 2;

/* ---- Reporting: the first failure ends the program, naming the call ---- */
[[noreturn]] void failed_vk(const char *call, VkResult r);
[[noreturn]] void fail(const char *what);

#define VK(call)                                                                                                 \
    do {                                                                                                         \
        VkResult vk_r_ = (call);                                                                                 \
        if (vk_r_ != VK_SUCCESS)                                                                                 \
            ::vkwin::failed_vk(#call, vk_r_);                                                                    \
    } while (0)

double now_ms();
bool write_ppm(const std::string &path, uint32_t w, uint32_t h, const std::vector<uint8_t> &rgb);

/* A whole-number option's value from lo to hi; anything else prints why and exits 2. */
uint32_t number_option(const char *name, const char *text, uint32_t lo, uint32_t hi);

/* What a program asks of the window and the device. */
struct window_config {
    const char *title = "";
    uint32_t width = 0, height = 0;
    uint32_t api_version = VK_API_VERSION_1_1;
    // Beyond VK_KHR_swapchain and VK_KHR_external_memory(_fd), which every sample enables.
    bool semaphore_fd = true; // VK_KHR_external_semaphore(_fd): CUDA and Vulkan signal each other
    std::vector<const char *> device_extensions;
    VkPhysicalDeviceFeatures features = {};
    const void *features_chain = nullptr; // VkDeviceCreateInfo::pNext (VkPhysicalDevice*Features)
};

/* One submission of the render loop: the frame's own semaphores (image_available waited for,
 * render_finished signalled) come first, the program's after them. Values (timeline
 * semaphores) are given for the program's semaphores only, or none at all. */
struct frame_submit {
    std::vector<VkSemaphore> waits;
    std::vector<VkPipelineStageFlags> wait_stages;
    std::vector<uint64_t> wait_values;
    std::vector<VkSemaphore> signals;
    std::vector<uint64_t> signal_values;
};

/* A graphics pipeline drawing into the window's render pass over the whole window. */
struct pipeline_desc {
    const uint32_t *vert = nullptr;
    size_t vert_bytes = 0;
    const uint32_t *frag = nullptr;
    size_t frag_bytes = 0;
    std::vector<VkVertexInputBindingDescription> bindings;
    std::vector<VkVertexInputAttributeDescription> attributes;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineLayout layout = VK_NULL_HANDLE;
};

class window_app {
public:
    /* The window, the instance and its surface, the device paired with nothing yet (the
     * program pairs CUDA with device_uuid), the swapchain, render pass, framebuffers, a command
     * pool with a command buffer and the swapchain's semaphores and a fence per frame in flight. */
    void open_window(const window_config &c);
    void close_window();

    /* The frame loop, as the samples have it: wait for the frame's fence, acquire an image;
     * then the program records commands[f] (begin_render_pass...), and submit_frame submits
     * them with the frame's fence and presents. */
    uint32_t acquire_frame(uint32_t f);
    void begin_render_pass(VkCommandBuffer cmd, uint32_t image_index);
    void submit_frame(uint32_t f, uint32_t image_index, const frame_submit &s);
    void poll_window_events();

    /* Helpers for the programs' own objects. */
    VkImageView create_view(VkImage image, VkFormat format, uint32_t mip_levels);
    VkShaderModule create_shader(const uint32_t *code, size_t bytes);
    VkPipelineLayout create_pipeline_layout(VkDescriptorSetLayout set, const VkPushConstantRange *push);
    VkPipeline create_pipeline(const pipeline_desc &d);
    uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags want);
    void *create_host_buffer(VkDeviceSize bytes, VkBufferUsageFlags usage, VkBuffer *buffer, VkDeviceMemory *memory);
    VkSemaphore create_exported_semaphore(bool timeline); // OPAQUE_FD, for CUDA; a timeline starts at 0
    VkCommandBuffer begin_once();
    void end_once(VkCommandBuffer cmd, VkSemaphore wait);
    static bool has_extension(VkPhysicalDevice pd, const char *name);

    /* The window read back from the X server as RGB (false when it cannot be). */
    bool grab_window(std::vector<uint8_t> &rgb);
    /* Reads the window until it equals want, for up to 10 seconds (a present may reach the X
     * server after vkQueuePresentKHR returns: the WSI's own thread puts the image), writes what
     * it shows then to screenshot (if named), and says how it compares; what names the picture. */
    bool check_window(const std::vector<uint8_t> &want, const std::string &screenshot, const char *what);

    // The window
    xcb_connection_t *conn = nullptr;
    xcb_screen_t *screen = nullptr;
    xcb_window_t window = 0;
    uint32_t width = 0, height = 0;

    // Vulkan
    VkInstance instance = VK_NULL_HANDLE;
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    uint8_t device_uuid[VK_UUID_SIZE] = {};
    VkDevice device = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkQueue queue = VK_NULL_HANDLE;
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    VkFormat swapchain_format = VK_FORMAT_UNDEFINED;
    std::vector<VkImage> swapchain_images;
    std::vector<VkImageView> swapchain_views;
    std::vector<VkFramebuffer> framebuffers;
    VkRenderPass render_pass = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer commands[FRAMES_IN_FLIGHT] = {};
    VkSemaphore image_available[FRAMES_IN_FLIGHT] = {}, render_finished[FRAMES_IN_FLIGHT] = {};
    VkFence in_flight[FRAMES_IN_FLIGHT] = {};

private:
    void create_window(const char *title);
    void create_instance(uint32_t api_version);
    void create_surface();
    void pick_physical_device(bool semaphore_fd);
    void create_device(const window_config &c);
    void create_swapchain();
    void create_render_pass();
    void create_framebuffers();
    void create_commands_and_sync();
};

} // namespace vkwin

#endif
