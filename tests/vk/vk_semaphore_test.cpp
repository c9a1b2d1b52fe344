// External semaphores through extmem's Vulkan layer (src/vk/layer) on lavapipe, for real:
// the extension and its properties, export and import between two devices and two processes,
// binary and timeline, queue and host signals, the fence rule, a process that dies, the
// validation layers, and CUDA on the other side (docs/external-semaphores.md).
#include "framework/testing.h"
#include "semaphore_harness.h"

#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>

using namespace extmem_test;
using namespace extmem_vk_sem_test;

namespace {

class LayerTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_EQ("", vk.init());
        ASSERT_EQ("", a.init(vk));
        ASSERT_EQ("", b.init(vk));
    }
    Instance vk;
    Device a, b; // two devices of one process: two sides that share nothing but the fd
};

bool fence_done_within(Device &d, VkFence f, int ms)
{
    return vkWaitForFences(d.device, 1, &f, VK_TRUE, (uint64_t)ms * 1000000u) == VK_SUCCESS;
}

} // namespace

TEST_F(LayerTest, DeviceExtensions_ListExternalSemaphoreFd_WithAndWithoutTheLayerName)
{
    EXPECT_TRUE(has_device_extension(vk.physical, nullptr, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME));
    EXPECT_TRUE(has_device_extension(vk.physical, "VK_LAYER_EXTMEM_external_semaphore",
                                     VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME));
    // Everything the driver has is still there.
    EXPECT_TRUE(has_device_extension(vk.physical, nullptr, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME));
}

TEST_F(LayerTest, ExternalSemaphoreProperties_OpaqueFd_IsExportableAndImportable_BinaryAndTimeline)
{
    for (VkSemaphoreType type : {VK_SEMAPHORE_TYPE_BINARY, VK_SEMAPHORE_TYPE_TIMELINE}) {
        VkSemaphoreTypeCreateInfo ti = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, type, 0};
        VkPhysicalDeviceExternalSemaphoreInfo info = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO, &ti,
                                                      VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
        VkExternalSemaphoreProperties props = {};
        props.sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES;
        vkGetPhysicalDeviceExternalSemaphoreProperties(vk.physical, &info, &props);
        EXPECT_EQ((VkExternalSemaphoreFeatureFlags)(VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
                                                     VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT),
                  props.externalSemaphoreFeatures);
        EXPECT_EQ((VkExternalSemaphoreHandleTypeFlags)VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
                  props.compatibleHandleTypes);
        // Types the layer does not add are the driver's answer (lavapipe: none).
        info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT;
        vkGetPhysicalDeviceExternalSemaphoreProperties(vk.physical, &info, &props);
        EXPECT_EQ(0u, props.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT);
    }
}

TEST_F(LayerTest, ExportedFd_IsASealedPayload_AndASuccessfulImportClosesIt)
{
    VkSemaphore s = a.semaphore(false, 0, true);
    int fd = a.export_fd(s);
    ASSERT_GE(fd, 0);
    char link[64], target[256] = {};
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ASSERT_GT(readlink(link, target, sizeof(target) - 1), 0);
    EXPECT_EQ(0, strncmp(target, "/memfd:extmem.semaphore", 23)) << target;
    VkSemaphore t = b.semaphore(false, 0, false);
    EXPECT_EQ(VK_SUCCESS, b.import_fd(t, fd, 0));
    EXPECT_FALSE(fd_is_open(fd)); // Vulkan: a successful import transfers the fd
    b.destroy(t);
    a.destroy(s);
}

TEST_F(LayerTest, ImportOfAForeignFd_IsInvalidExternalHandle_AndLeavesTheFdOpen)
{
    VkSemaphore t = b.semaphore(false, 0, false);
    int memfd = memfd_create("not a semaphore", MFD_CLOEXEC);
    ASSERT_GE(memfd, 0);
    ASSERT_EQ(0, ftruncate(memfd, 4096));
    EXPECT_EQ(VK_ERROR_INVALID_EXTERNAL_HANDLE, b.import_fd(t, memfd, 0));
    EXPECT_TRUE(fd_is_open(memfd));
    close(memfd);
    // A binary payload into a timeline semaphore is refused the same way.
    VkSemaphore s = a.semaphore(false, 0, true);
    VkSemaphore tl = b.semaphore(true, 0, false);
    int fd = a.export_fd(s);
    EXPECT_EQ(VK_ERROR_INVALID_EXTERNAL_HANDLE, b.import_fd(tl, fd, 0));
    EXPECT_TRUE(fd_is_open(fd));
    close(fd);
    b.destroy(tl);
    b.destroy(t);
    a.destroy(s);
}

TEST_F(LayerTest, Binary_SignalledByOneDevicesQueue_ReleasesTheOtherDevicesQueueWait)
{
    VkSemaphore s = a.semaphore(false, 0, true);
    VkSemaphore t = b.semaphore(false, 0, false);
    ASSERT_EQ(VK_SUCCESS, b.import_fd(t, a.export_fd(s), 0));
    for (int round = 0; round < 20; ++round) {
        VkFence waited = b.fence();
        ASSERT_EQ(VK_SUCCESS, b.submit({{t, 0}}, {}, waited));
        if (round == 0) { // the wait really waits
            EXPECT_FALSE(fence_done_within(b, waited, 50));
        }
        VkFence signalled = a.fence();
        ASSERT_EQ(VK_SUCCESS, a.submit({}, {{s, 0}}, signalled));
        EXPECT_TRUE(fence_done_within(a, signalled, 5000));
        EXPECT_TRUE(fence_done_within(b, waited, 5000)) << "round " << round;
        a.destroy(signalled);
        b.destroy(waited);
    }
    b.destroy(t);
    a.destroy(s);
}

TEST_F(LayerTest, Timeline_HostSignal_ReleasesAQueueWaitOnTheOtherDevice)
{
    VkSemaphore s = a.semaphore(true, 2, true);
    VkSemaphore t = b.semaphore(true, 0, false);
    ASSERT_EQ(VK_SUCCESS, b.import_fd(t, a.export_fd(s), 0));
    uint64_t v = 0;
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(b.device, t, &v));
    EXPECT_EQ(2u, v); // the exporter's initial value
    VkFence f = b.fence();
    ASSERT_EQ(VK_SUCCESS, b.submit({{t, 5}}, {}, f));
    EXPECT_FALSE(fence_done_within(b, f, 50));
    VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, s, 4};
    ASSERT_EQ(VK_SUCCESS, vkSignalSemaphore(a.device, &si));
    EXPECT_FALSE(fence_done_within(b, f, 50)); // 4 < 5
    si.value = 5;
    ASSERT_EQ(VK_SUCCESS, vkSignalSemaphore(a.device, &si));
    EXPECT_TRUE(fence_done_within(b, f, 5000));
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(b.device, t, &v));
    EXPECT_EQ(5u, v);
    b.destroy(f);
    b.destroy(t);
    a.destroy(s);
}

TEST_F(LayerTest, Timeline_QueueSignal_IsVisibleToTheOtherSideOnceTheFenceSaysDone)
{
    VkSemaphore s = a.semaphore(true, 0, true);
    VkSemaphore t = b.semaphore(true, 0, false);
    ASSERT_EQ(VK_SUCCESS, b.import_fd(t, a.export_fd(s), 0));
    for (uint64_t v = 1; v <= 50; ++v) {
        VkFence f = a.fence();
        ASSERT_EQ(VK_SUCCESS, a.submit({}, {{s, v}}, f));
        ASSERT_TRUE(fence_done_within(a, f, 5000));
        uint64_t seen = 0;
        // No waiting here: the payload signal is made before the fence completes.
        ASSERT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(b.device, t, &seen));
        ASSERT_EQ(v, seen);
        a.destroy(f);
    }
    // And vkQueueWaitIdle covers it too.
    ASSERT_EQ(VK_SUCCESS, a.submit({}, {{s, 51}}, VK_NULL_HANDLE));
    ASSERT_EQ(VK_SUCCESS, vkQueueWaitIdle(a.queue));
    uint64_t seen = 0;
    ASSERT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(b.device, t, &seen));
    EXPECT_EQ(51u, seen);
    b.destroy(t);
    a.destroy(s);
}

TEST_F(LayerTest, QueueSubmit2_WaitsAndSignalsTimelinesBothWays)
{
    VkSemaphore s = a.semaphore(true, 0, true);
    VkSemaphore t = b.semaphore(true, 0, false);
    ASSERT_EQ(VK_SUCCESS, b.import_fd(t, a.export_fd(s), 0));
    // b waits for 2k+1 and signals 2k+2; a waits for 2k and signals 2k+1.
    const uint64_t rounds = 30;
    for (uint64_t k = 0; k < rounds; ++k) {
        ASSERT_EQ(VK_SUCCESS, b.submit2({{t, 2 * k + 1}}, {{t, 2 * k + 2}}, VK_NULL_HANDLE));
        ASSERT_EQ(VK_SUCCESS, a.submit2({{s, 2 * k}}, {{s, 2 * k + 1}}, VK_NULL_HANDLE));
    }
    const uint64_t last = 2 * rounds;
    VkSemaphoreWaitInfo wi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &s, &last};
    EXPECT_EQ(VK_SUCCESS, vkWaitSemaphores(a.device, &wi, 10ull * 1000000000u));
    EXPECT_EQ(VK_SUCCESS, vkQueueWaitIdle(a.queue));
    EXPECT_EQ(VK_SUCCESS, vkQueueWaitIdle(b.queue));
    b.destroy(t);
    a.destroy(s);
}

TEST_F(LayerTest, HostWait_ForAFutureValue_TimesOutThenPasses)
{
    VkSemaphore s = a.semaphore(true, 0, true);
    const uint64_t three = 3;
    VkSemaphoreWaitInfo wi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &s, &three};
    EXPECT_EQ(VK_TIMEOUT, vkWaitSemaphores(a.device, &wi, 20 * 1000000u));
    std::thread signaller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, s, 3};
        vkSignalSemaphore(a.device, &si);
    });
    EXPECT_EQ(VK_SUCCESS, vkWaitSemaphores(a.device, &wi, 10ull * 1000000000u));
    signaller.join();
    a.destroy(s);
}

TEST_F(LayerTest, TemporaryImport_IsUsedByTheNextWaitOnly)
{
    VkSemaphore s = a.semaphore(false, 0, true);
    VkSemaphore t = b.semaphore(false, 0, false);
    ASSERT_EQ(VK_SUCCESS, b.import_fd(t, a.export_fd(s), VK_SEMAPHORE_IMPORT_TEMPORARY_BIT));
    ASSERT_EQ(VK_SUCCESS, a.submit({}, {{s, 0}}, VK_NULL_HANDLE));
    VkFence f = b.fence();
    ASSERT_EQ(VK_SUCCESS, b.submit({{t, 0}}, {}, f));
    EXPECT_TRUE(fence_done_within(b, f, 5000));
    // t is a plain driver semaphore again: a signal and a wait of its own work as before.
    VkFence g = b.fence();
    ASSERT_EQ(VK_SUCCESS, b.submit({}, {{t, 0}}, VK_NULL_HANDLE));
    ASSERT_EQ(VK_SUCCESS, b.submit({{t, 0}}, {}, g));
    EXPECT_TRUE(fence_done_within(b, g, 5000));
    b.destroy(g);
    b.destroy(f);
    b.destroy(t);
    a.destroy(s);
}

TEST_F(LayerTest, DestroyDevice_WithAQueueStillWaiting_EndsWithinASecond)
{
    // A spec violation (work pending at vkDestroyDevice), which must still not hang: the
    // layer lets the queue go (docs/external-semaphores.md).
    Device c;
    ASSERT_EQ("", c.init(vk));
    VkSemaphore s = a.semaphore(false, 0, true);
    VkSemaphore t = c.semaphore(false, 0, false);
    ASSERT_EQ(VK_SUCCESS, c.import_fd(t, a.export_fd(s), 0));
    ASSERT_EQ(VK_SUCCESS, c.submit({{t, 0}}, {}, VK_NULL_HANDLE));
    auto start = std::chrono::steady_clock::now();
    c.destroy(t);
    c.close();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
    a.destroy(s);
}

// ---- Two processes ----

// The other process: its own Vulkan device; imports the timeline semaphore whose fd comes over
// the socket args[0], then for args[1] rounds waits on its queue for 2k+1 and signals 2k+2.
EXTMEM_CHILD_ROLE(sem_pingpong)
{
    if (args.size() != 2)
        return 90;
    Instance vk;
    Device d;
    if (!vk.init().empty() || !d.init(vk).empty())
        return 91;
    int sock = connect_to(args[0]);
    int fd = sock < 0 ? -1 : recv_fd(sock);
    if (fd < 0)
        return 92;
    VkSemaphore t = d.semaphore(true, 0, false);
    if (d.import_fd(t, fd, 0) != VK_SUCCESS)
        return 93;
    const uint64_t rounds = std::stoull(args[1]);
    for (uint64_t k = 0; k < rounds; ++k)
        if (d.submit({{t, 2 * k + 1}}, {{t, 2 * k + 2}}, VK_NULL_HANDLE) != VK_SUCCESS)
            return 94;
    if (vkQueueWaitIdle(d.queue) != VK_SUCCESS)
        return 95;
    printf("done\n");
    d.destroy(t);
    close(sock);
    return 0;
}

TEST_F(LayerTest, TwoProcesses_PingPongOnOneTimeline_OverAUnixSocket)
{
    const uint64_t rounds = 200;
    std::string name;
    int listener = listen_somewhere(&name);
    ASSERT_GE(listener, 0);
    Child child("sem_pingpong", {name, std::to_string(rounds)});
    int conn = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    ASSERT_GE(conn, 0);
    VkSemaphore s = a.semaphore(true, 0, true);
    int fd = a.export_fd(s);
    ASSERT_EQ(0, send_fd(conn, fd));
    close(fd);
    for (uint64_t k = 0; k < rounds; ++k)
        ASSERT_EQ(VK_SUCCESS, a.submit({{s, 2 * k}}, {{s, 2 * k + 1}}, VK_NULL_HANDLE));
    const uint64_t last = 2 * rounds;
    VkSemaphoreWaitInfo wi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &s, &last};
    EXPECT_EQ(VK_SUCCESS, vkWaitSemaphores(a.device, &wi, 30ull * 1000000000u));
    EXPECT_EQ("done", child.read_line());
    EXPECT_EQ(0, child.wait());
    EXPECT_EQ(VK_SUCCESS, vkQueueWaitIdle(a.queue));
    close(conn);
    close(listener);
    a.destroy(s);
}

// The other process: imports the timeline semaphore, queues a signal of 1 behind a wait that
// nothing will ever release, says so, and waits to be killed.
EXTMEM_CHILD_ROLE(sem_dies_owing)
{
    Instance vk;
    Device d;
    if (args.size() != 1 || !vk.init().empty() || !d.init(vk).empty())
        return 91;
    int sock = connect_to(args[0]);
    int fd = sock < 0 ? -1 : recv_fd(sock);
    VkSemaphore t = d.semaphore(true, 0, false);
    VkSemaphore never = d.semaphore(true, 0, false);
    if (fd < 0 || d.import_fd(t, fd, 0) != VK_SUCCESS)
        return 92;
    if (d.submit({{never, 1}}, {{t, 1}}, VK_NULL_HANDLE) != VK_SUCCESS)
        return 93;
    printf("owing\n");
    fflush(stdout);
    for (;;)
        pause();
}

TEST_F(LayerTest, PeerDiesOwingASignal_TheWaitEnds_BecauseItsDeathMakesTheSignal)
{
    std::string name;
    int listener = listen_somewhere(&name);
    ASSERT_GE(listener, 0);
    Child child("sem_dies_owing", {name});
    int conn = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    ASSERT_GE(conn, 0);
    VkSemaphore s = a.semaphore(true, 0, true);
    int fd = a.export_fd(s);
    ASSERT_EQ(0, send_fd(conn, fd));
    close(fd);
    ASSERT_EQ("owing", child.read_line());
    VkFence f = a.fence();
    ASSERT_EQ(VK_SUCCESS, a.submit({{s, 1}}, {}, f));
    EXPECT_FALSE(fence_done_within(a, f, 100));
    child.kill_now();
    EXPECT_EQ(128 + 9, child.wait());
    EXPECT_TRUE(fence_done_within(a, f, 5000));
    uint64_t v = 0;
    EXPECT_EQ(VK_SUCCESS, vkGetSemaphoreCounterValue(a.device, s, &v));
    EXPECT_EQ(1u, v);
    close(conn);
    close(listener);
    a.destroy(f);
    a.destroy(s);
}

// ---- The validation layers above this one ----

static void round_trip_under_validation(Instance::Order order)
{
    ValidationLog log;
    Instance vk;
    std::string why = vk.init(&log, order);
    if (why.find("VK_LAYER_KHRONOS_validation") != std::string::npos)
        FAIL() << why << " (Debian: vulkan-validationlayers; scripts/deps.sh installs it)";
    ASSERT_EQ("", why);
    Device a, b;
    ASSERT_EQ("", a.init(vk));
    ASSERT_EQ("", b.init(vk));
    // Binary: a signals, b waits; timeline: host and queue both ways.
    VkSemaphore s = a.semaphore(false, 0, true), t = b.semaphore(false, 0, false);
    ASSERT_EQ(VK_SUCCESS, b.import_fd(t, a.export_fd(s), 0));
    VkSemaphore ts = a.semaphore(true, 0, true), tt = b.semaphore(true, 0, false);
    ASSERT_EQ(VK_SUCCESS, b.import_fd(tt, a.export_fd(ts), 0));
    VkFence fa = a.fence(), fb = b.fence();
    ASSERT_EQ(VK_SUCCESS, b.submit({{t, 0}, {tt, 1}}, {{tt, 2}}, fb));
    ASSERT_EQ(VK_SUCCESS, a.submit({}, {{s, 0}, {ts, 1}}, fa));
    EXPECT_TRUE(fence_done_within(a, fa, 5000));
    EXPECT_TRUE(fence_done_within(b, fb, 5000));
    const uint64_t two = 2;
    VkSemaphoreWaitInfo wi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &ts, &two};
    EXPECT_EQ(VK_SUCCESS, vkWaitSemaphores(a.device, &wi, 5ull * 1000000000u));
    VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, tt, 3};
    EXPECT_EQ(VK_SUCCESS, vkSignalSemaphore(b.device, &si));
    a.destroy(fa);
    b.destroy(fb);
    a.destroy(s);
    b.destroy(t);
    a.destroy(ts);
    b.destroy(tt);
    a.close();
    b.close();
    vk.close();
    EXPECT_GT(log.messages_seen(), 0) << "the messenger saw nothing: is the validation layer really there?";
    EXPECT_EQ("", log.errors());
}

TEST(LayerValidation, RoundTrip_UnderKhronosValidation_HasNoErrors)
{
    round_trip_under_validation(Instance::VALIDATION_ABOVE);
}

// Below the layer, validation checks every call the layer makes of its own (the driver's
// timeline semaphores it uses as gates, the extensions and features it asks the driver for):
// each must follow the rules of the instance and device the application created.
TEST(LayerValidation, RoundTrip_WithValidationBetweenTheLayerAndTheDriver_HasNoErrors)
{
    round_trip_under_validation(Instance::VALIDATION_BELOW);
}

// A Vulkan 1.0 application (apiVersion 1.0, the 1.1 functionality through its KHR extensions):
// binary semaphores exported from one device and imported into another. The layer must not
// call what 1.0 lacks (vkGetPhysicalDeviceFeatures2, vkSignalSemaphore), whatever the order.
static void vulkan10_round_trip(Instance::Order order)
{
    ValidationLog log;
    Instance vk;
    std::string why = vk.init(&log, order, VK_API_VERSION_1_0);
    if (why.find("VK_LAYER_KHRONOS_validation") != std::string::npos)
        FAIL() << why << " (Debian: vulkan-validationlayers; scripts/deps.sh installs it)";
    ASSERT_EQ("", why);
    Device a, b;
    ASSERT_EQ("", a.init(vk));
    ASSERT_EQ("", b.init(vk));
    auto fn = [](VkDevice d, const char *name) { return vkGetDeviceProcAddr(d, name); };
    auto get_fd = (PFN_vkGetSemaphoreFdKHR)fn(a.device, "vkGetSemaphoreFdKHR");
    auto import_fd = (PFN_vkImportSemaphoreFdKHR)fn(b.device, "vkImportSemaphoreFdKHR");
    ASSERT_NE(nullptr, get_fd);
    ASSERT_NE(nullptr, import_fd);
    EXPECT_EQ(nullptr, fn(a.device, "vkSignalSemaphore")) << "a 1.2 command on a 1.0 application's device";

    VkExportSemaphoreCreateInfo exp = {};
    exp.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
    exp.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkSemaphoreCreateInfo ci = {};
    ci.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    ci.pNext = &exp;
    VkSemaphore s = VK_NULL_HANDLE, t = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, vkCreateSemaphore(a.device, &ci, nullptr, &s));
    ci.pNext = nullptr;
    ASSERT_EQ(VK_SUCCESS, vkCreateSemaphore(b.device, &ci, nullptr, &t));
    VkSemaphoreGetFdInfoKHR gi = {};
    gi.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR;
    gi.semaphore = s;
    gi.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    ASSERT_EQ(VK_SUCCESS, get_fd(a.device, &gi, &fd));
    VkImportSemaphoreFdInfoKHR ii = {};
    ii.sType = VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR;
    ii.semaphore = t;
    ii.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    ii.fd = fd;
    ASSERT_EQ(VK_SUCCESS, import_fd(b.device, &ii));

    // b waits for what a signals: plain VkSubmitInfo, as 1.0 has it.
    VkFence fa = a.fence(), fb = b.fence();
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo wait = {};
    wait.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    wait.waitSemaphoreCount = 1;
    wait.pWaitSemaphores = &t;
    wait.pWaitDstStageMask = &stage;
    ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(b.queue, 1, &wait, fb));
    VkSubmitInfo signal = {};
    signal.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    signal.signalSemaphoreCount = 1;
    signal.pSignalSemaphores = &s;
    ASSERT_EQ(VK_SUCCESS, vkQueueSubmit(a.queue, 1, &signal, fa));
    EXPECT_TRUE(fence_done_within(a, fa, 5000));
    EXPECT_TRUE(fence_done_within(b, fb, 5000));
    a.destroy(fa);
    b.destroy(fb);
    a.destroy(s);
    b.destroy(t);
    a.close();
    b.close();
    vk.close();
    EXPECT_GT(log.messages_seen(), 0) << "the messenger saw nothing: is the validation layer really there?";
    EXPECT_EQ("", log.errors());
}

TEST(LayerValidation, Vulkan10Application_UnderKhronosValidation_HasNoErrors)
{
    vulkan10_round_trip(Instance::VALIDATION_ABOVE);
}

TEST(LayerValidation, Vulkan10Application_WithValidationBetweenTheLayerAndTheDriver_HasNoErrors)
{
    vulkan10_round_trip(Instance::VALIDATION_BELOW);
}

// extmem as the Vulkan driver (src/vk/layer/driver.c; extmem-run's arrangement): the loader puts
// every layer above a driver, so validation checks the application's calls and never extmem's,
// however it was enabled. These run with EXTMEM_VK_DRIVER_FILE set (tests/vk/CMakeLists.txt).
TEST(DriverMode, RoundTrip_WithValidationEnabledByTheApplication_HasNoErrors)
{
    ASSERT_TRUE(Instance::driver_mode());
    round_trip_under_validation(Instance::VALIDATION_BY_APPLICATION);
}

TEST(DriverMode, RoundTrip_WithValidationEnabledByTheEnvironment_HasNoErrors)
{
    ASSERT_TRUE(Instance::driver_mode());
    round_trip_under_validation(Instance::VALIDATION_BY_ENVIRONMENT);
}

TEST(DriverMode, Vulkan10Application_WithValidationEnabledByTheApplication_HasNoErrors)
{
    ASSERT_TRUE(Instance::driver_mode());
    vulkan10_round_trip(Instance::VALIDATION_BY_APPLICATION);
}

// The real driver is named by a manifest; what cannot be loaded leaves the loader without a
// driver (VK_ERROR_INCOMPATIBLE_DRIVER), with extmem's reason on stderr.
static VkResult create_instance_with_driver_file(const char *manifest)
{
    setenv("EXTMEM_VK_DRIVER_FILE", manifest, 1);
    if (volkInitialize() != VK_SUCCESS)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkInstanceCreateInfo ici = {};
    ici.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    VkInstance instance = VK_NULL_HANDLE;
    VkResult r = vkCreateInstance(&ici, nullptr, &instance);
    if (r == VK_SUCCESS) {
        volkLoadInstance(instance);
        vkDestroyInstance(instance, nullptr);
    }
    return r;
}

TEST(DriverMode, AMissingDriverManifest_LeavesTheLoaderWithoutADriver)
{
    ASSERT_TRUE(Instance::driver_mode());
    EXPECT_EQ(VK_ERROR_INCOMPATIBLE_DRIVER, create_instance_with_driver_file("/nonexistent/lvp_icd.json"));
}

TEST(DriverMode, ItsOwnManifestAsTheRealDriver_IsRefused)
{
    ASSERT_TRUE(Instance::driver_mode());
    const char *own = getenv("VK_DRIVER_FILES") ? getenv("VK_DRIVER_FILES") : getenv("VK_ICD_FILENAMES");
    ASSERT_NE(nullptr, own);
    EXPECT_EQ(VK_ERROR_INCOMPATIBLE_DRIVER, create_instance_with_driver_file(own));
}

TEST(DriverMode, AManifestWithoutALibraryPath_IsRefused)
{
    ASSERT_TRUE(Instance::driver_mode());
    std::string path = testing::TempDir() + "extmem_no_library_icd.json";
    FILE *f = fopen(path.c_str(), "w");
    ASSERT_NE(nullptr, f);
    fputs("{ \"file_format_version\": \"1.0.0\", \"ICD\": { \"api_version\": \"1.3.0\" } }\n", f);
    fclose(f);
    EXPECT_EQ(VK_ERROR_INCOMPATIBLE_DRIVER, create_instance_with_driver_file(path.c_str()));
    remove(path.c_str());
}
