// The driver's log (CUDA 12.9): every failure's reason and every warning is an entry, kept in a
// bounded buffer the dump calls read from an iterator, and handed to registered callbacks
// (src/device/logs.c).
#include "framework/testing.h"

#include "extmem/cuda_runtime_api.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace extmem_test;

namespace {

struct Seen {
    std::mutex lock;
    std::vector<std::string> messages;
    std::vector<CUlogLevel> levels;
    std::atomic<int> calls{0};
    static void CUDA_CB callback(void *data, CUlogLevel level, char *message, size_t length)
    {
        auto *s = static_cast<Seen *>(data);
        std::lock_guard<std::mutex> g(s->lock);
        EXPECT_EQ(strlen(message), length);
        s->messages.emplace_back(message, length);
        s->levels.push_back(level);
        s->calls++;
    }
};

std::string dump_from(CUlogIterator *it)
{
    std::vector<char> buf(32768);
    size_t size = buf.size();
    EXPECT_OK(cuLogsDumpToMemory(it, buf.data(), &size, 0));
    EXPECT_EQ(strlen(buf.data()), size);
    return std::string(buf.data(), size);
}

std::string temp_path(const char *name)
{
#if defined(_WIN32)
    const char *dir = getenv("TEMP");
    return std::string(dir ? dir : ".") + "\\" + name;
#else
    return std::string("/tmp/") + name + "." + std::to_string((long)getpid());
#endif
}

} // namespace

TEST(Logs, ProbeSequence_NullCallbackIsInvalid_AndADumpWithNothingNewIsEmpty)
{
    ASSERT_OK(cuInit(0));
    CUlogsCallbackHandle h = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsRegisterCallback(nullptr, nullptr, &h));
    CUlogIterator it = 0;
    EXPECT_OK(cuLogsCurrent(&it, 0));
    char buf[256];
    buf[0] = 'x';
    size_t size = sizeof buf;
    EXPECT_OK(cuLogsDumpToMemory(&it, buf, &size, 0));
    EXPECT_EQ(0u, size);
    EXPECT_EQ('\0', buf[0]);
}

TEST(Logs, AFailure_IsAnEntryWithItsCodeAndReason_AndTheIteratorMovesPastIt)
{
    ASSERT_OK(cuInit(0));
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    CUlogIterator before = it;
    std::string text = dump_from(&it);
    // "[HH:MM:SS.mmm][thread][CUDA][E] reason [CODE]", as NVIDIA's driver shapes its lines.
    std::string tail = std::string("[CUDA][E] ") + extmem_error_detail() + " [CUDA_ERROR_INVALID_VALUE]\n";
    ASSERT_GT(text.size(), tail.size()) << text;
    EXPECT_EQ(tail, text.substr(text.size() - tail.size())) << text;
    EXPECT_EQ('[', text[0]);
    EXPECT_EQ(':', text[3]);
    EXPECT_EQ('.', text[9]);
    EXPECT_EQ(before + 1, it);
    EXPECT_EQ("", dump_from(&it));
    // Two more: both, in order, one a line.
    int v;
    EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 3));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&v, (CUdevice_attribute)0, 0));
    text = dump_from(&it);
    size_t first = text.find("[CUDA][E] cuDeviceGetAttribute: device 3");
    size_t second = text.find("[CUDA][E] cuDeviceGetAttribute: attribute 0");
    EXPECT_NE(std::string::npos, first) << text;
    EXPECT_LT(first, second) << text;
    EXPECT_EQ('\n', text.back());
}

TEST(Logs, WorksBeforeCuInit_AndLogsItsFailures)
{
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuInit(7));
    EXPECT_NE(std::string::npos, dump_from(&it).find("cuInit: Flags is 7"));
}

TEST(Logs, Callback_GetsEachFailureInTheFailingThread_UntilUnregistered)
{
    ASSERT_OK(cuInit(0));
    Seen seen;
    CUlogsCallbackHandle h = nullptr;
    ASSERT_OK(cuLogsRegisterCallback(Seen::callback, &seen, &h));
    ASSERT_NE(nullptr, h);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    ASSERT_EQ(1, seen.calls.load());
    EXPECT_EQ(CU_LOG_LEVEL_ERROR, seen.levels[0]);
    EXPECT_NE(std::string::npos, seen.messages[0].find("cuDeviceGetCount: count is NULL")) << seen.messages[0];
    ASSERT_OK(cuLogsUnregisterCallback(h));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    EXPECT_EQ(1, seen.calls.load());
    // Again, or a handle never given out, or NULL.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsUnregisterCallback(h));
    EXPECT_DETAIL_HAS("not a registered callback");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsUnregisterCallback(nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsUnregisterCallback((CUlogsCallbackHandle)(uintptr_t)0x1000));
}

TEST(Logs, Callbacks_RunInRegistrationOrder_AndCallbackOutIsOptional)
{
    ASSERT_OK(cuInit(0));
    Seen a;
    static Seen b; // registered without a handle: it stays for the process's life
    int before = b.calls.load();
    CUlogsCallbackHandle ha;
    ASSERT_OK(cuLogsRegisterCallback(Seen::callback, &a, &ha));
    ASSERT_OK(cuLogsRegisterCallback(Seen::callback, &b, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(nullptr));
    EXPECT_EQ(1, a.calls.load());
    EXPECT_EQ(before + 1, b.calls.load());
    ASSERT_OK(cuLogsUnregisterCallback(ha));
}

namespace {
struct Recursing {
    int calls = 0;
    static void CUDA_CB callback(void *data, CUlogLevel, char *, size_t)
    {
        auto *r = static_cast<Recursing *>(data);
        r->calls++;
        // A failure inside the callback is logged but not handed back to it.
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(nullptr));
    }
};
} // namespace

TEST(Logs, AFailureInsideACallback_IsLoggedButNotDeliveredAgain)
{
    ASSERT_OK(cuInit(0));
    Recursing r;
    CUlogsCallbackHandle h;
    ASSERT_OK(cuLogsRegisterCallback(Recursing::callback, &r, &h));
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsCurrent(nullptr, 0));
    EXPECT_EQ(1, r.calls);
    std::string text = dump_from(&it);
    EXPECT_NE(std::string::npos, text.find("cuLogsCurrent: iterator_out is NULL")) << text;
    EXPECT_NE(std::string::npos, text.find("cuDriverGetVersion")) << text;
    ASSERT_OK(cuLogsUnregisterCallback(h));
}

TEST(Logs, ANotReadyAnswer_IsNoEntry)
{
    ASSERT_OK(cuInit(0));
    CUcontext ctx;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    static std::atomic<bool> open{false};
    ASSERT_OK(cuLaunchHostFunc(
        s, [](void *) {
            while (!open.load())
                std::this_thread::yield();
        },
        nullptr));
    CUevent e;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuEventRecord(e, s));
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(e));
    EXPECT_EQ("", dump_from(&it));
    open = true;
    EXPECT_OK(cuStreamSynchronize(s));
    EXPECT_OK(cuEventDestroy(e));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuCtxDestroy(ctx));
}

TEST(Logs, DumpToMemory_BadArguments_AndFlagsAreIgnoredAsByTheDriver)
{
    ASSERT_OK(cuInit(0));
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    char buf[64];
    size_t size = sizeof buf;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsDumpToMemory(&it, nullptr, &size, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsDumpToMemory(&it, buf, nullptr, 0));
    // CUDA reserves the flags; NVIDIA's driver ignores them (H200, 580.159.04).
    ASSERT_OK(cuLogsCurrent(&it, 2));
    size = sizeof buf;
    EXPECT_OK(cuLogsDumpToMemory(&it, buf, &size, 1));
    EXPECT_EQ(0u, size);
}

TEST(Logs, DumpToMemory_TooSmallForTheNewestEntry_FailsWithTheNoteAloneWhereItFits)
{
    ASSERT_OK(cuInit(0));
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    CUlogIterator copy = it;
    size_t line = dump_from(&copy).size(); // the entry and its newline
    // Too small for anything: size 0, the iterator stays.
    char buf[512];
    size_t size = 8;
    CUlogIterator keep = it;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsDumpToMemory(&it, buf, &size, 0));
    EXPECT_EQ(0u, size);
    EXPECT_EQ(keep, it);
    // Room for the note but not the entry (NVIDIA's driver: 120 bytes gave its note, size 92).
    size = line; // the entry needs one byte more, for the NUL
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsDumpToMemory(&it, buf, &size, 0));
    EXPECT_EQ(keep, it);
    std::string text(buf, size);
    EXPECT_EQ(0u, text.find("[extmem] the buffer is too small")) << text;
    EXPECT_EQ(strlen(buf), size);
    // The failed dumps are entries too, as on the driver: a buffer large enough gets all three.
    text = dump_from(&it);
    EXPECT_NE(std::string::npos, text.find("cuDeviceGetCount: count is NULL")) << text;
    size_t first = text.find("hold not even the newest entry");
    ASSERT_NE(std::string::npos, first) << text;
    EXPECT_NE(std::string::npos, text.find("hold not even the newest entry", first + 1)) << text;
    EXPECT_EQ(3, std::count(text.begin(), text.end(), '\n')) << text;
    EXPECT_NE(keep, it);
}

TEST(Logs, DumpToMemory_ThatCannotHoldAll_GivesTheNewestBehindANote)
{
    ASSERT_OK(cuInit(0));
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    for (int i = 0; i < 5; ++i)
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(nullptr));
    char buf[300];
    size_t size = sizeof buf;
    ASSERT_OK(cuLogsDumpToMemory(&it, buf, &size, 0));
    std::string text(buf, size);
    EXPECT_EQ(0u, text.find("[extmem] the buffer is too small for every entry")) << text;
    EXPECT_NE(std::string::npos, text.find("cuDriverGetVersion")) << text; // the newest is last
    EXPECT_EQ(text.size() - 1, text.rfind('\n'));
    EXPECT_EQ("", dump_from(&it));
}

TEST(Logs, TheNewest100EntriesAreKept_AndADumpFromBeforeThemSaysSo)
{
    ASSERT_OK(cuInit(0));
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    for (int i = 0; i < 1000; ++i)
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    std::string text = dump_from(&it);
    EXPECT_LE(text.size(), 25600u + 200u);
    EXPECT_EQ(0u, text.find("[extmem] the log has dropped its oldest entries since this iterator: 900 are missing"))
        << text.substr(0, 200);
    EXPECT_EQ(101, std::count(text.begin(), text.end(), '\n'));
    // A NULL iterator dumps what is kept.
    std::vector<char> all(32768);
    size_t size = all.size();
    EXPECT_OK(cuLogsDumpToMemory(nullptr, all.data(), &size, 0));
    EXPECT_EQ(100, std::count(all.data(), all.data() + size, '\n'));
}

namespace {
std::string file_text(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
} // namespace

TEST(Logs, DumpToFile_WritesTheFileAnew_AsTheDriverDoes)
{
    ASSERT_OK(cuInit(0));
    std::string path = temp_path("extmem-logs-test.txt");
    std::remove(path.c_str());
    CUlogIterator it;
    ASSERT_OK(cuLogsCurrent(&it, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    ASSERT_OK(cuLogsDumpToFile(&it, path.c_str(), 0));
    std::string text = file_text(path);
    EXPECT_NE(std::string::npos, text.find("cuDeviceGetCount: count is NULL")) << text;
    EXPECT_EQ(1, std::count(text.begin(), text.end(), '\n')) << text;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(nullptr));
    ASSERT_OK(cuLogsDumpToFile(&it, path.c_str(), 1)); // flags ignored
    text = file_text(path);
    EXPECT_EQ(std::string::npos, text.find("cuDeviceGetCount")) << text;
    EXPECT_NE(std::string::npos, text.find("cuDriverGetVersion")) << text;
    ASSERT_OK(cuLogsDumpToFile(&it, path.c_str(), 0)); // nothing new: an empty file
    EXPECT_EQ("", file_text(path));
    std::remove(path.c_str());
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsDumpToFile(&it, nullptr, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLogsDumpToFile(nullptr, "/nonexistent-dir/x/y.txt", 0));
    EXPECT_DETAIL_HAS("cannot open");
}

TEST(Logs, Runtime_CallsAreTheDrivers)
{
    EXPECT_EQ(cudaErrorInvalidValue, cudaLogsRegisterCallback(nullptr, nullptr, nullptr));
    cudaLogIterator it;
    ASSERT_EQ(cudaSuccess, cudaLogsCurrent(&it, 0));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMalloc(nullptr, 16));
    char buf[1024];
    size_t size = sizeof buf;
    ASSERT_EQ(cudaSuccess, cudaLogsDumpToMemory(&it, buf, &size, 0));
    EXPECT_NE(std::string::npos, std::string(buf, size).find("cudaMalloc: devPtr is NULL"));
    size = sizeof buf;
    ASSERT_EQ(cudaSuccess, cudaLogsDumpToMemory(&it, buf, &size, 0));
    EXPECT_EQ(0u, size);
    EXPECT_EQ(cudaErrorInvalidValue, cudaLogsUnregisterCallback(nullptr));
    EXPECT_EQ(cudaErrorInvalidValue, cudaLogsDumpToFile(&it, nullptr, 0));
    cudaGetLastError();
}

namespace {
struct Slow {
    std::atomic<bool> inside{false}, done{false};
    static void CUDA_CB callback(void *data, CUlogLevel, char *, size_t)
    {
        auto *s = static_cast<Slow *>(data);
        if (s->inside.exchange(true))
            return; // only the first delivery is slow
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        s->done = true;
    }
};
struct SelfRemoving {
    CUlogsCallbackHandle handle = nullptr;
    int calls = 0;
    CUresult result = CUDA_ERROR_UNKNOWN;
    static void CUDA_CB callback(void *data, CUlogLevel, char *, size_t)
    {
        auto *s = static_cast<SelfRemoving *>(data);
        s->calls++;
        s->result = cuLogsUnregisterCallback(s->handle); // cannot wait for itself, and does not
    }
};
} // namespace

TEST(Logs, Unregister_ReturnsOnlyOnceNoThreadRunsTheCallback)
{
    ASSERT_OK(cuInit(0));
    Slow slow;
    CUlogsCallbackHandle h;
    ASSERT_OK(cuLogsRegisterCallback(Slow::callback, &slow, &h));
    std::thread failing([] { cuDeviceGetCount(nullptr); });
    while (!slow.inside.load())
        std::this_thread::yield();
    ASSERT_OK(cuLogsUnregisterCallback(h));
    EXPECT_TRUE(slow.done.load()); // the delivery in the other thread has finished
    failing.join();
}

TEST(Logs, ACallbackMayUnregisterItself)
{
    ASSERT_OK(cuInit(0));
    SelfRemoving self;
    ASSERT_OK(cuLogsRegisterCallback(SelfRemoving::callback, &self, &self.handle));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    EXPECT_EQ(1, self.calls);
    EXPECT_EQ(CUDA_SUCCESS, self.result);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
    EXPECT_EQ(1, self.calls);
}

namespace {
struct Allocating {
    int calls = 0;
    CUresult alloc = CUDA_ERROR_UNKNOWN, freed = CUDA_ERROR_UNKNOWN;
    static void CUDA_CB callback(void *data, CUlogLevel, char *, size_t)
    {
        auto *a = static_cast<Allocating *>(data);
        if (a->calls++)
            return;
        CUdeviceptr p = 0;
        a->alloc = cuMemAlloc(&p, 4096); // takes the address maps' write lock
        a->freed = cuMemFree(p);
    }
};
} // namespace

// The managed-memory calls find their failures with the address maps locked and report them
// once unlocked: a callback that allocates does not deadlock on the lock its failing call held.
TEST(Logs, ACallbackThatAllocates_DoesNotDeadlockOnAManagedRangeFailure)
{
    ASSERT_OK(cuInit(0));
    CUcontext ctx;
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, 0));
    CUdeviceptr plain;
    ASSERT_OK(cuMemAlloc(&plain, 4096));
    Allocating a;
    CUlogsCallbackHandle h;
    ASSERT_OK(cuLogsRegisterCallback(Allocating::callback, &a, &h));
    CUmemLocation host = {CU_MEM_LOCATION_TYPE_HOST, 0};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(plain, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, host));
    EXPECT_EQ(1, a.calls);
    EXPECT_EQ(CUDA_SUCCESS, a.alloc);
    EXPECT_EQ(CUDA_SUCCESS, a.freed);
    ASSERT_OK(cuLogsUnregisterCallback(h));
    EXPECT_OK(cuMemFree(plain));
    EXPECT_OK(cuCtxDestroy(ctx));
}

TEST(Logs, ManyThreadsFailingWhileCallbacksComeAndGo_LoseNoDelivery)
{
    ASSERT_OK(cuInit(0));
    Seen steady;
    CUlogsCallbackHandle hs;
    ASSERT_OK(cuLogsRegisterCallback(Seen::callback, &steady, &hs));
    std::atomic<bool> stop{false};
    std::thread churn([&] {
        Seen passing;
        while (!stop.load()) {
            CUlogsCallbackHandle h;
            if (cuLogsRegisterCallback(Seen::callback, &passing, &h) == CUDA_SUCCESS)
                cuLogsUnregisterCallback(h);
            CUlogIterator it = 0;
            char buf[512];
            size_t size = sizeof buf;
            cuLogsDumpToMemory(&it, buf, &size, 0);
        }
    });
    std::vector<std::thread> failing;
    for (int t = 0; t < 4; ++t)
        failing.emplace_back([] {
            for (int i = 0; i < 250; ++i)
                cuDeviceGetCount(nullptr);
        });
    for (auto &t : failing)
        t.join();
    stop = true;
    churn.join();
    ASSERT_OK(cuLogsUnregisterCallback(hs));
    EXPECT_EQ(1000, std::count_if(steady.messages.begin(), steady.messages.end(), [](const std::string &m) {
                  return m.find("cuDeviceGetCount: count is NULL") != std::string::npos;
              }));
}
