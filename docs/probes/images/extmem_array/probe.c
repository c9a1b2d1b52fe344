/*
 * probe.c - what NVIDIA's driver checks in cuExternalMemoryGetMappedMipmappedArray, with
 * NVIDIA's Vulkan driver as the exporter: VkImages (OPTIMAL and LINEAR, dedicated allocations)
 * and a plain VkDeviceMemory exported as OPAQUE_FD, imported dedicated and not, then mapped
 * with good and bad descriptors. Prints each call's code; after a success, what the levels
 * report (cuMipmappedArrayGetLevel, cuArray3DGetDescriptor) and how many levels exist.
 * gcc -std=gnu11 probe.c -I<vulkan headers> -I/usr/local/cuda/include -l:libvulkan.so.1 -lcuda
 */
#include <cuda.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

static VkDevice dev;
static VkPhysicalDevice phys;
static PFN_vkGetMemoryFdKHR get_fd;

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

static uint32_t memtype(uint32_t bits)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(phys, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
            return i;
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if (bits & (1u << i))
            return i;
    return 0;
}

struct vimg {
    VkImage image;
    VkDeviceMemory mem;
    VkDeviceSize size;
};

/* An exportable image with a dedicated allocation; mem only (image NULL) when w == 0. */
static int make(struct vimg *v, VkFormat f, VkImageTiling t, VkImageType type, uint32_t w, uint32_t h, uint32_t d,
                uint32_t levels, uint32_t layers, VkImageCreateFlags cflags, VkImageUsageFlags usage, VkDeviceSize bufsize)
{
    memset(v, 0, sizeof(*v));
    VkExportMemoryAllocateInfo exp = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, NULL,
                                      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkMemoryDedicatedAllocateInfo ded = {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO, NULL, VK_NULL_HANDLE,
                                         VK_NULL_HANDLE};
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &exp, bufsize, 0};
    if (w) {
        VkExternalMemoryImageCreateInfo emi = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO, NULL,
                                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
        VkImageCreateInfo ci = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, &emi, cflags, type, f, {w, h, d}, levels,
                                layers, VK_SAMPLE_COUNT_1_BIT, t, usage, VK_SHARING_MODE_EXCLUSIVE, 0, NULL,
                                VK_IMAGE_LAYOUT_UNDEFINED};
        VkResult r = vkCreateImage(dev, &ci, NULL, &v->image);
        if (r) {
            printf("vkCreateImage(fmt %d tiling %d %ux%ux%u levels %u layers %u) -> %d\n", f, t, w, h, d, levels,
                   layers, r);
            return -1;
        }
        VkMemoryRequirements mr;
        vkGetImageMemoryRequirements(dev, v->image, &mr);
        ai.allocationSize = mr.size;
        ai.memoryTypeIndex = memtype(mr.memoryTypeBits);
        ded.image = v->image;
        exp.pNext = &ded;
        printf("# image fmt %d tiling %d type %d %ux%ux%u levels %u layers %u: %llu bytes (alignment %llu)\n", f, t,
               type, w, h, d, levels, layers, (unsigned long long)mr.size, (unsigned long long)mr.alignment);
        if (t == VK_IMAGE_TILING_LINEAR) {
            VkImageSubresource sr = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
            VkSubresourceLayout sl;
            vkGetImageSubresourceLayout(dev, v->image, &sr, &sl);
            printf("#   linear layout: offset %llu rowPitch %llu size %llu\n", (unsigned long long)sl.offset,
                   (unsigned long long)sl.rowPitch, (unsigned long long)sl.size);
        }
    } else {
        ai.memoryTypeIndex = memtype(~0u);
        printf("# plain memory: %llu bytes\n", (unsigned long long)bufsize);
    }
    VkResult r = vkAllocateMemory(dev, &ai, NULL, &v->mem);
    if (r) {
        printf("vkAllocateMemory -> %d\n", r);
        return -1;
    }
    if (v->image && (r = vkBindImageMemory(dev, v->image, v->mem, 0))) {
        printf("vkBindImageMemory -> %d\n", r);
        return -1;
    }
    v->size = ai.allocationSize;
    return 0;
}

static CUexternalMemory import(struct vimg *v, int dedicated, unsigned long long size)
{
    VkMemoryGetFdInfoKHR gi = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, NULL, v->mem,
                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    if (get_fd(dev, &gi, &fd))
        return NULL;
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
    memset(&d, 0, sizeof(d));
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    d.handle.fd = fd;
    d.size = size ? size : v->size;
    d.flags = dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0;
    CUexternalMemory m = NULL;
    CUresult r = cuImportExternalMemory(&m, &d);
    printf("cuImportExternalMemory(size %llu, %s) -> %s\n", d.size, dedicated ? "dedicated" : "not dedicated", rn(r));
    if (r) {
        close(fd);
        return NULL;
    }
    return m;
}

static CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc(CUarray_format f, unsigned ch, size_t w, size_t h, size_t d,
                                                     unsigned flags, unsigned levels)
{
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC m;
    memset(&m, 0, sizeof(m));
    m.arrayDesc.Format = f;
    m.arrayDesc.NumChannels = ch;
    m.arrayDesc.Width = w;
    m.arrayDesc.Height = h;
    m.arrayDesc.Depth = d;
    m.arrayDesc.Flags = flags;
    m.numLevels = levels;
    return m;
}

/* Maps m with md and says what came out; destroys what was made. */
static CUresult try_map(const char *what, CUexternalMemory m, CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC md)
{
    CUmipmappedArray mm = NULL;
    CUresult r = cuExternalMemoryGetMappedMipmappedArray(&mm, m, &md);
    printf("%-58s -> %s", what, rn(r));
    if (r == CUDA_SUCCESS) {
        unsigned n = 0;
        CUarray lv = NULL;
        CUDA_ARRAY3D_DESCRIPTOR ad;
        for (n = 0; n < 20; ++n)
            if (cuMipmappedArrayGetLevel(&lv, mm, n))
                break;
        printf(" (levels reachable %u", n);
        if (!cuMipmappedArrayGetLevel(&lv, mm, 0) && !cuArray3DGetDescriptor(&ad, lv))
            printf("; level 0: %zux%zux%zu fmt 0x%x ch %u flags 0x%x", ad.Width, ad.Height, ad.Depth, ad.Format,
                   ad.NumChannels, ad.Flags);
        if (n > 1 && !cuMipmappedArrayGetLevel(&lv, mm, n - 1) && !cuArray3DGetDescriptor(&ad, lv))
            printf("; last: %zux%zux%zu", ad.Width, ad.Height, ad.Depth);
        CUDA_ARRAY_MEMORY_REQUIREMENTS req;
        CUdevice d0;
        cuDeviceGet(&d0, 0);
        if (!cuMipmappedArrayGetMemoryRequirements(&req, mm, d0))
            printf("; requirements %zu align %zu", req.size, req.alignment);
        printf(") destroy -> %s", rn(cuMipmappedArrayDestroy(mm)));
    }
    printf("\n");
    return r;
}

#define U8 CU_AD_FORMAT_UNSIGNED_INT8
#define F32 CU_AD_FORMAT_FLOAT
#define F16 CU_AD_FORMAT_HALF

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0); /* a driver abort keeps what was printed */
    if (cuInit(0))
        return 1;
    CUdevice d0;
    CUcontext ctx;
    cuDeviceGet(&d0, 0);
    cuDevicePrimaryCtxRetain(&ctx, d0);
    cuCtxSetCurrent(ctx);
    int drv = 0;
    cuDriverGetVersion(&drv);
    printf("# CUDA driver %d\n", drv);

    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "probe", 1, "probe", 1, VK_API_VERSION_1_2};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
    VkInstance inst;
    VkResult vr = vkCreateInstance(&ici, NULL, &inst);
    if (vr) {
        printf("vkCreateInstance -> %d\n", vr);
        return 1;
    }
    uint32_t n = 1;
    vkEnumeratePhysicalDevices(inst, &n, &phys);
    VkPhysicalDeviceProperties pp;
    vkGetPhysicalDeviceProperties(phys, &pp);
    printf("# Vulkan device: %s, driver 0x%x\n", pp.deviceName, pp.driverVersion);
    float prio = 1;
    VkDeviceQueueCreateInfo q = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    const char *exts[] = {"VK_KHR_external_memory_fd"};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &q, 0, NULL, 1, exts, NULL};
    if ((vr = vkCreateDevice(phys, &dci, NULL, &dev))) {
        printf("vkCreateDevice -> %d\n", vr);
        return 1;
    }
    get_fd = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(dev, "vkGetMemoryFdKHR");

    VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                              VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
    struct vimg v;
    CUexternalMemory m;

    /* ---- A 64x64 RGBA8 image, OPTIMAL, 1 level, dedicated. ---- */
    printf("\n== 64x64 R8G8B8A8_UNORM OPTIMAL, dedicated import\n");
    if (!make(&v, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_2D, 64, 64, 1, 1, 1, 0, usage, 0) &&
        (m = import(&v, 1, 0))) {
        CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC g = desc(U8, 4, 64, 64, 0, 0, 1), b;
        try_map("good: U8x4 64x64 flags 0 levels 1", m, g);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_SURFACE_LDST; try_map("flags SURFACE_LDST", m, b);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_COLOR_ATTACHMENT; try_map("flags COLOR_ATTACHMENT", m, b);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_TEXTURE_GATHER; try_map("flags TEXTURE_GATHER", m, b);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_DEPTH_TEXTURE; try_map("flags DEPTH_TEXTURE", m, b);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_SPARSE; try_map("flags SPARSE", m, b);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_DEFERRED_MAPPING; try_map("flags DEFERRED_MAPPING", m, b);
        b = g; b.arrayDesc.Flags = 0x1000; try_map("flags 0x1000 (undefined)", m, b);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_LAYERED; try_map("flags LAYERED, Depth 0", m, b);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_LAYERED; b.arrayDesc.Depth = 1; try_map("flags LAYERED, Depth 1", m, b);
        b = g; b.arrayDesc.Flags = CUDA_ARRAY3D_CUBEMAP; b.arrayDesc.Depth = 6; try_map("flags CUBEMAP, Depth 6 (64x64)", m, b);
        /* numLevels 0 aborted the process inside the driver (free(): invalid next size) on
         * the first run: left out so that the rest is seen. */
        b = g; b.numLevels = 2; try_map("numLevels 2 (memory holds 1)", m, b);
        b = g; b.numLevels = 7; try_map("numLevels 7 (the full chain of 64)", m, b);
        b = g; b.numLevels = 8; try_map("numLevels 8 (past the chain)", m, b);
        b = g; b.arrayDesc.Format = (CUarray_format)0x7; try_map("Format 0x7 (not a format)", m, b);
        b = g; b.arrayDesc.Format = (CUarray_format)0; try_map("Format 0", m, b);
        b = g; b.arrayDesc.NumChannels = 0; try_map("NumChannels 0", m, b);
        b = g; b.arrayDesc.NumChannels = 3; try_map("NumChannels 3", m, b);
        b = g; b.arrayDesc.NumChannels = 5; try_map("NumChannels 5", m, b);
        b = g; b.arrayDesc.NumChannels = 1; try_map("NumChannels 1 (smaller than the image)", m, b);
        b = g; b.arrayDesc.Format = F32; try_map("FLOAT x4 (4x the bytes)", m, b);
        b = g; b.arrayDesc.Width = 0; try_map("Width 0", m, b);
        b = g; b.arrayDesc.Height = 0; try_map("Height 0 (1D)", m, b);
        b = g; b.arrayDesc.Depth = 2; try_map("Depth 2 (3D, twice the bytes)", m, b);
        b = g; b.arrayDesc.Width = 65; try_map("Width 65 (a little larger)", m, b);
        b = g; b.arrayDesc.Width = 128; try_map("Width 128 (twice)", m, b);
        b = g; b.arrayDesc.Width = 4096; b.arrayDesc.Height = 4096; try_map("4096x4096 (far larger)", m, b);
        b = g; b.arrayDesc.Width = 1 << 20; try_map("Width 1<<20 (past the 2D limit)", m, b);
        b = g; b.arrayDesc.Width = 32; b.arrayDesc.Height = 32; try_map("32x32 (smaller)", m, b);
        b = g; b.offset = 1; try_map("offset 1", m, b);
        b = g; b.offset = 256; try_map("offset 256", m, b);
        b = g; b.offset = 4096; try_map("offset 4096", m, b);
        b = g; b.offset = v.size; try_map("offset = size", m, b);
        b = g; b.offset = 1ull << 40; try_map("offset 1<<40", m, b);
        b = g; b.arrayDesc.Width = 16; b.arrayDesc.Height = 16; b.offset = 4096; try_map("16x16 at offset 4096", m, b);
        b = g; b.arrayDesc.Width = 16; b.arrayDesc.Height = 16; b.offset = 512; try_map("16x16 at offset 512", m, b);
        b = g; b.arrayDesc.Width = 16; b.arrayDesc.Height = 16; b.offset = 1024; try_map("16x16 at offset 1024", m, b);
        b = g; b.reserved[0] = 1; try_map("reserved[0] 1", m, b);
        b = g; b.reserved[15] = 1; try_map("reserved[15] 1", m, b);
        CUmipmappedArray mm;
        printf("%-58s -> %s\n", "mipmap NULL", rn(cuExternalMemoryGetMappedMipmappedArray(NULL, m, &g)));
        printf("%-58s -> %s\n", "desc NULL", rn(cuExternalMemoryGetMappedMipmappedArray(&mm, m, NULL)));
        printf("%-58s -> %s\n", "extMem NULL", rn(cuExternalMemoryGetMappedMipmappedArray(&mm, NULL, &g)));
        /* A forged extMem (0x1234) died of SIGSEGV inside the driver on the second run: left out. */
        printf("extMem forged (0x1234): skipped (the first run died of SIGSEGV in the driver)\n");
        /* Two arrays over the same memory; one kept past cuDestroyExternalMemory. */
        CUmipmappedArray a1 = NULL, a2 = NULL;
        CUresult r1 = cuExternalMemoryGetMappedMipmappedArray(&a1, m, &g);
        CUresult r2 = cuExternalMemoryGetMappedMipmappedArray(&a2, m, &g);
        printf("%-58s -> %s, %s\n", "two mappings of the same image", rn(r1), rn(r2));
        CUdeviceptr p = 0;
        CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd;
        memset(&bd, 0, sizeof(bd));
        bd.size = v.size;
        printf("%-58s -> %s\n", "a buffer of the same memory as well", rn(cuExternalMemoryGetMappedBuffer(&p, m, &bd)));
        if (p)
            cuMemFree(p);
        printf("%-58s -> %s\n", "cuDestroyExternalMemory with arrays mapped", rn(cuDestroyExternalMemory(m)));
        CUarray lv = NULL;
        CUresult rl = a1 ? cuMipmappedArrayGetLevel(&lv, a1, 0) : CUDA_ERROR_UNKNOWN;
        printf("%-58s -> %s\n", "  level 0 of a mapping after that", rn(rl));
        if (!rl) {
            unsigned char host[64 * 64 * 4];
            CUDA_MEMCPY3D c;
            memset(&c, 0, sizeof(c));
            c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
            c.srcArray = lv;
            c.dstMemoryType = CU_MEMORYTYPE_HOST;
            c.dstHost = host;
            c.dstPitch = 256;
            c.WidthInBytes = 256;
            c.Height = 64;
            c.Depth = 1;
            printf("%-58s -> %s\n", "  cuMemcpy3D from it", rn(cuMemcpy3D(&c)));
        }
        printf("%-58s -> %s, %s\n", "  destroying both mappings", rn(a1 ? cuMipmappedArrayDestroy(a1) : 0),
               rn(a2 ? cuMipmappedArrayDestroy(a2) : 0));
        printf("%-58s -> %s\n", "  destroying a mapping twice", rn(a1 ? cuMipmappedArrayDestroy(a1) : 0));
    }

    /* ---- The same image imported without the dedicated flag, and with a smaller size. ---- */
    printf("\n== the same kind of image, import without CUDA_EXTERNAL_MEMORY_DEDICATED\n");
    if (!make(&v, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_2D, 64, 64, 1, 1, 1, 0, usage, 0) &&
        (m = import(&v, 0, 0))) {
        try_map("good desc, not dedicated", m, desc(U8, 4, 64, 64, 0, 0, 1));
        cuDestroyExternalMemory(m);
    }
    printf("\n== the image imported with a size of 4096 (smaller than the image)\n");
    if (!make(&v, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_2D, 64, 64, 1, 1, 1, 0, usage, 0) &&
        (m = import(&v, 1, 4096))) {
        try_map("64x64 U8x4 over a 4096-byte import", m, desc(U8, 4, 64, 64, 0, 0, 1));
        try_map("32x32 U8x4 over a 4096-byte import", m, desc(U8, 4, 32, 32, 0, 0, 1));
        cuDestroyExternalMemory(m);
    }

    /* ---- Plain memory (no image), imported dedicated and not. ---- */
    printf("\n== plain VkDeviceMemory of 1 MiB (no image)\n");
    for (int ded = 0; ded < 2; ++ded)
        if (!make(&v, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 << 20) && (m = import(&v, ded, 0))) {
            try_map("U8x4 64x64 1 level", m, desc(U8, 4, 64, 64, 0, 0, 1));
            try_map("U8x4 256x256 9 levels", m, desc(U8, 4, 256, 256, 0, 0, 9));
            try_map("U8x4 512x512 (exactly 1 MiB tight)", m, desc(U8, 4, 512, 512, 0, 0, 1));
            try_map("U8x4 1024x1024 (4 MiB)", m, desc(U8, 4, 1024, 1024, 0, 0, 1));
            try_map("FLOAT x1 100x3 layered 2", m, desc(F32, 1, 100, 3, 2, CUDA_ARRAY3D_LAYERED, 1));
            cuDestroyExternalMemory(m);
        }

    /* ---- Mip chains, layers, 3D, LINEAR, formats. ---- */
    printf("\n== 33x17 R16G16B16A16_SFLOAT OPTIMAL, 3 layers, 4 levels\n");
    if (!make(&v, VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_2D, 33, 17, 1, 4, 3, 0, usage,
              0) &&
        (m = import(&v, 1, 0))) {
        try_map("HALF x4 33x17x3 LAYERED levels 4", m, desc(F16, 4, 33, 17, 3, CUDA_ARRAY3D_LAYERED, 4));
        try_map("HALF x4 33x17x3 LAYERED levels 6 (full chain)", m, desc(F16, 4, 33, 17, 3, CUDA_ARRAY3D_LAYERED, 6));
        try_map("HALF x4 33x17 levels 4 (not layered)", m, desc(F16, 4, 33, 17, 0, 0, 4));
        try_map("HALF x4 33x17x3 (3D, not layered)", m, desc(F16, 4, 33, 17, 3, 0, 1));
        cuDestroyExternalMemory(m);
    }
    printf("\n== 16x16 cube R32_SFLOAT\n");
    if (!make(&v, VK_FORMAT_R32_SFLOAT, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_2D, 16, 16, 1, 1, 6,
              VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, usage, 0) &&
        (m = import(&v, 1, 0))) {
        try_map("FLOAT x1 16x16x6 CUBEMAP", m, desc(F32, 1, 16, 16, 6, CUDA_ARRAY3D_CUBEMAP, 1));
        try_map("FLOAT x1 16x8x6 CUBEMAP (not square)", m, desc(F32, 1, 16, 8, 6, CUDA_ARRAY3D_CUBEMAP, 1));
        try_map("FLOAT x1 16x16x5 CUBEMAP (Depth 5)", m, desc(F32, 1, 16, 16, 5, CUDA_ARRAY3D_CUBEMAP, 1));
        try_map("FLOAT x1 16x16x6 CUBEMAP|LAYERED", m,
                desc(F32, 1, 16, 16, 6, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 1));
        cuDestroyExternalMemory(m);
    }
    printf("\n== 9x9x5 3D R32G32B32A32_SFLOAT, 3 levels\n");
    if (!make(&v, VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_3D, 9, 9, 5, 3, 1, 0, usage,
              0) &&
        (m = import(&v, 1, 0))) {
        try_map("FLOAT x4 9x9x5 levels 3", m, desc(F32, 4, 9, 9, 5, 0, 3));
        cuDestroyExternalMemory(m);
    }
    printf("\n== 13x7 R8G8B8A8_UNORM LINEAR\n");
    if (!make(&v, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_LINEAR, VK_IMAGE_TYPE_2D, 13, 7, 1, 1, 1, 0,
              VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, 0) &&
        (m = import(&v, 1, 0))) {
        try_map("U8x4 13x7", m, desc(U8, 4, 13, 7, 0, 0, 1));
        try_map("U8x4 13x7 SURFACE_LDST", m, desc(U8, 4, 13, 7, 0, CUDA_ARRAY3D_SURFACE_LDST, 1));
        cuDestroyExternalMemory(m);
    }
    printf("\n== 100x1 1D R32_UINT\n");
    if (!make(&v, VK_FORMAT_R32_UINT, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_1D, 100, 1, 1, 1, 1, 0, usage, 0) &&
        (m = import(&v, 1, 0))) {
        try_map("UINT32 x1 100 (Height 0)", m, desc(CU_AD_FORMAT_UNSIGNED_INT32, 1, 100, 0, 0, 0, 1));
        try_map("UINT32 x1 100x1 (Height 1)", m, desc(CU_AD_FORMAT_UNSIGNED_INT32, 1, 100, 1, 0, 0, 1));
        cuDestroyExternalMemory(m);
    }
    printf("\n== 13x7 D32_SFLOAT OPTIMAL (depth)\n");
    if (!make(&v, VK_FORMAT_D32_SFLOAT, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_2D, 13, 7, 1, 1, 1, 0,
              VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0) &&
        (m = import(&v, 1, 0))) {
        try_map("FLOAT x1 13x7", m, desc(F32, 1, 13, 7, 0, 0, 1));
        try_map("FLOAT x1 13x7 DEPTH_TEXTURE", m, desc(F32, 1, 13, 7, 0, CUDA_ARRAY3D_DEPTH_TEXTURE, 1));
        try_map("FLOAT x1 13x7 SURFACE_LDST", m, desc(F32, 1, 13, 7, 0, CUDA_ARRAY3D_SURFACE_LDST, 1));
        cuDestroyExternalMemory(m);
    }
    printf("\n== 13x7 D16_UNORM OPTIMAL (depth)\n");
    if (!make(&v, VK_FORMAT_D16_UNORM, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_2D, 13, 7, 1, 1, 1, 0,
              VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0) &&
        (m = import(&v, 1, 0))) {
        try_map("UINT16 x1 13x7", m, desc(CU_AD_FORMAT_UNSIGNED_INT16, 1, 13, 7, 0, 0, 1));
        try_map("UINT16 x1 13x7 DEPTH_TEXTURE", m,
                desc(CU_AD_FORMAT_UNSIGNED_INT16, 1, 13, 7, 0, CUDA_ARRAY3D_DEPTH_TEXTURE, 1));
        cuDestroyExternalMemory(m);
    }
    printf("\n== the largest 2D size NVIDIA accepts over a 64x64 RGBA8 image's memory (U8x4, square)\n");
    if (!make(&v, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TYPE_2D, 64, 64, 1, 1, 1, 0, usage, 0) &&
        (m = import(&v, 1, 0))) {
        unsigned lo = 1, hi = 4096;
        while (lo < hi) {
            unsigned mid = (lo + hi + 1) / 2;
            CUmipmappedArray mm = NULL;
            CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC md = desc(U8, 4, mid, mid, 0, 0, 1);
            if (cuExternalMemoryGetMappedMipmappedArray(&mm, m, &md) == CUDA_SUCCESS) {
                cuMipmappedArrayDestroy(mm);
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        printf("largest square accepted: %ux%u (memory %llu bytes)\n", lo, lo, (unsigned long long)v.size);
        cuDestroyExternalMemory(m);
    }
    return 0;
}
