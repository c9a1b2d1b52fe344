// Device printf's FIFO (docs/kernels.md, "printf and assert"): CU_LIMIT_PRINTF_FIFO_SIZE reads
// back as the H100 rounds it; a launch keeps the records that fit it, the last ones, as the GPU
// does; a '*' precision is printed as written; huge precisions and widths cost time and memory
// in proportion to the FIFO, never to what they ask. The kernels call vprintf as nvcc's code
// does, with the format and the argument buffer in device memory.
#include "framework/testing.h"

#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#ifndef _WIN32
#include <sys/resource.h>
#endif

using namespace extmem_test;

namespace {

const char *kPtx = R"(.version 7.5
.target sm_75
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);

// vprintf(fmt, args), n times in each thread.
.visible .entry repeat(.param .u64 fmt, .param .u64 args, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [fmt];
    ld.param.u64 %rd2, [args];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, 0;
LOOP:
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra DONE;
    {
    .param .b64 p0;
    st.param.b64 [p0], %rd1;
    .param .b64 p1;
    st.param.b64 [p1], %rd2;
    .param .b32 r0;
    call.uni (r0), vprintf, (p0, p1);
    }
    add.u32 %r2, %r2, 1;
    bra LOOP;
DONE:
    ret;
}

// vprintf(fmt, {%tid.x, i}) for i from 0 to n - 1: the lines of the H100 probe.
.visible .entry lines(.param .u64 fmt, .param .u32 n)
{
    .local .align 8 .b8 depot[8];
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [fmt];
    ld.param.u32 %r1, [n];
    mov.u64 %rd2, depot;
    cvta.local.u64 %rd3, %rd2;
    mov.u32 %r3, %tid.x;
    st.local.u32 [%rd2], %r3;
    mov.u32 %r2, 0;
LOOP:
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra DONE;
    st.local.u32 [%rd2+4], %r2;
    {
    .param .b64 p0;
    st.param.b64 [p0], %rd1;
    .param .b64 p1;
    st.param.b64 [p1], %rd3;
    .param .b32 r0;
    call.uni (r0), vprintf, (p0, p1);
    }
    add.u32 %r2, %r2, 1;
    bra LOOP;
DONE:
    ret;
}
)";

// An argument buffer as the compilers pack it: each value at its natural alignment.
struct Args {
    std::vector<unsigned char> bytes;
    template <typename T> Args &add(T v)
    {
        bytes.resize((bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T));
        const auto *p = reinterpret_cast<const unsigned char *>(&v);
        bytes.insert(bytes.end(), p, p + sizeof(T));
        return *this;
    }
};

// What the C library prints.
std::string c_format(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(nullptr, 0, fmt, ap);
    va_end(ap);
    std::string s(n > 0 ? (size_t)n : 0, '\0');
    std::vector<char> buf(s.size() + 1);
    vsnprintf(buf.data(), buf.size(), fmt, ap2);
    va_end(ap2);
    s.assign(buf.data(), s.size());
    return s;
}

std::vector<std::string> split_lines(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

#ifndef _WIN32
long max_rss_kib()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}
#endif

// AddressSanitizer keeps freed blocks in its quarantine, 256 MiB by default, which the process's
// size then counts.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kQuarantineKib = 256 * 1024;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr long kQuarantineKib = 256 * 1024;
#else
constexpr long kQuarantineKib = 0;
#endif
#else
constexpr long kQuarantineKib = 0;
#endif

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class KernelPrintf : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuModuleLoadData(&module_, kPtx));
        ASSERT_OK(cuModuleGetFunction(&repeat_, module_, "repeat"));
        ASSERT_OK(cuModuleGetFunction(&lines_, module_, "lines"));
    }
    void TearDown() override
    {
        for (CUdeviceptr p : allocations_) {
            EXPECT_OK(cuMemFree(p));
        }
        if (module_) {
            EXPECT_OK(cuModuleUnload(module_));
        }
        ContextTest::TearDown();
    }

    CUdeviceptr upload(const void *data, size_t n)
    {
        CUdeviceptr p = 0;
        EXPECT_OK(cuMemAlloc(&p, n ? n : 1));
        if (p) {
            allocations_.push_back(p);
            if (n) {
                EXPECT_OK(cuMemcpyHtoD(p, data, n));
            }
        }
        return p;
    }
    // A NUL-terminated string in device memory, for a format or a %s argument.
    uint64_t text(const std::string &s) { return upload(s.c_str(), s.size() + 1); }

    // What `threads` threads print with fmt and args, `times` each, by the next synchronisation.
    std::string print(const std::string &fmt, const Args &args, unsigned threads = 1, unsigned times = 1)
    {
        CUdeviceptr f = text(fmt), a = upload(args.bytes.data(), args.bytes.size());
        void *params[] = {&f, &a, &times};
        testing::internal::CaptureStdout();
        EXPECT_OK(cuLaunchKernel(repeat_, 1, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
        EXPECT_OK(cuCtxSynchronize());
        return testing::internal::GetCapturedStdout();
    }

    // The probe's kernel: `threads` threads print "tTT iIIIII abcdefgh" n times each.
    std::string print_lines(unsigned threads, unsigned n)
    {
        CUdeviceptr f = text("t%02d i%05d abcdefgh\n");
        void *params[] = {&f, &n};
        testing::internal::CaptureStdout();
        EXPECT_OK(cuLaunchKernel(lines_, 1, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
        EXPECT_OK(cuCtxSynchronize());
        return testing::internal::GetCapturedStdout();
    }

    CUmodule module_ = nullptr;
    CUfunction repeat_ = nullptr, lines_ = nullptr;
    std::vector<CUdeviceptr> allocations_;
};

// Checks that the launch kept, in order, iterations first..n-1 of each of `threads` threads.
void expect_last_lines(const std::vector<std::string> &lines, unsigned threads, unsigned first, unsigned n)
{
    ASSERT_EQ((size_t)threads * (n - first), lines.size());
    size_t k = 0;
    for (unsigned i = first; i < n; ++i)
        for (unsigned t = 0; t < threads; ++t, ++k) {
            char want[32];
            snprintf(want, sizeof(want), "t%02u i%05u abcdefgh", t, i);
            ASSERT_EQ(want, lines[k]) << "line " << k;
        }
}

} // namespace

// The H100's readings after cudaDeviceSetLimit(cudaLimitPrintfFifoSize): at least 512 KiB,
// rounded up to 128 bytes, at most 2 GiB; every size succeeds.
TEST_F(KernelPrintf, FifoSize_ReadsBackAsTheH100RoundsIt)
{
    size_t v = 0;
    ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
    EXPECT_EQ(8650752u, v);
    const struct {
        size_t set, reads;
    } cases[] = {
        {1, 524288},          {4096, 524288},       {524287, 524288},          {524288, 524288},
        {600000, 600064},     {1 << 20, 1 << 20},   {(size_t)1 << 30, (size_t)1 << 30},
        {(size_t)1 << 36, (size_t)2 << 30},          {SIZE_MAX, (size_t)2 << 30},
    };
    for (auto c : cases) {
        ASSERT_OK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, c.set));
        ASSERT_OK(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
        EXPECT_EQ(c.reads, v) << "set " << c.set;
    }
}

// 32 threads print 1000 lines each into a FIFO of 512 KiB: the H100 prints the last 64 of
// each thread (iterations 936 to 999), 2048 records of 256 bytes. The next launch prints
// whole. With 1 MiB and 2000 lines each, the last 128 of each thread.
TEST_F(KernelPrintf, AFullFifo_KeepsTheLastRecordsOfTheLaunch)
{
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 512 * 1024));
    std::string out = print_lines(32, 1000);
    EXPECT_LE(out.size(), 512u * 1024u);
    expect_last_lines(split_lines(out), 32, 936, 1000);
    expect_last_lines(split_lines(print_lines(2, 3)), 2, 0, 3);

    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1024 * 1024));
    expect_last_lines(split_lines(print_lines(32, 2000)), 32, 1872, 2000);
}

// A conversion with a '*' precision is printed as written, as the H100 does, however large
// the precision (2^31-1 took the C library 39 to 82 seconds); its arguments are skipped, so
// the conversions after it read theirs. A '*' width alone pads.
TEST_F(KernelPrintf, AStarPrecision_IsPrintedAsWrittenAtOnce)
{
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ("A[%.*f]\n", print("A[%.*f]\n", Args().add<int32_t>(2147483647).add(1.5)));
    EXPECT_EQ("H[1.500 %.*d]\n", print("H[%.3f %.*d]\n", Args().add(1.5).add<int32_t>(4).add<int32_t>(7)));
    uint64_t abc = text("abc"), xyz = text("xyz");
    EXPECT_EQ("G[%*.*f]|42|%.*s|xyz|%.*e\n",
              print("G[%*.*f]|%d|%.*s|%s|%.*e\n", Args()
                                                      .add<int32_t>(10)
                                                      .add<int32_t>(3)
                                                      .add(1.5)
                                                      .add<int32_t>(42)
                                                      .add<int32_t>(2147483647)
                                                      .add(abc)
                                                      .add(xyz)
                                                      .add<int32_t>(2147483647)
                                                      .add(1e300)));
    EXPECT_EQ("B[    7|7    ]\n", print("B[%*d|%*d]\n", Args().add<int32_t>(5).add<int32_t>(7).add<int32_t>(-5).add<int32_t>(7)));
    EXPECT_LT(seconds_since(t0), 5.0);
}

// Literal huge precisions and widths: the H100 prints them whole. Within the FIFO the text is
// the same; past it, the record is cut at the FIFO's size (8650752 bytes by default), made in
// a moment (the C library took minutes for %.100000000f).
TEST_F(KernelPrintf, AHugeLiteralPrecision_IsExactAndCutAtTheFifoQuickly)
{
    auto t0 = std::chrono::steady_clock::now();
    std::string out = print("D[%.100000000f]\n", Args().add(1.5));
    EXPECT_LT(seconds_since(t0), 5.0);
    ASSERT_EQ(8650752u, out.size());
    EXPECT_EQ("D[1.5", out.substr(0, 5));
    EXPECT_EQ(std::string::npos, out.find_first_not_of('0', 5));

    EXPECT_EQ("C[1.5" + std::string(999999, '0') + "]\n", print("C[%.1000000f]\n", Args().add(1.5)));
    EXPECT_EQ("E[" + std::string(999999, ' ') + "7]\n", print("E[%1000000d]\n", Args().add<int32_t>(7)));
    EXPECT_EQ("F[" + std::string(999999, '0') + "7]\n", print("F[%.1000000d]\n", Args().add<int32_t>(7)));
    EXPECT_LT(seconds_since(t0), 10.0);
}

// Precisions and widths past what the C library is asked for (1100) give the C library's own
// text: exact digits, then zeros, padding after the sign and 0x, %g's trailing zeros only with
// '#', none for infinities.
TEST_F(KernelPrintf, LongConversions_MatchTheCLibrary)
{
    const double denorm = 4.9406564584124654e-324, third = 1.0 / 3;
    struct Case {
        const char *fmt;
        Args args;
        std::string want;
    };
#define DOUBLE(f, v) Case{f, Args().add((double)(v)), c_format(f, (double)(v))}
#define INT(f, v) Case{f, Args().add((int32_t)(v)), c_format(f, (int)(v))}
#define LONG(f, v) Case{f, Args().add((int64_t)(v)), c_format(f, (long long)(v))}
    const Case cases[] = {
        DOUBLE("%.1500f", 1.5),
        DOUBLE("%.1500f", denorm),
        DOUBLE("%.1100f", 1.7976931348623157e308),
        DOUBLE("%.1200f", -0.1),
        DOUBLE("%.3000e", 1e300),
        DOUBLE("%.1200e", denorm),
        DOUBLE("%+.1500E", -2.5),
        DOUBLE("%#.2000g", third),
        DOUBLE("%.2000g", third),
        DOUBLE("%.2000g", 1e-10),
        DOUBLE("%#.2000g", 1e-10),
        DOUBLE("%#.1500G", 1e300),
        DOUBLE("%.1500g", 123456789.0),
        DOUBLE("%.1500a", 1.5),
        DOUBLE("%#.1200A", -0.1),
        DOUBLE("%-3000.1200f|", 2.5),
        DOUBLE("%03000.2f", -1.5),
        DOUBLE("%+2000.1500e", 3.0),
        DOUBLE("% 01500f", 1.0),
        DOUBLE("%01400a", -1.5),
        DOUBLE("%02000f", -INFINITY),
        DOUBLE("%.1500f", INFINITY),
        DOUBLE("%2000f", NAN),
        DOUBLE("%-1200e|", 6.02e23),
        DOUBLE("%.0f|", 2.5),
        DOUBLE("%#.0f|", 2.5),
        INT("%.2000d", -42),
        INT("%#.1500x", 255),
        INT("%#2000x", 255),
        INT("%#02000x", 255),
        INT("%-1500d|", 7),
        INT("%02000d", -7),
        INT("%#.1500o", 8),
        INT("%#01200o", 8),
        INT("%+1500.1200i", 5),
        INT("% 1300d", 9),
        INT("%01200.5d", 3),
        INT("%.0d|", 0),
        INT("%#.0o|", 0),
        INT("%#x|", 0),
        INT("%1200u", -1),
        INT("%1200c", 'x'),
        INT("%-1200c|", 'y'),
        INT("%01200c", 'z'),
        LONG("%.1500lld", -1234567890123LL),
        LONG("%#1300llX", 0xabcdef0123LL),
    };
#undef DOUBLE
#undef INT
#undef LONG
    for (const Case &c : cases)
        EXPECT_EQ(c.want, print(c.fmt, c.args)) << c.fmt;
    uint64_t abc = text("abc");
    EXPECT_EQ(c_format("%-1200s|", "abc"), print("%-1200s|", Args().add(abc)));
    EXPECT_EQ(c_format("%1200.2s|", "abc"), print("%1200.2s|", Args().add(abc)));
    EXPECT_EQ(c_format("%.5000s|%01200s", "abc", "abc"), print("%.5000s|%01200s", Args().add(abc).add(abc)));
}

// A launch that prints a gigabyte of text keeps its memory within the FIFO (1 MiB here): the
// last records, whole, come out; the process grows by far less than the text.
#ifndef _WIN32 // measured with getrusage; left out on Windows by tests/CMakeLists.txt
TEST_F(KernelPrintf, AGigabyteOfPrintf_KeepsMemoryWithinTheFifo)
{
    ASSERT_OK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1024 * 1024));
    // 200 conversions of 500 characters: a record of 100,001 bytes; 32 threads x 320 of them.
    std::string fmt;
    Args args;
    for (int i = 0; i < 200; ++i) {
        fmt += "%500d";
        args.add<int32_t>(i);
    }
    fmt += "\n";
    std::string record = c_format("%500d", 0);
    for (int i = 1; i < 200; ++i)
        record += c_format("%500d", i);
    record += "\n";
    long before = max_rss_kib();
    std::string out = print(fmt, args, 32, 320);
    long grew = max_rss_kib() - before;
    EXPECT_LT(grew, 100 * 1024 + kQuarantineKib) << "KiB";
    // Ten records of 100,001 bytes fit 1 MiB.
    ASSERT_EQ(10 * record.size(), out.size());
    for (size_t i = 0; i < 10; ++i)
        EXPECT_EQ(0, out.compare(i * record.size(), record.size(), record)) << "record " << i;
}
#endif
