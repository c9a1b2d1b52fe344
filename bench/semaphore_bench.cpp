// extmem-bench-semaphore: how fast a signal crosses extmem's Vulkan semaphore layer
// (docs/external-semaphores.md), beside a raw futex wake-up between two threads on this
// machine. Each row is the median (and 90th percentile) of many single crossings:
//   futex: one thread stores and FUTEX_WAKEs, the other returns from FUTEX_WAIT;
//   Vulkan -> Vulkan: a host vkSignalSemaphore on one device until a queue wait on another
//     device (the fd imported there) completes its fence;
//   CUDA -> Vulkan: cuSignalExternalSemaphoresAsync until the Vulkan fence completes;
//   Vulkan -> CUDA: vkSignalSemaphore on the host until cuStreamSynchronize returns after a
//     queued cuWaitExternalSemaphoresAsync;
//   ping-pong: a Vulkan queue and a CUDA stream taking turns on one timeline, all queued at
//     once (no host synchronisation): turns per second.
// Usage: extmem-bench-semaphore [rounds]. Runs lavapipe with the layer from the build tree
// unless the environment names drivers and layers itself.
#include "semaphore_harness.h"

#include "extmem/cuda.h"
#include "extmem/vulkan.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace extmem_vk_sem_test;

namespace {

double now_us()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void report(const char *what, std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    printf("%-44s median %8.1f us   p90 %8.1f us   (%zu runs)\n", what, v[v.size() / 2], v[v.size() * 9 / 10],
           v.size());
}

void futex_row(int rounds)
{
    std::atomic<uint32_t> word{0};
    std::atomic<double> woke{0};
    std::vector<double> lat;
    for (int i = 0; i < rounds; ++i) {
        word = 0;
        std::thread waiter([&] {
            while (word.load() == 0)
                syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr, 0);
            woke = now_us();
        });
        std::this_thread::sleep_for(std::chrono::microseconds(300)); // the waiter is asleep
        double t0 = now_us();
        word = 1;
        syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
        waiter.join();
        lat.push_back(woke - t0);
    }
    report("futex wake -> waiter runs", lat);
}

#define CHECK(cond)                                                                                              \
    do {                                                                                                         \
        if (!(cond)) {                                                                                           \
            fprintf(stderr, "bench: %s failed (line %d) %s\n", #cond, __LINE__, extmem_error_detail());         \
            exit(1);                                                                                             \
        }                                                                                                        \
    } while (0)

} // namespace

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 200;
#ifdef EXTMEM_LAVAPIPE_ICD
    setenv("VK_ICD_FILENAMES", EXTMEM_LAVAPIPE_ICD, 0);
#endif
    setenv("VK_ADD_LAYER_PATH", EXTMEM_LAYER_DIR, 0);
    setenv("VK_INSTANCE_LAYERS", "VK_LAYER_EXTMEM_external_semaphore", 0);
    printf("extmem-bench-semaphore: %u CPUs\n", std::thread::hardware_concurrency());
    futex_row(rounds);

    CHECK(cuInit(0) == CUDA_SUCCESS);
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    Instance vk;
    Device a, b;
    std::string why = vk.init();
    if (why.empty())
        why = a.init(vk);
    if (why.empty())
        why = b.init(vk);
    if (!why.empty()) {
        fprintf(stderr, "bench: %s\n", why.c_str());
        return 1;
    }
    VkSemaphore s = a.semaphore(true, 0, true), t = b.semaphore(true, 0, false);
    CHECK(b.import_fd(t, a.export_fd(s), 0) == VK_SUCCESS);
    CUexternalSemaphore ext;
    CHECK(extmem_vk_import_semaphore(a.device, s, true, &ext) == CUDA_SUCCESS);
    uint64_t v = 0;

    std::vector<double> lat;
    for (int i = 0; i < rounds; ++i) {
        VkFence f = b.fence();
        CHECK(b.submit({{t, ++v}}, {}, f) == VK_SUCCESS);
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, s, v};
        double t0 = now_us();
        CHECK(vkSignalSemaphore(a.device, &si) == VK_SUCCESS);
        CHECK(vkWaitForFences(b.device, 1, &f, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
        lat.push_back(now_us() - t0);
        b.destroy(f);
    }
    report("Vulkan host signal -> other device's fence", lat);

    lat.clear();
    for (int i = 0; i < rounds; ++i) {
        VkFence f = a.fence();
        CHECK(a.submit({{s, ++v}}, {}, f) == VK_SUCCESS);
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS p;
        memset(&p, 0, sizeof(p));
        p.params.fence.value = v;
        double t0 = now_us();
        CHECK(cuSignalExternalSemaphoresAsync(&ext, &p, 1, stream) == CUDA_SUCCESS);
        CHECK(vkWaitForFences(a.device, 1, &f, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
        lat.push_back(now_us() - t0);
        a.destroy(f);
    }
    report("CUDA signal -> Vulkan queue wait's fence", lat);

    lat.clear();
    for (int i = 0; i < rounds; ++i) {
        CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS p;
        memset(&p, 0, sizeof(p));
        p.params.fence.value = ++v;
        CHECK(cuWaitExternalSemaphoresAsync(&ext, &p, 1, stream) == CUDA_SUCCESS);
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, s, v};
        double t0 = now_us();
        CHECK(vkSignalSemaphore(a.device, &si) == VK_SUCCESS);
        CHECK(cuStreamSynchronize(stream) == CUDA_SUCCESS);
        lat.push_back(now_us() - t0);
    }
    report("Vulkan signal -> CUDA stream wait done", lat);

    // Ping-pong, everything queued at once: Vulkan waits odd turns and signals even ones.
    const int turns = rounds * 10;
    const uint64_t base = v;
    double t0 = now_us();
    for (int k = 0; k < turns; ++k) {
        CHECK(a.submit({{s, base + 2 * k + 1}}, {{s, base + 2 * k + 2}}, VK_NULL_HANDLE) == VK_SUCCESS);
        CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
        memset(&wp, 0, sizeof(wp));
        wp.params.fence.value = base + 2 * k + 2;
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
        memset(&sp, 0, sizeof(sp));
        sp.params.fence.value = base + 2 * k + 3;
        CHECK(cuWaitExternalSemaphoresAsync(&ext, &wp, 1, stream) == CUDA_SUCCESS);
        CHECK(cuSignalExternalSemaphoresAsync(&ext, &sp, 1, stream) == CUDA_SUCCESS);
    }
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS first;
    memset(&first, 0, sizeof(first));
    first.params.fence.value = base + 1;
    double queued = now_us() - t0;
    t0 = now_us();
    CHECK(cuSignalExternalSemaphoresAsync(&ext, &first, 1, nullptr) == CUDA_SUCCESS);
    CHECK(cuStreamSynchronize(stream) == CUDA_SUCCESS);
    CHECK(vkQueueWaitIdle(a.queue) == VK_SUCCESS);
    double spent = now_us() - t0;
    printf("%-44s %8.0f turns/s (%d turns of Vulkan then CUDA; queued in %.0f us)\n",
           "ping-pong Vulkan queue <-> CUDA stream", turns / (spent / 1e6), turns, queued);

    CHECK(cuDestroyExternalSemaphore(ext) == CUDA_SUCCESS);
    b.destroy(t);
    a.destroy(s);
    a.close();
    b.close();
    vk.close();
    cuStreamDestroy(stream);
    cuDevicePrimaryCtxRelease(dev);
    return 0;
}
