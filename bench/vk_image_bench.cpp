// extmem-bench-vk-image: the time a frame takes when Vulkan (lavapipe) and CUDA (the software
// device) hand an image back and forth through imported memory, beside the same frame loop over
// a buffer (the loop samples/vulkan_demo.cu runs: all frames queued at once, a timeline
// semaphore exported by Vulkan and imported by CUDA, no host synchronisation until the end).
// Every frame:
//   Vulkan: waits for CUDA's previous frame, copies the shared memory out to a readback buffer
//           (what CUDA wrote) and a source buffer in (what it writes), signals;
//   CUDA:   waits, copies the shared memory to linear device memory (what Vulkan wrote) and a
//           pattern into it (what it writes): cuMemcpyDtoDAsync for the buffer,
//           cuMemcpy3DAsync from and to level 0 of the mipmapped array for the image
//           (cuExternalMemoryGetMappedMipmappedArray over the image's memory), signals.
// Both move the same bytes (512x512 RGBA8, 1 MiB, by default); the end checks what each side
// last read. Usage: extmem-bench-vk-image [frames (600)] [side (512)]. Runs lavapipe with the
// layer from the build tree unless the environment names drivers and layers itself.
#include "semaphore_harness.h"

#include "extmem/cuda.h"
#include "extmem/vulkan.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace extmem_vk_sem_test;

namespace {

#define CHECK(cond)                                                                                              \
    do {                                                                                                         \
        if (!(cond)) {                                                                                           \
            fprintf(stderr, "bench: %s failed (line %d)\n", #cond, __LINE__);                                    \
            exit(1);                                                                                             \
        }                                                                                                        \
    } while (0)

struct Vk {
    Device *d;
    uint32_t type(uint32_t bits, VkMemoryPropertyFlags want)
    {
        VkPhysicalDeviceMemoryProperties mp;
        vkGetPhysicalDeviceMemoryProperties(d->physical, &mp);
        for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
            if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
                return i;
        return UINT32_MAX;
    }
    VkDeviceMemory allocate(VkMemoryRequirements mr, bool exportable, const void *dedicated_next)
    {
        VkExportMemoryAllocateInfo exp = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, dedicated_next,
                                          VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
        VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, exportable ? &exp : nullptr, mr.size,
                                   type(mr.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
        VkDeviceMemory m = VK_NULL_HANDLE;
        CHECK(vkAllocateMemory(d->device, &ai, nullptr, &m) == VK_SUCCESS);
        return m;
    }
    VkBuffer buffer(VkDeviceSize size, bool exportable, VkDeviceMemory *mem)
    {
        VkExternalMemoryBufferCreateInfo ext = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, nullptr,
                                                VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
        VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, exportable ? &ext : nullptr, 0, size,
                                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 VK_SHARING_MODE_EXCLUSIVE, 0, nullptr};
        VkBuffer b = VK_NULL_HANDLE;
        CHECK(vkCreateBuffer(d->device, &bi, nullptr, &b) == VK_SUCCESS);
        VkMemoryRequirements mr;
        vkGetBufferMemoryRequirements(d->device, b, &mr);
        *mem = allocate(mr, exportable, nullptr);
        CHECK(vkBindBufferMemory(d->device, b, *mem, 0) == VK_SUCCESS);
        return b;
    }
    VkImage image(uint32_t side, VkDeviceMemory *mem, VkDeviceSize *size)
    {
        VkExternalMemoryImageCreateInfo ext = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO, nullptr,
                                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
        VkImageCreateInfo ci = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, &ext, 0, VK_IMAGE_TYPE_2D,
                                VK_FORMAT_R8G8B8A8_UNORM, {side, side, 1}, 1, 1, VK_SAMPLE_COUNT_1_BIT,
                                VK_IMAGE_TILING_OPTIMAL,
                                VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                VK_SHARING_MODE_EXCLUSIVE, 0, nullptr, VK_IMAGE_LAYOUT_UNDEFINED};
        VkImage im = VK_NULL_HANDLE;
        CHECK(vkCreateImage(d->device, &ci, nullptr, &im) == VK_SUCCESS);
        VkMemoryRequirements mr;
        vkGetImageMemoryRequirements(d->device, im, &mr);
        VkMemoryDedicatedAllocateInfo ded = {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO, nullptr, im,
                                             VK_NULL_HANDLE};
        *mem = allocate(mr, true, &ded);
        *size = mr.size;
        CHECK(vkBindImageMemory(d->device, im, *mem, 0) == VK_SUCCESS);
        return im;
    }
};

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One loop of `frames` frames over a buffer (image == false) or an image of side x side RGBA8.
void run(Device &d, CUstream stream, bool image, uint32_t side, unsigned frames)
{
    Vk vk{&d};
    const VkDeviceSize bytes = (VkDeviceSize)side * side * 4;
    VkDeviceMemory src_mem, dst_mem, shared_mem;
    VkBuffer src = vk.buffer(bytes, false, &src_mem), dst = vk.buffer(bytes, false, &dst_mem);
    VkBuffer shared_buf = VK_NULL_HANDLE;
    VkImage shared_img = VK_NULL_HANDLE;
    VkDeviceSize shared_size = bytes;
    if (image)
        shared_img = vk.image(side, &shared_mem, &shared_size);
    else
        shared_buf = vk.buffer(bytes, true, &shared_mem);
    uint32_t *src_map = nullptr, *dst_map = nullptr;
    CHECK(vkMapMemory(d.device, src_mem, 0, VK_WHOLE_SIZE, 0, (void **)&src_map) == VK_SUCCESS);
    CHECK(vkMapMemory(d.device, dst_mem, 0, VK_WHOLE_SIZE, 0, (void **)&dst_map) == VK_SUCCESS);
    const size_t words = (size_t)bytes / 4;
    for (size_t i = 0; i < words; ++i)
        src_map[i] = 0x5a000000u ^ (uint32_t)i;

    // CUDA's side of the memory.
    CUexternalMemory ext = nullptr;
    CHECK(extmem_vk_import_memory(d.device, shared_mem, shared_size, &ext) == CUDA_SUCCESS);
    CUdeviceptr shared_ptr = 0;
    CUmipmappedArray mm = nullptr;
    CUarray level = nullptr;
    if (image) {
        CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC md;
        memset(&md, 0, sizeof(md));
        md.arrayDesc.Width = md.arrayDesc.Height = side;
        md.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
        md.arrayDesc.NumChannels = 4;
        md.numLevels = 1;
        CHECK(cuExternalMemoryGetMappedMipmappedArray(&mm, ext, &md) == CUDA_SUCCESS);
        CHECK(cuMipmappedArrayGetLevel(&level, mm, 0) == CUDA_SUCCESS);
    } else {
        CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd;
        memset(&bd, 0, sizeof(bd));
        bd.size = bytes;
        CHECK(cuExternalMemoryGetMappedBuffer(&shared_ptr, ext, &bd) == CUDA_SUCCESS);
    }
    CUdeviceptr seen = 0, pattern = 0;
    CHECK(cuMemAlloc(&seen, bytes) == CUDA_SUCCESS && cuMemAlloc(&pattern, bytes) == CUDA_SUCCESS);
    CHECK(cuMemsetD32(pattern, 0xc0ffee00u, words) == CUDA_SUCCESS);
    CUDA_MEMCPY3D out, in; // array -> seen, pattern -> array
    memset(&out, 0, sizeof(out));
    out.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    out.srcArray = level;
    out.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    out.dstDevice = seen;
    out.dstPitch = side * 4;
    out.WidthInBytes = side * 4;
    out.Height = side;
    out.Depth = 1;
    in = out;
    in.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    in.srcArray = nullptr;
    in.srcDevice = pattern;
    in.srcPitch = side * 4;
    in.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    in.dstDevice = 0;
    in.dstPitch = 0;
    in.dstArray = level;

    VkSemaphore sem = d.semaphore(true, 0, true);
    CUexternalSemaphore ext_sem = nullptr;
    CHECK(extmem_vk_import_semaphore(d.device, sem, true, &ext_sem) == CUDA_SUCCESS);

    // Vulkan's frame: shared -> dst, then src -> shared (one command buffer, resubmitted).
    VkCommandPool pool;
    VkCommandPoolCreateInfo pi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, d.family};
    CHECK(vkCreateCommandPool(d.device, &pi, nullptr, &pool) == VK_SUCCESS);
    VkCommandBuffer cmd[2]; // [0]: the first frame (layout from UNDEFINED), [1]: the others
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 2};
    CHECK(vkAllocateCommandBuffers(d.device, &cai, cmd) == VK_SUCCESS);
    VkBufferImageCopy region = {};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {side, side, 1};
    VkBufferCopy whole = {0, 0, bytes};
    for (int c = 0; c < 2; ++c) {
        VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                       VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, nullptr};
        CHECK(vkBeginCommandBuffer(cmd[c], &bi) == VK_SUCCESS);
        VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                              VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
        if (image) {
            VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                                       c == 0 ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_GENERAL,
                                       VK_IMAGE_LAYOUT_GENERAL, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED,
                                       shared_img, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
            vkCmdPipelineBarrier(cmd[c], VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                                 nullptr, 0, nullptr, 1, &ib);
            vkCmdCopyImageToBuffer(cmd[c], shared_img, VK_IMAGE_LAYOUT_GENERAL, dst, 1, &region);
            vkCmdPipelineBarrier(cmd[c], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb,
                                 0, nullptr, 0, nullptr);
            vkCmdCopyBufferToImage(cmd[c], src, shared_img, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
        } else {
            vkCmdPipelineBarrier(cmd[c], VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                                 &mb, 0, nullptr, 0, nullptr);
            vkCmdCopyBuffer(cmd[c], shared_buf, dst, 1, &whole);
            vkCmdPipelineBarrier(cmd[c], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb,
                                 0, nullptr, 0, nullptr);
            vkCmdCopyBuffer(cmd[c], src, shared_buf, 1, &whole);
        }
        CHECK(vkEndCommandBuffer(cmd[c]) == VK_SUCCESS);
    }

    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
    memset(&wp, 0, sizeof(wp));
    memset(&sp, 0, sizeof(sp));
    auto t0 = std::chrono::steady_clock::now();
    for (unsigned k = 0; k < frames; ++k) {
        SemList waits;
        if (k)
            waits.push_back({sem, 2ull * k});
        CHECK(d.submit(waits, {{sem, 2ull * k + 1}}, VK_NULL_HANDLE, cmd[k ? 1 : 0]) == VK_SUCCESS);
        wp.params.fence.value = 2ull * k + 1;
        CHECK(cuWaitExternalSemaphoresAsync(&ext_sem, &wp, 1, stream) == CUDA_SUCCESS);
        if (image) {
            CHECK(cuMemcpy3DAsync(&out, stream) == CUDA_SUCCESS);
            CHECK(cuMemcpy3DAsync(&in, stream) == CUDA_SUCCESS);
        } else {
            CHECK(cuMemcpyDtoDAsync(seen, shared_ptr, bytes, stream) == CUDA_SUCCESS);
            CHECK(cuMemcpyDtoDAsync(shared_ptr, pattern, bytes, stream) == CUDA_SUCCESS);
        }
        sp.params.fence.value = 2ull * k + 2;
        CHECK(cuSignalExternalSemaphoresAsync(&ext_sem, &sp, 1, stream) == CUDA_SUCCESS);
    }
    CHECK(cuStreamSynchronize(stream) == CUDA_SUCCESS);
    double s = seconds_since(t0);
    // The last frame's reads: CUDA saw Vulkan's source, Vulkan (frame N-1) saw CUDA's pattern.
    std::vector<uint32_t> got(words);
    CHECK(cuMemcpyDtoH(got.data(), seen, bytes) == CUDA_SUCCESS);
    CHECK(vkQueueWaitIdle(d.queue) == VK_SUCCESS);
    size_t bad = 0;
    for (size_t i = 0; i < words; ++i)
        bad += (got[i] != (0x5a000000u ^ (uint32_t)i)) + (frames > 1 && dst_map[i] != 0xc0ffee00u);
    printf("%-6s %4ux%-4u RGBA8 (%5.2f MiB): %5u frames in %.3f s: %7.0f frames/s, %6.3f ms a frame%s\n",
           image ? "image" : "buffer", side, side, bytes / 1048576.0, frames, s, frames / s, 1000.0 * s / frames,
           bad ? "  WRONG CONTENTS" : "");
    if (bad)
        exit(1);

    CHECK(cuDestroyExternalSemaphore(ext_sem) == CUDA_SUCCESS);
    if (mm)
        CHECK(cuMipmappedArrayDestroy(mm) == CUDA_SUCCESS);
    if (shared_ptr)
        CHECK(cuMemFree(shared_ptr) == CUDA_SUCCESS);
    CHECK(cuDestroyExternalMemory(ext) == CUDA_SUCCESS);
    cuMemFree(seen);
    cuMemFree(pattern);
    vkDestroyCommandPool(d.device, pool, nullptr);
    d.destroy(sem);
    if (shared_img)
        vkDestroyImage(d.device, shared_img, nullptr);
    if (shared_buf)
        vkDestroyBuffer(d.device, shared_buf, nullptr);
    vkDestroyBuffer(d.device, src, nullptr);
    vkDestroyBuffer(d.device, dst, nullptr);
    for (VkDeviceMemory m : {shared_mem, src_mem, dst_mem})
        vkFreeMemory(d.device, m, nullptr);
}

} // namespace

int main(int argc, char **argv)
{
    const unsigned frames = argc > 1 ? (unsigned)atoi(argv[1]) : 600;
    const uint32_t side = argc > 2 ? (uint32_t)atoi(argv[2]) : 512;
#ifdef EXTMEM_LAVAPIPE_ICD
    setenv("VK_ICD_FILENAMES", EXTMEM_LAVAPIPE_ICD, 0);
#endif
    setenv("VK_ADD_LAYER_PATH", EXTMEM_LAYER_DIR, 0);
    setenv("VK_INSTANCE_LAYERS", "VK_LAYER_EXTMEM_external_semaphore", 0);
    printf("extmem-bench-vk-image: %u CPUs\n", std::thread::hardware_concurrency());
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    Instance vk;
    Device d;
    std::string why = vk.init();
    if (why.empty())
        why = d.init(vk);
    if (!why.empty()) {
        fprintf(stderr, "bench: %s\n", why.c_str());
        return 1;
    }
    run(d, stream, false, side, frames);
    run(d, stream, true, side, frames);
    cuStreamDestroy(stream);
    d.close();
    vk.close();
    cuDevicePrimaryCtxRelease(dev);
    return 0;
}
