// device_runtime.cu (issue 25, devrt): the device runtime's calls from kernels beyond launches
// (cuda_device_runtime_api.h): limits, cache and shared memory configuration, error names and
// strings, function attributes, occupancy, cudaMalloc/cudaFree from the device heap, and the
// asynchronous copies and fills of 1, 2 and 3 dimensions in the device's streams. Built with
// nvcc -rdc=true (the device runtime needs it; nvcc only: clang with extmem's headers has no
// device-side runtime declarations); the expected output is what this program printed on an
// H100 with NVIDIA's runtime (docs/probes/kernels/devrt/run2/device_runtime.out). The program
// recorded there went on to cudaMalloc/cudaFree and the copies and fills in kernels, which
// faulted on the H100 (cudaErrorIllegalAddress, in a part the two probe runs did not narrow
// down): those are checked by tests/device_runtime_test.cpp against the probes' answers.
// device_runtime.unchecked lists the lines the software device does not reproduce.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include "check.h"

__device__ long long g_out[256];
__device__ char g_text[32][128];
__constant__ int c_table[10];

__global__ void __launch_bounds__(256) attr_kernel(int *p)
{
    __shared__ int s[250];
    s[threadIdx.x % 250] = p ? *p : 0;
    __syncthreads();
    if (p)
        *p = s[(threadIdx.x + 1) % 250] + c_table[threadIdx.x % 10];
}

__global__ void limits_kernel()
{
    for (int i = 0; i < 8; ++i) {
        size_t v = 0xdead;
        int lim = i == 7 ? 99 : i;
        cudaError_t e = cudaDeviceGetLimit(&v, (cudaLimit)lim);
        g_out[2 * i] = e;
        g_out[2 * i + 1] = (long long)v;
    }
    cudaFuncCache cc = (cudaFuncCache)77;
    g_out[16] = cudaDeviceGetCacheConfig(&cc);
    g_out[17] = cc;
    cudaSharedMemConfig sc = (cudaSharedMemConfig)77;
#pragma nv_diag_suppress 1215
    g_out[18] = cudaDeviceGetSharedMemConfig(&sc);
#pragma nv_diag_default 1215
    g_out[19] = sc;
    int n = -1, d = -1, ver = -1;
    g_out[20] = cudaGetDeviceCount(&n);
    g_out[21] = n;
    g_out[22] = cudaGetDevice(&d);
    g_out[23] = d;
    g_out[24] = cudaRuntimeGetVersion(&ver);
    g_out[25] = ver;
}

__device__ void copy_text(char *dst, const char *src)
{
    int i = 0;
    if (!src) {
        dst[0] = '?';
        dst[1] = 0;
        return;
    }
    for (; i < 127 && src[i]; ++i)
        dst[i] = src[i];
    dst[i] = 0;
}

__global__ void errors_kernel(const int *codes, int n)
{
    for (int i = 0; i < n; ++i) {
        copy_text(g_text[2 * i], cudaGetErrorName((cudaError_t)codes[i]));
        copy_text(g_text[2 * i + 1], cudaGetErrorString((cudaError_t)codes[i]));
    }
}

__device__ void put_attr(long long *o, const cudaFuncAttributes &a)
{
    o[0] = (long long)a.sharedSizeBytes;
    o[1] = (long long)a.constSizeBytes;
    o[2] = (long long)a.localSizeBytes;
    o[3] = a.maxThreadsPerBlock;
    o[4] = a.numRegs;
    o[5] = a.ptxVersion;
    o[6] = a.binaryVersion;
    o[7] = a.cacheModeCA;
    o[8] = a.maxDynamicSharedSizeBytes;
    o[9] = a.preferredShmemCarveout;
    o[10] = a.clusterDimMustBeSet;
    o[11] = a.requiredClusterWidth;
    o[12] = a.nonPortableClusterSizeAllowed;
    o[13] = a.clusterSchedulingPolicyPreference;
}

__global__ void funcattr_kernel()
{
    cudaFuncAttributes a;
    memset(&a, 0x55, sizeof(a));
    g_out[0] = cudaFuncGetAttributes(&a, (const void *)attr_kernel);
    put_attr(&g_out[1], a);
    int n = -7;
    g_out[22] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)attr_kernel, 256, 0);
    g_out[23] = n;
    n = -7;
    g_out[24] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)attr_kernel, 128, 20000);
    g_out[25] = n;
    n = -7;
    g_out[26] = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, (const void *)attr_kernel, 64, 0, 1);
    g_out[27] = n;
    n = -7;
    g_out[28] = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, (const void *)attr_kernel, 64, 0, 6);
    g_out[29] = n;
    n = -7;
    g_out[30] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)attr_kernel, 512, 0);
    g_out[31] = n;
    n = -7;
    g_out[32] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)attr_kernel, 0, 0);
    g_out[33] = n;
    g_out[36] = cudaGetLastError();
}

static long long out[256];
static void fetch_out()
{
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpyFromSymbol(out, g_out, sizeof(out)));
    long long zero[256] = {0};
    CHECK(cudaMemcpyToSymbol(g_out, zero, sizeof(zero)));
}

int main()
{
    // Limits as the host set them, read by a kernel.
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20));
    CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1u << 20));
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 100));
    limits_kernel<<<1, 1>>>();
    fetch_out();
    for (int i = 0; i < 8; ++i)
        printf("limit %d: %lld %lld\n", i == 7 ? 99 : i, out[2 * i], out[2 * i] ? -1 : out[2 * i + 1]);
    printf("cache config %lld %lld, shared mem config %lld %lld\n", out[16], out[17], out[18], out[19]);
    printf("device count %lld %lld, device %lld %lld, runtime version %lld %lld\n", out[20], out[21], out[22],
           out[23], out[24], out[25]);
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    limits_kernel<<<1, 1>>>();
    fetch_out();
    printf("after cudaDeviceSetCacheConfig(PreferShared): %lld %lld\n", out[16], out[17]);

    // Error names and strings, in device memory.
    const int codes[] = {0, 1, 2, 9, 65, 69, 98, 200, 400, 700, 719, 999, 12345};
    const int ncodes = (int)(sizeof(codes) / sizeof(codes[0]));
    int *dcodes;
    CHECK(cudaMalloc(&dcodes, sizeof(codes)));
    CHECK(cudaMemcpy(dcodes, codes, sizeof(codes), cudaMemcpyHostToDevice));
    errors_kernel<<<1, 1>>>(dcodes, ncodes);
    CHECK(cudaDeviceSynchronize());
    static char text[32][128];
    CHECK(cudaMemcpyFromSymbol(text, g_text, sizeof(text)));
    for (int i = 0; i < ncodes; ++i)
        printf("error %d: %s | %s | host %s\n", codes[i], text[2 * i], text[2 * i + 1],
               strcmp(text[2 * i], cudaGetErrorName((cudaError_t)codes[i])) == 0 &&
                       strcmp(text[2 * i + 1], cudaGetErrorString((cudaError_t)codes[i])) == 0
                   ? "same"
                   : "differs");

    // Function attributes and occupancy, as the host sees them.
    CHECK(cudaFuncSetAttribute(attr_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 60000));
    CHECK(cudaFuncSetAttribute(attr_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    funcattr_kernel<<<1, 1>>>();
    fetch_out();
    cudaFuncAttributes ha;
    CHECK(cudaFuncGetAttributes(&ha, attr_kernel));
    long long host_attr[14] = {(long long)ha.sharedSizeBytes, (long long)ha.constSizeBytes, (long long)ha.localSizeBytes,
                               ha.maxThreadsPerBlock, ha.numRegs, ha.ptxVersion, ha.binaryVersion, ha.cacheModeCA,
                               ha.maxDynamicSharedSizeBytes, ha.preferredShmemCarveout, ha.clusterDimMustBeSet,
                               ha.requiredClusterWidth, ha.nonPortableClusterSizeAllowed,
                               ha.clusterSchedulingPolicyPreference};
    printf("cudaFuncGetAttributes: %lld; shared %lld, maxThreads %lld, maxDynamicShared %lld, carveout %lld;",
           out[0], out[1], out[4], out[9], out[10]);
    for (int i = 0; i < 14; ++i)
        printf(" %s", out[1 + i] == host_attr[i] ? "=" : "!");
    printf("\n");
    const int occ_args[5][3] = {{256, 0, 0}, {128, 20000, 0}, {64, 0, 1}, {512, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < 5; ++i) {
        int idx = i < 3 ? 22 + 2 * i : 24 + 2 * i;
        int h = -7;
        cudaError_t he = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&h, attr_kernel, occ_args[i][0],
                                                                                occ_args[i][1], occ_args[i][2]);
        printf("occupancy(%d, %d, flags %d): %lld, %s host (%d)\n", occ_args[i][0], occ_args[i][1], occ_args[i][2],
               out[idx], out[idx + 1] == h ? "same as" : "differs from", (int)he);
        (void)cudaGetLastError();
    }
    printf("occupancy flags 6: %lld %lld; last error %lld\n", out[28], out[29], out[36]);
    return 0;
}
