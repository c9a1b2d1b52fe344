// Half, bfloat16 and fp8 as cuda_fp16.h, cuda_bf16.h and cuda_fp8.h implement them (issue 25):
// conversions in every rounding the headers offer, packed pairs, arithmetic, the fp8 formats
// (e4m3, e5m2, with saturation), and cuda::atomic_ref. nvcc-only (CUDA's own headers). Prints
// the bits; the H100 printed the same (fp_formats.expected).
#include "check.h"
#include <cstdint>
#include <cstring>
#include <cuda/atomic>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

static const float inputs[16] = {0.0f,     -0.0f,   1.0f,      -1.5f,    3.14159265f, 65504.0f, 70000.0f, 1e-8f,
                                 -2.5e-5f, 448.0f,  500.0f,    57344.0f, 1e30f,       -1e30f,   0.3333333f, 6.1e-5f};

__global__ void convert(const float *in, uint32_t *out)
{
    int i = threadIdx.x;
    float x = in[i], y = in[15 - i];
    uint32_t *o = out + i * 24;
    __half h = __float2half_rn(x);
    o[0] = __half_as_ushort(h);
    o[1] = __half_as_ushort(__float2half_rz(x)) | __half_as_ushort(__float2half_rd(x)) << 16;
    o[2] = __half_as_ushort(__float2half_ru(x));
    __half2 h2 = __floats2half2_rn(x, y);
    o[3] = *reinterpret_cast<uint32_t *>(&h2);
    __half2 p = __hfma2(h2, h2, __float2half2_rn(0.5f));
    o[4] = *reinterpret_cast<uint32_t *>(&p);
    o[5] = __float_as_uint(__half2float(__hmul(h, __float2half(0.75f))));
    __nv_bfloat16 b = __float2bfloat16(x);
    o[6] = __bfloat16_as_ushort(b) | __bfloat16_as_ushort(__float2bfloat16_rz(x)) << 16;
    __nv_bfloat162 b2 = __floats2bfloat162_rn(x, y);
    o[7] = *reinterpret_cast<uint32_t *>(&b2);
#if __CUDA_ARCH__ >= 800
    __nv_bfloat162 bp = __hfma2(b2, b2, __float2bfloat162_rn(0.5f));
    o[8] = *reinterpret_cast<uint32_t *>(&bp);
    o[9] = __float_as_uint(__bfloat162float(__hadd(b, __float2bfloat16(1.0f))));
#else
    o[8] = o[9] = 0;
#endif
    // fp8: one value each way, pairs, saturation and not
    __nv_fp8_e4m3 e4(x);
    __nv_fp8_e5m2 e5(x);
    o[10] = e4.__x | (uint32_t)e5.__x << 8;
    o[11] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3) | __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2) << 8;
    o[12] = __nv_cvt_float2_to_fp8x2(make_float2(x, y), __NV_SATFINITE, __NV_E4M3) |
            (uint32_t)__nv_cvt_float2_to_fp8x2(make_float2(x, y), __NV_SATFINITE, __NV_E5M2) << 16;
    o[13] = __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E4M3) |
            __nv_cvt_halfraw2_to_fp8x2(h2, __NV_SATFINITE, __NV_E5M2) << 8;
    o[14] = __nv_cvt_bfloat16raw_to_fp8(b, __NV_SATFINITE, __NV_E4M3) |
            __nv_cvt_bfloat16raw2_to_fp8x2(b2, __NV_SATFINITE, __NV_E5M2) << 8;
    __half_raw back4 = __nv_cvt_fp8_to_halfraw(e4.__x, __NV_E4M3);
    __half2_raw back5 = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(o[12] >> 16), __NV_E5M2);
    o[15] = back4.x | (uint32_t)back5.x << 16;
    o[16] = __float_as_uint((float)e4) ^ __float_as_uint((float)e5);
    // conversions to and from integers
    o[17] = (uint32_t)__half2int_rn(__float2half(x * 0.001f)) ^ (uint32_t)__half2uint_rz(h);
    o[18] = __half_as_ushort(__int2half_rn(i * 1000 - 7000)) | (uint32_t)__bfloat16_as_ushort(__int2bfloat16_rn(i * 77777)) << 16;
    o[19] = (uint32_t)__bfloat162int_rz(b) ^ (uint32_t)__half2short_rn(__float2half(y));
    o[20] = __half_as_ushort(hsqrt(__habs(h))) | (uint32_t)__half_as_ushort(hrcp(h)) << 16;
    o[21] = __half_as_ushort(__hmax(h, __float2half(y))) | (uint32_t)__bfloat16_as_ushort(__hmin(b, __float2bfloat16(y))) << 16;
    o[22] = __hlt(h, __float2half(y)) | __hisnan(h) << 1 | __hisinf(h) << 2 | __hbgt2(h2, __float2half2_rn(1.0f)) << 3;
    o[23] = __half_as_ushort(__double2half((double)x * 1.0000001)) | (uint32_t)__bfloat16_as_ushort(__double2bfloat16((double)y)) << 16;
}

__global__ void atomics(int *counter, unsigned long long *mx, float *fsum)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
    c.fetch_add(1, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> m(*mx);
    m.fetch_max((unsigned long long)(threadIdx.x * 7919 % 1000), cuda::memory_order_acq_rel);
    cuda::atomic_ref<float, cuda::thread_scope_system> f(*fsum);
    f.fetch_add(0.5f);
    int expect = c.load(cuda::memory_order_acquire);
    while (expect < 100000 && !c.compare_exchange_weak(expect, expect, cuda::memory_order_seq_cst))
        ;
}

int main()
{
    float *d_in;
    uint32_t *d_out;
    CHECK(cudaMalloc(&d_in, sizeof inputs));
    CHECK(cudaMalloc(&d_out, 16 * 24 * 4));
    CHECK(cudaMemcpy(d_in, inputs, sizeof inputs, cudaMemcpyHostToDevice));
    convert<<<1, 16>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    uint32_t out[16 * 24];
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; ++i) {
        std::printf("%-12g", inputs[i]);
        for (int j = 0; j < 24; ++j)
            std::printf(" %x", out[i * 24 + j]);
        std::printf("\n");
    }
    int *d_c;
    unsigned long long *d_m;
    float *d_f;
    CHECK(cudaMalloc(&d_c, 4));
    CHECK(cudaMalloc(&d_m, 8));
    CHECK(cudaMalloc(&d_f, 4));
    CHECK(cudaMemset(d_c, 0, 4));
    CHECK(cudaMemset(d_m, 0, 8));
    CHECK(cudaMemset(d_f, 0, 4));
    atomics<<<4, 256>>>(d_c, d_m, d_f);
    CHECK(cudaGetLastError());
    int c;
    unsigned long long m;
    float f;
    CHECK(cudaMemcpy(&c, d_c, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&m, d_m, 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&f, d_f, 4, cudaMemcpyDeviceToHost));
    std::printf("atomic_ref: count %d max %llu float sum %.1f\n", c, m, f);
    CHECK(cudaDeviceSynchronize());
    std::printf("done\n");
    return 0;
}
