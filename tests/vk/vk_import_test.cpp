// CUDA's memory handed to Vulkan: an allocation made with cuMemCreate (POSIX_FILE_DESCRIPTOR),
// exported with cuMemExportToShareableHandle and imported into lavapipe with the standard
// VkImportMemoryFdInfoKHR (OPAQUE_FD), through extmem's layer (docs/vulkan-import.md). The
// Vulkan memory and the CUDA allocation are the same pages; the memory lives as long as Vulkan
// holds it; the fd follows the Vulkan specification's ownership rules.
#include "framework/testing.h"
#include "semaphore_harness.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <vector>

using namespace extmem_test;
using namespace extmem_vk_sem_test;

namespace {

class VulkanImport : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_EQ("", vk.init());
        ASSERT_EQ("", d.init(vk));
        size_t gran = 0;
        CUmemAllocationProp prop = props();
        ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
        size = gran;
    }
    void TearDown() override
    {
        release_cuda();
        if (buffer)
            vkDestroyBuffer(d.device, buffer, nullptr);
        if (memory)
            vkFreeMemory(d.device, memory, nullptr);
        d.close();
        vk.close();
        ContextTest::TearDown();
    }
    static CUmemAllocationProp props()
    {
        CUmemAllocationProp prop = {};
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.location.id = 0;
        prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
        return prop;
    }
    // A CUDA allocation mapped at ptr, and an fd of it.
    int make_cuda(void)
    {
        CUmemAllocationProp prop = props();
        EXPECT_OK(cuMemCreate(&handle, size, &prop, 0));
        EXPECT_OK(cuMemAddressReserve(&ptr, size, 0, 0, 0));
        EXPECT_OK(cuMemMap(ptr, size, 0, handle, 0));
        CUmemAccessDesc access = {};
        access.location = prop.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        EXPECT_OK(cuMemSetAccess(ptr, size, &access, 1));
        int fd = -1;
        EXPECT_OK(cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
        return fd;
    }
    void release_cuda()
    {
        if (ptr) {
            EXPECT_OK(cuMemUnmap(ptr, size));
            EXPECT_OK(cuMemAddressFree(ptr, size));
            ptr = 0;
        }
        if (handle) {
            EXPECT_OK(cuMemRelease(handle));
            handle = 0;
        }
    }
    // A buffer over all of the memory, for an import of that handle type.
    VkBuffer make_buffer(VkDeviceSize bytes, uint32_t *types,
                         VkExternalMemoryHandleTypeFlagBits type = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)
    {
        VkExternalMemoryBufferCreateInfo ext = {};
        ext.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
        ext.handleTypes = type;
        VkBufferCreateInfo bi = {};
        bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        bi.pNext = &ext;
        bi.size = bytes;
        bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VkBuffer b = VK_NULL_HANDLE;
        EXPECT_EQ(VK_SUCCESS, vkCreateBuffer(d.device, &bi, nullptr, &b));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(d.device, b, &req);
        *types = req.memoryTypeBits;
        return b;
    }
    VkResult import(int fd, VkDeviceSize bytes, uint32_t types, VkDeviceMemory *out,
                    VkExternalMemoryHandleTypeFlagBits type = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)
    {
        VkImportMemoryFdInfoKHR imp = {};
        imp.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR;
        imp.handleType = type;
        imp.fd = fd;
        VkMemoryAllocateInfo ai = {};
        ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        ai.pNext = &imp;
        ai.allocationSize = bytes;
        ai.memoryTypeIndex = (uint32_t)__builtin_ctz(types);
        return vkAllocateMemory(d.device, &ai, nullptr, out);
    }
    // Fills the buffer with `value` on lavapipe's queue and waits.
    void fill_on_queue(uint32_t value)
    {
        VkCommandPoolCreateInfo pci = {};
        pci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
        pci.queueFamilyIndex = d.family;
        VkCommandPool pool;
        ASSERT_EQ(VK_SUCCESS, vkCreateCommandPool(d.device, &pci, nullptr, &pool));
        VkCommandBufferAllocateInfo cai = {};
        cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        cai.commandPool = pool;
        cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cai.commandBufferCount = 1;
        VkCommandBuffer cmd;
        ASSERT_EQ(VK_SUCCESS, vkAllocateCommandBuffers(d.device, &cai, &cmd));
        VkCommandBufferBeginInfo begin = {};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        vkBeginCommandBuffer(cmd, &begin);
        vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, value);
        vkEndCommandBuffer(cmd);
        VkFence f = d.fence();
        VkSubmitInfo si = {};
        si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(d.queue, 1, &si, f));
        ASSERT_EQ(VK_SUCCESS, vkWaitForFences(d.device, 1, &f, VK_TRUE, 10ull * 1000000000u));
        d.destroy(f);
        vkDestroyCommandPool(d.device, pool, nullptr);
    }
    Instance vk;
    Device d;
    size_t size = 0;
    CUmemGenericAllocationHandle handle = 0;
    CUdeviceptr ptr = 0;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
};

// dma-bufs of CUDA memory (cuMemGetHandleForAddressRange) imported with
// VK_EXT_external_memory_dma_buf. Making a dma-buf needs /dev/udmabuf: on a host without it
// tests/vk/CMakeLists.txt leaves these out, and the VM test (tests/dmabuf_vm) runs them on a
// kernel that has it, with lavapipe and the layer inside the VM.
class VulkanImportDmaBuf : public VulkanImport {
protected:
    void TearDown() override
    {
        if (dptr) {
            EXPECT_OK(cuMemFree(dptr));
        }
        VulkanImport::TearDown();
    }
    // A cuMemAlloc allocation of `pages` pages and a dma-buf of pages [first, first + count).
    int make_dmabuf(size_t pages, size_t first, size_t count)
    {
        EXPECT_OK(cuMemAlloc(&dptr, pages * page));
        int fd = -1;
        EXPECT_OK(cuMemGetHandleForAddressRange(&fd, dptr + first * page, count * page,
                                                CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0));
        return fd;
    }
    static constexpr VkExternalMemoryHandleTypeFlagBits DMA_BUF = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    CUdeviceptr dptr = 0;
};

} // namespace

TEST_F(VulkanImport, CudaVmmAllocation_ImportedAsOpaqueFd_IsTheSamePagesBothWays)
{
    int fd = make_cuda();
    ASSERT_GE(fd, 0);
    uint32_t types = 0;
    buffer = make_buffer(size, &types);
    ASSERT_NE(0u, types);
    ASSERT_EQ(VK_SUCCESS, import(fd, size, types, &memory)) << "lavapipe alone refuses extmem's memfd";
    ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(d.device, buffer, memory, 0));
    void *mapped = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    uint32_t *words = static_cast<uint32_t *>(mapped);
    const size_t n = size / 4;

    // CUDA writes, Vulkan's mapping sees it.
    ASSERT_OK(cuMemsetD32(ptr, 0xa5a5a5a5u, n));
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ(0xa5a5a5a5u, words[0]);
    EXPECT_EQ(0xa5a5a5a5u, words[n - 1]);
    // The host writes through Vulkan's mapping, CUDA reads it.
    for (size_t i = 0; i < n; ++i)
        words[i] = (uint32_t)i * 2654435761u;
    std::vector<uint32_t> back(n);
    ASSERT_OK(cuMemcpyDtoH(back.data(), ptr, size));
    EXPECT_EQ(0, memcmp(back.data(), words, size));
    // lavapipe's queue writes, CUDA reads it.
    fill_on_queue(0x12345678u);
    ASSERT_OK(cuMemcpyDtoH(back.data(), ptr, size));
    EXPECT_EQ(0x12345678u, back[0]);
    EXPECT_EQ(0x12345678u, back[n - 1]);
    vkUnmapMemory(d.device, memory);
}

TEST_F(VulkanImport, MemoryOutlivesEveryCudaHandle_WhileVulkanHoldsIt)
{
    int fd = make_cuda();
    ASSERT_GE(fd, 0);
    ASSERT_OK(cuMemsetD32(ptr, 0x5eedu, size / 4));
    ASSERT_OK(cuCtxSynchronize());
    uint32_t types = 0;
    buffer = make_buffer(size, &types);
    ASSERT_EQ(VK_SUCCESS, import(fd, size, types, &memory));
    ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(d.device, buffer, memory, 0));
    // CUDA lets go of everything: the mapping, the address range, the allocation. The fd is
    // Vulkan's since the import succeeded.
    release_cuda();
    void *mapped = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    EXPECT_EQ(0x5eedu, static_cast<uint32_t *>(mapped)[0]);
    EXPECT_EQ(0x5eedu, static_cast<uint32_t *>(mapped)[size / 4 - 1]);
    fill_on_queue(7);
    EXPECT_EQ(7u, static_cast<uint32_t *>(mapped)[size / 8]);
    vkUnmapMemory(d.device, memory);
    // vkFreeMemory (TearDown) lets the pages go; the fd check of the framework sees the fd closed.
}

TEST_F(VulkanImport, ImportedMemory_ExportedAgain_GivesTheSamePagesToCuda)
{
    int fd = make_cuda();
    ASSERT_GE(fd, 0);
    uint32_t types = 0;
    buffer = make_buffer(size, &types);
    ASSERT_EQ(VK_SUCCESS, import(fd, size, types, &memory));
    VkMemoryGetFdInfoKHR gi = {};
    gi.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
    gi.memory = memory;
    gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int again = -1;
    ASSERT_EQ(VK_SUCCESS, vkGetMemoryFdKHR(d.device, &gi, &again));
    ASSERT_GE(again, 0);
    // CUDA imports what Vulkan exported, and sees what the first mapping holds.
    CUmemGenericAllocationHandle h2 = 0;
    ASSERT_OK(cuMemImportFromShareableHandle(&h2, (void *)(intptr_t)again, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(again);
    CUdeviceptr p2 = 0;
    ASSERT_OK(cuMemAddressReserve(&p2, size, 0, 0, 0));
    ASSERT_OK(cuMemMap(p2, size, 0, h2, 0));
    CUmemAccessDesc access = {};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    ASSERT_OK(cuMemSetAccess(p2, size, &access, 1));
    ASSERT_OK(cuMemsetD32(ptr, 0xfeedu, size / 4));
    uint32_t word = 0;
    ASSERT_OK(cuMemcpyDtoH(&word, p2 + size - 4, 4));
    EXPECT_EQ(0xfeedu, word);
    ASSERT_OK(cuMemUnmap(p2, size));
    ASSERT_OK(cuMemAddressFree(p2, size));
    ASSERT_OK(cuMemRelease(h2));
}

TEST_F(VulkanImport, SizeBeyondTheAllocation_IsInvalidExternalHandle_AndTheFdStaysTheCallers)
{
    int fd = make_cuda();
    ASSERT_GE(fd, 0);
    uint32_t types = 0;
    buffer = make_buffer(size, &types);
    EXPECT_EQ(VK_ERROR_INVALID_EXTERNAL_HANDLE, import(fd, size * 2, types, &memory));
    EXPECT_EQ(VK_NULL_HANDLE, memory);
    // A failed import takes nothing: the fd is still open, and the caller closes it.
    EXPECT_NE(-1, fcntl(fd, F_GETFD));
    EXPECT_EQ(0, close(fd));
}

TEST_F(VulkanImport, AMemoryPoolsHandle_IsNoMemory_InvalidExternalHandle)
{
    CUmemPoolProps pp = {};
    pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    pp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemoryPool pool;
    ASSERT_OK(cuMemPoolCreate(&pool, &pp));
    int fd = -1;
    ASSERT_OK(cuMemPoolExportToShareableHandle(&fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    uint32_t types = 0;
    buffer = make_buffer(4096, &types);
    EXPECT_EQ(VK_ERROR_INVALID_EXTERNAL_HANDLE, import(fd, 4096, types, &memory));
    EXPECT_EQ(0, close(fd));
    ASSERT_OK(cuMemPoolDestroy(pool));
}

TEST_F(VulkanImport, LavapipesOwnMemory_StillImportsAsLavapipeDoes)
{
    // Memory lavapipe exported goes to lavapipe untouched.
    uint32_t types = 0;
    buffer = make_buffer(65536, &types);
    VkExportMemoryAllocateInfo exp = {};
    exp.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
    exp.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo ai = {};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.pNext = &exp;
    ai.allocationSize = 65536;
    ai.memoryTypeIndex = (uint32_t)__builtin_ctz(types);
    VkDeviceMemory exported = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkAllocateMemory(d.device, &ai, nullptr, &exported));
    VkMemoryGetFdInfoKHR gi = {};
    gi.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
    gi.memory = exported;
    gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    ASSERT_EQ(VK_SUCCESS, vkGetMemoryFdKHR(d.device, &gi, &fd));
    void *a = nullptr, *b = nullptr;
    ASSERT_EQ(VK_SUCCESS, import(fd, 65536, types, &memory));
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(d.device, exported, 0, VK_WHOLE_SIZE, 0, &a));
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &b));
    static_cast<uint32_t *>(a)[10] = 0xabcdu;
    EXPECT_EQ(0xabcdu, static_cast<uint32_t *>(b)[10]);
    vkUnmapMemory(d.device, exported);
    vkUnmapMemory(d.device, memory);
    vkFreeMemory(d.device, exported, nullptr);
}

TEST_F(VulkanImport, DmaBufExtension_IsOfferedAndItsBufferPropertiesSayImportable)
{
    EXPECT_TRUE(has_device_extension(vk.physical, nullptr, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME));
    VkPhysicalDeviceExternalBufferInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO;
    info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
    VkExternalBufferProperties props = {};
    props.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES;
    vkGetPhysicalDeviceExternalBufferProperties(vk.physical, &info, &props);
    EXPECT_TRUE(props.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
    EXPECT_EQ((VkExternalMemoryHandleTypeFlags)VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT,
              props.externalMemoryProperties.compatibleHandleTypes);
    // OPAQUE_FD stays lavapipe's answer.
    info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    vkGetPhysicalDeviceExternalBufferProperties(vk.physical, &info, &props);
    EXPECT_TRUE(props.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
}

TEST_F(VulkanImport, AMemfdGivenAsADmaBuf_IsInvalidExternalHandle)
{
    int fd = make_cuda();
    ASSERT_GE(fd, 0);
    VkImportMemoryFdInfoKHR imp = {};
    imp.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR;
    imp.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
    imp.fd = fd;
    VkMemoryAllocateInfo ai = {};
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.pNext = &imp;
    ai.allocationSize = size;
    EXPECT_EQ(VK_ERROR_INVALID_EXTERNAL_HANDLE, vkAllocateMemory(d.device, &ai, nullptr, &memory));
    VkMemoryFdPropertiesKHR fp = {};
    fp.sType = VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR;
    EXPECT_EQ(VK_ERROR_INVALID_EXTERNAL_HANDLE,
              vkGetMemoryFdPropertiesKHR(d.device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, fd, &fp));
    EXPECT_EQ(0, close(fd));
}

// The layer's import, checked by the validation layer on both sides of it: above, it sees the
// application's OPAQUE_FD import; below, the host-pointer import the layer makes of it
// (VK_EXT_external_memory_host, which the layer enabled on the driver's device).
TEST_F(VulkanImport, Import_UnderValidationAboveAndBelowTheLayer_HasNoErrors)
{
    std::vector<Instance::Order> orders = {Instance::VALIDATION_ABOVE, Instance::VALIDATION_BELOW};
    if (Instance::driver_mode()) // extmem is the driver: every layer is above it
        orders = {Instance::VALIDATION_BY_APPLICATION, Instance::VALIDATION_BY_ENVIRONMENT};
    for (Instance::Order order : orders) {
        SCOPED_TRACE(order == Instance::VALIDATION_ABOVE   ? "validation above"
                     : order == Instance::VALIDATION_BELOW ? "validation below"
                     : order == Instance::VALIDATION_BY_APPLICATION ? "validation enabled by the application"
                                                                     : "validation enabled by the environment");
        d.close();
        vk.close();
        ValidationLog log;
        ASSERT_EQ("", vk.init(&log, order));
        ASSERT_EQ("", d.init(vk));
        int fd = make_cuda();
        ASSERT_GE(fd, 0);
        uint32_t types = 0;
        buffer = make_buffer(size, &types);
        ASSERT_EQ(VK_SUCCESS, import(fd, size, types, &memory));
        ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(d.device, buffer, memory, 0));
        fill_on_queue(3);
        uint32_t word = 0;
        ASSERT_OK(cuMemcpyDtoH(&word, ptr + size - 4, 4));
        EXPECT_EQ(3u, word);
        vkDestroyBuffer(d.device, buffer, nullptr);
        vkFreeMemory(d.device, memory, nullptr);
        buffer = VK_NULL_HANDLE;
        memory = VK_NULL_HANDLE;
        release_cuda();
        d.close();
        vk.close();
        EXPECT_GT(log.messages_seen(), 0);
        EXPECT_EQ("", log.errors());
    }
}

TEST_F(VulkanImportDmaBuf, CudaMemorysDmaBuf_ImportsAsTheSamePagesBothWays)
{
    int fd = make_dmabuf(4, 0, 4);
    ASSERT_GE(fd, 0);
    const size_t bytes = 4 * page, n = bytes / 4;
    VkMemoryFdPropertiesKHR fp = {};
    fp.sType = VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR;
    ASSERT_EQ(VK_SUCCESS, vkGetMemoryFdPropertiesKHR(d.device, DMA_BUF, fd, &fp));
    uint32_t types = 0;
    buffer = make_buffer(bytes, &types, DMA_BUF);
    ASSERT_NE(0u, types & fp.memoryTypeBits) << "no memory type both the buffer and the dma-buf allow";
    ASSERT_EQ(VK_SUCCESS, import(fd, bytes, types & fp.memoryTypeBits, &memory, DMA_BUF));
    ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(d.device, buffer, memory, 0));
    void *mapped = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    uint32_t *words = static_cast<uint32_t *>(mapped);
    // CUDA writes, Vulkan's mapping sees it.
    ASSERT_OK(cuMemsetD32(dptr, 0xd0d0cafeu, n));
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ(0xd0d0cafeu, words[0]);
    EXPECT_EQ(0xd0d0cafeu, words[n - 1]);
    // The host writes through Vulkan's mapping, CUDA reads it.
    for (size_t i = 0; i < n; ++i)
        words[i] = (uint32_t)i ^ 0x9e3779b9u;
    std::vector<uint32_t> back(n);
    ASSERT_OK(cuMemcpyDtoH(back.data(), dptr, bytes));
    EXPECT_EQ(0, memcmp(back.data(), words, bytes));
    // lavapipe's queue writes, CUDA reads it.
    fill_on_queue(0x600dd00du);
    ASSERT_OK(cuMemcpyDtoH(back.data(), dptr, bytes));
    EXPECT_EQ(0x600dd00du, back[0]);
    EXPECT_EQ(0x600dd00du, back[n - 1]);
    vkUnmapMemory(d.device, memory);
}

TEST_F(VulkanImportDmaBuf, ADmaBufOfInnerPages_ImportsThosePages)
{
    int fd = make_dmabuf(4, 1, 2);
    ASSERT_GE(fd, 0);
    std::vector<uint32_t> init(4 * page / 4);
    for (size_t i = 0; i < init.size(); ++i)
        init[i] = (uint32_t)(i / (page / 4)); // each word holds its page's number
    ASSERT_OK(cuMemcpyHtoD(dptr, init.data(), 4 * page));
    uint32_t types = 0;
    buffer = make_buffer(2 * page, &types, DMA_BUF);
    ASSERT_EQ(VK_SUCCESS, import(fd, 2 * page, types, &memory, DMA_BUF));
    ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(d.device, buffer, memory, 0));
    void *mapped = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    const uint32_t *words = static_cast<const uint32_t *>(mapped);
    EXPECT_EQ(1u, words[0]);
    EXPECT_EQ(2u, words[2 * page / 4 - 1]);
    vkUnmapMemory(d.device, memory);
    // Vulkan's fill reaches pages 1 and 2 only.
    fill_on_queue(0xeeeeeeeeu);
    std::vector<uint32_t> back(init.size());
    ASSERT_OK(cuMemcpyDtoH(back.data(), dptr, 4 * page));
    EXPECT_EQ(0u, back[page / 4 - 1]);
    EXPECT_EQ(0xeeeeeeeeu, back[page / 4]);
    EXPECT_EQ(0xeeeeeeeeu, back[3 * page / 4 - 1]);
    EXPECT_EQ(3u, back[3 * page / 4]);
}

TEST_F(VulkanImportDmaBuf, MemoryOutlivesCudasFree_WhileVulkanHoldsIt)
{
    int fd = make_dmabuf(2, 0, 2);
    ASSERT_GE(fd, 0);
    ASSERT_OK(cuMemsetD32(dptr, 0x0badf00du, 2 * page / 4));
    ASSERT_OK(cuCtxSynchronize());
    uint32_t types = 0;
    buffer = make_buffer(2 * page, &types, DMA_BUF);
    ASSERT_EQ(VK_SUCCESS, import(fd, 2 * page, types, &memory, DMA_BUF));
    ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(d.device, buffer, memory, 0));
    // CUDA frees the allocation; the fd is Vulkan's since the import succeeded.
    ASSERT_OK(cuMemFree(dptr));
    dptr = 0;
    void *mapped = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    EXPECT_EQ(0x0badf00du, static_cast<uint32_t *>(mapped)[0]);
    EXPECT_EQ(0x0badf00du, static_cast<uint32_t *>(mapped)[2 * page / 4 - 1]);
    fill_on_queue(9);
    EXPECT_EQ(9u, static_cast<uint32_t *>(mapped)[page / 4]);
    vkUnmapMemory(d.device, memory);
}

TEST_F(VulkanImportDmaBuf, SizeBeyondTheDmaBuf_IsInvalidExternalHandle_AndTheFdStaysTheCallers)
{
    int fd = make_dmabuf(2, 0, 1);
    ASSERT_GE(fd, 0);
    uint32_t types = 0;
    buffer = make_buffer(2 * page, &types, DMA_BUF);
    EXPECT_EQ(VK_ERROR_INVALID_EXTERNAL_HANDLE, import(fd, 2 * page, types, &memory, DMA_BUF));
    EXPECT_EQ(VK_NULL_HANDLE, memory);
    EXPECT_NE(-1, fcntl(fd, F_GETFD));
    EXPECT_EQ(0, close(fd));
}
