// window.cu: a windowed Vulkan-CUDA program. An X window (XCB) with a Vulkan swapchain; every
// frame a CUDA kernel paints the picture into a buffer of Vulkan memory it imported, and Vulkan
// copies that buffer into the swapchain image and presents it. One timeline semaphore, exported
// by Vulkan and imported by CUDA, orders the two. At the end the window is read back from the X
// server and compared with what the kernel should have painted.
//
// On a GitHub runner: `xvfb-run -a extmem-run -- ./window --screenshot window.ppm` (Xvfb is the X
// server; extmem-run gives lavapipe the exportable semaphores it lacks). On a machine with an
// NVIDIA GPU and a display, built with nvcc, the same code runs there.
#define VK_USE_PLATFORM_XCB_KHR
#include "common.h"

#include <cuda_runtime.h>
#include <vulkan/vulkan.h>
#include <xcb/xcb.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

constexpr unsigned W = 256, H = 192;

// Frame k's colour at (x, y), as 8-bit red, green, blue.
__host__ __device__ inline void paint(unsigned x, unsigned y, unsigned k, unsigned char rgb[3])
{
    const int dx = static_cast<int>(x) - static_cast<int>(W / 2), dy = static_cast<int>(y) - static_cast<int>(H / 2);
    const bool ring = (dx * dx + dy * dy + 64 * static_cast<int>(k)) / 512 % 2;
    rgb[0] = static_cast<unsigned char>(ring ? 255 : x);
    rgb[1] = static_cast<unsigned char>(y + 2 * k);
    rgb[2] = static_cast<unsigned char>(ring ? 64 : 255 - x);
}

// The kernel writes each pixel in the swapchain's byte order (bgra: B8G8R8A8, else R8G8B8A8).
__global__ void paint_frame(unsigned *pixels, unsigned k, bool bgra)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    unsigned char c[3];
    paint(x, y, k, c);
    pixels[y * W + x] =
        bgra ? (c[2] | c[1] << 8 | c[0] << 16 | 0xffu << 24) : (c[0] | c[1] << 8 | c[2] << 16 | 0xffu << 24);
}

int main(int argc, char **argv)
{
    unsigned frames = 30;
    std::string screenshot;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--frames") == 0)
            frames = static_cast<unsigned>(std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--screenshot") == 0)
            screenshot = argv[i + 1];
    }
    if (frames == 0) {
        std::fprintf(stderr, "usage: window [--frames N] [--screenshot FILE.ppm]\n");
        return 2;
    }

    // The window.
    xcb_connection_t *conn = xcb_connect(nullptr, nullptr);
    if (xcb_connection_has_error(conn)) {
        std::fprintf(stderr, "window: no X display (run it under xvfb-run)\n");
        return 1;
    }
    xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
    xcb_window_t window = xcb_generate_id(conn);
    xcb_create_window(conn, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, W, H, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      screen->root_visual, 0, nullptr);
    xcb_map_window(conn, window);
    xcb_flush(conn);

    // Vulkan 1.2 (timeline semaphores) with a surface on the window, on the CUDA device's twin.
    const char *instance_ext[] = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME};
    VkApplicationInfo app_info = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app_info.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo instance_info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance_info.pApplicationInfo = &app_info;
    instance_info.enabledExtensionCount = 2;
    instance_info.ppEnabledExtensionNames = instance_ext;
    VkInstance instance;
    CHECK_VK(vkCreateInstance(&instance_info, nullptr, &instance));
    VkXcbSurfaceCreateInfoKHR surface_info = {VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
    surface_info.connection = conn;
    surface_info.window = window;
    VkSurfaceKHR surface;
    CHECK_VK(vkCreateXcbSurfaceKHR(instance, &surface_info, nullptr, &surface));

    VkPhysicalDevice physical = cuda_vulkan_device(instance, "window");
    if (physical == VK_NULL_HANDLE)
        return 1;
    VkBool32 can_present = VK_FALSE;
    CHECK_VK(vkGetPhysicalDeviceSurfaceSupportKHR(physical, 0, surface, &can_present));
    if (!can_present) {
        std::fprintf(stderr, "window: the Vulkan device that is the CUDA device cannot present to the window\n");
        return 1;
    }
    const char *device_ext[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
                                VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline_feature = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
    timeline_feature.timelineSemaphore = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkDeviceCreateInfo device_info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &timeline_feature};
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    device_info.enabledExtensionCount = 3;
    device_info.ppEnabledExtensionNames = device_ext;
    VkDevice device;
    CHECK_VK(vkCreateDevice(physical, &device_info, nullptr, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, 0, 0, &queue);

    // The swapchain: images the copy writes (TRANSFER_DST), in a UNORM format.
    VkSurfaceCapabilitiesKHR caps;
    CHECK_VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps));
    uint32_t n = 0;
    CHECK_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &n, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(n);
    CHECK_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &n, formats.data()));
    VkFormat format = VK_FORMAT_UNDEFINED;
    for (const VkSurfaceFormatKHR &f : formats)
        if (format == VK_FORMAT_UNDEFINED &&
            (f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM))
            format = f.format;
    if (format == VK_FORMAT_UNDEFINED || !(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) {
        std::fprintf(stderr, "window: the surface takes no UNORM RGBA images written by copies\n");
        return 1;
    }
    VkSwapchainCreateInfoKHR swapchain_info = {VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    swapchain_info.surface = surface;
    swapchain_info.minImageCount = caps.minImageCount;
    swapchain_info.imageFormat = format;
    swapchain_info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    swapchain_info.imageExtent = {W, H};
    swapchain_info.imageArrayLayers = 1;
    swapchain_info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    swapchain_info.preTransform = caps.currentTransform;
    swapchain_info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    swapchain_info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
    VkSwapchainKHR swapchain;
    CHECK_VK(vkCreateSwapchainKHR(device, &swapchain_info, nullptr, &swapchain));
    CHECK_VK(vkGetSwapchainImagesKHR(device, swapchain, &n, nullptr));
    std::vector<VkImage> images(n);
    CHECK_VK(vkGetSwapchainImagesKHR(device, swapchain, &n, images.data()));

    // The pixels: a buffer of exportable memory that CUDA imports and paints.
    VkExternalMemoryBufferCreateInfo external_buffer = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external_buffer.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkBufferCreateInfo buffer_info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external_buffer};
    buffer_info.size = W * H * 4;
    buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    VkBuffer buffer;
    CHECK_VK(vkCreateBuffer(device, &buffer_info, nullptr, &buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, buffer, &req);
    VkExportMemoryAllocateInfo export_memory = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    export_memory.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo alloc_info = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &export_memory};
    alloc_info.allocationSize = req.size;
    alloc_info.memoryTypeIndex = static_cast<uint32_t>(__builtin_ctz(req.memoryTypeBits));
    VkDeviceMemory memory;
    CHECK_VK(vkAllocateMemory(device, &alloc_info, nullptr, &memory));
    CHECK_VK(vkBindBufferMemory(device, buffer, memory, 0));
    auto get_memory_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device, "vkGetMemoryFdKHR"));
    VkMemoryGetFdInfoKHR memory_fd_info = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
    memory_fd_info.memory = memory;
    memory_fd_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    CHECK_VK(get_memory_fd(device, &memory_fd_info, &fd));
    cudaExternalMemoryHandleDesc memory_desc = {};
    memory_desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
    memory_desc.handle.fd = fd; // CUDA's after a successful import
    memory_desc.size = req.size;
    cudaExternalMemory_t cuda_memory;
    CHECK_CUDA(cudaImportExternalMemory(&cuda_memory, &memory_desc));
    cudaExternalMemoryBufferDesc mapping = {};
    mapping.size = W * H * 4;
    void *pixels = nullptr;
    CHECK_CUDA(cudaExternalMemoryGetMappedBuffer(&pixels, cuda_memory, &mapping));

    // The timeline: CUDA signals 2k + 1 when frame k is painted, Vulkan 2k + 2 when it is copied.
    VkSemaphoreTypeCreateInfo timeline_type = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    timeline_type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkExportSemaphoreCreateInfo export_semaphore = {VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, &timeline_type};
    export_semaphore.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkSemaphoreCreateInfo semaphore_info = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &export_semaphore};
    VkSemaphore timeline;
    CHECK_VK(vkCreateSemaphore(device, &semaphore_info, nullptr, &timeline));
    auto get_semaphore_fd =
        reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(device, "vkGetSemaphoreFdKHR"));
    VkSemaphoreGetFdInfoKHR semaphore_fd_info = {VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
    semaphore_fd_info.semaphore = timeline;
    semaphore_fd_info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    CHECK_VK(get_semaphore_fd(device, &semaphore_fd_info, &fd));
    cudaExternalSemaphoreHandleDesc semaphore_desc = {};
    semaphore_desc.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
    semaphore_desc.handle.fd = fd;
    cudaExternalSemaphore_t cuda_timeline;
    CHECK_CUDA(cudaImportExternalSemaphore(&cuda_timeline, &semaphore_desc));
    semaphore_info.pNext = nullptr; // the swapchain's own: binary
    VkSemaphore acquired, copied;
    CHECK_VK(vkCreateSemaphore(device, &semaphore_info, nullptr, &acquired));
    CHECK_VK(vkCreateSemaphore(device, &semaphore_info, nullptr, &copied));

    VkCommandPool pool;
    VkCommandBuffer cmd = one_command_buffer(device, &pool);
    VkFenceCreateInfo fence_info = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence done;
    CHECK_VK(vkCreateFence(device, &fence_info, nullptr, &done));

    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));
    for (unsigned k = 0; k < frames; ++k) {
        // CUDA: after Vulkan's copy of frame k - 1, paint frame k.
        cudaExternalSemaphoreWaitParams wait = {};
        wait.params.fence.value = 2ull * k;
        CHECK_CUDA(cudaWaitExternalSemaphoresAsync(&cuda_timeline, &wait, 1, stream));
        paint_frame<<<dim3((W + 15) / 16, (H + 15) / 16), dim3(16, 16), 0, stream>>>(
            static_cast<unsigned *>(pixels), k, format == VK_FORMAT_B8G8R8A8_UNORM);
        CHECK_CUDA(cudaGetLastError());
        cudaExternalSemaphoreSignalParams signal = {};
        signal.params.fence.value = 2ull * k + 1;
        CHECK_CUDA(cudaSignalExternalSemaphoresAsync(&cuda_timeline, &signal, 1, stream));

        // Vulkan: once painted, copy it into the acquired image and present.
        uint32_t index = 0;
        CHECK_VK(vkAcquireNextImageKHR(device, swapchain, UINT64_MAX, acquired, VK_NULL_HANDLE, &index));
        VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        CHECK_VK(vkBeginCommandBuffer(cmd, &begin));
        VkImageMemoryBarrier to_copy = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        to_copy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        to_copy.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        to_copy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        to_copy.srcQueueFamilyIndex = to_copy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        to_copy.image = images[index];
        to_copy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &to_copy);
        VkBufferImageCopy region = {};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {W, H, 1};
        vkCmdCopyBufferToImage(cmd, buffer, images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        VkImageMemoryBarrier to_present = to_copy;
        to_present.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        to_present.dstAccessMask = 0;
        to_present.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        to_present.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &to_present);
        CHECK_VK(vkEndCommandBuffer(cmd));
        VkSemaphore waits[2] = {acquired, timeline}, signals[2] = {copied, timeline};
        const VkPipelineStageFlags stages[2] = {VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT};
        const uint64_t wait_values[2] = {0, 2ull * k + 1}, signal_values[2] = {0, 2ull * k + 2};
        VkTimelineSemaphoreSubmitInfo values = {VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
        values.waitSemaphoreValueCount = values.signalSemaphoreValueCount = 2;
        values.pWaitSemaphoreValues = wait_values;
        values.pSignalSemaphoreValues = signal_values;
        VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO, &values};
        submit.waitSemaphoreCount = 2;
        submit.pWaitSemaphores = waits;
        submit.pWaitDstStageMask = stages;
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        submit.signalSemaphoreCount = 2;
        submit.pSignalSemaphores = signals;
        CHECK_VK(vkQueueSubmit(queue, 1, &submit, done));
        VkPresentInfoKHR present = {VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
        present.waitSemaphoreCount = 1;
        present.pWaitSemaphores = &copied;
        present.swapchainCount = 1;
        present.pSwapchains = &swapchain;
        present.pImageIndices = &index;
        CHECK_VK(vkQueuePresentKHR(queue, &present));
        // One frame at a time: the command buffer and the semaphores are used again next frame.
        CHECK_VK(vkWaitForFences(device, 1, &done, VK_TRUE, UINT64_MAX));
        CHECK_VK(vkResetFences(device, 1, &done));
    }
    CHECK_VK(vkDeviceWaitIdle(device));
    CHECK_CUDA(cudaStreamSynchronize(stream));

    // The window, read back from the X server (a present may land a little after it returns).
    std::vector<unsigned char> got(W * H * 3), want(W * H * 3);
    for (unsigned y = 0; y < H; ++y)
        for (unsigned x = 0; x < W; ++x)
            paint(x, y, frames - 1, &want[(y * W + x) * 3]);
    for (int tries = 0; tries < 100 && got != want; ++tries) {
        xcb_get_image_reply_t *image = xcb_get_image_reply(
            conn, xcb_get_image(conn, XCB_IMAGE_FORMAT_Z_PIXMAP, window, 0, 0, W, H, ~0u), nullptr);
        if (image && xcb_get_image_data_length(image) >= static_cast<int>(W * H * 4)) {
            const unsigned char *p = xcb_get_image_data(image); // 32-bit TrueColor: B, G, R, X
            for (unsigned i = 0; i < W * H; ++i)
                got[i * 3] = p[i * 4 + 2], got[i * 3 + 1] = p[i * 4 + 1], got[i * 3 + 2] = p[i * 4];
        }
        std::free(image);
        if (got != want)
            usleep(50000);
    }
    unsigned wrong = 0;
    for (unsigned i = 0; i < W * H; ++i)
        wrong += std::memcmp(&got[i * 3], &want[i * 3], 3) != 0;
    if (!screenshot.empty()) {
        FILE *f = std::fopen(screenshot.c_str(), "wb");
        const bool written = f && std::fprintf(f, "P6\n%u %u\n255\n", W, H) > 0 &&
                             std::fwrite(got.data(), 1, got.size(), f) == got.size();
        if (!f || std::fclose(f) != 0 || !written) {
            std::fprintf(stderr, "window: cannot write %s\n", screenshot.c_str());
            return 1;
        }
    }
    std::printf("window: %u frames painted by CUDA into Vulkan memory, copied and presented; the window has %u of %u "
                "pixels wrong: %s\n",
                frames, wrong, W * H, wrong ? "FAILED" : "PASSED");

    CHECK_CUDA(cudaStreamDestroy(stream));
    CHECK_CUDA(cudaDestroyExternalSemaphore(cuda_timeline));
    CHECK_CUDA(cudaFree(pixels));
    CHECK_CUDA(cudaDestroyExternalMemory(cuda_memory));
    vkDestroyFence(device, done, nullptr);
    vkDestroyCommandPool(device, pool, nullptr);
    vkDestroySemaphore(device, copied, nullptr);
    vkDestroySemaphore(device, acquired, nullptr);
    vkDestroySemaphore(device, timeline, nullptr);
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
    vkDestroySwapchainKHR(device, swapchain, nullptr);
    vkDestroyDevice(device, nullptr);
    vkDestroySurfaceKHR(instance, surface, nullptr);
    vkDestroyInstance(instance, nullptr);
    xcb_destroy_window(conn, window);
    xcb_disconnect(conn);
    return wrong ? 1 : 0;
}
