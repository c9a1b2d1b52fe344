/*
 * extmem-vulkan-heightfield: a windowed Vulkan-CUDA program written the way NVIDIA's simpleVulkan
 * sample (NVIDIA/cuda-samples) is: a window and a swapchain, a render loop that draws a height
 * field as a grid of points, and heights that CUDA computes every frame into Vulkan memory it
 * imported, without a copy.
 *
 * 1. The window is an X window made with XCB; Vulkan draws into it through a swapchain
 *    (vk_window.h, shared with the other windowed samples). On extmem the Vulkan device is Mesa's
 *    lavapipe, paired with the CUDA device by UUID; run it through extmem-run, which enables
 *    extmem's layer (lavapipe exports no semaphores itself).
 * 2. The heights are a vertex buffer of N x N floats in memory Vulkan allocates exportable
 *    (VkExportMemoryAllocateInfo, OPAQUE_FD). CUDA imports it (vkGetMemoryFdKHR,
 *    cudaImportExternalMemory) and maps it as a buffer (cudaExternalMemoryGetMappedBuffer).
 * 3. The two sides take turns through one timeline semaphore exported from Vulkan and imported
 *    by CUDA (cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd): CUDA signals 2k + 1 when
 *    frame k's heights are written; Vulkan's draw of frame k waits for that value and signals
 *    2k + 2, which CUDA's stream waits for before it writes frame k + 1 over them.
 * 4. The height of column x, row y in frame k is two sine waves crossing, 12 (sin(2 pi (2x + 3k)
 *    / 128) + sin(2 pi (3y + 2k) / 128)) / 32, rounded to whole 32nds. The sine is Bhaskara I's
 *    rational approximation in integers (within 0.002 of sin): the same bits from the kernel,
 *    on any compiler and any device, and on the CPU, so the checks and the picture are exact.
 *    The vertex shader (shaders/heightfield.vert) places each point in whole pixels.
 * 5. After the last frame the program checks its results: the heights of CUDA's last frame, read
 *    back through Vulkan (a copy to a host buffer), against the CPU's, bit for bit, and against
 *    the real sine within the approximation's bound; and the window itself, read back from the
 *    X server, against the picture the CPU paints from the same heights. With --screenshot it
 *    writes that screenshot as a PPM file (samples/CMakeLists.txt compares it with
 *    samples/vulkan_heightfield.ppm under Xvfb).
 *
 * Options: --frames N (60), --screenshot FILE.
 * Exits 0 when every check passes; at the first failure it says which call failed and exits 1.
 */
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "vk_cuda.h"
#include "vk_window.h"

#include "shaders/heightfield.frag.spv.h"
#include "shaders/heightfield.vert.spv.h"

namespace {

using namespace vkwin;

constexpr const char *PROGRAM = "extmem-vulkan-heightfield";

/* ---- The height field ---- */

constexpr int GRID = 128;              // vertices a side
constexpr int AMPLITUDE = 12;          // each wave's, in 32nds
constexpr int PERIOD = 128;            // a wave's period, in phase steps
constexpr uint32_t WIDTH = 448, HEIGHT = 320;
constexpr int X0 = 32, Y0 = 32;        // where the grid's first point lands (shaders/heightfield.vert)

/* AMPLITUDE * sin(2 pi p / PERIOD), rounded to a whole number, by Bhaskara I's approximation
 * sin(pi u) ~ 16 u (1 - u) / (5 - 4 u (1 - u)) over each half period, in integers. */
__host__ __device__ inline int wave(int p)
{
    p &= PERIOD - 1;
    const int half = PERIOD / 2;
    const int sign = p < half ? 1 : -1;
    const int t = p < half ? p : p - half;
    const int u = t * (half - t);
    const int num = 16 * u * AMPLITUDE, den = 5 * half * half - 4 * u;
    return sign * ((2 * num + den) / (2 * den)); // num >= 0: rounded half up
}

/* Column x, row y of frame k, in 32nds. */
__host__ __device__ inline int height_steps(int x, int y, uint32_t k)
{
    return wave(2 * x + 3 * static_cast<int>(k % PERIOD)) + wave(3 * y + 2 * static_cast<int>(k % PERIOD));
}

__host__ __device__ inline float height_of(int x, int y, uint32_t k)
{
    return static_cast<float>(height_steps(x, y, k)) * (1.0f / 32.0f); // exact: a power of two
}

std::vector<float> cpu_heights(uint32_t k)
{
    std::vector<float> h(GRID * GRID);
    for (int y = 0; y < GRID; ++y)
        for (int x = 0; x < GRID; ++x)
            h[y * GRID + x] = height_of(x, y, k);
    return h;
}

/* The window as frame k's points should make it: each point a 3x3 square of its colour, in the
 * order they are drawn (later rows, nearer the viewer, over earlier ones), black around. */
std::vector<uint8_t> expected_window(const std::vector<float> &heights)
{
    std::vector<uint8_t> rgb(static_cast<size_t>(WIDTH) * HEIGHT * 3, 0);
    for (int y = 0; y < GRID; ++y)
        for (int x = 0; x < GRID; ++x) {
            const int q = static_cast<int>(heights[y * GRID + x] * 32.0f);
            const int px = X0 + 2 * x + y, py = Y0 + 2 * y - q;
            const uint8_t c[3] = {static_cast<uint8_t>(128 + 5 * q), static_cast<uint8_t>(64 + y),
                                  static_cast<uint8_t>(128 - 5 * q)};
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int sx = px + dx, sy = py + dy;
                    if (sx >= 0 && sy >= 0 && sx < static_cast<int>(WIDTH) && sy < static_cast<int>(HEIGHT))
                        std::memcpy(&rgb[(static_cast<size_t>(sy) * WIDTH + sx) * 3], c, 3);
                }
        }
    return rgb;
}

struct grid_push {
    int32_t n, x0, y0, width, height;
};

} // namespace

/* ---- The CUDA kernel: frame k's heights into the buffer Vulkan draws from ---- */

__global__ void make_heights(float *heights, uint32_t k)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x < GRID && y < GRID)
        heights[y * GRID + x] = height_of(x, y, k);
}

namespace {

class heightfield_sample : private window_app {
public:
    explicit heightfield_sample(const sample_options &o) : opt(o) {}

    int run()
    {
        // Timeline semaphores are Vulkan 1.2's; the points are 3 pixels wide (largePoints).
        VkPhysicalDeviceTimelineSemaphoreFeatures timeline_features = {};
        timeline_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES;
        timeline_features.timelineSemaphore = VK_TRUE;
        window_config c;
        c.title = "extmem: height field, CUDA heights in Vulkan memory";
        c.width = WIDTH;
        c.height = HEIGHT;
        c.api_version = VK_API_VERSION_1_2;
        c.features.largePoints = VK_TRUE;
        c.features_chain = &timeline_features;
        open_window(c);
        init_vulkan();
        init_cuda();
        main_loop();
        const bool ok = check_heights() & check_window();
        cleanup();
        if (!ok) {
            std::printf("%s: FAILED\n", PROGRAM);
            return 1;
        }
        std::printf("%s: %u frames, the heights and the window as computed: PASSED\n", PROGRAM, opt.frames);
        return 0;
    }

private:
    const sample_options opt;

    // Vulkan (the window, the device and the swapchain are window_app's)
    VkBuffer heights = VK_NULL_HANDLE;
    VkDeviceMemory heights_memory = VK_NULL_HANDLE;
    VkDeviceSize heights_bytes = 0; // the allocation's size (at least the buffer's)
    VkSemaphore timeline = VK_NULL_HANDLE;

    // CUDA
    cudaStream_t stream = nullptr;
    cudaExternalMemory_t cuda_heights_memory = nullptr;
    float *cuda_heights = nullptr;
    cudaExternalSemaphore_t cuda_timeline = nullptr;

    // The frame whose heights CUDA wrote last.
    uint32_t made = 0;

    /* ---- Vulkan ---- */

    void init_vulkan()
    {
        const VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(grid_push)};
        pipeline_desc d;
        d.vert = heightfield_vert_spv;
        d.vert_bytes = sizeof(heightfield_vert_spv);
        d.frag = heightfield_frag_spv;
        d.frag_bytes = sizeof(heightfield_frag_spv);
        d.bindings = {{0, sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX}};
        d.attributes = {{0, 0, VK_FORMAT_R32_SFLOAT, 0}};
        d.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
        create_pipeline(d, VK_NULL_HANDLE, &push);
        create_heights_buffer();
        create_readback(GRID * GRID * sizeof(float));
        timeline = create_exported_semaphore(true);
    }

    /* The vertex buffer of heights, in memory exported as OPAQUE_FD for CUDA. */
    void create_heights_buffer()
    {
        VkExternalMemoryBufferCreateInfo external = {};
        external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
        external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        VkBufferCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.pNext = &external;
        info.size = GRID * GRID * sizeof(float);
        info.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        VK(vkCreateBuffer(device, &info, nullptr, &heights));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, heights, &req);
        heights_memory = allocate_exportable(req);
        VK(vkBindBufferMemory(device, heights, heights_memory, 0));
        heights_bytes = req.size;
        std::printf("heights: a %dx%d grid, %" PRIu64 " bytes of exportable Vulkan memory\n", GRID, GRID,
                    static_cast<uint64_t>(heights_bytes));
    }

    /* ---- CUDA ---- */

    void init_cuda()
    {
        set_cuda_device(device_uuid);
        CUDA(cudaStreamCreate(&stream));
        cuda_heights_memory = import_memory(device, heights_memory, heights_bytes);
        cudaExternalMemoryBufferDesc bd = {};
        bd.offset = 0;
        bd.size = GRID * GRID * sizeof(float);
        void *p = nullptr;
        CUDA(cudaExternalMemoryGetMappedBuffer(&p, cuda_heights_memory, &bd));
        cuda_heights = static_cast<float *>(p);
        cuda_timeline = import_semaphore(device, timeline, true);
        std::printf("CUDA: imported the height buffer's memory (mapped at %p) and the timeline semaphore\n", p);
        // Frame 0's heights, signalled as 1; the first draw waits for that.
        cuda_frame(0);
    }

    /* CUDA's turn for frame k: after Vulkan has drawn frame k - 1 (2k), the heights, then 2k + 1. */
    void cuda_frame(uint32_t k)
    {
        if (k > 0) {
            cudaExternalSemaphoreWaitParams wp = {};
            wp.params.fence.value = 2ull * k;
            CUDA(cudaWaitExternalSemaphoresAsync(&cuda_timeline, &wp, 1, stream));
        }
        const dim3 block(16, 16), grid((GRID + 15) / 16, (GRID + 15) / 16);
        make_heights<<<grid, block, 0, stream>>>(cuda_heights, k);
        CUDA(cudaGetLastError());
        cudaExternalSemaphoreSignalParams sp = {};
        sp.params.fence.value = 2ull * k + 1;
        CUDA(cudaSignalExternalSemaphoresAsync(&cuda_timeline, &sp, 1, stream));
        made = k;
    }

    /* ---- The render loop ---- */

    void record(VkCommandBuffer cmd, uint32_t image_index)
    {
        begin_commands(cmd);
        begin_render_pass(cmd, image_index);
        const VkDeviceSize zero = 0;
        vkCmdBindVertexBuffers(cmd, 0, 1, &heights, &zero);
        const grid_push p = {GRID, X0, Y0, static_cast<int32_t>(WIDTH), static_cast<int32_t>(HEIGHT)};
        vkCmdPushConstants(cmd, pipeline_layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(p), &p);
        vkCmdDraw(cmd, GRID * GRID, 1, 0, 0);
        end_render_pass(cmd);
    }

    /* Frame k: the draw waits for CUDA's heights of frame k (2k + 1) where vertices are read and
     * signals 2k + 2; CUDA's next turn is queued behind that signal. */
    void draw_frame(uint32_t k)
    {
        const uint32_t f = k % FRAMES_IN_FLIGHT;
        const uint32_t image_index = acquire_frame(f);
        record(commands[f], image_index);
        frame_submit s;
        s.waits = {timeline};
        s.wait_stages = {VK_PIPELINE_STAGE_VERTEX_INPUT_BIT};
        s.wait_values = {2ull * k + 1};
        s.signals = {timeline};
        s.signal_values = {2ull * k + 2};
        submit_frame(f, image_index, s);
        cuda_frame(k + 1);
    }

    void main_loop()
    {
        render_loop(
            opt.frames, [this](uint32_t k) { draw_frame(k); }, [this] { CUDA(cudaStreamSynchronize(stream)); });
    }

    /* ---- The checks ---- */

    /* The heights of CUDA's last frame as Vulkan reads them (a copy to a host buffer, once the
     * timeline says CUDA is done) against the CPU's, bit for bit, and against the real sine. */
    bool check_heights()
    {
        VkSemaphoreWaitInfo wi = {};
        wi.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO;
        wi.semaphoreCount = 1;
        wi.pSemaphores = &timeline;
        const uint64_t done = 2ull * made + 1;
        wi.pValues = &done;
        VK(vkWaitSemaphores(device, &wi, 10ull * 1000 * 1000 * 1000));
        VkCommandBuffer cmd = begin_once();
        const VkBufferCopy region = {0, 0, GRID * GRID * sizeof(float)};
        vkCmdCopyBuffer(cmd, heights, readback, 1, &region);
        end_once(cmd, VK_NULL_HANDLE);

        const std::vector<float> want = cpu_heights(made);
        const float *got = static_cast<const float *>(readback_map);
        const double two_pi = 6.283185307179586;
        uint32_t wrong = 0, first = 0, off_sine = 0;
        for (int i = 0; i < GRID * GRID; ++i) {
            if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0 && wrong++ == 0)
                first = static_cast<uint32_t>(i);
            // Bhaskara's error (0.0017 of the amplitude) and the rounding to 32nds, per wave.
            const int x = i % GRID, y = i / GRID, k = static_cast<int>(made % PERIOD);
            const double exact = AMPLITUDE / 32.0 * (std::sin(two_pi * (2 * x + 3 * k) / PERIOD) +
                                                     std::sin(two_pi * (3 * y + 2 * k) / PERIOD));
            if (std::fabs(static_cast<double>(got[i]) - exact) > 2 * (0.5 + 0.0017 * AMPLITUDE) / 32.0)
                ++off_sine;
        }
        if (wrong)
            std::printf("heights of frame %u: %u of %d WRONG, the first at (%u, %u): %.6f, the CPU says %.6f\n", made,
                        wrong, GRID * GRID, first % GRID, first / GRID, static_cast<double>(got[first]),
                        static_cast<double>(want[first]));
        if (off_sine)
            std::printf("heights of frame %u: %u of %d are off the sine waves: WRONG\n", made, off_sine, GRID * GRID);
        const bool ok = wrong == 0 && off_sine == 0;
        std::printf("heights of frame %u made by CUDA, read back through Vulkan: %d values, %s\n", made, GRID * GRID,
                    ok ? "every one as the CPU computes it, on the sine waves" : "FAILED");
        return ok;
    }

    bool check_window()
    {
        const uint32_t last = opt.frames - 1;
        const std::string what = "frame " + std::to_string(last) + "'s height field";
        return window_app::check_window(expected_window(cpu_heights(last)), opt.screenshot, what.c_str());
    }

    /* ---- Cleanup: CUDA's objects, then Vulkan's, then the window ---- */

    void cleanup()
    {
        // A buffer mapped from external memory is freed with cudaFree (the runtime's
        // documentation of cudaExternalMemoryGetMappedBuffer), before the memory is destroyed.
        CUDA(cudaFree(cuda_heights));
        CUDA(cudaDestroyExternalMemory(cuda_heights_memory));
        CUDA(cudaDestroyExternalSemaphore(cuda_timeline));
        CUDA(cudaStreamDestroy(stream));
        vkDestroySemaphore(device, timeline, nullptr);
        vkDestroyBuffer(device, heights, nullptr);
        vkFreeMemory(device, heights_memory, nullptr);
        close_window();
    }
};

} // namespace

int main(int argc, char **argv)
{
    return sample_main(argc, argv, PROGRAM, "frames drawn (default 60)",
                       [](const sample_options &o) { return heightfield_sample(o).run(); });
}
