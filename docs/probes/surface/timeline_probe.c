/*
 * timeline_probe.c - what NVIDIA's driver does with a Vulkan timeline semaphore exported as
 * OPAQUE_FD and imported into CUDA as OPAQUE_FD (the binary type), as TIMELINE_SEMAPHORE_FD,
 * and a binary one imported as TIMELINE_SEMAPHORE_FD: the import's code, then what a signal
 * and a wait through the import do to the Vulkan semaphore's counter.
 * gcc -std=gnu11 timeline_probe.c -I<vulkan headers> -I/usr/local/cuda/include -lvulkan -lcuda
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vulkan.h>
#include <fcntl.h>

static int fcntl_ok(int fd) { return fcntl(fd, F_GETFD) >= 0; }

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

static VkDevice dev;
static PFN_vkGetSemaphoreFdKHR get_fd;

static VkSemaphore make(int timeline)
{
    VkSemaphoreTypeCreateInfo type = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL,
                                      timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY, 0};
    VkExportSemaphoreCreateInfo exp = {VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, &type,
                                       VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkSemaphoreCreateInfo ci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &exp, 0};
    VkSemaphore s = VK_NULL_HANDLE;
    VkResult r = vkCreateSemaphore(dev, &ci, NULL, &s);
    if (r)
        printf("vkCreateSemaphore(%s) -> %d\n", timeline ? "timeline" : "binary", r);
    return s;
}

static int export_fd(VkSemaphore s)
{
    VkSemaphoreGetFdInfoKHR gi = {VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR, NULL, s,
                                  VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    VkResult r = get_fd(dev, &gi, &fd);
    if (r)
        printf("vkGetSemaphoreFdKHR -> %d\n", r);
    return fd;
}

static void try_import(const char *what, int fd, CUexternalSemaphoreHandleType type, VkSemaphore vs, int timeline)
{
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.handle.fd = fd;
    CUexternalSemaphore es = NULL;
    CUresult r = cuImportExternalSemaphore(&es, &d);
    printf("%s: cuImportExternalSemaphore -> %s; fd %d afterwards %s\n", what, rn(r), fd,
           fcntl_ok(fd) ? "open" : "closed");
    if (r)
        return;
    if (timeline) {
        uint64_t v = 99;
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
        memset(&sp, 0, sizeof sp);
        sp.params.fence.value = 5;
        r = cuSignalExternalSemaphoresAsync(&es, &sp, 1, NULL);
        CUresult r2 = cuCtxSynchronize();
        vkGetSemaphoreCounterValue(dev, vs, &v);
        printf("  signal value 5 -> %s, sync %s; Vulkan counter now %llu\n", rn(r), rn(r2), (unsigned long long)v);
        memset(&sp, 0, sizeof sp);
        r = cuSignalExternalSemaphoresAsync(&es, &sp, 1, NULL);
        r2 = cuCtxSynchronize();
        vkGetSemaphoreCounterValue(dev, vs, &v);
        printf("  signal value 0 -> %s, sync %s; Vulkan counter now %llu\n", rn(r), rn(r2), (unsigned long long)v);
        CUstream st;
        cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
        CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
        memset(&wp, 0, sizeof wp);
        wp.params.fence.value = 8;
        r = cuWaitExternalSemaphoresAsync(&es, &wp, 1, st);
        usleep(200000);
        CUresult q1 = cuStreamQuery(st);
        VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, NULL, vs, 9};
        vkSignalSemaphore(dev, &si);
        usleep(200000);
        CUresult q2 = cuStreamQuery(st);
        printf("  wait value 8 -> %s; before Vulkan signals 9: %s; after: %s\n", rn(r), rn(q1), rn(q2));
        memset(&wp, 0, sizeof wp);
        r = cuWaitExternalSemaphoresAsync(&es, &wp, 1, st);
        usleep(200000);
        printf("  wait value 0 -> %s; stream %s\n", rn(r), rn(cuStreamQuery(st)));
    }
    printf("  cuDestroyExternalSemaphore -> %s\n", rn(cuDestroyExternalSemaphore(es)));
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "probe", 1, NULL, 0, VK_API_VERSION_1_2};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
    VkInstance inst;
    VkResult vr = vkCreateInstance(&ici, NULL, &inst);
    if (vr) {
        printf("vkCreateInstance -> %d\n", vr);
        return 1;
    }
    uint32_t n = 1;
    VkPhysicalDevice pd;
    vkEnumeratePhysicalDevices(inst, &n, &pd);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    printf("# Vulkan device: %s, driver %u\n", props.deviceName, props.driverVersion);
    float prio = 1.0f;
    VkDeviceQueueCreateInfo q = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.timelineSemaphore = VK_TRUE;
    const char *ext[] = {"VK_KHR_external_semaphore_fd"};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12, 0, 1, &q, 0, NULL, 1, ext, NULL};
    vr = vkCreateDevice(pd, &dci, NULL, &dev);
    if (vr) {
        printf("vkCreateDevice -> %d\n", vr);
        return 1;
    }
    get_fd = (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(dev, "vkGetSemaphoreFdKHR");
    CUcontext ctx;
    cuInit(0);
    cuCtxCreate(&ctx, NULL, 0, 0);
    VkSemaphore t = make(1), b = make(0);
    try_import("timeline exported OPAQUE_FD, imported OPAQUE_FD", export_fd(t), CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, t, 1);
    try_import("timeline exported OPAQUE_FD, imported TIMELINE_SEMAPHORE_FD", export_fd(t),
               CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD, t, 1);
    try_import("binary exported OPAQUE_FD, imported TIMELINE_SEMAPHORE_FD", export_fd(b),
               CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD, b, 0);
    try_import("binary exported OPAQUE_FD, imported OPAQUE_FD", export_fd(b), CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, b, 0);
    return 0;
}
