// thrust's algorithms from the toolkit's headers (issue 25): sort of a million keys (the radix
// sort, which once failed to load), sort_by_key, inclusive and exclusive scans, reduce and
// transform. nvcc-only: thrust is CUDA's own header library. Prints checksums and a few
// elements, which the H100 printed the same (thrust_algorithms.expected).
#include "check.h"
#include <cstdint>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

static uint32_t lcg(uint32_t &s) { return s = s * 1664525u + 1013904223u; }

struct scramble {
    __host__ __device__ uint32_t operator()(uint32_t x) const { return (x * 2654435761u) ^ (x >> 7); }
};

template <typename V> static uint64_t checksum(const V &h)
{
    uint64_t s = 1469598103934665603ull;
    for (size_t i = 0; i < h.size(); ++i)
        s = (s ^ (uint64_t)h[i]) * 1099511628211ull;
    return s;
}

int main()
{
    const size_t n = 1 << 20;
    thrust::host_vector<uint32_t> hk(n);
    uint32_t seed = 12345;
    for (size_t i = 0; i < n; ++i)
        hk[i] = lcg(seed);

    // sort of a million 32-bit keys (radix sort)
    thrust::device_vector<uint32_t> dk = hk;
    thrust::sort(dk.begin(), dk.end());
    thrust::host_vector<uint32_t> sorted = dk;
    bool ordered = true;
    for (size_t i = 1; i < n; ++i)
        ordered = ordered && sorted[i - 1] <= sorted[i];
    std::printf("sort u32: ordered %d checksum %016llx first %u %u last %u\n", ordered,
                (unsigned long long)checksum(sorted), sorted[0], sorted[1], sorted[n - 1]);

    // sort of signed 64-bit keys, descending
    thrust::host_vector<int64_t> h64(n);
    for (size_t i = 0; i < n; ++i)
        h64[i] = (int64_t)(((uint64_t)lcg(seed) << 32) | lcg(seed));
    thrust::device_vector<int64_t> d64 = h64;
    thrust::sort(d64.begin(), d64.end(), thrust::greater<int64_t>());
    thrust::host_vector<int64_t> s64 = d64;
    std::printf("sort s64 descending: checksum %016llx first %lld last %lld\n", (unsigned long long)checksum(s64),
                (long long)s64[0], (long long)s64[n - 1]);

    // sort of floats
    thrust::host_vector<float> hf(n);
    for (size_t i = 0; i < n; ++i)
        hf[i] = (float)((int32_t)lcg(seed)) / 65536.0f;
    thrust::device_vector<float> df = hf;
    thrust::sort(df.begin(), df.end());
    thrust::host_vector<float> sf = df;
    std::printf("sort f32: first %.6f last %.6f mid %.6f\n", sf[0], sf[n - 1], sf[n / 2]);

    // sort_by_key: values follow their keys
    thrust::device_vector<uint32_t> keys = hk;
    thrust::device_vector<uint32_t> vals(n);
    thrust::sequence(vals.begin(), vals.end());
    thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
    thrust::host_vector<uint32_t> hv = vals, hkk = keys;
    bool follow = true;
    for (size_t i = 0; i < n; i += 997)
        follow = follow && hk[hv[i]] == hkk[i];
    std::printf("sort_by_key: values follow %d checksum %016llx first value %u\n", follow,
                (unsigned long long)checksum(hv), hv[0]);

    // scans
    thrust::device_vector<uint32_t> small(n);
    thrust::transform(dk.begin(), dk.end(), small.begin(), scramble());
    thrust::device_vector<uint32_t> inc(n), exc(n);
    thrust::inclusive_scan(small.begin(), small.end(), inc.begin());
    thrust::exclusive_scan(small.begin(), small.end(), exc.begin(), 7u);
    thrust::host_vector<uint32_t> hi = inc, he = exc;
    std::printf("inclusive_scan: checksum %016llx last %u\n", (unsigned long long)checksum(hi), hi[n - 1]);
    std::printf("exclusive_scan: checksum %016llx first %u last %u\n", (unsigned long long)checksum(he), he[0],
                he[n - 1]);

    // reductions
    uint64_t sum = thrust::reduce(d64.begin(), d64.begin() + 1000, (int64_t)0) & 0xffffffffffffull;
    uint32_t mx = thrust::reduce(small.begin(), small.end(), 0u, thrust::maximum<uint32_t>());
    float fs = thrust::reduce(df.begin(), df.begin() + 4096, 0.0f);
    std::printf("reduce: s64 sum low48 %llx max %u f32 sum of 4096 sorted %.3f\n", (unsigned long long)sum, mx, fs);

    // transform of doubles
    thrust::device_vector<double> dd(1000);
    thrust::sequence(dd.begin(), dd.end(), 0.5, 0.25);
    thrust::transform(dd.begin(), dd.end(), dd.begin(), dd.begin(), thrust::multiplies<double>());
    double ds = thrust::reduce(dd.begin(), dd.end(), 0.0);
    std::printf("transform: sum of squares %.6f\n", ds);
    CHECK(cudaDeviceSynchronize());
    std::printf("done\n");
    return 0;
}
