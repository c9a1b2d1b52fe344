// The stress test: 8 threads run 30 kinds of operation at random for a few seconds, on objects
// they share: each frees, destroys and unmaps what the others are using. Every call must
// answer with success or the error its documentation gives for a freed or destroyed object,
// the threads must all finish, and nothing may leak (the framework checks fds after the case).
// It runs under ThreadSanitizer too (scripts/test.sh).
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>
#if !defined(_WIN32)
#include <unistd.h>
#endif

using namespace extmem_test;

namespace {

constexpr int kThreads = 8;
constexpr int kSlots = 16;
constexpr size_t kBuf = 64 * 1024;

/* Objects the threads share: a slot holds a live object or 0. Taking a slot's value with
 * exchange(0) is how a thread gets to destroy it; reading it is using it, maybe after another
 * thread destroyed it. */
struct Shared {
    std::atomic<CUdeviceptr> buffers[kSlots];
    std::atomic<uintptr_t> streams[kSlots];
    std::atomic<uintptr_t> events[kSlots];
    std::vector<CUipcMemHandle> ipc; /* from the exporting child */
    CUcontext ctx = nullptr;
    std::atomic<long> calls{0};
    std::atomic<int> unexpected{0};
    Shared()
    {
        for (int i = 0; i < kSlots; ++i) {
            buffers[i] = 0;
            streams[i] = 0;
            events[i] = 0;
        }
    }
};

std::string code_name(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

/* One operation's result must be one of the allowed codes. */
void expect_one_of(Shared &sh, const char *op, CUresult r, std::initializer_list<CUresult> allowed)
{
    sh.calls++;
    for (CUresult a : allowed)
        if (r == a)
            return;
    if (sh.unexpected++ < 20)
        ADD_FAILURE() << op << ": " << code_name(r) << ": " << extmem_error_detail();
}

void CUDA_CB short_nap(void *) { std::this_thread::sleep_for(std::chrono::microseconds(200)); }

void touch_block(const extmem_block *b, void *args)
{
    auto *p = *static_cast<unsigned char **>(args);
    p[b->blockIdx.x] = (unsigned char)b->blockIdx.x;
}

CUstream as_stream(uintptr_t v) { return reinterpret_cast<CUstream>(v); }
CUevent as_event(uintptr_t v) { return reinterpret_cast<CUevent>(v); }

void worker(Shared &sh, unsigned seed, std::chrono::steady_clock::time_point end)
{
    const CUresult OK = CUDA_SUCCESS, VALUE = CUDA_ERROR_INVALID_VALUE, HANDLE = CUDA_ERROR_INVALID_HANDLE;
    std::mt19937 rng(seed);
    ASSERT_OK(cuCtxSetCurrent(sh.ctx));
    // Blocking: this thread's calls on the legacy stream are ordered with it. Only this thread
    // writes its own memory (`own`, `host`, `sink`), and only device memory that is never freed
    // while the thread runs: a fresh allocation may sit at an address that another thread still
    // holds from a freed buffer and reads, so the fresh allocations (VMM, another context's) are
    // only read too. The program has no data race of its own (ThreadSanitizer runs it).
    CUstream mine;
    ASSERT_OK(cuStreamCreate(&mine, 0));
    CUdeviceptr own;
    ASSERT_OK(cuMemAlloc(&own, kBuf));
    std::vector<unsigned char> host(kBuf);
    std::vector<unsigned char> sink(kBuf); /* written by case 24's streams only */
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.requestedHandleTypes = kNativeHandleType;
    size_t gran = 0;
    ASSERT_OK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemAccessDesc rw{};
    rw.location = prop.location;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

    while (std::chrono::steady_clock::now() < end) {
        int slot = (int)(rng() % kSlots);
        CUdeviceptr buf = sh.buffers[slot].load();
        uintptr_t stream = sh.streams[slot].load(), event = sh.events[slot].load();
        switch (rng() % 30) {
        case 0: { // allocate into a slot (freeing what was there)
            CUdeviceptr p;
            expect_one_of(sh, "cuMemAlloc", cuMemAlloc(&p, kBuf), {OK});
            CUdeviceptr old = sh.buffers[slot].exchange(p);
            if (old)
                expect_one_of(sh, "cuMemFree(replaced)", cuMemFree(old), {OK, VALUE}); // a stale free got it
            break;
        }
        case 1: { // free what another thread may be using
            CUdeviceptr old = sh.buffers[slot].exchange(0);
            if (old)
                expect_one_of(sh, "cuMemFree", cuMemFree(old), {OK, VALUE}); // a stale free got it
            break;
        }
        case 2: // a stale free: the pointer may have been freed, or reused by a new allocation
            if (buf) {
                CUresult r = cuMemFree(buf);
                expect_one_of(sh, "cuMemFree(stale)", r, {OK, VALUE});
                if (r == OK) // it was still the slot's: forget it there
                    sh.buffers[slot].compare_exchange_strong(buf, 0);
            }
            break;
        case 3:
            if (buf)
                expect_one_of(sh, "cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(host.data(), buf, kBuf, mine), {OK, VALUE});
            break;
        case 4:
            if (buf)
                expect_one_of(sh, "cuMemcpyDtoDAsync", cuMemcpyDtoDAsync(own, buf, kBuf, mine), {OK, VALUE});
            break;
        case 5:
            if (buf)
                expect_one_of(sh, "cuMemcpyDtoH", cuMemcpyDtoH(host.data(), buf, kBuf), {OK, VALUE});
            break;
        case 6: { // pinned staging memory freed with an upload queued
            void *staging;
            expect_one_of(sh, "cuMemAllocHost", cuMemAllocHost(&staging, kBuf), {OK});
            expect_one_of(sh, "cuMemcpyHtoDAsync", cuMemcpyHtoDAsync(own, staging, kBuf, mine), {OK});
            expect_one_of(sh, "cuMemFreeHost", cuMemFreeHost(staging), {OK});
            break;
        }
        case 7: { // a stream into a slot
            CUstream s;
            expect_one_of(sh, "cuStreamCreate", cuStreamCreate(&s, rng() % 2 ? CU_STREAM_NON_BLOCKING : 0), {OK});
            uintptr_t old = sh.streams[slot].exchange(reinterpret_cast<uintptr_t>(s));
            if (old)
                expect_one_of(sh, "cuStreamDestroy(replaced)", cuStreamDestroy(as_stream(old)), {OK});
            break;
        }
        case 8: {
            uintptr_t old = sh.streams[slot].exchange(0);
            if (old)
                expect_one_of(sh, "cuStreamDestroy", cuStreamDestroy(as_stream(old)), {OK});
            break;
        }
        case 9:
            if (stream)
                expect_one_of(sh, "cuLaunchHostFunc", cuLaunchHostFunc(as_stream(stream), short_nap, nullptr),
                              {OK, HANDLE});
            break;
        case 10:
            if (stream)
                expect_one_of(sh, "cuStreamSynchronize", cuStreamSynchronize(as_stream(stream)), {OK, HANDLE});
            break;
        case 11:
            if (stream)
                expect_one_of(sh, "cuStreamQuery", cuStreamQuery(as_stream(stream)),
                              {OK, CUDA_ERROR_NOT_READY, HANDLE});
            break;
        case 12: { // an event into a slot
            CUevent e;
            expect_one_of(sh, "cuEventCreate", cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), {OK});
            uintptr_t old = sh.events[slot].exchange(reinterpret_cast<uintptr_t>(e));
            if (old)
                expect_one_of(sh, "cuEventDestroy(replaced)", cuEventDestroy(as_event(old)), {OK});
            break;
        }
        case 13: {
            uintptr_t old = sh.events[slot].exchange(0);
            if (old)
                expect_one_of(sh, "cuEventDestroy", cuEventDestroy(as_event(old)), {OK});
            break;
        }
        case 14:
            if (event)
                expect_one_of(sh, "cuEventRecord", cuEventRecord(as_event(event), stream ? as_stream(stream) : mine),
                              {OK, HANDLE});
            break;
        case 15:
            if (event)
                expect_one_of(sh, "cuEventRecord(legacy)", cuEventRecord(as_event(event), CU_STREAM_LEGACY),
                              {OK, HANDLE});
            break;
        case 16:
            if (event)
                expect_one_of(sh, "cuStreamWaitEvent", cuStreamWaitEvent(stream ? as_stream(stream) : mine,
                                                                         as_event(event), 0), {OK, HANDLE});
            break;
        case 17:
            if (event)
                expect_one_of(sh, "cuEventSynchronize", cuEventSynchronize(as_event(event)), {OK, HANDLE});
            break;
        case 18:
            if (event)
                expect_one_of(sh, "cuEventQuery", cuEventQuery(as_event(event)), {OK, CUDA_ERROR_NOT_READY, HANDLE});
            break;
        case 19: { // a kernel on this thread's own memory
            unsigned char *p = reinterpret_cast<unsigned char *>(own);
            extmem_dim3 grid = {64, 1, 1}, block = {1, 1, 1};
            expect_one_of(sh, "extmem_launch_kernel", extmem_launch_kernel(touch_block, grid, block, &p, sizeof p,
                                                                           mine),
                          {OK, HANDLE});
            break;
        }
        case 20: { // the VMM cycle, with a copy from the mapping queued before the unmap
            CUmemGenericAllocationHandle h;
            CUdeviceptr va;
            expect_one_of(sh, "cuMemCreate", cuMemCreate(&h, gran, &prop, 0), {OK});
            expect_one_of(sh, "cuMemAddressReserve", cuMemAddressReserve(&va, gran, 0, 0, 0), {OK});
            expect_one_of(sh, "cuMemMap", cuMemMap(va, gran, 0, h, 0), {OK});
            expect_one_of(sh, "cuMemSetAccess", cuMemSetAccess(va, gran, &rw, 1), {OK});
            expect_one_of(sh, "cuMemcpyDtoHAsync(vmm)",
                          cuMemcpyDtoHAsync(host.data(), va, gran < kBuf ? gran : kBuf, mine), {OK});
            expect_one_of(sh, "cuMemRelease", cuMemRelease(h), {OK});
            expect_one_of(sh, "cuMemUnmap", cuMemUnmap(va, gran), {OK});
            expect_one_of(sh, "cuMemAddressFree", cuMemAddressFree(va, gran), {OK});
            break;
        }
        case 21: { // shareable handles: export and import an allocation of this process
            CUmemGenericAllocationHandle h, back;
            expect_one_of(sh, "cuMemCreate", cuMemCreate(&h, gran, &prop, 0), {OK});
#if !defined(_WIN32)
            int fd = -1;
            expect_one_of(sh, "cuMemExportToShareableHandle",
                          cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), {OK});
            CUresult r = cuMemImportFromShareableHandle(&back, (void *)(intptr_t)fd,
                                                        CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
            expect_one_of(sh, "cuMemImportFromShareableHandle", r, {OK});
            if (r == OK)
                expect_one_of(sh, "cuMemRelease(imported)", cuMemRelease(back), {OK});
            if (fd >= 0) // cuMemImportFromShareableHandle leaves the fd the caller's, as the driver does
                close(fd);
#else
            (void)back;
#endif
            expect_one_of(sh, "cuMemRelease", cuMemRelease(h), {OK});
            break;
        }
        case 22: // IPC: open and close the child's allocations from many threads at once
            if (!sh.ipc.empty()) {
                CUdeviceptr p;
                CUresult r = cuIpcOpenMemHandle(&p, sh.ipc[rng() % sh.ipc.size()], CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
                expect_one_of(sh, "cuIpcOpenMemHandle", r, {OK});
                if (r == OK) {
                    expect_one_of(sh, "cuMemcpyDtoDAsync(ipc)", cuMemcpyDtoDAsync(own, p, kBuf, mine), {OK});
                    expect_one_of(sh, "cuIpcCloseMemHandle", cuIpcCloseMemHandle(p), {OK});
                }
            }
            break;
        case 23:
            if (buf) {
                CUipcMemHandle h;
                expect_one_of(sh, "cuIpcGetMemHandle", cuIpcGetMemHandle(&h, buf), {OK, VALUE});
            }
            break;
        case 24: { // a context of its own, destroyed with an allocation and queued work in it
            CUcontext c;
            CUdevice dev = 0;
            expect_one_of(sh, "cuCtxCreate", cuCtxCreate(&c, nullptr, 0, dev), {OK});
            CUdeviceptr p;
            CUstream s;
            expect_one_of(sh, "cuMemAlloc(ctx)", cuMemAlloc(&p, kBuf), {OK});
            expect_one_of(sh, "cuStreamCreate(ctx)", cuStreamCreate(&s, 0), {OK});
            // Another thread's stale free (case 2) may have taken p already, if p reuses the
            // address it holds: then the copy finds no memory there. The destruction below
            // waits for the copy, so the next case 24 writes `sink` after this one.
            expect_one_of(sh, "cuMemcpyDtoHAsync(ctx)", cuMemcpyDtoHAsync(sink.data(), p, kBuf, s), {OK, VALUE});
            expect_one_of(sh, "cuCtxDestroy", cuCtxDestroy(c), {OK});
            expect_one_of(sh, "cuCtxSetCurrent", cuCtxSetCurrent(sh.ctx), {OK});
            break;
        }
        case 25:
            if (buf) {
                CUcontext c;
                expect_one_of(sh, "cuPointerGetAttribute",
                              cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, buf), {OK, VALUE});
            }
            break;
        case 26:
            if (buf) {
                CUdeviceptr base;
                size_t size;
                expect_one_of(sh, "cuMemGetAddressRange", cuMemGetAddressRange(&base, &size, buf),
                              {OK, CUDA_ERROR_NOT_FOUND});
            }
            break;
        case 27:
            expect_one_of(sh, "cuCtxSynchronize", cuCtxSynchronize(), {OK});
            break;
        case 28:
            expect_one_of(sh, "cuMemsetD32", cuMemsetD32(own, 0xdeadbeef, kBuf / 4), {OK});
            break;
        case 29:
            expect_one_of(sh, "cuStreamSynchronize(own)", cuStreamSynchronize(mine), {OK});
            break;
        }
    }
    ASSERT_OK(cuStreamSynchronize(mine));
    ASSERT_OK(cuStreamDestroy(mine));
    ASSERT_OK(cuMemFree(own));
}

} // namespace

/* Allocates argv[0] buffers, prints their IPC handles, then waits for a line before exiting. */
EXTMEM_CHILD_ROLE(stress_exporter)
{
    CUcontext ctx;
    if (cuInit(0) || cuCtxCreate(&ctx, nullptr, 0, 0))
        return 10;
    int n = std::stoi(args[0]);
    std::vector<CUdeviceptr> bufs(n);
    for (auto &b : bufs) {
        CUipcMemHandle h;
        if (cuMemAlloc(&b, kBuf) || cuIpcGetMemHandle(&h, b))
            return 11;
        printf("%s\n", to_hex(&h, sizeof h).c_str());
    }
    fflush(stdout);
    char line[16];
    if (!fgets(line, sizeof line, stdin))
        return 12;
    return 0;
}

TEST(Stress, EightThreadsThirtyKindsOfOperation_AllCompleteWithDocumentedResults)
{
    Shared sh;
    ASSERT_OK(cuInit(0));
    ASSERT_OK(cuCtxCreate(&sh.ctx, nullptr, 0, 0));
#if !defined(_WIN32)
    Child exporter("stress_exporter", {"4"});
    for (int i = 0; i < 4; ++i) {
        CUipcMemHandle h;
        ASSERT_TRUE(from_hex(exporter.read_line(), &h, sizeof h));
        sh.ipc.push_back(h);
    }
#endif
    const char *env = std::getenv("EXTMEM_STRESS_SECONDS");
    int seconds = env ? std::atoi(env) : 3;
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    std::atomic<int> finished{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            worker(sh, 1234u + (unsigned)t, end);
            finished++;
        });
    // Bounded: a deadlock ends the process with a message instead of hanging the suite.
    auto deadline = end + std::chrono::seconds(30);
    while (finished.load() < kThreads) {
        if (std::chrono::steady_clock::now() > deadline) {
            std::fprintf(stderr, "stress: %d of %d threads still running 30 s after the end: deadlock\n",
                         kThreads - finished.load(), kThreads);
            std::_Exit(3);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(0, sh.unexpected.load());
    EXPECT_GT(sh.calls.load(), 1000) << "the threads hardly ran";
    for (int i = 0; i < kSlots; ++i) {
        if (CUdeviceptr b = sh.buffers[i].exchange(0)) {
            CUresult r = cuMemFree(b); // a stale free may have taken it
            EXPECT_TRUE(r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_VALUE) << r;
        }
        if (uintptr_t s = sh.streams[i].exchange(0)) {
            EXPECT_OK(cuStreamDestroy(as_stream(s)));
        }
        if (uintptr_t e = sh.events[i].exchange(0)) {
            EXPECT_OK(cuEventDestroy(as_event(e)));
        }
    }
    EXPECT_OK(cuCtxDestroy(sh.ctx));
#if !defined(_WIN32)
    exporter.write_line("done");
    EXPECT_EQ(0, exporter.wait());
#endif
    std::printf("%ld calls in %d s\n", sh.calls.load(), seconds);
}
