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
 *
 * The window, the swapchain and the render loop's frame objects are what the windowed samples
 * share (vk_window.h); this file has the image's own parts.
 */
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// The window, the swapchain and the render loop's frame objects, and the CUDA device paired
// with the Vulkan device: what the windowed samples share (vk_window.h, vk_cuda.h).
#include "vk_cuda.h"
#include "vk_window.h"

#include "shaders/image_quad.frag.spv.h"
#include "shaders/image_quad.vert.spv.h"

namespace {

using namespace vkwin;

constexpr const char *PROGRAM = "extmem-vulkan-image";

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

/* ---- Options: the samples' own (--frames, --screenshot) and the image's ---- */

struct options : sample_options {
    uint32_t size = 128;
    bool cuda = true; // --texture cuda (default) or host
};

options parse_options(int argc, char **argv)
{
    options o;
    auto own = [&o](const std::string &a, const char *next) {
        if (a == "--size") {
            o.size = number_option("--size", next, 4, 1024);
            if (o.size & (o.size - 1))
                bad_option("--size " + std::to_string(o.size) + " is not a power of two");
            return 2;
        }
        if (a == "--texture") {
            const std::string v = next ? next : "";
            if (v != "cuda" && v != "host")
                bad_option("--texture wants cuda or host, not \"" + v + "\"");
            o.cuda = v == "cuda";
            return 2;
        }
        return 0;
    };
    sample_usage u;
    u.synopsis = " [--size S] [--texture cuda|host]";
    u.lines = "  --size S         the texture's width and height, a power of two from 4 to 1024 (default 128);\n"
              "                   the window is 2S x S\n"
              "  --texture cuda   CUDA animates the image and makes its mip levels (default)\n"
              "  --texture host   the CPU makes them and Vulkan uploads them: no CUDA at all\n";
    static_cast<sample_options &>(o) = parse_sample_options(argc, argv, u, own);
    return o;
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

class image_sample : private window_app {
public:
    explicit image_sample(const options &o) : opt(o), size(o.size), levels(level_count(o.size)) {}

    int run()
    {
        window_config c;
        c.title = "extmem: Vulkan image, CUDA mip levels";
        c.width = 2 * size;
        c.height = size;
        c.semaphore_fd = opt.cuda;
        open_window(c);
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
    const uint32_t size, levels;

    // Vulkan (the window, the device and the swapchain are window_app's)
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkImage texture = VK_NULL_HANDLE;
    VkDeviceMemory texture_memory = VK_NULL_HANDLE;
    VkDeviceSize texture_bytes = 0;
    VkImageView texture_view = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
    VkBuffer vertex_buffer = VK_NULL_HANDLE, index_buffer = VK_NULL_HANDLE;
    VkDeviceMemory vertex_memory = VK_NULL_HANDLE, index_memory = VK_NULL_HANDLE;
    VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
    VkDescriptorSet descriptor_set = VK_NULL_HANDLE;
    // Exported to CUDA: Vulkan signals vk_done after drawing, CUDA signals cuda_done after writing.
    VkSemaphore vk_done = VK_NULL_HANDLE, cuda_done = VK_NULL_HANDLE;
    // The texels of every level, tightly packed, level 0 first: the host path's staging
    // buffers (one a frame in flight) and the read-back of the checks.
    VkDeviceSize level_bytes_total = 0;
    std::vector<VkDeviceSize> level_offsets;
    VkBuffer staging[FRAMES_IN_FLIGHT] = {};
    VkDeviceMemory staging_memory[FRAMES_IN_FLIGHT] = {};
    void *staging_map[FRAMES_IN_FLIGHT] = {};

    // CUDA
    cudaStream_t stream = nullptr;
    cudaExternalMemory_t cuda_texture_memory = nullptr;
    cudaMipmappedArray_t cuda_chain = nullptr;
    std::vector<cudaSurfaceObject_t> level_surfaces;
    cudaTextureObject_t chain_texture = 0;
    cudaExternalSemaphore_t cuda_vk_done = nullptr, cuda_cuda_done = nullptr;

    // The content CUDA (or the host) made last: frame number of level 0's pattern.
    uint32_t made = 0;

    /* ---- Vulkan ---- */

    void init_vulkan()
    {
        create_quad_pipeline();
        create_texture_image();
        create_texture_view_and_sampler();
        create_quad_buffers();
        create_descriptor_set();
        create_level_buffers();
        create_sync_objects();
    }

    void create_quad_pipeline()
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
        pipeline_desc d;
        d.vert = image_quad_vert_spv;
        d.vert_bytes = sizeof(image_quad_vert_spv);
        d.frag = image_quad_frag_spv;
        d.frag_bytes = sizeof(image_quad_frag_spv);
        d.bindings = {{0, sizeof(vertex), VK_VERTEX_INPUT_RATE_VERTEX}};
        d.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(vertex, corner)},
                        {1, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(vertex, uv)}};
        d.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        create_pipeline(d, set_layout, &push);
    }

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
        texture_memory = allocate_exportable(req);
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
        create_readback(level_bytes_total);
        if (!opt.cuda)
            for (uint32_t f = 0; f < FRAMES_IN_FLIGHT; ++f)
                staging_map[f] = create_host_buffer(level_bytes_total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging[f],
                                                    &staging_memory[f]);
    }

    /* For CUDA, two binary semaphores exported as OPAQUE_FD (the frame's own are window_app's). */
    void create_sync_objects()
    {
        if (!opt.cuda)
            return;
        vk_done = create_exported_semaphore(false);
        cuda_done = create_exported_semaphore(false);
    }

    /* ---- CUDA ---- */

    void init_cuda()
    {
        set_cuda_device(device_uuid);
        CUDA(cudaStreamCreate(&stream));
        import_texture();
        import_semaphores();
        // The first frame's image, made before the loop; the loop makes each next one after
        // Vulkan has drawn the current one.
        cuda_update(0, false);
        CUDA(cudaStreamSynchronize(stream));
    }

    void import_texture()
    {
        cuda_texture_memory = import_memory(device, texture_memory, texture_bytes);

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

    void import_semaphores()
    {
        cuda_vk_done = import_semaphore(device, vk_done, false);
        cuda_cuda_done = import_semaphore(device, cuda_done, false);
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
        begin_commands(cmd);
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
        begin_render_pass(cmd, image_index);
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
        end_render_pass(cmd);
    }

    /* Frame k shows level 0 of frame k and the levels made from it; CUDA makes frame k + 1's
     * once Vulkan has drawn this one (the sample's order: submit, present, CUDA's turn). */
    void draw_frame(uint32_t k)
    {
        const uint32_t f = k % FRAMES_IN_FLIGHT;
        const uint32_t image_index = acquire_frame(f);
        if (!opt.cuda) {
            // The fence says this staging buffer's last copy is done.
            const std::vector<std::vector<uint32_t>> lv = cpu_levels(size, k);
            for (uint32_t l = 0; l < levels; ++l)
                std::memcpy(static_cast<char *>(staging_map[f]) + level_offsets[l], lv[l].data(), lv[l].size() * 4);
            made = k;
        }
        record(commands[f], image_index, f);

        frame_submit s;
        if (opt.cuda) {
            // CUDA made frame 0's image before the loop, with the host waiting: the first
            // submission waits for no CUDA signal.
            if (k > 0) {
                s.waits = {cuda_done};
                s.wait_stages = {VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT};
            }
            s.signals = {vk_done};
        }
        submit_frame(f, image_index, s);

        if (opt.cuda)
            cuda_update(k + 1, true);
    }

    void main_loop()
    {
        render_loop(opt.frames, [this](uint32_t k) { draw_frame(k); }, [this] {
            if (opt.cuda)
                CUDA(cudaStreamSynchronize(stream));
        });
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

    /* The last frame presented shows frame (frames - 1)'s levels; what the window shows is the
     * screenshot, right or wrong. */
    bool check_window()
    {
        const uint32_t last = opt.frames - 1;
        const std::string what = "frame " + std::to_string(last) + "'s " + std::to_string(levels) + " levels";
        return window_app::check_window(expected_window(size, cpu_levels(size, last)), opt.screenshot, what.c_str());
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
        for (uint32_t f = 0; f < FRAMES_IN_FLIGHT; ++f)
            if (staging[f]) {
                vkDestroyBuffer(device, staging[f], nullptr);
                vkFreeMemory(device, staging_memory[f], nullptr);
            }
        vkDestroyDescriptorPool(device, descriptor_pool, nullptr);
        vkDestroyBuffer(device, vertex_buffer, nullptr);
        vkFreeMemory(device, vertex_memory, nullptr);
        vkDestroyBuffer(device, index_buffer, nullptr);
        vkFreeMemory(device, index_memory, nullptr);
        vkDestroySampler(device, sampler, nullptr);
        vkDestroyImageView(device, texture_view, nullptr);
        vkDestroyImage(device, texture, nullptr);
        vkFreeMemory(device, texture_memory, nullptr);
        vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
        close_window();
    }
};

} // namespace

int main(int argc, char **argv)
{
    vkwin::program = PROGRAM;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    image_sample app(parse_options(argc, argv));
    return app.run();
}
