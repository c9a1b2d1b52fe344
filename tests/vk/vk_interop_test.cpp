// Vulkan interop on lavapipe, for real: device pairing, memory both ways, offsets, another
// process, host-pointer import, fd accounting (include/extmem/vulkan.h, DESIGN.md §7).
#include "framework/testing.h"
#include "vk_harness.h"

#include <dlfcn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <vector>

extern "C" int extmem_vk_lavapipe_uuid(unsigned char uuid[16]); // src/vk/pairing.c

using namespace extmem_test;
using namespace extmem_vk_test;

namespace {

class VulkanInterop : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        std::string why = gpu.init();
        ASSERT_EQ("", why);
    }
    Gpu gpu;

    /* An exportable buffer of words with its own memory, as NVIDIA's samples make one. */
    struct Shared {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkMemoryRequirements req{};
    };
    Shared make_shared(uint32_t words)
    {
        Shared s;
        s.buffer = gpu.buffer((VkDeviceSize)words * 4, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
        EXPECT_NE(VK_NULL_HANDLE, s.buffer);
        vkGetBufferMemoryRequirements(gpu.device, s.buffer, &s.req);
        s.memory = gpu.allocate(s.req.size, s.req.memoryTypeBits, true);
        EXPECT_NE(VK_NULL_HANDLE, s.memory);
        EXPECT_EQ(VK_SUCCESS, vkBindBufferMemory(gpu.device, s.buffer, s.memory, 0));
        return s;
    }
    void destroy(Shared &s)
    {
        vkDestroyBuffer(gpu.device, s.buffer, nullptr);
        vkFreeMemory(gpu.device, s.memory, nullptr);
        s = Shared{};
    }
};

/* Which inode backs an address, from /proc/self/maps. */
unsigned long inode_of(const void *p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    unsigned long inode = 0;
    while (f && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi, ino;
        if (sscanf(line, "%lx-%lx %*s %*s %*s %lu", &lo, &hi, &ino) == 3 && (uintptr_t)p >= lo && (uintptr_t)p < hi)
            inode = ino;
    }
    if (f)
        fclose(f);
    return inode;
}

} // namespace

// ---- Pairing ----

TEST_F(VulkanInterop, Pairing_NvidiaStyleUuidComparison_FindsLavapipe)
{
    // The loop NVIDIA's samples run (simpleVulkan's getVkPhysicalDevice and friends).
    CUdevice dev;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    CUuuid uuid;
    ASSERT_OK(cuDeviceGetUuid(&uuid, dev));
    uint32_t count = 0;
    ASSERT_EQ(VK_SUCCESS, vkEnumeratePhysicalDevices(gpu.instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devs(count);
    ASSERT_EQ(VK_SUCCESS, vkEnumeratePhysicalDevices(gpu.instance, &count, devs.data()));
    VkPhysicalDevice found = VK_NULL_HANDLE;
    for (VkPhysicalDevice d : devs) {
        VkPhysicalDeviceIDProperties id = {};
        id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        VkPhysicalDeviceProperties2 p2 = {};
        p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        p2.pNext = &id;
        vkGetPhysicalDeviceProperties2(d, &p2);
        if (memcmp(id.deviceUUID, uuid.bytes, VK_UUID_SIZE) == 0)
            found = d;
    }
    EXPECT_EQ(gpu.physical, found) << "cuDeviceGetUuid " << to_hex(uuid.bytes, 16) << ", lavapipe's deviceUUID "
                                   << to_hex(gpu.device_uuid, 16);
}

TEST_F(VulkanInterop, Pairing_FindPairedDevice_IsLavapipe)
{
    VkPhysicalDevice found = VK_NULL_HANDLE;
    EXPECT_OK(extmem_vk_find_paired_device(gpu.instance, 0, &found));
    EXPECT_EQ(gpu.physical, found);
}

TEST_F(VulkanInterop, Pairing_BadArguments_AreInvalidValueOrTheDevicesError)
{
    VkPhysicalDevice found = VK_NULL_HANDLE;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_find_paired_device(VK_NULL_HANDLE, 0, &found));
    EXPECT_DETAIL_HAS("instance is VK_NULL_HANDLE");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_find_paired_device(gpu.instance, 0, nullptr));
    EXPECT_DETAIL_HAS("physicalDevice is NULL");
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, extmem_vk_find_paired_device(gpu.instance, 7, &found));
    EXPECT_EQ(VK_NULL_HANDLE, found);
}

TEST(VulkanPairing, LavapipeUuid_IsVulkansDeviceUuid_WithoutLinkingVulkan)
{
    use_lavapipe_only();
    unsigned char uuid[16] = {};
    ASSERT_EQ(0, extmem_vk_lavapipe_uuid(uuid));
    Gpu gpu;
    ASSERT_EQ("", gpu.init());
    EXPECT_EQ(to_hex(gpu.device_uuid, 16), to_hex(uuid, 16));
}

// ---- Vulkan writes, extmem reads; extmem writes, Vulkan reads ----

TEST_F(VulkanInterop, VulkanWrites_ExtmemReadsTheSamePages)
{
    const uint32_t words = 1u << 18;
    Shared s = make_shared(words);
    ASSERT_EQ(VK_SUCCESS, gpu.fill(s.buffer, 0, words, 0x1234));

    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_vk_import_memory(gpu.device, s.memory, s.req.size, &ext));
    CUdeviceptr p = 0;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
    bd.size = (unsigned long long)words * 4;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &bd));
    EXPECT_EQ(0u, count_wrong(reinterpret_cast<const uint32_t *>(p), words, 0x1234, 1, 0));
    std::vector<uint32_t> host(words);
    ASSERT_OK(cuMemcpyDtoH(host.data(), p, bd.size));
    EXPECT_EQ(0u, count_wrong(host.data(), words, 0x1234, 1, 0));

    // The same pages: Vulkan's own mapping and the device pointer are one memfd, and a
    // write through Vulkan shows through extmem with no call in between.
    uint32_t *vk = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(gpu.device, s.memory, 0, VK_WHOLE_SIZE, 0, (void **)&vk));
    EXPECT_NE(0ul, inode_of(vk));
    EXPECT_EQ(inode_of(vk), inode_of(reinterpret_cast<void *>(p)));
    vk[77] = 0xfeedf00d;
    EXPECT_EQ(0xfeedf00du, reinterpret_cast<volatile uint32_t *>(p)[77]);
    vkUnmapMemory(gpu.device, s.memory);

    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    destroy(s);
}

TEST_F(VulkanInterop, ExtmemWrites_VulkanReads)
{
    const uint32_t words = 1u << 18;
    Shared s = make_shared(words);
    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_vk_import_memory(gpu.device, s.memory, s.req.size, &ext));
    CUdeviceptr p = 0;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
    bd.size = (unsigned long long)words * 4;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &bd));

    ASSERT_OK(kernel_fill(p, words, 0xabcd, 7, 3));
    extmem_pattern_result res;
    ASSERT_EQ(VK_SUCCESS, gpu.verify(s.buffer, 0, words, 0xabcd, 7, 3, &res));
    EXPECT_EQ(words, res.checked);
    EXPECT_EQ(0u, res.mismatches) << "first wrong word " << res.first_bad;

    // And a round trip: Vulkan fills, extmem transforms in place, Vulkan checks.
    ASSERT_EQ(VK_SUCCESS, gpu.fill(s.buffer, 0, words, 0x99));
    ASSERT_OK(kernel_transform(p, words, 3, 1));
    ASSERT_EQ(VK_SUCCESS, gpu.verify(s.buffer, 0, words, 0x99, 3, 1, &res));
    EXPECT_EQ(0u, res.mismatches) << "first wrong word " << res.first_bad;

    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    destroy(s);
}

TEST_F(VulkanInterop, SeveralBuffersAtOffsets_OfOneImport_AreEachTheirOwnBytes)
{
    // Three buffers bound at offsets of one allocation, imported once and mapped three times.
    const uint32_t words[3] = {1000, 4096, 12345};
    VkBuffer bufs[3];
    VkDeviceSize offsets[3], total = 0;
    uint32_t type_bits = ~0u;
    for (int i = 0; i < 3; ++i) {
        bufs[i] = gpu.buffer((VkDeviceSize)words[i] * 4, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
        ASSERT_NE(VK_NULL_HANDLE, bufs[i]);
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(gpu.device, bufs[i], &req);
        // Beyond the buffer's own alignment, start each at an odd multiple of 256 bytes, so
        // the offsets are not page-aligned.
        total = (total + req.alignment - 1) / req.alignment * req.alignment;
        total += (total / 256) % 2 ? 0 : 256;
        offsets[i] = total;
        total += req.size;
        type_bits &= req.memoryTypeBits;
    }
    VkDeviceMemory memory = gpu.allocate(total, type_bits, true);
    ASSERT_NE(VK_NULL_HANDLE, memory);
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(gpu.device, bufs[i], memory, offsets[i]));
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(VK_SUCCESS, gpu.fill(bufs[i], 0, words[i], 100u + i));

    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_vk_import_memory(gpu.device, memory, total, &ext));
    CUdeviceptr p[3] = {};
    for (int i = 0; i < 3; ++i) {
        CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
        bd.offset = offsets[i];
        bd.size = (unsigned long long)words[i] * 4;
        ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p[i], ext, &bd)) << "buffer " << i << " at " << offsets[i];
        EXPECT_EQ(0u, count_wrong(reinterpret_cast<const uint32_t *>(p[i]), words[i], 100u + i, 1, 0))
            << "buffer " << i << " at offset " << offsets[i];
    }
    uint8_t *vk = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(gpu.device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&vk));
    for (int i = 0; i < 3; ++i) {
        ASSERT_OK(kernel_transform(p[i], words[i], 5, i));
        extmem_pattern_result res;
        ASSERT_EQ(VK_SUCCESS, gpu.verify(bufs[i], 0, words[i], 100u + i, 5, i, &res));
        EXPECT_EQ(0u, res.mismatches) << "buffer " << i << ": first wrong word " << res.first_bad;
        EXPECT_EQ(0, memcmp(vk + offsets[i], reinterpret_cast<void *>(p[i]), words[i] * 4)) << "buffer " << i;
    }
    // The bytes between the buffers were never anybody's: still zero.
    EXPECT_EQ(0u, vk[offsets[1] - 1]);
    vkUnmapMemory(gpu.device, memory);

    for (int i = 0; i < 3; ++i) {
        EXPECT_OK(cuMemFree(p[i]));
        vkDestroyBuffer(gpu.device, bufs[i], nullptr);
    }
    EXPECT_OK(cuDestroyExternalMemory(ext));
    vkFreeMemory(gpu.device, memory, nullptr);
}

TEST_F(VulkanInterop, VulkanFreesFirst_ExtmemBufferStaysValid)
{
    const uint32_t words = 4096;
    Shared s = make_shared(words);
    ASSERT_EQ(VK_SUCCESS, gpu.fill(s.buffer, 0, words, 42));
    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_vk_import_memory(gpu.device, s.memory, s.req.size, &ext));
    CUdeviceptr p = 0;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
    bd.size = words * 4;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &bd));
    destroy(s); // the memfd lives on in extmem's fd and mapping
    EXPECT_EQ(0u, count_wrong(reinterpret_cast<const uint32_t *>(p), words, 42, 1, 0));
    EXPECT_OK(cuDestroyExternalMemory(ext)); // and then in the mapping alone
    EXPECT_EQ(0u, count_wrong(reinterpret_cast<const uint32_t *>(p), words, 42, 1, 0));
    ASSERT_OK(kernel_transform(p, words, 1, 1));
    EXPECT_OK(cuMemFree(p));
}

// ---- Memory from another process ----

namespace {

int send_fd(int sock, int fd, const std::string &text)
{
    char control[CMSG_SPACE(sizeof(int))] = {};
    iovec iov = {const_cast<char *>(text.data()), text.size()};
    msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    return sendmsg(sock, &msg, 0) < 0 ? -1 : 0;
}

int recv_fd(int sock, std::string *text)
{
    char control[CMSG_SPACE(sizeof(int))] = {};
    char buf[256];
    iovec iov = {buf, sizeof(buf)};
    msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0)
        return -1;
    text->assign(buf, (size_t)n);
    for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            int fd;
            memcpy(&fd, CMSG_DATA(c), sizeof(int));
            return fd;
        }
    }
    return -1;
}

sockaddr_un abstract_address(const std::string &name, socklen_t *len)
{
    sockaddr_un a = {};
    a.sun_family = AF_UNIX;
    memcpy(a.sun_path + 1, name.data(), name.size()); // sun_path[0] = 0: the abstract namespace
    *len = (socklen_t)(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    return a;
}

} // namespace

// The other process: a Vulkan program on its own lavapipe device that fills an exportable
// buffer with pattern(i, seed), sends the fd over the socket named by args[0], then checks
// with its shader what the parent's kernel made of it. Lines on stdout report each step.
EXTMEM_CHILD_ROLE(vk_exporter)
{
    if (args.size() != 3)
        return 90;
    const uint32_t words = (uint32_t)std::stoul(args[1]), seed = (uint32_t)std::stoul(args[2]);
    Gpu gpu;
    std::string why = gpu.init();
    if (!why.empty()) {
        printf("error %s\n", why.c_str());
        return 91;
    }
    VkBuffer buf = gpu.buffer((VkDeviceSize)words * 4, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(gpu.device, buf, &req);
    VkDeviceMemory mem = gpu.allocate(req.size, req.memoryTypeBits, true);
    if (!mem || vkBindBufferMemory(gpu.device, buf, mem, 0) != VK_SUCCESS || gpu.fill(buf, 0, words, seed) != VK_SUCCESS)
        return 92;
    VkMemoryGetFdInfoKHR gi = {};
    gi.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
    gi.memory = mem;
    gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    if (vkGetMemoryFdKHR(gpu.device, &gi, &fd) != VK_SUCCESS || fd < 0)
        return 93;
    int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    socklen_t len;
    sockaddr_un addr = abstract_address(args[0], &len);
    if (sock < 0 || connect(sock, reinterpret_cast<sockaddr *>(&addr), len) != 0 ||
        send_fd(sock, fd, std::to_string(req.size)) != 0)
        return 94;
    close(fd); // the fd in flight keeps the memory; so does our VkDeviceMemory
    close(sock);
    printf("sent %llu\n", (unsigned long long)req.size);

    char line[128];
    unsigned mul, add;
    if (!fgets(line, sizeof(line), stdin) || sscanf(line, "verify %u %u", &mul, &add) != 2)
        return 95;
    extmem_pattern_result res;
    if (gpu.verify(buf, 0, words, seed, mul, add, &res) != VK_SUCCESS)
        return 96;
    printf("checked %u mismatches %u\n", res.checked, res.mismatches);
    vkDestroyBuffer(gpu.device, buf, nullptr);
    vkFreeMemory(gpu.device, mem, nullptr);
    return 0;
}

TEST_F(VulkanInterop, MemoryFromAnotherProcess_SentOverAUnixSocket_RoundTrips)
{
    const uint32_t words = 1u << 16, seed = 0x600d;
    std::string name = "extmem-vk-test-" + std::to_string(getpid()) + "-" + std::to_string(std::random_device{}());
    int listener = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    ASSERT_GE(listener, 0);
    socklen_t len;
    sockaddr_un addr = abstract_address(name, &len);
    ASSERT_EQ(0, bind(listener, reinterpret_cast<sockaddr *>(&addr), len)) << strerror(errno);
    ASSERT_EQ(0, listen(listener, 1));

    Child child("vk_exporter", {name, std::to_string(words), std::to_string(seed)});
    ASSERT_GT(child.pid(), 0);
    int conn = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    ASSERT_GE(conn, 0) << strerror(errno);
    std::string size_text;
    int fd = recv_fd(conn, &size_text);
    close(conn);
    close(listener);
    ASSERT_GE(fd, 0);
    EXPECT_EQ("sent " + size_text, child.read_line());

    // The fd is the other process's lavapipe memfd.
    char link[64], target[256] = {};
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ASSERT_GT(readlink(link, target, sizeof(target) - 1), 0);
    EXPECT_EQ(0, strncmp(target, "/memfd:llvmpipe memory fd", 25)) << target;

    CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc = {};
    desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    desc.handle.fd = fd;
    desc.size = std::stoull(size_text);
    CUexternalMemory ext = nullptr;
    ASSERT_OK(cuImportExternalMemory(&ext, &desc)) << target;
    EXPECT_FALSE(fd_is_open(fd)); // the caller's number is closed, as the driver closes it; extmem has its own
    CUdeviceptr p = 0;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
    bd.size = words * 4;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &bd));
    EXPECT_EQ(0u, count_wrong(reinterpret_cast<const uint32_t *>(p), words, seed, 1, 0));

    ASSERT_OK(kernel_transform(p, words, 9, 4));
    child.write_line("verify 9 4");
    EXPECT_EQ("checked " + std::to_string(words) + " mismatches 0", child.read_line());
    EXPECT_EQ(0, child.wait());
    // The exporter is gone; its memory is not.
    EXPECT_EQ(0u, count_wrong(reinterpret_cast<const uint32_t *>(p), words, seed, 9, 4));
    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(ext));
}

// ---- extmem memory handed to Vulkan (VK_EXT_external_memory_host) ----

TEST_F(VulkanInterop, HostImport_OfExtmemMemory_IsTheSameBytes)
{
    VkDeviceSize align = 0;
    ASSERT_OK(extmem_vk_host_import_alignment(gpu.physical, &align));
    EXPECT_EQ(4096u, align); // lavapipe's
    const uint32_t words = 1u << 18;
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAlloc(&p, words * 4));
    ASSERT_OK(kernel_fill(p, words, 0x77, 1, 0));

    VkBuffer buf = gpu.buffer(words * 4, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT);
    ASSERT_NE(VK_NULL_HANDLE, buf);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(gpu.device, buf, &req);
    VkDeviceMemory mem = VK_NULL_HANDLE;
    ASSERT_OK(extmem_vk_import_host_memory(gpu.physical, gpu.device, p, words * 4, req.memoryTypeBits, &mem));
    ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(gpu.device, buf, mem, 0));
    void *view = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkMapMemory(gpu.device, mem, 0, VK_WHOLE_SIZE, 0, &view));
    EXPECT_EQ(reinterpret_cast<void *>(p), view) << "zero-copy: Vulkan's mapping is the device pointer";
    vkUnmapMemory(gpu.device, mem);

    extmem_pattern_result res;
    ASSERT_EQ(VK_SUCCESS, gpu.verify(buf, 0, words, 0x77, 1, 0, &res));
    EXPECT_EQ(words, res.checked);
    EXPECT_EQ(0u, res.mismatches) << "first wrong word " << res.first_bad;
    ASSERT_EQ(VK_SUCCESS, gpu.fill(buf, 0, words, 0x88, 2, 1));
    EXPECT_EQ(0u, count_wrong(reinterpret_cast<const uint32_t *>(p), words, 0x88, 2, 1));

    vkDestroyBuffer(gpu.device, buf, nullptr);
    vkFreeMemory(gpu.device, mem, nullptr);
    EXPECT_OK(cuMemFree(p));
}

TEST_F(VulkanInterop, HostImport_OfAnImportedVulkanBuffer_GoesFullCircle)
{
    // Vulkan memory -> extmem (OPAQUE_FD) -> Vulkan again (host pointer): one set of pages.
    const uint32_t words = 1u << 16;
    Shared s = make_shared(words);
    ASSERT_EQ(VK_SUCCESS, gpu.fill(s.buffer, 0, words, 5));
    CUexternalMemory ext = nullptr;
    ASSERT_OK(extmem_vk_import_memory(gpu.device, s.memory, s.req.size, &ext));
    CUdeviceptr p = 0;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
    bd.size = words * 4;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &bd));
    VkBuffer again = gpu.buffer(words * 4, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT);
    VkDeviceMemory mem = VK_NULL_HANDLE;
    ASSERT_OK(extmem_vk_import_host_memory(gpu.physical, gpu.device, p, words * 4, ~0u, &mem));
    ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(gpu.device, again, mem, 0));
    ASSERT_OK(kernel_transform(p, words, 3, 3));
    extmem_pattern_result res;
    ASSERT_EQ(VK_SUCCESS, gpu.verify(again, 0, words, 5, 3, 3, &res));
    EXPECT_EQ(0u, res.mismatches);
    ASSERT_EQ(VK_SUCCESS, gpu.verify(s.buffer, 0, words, 5, 3, 3, &res));
    EXPECT_EQ(0u, res.mismatches);
    vkDestroyBuffer(gpu.device, again, nullptr);
    vkFreeMemory(gpu.device, mem, nullptr);
    EXPECT_OK(cuMemFree(p));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    destroy(s);
}

TEST_F(VulkanInterop, HostImport_OfAMappedVmmRange_IsTheSameBytes)
{
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gran = 0;
    ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle h = 0;
    ASSERT_OK(cuMemCreate(&h, gran, &prop, 0));
    CUdeviceptr va = 0;
    ASSERT_OK(cuMemAddressReserve(&va, gran, 0, 0, 0));
    ASSERT_OK(cuMemMap(va, gran, 0, h, 0));
    CUmemAccessDesc access = {};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    ASSERT_OK(cuMemSetAccess(va, gran, &access, 1));
    const uint32_t words = (uint32_t)(gran / 4);
    ASSERT_OK(kernel_fill(va, words, 0x3, 1, 0));

    VkBuffer buf = gpu.buffer(gran, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT);
    VkDeviceMemory mem = VK_NULL_HANDLE;
    ASSERT_OK(extmem_vk_import_host_memory(gpu.physical, gpu.device, va, gran, ~0u, &mem));
    ASSERT_EQ(VK_SUCCESS, vkBindBufferMemory(gpu.device, buf, mem, 0));
    extmem_pattern_result res;
    ASSERT_EQ(VK_SUCCESS, gpu.verify(buf, 0, words, 0x3, 1, 0, &res));
    EXPECT_EQ(0u, res.mismatches);
    vkDestroyBuffer(gpu.device, buf, nullptr);
    vkFreeMemory(gpu.device, mem, nullptr);
    EXPECT_OK(cuMemUnmap(va, gran));
    EXPECT_OK(cuMemAddressFree(va, gran));
    EXPECT_OK(cuMemRelease(h));
}

TEST_F(VulkanInterop, HostImport_SizeNotAMultiple_IsRoundedWithinTheAllocation)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAlloc(&p, 8192));
    VkDeviceMemory mem = VK_NULL_HANDLE;
    EXPECT_OK(extmem_vk_import_host_memory(gpu.physical, gpu.device, p, 100, ~0u, &mem));
    vkFreeMemory(gpu.device, mem, nullptr);
    EXPECT_OK(cuMemFree(p));
}

TEST_F(VulkanInterop, HostImport_BadPointers_AreInvalidValueWithAReason)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAlloc(&p, 1u << 20));
    size_t alloc_size = 0;
    CUdeviceptr base = 0;
    ASSERT_OK(cuMemGetAddressRange(&base, &alloc_size, p));
    VkDeviceMemory mem = VK_NULL_HANDLE;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_host_memory(gpu.physical, gpu.device, p + 64, 4096, ~0u, &mem));
    EXPECT_DETAIL_HAS("not aligned");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              extmem_vk_import_host_memory(gpu.physical, gpu.device, p, alloc_size + 4096, ~0u, &mem));
    EXPECT_DETAIL_HAS("pass the end");
    alignas(4096) static unsigned char not_extmem[8192];
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              extmem_vk_import_host_memory(gpu.physical, gpu.device, (CUdeviceptr)not_extmem, 4096, ~0u, &mem));
    EXPECT_DETAIL_HAS("not extmem memory");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_host_memory(gpu.physical, gpu.device, p, 4096, 0u, &mem));
    EXPECT_DETAIL_HAS("no memory type");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_host_memory(gpu.physical, gpu.device, 0, 4096, ~0u, &mem));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_host_memory(gpu.physical, gpu.device, p, 0, ~0u, &mem));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_host_memory(gpu.physical, gpu.device, p, 4096, ~0u, nullptr));
    EXPECT_EQ(VK_NULL_HANDLE, mem);
    EXPECT_OK(cuMemFree(p));
}

TEST_F(VulkanInterop, HostImport_NoContext_IsInvalidContext)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAlloc(&p, 4096));
    CUcontext popped = nullptr;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    VkDeviceMemory mem = VK_NULL_HANDLE;
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, extmem_vk_import_host_memory(gpu.physical, gpu.device, p, 4096, ~0u, &mem));
    ASSERT_OK(cuCtxPushCurrent(popped));
    EXPECT_OK(cuMemFree(p));
}

// ---- Import failures and fd accounting ----

TEST_F(VulkanInterop, ImportMemory_NotExportable_IsInvalidValueAndLeaksNothing)
{
    VkDeviceMemory plain = gpu.allocate(65536, ~0u, false);
    ASSERT_NE(VK_NULL_HANDLE, plain);
    int before = open_fd_count();
    CUexternalMemory ext = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_memory(gpu.device, plain, 65536, &ext));
    EXPECT_DETAIL_HAS("VkExportMemoryAllocateInfo");
    EXPECT_EQ(before, open_fd_count());
    vkFreeMemory(gpu.device, plain, nullptr);
}

TEST_F(VulkanInterop, ImportMemory_BadArguments_AreInvalidValue)
{
    Shared s = make_shared(1024);
    CUexternalMemory ext = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_memory(VK_NULL_HANDLE, s.memory, s.req.size, &ext));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_memory(gpu.device, VK_NULL_HANDLE, s.req.size, &ext));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_memory(gpu.device, s.memory, 0, &ext));
    EXPECT_DETAIL_HAS("size is 0");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_vk_import_memory(gpu.device, s.memory, s.req.size, nullptr));
    destroy(s);
}

TEST_F(VulkanInterop, ImportMemory_NoContext_FailsAndClosesTheExportedFd)
{
    Shared s = make_shared(1024);
    CUcontext popped = nullptr;
    ASSERT_OK(cuCtxPopCurrent(&popped));
    int before = open_fd_count();
    CUexternalMemory ext = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, extmem_vk_import_memory(gpu.device, s.memory, s.req.size, &ext));
    EXPECT_DETAIL_HAS("is closed");
    EXPECT_EQ(before, open_fd_count()) << "the exported fd must not leak";
    ASSERT_OK(cuCtxPushCurrent(popped));
    destroy(s);
}

TEST_F(VulkanInterop, FdAccounting_EachImportHoldsOneFdUntilDestroyed)
{
    const uint32_t words = 4096;
    Shared s = make_shared(words);
    int before = open_fd_count();
    for (int round = 0; round < 50; ++round) {
        CUexternalMemory ext = nullptr;
        ASSERT_OK(extmem_vk_import_memory(gpu.device, s.memory, s.req.size, &ext));
        EXPECT_EQ(before + 1, open_fd_count()) << "round " << round;
        CUdeviceptr p = 0;
        CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = {};
        bd.size = words * 4;
        ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &bd));
        EXPECT_EQ(before + 1, open_fd_count()) << "a mapped buffer holds no fd of its own";
        ASSERT_OK(cuDestroyExternalMemory(ext));
        EXPECT_EQ(before, open_fd_count()) << "round " << round;
        ASSERT_OK(cuMemFree(p));
    }
    EXPECT_EQ(before, open_fd_count());
    destroy(s);
}

TEST(VulkanLoader, HelpersNeedNoVulkanAtLinkTime)
{
    // extmem_vulkan reaches the loader through volk (dlopen), never through DT_NEEDED.
    Dl_info info = {};
    ASSERT_NE(0, dladdr(reinterpret_cast<void *>(&extmem_vk_import_memory), &info));
    std::string cmd = std::string("readelf -d '") + info.dli_fname + "' | grep -c 'libvulkan' || true";
    FILE *p = popen(cmd.c_str(), "r");
    ASSERT_NE(nullptr, p);
    char out[16] = {};
    ASSERT_NE(nullptr, fgets(out, sizeof(out), p));
    pclose(p);
    EXPECT_EQ(0, atoi(out)) << info.dli_fname << " names libvulkan in its dynamic section";
}
