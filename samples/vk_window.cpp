/*
 * vk_window.cpp: the window, the swapchain and the render loop's frame objects of extmem's
 * windowed Vulkan-CUDA samples (vk_window.h says what is here and what is not).
 */
#include "vk_window.h"

#include <poll.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace vkwin {

const char *program = "extmem-sample";

[[noreturn]] void failed_vk(const char *call, VkResult r)
{
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s failed: VkResult %d\n", program, call, static_cast<int>(r));
    std::exit(1);
}

[[noreturn]] void fail(const char *what)
{
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s\n", program, what);
    std::exit(1);
}

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

static sample_usage usage_text;

[[noreturn]] static void usage(int status)
{
    std::fprintf(status ? stderr : stdout,
                 "usage: %s [--frames N]%s [--screenshot FILE.ppm]\n"
                 "  --frames N       %s\n"
                 "%s"
                 "  --screenshot F   write the window, read back from the X server, to F (binary PPM)\n"
                 "It needs an X display (DISPLAY); run it through extmem-run, which enables extmem's Vulkan layer\n"
                 "(exportable semaphores and imports of CUDA's memory for lavapipe).\n",
                 program, usage_text.synopsis, usage_text.frames, usage_text.lines);
    std::exit(status);
}

void bad_option(const std::string &why)
{
    std::fprintf(stderr, "%s: %s\n", program, why.c_str());
    usage(2);
}

uint32_t number_option(const char *name, const char *text, uint32_t lo, uint32_t hi)
{
    char *end = nullptr;
    const unsigned long long v = text ? std::strtoull(text, &end, 10) : 0;
    if (!text || !*text || *end || text[0] == '-' || v < lo || v > hi)
        bad_option(std::string(name) + " wants a number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                   ", not \"" + (text ? text : "") + "\"");
    return static_cast<uint32_t>(v);
}

sample_options parse_sample_options(int argc, char **argv, const sample_usage &u, const own_option &own)
{
    usage_text = u;
    sample_options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : nullptr;
        int took = 0;
        if (a == "--help" || a == "-h")
            usage(0);
        else if (a == "--frames")
            o.frames = number_option("--frames", next, 1, 100000), took = 2;
        else if (a == "--screenshot") {
            if (!next || !*next)
                bad_option("--screenshot wants a file name");
            o.screenshot = next, took = 2;
        } else if (own)
            took = own(a, next);
        if (took == 0)
            bad_option("unknown argument \"" + a + "\"");
        i += took - 1;
    }
    return o;
}

int sample_main(int argc, char **argv, const char *name, const char *frames_help,
                const std::function<int(const sample_options &)> &run)
{
    program = name;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    sample_usage u;
    u.frames = frames_help;
    return run(parse_sample_options(argc, argv, u));
}

/* ---- The window ---- */

void window_app::create_window(const char *title)
{
    const char *display = std::getenv("DISPLAY");
    if (!display || !*display)
        fail("no X display (DISPLAY is unset): run it in an X session or under Xvfb "
             "(samples/CMakeLists.txt's test starts one)");
    int screen_number = 0;
    conn = xcb_connect(nullptr, &screen_number);
    if (xcb_connection_has_error(conn)) {
        std::fprintf(stderr, "%s: cannot connect to the X display \"%s\"\n", program, display);
        std::exit(1);
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(conn));
    for (int i = 0; i < screen_number && it.rem; ++i)
        xcb_screen_next(&it);
    screen = it.data;
    if (screen->width_in_pixels < width || screen->height_in_pixels < height) {
        std::fprintf(stderr, "%s: the screen (%ux%u) is smaller than the window (%ux%u)\n", program,
                     screen->width_in_pixels, screen->height_in_pixels, width, height);
        std::exit(1);
    }
    window = xcb_generate_id(conn);
    const uint32_t mask = XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK;
    const uint32_t values[2] = {screen->black_pixel, XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_STRUCTURE_NOTIFY};
    xcb_create_window(conn, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, static_cast<uint16_t>(width),
                      static_cast<uint16_t>(height), 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, mask,
                      values);
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

void window_app::poll_window_events()
{
    while (xcb_generic_event_t *e = xcb_poll_for_event(conn))
        std::free(e); // nothing to do: a fixed number of frames, a window of a fixed size
}

/* ---- Vulkan: instance, surface, device, swapchain ---- */

void window_app::open_window(const window_config &c)
{
    width = c.width;
    height = c.height;
    create_window(c.title);
    VK(volkInitialize());
    create_instance(c.api_version);
    create_surface();
    pick_physical_device(c.semaphore_fd);
    create_device(c);
    create_swapchain();
    create_render_pass();
    create_framebuffers();
    create_commands_and_sync();
}

void window_app::create_instance(uint32_t api_version)
{
    const char *extensions[] = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME};
    VkApplicationInfo app = {};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = program;
    app.apiVersion = api_version;
    VkInstanceCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = 2;
    info.ppEnabledExtensionNames = extensions;
    VK(vkCreateInstance(&info, nullptr, &instance));
    volkLoadInstance(instance);
}

void window_app::create_surface()
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

bool window_app::has_extension(VkPhysicalDevice pd, const char *name)
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

/* NVIDIA's samples' order: Vulkan picks a device that can draw and present to the window; CUDA
 * then takes the device with the same UUID (the program does, from device_uuid). */
void window_app::pick_physical_device(bool semaphore_fd)
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
    if (semaphore_fd && !has_extension(physical, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME)) {
        std::fflush(stdout);
        std::fprintf(stderr,
                     "%s: the Vulkan device \"%s\" lacks VK_KHR_external_semaphore_fd: it cannot export the "
                     "semaphores through which Vulkan and CUDA hand each other their work.\n"
                     "  Mesa's lavapipe has no exportable semaphores; extmem's Vulkan layer "
                     "VK_LAYER_EXTMEM_external_semaphore adds them. Run the program through extmem-run:\n"
                     "    extmem-run -- %s\n"
                     "  or enable the layer yourself (VK_ADD_LAYER_PATH=<build>/src/vk/layer "
                     "VK_INSTANCE_LAYERS=VK_LAYER_EXTMEM_external_semaphore).\n",
                     program, p2.properties.deviceName, program);
        std::exit(1);
    }
}

void window_app::create_device(const window_config &c)
{
    std::vector<const char *> extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME,
                                            VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
    if (c.semaphore_fd) {
        extensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME);
        extensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
    }
    extensions.insert(extensions.end(), c.device_extensions.begin(), c.device_extensions.end());
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {};
    qi.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qi.queueFamilyIndex = family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    VkDeviceCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.pNext = c.features_chain;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &qi;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    info.pEnabledFeatures = &c.features;
    VK(vkCreateDevice(physical, &info, nullptr, &device));
    volkLoadDevice(device);
    vkGetDeviceQueue(device, family, 0, &queue);
}

void window_app::create_swapchain()
{
    VkSurfaceCapabilitiesKHR caps;
    VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps));
    uint32_t n = 0;
    VK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &n, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(n);
    VK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &n, formats.data()));
    // UNORM, not SRGB: the colours reach the window as they are.
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
        std::fprintf(stderr, "%s: the surface is %ux%u, not the window's %ux%u\n", program, caps.currentExtent.width,
                     caps.currentExtent.height, width, height);
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

VkImageView window_app::create_view(VkImage image, VkFormat format, uint32_t mip_levels)
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

void window_app::create_render_pass()
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

void window_app::create_framebuffers()
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

/* Per frame in flight: a command buffer, the swapchain's pair of semaphores and a fence, as
 * NVIDIA's samples have them. */
void window_app::create_commands_and_sync()
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
}

/* ---- Helpers for the programs' objects ---- */

VkShaderModule window_app::create_shader(const uint32_t *code, size_t bytes)
{
    VkShaderModuleCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = bytes;
    info.pCode = code;
    VkShaderModule m;
    VK(vkCreateShaderModule(device, &info, nullptr, &m));
    return m;
}

void window_app::create_pipeline(pipeline_desc d, VkDescriptorSetLayout set, const VkPushConstantRange *push)
{
    VkPipelineLayoutCreateInfo li = {};
    li.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    li.setLayoutCount = set != VK_NULL_HANDLE ? 1 : 0;
    li.pSetLayouts = &set;
    li.pushConstantRangeCount = push ? 1 : 0;
    li.pPushConstantRanges = push;
    VK(vkCreatePipelineLayout(device, &li, nullptr, &pipeline_layout));
    d.layout = pipeline_layout;
    VkShaderModule vert = create_shader(d.vert, d.vert_bytes);
    VkShaderModule frag = create_shader(d.frag, d.frag_bytes);
    VkPipelineShaderStageCreateInfo stages[2] = {};
    stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vert;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = frag;
    stages[1].pName = "main";
    VkPipelineVertexInputStateCreateInfo vi = {};
    vi.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    vi.vertexBindingDescriptionCount = static_cast<uint32_t>(d.bindings.size());
    vi.pVertexBindingDescriptions = d.bindings.data();
    vi.vertexAttributeDescriptionCount = static_cast<uint32_t>(d.attributes.size());
    vi.pVertexAttributeDescriptions = d.attributes.data();
    VkPipelineInputAssemblyStateCreateInfo ia = {};
    ia.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    ia.topology = d.topology;
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
    blend.colorWriteMask =
        VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
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
    info.layout = d.layout;
    info.renderPass = render_pass;
    VK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
    vkDestroyShaderModule(device, vert, nullptr);
    vkDestroyShaderModule(device, frag, nullptr);
}

uint32_t window_app::memory_type(uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    fail("no Vulkan memory type fits");
}

VkDeviceMemory window_app::allocate_exportable(const VkMemoryRequirements &req)
{
    VkExportMemoryAllocateInfo export_info = {};
    export_info.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
    export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo ai = {};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.pNext = &export_info;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkDeviceMemory memory;
    VK(vkAllocateMemory(device, &ai, nullptr, &memory));
    return memory;
}

void *window_app::create_host_buffer(VkDeviceSize bytes, VkBufferUsageFlags usage, VkBuffer *buffer,
                                     VkDeviceMemory *memory)
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

VkSemaphore window_app::create_exported_semaphore(bool timeline)
{
    VkSemaphoreTypeCreateInfo type = {};
    type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    type.initialValue = 0;
    VkExportSemaphoreCreateInfo export_info = {};
    export_info.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
    export_info.pNext = timeline ? &type : nullptr;
    export_info.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkSemaphoreCreateInfo si = {};
    si.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    si.pNext = &export_info;
    VkSemaphore s;
    VK(vkCreateSemaphore(device, &si, nullptr, &s));
    return s;
}

void window_app::create_readback(VkDeviceSize bytes)
{
    readback_map = create_host_buffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readback, &readback_memory);
}

/* One-time commands: recorded, submitted (waiting for wait, if any) and waited for. */
VkCommandBuffer window_app::begin_once()
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

void window_app::end_once(VkCommandBuffer cmd, VkSemaphore wait)
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

/* ---- The frame loop ---- */

uint32_t window_app::acquire_frame(uint32_t f)
{
    VK(vkWaitForFences(device, 1, &in_flight[f], VK_TRUE, UINT64_MAX));
    uint32_t image_index = 0;
    VK(vkAcquireNextImageKHR(device, swapchain, UINT64_MAX, image_available[f], VK_NULL_HANDLE, &image_index));
    VK(vkResetFences(device, 1, &in_flight[f]));
    return image_index;
}

void window_app::render_loop(uint32_t frames, const std::function<void(uint32_t)> &draw,
                             const std::function<void()> &finish)
{
    const double t0 = now_ms();
    for (uint32_t k = 0; k < frames; ++k) {
        poll_window_events();
        draw(k);
    }
    VK(vkDeviceWaitIdle(device));
    finish();
    const double ms = now_ms() - t0;
    std::printf("drew %u frames in %.0f ms (%.1f frames/s)\n", frames, ms, ms > 0 ? frames * 1e3 / ms : 0.0);
}

void window_app::begin_commands(VkCommandBuffer cmd)
{
    VK(vkResetCommandBuffer(cmd, 0));
    VkCommandBufferBeginInfo bi = {};
    bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK(vkBeginCommandBuffer(cmd, &bi));
}

void window_app::end_render_pass(VkCommandBuffer cmd)
{
    vkCmdEndRenderPass(cmd);
    VK(vkEndCommandBuffer(cmd));
}

void window_app::begin_render_pass(VkCommandBuffer cmd, uint32_t image_index)
{
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
}

void window_app::submit_frame(uint32_t f, uint32_t image_index, const frame_submit &s)
{
    std::vector<VkSemaphore> waits = {image_available[f]};
    std::vector<VkPipelineStageFlags> stages = {VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT};
    std::vector<VkSemaphore> signals = {render_finished[f]};
    waits.insert(waits.end(), s.waits.begin(), s.waits.end());
    stages.insert(stages.end(), s.wait_stages.begin(), s.wait_stages.end());
    signals.insert(signals.end(), s.signals.begin(), s.signals.end());
    // A binary semaphore's value is ignored: 0 stands for the frame's own.
    std::vector<uint64_t> wait_values = {0}, signal_values = {0};
    wait_values.insert(wait_values.end(), s.wait_values.begin(), s.wait_values.end());
    signal_values.insert(signal_values.end(), s.signal_values.begin(), s.signal_values.end());
    VkTimelineSemaphoreSubmitInfo values = {};
    values.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
    values.waitSemaphoreValueCount = static_cast<uint32_t>(waits.size());
    values.pWaitSemaphoreValues = wait_values.data();
    values.signalSemaphoreValueCount = static_cast<uint32_t>(signals.size());
    values.pSignalSemaphoreValues = signal_values.data();
    const bool timeline = !s.wait_values.empty() || !s.signal_values.empty();
    if (timeline && (wait_values.size() != waits.size() || signal_values.size() != signals.size()))
        fail("submit_frame: a value is wanted for each of the program's semaphores, or none");
    VkSubmitInfo si = {};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.pNext = timeline ? &values : nullptr;
    si.waitSemaphoreCount = static_cast<uint32_t>(waits.size());
    si.pWaitSemaphores = waits.data();
    si.pWaitDstStageMask = stages.data();
    si.commandBufferCount = 1;
    si.pCommandBuffers = &commands[f];
    si.signalSemaphoreCount = static_cast<uint32_t>(signals.size());
    si.pSignalSemaphores = signals.data();
    VK(vkQueueSubmit(queue, 1, &si, in_flight[f]));

    VkPresentInfoKHR pi = {};
    pi.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &render_finished[f];
    pi.swapchainCount = 1;
    pi.pSwapchains = &swapchain;
    pi.pImageIndices = &image_index;
    VK(vkQueuePresentKHR(queue, &pi));
}

/* ---- The window read back ---- */

bool window_app::grab_window(std::vector<uint8_t> &rgb)
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
                     program, r->depth, bpp);
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

bool window_app::check_window(const std::vector<uint8_t> &want, const std::string &screenshot, const char *what)
{
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
    if (!screenshot.empty()) {
        if (!write_ppm(screenshot, width, height, got)) {
            std::printf("screenshot: cannot write %s: FAILED\n", screenshot.c_str());
            return false;
        }
        std::printf("screenshot: %ux%u written to %s\n", width, height, screenshot.c_str());
    }
    if (wrong) {
        std::printf("screenshot: %zu of %u pixels differ from %s, the first at (%zu, %zu): FAILED\n", wrong,
                    width * height, what, first % width, first / width);
        return false;
    }
    std::printf("screenshot: the window shows %s, every pixel as the CPU computes it\n", what);
    return true;
}

/* ---- Teardown: what open_window made, the window last ---- */

void window_app::close_window()
{
    vkDestroyBuffer(device, readback, nullptr);
    vkFreeMemory(device, readback_memory, nullptr);
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
    for (uint32_t f = 0; f < FRAMES_IN_FLIGHT; ++f) {
        vkDestroySemaphore(device, image_available[f], nullptr);
        vkDestroySemaphore(device, render_finished[f], nullptr);
        vkDestroyFence(device, in_flight[f], nullptr);
    }
    vkDestroyCommandPool(device, pool, nullptr);
    for (VkFramebuffer fb : framebuffers)
        vkDestroyFramebuffer(device, fb, nullptr);
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

} // namespace vkwin
