// CUB's device-wide and block-wide algorithms from the toolkit's headers (issue 25): a scan of a
// million keys, reduce, radix sort, histogram, select; BlockReduce, BlockScan and BlockRadixSort
// in a kernel of our own. nvcc-only (CUB is CUDA's own header library). Prints checksums and a
// few elements, as the H100 printed them (cub_algorithms.expected).
#include "check.h"
#include <cstdint>
#include <cub/cub.cuh>
#include <vector>

static uint32_t lcg(uint32_t &s) { return s = s * 1664525u + 1013904223u; }

static uint64_t checksum(const std::vector<uint32_t> &h)
{
    uint64_t s = 1469598103934665603ull;
    for (uint32_t v : h)
        s = (s ^ v) * 1099511628211ull;
    return s;
}

template <typename T> static T *to_device(const std::vector<T> &h)
{
    T *d;
    CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T> static std::vector<T> to_host(const T *d, size_t n)
{
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

struct is_odd {
    __host__ __device__ bool operator()(uint32_t x) const { return x & 1; }
};

// 128 threads x 4 items: block reduce, block scan, block radix sort.
__global__ void block_algorithms(const uint32_t *in, uint32_t *sums, uint32_t *scanned, uint32_t *sorted)
{
    using Reduce = cub::BlockReduce<uint32_t, 128>;
    using Scan = cub::BlockScan<uint32_t, 128>;
    using Sort = cub::BlockRadixSort<uint32_t, 128, 4>;
    __shared__ union {
        typename Reduce::TempStorage r;
        typename Scan::TempStorage s;
        typename Sort::TempStorage t;
    } tmp;
    uint32_t items[4];
    const uint32_t *b = in + blockIdx.x * 512;
    for (int i = 0; i < 4; ++i)
        items[i] = b[threadIdx.x * 4 + i];
    uint32_t total = Reduce(tmp.r).Sum(items);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = total;
    __syncthreads();
    uint32_t out[4];
    Scan(tmp.s).ExclusiveSum(items, out);
    for (int i = 0; i < 4; ++i)
        scanned[blockIdx.x * 512 + threadIdx.x * 4 + i] = out[i];
    __syncthreads();
    Sort(tmp.t).Sort(items);
    for (int i = 0; i < 4; ++i)
        sorted[blockIdx.x * 512 + threadIdx.x * 4 + i] = items[i];
}

int main()
{
    const int n = 1 << 20;
    std::vector<uint32_t> h(n);
    uint32_t seed = 777;
    for (int i = 0; i < n; ++i)
        h[i] = lcg(seed) >> 12; // below 2^20: the scan wraps as uint32 either way
    uint32_t *d_in = to_device(h), *d_out, *d_out2;
    CHECK(cudaMalloc(&d_out, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&d_out2, n * sizeof(uint32_t)));
    void *tmp = nullptr;
    size_t tmp_bytes = 0, need = 0;
    auto ensure = [&](size_t b) {
        if (b > tmp_bytes) {
            if (tmp)
                CHECK(cudaFree(tmp));
            CHECK(cudaMalloc(&tmp, b));
            tmp_bytes = b;
        }
    };

    // DeviceScan of a million keys
    CHECK(cub::DeviceScan::InclusiveSum(nullptr, need, d_in, d_out, n));
    ensure(need);
    CHECK(cub::DeviceScan::InclusiveSum(tmp, need, d_in, d_out, n));
    std::vector<uint32_t> s = to_host(d_out, n);
    std::printf("DeviceScan::InclusiveSum: checksum %016llx [0] %u [1] %u [n-1] %u\n",
                (unsigned long long)checksum(s), s[0], s[1], s[n - 1]);
    CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, d_in, d_out, n));
    ensure(need);
    CHECK(cub::DeviceScan::ExclusiveSum(tmp, need, d_in, d_out, n));
    s = to_host(d_out, n);
    std::printf("DeviceScan::ExclusiveSum: checksum %016llx [1] %u [n-1] %u\n", (unsigned long long)checksum(s), s[1],
                s[n - 1]);

    // DeviceReduce
    uint32_t *d_r;
    CHECK(cudaMalloc(&d_r, 16));
    CHECK(cub::DeviceReduce::Sum(nullptr, need, d_in, d_r, n));
    ensure(need);
    CHECK(cub::DeviceReduce::Sum(tmp, need, d_in, d_r, n));
    uint32_t r[2];
    CHECK(cudaMemcpy(r, d_r, 4, cudaMemcpyDeviceToHost));
    CHECK(cub::DeviceReduce::Max(nullptr, need, d_in, d_r + 1, n));
    ensure(need);
    CHECK(cub::DeviceReduce::Max(tmp, need, d_in, d_r + 1, n));
    CHECK(cudaMemcpy(r + 1, d_r + 1, 4, cudaMemcpyDeviceToHost));
    std::printf("DeviceReduce: sum %u max %u\n", r[0], r[1]);

    // DeviceRadixSort of a million keys, and pairs
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, d_in, d_out, n));
    ensure(need);
    CHECK(cub::DeviceRadixSort::SortKeys(tmp, need, d_in, d_out, n));
    s = to_host(d_out, n);
    bool ordered = true;
    for (int i = 1; i < n; ++i)
        ordered = ordered && s[i - 1] <= s[i];
    std::printf("DeviceRadixSort::SortKeys: ordered %d checksum %016llx [0] %u [n-1] %u\n", ordered,
                (unsigned long long)checksum(s), s[0], s[n - 1]);
    std::vector<uint32_t> idx(n);
    for (int i = 0; i < n; ++i)
        idx[i] = i;
    uint32_t *d_vals = to_device(idx), *d_vals_out;
    CHECK(cudaMalloc(&d_vals_out, n * sizeof(uint32_t)));
    CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, need, d_in, d_out, d_vals, d_vals_out, n));
    ensure(need);
    CHECK(cub::DeviceRadixSort::SortPairsDescending(tmp, need, d_in, d_out, d_vals, d_vals_out, n));
    std::vector<uint32_t> v = to_host(d_vals_out, n);
    std::printf("DeviceRadixSort::SortPairsDescending: values checksum %016llx [0] %u [n-1] %u\n",
                (unsigned long long)checksum(v), v[0], v[n - 1]);

    // DeviceHistogram: 64 even bins over [0, 2^20)
    int *d_hist;
    CHECK(cudaMalloc(&d_hist, 64 * sizeof(int)));
    CHECK(cub::DeviceHistogram::HistogramEven(nullptr, need, d_in, d_hist, 65, 0u, 1u << 20, n));
    ensure(need);
    CHECK(cub::DeviceHistogram::HistogramEven(tmp, need, d_in, d_hist, 65, 0u, 1u << 20, n));
    std::vector<int> hist = to_host(d_hist, 64);
    long total = 0;
    for (int x : hist)
        total += x;
    std::printf("DeviceHistogram::HistogramEven: total %ld bins %d %d %d %d\n", total, hist[0], hist[1], hist[31],
                hist[63]);

    // DeviceSelect: the odd keys, and unique of the sorted keys
    int *d_count;
    CHECK(cudaMalloc(&d_count, sizeof(int)));
    CHECK(cub::DeviceSelect::If(nullptr, need, d_in, d_out2, d_count, n, is_odd()));
    ensure(need);
    CHECK(cub::DeviceSelect::If(tmp, need, d_in, d_out2, d_count, n, is_odd()));
    int count;
    CHECK(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    s = to_host(d_out2, count);
    std::printf("DeviceSelect::If: %d selected checksum %016llx\n", count, (unsigned long long)checksum(s));
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, d_in, d_out, n));
    ensure(need);
    CHECK(cub::DeviceRadixSort::SortKeys(tmp, need, d_in, d_out, n));
    CHECK(cub::DeviceSelect::Unique(nullptr, need, d_out, d_out2, d_count, n));
    ensure(need);
    CHECK(cub::DeviceSelect::Unique(tmp, need, d_out, d_out2, d_count, n));
    CHECK(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("DeviceSelect::Unique: %d unique\n", count);

    // Block algorithms over 8 blocks of 512 items
    uint32_t *d_sums, *d_scan, *d_sort;
    CHECK(cudaMalloc(&d_sums, 8 * 4));
    CHECK(cudaMalloc(&d_scan, 4096 * 4));
    CHECK(cudaMalloc(&d_sort, 4096 * 4));
    block_algorithms<<<8, 128>>>(d_in, d_sums, d_scan, d_sort);
    CHECK(cudaGetLastError());
    std::vector<uint32_t> sums = to_host(d_sums, 8), bscan = to_host(d_scan, 4096), bsort = to_host(d_sort, 4096);
    std::printf("BlockReduce: %u %u ... %u\n", sums[0], sums[1], sums[7]);
    std::printf("BlockScan: checksum %016llx [511] %u\n", (unsigned long long)checksum(bscan), bscan[511]);
    bool bordered = true;
    for (int b = 0; b < 8; ++b)
        for (int i = 1; i < 512; ++i)
            bordered = bordered && bsort[b * 512 + i - 1] <= bsort[b * 512 + i];
    std::printf("BlockRadixSort: ordered %d checksum %016llx\n", bordered, (unsigned long long)checksum(bsort));
    CHECK(cudaDeviceSynchronize());
    std::printf("done\n");
    return 0;
}
