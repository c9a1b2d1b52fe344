/*
 * extmem-vulkan-mmap-pi: a windowed Vulkan-CUDA program written the way NVIDIA's
 * simpleVulkanMMAP sample (NVIDIA/cuda-samples) is: a Monte-Carlo estimate of pi, computed by
 * CUDA in memory it made with the virtual memory management calls and drew by Vulkan from the
 * same pages, which Vulkan imported by file descriptor.
 *
 * 1. The window is an X window made with XCB; Vulkan draws into it through a swapchain
 *    (vk_window.h, shared with the other windowed samples). On extmem the Vulkan device is Mesa's
 *    lavapipe, paired with the CUDA device by UUID; run it through extmem-run, which enables
 *    extmem's layer: it gives lavapipe exportable semaphores and imports of CUDA's memory
 *    (docs/vulkan-import.md).
 * 2. The memory: cuMemCreate (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, rounded up to the
 *    allocation granularity), cuMemAddressReserve, cuMemMap and cuMemSetAccess give CUDA a
 *    pointer to it; cuMemExportToShareableHandle gives an fd, which Vulkan imports
 *    (VkImportMemoryFdInfoKHR, OPAQUE_FD) as the memory of a vertex buffer. A successful import
 *    makes the fd Vulkan's (VK_KHR_external_memory_fd); a failed one leaves it the program's,
 *    which closes it.
 * 3. Every frame a kernel scatters POINTS random points over the square [-1, 1]^2 (a counter-based
 *    hash of a fixed seed, the frame and the point: the same points on the CPU), writes each
 *    one's position and whether it is inside the unit circle into that memory, and counts the
 *    points inside (atomicAdd). Vulkan draws the points from the same memory: the position and
 *    the flag are the vertex attributes, inside and outside have two colours.
 * 4. Two binary semaphores exported from Vulkan and imported by CUDA hand the memory back and
 *    forth, as the sample does: Vulkan's submission signals one after drawing; CUDA's stream
 *    waits for it, writes the next frame's points and signals the other, which Vulkan's next
 *    submission waits for.
 * 5. After the last frame the program checks its results: CUDA's count for every frame against
 *    the CPU's count of the same points; pi = 4 inside / all within four standard deviations of
 *    the binomial estimate (4 sqrt(p (1 - p) / n), p = pi / 4) of pi; the last frame's points as
 *    Vulkan reads them (a copy from the imported memory to a host buffer) against the CPU's; and
 *    the window, read back from the X server, against the picture the CPU paints. With
 *    --screenshot it writes that screenshot as a PPM file (samples/CMakeLists.txt compares it
 *    with samples/vulkan_mmap_pi.ppm under Xvfb).
 *
 * Every point sits at a pixel's centre (its position is a whole pixel's, in normalized device
 * coordinates exact in binary) and is one pixel, later points over earlier ones: the picture is
 * the same on any rasterizer. Whether a point is inside is decided on its 16-bit coordinates, in
 * integers.
 *
 * Options: --frames N (60), --screenshot FILE.
 * Exits 0 when every check passes; at the first failure it says which call failed and exits 1.
 */
#include <cuda.h>

#include <unistd.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "vk_cuda.h"
#include "vk_window.h"

#include "shaders/mmap_pi.frag.spv.h"
#include "shaders/mmap_pi.vert.spv.h"

namespace {

using namespace vkwin;

constexpr const char *PROGRAM = "extmem-vulkan-mmap-pi";

/* ---- The points ---- */

constexpr uint32_t POINTS = 1u << 14; // a frame's
constexpr uint32_t SIZE = 256;        // the window's width and height, in pixels
constexpr uint32_t SEED = 0x2545f491u;

/* A 32-bit integer hash (xor-shift-multiply rounds): the random numbers of point i of frame k. */
__host__ __device__ inline uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

struct point {
    float x, y;  // the pixel's centre, in normalized device coordinates
    bool inside; // inside the unit circle, on the 16-bit coordinates
};

__host__ __device__ inline point make_point(uint32_t k, uint32_t i)
{
    const uint32_t n = (k * POINTS + i) * 2u + SEED;
    const uint32_t fx = mix32(n) >> 16, fy = mix32(n + 1) >> 16; // 0..65535 across [-1, 1]
    // The point (2 f + 1 - 65536) / 65536 on each axis; inside when x^2 + y^2 <= 1, in integers.
    const int64_t dx = 2 * static_cast<int64_t>(fx) + 1 - 65536, dy = 2 * static_cast<int64_t>(fy) + 1 - 65536;
    point p;
    p.inside = dx * dx + dy * dy <= 65536ll * 65536ll;
    // Pixel (fx >> 8, fy >> 8): its centre is (2 px + 1) / SIZE - 1, exact (SIZE is a power of two).
    p.x = static_cast<float>(2 * (fx >> 8) + 1) * (1.0f / SIZE) - 1.0f;
    p.y = static_cast<float>(2 * (fy >> 8) + 1) * (1.0f / SIZE) - 1.0f;
    return p;
}

uint32_t cpu_count(uint32_t k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < POINTS; ++i)
        n += make_point(k, i).inside;
    return n;
}

/* The window as frame k's points make it: one pixel each, in order, black around. */
std::vector<uint8_t> expected_window(uint32_t k)
{
    static const uint8_t inside[3] = {255, 176, 32}, outside[3] = {48, 96, 224}; // shaders/mmap_pi.frag
    std::vector<uint8_t> rgb(static_cast<size_t>(SIZE) * SIZE * 3, 0);
    for (uint32_t i = 0; i < POINTS; ++i) {
        const uint32_t n = (k * POINTS + i) * 2u + SEED;
        const uint32_t px = (mix32(n) >> 16) >> 8, py = (mix32(n + 1) >> 16) >> 8;
        std::memcpy(&rgb[(static_cast<size_t>(py) * SIZE + px) * 3], make_point(k, i).inside ? inside : outside, 3);
    }
    return rgb;
}

/* ---- The driver API's calls are checked as the runtime's are ---- */

[[noreturn]] void failed_cu(const char *call, CUresult r)
{
    const char *name = nullptr, *text = nullptr;
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &text);
    std::fflush(stdout);
#ifdef VK_SAMPLE_ON_EXTMEM
    std::fprintf(stderr, "%s: %s failed: %s (%s)\n  why: %s\n", PROGRAM, call, name ? name : "?", text ? text : "?",
                 extmem_error_detail());
#else
    std::fprintf(stderr, "%s: %s failed: %s (%s)\n", PROGRAM, call, name ? name : "?", text ? text : "?");
#endif
    std::exit(1);
}

#define CU(call)                                                                                                 \
    do {                                                                                                         \
        CUresult cu_r_ = (call);                                                                                 \
        if (cu_r_ != CUDA_SUCCESS)                                                                               \
            failed_cu(#call, cu_r_);                                                                             \
    } while (0)

} // namespace

/* ---- The CUDA kernel: frame k's points, into the VMM memory Vulkan draws from ---- */

__global__ void scatter_points(float *positions, float *inside, unsigned int *count, uint32_t k)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= POINTS)
        return;
    const point p = make_point(k, i);
    positions[2 * i] = p.x;
    positions[2 * i + 1] = p.y;
    inside[i] = p.inside ? 1.0f : 0.0f;
    if (p.inside)
        atomicAdd(count, 1u);
}

namespace {

class mmap_pi_sample : private window_app {
public:
    explicit mmap_pi_sample(const sample_options &o) : opt(o) {}

    int run()
    {
        window_config c;
        c.title = "extmem: Monte-Carlo pi, CUDA VMM memory drawn by Vulkan";
        c.width = SIZE;
        c.height = SIZE;
        open_window(c);
        init_vulkan();
        init_cuda();
        import_into_vulkan();
        // Frame 0's points, made before the loop with the host waiting; the loop makes each
        // next frame's once Vulkan has drawn the current one.
        cuda_frame(0, false);
        CUDA(cudaStreamSynchronize(stream));
        main_loop();
        const bool ok = check_counts() & check_points() & check_window();
        cleanup();
        if (!ok) {
            std::printf("%s: FAILED\n", PROGRAM);
            return 1;
        }
        std::printf("%s: %u frames, the estimate, the points and the window as computed: PASSED\n", PROGRAM,
                    opt.frames);
        return 0;
    }

private:
    const sample_options opt;
    // The memory's layout: POINTS positions (two floats), then POINTS flags (a float each).
    static constexpr size_t POSITIONS_BYTES = POINTS * 2 * sizeof(float);
    static constexpr size_t DATA_BYTES = POSITIONS_BYTES + POINTS * sizeof(float);

    // Vulkan (the window, the device and the swapchain are window_app's)
    VkBuffer points = VK_NULL_HANDLE;
    VkDeviceMemory points_memory = VK_NULL_HANDLE; // CUDA's, imported
    // Exported to CUDA: Vulkan signals vk_done after drawing, CUDA signals cuda_done after writing.
    VkSemaphore vk_done = VK_NULL_HANDLE, cuda_done = VK_NULL_HANDLE;

    // CUDA
    cudaStream_t stream = nullptr;
    CUmemGenericAllocationHandle allocation = 0;
    CUdeviceptr base = 0;
    size_t allocation_bytes = 0;
    unsigned int *counts = nullptr; // inside-the-circle counts, one a frame (cudaMalloc)
    cudaExternalSemaphore_t cuda_vk_done = nullptr, cuda_cuda_done = nullptr;

    // The last frame CUDA made.
    uint32_t made = 0;

    /* ---- Vulkan ---- */

    void init_vulkan()
    {
        pipeline_desc d;
        d.vert = mmap_pi_vert_spv;
        d.vert_bytes = sizeof(mmap_pi_vert_spv);
        d.frag = mmap_pi_frag_spv;
        d.frag_bytes = sizeof(mmap_pi_frag_spv);
        // Two bindings over the one buffer (offsets at vkCmdBindVertexBuffers).
        d.bindings = {{0, 2 * sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX},
                      {1, sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX}};
        d.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}, {1, 1, VK_FORMAT_R32_SFLOAT, 0}};
        d.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
        create_pipeline(d, VK_NULL_HANDLE, nullptr);
        create_readback(DATA_BYTES);
        vk_done = create_exported_semaphore(false);
        cuda_done = create_exported_semaphore(false);
    }

    /* ---- CUDA: the VMM allocation, the semaphores ---- */

    void init_cuda()
    {
        const int dev = set_cuda_device(device_uuid);
        CUDA(cudaStreamCreate(&stream));
        CUDA(cudaMalloc(&counts, (opt.frames + 1) * sizeof(unsigned int)));
        CUDA(cudaMemsetAsync(counts, 0, (opt.frames + 1) * sizeof(unsigned int), stream));

        CUmemAllocationProp prop = {};
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.location.id = dev;
        prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
        size_t granularity = 0;
        CU(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
        allocation_bytes = (DATA_BYTES + granularity - 1) / granularity * granularity;
        CU(cuMemCreate(&allocation, allocation_bytes, &prop, 0));
        CU(cuMemAddressReserve(&base, allocation_bytes, granularity, 0, 0));
        CU(cuMemMap(base, allocation_bytes, 0, allocation, 0));
        CUmemAccessDesc access = {};
        access.location = prop.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        CU(cuMemSetAccess(base, allocation_bytes, &access, 1));
        std::printf("CUDA: %zu bytes made with cuMemCreate (POSIX fd), mapped at 0x%llx\n", allocation_bytes,
                    static_cast<unsigned long long>(base));
        cuda_vk_done = import_semaphore(device, vk_done, false);
        cuda_cuda_done = import_semaphore(device, cuda_done, false);
    }

    /* The allocation, exported as an fd, becomes the memory of Vulkan's vertex buffer. */
    void import_into_vulkan()
    {
        VkExternalMemoryBufferCreateInfo external = {};
        external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
        external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        VkBufferCreateInfo info = {};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.pNext = &external;
        info.size = DATA_BYTES;
        info.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        VK(vkCreateBuffer(device, &info, nullptr, &points));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, points, &req);
        if (req.size > allocation_bytes)
            fail("the vertex buffer needs more memory than CUDA's allocation has");

        int fd = -1;
        CU(cuMemExportToShareableHandle(&fd, allocation, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
        VkImportMemoryFdInfoKHR import_info = {};
        import_info.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR;
        import_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
        import_info.fd = fd;
        VkMemoryAllocateInfo ai = {};
        ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        ai.pNext = &import_info;
        ai.allocationSize = allocation_bytes;
        ai.memoryTypeIndex = memory_type(req.memoryTypeBits, 0);
        const VkResult r = vkAllocateMemory(device, &ai, nullptr, &points_memory);
        if (r != VK_SUCCESS) {
            close(fd); // still the program's: only a successful import takes it
            if (r == VK_ERROR_INVALID_EXTERNAL_HANDLE)
                std::fprintf(stderr, "%s: Vulkan refused CUDA's fd; lavapipe imports it only through extmem's layer: "
                                     "run the program through extmem-run\n",
                             PROGRAM);
            failed_vk("vkAllocateMemory(VkImportMemoryFdInfoKHR: cuMemExportToShareableHandle's fd)", r);
        }
        VK(vkBindBufferMemory(device, points, points_memory, 0));
        std::printf("Vulkan: imported CUDA's allocation by fd (VkImportMemoryFdInfoKHR, OPAQUE_FD) as a vertex "
                    "buffer\n");
    }

    float *cuda_positions() const { return reinterpret_cast<float *>(base); }
    float *cuda_flags() const { return reinterpret_cast<float *>(base + POSITIONS_BYTES); }

    /* CUDA's turn: (after Vulkan's signal) frame k's points, then the signal Vulkan waits for. */
    void cuda_frame(uint32_t k, bool handshake)
    {
        if (handshake) {
            cudaExternalSemaphoreWaitParams wp = {};
            CUDA(cudaWaitExternalSemaphoresAsync(&cuda_vk_done, &wp, 1, stream));
        }
        scatter_points<<<(POINTS + 255) / 256, 256, 0, stream>>>(cuda_positions(), cuda_flags(), counts + k, k);
        CUDA(cudaGetLastError());
        if (handshake) {
            cudaExternalSemaphoreSignalParams sp = {};
            CUDA(cudaSignalExternalSemaphoresAsync(&cuda_cuda_done, &sp, 1, stream));
        }
        made = k;
    }

    /* ---- The render loop ---- */

    void record(VkCommandBuffer cmd, uint32_t image_index)
    {
        begin_commands(cmd);
        begin_render_pass(cmd, image_index);
        const VkBuffer buffers[2] = {points, points};
        const VkDeviceSize offsets[2] = {0, POSITIONS_BYTES};
        vkCmdBindVertexBuffers(cmd, 0, 2, buffers, offsets);
        vkCmdDraw(cmd, POINTS, 1, 0, 0);
        end_render_pass(cmd);
    }

    void draw_frame(uint32_t k)
    {
        const uint32_t f = k % FRAMES_IN_FLIGHT;
        const uint32_t image_index = acquire_frame(f);
        record(commands[f], image_index);
        frame_submit s;
        if (k > 0) { // frame 0's points were made before the loop, with the host waiting
            s.waits = {cuda_done};
            s.wait_stages = {VK_PIPELINE_STAGE_VERTEX_INPUT_BIT};
        }
        s.signals = {vk_done};
        submit_frame(f, image_index, s);
        cuda_frame(k + 1, true);
    }

    void main_loop()
    {
        render_loop(
            opt.frames, [this](uint32_t k) { draw_frame(k); }, [this] { CUDA(cudaStreamSynchronize(stream)); });
    }

    /* ---- The checks ---- */

    /* CUDA's counts against the CPU's, frame by frame, and the estimate against pi. */
    bool check_counts()
    {
        std::vector<unsigned int> got(made + 1);
        CUDA(cudaMemcpy(got.data(), counts, got.size() * sizeof(unsigned int), cudaMemcpyDeviceToHost));
        uint64_t inside = 0, wrong = 0;
        for (uint32_t k = 0; k <= made; ++k) {
            const uint32_t want = cpu_count(k);
            if (got[k] != want && wrong++ == 0)
                std::printf("frame %u: CUDA counted %u points inside the circle, the CPU %u: WRONG\n", k, got[k], want);
            inside += got[k];
        }
        const double n = static_cast<double>(made + 1) * POINTS, pi = 3.14159265358979323846;
        const double estimate = 4.0 * static_cast<double>(inside) / n;
        const double sigma = 4.0 * std::sqrt(pi / 4 * (1 - pi / 4) / n);
        const bool close = std::fabs(estimate - pi) <= 4 * sigma;
        std::printf("pi ~ %.6f from %.0f points (%" PRIu64 " inside), off by %.6f, %s 4 sigma = %.6f; "
                    "CUDA's counts %s\n",
                    estimate, n, inside, std::fabs(estimate - pi), close ? "within" : "WRONG: beyond", 4 * sigma,
                    wrong ? "differ from the CPU's: FAILED" : "equal the CPU's for every frame");
        return close && wrong == 0;
    }

    /* The last frame's points as Vulkan reads them from CUDA's memory against the CPU's. */
    bool check_points()
    {
        VkCommandBuffer cmd = begin_once();
        const VkBufferCopy region = {0, 0, DATA_BYTES};
        vkCmdCopyBuffer(cmd, points, readback, 1, &region);
        // CUDA's last turn signalled cuda_done with no frame after it to wait: this does.
        end_once(cmd, cuda_done);
        const float *pos = static_cast<const float *>(readback_map);
        const float *flag = pos + 2 * POINTS;
        uint32_t wrong = 0, first = 0;
        for (uint32_t i = 0; i < POINTS; ++i) {
            const point p = make_point(made, i);
            const float want[3] = {p.x, p.y, p.inside ? 1.0f : 0.0f}, have[3] = {pos[2 * i], pos[2 * i + 1], flag[i]};
            if (std::memcmp(want, have, sizeof(want)) != 0 && wrong++ == 0)
                first = i;
        }
        if (wrong)
            std::printf("points of frame %u: %u of %u WRONG, the first (%u): (%g, %g, %g)\n", made, wrong, POINTS,
                        first,
                        static_cast<double>(pos[2 * first]), static_cast<double>(pos[2 * first + 1]),
                        static_cast<double>(flag[first]));
        std::printf("points of frame %u made by CUDA, read back through Vulkan's import: %u points, %s\n", made, POINTS,
                    wrong ? "FAILED" : "every one as the CPU makes it");
        return wrong == 0;
    }

    bool check_window()
    {
        const uint32_t last = opt.frames - 1;
        const std::string what = "frame " + std::to_string(last) + "'s points";
        return window_app::check_window(expected_window(last), opt.screenshot, what.c_str());
    }

    /* ---- Cleanup: CUDA's objects, then Vulkan's (whose import keeps the pages until
     * vkFreeMemory), then the window ---- */

    void cleanup()
    {
        CUDA(cudaDestroyExternalSemaphore(cuda_vk_done));
        CUDA(cudaDestroyExternalSemaphore(cuda_cuda_done));
        CUDA(cudaFree(counts));
        CUDA(cudaStreamDestroy(stream));
        CU(cuMemUnmap(base, allocation_bytes));
        CU(cuMemAddressFree(base, allocation_bytes));
        CU(cuMemRelease(allocation));
        vkDestroySemaphore(device, vk_done, nullptr);
        vkDestroySemaphore(device, cuda_done, nullptr);
        vkDestroyBuffer(device, points, nullptr);
        vkFreeMemory(device, points_memory, nullptr);
        close_window();
    }
};

} // namespace

int main(int argc, char **argv)
{
    return sample_main(argc, argv, PROGRAM, "frames drawn, 16384 points each (default 60)",
                       [](const sample_options &o) { return mmap_pi_sample(o).run(); });
}
