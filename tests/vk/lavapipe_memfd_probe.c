/*
 * lavapipe_memfd_probe: shows what an OPAQUE_FD exported by Mesa's lavapipe is.
 *
 * For a few allocation sizes it allocates exportable, host-visible memory on lavapipe, writes
 * a pattern through vkMapMemory, exports the fd with vkGetMemoryFdKHR and prints what the
 * file is (readlink of /proc/self/fd/N, size, seals), its first 64 bytes and where the
 * pattern sits in it. docs/lavapipe-memfd.md records the results for the Mesa in use.
 * Exits 0 when every size was probed, 1 otherwise (77 when there is no lavapipe: a skip).
 */
#define _GNU_SOURCE
#include <volk.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef F_GET_SEALS
#define F_GET_SEALS 1034
#endif

static uint32_t pattern_word(size_t i) { return 0xA5000000u ^ (uint32_t)(i * 2654435761u); }

static void print_hex(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        printf("%02x%s", p[i], (i % 16 == 15) ? "\n    " : ((i % 8 == 7) ? "  " : " "));
    printf("\n");
}

static int probe(VkPhysicalDevice phys, VkDevice dev, VkDeviceSize size)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(phys, &mp);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = mp.memoryTypes[i].propertyFlags;
        if ((f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) && (f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) {
            type = i;
            break;
        }
    }
    if (type == UINT32_MAX)
        return fprintf(stderr, "no host-visible memory type\n"), 1;

    VkExportMemoryAllocateInfo export_info = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, NULL,
                                              VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &export_info, size, type};
    VkDeviceMemory mem;
    VkResult vr = vkAllocateMemory(dev, &ai, NULL, &mem);
    if (vr != VK_SUCCESS)
        return fprintf(stderr, "vkAllocateMemory(%" PRIu64 "): %d\n", (uint64_t)size, vr), 1;

    uint32_t *p;
    vr = vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&p);
    if (vr != VK_SUCCESS)
        return fprintf(stderr, "vkMapMemory: %d\n", vr), 1;
    size_t words = (size_t)size / 4;
    for (size_t i = 0; i < words; ++i)
        p[i] = pattern_word(i);
    /* The odd tail byte of 1 MiB + 1. */
    if (size % 4)
        ((unsigned char *)p)[size - 1] = 0x7e;

    VkMemoryGetFdInfoKHR gi = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, NULL, mem,
                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    vr = vkGetMemoryFdKHR(dev, &gi, &fd);
    if (vr != VK_SUCCESS)
        return fprintf(stderr, "vkGetMemoryFdKHR: %d\n", vr), 1;

    char path[64], target[256] = "";
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    if (n > 0)
        target[n] = 0;
    struct stat st;
    fstat(fd, &st);
    int seals = fcntl(fd, F_GET_SEALS);
    int fdflags = fcntl(fd, F_GETFD);
    int flflags = fcntl(fd, F_GETFL);
    printf("== allocation size %" PRIu64 " (0x%" PRIx64 ")\n", (uint64_t)size, (uint64_t)size);
    printf("  fd %d -> %s\n", fd, target);
    printf("  fstat: st_size %lld (0x%llx), st_blocks %lld, st_mode 0%o\n", (long long)st.st_size,
           (unsigned long long)st.st_size, (long long)st.st_blocks, (unsigned)st.st_mode);
    printf("  F_GET_SEALS 0x%x%s%s%s%s  F_GETFD 0x%x (cloexec %d)  F_GETFL 0%o\n", seals,
           (seals & F_SEAL_SEAL) ? " SEAL" : "", (seals & F_SEAL_SHRINK) ? " SHRINK" : "",
           (seals & F_SEAL_GROW) ? " GROW" : "", (seals & F_SEAL_WRITE) ? " WRITE" : "", fdflags,
           !!(fdflags & FD_CLOEXEC), flflags);

    unsigned char *file = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (file == MAP_FAILED)
        return fprintf(stderr, "mmap of the fd failed\n"), 1;
    printf("  first 64 bytes:\n    ");
    print_hex(file, 64);
    uint64_t h0, h1;
    memcpy(&h0, file, 8);
    memcpy(&h1, file + 8, 8);
    printf("  header words: [0] %" PRIu64 " (0x%" PRIx64 ")  [1] %" PRIu64 " (0x%" PRIx64 ")\n", h0, h0, h1, h1);

    /* Where the mapped pointer's bytes sit in the file. */
    uint32_t first = pattern_word(0);
    long found = -1;
    for (size_t off = 0; off + 8 <= (size_t)st.st_size; off += 4) {
        uint32_t w0, w1;
        memcpy(&w0, file + off, 4);
        memcpy(&w1, file + off + 4, 4);
        if (w0 == first && w1 == pattern_word(1)) {
            found = (long)off;
            break;
        }
    }
    printf("  pattern starts at file offset %ld (0x%lx)\n", found, (unsigned long)found);
    if (found >= 0) {
        int same = memcmp(file + found, p, (size_t)size) == 0;
        printf("  the whole %" PRIu64 "-byte pattern matches at that offset: %s\n", (uint64_t)size, same ? "yes" : "NO");
        uint64_t before;
        memcpy(&before, file + found - 8, 8);
        printf("  the 8 bytes before the data: %" PRIu64 " (0x%" PRIx64 ")\n", before, before);
        printf("  data end %" PRIu64 ", file end %lld, slack after data %lld\n", (uint64_t)found + size,
               (long long)st.st_size, (long long)st.st_size - (long long)(found + (long)size));
        printf("  mapped pointer %p, page offset 0x%lx\n", (void *)p, (unsigned long)((uintptr_t)p & 4095));
        /* A write through the file shows in the Vulkan mapping: the same pages. */
        unsigned char *rw = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (rw != MAP_FAILED) {
            rw[found] = 0x42;
            printf("  write through the fd mapping seen by vkMapMemory's pointer: %s\n",
                   ((unsigned char *)p)[0] == 0x42 ? "yes" : "NO");
            munmap(rw, (size_t)st.st_size);
        }
    }
    /* Each export is a new descriptor of the same memfd. */
    int fd2 = -1;
    if (vkGetMemoryFdKHR(dev, &gi, &fd2) == VK_SUCCESS) {
        struct stat st2;
        fstat(fd2, &st2);
        printf("  a second vkGetMemoryFdKHR: fd %d, same inode: %s\n", fd2,
               st2.st_ino == st.st_ino && st2.st_dev == st.st_dev ? "yes" : "NO");
        close(fd2);
    }
    vkUnmapMemory(dev, mem);
    vkFreeMemory(dev, mem, NULL);
    /* The memfd outlives the VkDeviceMemory: the exported fd holds it. */
    if (found >= 0) {
        uint32_t w1;
        memcpy(&w1, file + found + 4, 4);
        printf("  after vkFreeMemory the fd still reads the data: %s\n", w1 == pattern_word(1) ? "yes" : "NO");
    }
    munmap(file, (size_t)st.st_size);
    close(fd);
    return found >= 0 ? 0 : 1;
}

/* The other direction: does lavapipe import a memfd that is not its own? */
static int probe_foreign_import(VkPhysicalDevice phys, VkDevice dev)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(phys, &mp);
    const size_t size = 1 << 16;
    int fd = memfd_create("not-mesa", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0)
        return 1;
    VkImportMemoryFdInfoKHR imp = {VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR, NULL,
                                   VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, fd};
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &imp, size, 0};
    VkDeviceMemory mem;
    VkResult vr = vkAllocateMemory(dev, &ai, NULL, &mem);
    printf("== lavapipe importing a plain memfd (no Mesa header) as OPAQUE_FD: VkResult %d\n", (int)vr);
    if (vr == VK_SUCCESS)
        vkFreeMemory(dev, mem, NULL);
    else
        close(fd);

    /* A memfd written in Mesa's layout by someone else: header {size, offset, uuid}, the
     * offset again just before the data. */
    static const unsigned char llvmpipe_sha1[16] = {0x6c, 0xb9, 0xee, 0x07, 0x4a, 0x0b, 0xad, 0x7b,
                                                    0x01, 0x2e, 0x1b, 0xe9, 0x69, 0x7e, 0x53, 0x0f};
    for (int with_uuid = 0; with_uuid < 2; ++with_uuid) {
        const uint64_t offset = 4096, total = offset + size;
        fd = memfd_create("mesa-layout", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)total) != 0)
            return 1;
        unsigned char hdr[40] = {0};
        memcpy(hdr, &total, 8);
        memcpy(hdr + 8, &offset, 8);
        if (with_uuid)
            memcpy(hdr + 16, llvmpipe_sha1, 16);
        if (pwrite(fd, hdr, 32, 0) != 32 || pwrite(fd, &offset, 8, (off_t)offset - 8) != 8)
            return 1;
        uint32_t magic = 0x600dcafe;
        if (pwrite(fd, &magic, 4, (off_t)offset) != 4)
            return 1;
        imp.fd = fd;
        vr = vkAllocateMemory(dev, &ai, NULL, &mem);
        printf("== lavapipe importing a foreign memfd in Mesa's layout, %s uuid: VkResult %d", with_uuid ? "with the" : "without a",
               (int)vr);
        if (vr == VK_SUCCESS) {
            uint32_t *q = NULL;
            if (vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&q) == VK_SUCCESS) {
                printf(", reads 0x%08x at 0 (0x600dcafe written at file offset 4096)", q[0]);
                vkUnmapMemory(dev, mem);
            }
            vkFreeMemory(dev, mem, NULL);
        } else {
            close(fd);
        }
        printf("\n");
    }
    return 0;
}

int main(void)
{
    if (volkInitialize() != VK_SUCCESS)
        return fprintf(stderr, "no Vulkan loader\n"), 77;
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "lavapipe_memfd_probe", 1, NULL, 0,
                             VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
    VkInstance inst;
    if (vkCreateInstance(&ici, NULL, &inst) != VK_SUCCESS)
        return fprintf(stderr, "vkCreateInstance failed\n"), 77;
    volkLoadInstance(inst);

    uint32_t count = 8;
    VkPhysicalDevice devs[8];
    vkEnumeratePhysicalDevices(inst, &count, devs);
    VkPhysicalDevice phys = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
        VkPhysicalDeviceDriverProperties drv = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES, .pNext = &id};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &drv};
        vkGetPhysicalDeviceProperties2(devs[i], &p2);
        if (p2.properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU)
            continue;
        phys = devs[i];
        printf("device: %s (driver %s, %s), driverID %d\n", p2.properties.deviceName, drv.driverName, drv.driverInfo,
               (int)drv.driverID);
        printf("deviceUUID:");
        for (int k = 0; k < 16; ++k)
            printf(" %02x", id.deviceUUID[k]);
        printf("\ndriverUUID:");
        for (int k = 0; k < 16; ++k)
            printf(" %02x", id.driverUUID[k]);
        printf("\n");
        break;
    }
    if (!phys)
        return fprintf(stderr, "no CPU (lavapipe) device\n"), 77;

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    const char *exts[] = {"VK_KHR_external_memory_fd"};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &qci, 0, NULL, 1, exts, NULL};
    VkDevice dev;
    if (vkCreateDevice(phys, &dci, NULL, &dev) != VK_SUCCESS)
        return fprintf(stderr, "vkCreateDevice failed\n"), 1;
    volkLoadDevice(dev);

    int status = 0;
    const VkDeviceSize sizes[] = {4096, (1u << 20) + 1, 16u << 20};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i)
        status |= probe(phys, dev, sizes[i]);
    status |= probe_foreign_import(phys, dev);
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(inst, NULL);
    return status;
}
