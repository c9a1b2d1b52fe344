/*
 * extmem-vulkan-image: a windowed Vulkan-CUDA image interop program, written the way NVIDIA's
 * Vulkan image sample (vulkanImageCUDA in NVIDIA/cuda-samples) is: a window, a Vulkan device
 * and a swapchain, a render loop that draws a textured quad, and a texture that lives in a
 * VkImage which CUDA imports without a copy and writes every frame.
 *
 * 1. The window is an X window made with XCB; Vulkan draws into it through a swapchain
 *    (VK_KHR_xcb_surface). On extmem the Vulkan device is Mesa's lavapipe, paired with the CUDA
 *    device by UUID as the sample pairs them; run it through extmem-run, which enables extmem's
 *    layer (lavapipe exports no semaphores itself).
 * 2. The texture is an S x S VK_FORMAT_R8G8B8A8_UNORM image with its full mip chain, in memory
 *    exported as OPAQUE_FD. CUDA imports the memory (cudaImportExternalMemory), maps it as a
 *    mipmapped array (cudaExternalMemoryGetMappedMipmappedArray), and makes a surface object
 *    for each level and one texture object over the whole chain.
 * 3. Every frame CUDA animates level 0 (a kernel writing it through its surface, surf2Dwrite)
 *    and makes each level N + 1 from level N (a kernel reading level N through the texture
 *    object, tex2DLod, and writing the 2x2 box average through level N + 1's surface). Vulkan
 *    then samples the image: one quad per level, side by side, each at its own size.
 * 4. The two sides hand the image to each other through two binary semaphores exported from
 *    Vulkan (vkGetSemaphoreFdKHR) and imported by CUDA (cudaImportExternalSemaphore), as the
 *    sample does: Vulkan's submission signals one after drawing, CUDA's stream waits for it,
 *    runs the kernels and signals the other, which Vulkan's next submission waits for.
 * 5. After the last frame the program checks its results: every texel of every level, read
 *    back through Vulkan, against the same filter computed on the CPU; and the window itself,
 *    read back from the X server (xcb_get_image), against the picture the CPU expects. With
 *    --screenshot it writes that screenshot as a PPM file (samples/CMakeLists.txt compares it
 *    with samples/vulkan_image.ppm under Xvfb).
 *
 * Options: --frames N (60), --size S (the texture's width and height, a power of two, 128),
 * --texture cuda|host (host: the CPU computes the same levels and Vulkan uploads them with
 * vkCmdCopyBufferToImage, no CUDA at all: the window, swapchain and screenshot path alone),
 * --screenshot FILE.
 * Exits 0 when every check passes; at the first failure it says which call failed and exits 1.
 *
 * Every pixel of the window is exactly one texel: the quads are pixel-aligned at their level's
 * size and the sampler takes the nearest texel of an explicit level (shaders/image_quad.frag),
 * so the screenshot does not depend on lavapipe's filtering arithmetic.
 */
#include <volk.h>
// With volk's VK_NO_PROTOTYPES this header declares only the XCB surface's types; the function
// comes from vkGetInstanceProcAddr.
#include <xcb/xcb.h>
#include <vulkan/vulkan_xcb.h>

#include <cuda_runtime.h>
#if __has_include("extmem/extmem.h")
#include "extmem/extmem.h"
#define IMAGE_SAMPLE_ON_EXTMEM 1
#endif

#include <poll.h>
#include <unistd.h>

#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "shaders/image_quad.frag.spv.h"
#include "shaders/image_quad.vert.spv.h"

namespace {

constexpr const char *PROGRAM = "extmem-vulkan-image";
constexpr uint32_t FRAMES_IN_FLIGHT = 2;

/* ---- The picture: level 0 of frame k, and the box filter that makes the other levels ----
 * A texel is packed as the image stores it, R in the lowest byte (R8G8B8A8 in memory order).
 * The host computes the same as the kernels, for the checks and for --texture host. */

__host__ __device__ inline uint32_t pack(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
    return r | g << 8 | b << 16 | a << 24;
}

/* Level 0 of frame k: moving checker stripes over gradients. */
__host__ __device__ inline uint32_t level0_texel(uint32_t x, uint32_t y, uint32_t k)
{
    const uint32_t checker = (((x + 2 * k) >> 3) ^ (y >> 3)) & 1;
    const uint32_t r = checker ? 230 : 40 + ((x + k) & 63);
    const uint32_t g = (y * 4 + k * 2) & 255;
    const uint32_t b = ((x ^ y) + 3 * k) & 255;
    return pack(r, g, b, 255);
}

/* Level n + 1's texel from level n's 2x2 block: each channel's mean, rounded half up. */
__host__ __device__ inline uint32_t box4(uint32_t t0, uint32_t t1, uint32_t t2, uint32_t t3)
{
    uint32_t out = 0;
    for (uint32_t shift = 0; shift < 32; shift += 8) {
        const uint32_t sum = (t0 >> shift & 255) + (t1 >> shift & 255) + (t2 >> shift & 255) + (t3 >> shift & 255);
        out |= ((sum + 2) >> 2) << shift;
    }
    return out;
}

uint32_t level_count(uint32_t size)
{
    uint32_t n = 1;
    while (size >> n)
        ++n;
    return n;
}

/* Every level of frame k, level 0 first, each tightly packed. */
std::vector<std::vector<uint32_t>> cpu_levels(uint32_t size, uint32_t k)
{
    std::vector<std::vector<uint32_t>> levels(level_count(size));
    levels[0].resize(size * size);
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x)
            levels[0][y * size + x] = level0_texel(x, y, k);
    for (uint32_t l = 1; l < levels.size(); ++l) {
        const uint32_t s = size >> l, src = s * 2;
        const std::vector<uint32_t> &in = levels[l - 1];
        levels[l].resize(s * s);
        for (uint32_t y = 0; y < s; ++y)
            for (uint32_t x = 0; x < s; ++x)
                levels[l][y * s + x] = box4(in[2 * y * src + 2 * x], in[2 * y * src + 2 * x + 1],
                                            in[(2 * y + 1) * src + 2 * x], in[(2 * y + 1) * src + 2 * x + 1]);
    }
    return levels;
}

/* Where level l's quad sits: x from the left edge, top-aligned, (size >> l) pixels square.
 * Level 0 at x = 0, level 1 at S, level 2 at 1.5 S...: the window is 2S x S. */
uint32_t level_x(uint32_t size, uint32_t l) { return 2 * size - ((2 * size) >> l); }

/* The window as the frame showing levels should look: RGB, row by row, black around. */
std::vector<uint8_t> expected_window(uint32_t size, const std::vector<std::vector<uint32_t>> &levels)
{
    const uint32_t w = 2 * size, h = size;
    std::vector<uint8_t> rgb(static_cast<size_t>(w) * h * 3, 0);
    for (uint32_t l = 0; l < levels.size(); ++l) {
        const uint32_t s = size >> l, x0 = level_x(size, l);
        for (uint32_t y = 0; y < s; ++y)
            for (uint32_t x = 0; x < s; ++x) {
                const uint32_t t = levels[l][y * s + x];
                uint8_t *p = &rgb[(static_cast<size_t>(y) * w + x0 + x) * 3];
                p[0] = t & 255;
                p[1] = t >> 8 & 255;
                p[2] = t >> 16 & 255;
            }
    }
    return rgb;
}

/* ---- Options ---- */

struct options {
    uint32_t frames = 60;
    uint32_t size = 128;
    bool cuda = true; // --texture cuda (default) or host
    std::string screenshot;
};

[[noreturn]] void usage(int status)
{
    std::fprintf(status ? stderr : stdout,
                 "usage: %s [--frames N] [--size S] [--texture cuda|host] [--screenshot FILE.ppm]\n"
                 "  --frames N       frames drawn (default 60)\n"
                 "  --size S         the texture's width and height, a power of two from 4 to 1024 (default 128);\n"
                 "                   the window is 2S x S\n"
                 "  --texture cuda   CUDA animates the image and makes its mip levels (default)\n"
                 "  --texture host   the CPU makes them and Vulkan uploads them: no CUDA at all\n"
                 "  --screenshot F   write the window, read back from the X server, to F (binary PPM)\n"
                 "It needs an X display (DISPLAY); run it through extmem-run, which enables the semaphore layer\n"
                 "lavapipe needs.\n",
                 PROGRAM);
    std::exit(status);
}

uint32_t number_option(const char *name, const char *text, uint32_t lo, uint32_t hi)
{
    char *end = nullptr;
    const unsigned long long v = text ? std::strtoull(text, &end, 10) : 0;
    if (!text || !*text || *end || text[0] == '-' || v < lo || v > hi) {
        std::fprintf(stderr, "%s: %s wants a number from %u to %u, not \"%s\"\n", PROGRAM, name, lo, hi,
                     text ? text : "");
        usage(2);
    }
    return static_cast<uint32_t>(v);
}

options parse_options(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--help" || a == "-h")
            usage(0);
        else if (a == "--frames")
            o.frames = number_option("--frames", next, 1, 100000), ++i;
        else if (a == "--size") {
            o.size = number_option("--size", next, 4, 1024), ++i;
            if (o.size & (o.size - 1)) {
                std::fprintf(stderr, "%s: --size %u is not a power of two\n", PROGRAM, o.size);
                usage(2);
            }
        } else if (a == "--texture") {
            const std::string v = next ? next : "";
            if (v != "cuda" && v != "host") {
                std::fprintf(stderr, "%s: --texture wants cuda or host, not \"%s\"\n", PROGRAM, v.c_str());
                usage(2);
            }
            o.cuda = v == "cuda", ++i;
        } else if (a == "--screenshot") {
            if (!next || !*next) {
                std::fprintf(stderr, "%s: --screenshot wants a file name\n", PROGRAM);
                usage(2);
            }
            o.screenshot = next, ++i;
        } else {
            std::fprintf(stderr, "%s: unknown argument \"%s\"\n", PROGRAM, argv[i]);
            usage(2);
        }
    }
    return o;
}

/* ---- Reporting: the first failure ends the program, naming the call ---- */

[[noreturn]] void failed_cuda(const char *call, cudaError_t e)
{
#ifdef IMAGE_SAMPLE_ON_EXTMEM
    // extmem records why a call failed; NVIDIA's runtime has only the code's text.
    std::fprintf(stderr, "%s: %s failed: %s (%s)\n  why: %s\n", PROGRAM, call, cudaGetErrorName(e),
                 cudaGetErrorString(e), extmem_error_detail());
#else
    std::fprintf(stderr, "%s: %s failed: %s (%s)\n", PROGRAM, call, cudaGetErrorName(e), cudaGetErrorString(e));
#endif
    std::exit(1);
}

[[noreturn]] void failed_vk(const char *call, VkResult r)
{
    std::fprintf(stderr, "%s: %s failed: VkResult %d\n", PROGRAM, call, static_cast<int>(r));
    std::exit(1);
}

[[noreturn]] void fail(const char *what)
{
    std::fprintf(stderr, "%s: %s\n", PROGRAM, what);
    std::exit(1);
}

#define CUDA(call)                                                                                               \
    do {                                                                                                         \
        cudaError_t cuda_e_ = (call);                                                                            \
        if (cuda_e_ != cudaSuccess)                                                                              \
            failed_cuda(#call, cuda_e_);                                                                         \
    } while (0)

#define VK(call)                                                                                                 \
    do {                                                                                                         \
        VkResult vk_r_ = (call);                                                                                 \
        if (vk_r_ != VK_SUCCESS)                                                                                 \
            failed_vk(#call, vk_r_);                                                                             \
    } while (0)

double now_ms()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

bool write_ppm(const std::string &path, uint32_t w, uint32_t h, const std::vector<uint8_t> &rgb)
{
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    std::fprintf(f, "P6\n%u %u\n255\n", w, h);
    const bool ok = std::fwrite(rgb.data(), 1, rgb.size(), f) == rgb.size();
    return std::fclose(f) == 0 && ok;
}

} // namespace

/* ---- The CUDA kernels ---- */

// Level 0 of frame k, written through the level's surface (x in bytes, as surfaces address).
__global__ void animate_level0(cudaSurfaceObject_t level0, uint32_t size, uint32_t k)
{
    const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < size && y < size)
        surf2Dwrite(level0_texel(x, y, k), level0, static_cast<int>(x * sizeof(uint32_t)), static_cast<int>(y));
}

// Level src + 1 (size x size) from level src, read through the texture object over the whole
// chain: normalized coordinates at the texel centres, the nearest texel of the explicit level.
__global__ void make_level(cudaTextureObject_t chain, cudaSurfaceObject_t dst, uint32_t size, uint32_t src)
{
    const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= size || y >= size)
        return;
    const float texel = 1.0f / static_cast<float>(2 * size); // a texel of level src, exact (a power of two)
    const float lod = static_cast<float>(src);
    uint32_t t[4];
    for (uint32_t j = 0; j < 2; ++j)
        for (uint32_t i = 0; i < 2; ++i) {
            const uchar4 c = tex2DLod<uchar4>(chain, (2 * x + i + 0.5f) * texel, (2 * y + j + 0.5f) * texel, lod);
            t[j * 2 + i] = pack(c.x, c.y, c.z, c.w);
        }
    surf2Dwrite(box4(t[0], t[1], t[2], t[3]), dst, static_cast<int>(x * sizeof(uint32_t)), static_cast<int>(y));
}

namespace {

/* ---- The program: window, Vulkan, CUDA, the render loop, the checks ---- */

struct vertex {
    float corner[2];
    float uv[2];
};
const vertex QUAD_VERTICES[4] = {{{0, 0}, {0, 0}}, {{1, 0}, {1, 0}}, {{1, 1}, {1, 1}}, {{0, 1}, {0, 1}}};
const uint16_t QUAD_INDICES[6] = {0, 1, 2, 2, 3, 0};

struct quad_push {
    float rect[4]; // x0, y0, x1, y1 in normalized device coordinates
    float lod;
};

class image_sample {
public:
    explicit image_sample(const options &o)
        : opt(o), size(o.size), levels(level_count(o.size)), width(2 * o.size), height(o.size)
    {
    }

    int run()
    {
        init_window();
        init_vulkan();
        if (opt.cuda)
            init_cuda();
        else
            std::printf("texture: made by the CPU and uploaded by Vulkan (--texture host): no CUDA\n");
        main_loop();
        const bool ok = check_levels() & check_window();
        cleanup();
        if (!ok) {
            std::printf("%s: FAILED\n", PROGRAM);
            return 1;
        }
        std::printf("%s: %u frames, every level and the window as computed: PASSED\n", PROGRAM, opt.frames);
        return 0;
    }

private:
    const options opt;
    const uint32_t size, levels, width, height;

    // The window
    xcb_connection_t *conn = nullptr;
    xcb_screen_t *screen = nullptr;
    xcb_window_t window = 0;

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
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer commands[FRAMES_IN_FLIGHT] = {};
    VkImage texture = VK_NULL_HANDLE;
    VkDeviceMemory texture_memory = VK_NULL_HANDLE;
    VkDeviceSize texture_bytes = 0;
    VkImageView texture_view = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
    VkBuffer vertex_buffer = VK_NULL_HANDLE, index_buffer = VK_NULL_HANDLE;
    VkDeviceMemory vertex_memory = VK_NULL_HANDLE, index_memory = VK_NULL_HANDLE;
    VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
    VkDescriptorSet descriptor_set = VK_NULL_HANDLE;
    VkSemaphore image_available[FRAMES_IN_FLIGHT] = {}, render_finished[FRAMES_IN_FLIGHT] = {};
    VkFence in_flight[FRAMES_IN_FLIGHT] = {};
    // Exported to CUDA: Vulkan signals vk_done after drawing, CUDA signals cuda_done after writing.
    VkSemaphore vk_done = VK_NULL_HANDLE, cuda_done = VK_NULL_HANDLE;
    // The texels of every level, tightly packed, level 0 first: the host path's staging
    // buffers (one a frame in flight) and the read-back of the checks.
    VkDeviceSize level_bytes_total = 0;
    std::vector<VkDeviceSize> level_offsets;
    VkBuffer staging[FRAMES_IN_FLIGHT] = {}, readback = VK_NULL_HANDLE;
    VkDeviceMemory staging_memory[FRAMES_IN_FLIGHT] = {}, readback_memory = VK_NULL_HANDLE;
    void *staging_map[FRAMES_IN_FLIGHT] = {}, *readback_map = nullptr;

    // CUDA
    cudaStream_t stream = nullptr;
    cudaExternalMemory_t cuda_texture_memory = nullptr;
    cudaMipmappedArray_t cuda_chain = nullptr;
    std::vector<cudaSurfaceObject_t> level_surfaces;
    cudaTextureObject_t chain_texture = 0;
    cudaExternalSemaphore_t cuda_vk_done = nullptr, cuda_cuda_done = nullptr;

    // The content CUDA (or the host) made last: frame number of level 0's pattern.
    uint32_t made = 0;

    /* ---- The window ---- */

    void init_window()
    {
        const char *display = std::getenv("DISPLAY");
        if (!display || !*display)
            fail("no X display (DISPLAY is unset): run it in an X session or under Xvfb "
                 "(samples/CMakeLists.txt's test starts one)");
        int screen_number = 0;
        conn = xcb_connect(nullptr, &screen_number);
        if (xcb_connection_has_error(conn)) {
            std::fprintf(stderr, "%s: cannot connect to the X display \"%s\"\n", PROGRAM, display);
            std::exit(1);
        }
        xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(conn));
        for (int i = 0; i < screen_number && it.rem; ++i)
            xcb_screen_next(&it);
        screen = it.data;
        if (screen->width_in_pixels < width || screen->height_in_pixels < height) {
            std::fprintf(stderr, "%s: the screen (%ux%u) is smaller than the window (%ux%u)\n", PROGRAM,
                         screen->width_in_pixels, screen->height_in_pixels, width, height);
            std::exit(1);
        }
        window = xcb_generate_id(conn);
        const uint32_t mask = XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK;
        const uint32_t values[2] = {screen->black_pixel, XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_STRUCTURE_NOTIFY};
        xcb_create_window(conn, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, static_cast<uint16_t>(width),
                          static_cast<uint16_t>(height), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
                          mask, values);
        const char *title = "extmem: Vulkan image, CUDA mip levels";
        xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                            static_cast<uint32_t>(std::strlen(title)), title);
        xcb_map_window(conn, window);
        // The map is done once the server answers a later request: the window is then viewable
        // (no window manager under Xvfb to delay it; one that reparents may take longer).
        for (int tries = 0;; ++tries) {
            xcb_get_window_attributes_reply_t *a =
                xcb_get_window_attributes_reply(conn, xcb_get_window_attributes(conn, window), nullptr);
            const bool viewable = a && a->map_state == XCB_MAP_STATE_VIEWABLE;
            std::free(a);
            if (viewable)
                break;
            if (tries == 200)
                fail("the window did not become viewable in 2 seconds");
            usleep(10000);
        }
        std::printf("window: %ux%u on X display %s\n", width, height, display);
    }

    void poll_window_events()
    {
        while (xcb_generic_event_t *e = xcb_poll_for_event(conn))
            std::free(e); // nothing to do: a fixed number of frames, a window of a fixed size
    }

    /* ---- Vulkan ---- */

    void init_vulkan()
    {
        VK(volkInitialize());
        create_instance();
        create_surface();
        pick_physical_device();
        create_device();
        create_swapchain();
        create_render_pass();
        create_pipeline();
        create_framebuffers();
        create_command_pool();
        create_texture_image();
        create_texture_view_and_sampler();
        create_quad_buffers();
        create_descriptor_set();
        create_level_buffers();
        create_sync_objects();
    }

    void create_instance()
    {
        const char *extensions[] = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME};
        VkApplicationInfo app = {};
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
        app.pApplicationName = PROGRAM;
        app.apiVersion = VK_API_VERSION_1_1;
        VkInstanceCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
        info.pApplicationInfo = &app;
        info.enabledExtensionCount = 2;
        info.ppEnabledExtensionNames = extensions;
        VK(vkCreateInstance(&info, nullptr, &instance));
        volkLoadInstance(instance);
    }

    void create_surface()
    {
        auto create = reinterpret_cast<PFN_vkCreateXcbSurfaceKHR>(vkGetInstanceProcAddr(instance, "vkCreateXcbSurfaceKHR"));
        if (!create)
            fail("the Vulkan instance has no vkCreateXcbSurfaceKHR");
        VkXcbSurfaceCreateInfoKHR info = {};
        info.sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR;
        info.connection = conn;
        info.window = window;
        VK(create(instance, &info, nullptr, &surface));
    }

    static bool has_extension(VkPhysicalDevice pd, const char *name)
    {
        uint32_t n = 0;
        VK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr));
        std::vector<VkExtensionProperties> all(n);
        VK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, all.data()));
        for (const VkExtensionProperties &e : all)
            if (std::strcmp(e.extensionName, name) == 0)
                return true;
        return false;
    }

    /* The sample's order: Vulkan picks a device that can draw and present to the window; CUDA
     * then takes the device with the same UUID (set_cuda_device). */
    void pick_physical_device()
    {
        uint32_t n = 0;
        VK(vkEnumeratePhysicalDevices(instance, &n, nullptr));
        std::vector<VkPhysicalDevice> all(n);
        VK(vkEnumeratePhysicalDevices(instance, &n, all.data()));
        for (VkPhysicalDevice pd : all) {
            if (!has_extension(pd, VK_KHR_SWAPCHAIN_EXTENSION_NAME) ||
                !has_extension(pd, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME))
                continue;
            uint32_t nf = 0;
            vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, nullptr);
            std::vector<VkQueueFamilyProperties> families(nf);
            vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, families.data());
            for (uint32_t f = 0; f < nf && physical == VK_NULL_HANDLE; ++f) {
                VkBool32 present = VK_FALSE;
                VK(vkGetPhysicalDeviceSurfaceSupportKHR(pd, f, surface, &present));
                if ((families[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) && present) {
                    physical = pd;
                    family = f;
                }
            }
            if (physical != VK_NULL_HANDLE)
                break;
        }
        if (physical == VK_NULL_HANDLE)
            fail("no Vulkan device can draw to the window with external memory (is Mesa's lavapipe installed? "
                 "Debian: mesa-vulkan-drivers)");
        VkPhysicalDeviceIDProperties id = {};
        id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        VkPhysicalDeviceProperties2 p2 = {};
        p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        p2.pNext = &id;
        vkGetPhysicalDeviceProperties2(physical, &p2);
        std::memcpy(device_uuid, id.deviceUUID, VK_UUID_SIZE);
        std::printf("Vulkan device: \"%s\"\n", p2.properties.deviceName);
        if (opt.cuda && !has_extension(physical, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME)) {
            std::fflush(stdout);
            std::fprintf(stderr,
                         "%s: the Vulkan device \"%s\" lacks VK_KHR_external_semaphore_fd: it cannot export the "
                         "semaphores through which Vulkan and CUDA hand each other the image.\n"
                         "  Mesa's lavapipe has no exportable semaphores; extmem's Vulkan layer "
                         "VK_LAYER_EXTMEM_external_semaphore adds them. Run the program through extmem-run:\n"
                         "    extmem-run -- %s\n"
                         "  or enable the layer yourself (VK_ADD_LAYER_PATH=<build>/src/vk/layer "
                         "VK_INSTANCE_LAYERS=VK_LAYER_EXTMEM_external_semaphore).\n",
                         PROGRAM, p2.properties.deviceName, PROGRAM);
            std::exit(1);
        }
    }

    void create_device()
    {
        std::vector<const char *> extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME,
                                                VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME,
                                                VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
        if (opt.cuda) {
            extensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME);
            extensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
        }
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo qi = {};
        qi.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
        qi.queueFamilyIndex = family;
        qi.queueCount = 1;
        qi.pQueuePriorities = &priority;
        VkDeviceCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
        info.queueCreateInfoCount = 1;
        info.pQueueCreateInfos = &qi;
        info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
        info.ppEnabledExtensionNames = extensions.data();
        VK(vkCreateDevice(physical, &info, nullptr, &device));
        volkLoadDevice(device);
        vkGetDeviceQueue(device, family, 0, &queue);
    }

    void create_swapchain()
    {
        VkSurfaceCapabilitiesKHR caps;
        VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps));
        uint32_t n = 0;
        VK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &n, nullptr));
        std::vector<VkSurfaceFormatKHR> formats(n);
        VK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &n, formats.data()));
        // UNORM, not SRGB: the texels reach the window as they are.
        VkSurfaceFormatKHR chosen = {VK_FORMAT_UNDEFINED, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR};
        for (const VkSurfaceFormatKHR &f : formats)
            if ((f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) &&
                f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR && chosen.format == VK_FORMAT_UNDEFINED)
                chosen = f;
        if (chosen.format == VK_FORMAT_UNDEFINED)
            fail("the window's surface offers no B8G8R8A8_UNORM or R8G8B8A8_UNORM format");
        swapchain_format = chosen.format;
        if (caps.currentExtent.width != UINT32_MAX &&
            (caps.currentExtent.width != width || caps.currentExtent.height != height)) {
            std::fprintf(stderr, "%s: the surface is %ux%u, not the window's %ux%u\n", PROGRAM,
                         caps.currentExtent.width, caps.currentExtent.height, width, height);
            std::exit(1);
        }
        uint32_t count = caps.minImageCount + 1;
        if (caps.maxImageCount && count > caps.maxImageCount)
            count = caps.maxImageCount;
        VkSwapchainCreateInfoKHR info = {};
        info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
        info.surface = surface;
        info.minImageCount = count;
        info.imageFormat = chosen.format;
        info.imageColorSpace = chosen.colorSpace;
        info.imageExtent = {width, height};
        info.imageArrayLayers = 1;
        info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
        info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
        info.preTransform = caps.currentTransform;
        info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
        info.presentMode = VK_PRESENT_MODE_FIFO_KHR; // the one mode every driver has
        info.clipped = VK_FALSE;                      // the screenshot reads the window back
        VK(vkCreateSwapchainKHR(device, &info, nullptr, &swapchain));
        VK(vkGetSwapchainImagesKHR(device, swapchain, &n, nullptr));
        swapchain_images.resize(n);
        VK(vkGetSwapchainImagesKHR(device, swapchain, &n, swapchain_images.data()));
        swapchain_views.resize(n);
        for (uint32_t i = 0; i < n; ++i)
            swapchain_views[i] = create_view(swapchain_images[i], swapchain_format, 1);
    }

    VkImageView create_view(VkImage image, VkFormat format, uint32_t mip_levels)
    {
        VkImageViewCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
        info.image = image;
        info.viewType = VK_IMAGE_VIEW_TYPE_2D;
        info.format = format;
        info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, mip_levels, 0, 1};
        VkImageView view;
        VK(vkCreateImageView(device, &info, nullptr, &view));
        return view;
    }

    void create_render_pass()
    {
        VkAttachmentDescription color = {};
        color.format = swapchain_format;
        color.samples = VK_SAMPLE_COUNT_1_BIT;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        color.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkSubpassDescription subpass = {};
        subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        subpass.colorAttachmentCount = 1;
        subpass.pColorAttachments = &ref;
        // The swapchain image is ready once image_available is signalled (waited for at the
        // colour output stage).
        VkSubpassDependency dep = {};
        dep.srcSubpass = VK_SUBPASS_EXTERNAL;
        dep.dstSubpass = 0;
        dep.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        dep.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        dep.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        VkRenderPassCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
        info.attachmentCount = 1;
        info.pAttachments = &color;
        info.subpassCount = 1;
        info.pSubpasses = &subpass;
        info.dependencyCount = 1;
        info.pDependencies = &dep;
        VK(vkCreateRenderPass(device, &info, nullptr, &render_pass));
    }

    VkShaderModule create_shader(const uint32_t *code, size_t bytes)
    {
        VkShaderModuleCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
        info.codeSize = bytes;
        info.pCode = code;
        VkShaderModule m;
        VK(vkCreateShaderModule(device, &info, nullptr, &m));
        return m;
    }

    void create_pipeline()
    {
        VkDescriptorSetLayoutBinding binding = {};
        binding.binding = 0;
        binding.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        binding.descriptorCount = 1;
        binding.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
        VkDescriptorSetLayoutCreateInfo sli = {};
        sli.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
        sli.bindingCount = 1;
        sli.pBindings = &binding;
        VK(vkCreateDescriptorSetLayout(device, &sli, nullptr, &set_layout));
        VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(quad_push)};
        VkPipelineLayoutCreateInfo pli = {};
        pli.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
        pli.setLayoutCount = 1;
        pli.pSetLayouts = &set_layout;
        pli.pushConstantRangeCount = 1;
        pli.pPushConstantRanges = &push;
        VK(vkCreatePipelineLayout(device, &pli, nullptr, &pipeline_layout));

        VkShaderModule vert = create_shader(image_quad_vert_spv, sizeof(image_quad_vert_spv));
        VkShaderModule frag = create_shader(image_quad_frag_spv, sizeof(image_quad_frag_spv));
        VkPipelineShaderStageCreateInfo stages[2] = {};
        stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
        stages[0].module = vert;
        stages[0].pName = "main";
        stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
        stages[1].module = frag;
        stages[1].pName = "main";

        VkVertexInputBindingDescription vb = {0, sizeof(vertex), VK_VERTEX_INPUT_RATE_VERTEX};
        VkVertexInputAttributeDescription va[2] = {{0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(vertex, corner)},
                                                   {1, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(vertex, uv)}};
        VkPipelineVertexInputStateCreateInfo vi = {};
        vi.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
        vi.vertexBindingDescriptionCount = 1;
        vi.pVertexBindingDescriptions = &vb;
        vi.vertexAttributeDescriptionCount = 2;
        vi.pVertexAttributeDescriptions = va;
        VkPipelineInputAssemblyStateCreateInfo ia = {};
        ia.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
        ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        VkViewport viewport = {0, 0, static_cast<float>(width), static_cast<float>(height), 0, 1};
        VkRect2D scissor = {{0, 0}, {width, height}};
        VkPipelineViewportStateCreateInfo vp = {};
        vp.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
        vp.viewportCount = 1;
        vp.pViewports = &viewport;
        vp.scissorCount = 1;
        vp.pScissors = &scissor;
        VkPipelineRasterizationStateCreateInfo rs = {};
        rs.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
        rs.polygonMode = VK_POLYGON_MODE_FILL;
        rs.cullMode = VK_CULL_MODE_NONE;
        rs.frontFace = VK_FRONT_FACE_CLOCKWISE;
        rs.lineWidth = 1.0f;
        VkPipelineMultisampleStateCreateInfo ms = {};
        ms.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
        ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
        VkPipelineColorBlendAttachmentState blend = {};
        blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                               VK_COLOR_COMPONENT_A_BIT;
        VkPipelineColorBlendStateCreateInfo cb = {};
        cb.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
        cb.attachmentCount = 1;
        cb.pAttachments = &blend;
        VkGraphicsPipelineCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
        info.stageCount = 2;
        info.pStages = stages;
        info.pVertexInputState = &vi;
        info.pInputAssemblyState = &ia;
        info.pViewportState = &vp;
        info.pRasterizationState = &rs;
        info.pMultisampleState = &ms;
        info.pColorBlendState = &cb;
        info.layout = pipeline_layout;
        info.renderPass = render_pass;
        VK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
        vkDestroyShaderModule(device, vert, nullptr);
        vkDestroyShaderModule(device, frag, nullptr);
    }

    void create_framebuffers()
    {
        framebuffers.resize(swapchain_views.size());
        for (size_t i = 0; i < swapchain_views.size(); ++i) {
            VkFramebufferCreateInfo info = {};
            info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
            info.renderPass = render_pass;
            info.attachmentCount = 1;
            info.pAttachments = &swapchain_views[i];
            info.width = width;
            info.height = height;
            info.layers = 1;
            VK(vkCreateFramebuffer(device, &info, nullptr, &framebuffers[i]));
        }
    }

    void create_command_pool()
    {
        VkCommandPoolCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
        info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        info.queueFamilyIndex = family;
        VK(vkCreateCommandPool(device, &info, nullptr, &pool));
        VkCommandBufferAllocateInfo ai = {};
        ai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        ai.commandPool = pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = FRAMES_IN_FLIGHT;
        VK(vkAllocateCommandBuffers(device, &ai, commands));
    }

    uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags want)
    {
        VkPhysicalDeviceMemoryProperties mp;
        vkGetPhysicalDeviceMemoryProperties(physical, &mp);
        for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
            if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
                return i;
        fail("no Vulkan memory type fits");
    }

    /* The texture: S x S, RGBA8, every level, in memory exported as OPAQUE_FD for CUDA. */
    void create_texture_image()
    {
        VkExternalMemoryImageCreateInfo external = {};
        external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO;
        external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        VkImageCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
        info.pNext = &external;
        info.imageType = VK_IMAGE_TYPE_2D;
        info.format = VK_FORMAT_R8G8B8A8_UNORM;
        info.extent = {size, size, 1};
        info.mipLevels = levels;
        info.arrayLayers = 1;
        info.samples = VK_SAMPLE_COUNT_1_BIT;
        info.tiling = VK_IMAGE_TILING_OPTIMAL;
        info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                     VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        VK(vkCreateImage(device, &info, nullptr, &texture));
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(device, texture, &req);
        VkExportMemoryAllocateInfo export_info = {};
        export_info.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
        export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        VkMemoryAllocateInfo ai = {};
        ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        ai.pNext = &export_info;
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        VK(vkAllocateMemory(device, &ai, nullptr, &texture_memory));
        VK(vkBindImageMemory(device, texture, texture_memory, 0));
        texture_bytes = req.size;
        std::printf("texture: %ux%u R8G8B8A8_UNORM, %u mip levels, %" PRIu64 " bytes of exportable memory\n", size,
                    size, levels, static_cast<uint64_t>(texture_bytes));
        // Into the layout it is sampled in, which it keeps: CUDA's writes need no transition.
        VkCommandBuffer cmd = begin_once();
        barrier(cmd, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, 0, VK_ACCESS_SHADER_READ_BIT,
                VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
        end_once(cmd, VK_NULL_HANDLE);
    }

    void barrier(VkCommandBuffer cmd, VkImageLayout from, VkImageLayout to, VkAccessFlags src_access,
                 VkAccessFlags dst_access, VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage)
    {
        VkImageMemoryBarrier b = {};
        b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
        b.srcAccessMask = src_access;
        b.dstAccessMask = dst_access;
        b.oldLayout = from;
        b.newLayout = to;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = texture;
        b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
        vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &b);
    }

    /* One-time commands: recorded, submitted (waiting for wait, if any) and waited for. */
    VkCommandBuffer begin_once()
    {
        VkCommandBufferAllocateInfo ai = {};
        ai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        ai.commandPool = pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        VkCommandBuffer cmd;
        VK(vkAllocateCommandBuffers(device, &ai, &cmd));
        VkCommandBufferBeginInfo bi = {};
        bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VK(vkBeginCommandBuffer(cmd, &bi));
        return cmd;
    }

    void end_once(VkCommandBuffer cmd, VkSemaphore wait)
    {
        VK(vkEndCommandBuffer(cmd));
        const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
        VkSubmitInfo si = {};
        si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        si.waitSemaphoreCount = wait != VK_NULL_HANDLE ? 1 : 0;
        si.pWaitSemaphores = &wait;
        si.pWaitDstStageMask = &stage;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        VK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
        VK(vkQueueWaitIdle(queue));
        vkFreeCommandBuffers(device, pool, 1, &cmd);
    }

    void create_texture_view_and_sampler()
    {
        texture_view = create_view(texture, VK_FORMAT_R8G8B8A8_UNORM, levels);
        VkSamplerCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
        info.magFilter = info.minFilter = VK_FILTER_NEAREST;
        info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        info.maxLod = static_cast<float>(levels - 1);
        info.borderColor = VK_BORDER_COLOR_INT_OPAQUE_BLACK;
        VK(vkCreateSampler(device, &info, nullptr, &sampler));
    }

    void *create_host_buffer(VkDeviceSize bytes, VkBufferUsageFlags usage, VkBuffer *buffer, VkDeviceMemory *memory)
    {
        VkBufferCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = bytes;
        info.usage = usage;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        VK(vkCreateBuffer(device, &info, nullptr, buffer));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, *buffer, &req);
        VkMemoryAllocateInfo ai = {};
        ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        ai.allocationSize = req.size;
        ai.memoryTypeIndex =
            memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        VK(vkAllocateMemory(device, &ai, nullptr, memory));
        VK(vkBindBufferMemory(device, *buffer, *memory, 0));
        void *map = nullptr;
        VK(vkMapMemory(device, *memory, 0, VK_WHOLE_SIZE, 0, &map));
        return map;
    }

    void create_quad_buffers()
    {
        void *v = create_host_buffer(sizeof(QUAD_VERTICES), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertex_buffer,
                                     &vertex_memory);
        std::memcpy(v, QUAD_VERTICES, sizeof(QUAD_VERTICES));
        void *i =
            create_host_buffer(sizeof(QUAD_INDICES), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &index_buffer, &index_memory);
        std::memcpy(i, QUAD_INDICES, sizeof(QUAD_INDICES));
    }

    void create_descriptor_set()
    {
        VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
        VkDescriptorPoolCreateInfo pi = {};
        pi.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
        pi.maxSets = 1;
        pi.poolSizeCount = 1;
        pi.pPoolSizes = &ps;
        VK(vkCreateDescriptorPool(device, &pi, nullptr, &descriptor_pool));
        VkDescriptorSetAllocateInfo ai = {};
        ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
        ai.descriptorPool = descriptor_pool;
        ai.descriptorSetCount = 1;
        ai.pSetLayouts = &set_layout;
        VK(vkAllocateDescriptorSets(device, &ai, &descriptor_set));
        VkDescriptorImageInfo ii = {sampler, texture_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkWriteDescriptorSet w = {};
        w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w.dstSet = descriptor_set;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        w.pImageInfo = &ii;
        vkUpdateDescriptorSets(device, 1, &w, 0, nullptr);
    }

    void create_level_buffers()
    {
        level_offsets.resize(levels);
        for (uint32_t l = 0; l < levels; ++l) {
            level_offsets[l] = level_bytes_total;
            level_bytes_total += static_cast<VkDeviceSize>(size >> l) * (size >> l) * 4;
        }
        readback_map = create_host_buffer(level_bytes_total, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readback,
                                          &readback_memory);
        if (!opt.cuda)
            for (uint32_t f = 0; f < FRAMES_IN_FLIGHT; ++f)
                staging_map[f] = create_host_buffer(level_bytes_total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging[f],
                                                    &staging_memory[f]);
    }

    /* Per frame in flight: the swapchain's pair and a fence, as the sample has them. For CUDA,
     * two semaphores exported as OPAQUE_FD. */
    void create_sync_objects()
    {
        VkSemaphoreCreateInfo si = {};
        si.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
        VkFenceCreateInfo fi = {};
        fi.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
        fi.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        for (uint32_t f = 0; f < FRAMES_IN_FLIGHT; ++f) {
            VK(vkCreateSemaphore(device, &si, nullptr, &image_available[f]));
            VK(vkCreateSemaphore(device, &si, nullptr, &render_finished[f]));
            VK(vkCreateFence(device, &fi, nullptr, &in_flight[f]));
        }
        if (!opt.cuda)
            return;
        VkExportSemaphoreCreateInfo export_info = {};
        export_info.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
        export_info.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
        si.pNext = &export_info;
        VK(vkCreateSemaphore(device, &si, nullptr, &vk_done));
        VK(vkCreateSemaphore(device, &si, nullptr, &cuda_done));
    }

    /* ---- CUDA ---- */

    void init_cuda()
    {
        set_cuda_device();
        CUDA(cudaStreamCreate(&stream));
        import_texture();
        import_semaphores();
        // The first frame's image, made before the loop; the loop makes each next one after
        // Vulkan has drawn the current one.
        cuda_update(0, false);
        CUDA(cudaStreamSynchronize(stream));
    }

    void set_cuda_device()
    {
        int count = 0;
        CUDA(cudaGetDeviceCount(&count));
        for (int d = 0; d < count; ++d) {
            cudaDeviceProp prop;
            CUDA(cudaGetDeviceProperties(&prop, d));
            if (std::memcmp(prop.uuid.bytes, device_uuid, VK_UUID_SIZE) == 0) {
                CUDA(cudaSetDevice(d));
                std::printf("CUDA device %d: \"%s\", the Vulkan device's UUID\n", d, prop.name);
                return;
            }
        }
        fail("no CUDA device has the Vulkan device's UUID");
    }

    void import_texture()
    {
        int fd = -1;
        VkMemoryGetFdInfoKHR gi = {};
        gi.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
        gi.memory = texture_memory;
        gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        VK(vkGetMemoryFdKHR(device, &gi, &fd));
        cudaExternalMemoryHandleDesc md = {};
        md.type = cudaExternalMemoryHandleTypeOpaqueFd;
        md.handle.fd = fd; // CUDA owns it once the import succeeds
        md.size = texture_bytes;
        CUDA(cudaImportExternalMemory(&cuda_texture_memory, &md));

        // The image's geometry and format as CUDA sees it: four 8-bit unsigned channels, every
        // level. Surfaces need cudaArraySurfaceLoadStore (the runtime's documentation of
        // cudaCreateSurfaceObject), so it is set here.
        cudaExternalMemoryMipmappedArrayDesc ad = {};
        ad.offset = 0;
        ad.formatDesc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
        ad.extent = make_cudaExtent(size, size, 0);
        ad.flags = cudaArraySurfaceLoadStore;
        ad.numLevels = levels;
        CUDA(cudaExternalMemoryGetMappedMipmappedArray(&cuda_chain, cuda_texture_memory, &ad));

        for (uint32_t l = 0; l < levels; ++l) {
            cudaArray_t level;
            CUDA(cudaGetMipmappedArrayLevel(&level, cuda_chain, l));
            cudaResourceDesc rd = {};
            rd.resType = cudaResourceTypeArray;
            rd.res.array.array = level;
            cudaSurfaceObject_t s;
            CUDA(cudaCreateSurfaceObject(&s, &rd));
            level_surfaces.push_back(s);
        }
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = cuda_chain;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModePoint;
        td.mipmapFilterMode = cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        td.normalizedCoords = 1;
        td.minMipmapLevelClamp = 0;
        td.maxMipmapLevelClamp = static_cast<float>(levels - 1);
        CUDA(cudaCreateTextureObject(&chain_texture, &rd, &td, nullptr));
        std::printf("CUDA: imported the image's memory, mapped as a mipmapped array of %u levels, "
                    "a surface per level and a texture over the chain\n",
                    levels);
    }

    cudaExternalSemaphore_t import_semaphore(VkSemaphore s)
    {
        int fd = -1;
        VkSemaphoreGetFdInfoKHR gi = {};
        gi.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR;
        gi.semaphore = s;
        gi.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
        VK(vkGetSemaphoreFdKHR(device, &gi, &fd));
        cudaExternalSemaphoreHandleDesc sd = {};
        sd.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
        sd.handle.fd = fd;
        cudaExternalSemaphore_t out;
        CUDA(cudaImportExternalSemaphore(&out, &sd));
        return out;
    }

    void import_semaphores()
    {
        cuda_vk_done = import_semaphore(vk_done);
        cuda_cuda_done = import_semaphore(cuda_done);
        std::printf("CUDA: imported the two Vulkan semaphores\n");
    }

    /* CUDA's turn: (after Vulkan's signal) level 0 of frame k, then every level from the one
     * above it, then the signal Vulkan's next submission waits for. */
    void cuda_update(uint32_t k, bool handshake)
    {
        if (handshake) {
            cudaExternalSemaphoreWaitParams wp = {};
            CUDA(cudaWaitExternalSemaphoresAsync(&cuda_vk_done, &wp, 1, stream));
        }
        const dim3 block(16, 16);
        const dim3 grid0((size + 15) / 16, (size + 15) / 16);
        animate_level0<<<grid0, block, 0, stream>>>(level_surfaces[0], size, k);
        CUDA(cudaGetLastError());
        for (uint32_t l = 1; l < levels; ++l) {
            const uint32_t s = size >> l;
            const dim3 grid((s + 15) / 16, (s + 15) / 16);
            make_level<<<grid, block, 0, stream>>>(chain_texture, level_surfaces[l], s, l - 1);
            CUDA(cudaGetLastError());
        }
        if (handshake) {
            cudaExternalSemaphoreSignalParams sp = {};
            CUDA(cudaSignalExternalSemaphoresAsync(&cuda_cuda_done, &sp, 1, stream));
        }
        made = k;
    }

    /* ---- The render loop ---- */

    void record(VkCommandBuffer cmd, uint32_t image_index, uint32_t f)
    {
        VK(vkResetCommandBuffer(cmd, 0));
        VkCommandBufferBeginInfo bi = {};
        bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VK(vkBeginCommandBuffer(cmd, &bi));
        if (!opt.cuda) {
            // The host path: this frame's levels from the staging buffer.
            barrier(cmd, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VK_ACCESS_SHADER_READ_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                    VK_PIPELINE_STAGE_TRANSFER_BIT);
            std::vector<VkBufferImageCopy> regions(levels);
            for (uint32_t l = 0; l < levels; ++l) {
                regions[l] = {};
                regions[l].bufferOffset = level_offsets[l];
                regions[l].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
                regions[l].imageExtent = {size >> l, size >> l, 1};
            }
            vkCmdCopyBufferToImage(cmd, staging[f], texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, levels,
                                   regions.data());
            barrier(cmd, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                    VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
        }
        VkClearValue clear = {};
        clear.color.float32[3] = 1.0f; // opaque black
        VkRenderPassBeginInfo rp = {};
        rp.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
        rp.renderPass = render_pass;
        rp.framebuffer = framebuffers[image_index];
        rp.renderArea = {{0, 0}, {width, height}};
        rp.clearValueCount = 1;
        rp.pClearValues = &clear;
        vkCmdBeginRenderPass(cmd, &rp, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        const VkDeviceSize zero = 0;
        vkCmdBindVertexBuffers(cmd, 0, 1, &vertex_buffer, &zero);
        vkCmdBindIndexBuffer(cmd, index_buffer, 0, VK_INDEX_TYPE_UINT16);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_layout, 0, 1, &descriptor_set, 0,
                                nullptr);
        for (uint32_t l = 0; l < levels; ++l) {
            // Pixel-aligned: the window's sizes are powers of two, so these are exact.
            const float x0 = static_cast<float>(level_x(size, l)), s = static_cast<float>(size >> l);
            quad_push p = {{2 * x0 / width - 1, -1, 2 * (x0 + s) / width - 1, 2 * s / height - 1},
                           static_cast<float>(l)};
            vkCmdPushConstants(cmd, pipeline_layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                               sizeof(p), &p);
            vkCmdDrawIndexed(cmd, 6, 1, 0, 0, 0);
        }
        vkCmdEndRenderPass(cmd);
        VK(vkEndCommandBuffer(cmd));
    }

    /* Frame k shows level 0 of frame k and the levels made from it; CUDA makes frame k + 1's
     * once Vulkan has drawn this one (the sample's order: submit, present, CUDA's turn). */
    void draw_frame(uint32_t k)
    {
        const uint32_t f = k % FRAMES_IN_FLIGHT;
        VK(vkWaitForFences(device, 1, &in_flight[f], VK_TRUE, UINT64_MAX));
        uint32_t image_index = 0;
        VK(vkAcquireNextImageKHR(device, swapchain, UINT64_MAX, image_available[f], VK_NULL_HANDLE, &image_index));
        VK(vkResetFences(device, 1, &in_flight[f]));
        if (!opt.cuda) {
            // The fence says this staging buffer's last copy is done.
            const std::vector<std::vector<uint32_t>> lv = cpu_levels(size, k);
            for (uint32_t l = 0; l < levels; ++l)
                std::memcpy(static_cast<char *>(staging_map[f]) + level_offsets[l], lv[l].data(), lv[l].size() * 4);
            made = k;
        }
        record(commands[f], image_index, f);

        VkSemaphore waits[2] = {image_available[f], cuda_done};
        const VkPipelineStageFlags stages[2] = {VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                                VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT};
        VkSemaphore signals[2] = {render_finished[f], vk_done};
        VkSubmitInfo si = {};
        si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        // CUDA made frame 0's image before the loop, with the host waiting: the first
        // submission waits for no CUDA signal.
        si.waitSemaphoreCount = opt.cuda && k > 0 ? 2 : 1;
        si.pWaitSemaphores = waits;
        si.pWaitDstStageMask = stages;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &commands[f];
        si.signalSemaphoreCount = opt.cuda ? 2 : 1;
        si.pSignalSemaphores = signals;
        VK(vkQueueSubmit(queue, 1, &si, in_flight[f]));

        VkPresentInfoKHR pi = {};
        pi.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
        pi.waitSemaphoreCount = 1;
        pi.pWaitSemaphores = &render_finished[f];
        pi.swapchainCount = 1;
        pi.pSwapchains = &swapchain;
        pi.pImageIndices = &image_index;
        VK(vkQueuePresentKHR(queue, &pi));

        if (opt.cuda)
            cuda_update(k + 1, true);
    }

    void main_loop()
    {
        const double t0 = now_ms();
        for (uint32_t k = 0; k < opt.frames; ++k) {
            poll_window_events();
            draw_frame(k);
        }
        VK(vkDeviceWaitIdle(device));
        if (opt.cuda)
            CUDA(cudaStreamSynchronize(stream));
        const double ms = now_ms() - t0;
        std::printf("drew %u frames in %.0f ms (%.1f frames/s)\n", opt.frames, ms, ms > 0 ? opt.frames * 1e3 / ms : 0.0);
    }

    /* ---- The checks ---- */

    /* Every level as Vulkan reads it (a copy to a buffer, after CUDA's last signal) against
     * the CPU's filter: the image CUDA wrote is the one Vulkan has, texel for texel. */
    bool check_levels()
    {
        VkCommandBuffer cmd = begin_once();
        // CUDA's writes are ordered before the copy by the semaphore the submission waits for.
        barrier(cmd, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 0,
                VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
        std::vector<VkBufferImageCopy> regions(levels);
        for (uint32_t l = 0; l < levels; ++l) {
            regions[l] = {};
            regions[l].bufferOffset = level_offsets[l];
            regions[l].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
            regions[l].imageExtent = {size >> l, size >> l, 1};
        }
        vkCmdCopyImageToBuffer(cmd, texture, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, levels, regions.data());
        barrier(cmd, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                VK_ACCESS_TRANSFER_READ_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
        // CUDA's last turn signalled cuda_done with no frame after it to wait: this does.
        end_once(cmd, opt.cuda ? cuda_done : VK_NULL_HANDLE);

        const std::vector<std::vector<uint32_t>> want = cpu_levels(size, made);
        bool ok = true;
        for (uint32_t l = 0; l < levels; ++l) {
            const uint32_t *got = reinterpret_cast<const uint32_t *>(static_cast<char *>(readback_map) +
                                                                     level_offsets[l]);
            const uint32_t s = size >> l;
            uint32_t wrong = 0, first = 0;
            for (uint32_t i = 0; i < s * s; ++i)
                if (got[i] != want[l][i] && wrong++ == 0)
                    first = i;
            if (wrong) {
                std::printf("level %u (%ux%u): %u texels WRONG, the first at (%u, %u): 0x%08x, the CPU says 0x%08x\n",
                            l, s, s, wrong, first % s, first / s, got[first], want[l][first]);
                ok = false;
            }
        }
        std::printf("mip levels of frame %u made by %s, read back through Vulkan: %u levels, %s\n", made,
                    opt.cuda ? "CUDA (surface writes, texture reads)" : "the CPU", levels,
                    ok ? "every texel as the CPU computes it" : "FAILED");
        return ok;
    }

    /* The window, read back from the X server, as RGB. */
    bool grab_window(std::vector<uint8_t> &rgb)
    {
        xcb_get_image_reply_t *r = xcb_get_image_reply(
            conn,
            xcb_get_image(conn, XCB_IMAGE_FORMAT_Z_PIXMAP, window, 0, 0, static_cast<uint16_t>(width),
                          static_cast<uint16_t>(height), UINT32_MAX),
            nullptr);
        if (!r)
            return false;
        // The pixel layout from the screen's visual and the server's format for its depth.
        const xcb_setup_t *setup = xcb_get_setup(conn);
        uint32_t bpp = 0;
        for (xcb_format_iterator_t it = xcb_setup_pixmap_formats_iterator(setup); it.rem; xcb_format_next(&it))
            if (it.data->depth == r->depth)
                bpp = it.data->bits_per_pixel;
        xcb_visualtype_t *visual = nullptr;
        for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(screen); d.rem && !visual; xcb_depth_next(&d))
            for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v))
                if (v.data->visual_id == r->visual) {
                    visual = v.data;
                    break;
                }
        const uint8_t *data = xcb_get_image_data(r);
        const size_t bytes = static_cast<size_t>(xcb_get_image_data_length(r));
        const size_t row = static_cast<size_t>(width) * 4;
        if (bpp != 32 || !visual || bytes < row * height || setup->image_byte_order != XCB_IMAGE_ORDER_LSB_FIRST) {
            std::fprintf(stderr, "%s: the window's pixels are not 32-bit LSB-first TrueColor (depth %u, %u bits)\n",
                         PROGRAM, r->depth, bpp);
            std::free(r);
            return false;
        }
        auto shift_of = [](uint32_t mask) {
            uint32_t s = 0;
            while (mask && !(mask & 1))
                mask >>= 1, ++s;
            return s;
        };
        const uint32_t rs = shift_of(visual->red_mask), gs = shift_of(visual->green_mask),
                       bs = shift_of(visual->blue_mask);
        rgb.assign(static_cast<size_t>(width) * height * 3, 0);
        for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x) {
                uint32_t px;
                std::memcpy(&px, data + y * row + x * 4, 4);
                uint8_t *o = &rgb[(static_cast<size_t>(y) * width + x) * 3];
                o[0] = static_cast<uint8_t>(px >> rs);
                o[1] = static_cast<uint8_t>(px >> gs);
                o[2] = static_cast<uint8_t>(px >> bs);
            }
        std::free(r);
        return true;
    }

    /* The last frame presented shows frame (frames - 1)'s levels. A present may reach the X
     * server after vkQueuePresentKHR returns (the WSI's own thread puts the image), so the
     * window is read until it shows that frame, for up to 10 seconds; what it shows then is
     * the screenshot, right or wrong. */
    bool check_window()
    {
        const uint32_t last = opt.frames - 1;
        const std::vector<uint8_t> want = expected_window(size, cpu_levels(size, last));
        std::vector<uint8_t> got;
        const double t0 = now_ms();
        bool grabbed = false;
        while (!(grabbed = grab_window(got)) || got != want) {
            if (now_ms() - t0 > 10000)
                break;
            usleep(20000);
        }
        if (!grabbed) {
            std::printf("screenshot: the window could not be read back: FAILED\n");
            return false;
        }
        size_t wrong = 0, first = 0;
        for (size_t i = 0; i < want.size(); i += 3)
            if (std::memcmp(&got[i], &want[i], 3) != 0 && wrong++ == 0)
                first = i / 3;
        if (!opt.screenshot.empty()) {
            if (!write_ppm(opt.screenshot, width, height, got)) {
                std::printf("screenshot: cannot write %s: FAILED\n", opt.screenshot.c_str());
                return false;
            }
            std::printf("screenshot: %ux%u written to %s\n", width, height, opt.screenshot.c_str());
        }
        if (wrong) {
            std::printf("screenshot: %zu of %u pixels differ from frame %u's levels, the first at (%zu, %zu): "
                        "FAILED\n",
                        wrong, width * height, last, first % width, first / width);
            return false;
        }
        std::printf("screenshot: the window shows frame %u's %u levels, every pixel as the CPU computes it\n", last,
                    levels);
        return true;
    }

    /* ---- Cleanup, in the sample's order: CUDA's objects, then Vulkan's, then the window ---- */

    void cleanup()
    {
        if (opt.cuda) {
            for (cudaSurfaceObject_t s : level_surfaces)
                CUDA(cudaDestroySurfaceObject(s));
            CUDA(cudaDestroyTextureObject(chain_texture));
            CUDA(cudaFreeMipmappedArray(cuda_chain));
            CUDA(cudaDestroyExternalMemory(cuda_texture_memory));
            CUDA(cudaDestroyExternalSemaphore(cuda_vk_done));
            CUDA(cudaDestroyExternalSemaphore(cuda_cuda_done));
            CUDA(cudaStreamDestroy(stream));
            vkDestroySemaphore(device, vk_done, nullptr);
            vkDestroySemaphore(device, cuda_done, nullptr);
        }
        for (uint32_t f = 0; f < FRAMES_IN_FLIGHT; ++f) {
            vkDestroySemaphore(device, image_available[f], nullptr);
            vkDestroySemaphore(device, render_finished[f], nullptr);
            vkDestroyFence(device, in_flight[f], nullptr);
            if (staging[f]) {
                vkDestroyBuffer(device, staging[f], nullptr);
                vkFreeMemory(device, staging_memory[f], nullptr);
            }
        }
        vkDestroyBuffer(device, readback, nullptr);
        vkFreeMemory(device, readback_memory, nullptr);
        vkDestroyDescriptorPool(device, descriptor_pool, nullptr);
        vkDestroyBuffer(device, vertex_buffer, nullptr);
        vkFreeMemory(device, vertex_memory, nullptr);
        vkDestroyBuffer(device, index_buffer, nullptr);
        vkFreeMemory(device, index_memory, nullptr);
        vkDestroySampler(device, sampler, nullptr);
        vkDestroyImageView(device, texture_view, nullptr);
        vkDestroyImage(device, texture, nullptr);
        vkFreeMemory(device, texture_memory, nullptr);
        vkDestroyCommandPool(device, pool, nullptr);
        for (VkFramebuffer fb : framebuffers)
            vkDestroyFramebuffer(device, fb, nullptr);
        vkDestroyPipeline(device, pipeline, nullptr);
        vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
        vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
        vkDestroyRenderPass(device, render_pass, nullptr);
        for (VkImageView v : swapchain_views)
            vkDestroyImageView(device, v, nullptr);
        vkDestroySwapchainKHR(device, swapchain, nullptr);
        vkDestroyDevice(device, nullptr);
        vkDestroySurfaceKHR(instance, surface, nullptr);
        vkDestroyInstance(instance, nullptr);
        xcb_destroy_window(conn, window);
        xcb_disconnect(conn);
    }
};

} // namespace

int main(int argc, char **argv)
{
    const options o = parse_options(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    image_sample app(o);
    return app.run();
}
