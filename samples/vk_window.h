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
#include <functional>
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

/* ---- The command line ---- */

/* The options every windowed sample has: --frames N, --screenshot FILE (and --help). */
struct sample_options {
    uint32_t frames = 60;
    std::string screenshot;
};

/* A program's own option: given an argument and the one after it (null at the end), how many
 * of the two it takes (1 or 2), or 0 when the argument is not its. */
using own_option = std::function<int(const std::string &arg, const char *next)>;

/* What --help says: what --frames counts, and the program's own options (their synopsis, such as
 * " [--size S]", and one line each, as the shared ones are printed). */
struct sample_usage {
    const char *frames = "frames drawn (default 60)";
    const char *synopsis = "";
    const char *lines = "";
};

/* Parses the command line: the shared options, then own's. */
sample_options parse_sample_options(int argc, char **argv, const sample_usage &usage, const own_option &own = nullptr);

/* A program's main when it has only the shared options: names the program, parses the command
 * line and returns what run returns for the options. */
int sample_main(int argc, char **argv, const char *name, const char *frames_help,
                const std::function<int(const sample_options &)> &run);

/* A bad command line: prints why and the usage, and exits 2. */
[[noreturn]] void bad_option(const std::string &why);

/* A whole-number option's value from lo to hi; anything else is a bad_option. */
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
    VkPipelineLayout layout = VK_NULL_HANDLE; // set by create_pipeline
};

class window_app {
public:
    /* The window, the instance and its surface, the device (the program pairs CUDA with it by
     * device_uuid), the swapchain, its render pass and framebuffers, a command pool, and a command
     * buffer, the swapchain's two semaphores and a fence per frame in flight. */
    void open_window(const window_config &c);
    void close_window();

    /* The frame loop, as the samples have it: wait for the frame's fence, acquire an image;
     * then the program records commands[f] (begin_render_pass...), and submit_frame submits
     * them with the frame's fence and presents. */
    uint32_t acquire_frame(uint32_t f);
    /* The render loop: draw(k) for each frame k, then the device waited for, then finish()
     * (the program's own wait, CUDA's), then the frame rate printed. */
    void render_loop(uint32_t frames, const std::function<void(uint32_t)> &draw, const std::function<void()> &finish);
    void begin_commands(VkCommandBuffer cmd); // reset, begun for one submission
    void begin_render_pass(VkCommandBuffer cmd, uint32_t image_index); // cleared to black, pipeline bound
    void end_render_pass(VkCommandBuffer cmd);                         // and the commands ended
    void submit_frame(uint32_t f, uint32_t image_index, const frame_submit &s);
    void poll_window_events();

    /* Helpers for the programs' own objects. */
    VkImageView create_view(VkImage image, VkFormat format, uint32_t mip_levels);
    VkShaderModule create_shader(const uint32_t *code, size_t bytes);
    /* The program's pipeline and its layout (pipeline, pipeline_layout; close_window destroys
     * them): d.layout is set here. */
    void create_pipeline(pipeline_desc d, VkDescriptorSetLayout set, const VkPushConstantRange *push);
    uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags want);
    /* Device-local memory for a resource with these requirements, exportable as OPAQUE_FD (for CUDA). */
    VkDeviceMemory allocate_exportable(const VkMemoryRequirements &req);
    void *create_host_buffer(VkDeviceSize bytes, VkBufferUsageFlags usage, VkBuffer *buffer, VkDeviceMemory *memory);
    /* The buffer the checks read back into (readback, mapped at readback_map; close_window
     * destroys it). */
    void create_readback(VkDeviceSize bytes);
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
    VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkBuffer readback = VK_NULL_HANDLE;
    VkDeviceMemory readback_memory = VK_NULL_HANDLE;
    void *readback_map = nullptr;

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
