// The warp matrix functions of CUDA's mma.h (nvcuda::wmma), as nvcc compiles them to the PTX
// wmma.load/wmma.mma/wmma.store instructions (issue 25): a small GEMM per element type, shape and
// layout, each tile summed over two K steps, printed in hex; then what the GPU does with a
// misaligned fragment address. nvcc only: mma.h is CUDA's own header (tests/cuda/CMakeLists.txt).
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

static uint32_t rng = 12345;
static uint32_t next() { rng = rng * 1664525u + 1013904223u; return rng >> 8; }

// D (M x N) = sum over K of A (M x K) B (K x N) + C, one warp per output tile.
template <typename FA, typename FB, typename FC, typename TA, typename TC, int TM, int TN, int TK, bool ACOL, bool BCOL,
          bool CCOL, bool DCOL>
__global__ void gemm(const TA *a, const TA *b, const TC *c, TC *d, int M, int N, int K) {
    int tm = blockIdx.y * TM, tn = blockIdx.x * TN;
    FA fa; FB fb; FC fc;
    wmma::load_matrix_sync(fc, c + (CCOL ? tn * M + tm : tm * N + tn), CCOL ? M : N, CCOL ? wmma::mem_col_major : wmma::mem_row_major);
    for (int k = 0; k < K; k += TK) {
        wmma::load_matrix_sync(fa, a + (ACOL ? k * M + tm : tm * K + k), ACOL ? M : K);
        wmma::load_matrix_sync(fb, b + (BCOL ? tn * K + k : k * N + tn), BCOL ? K : N);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(d + (DCOL ? tn * M + tm : tm * N + tn), fc, DCOL ? M : N, DCOL ? wmma::mem_col_major : wmma::mem_row_major);
}

template <typename T> static void show(const char *name, const T *d, int count) {
    printf("%s:", name);
    for (int i = 0; i < count; ++i) {
        uint64_t v = 0;
        memcpy(&v, &d[i], sizeof(T));
        if (i % 16 == 0) printf("\n ");
        printf(" %0*llx", (int)(2 * sizeof(T)), (unsigned long long)v);
    }
    printf("\n");
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

template <typename TA, typename TC, typename FA, typename FB, typename FC, int TM, int TN, int TK, bool ACOL, bool BCOL,
          bool CCOL, bool DCOL>
static int run(const char *name, int M, int N, int K, TA (*ga)(), TC (*gc)()) {
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    TA *ha = new TA[na], *hb = new TA[nb];
    TC *hc = new TC[nc], *hd = new TC[nc];
    for (size_t i = 0; i < na; ++i) ha[i] = ga();
    for (size_t i = 0; i < nb; ++i) hb[i] = ga();
    for (size_t i = 0; i < nc; ++i) hc[i] = gc();
    TA *da, *db; TC *dc, *dd;
    CHECK(cudaMalloc(&da, na * sizeof(TA))); CHECK(cudaMalloc(&db, nb * sizeof(TA)));
    CHECK(cudaMalloc(&dc, nc * sizeof(TC))); CHECK(cudaMalloc(&dd, nc * sizeof(TC)));
    CHECK(cudaMemcpy(da, ha, na * sizeof(TA), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, nb * sizeof(TA), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, nc * sizeof(TC), cudaMemcpyHostToDevice));
    gemm<FA, FB, FC, TA, TC, TM, TN, TK, ACOL, BCOL, CCOL, DCOL><<<dim3(N / TN, M / TM), 32>>>(da, db, dc, dd, M, N, K);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hd, dd, nc * sizeof(TC), cudaMemcpyDeviceToHost));
    show(name, hd, (int)nc);
    cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
    delete[] ha; delete[] hb; delete[] hc; delete[] hd;
    return 0;
}

// Values: small integers and halves scaled by powers of two (so that the sums round), now and
// then a large one (so that they cancel).
static half g_half() { uint32_t r = next(); float v = (float)((int)(r % 64) - 32) / (float)(1 << (r >> 6 & 7)); if ((r >> 9 & 31) == 0) v *= 2048.0f; return __float2half(v); }
static float g_float() { uint32_t r = next(); return (float)((int)(r % 2000) - 1000) / 7.0f; }
static half g_halfc() { return __float2half(g_float() / 16.0f); }
static __nv_bfloat16 g_bf16() { uint32_t r = next(); return __float2bfloat16((float)((int)(r % 255) - 127) / (float)(1 << (r >> 8 & 15))); }
static float g_tf32() { uint32_t r = next(); return (float)((int)(r % 100000) - 50000) / 1024.0f; }  // low bits beyond tf32's
static double g_double() { uint32_t r = next(); return (double)((int)(r % 100000) - 50000) / 3.0; }
static signed char g_s8() { return (signed char)next(); }
static unsigned char g_u8() { return (unsigned char)next(); }
static int g_int() { uint32_t r = next(); return (r & 1) ? (int)r : (int)(r % 1000) - 500; }
static uint32_t g_word() { uint32_t a = next(), b = next(); return a << 16 ^ b; }

// misaligned fragment addresses: each probe in a fresh context (a fault is sticky)
__global__ void load_a_off(const half *p, float *out) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, p, 16);
    out[threadIdx.x] = __half2float(fa.x[0]);
}
__global__ void store_f32_off(float *p) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 1.0f);
    wmma::store_matrix_sync(p, fc, 16, wmma::mem_row_major);
}
__global__ void load_f32_stride(const float *p, float *out, int stride) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fc, p, stride, wmma::mem_row_major);
    out[threadIdx.x] = fc.x[0];
}

// ldmatrix with each lane's row address off bytes past a 16-byte boundary
__global__ void ldmatrix_off(float *out, int off) {
    __shared__ __align__(16) unsigned short rows[32 * 16];
    for (int i = threadIdx.x; i < 32 * 16; i += 32) rows[i] = (unsigned short)i;
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared((char *)rows + threadIdx.x * 16 + off);
    unsigned d0, d1, d2, d3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3) : "r"(addr));
    out[threadIdx.x] = (float)(d0 ^ d1 ^ d2 ^ d3);
}

static void fault_probe(const char *what, int kind, int off) {
    char *buf;
    float *out;
    cudaMalloc(&buf, 1 << 16);
    cudaMalloc(&out, 4096);
    cudaMemset(buf, 0, 1 << 16);
    if (kind == 0) load_a_off<<<1, 32>>>((const half *)(buf + off), out);
    else if (kind == 1) store_f32_off<<<1, 32>>>((float *)(buf + off));
    else if (kind == 2) load_f32_stride<<<1, 32>>>((const float *)buf, out, off);
    else ldmatrix_off<<<1, 32>>>(out, off);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("%s %d: launch %s, synchronize %s\n", what, off, cudaGetErrorName(launch), cudaGetErrorName(sync));
    fflush(stdout);
}

// Each fault probe runs in a process of its own (this program again, with arguments): after a
// fault the device is unusable for the process on the GPU, even after cudaDeviceReset.
static void fault_probe_process(const char *self, const char *what, int kind, int off) {
    fflush(stdout);
    std::string cmd = std::string("'") + self + "' probe " + std::to_string(kind) + " " + std::to_string(off) + " '" + what + "'";
    if (system(cmd.c_str()) != 0) printf("%s %d: the probe process failed\n", what, off);
}

int main(int argc, char **argv) {
    if (argc == 5 && !strcmp(argv[1], "probe")) {
        fault_probe(argv[4], atoi(argv[2]), atoi(argv[3]));
        return 0;
    }
    typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> A16r;
    typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> B16c;
    typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> C16f;
    if (run<half, float, A16r, B16c, C16f, 16, 16, 16, false, true, false, false>("f16 m16n16k16 row.col f32", 32, 32, 32, g_half, g_float)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> A32c;
    typedef wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> B32r;
    typedef wmma::fragment<wmma::accumulator, 32, 8, 16, half> C32h;
    if (run<half, half, A32c, B32r, C32h, 32, 8, 16, true, false, true, true>("f16 m32n8k16 col.row f16", 32, 16, 32, g_half, g_halfc)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> A8r;
    typedef wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> B8r;
    typedef wmma::fragment<wmma::accumulator, 8, 32, 16, float> C8f;
    if (run<half, float, A8r, B8r, C8f, 8, 32, 16, false, false, false, true>("f16 m8n32k16 row.row f32", 16, 32, 32, g_half, g_float)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::col_major> Abf;
    typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> Bbf;
    if (run<__nv_bfloat16, float, Abf, Bbf, C16f, 16, 16, 16, true, true, true, false>("bf16 m16n16k16 col.col f32", 32, 32, 32, g_bf16, g_float)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> Abf32;
    typedef wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::col_major> Bbf32;
    typedef wmma::fragment<wmma::accumulator, 32, 8, 16, float> C32f;
    if (run<__nv_bfloat16, float, Abf32, Bbf32, C32f, 32, 8, 16, false, true, false, false>("bf16 m32n8k16 row.col f32", 32, 16, 32, g_bf16, g_float)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> At;
    typedef wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> Bt;
    typedef wmma::fragment<wmma::accumulator, 16, 16, 8, float> Ct;
    if (run<float, float, At, Bt, Ct, 16, 16, 8, false, false, false, false>("tf32 m16n16k8 row.row f32 (no cvt: low bits as given)", 32, 32, 16, g_tf32, g_float)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> Ad;
    typedef wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> Bd;
    typedef wmma::fragment<wmma::accumulator, 8, 8, 4, double> Cd;
    if (run<double, double, Ad, Bd, Cd, 8, 8, 4, false, true, false, true>("f64 m8n8k4 row.col", 16, 16, 8, g_double, g_double)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> As8;
    typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> Bs8;
    typedef wmma::fragment<wmma::accumulator, 16, 16, 16, int> Ci;
    if (run<signed char, int, As8, Bs8, Ci, 16, 16, 16, false, true, false, false>("s8 m16n16k16 row.col s32", 32, 32, 32, g_s8, g_int)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::col_major> Au8;
    typedef wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> Bu8;
    typedef wmma::fragment<wmma::accumulator, 32, 8, 16, int> Ci32;
    if (run<unsigned char, int, Au8, Bu8, Ci32, 32, 8, 16, true, false, true, false>("u8 m32n8k16 col.row s32", 32, 16, 32, g_u8, g_int)) return 1;
    typedef wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::row_major> As8b;
    typedef wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::row_major> Bs8b;
    typedef wmma::fragment<wmma::accumulator, 8, 32, 16, int> Ci8;
    if (run<signed char, int, As8b, Bs8b, Ci8, 8, 32, 16, false, false, false, true>("s8 m8n32k16 row.row s32", 16, 32, 32, g_s8, g_int)) return 1;

    // s4/u4 and b1: packed words (8 nibbles, 32 bits); A row-major, B column-major (the only layouts)
    {
        namespace ex = wmma::experimental;
        const int M = 8, N = 8;
        uint32_t ha[2 * 8 * 8 / 8 * 4], hb[64];
        int hc[64], hd[64];
        for (int i = 0; i < 64; ++i) { ha[i] = g_word(); hb[i] = g_word(); hc[i] = g_int(); }
        uint32_t *da, *db; int *dc, *dd;
        CHECK(cudaMalloc(&da, 256)); CHECK(cudaMalloc(&db, 256)); CHECK(cudaMalloc(&dc, 256)); CHECK(cudaMalloc(&dd, 256));
        CHECK(cudaMemcpy(da, ha, 256, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, hb, 256, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dc, hc, 256, cudaMemcpyHostToDevice));
        (void)M; (void)N;
        extern __global__ void k_s4(const void *, const void *, const int *, int *);
        extern __global__ void k_u4(const void *, const void *, const int *, int *);
        extern __global__ void k_b1(const void *, const void *, const int *, int *, int);
        k_s4<<<1, 32>>>(da, db, dc, dd);
        CHECK(cudaMemcpy(hd, dd, 256, cudaMemcpyDeviceToHost)); show("s4 m8n8k32 row.col s32 (k 64)", hd, 64);
        k_u4<<<1, 32>>>(da, db, dc, dd);
        CHECK(cudaMemcpy(hd, dd, 256, cudaMemcpyDeviceToHost)); show("u4 m8n8k32 row.col s32 (k 64)", hd, 64);
        k_b1<<<1, 32>>>(da, db, dc, dd, 0);
        CHECK(cudaMemcpy(hd, dd, 256, cudaMemcpyDeviceToHost)); show("b1 m8n8k128 xor.popc (k 256)", hd, 64);
        k_b1<<<1, 32>>>(da, db, dc, dd, 1);
        CHECK(cudaMemcpy(hd, dd, 256, cudaMemcpyDeviceToHost)); show("b1 m8n8k128 and.popc (k 256)", hd, 64);
        cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
    }
    CHECK(cudaDeviceSynchronize());
    // Misaligned and odd addresses and strides (what the GPU does is what extmem must do).
    static const int offs[] = {2, 4, 8, 16, 32, 64, 128};
    for (int o : offs) fault_probe_process(argv[0], "wmma.load.a f16 at base +", 0, o);
    for (int o : offs) fault_probe_process(argv[0], "wmma.store.d f32 at base +", 1, o);
    static const int strides[] = {1, 2, 3, 4, 5, 8, 12, 16};
    for (int s : strides) fault_probe_process(argv[0], "wmma.load.c f32 with stride", 2, s);
    static const int loffs[] = {2, 4, 8};
    for (int o : loffs) fault_probe_process(argv[0], "ldmatrix.x4 row addresses +", 3, o);
    return 0;
}

namespace ex = wmma::experimental;
__global__ void k_s4(const void *a, const void *b, const int *c, int *d) {
    wmma::fragment<wmma::matrix_a, 8, 8, 32, ex::precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, ex::precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    for (int k = 0; k < 64; k += 32) {
        wmma::load_matrix_sync(fa, (const char *)a + k / 2, 64);
        wmma::load_matrix_sync(fb, (const char *)b + k / 2, 64);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}
__global__ void k_u4(const void *a, const void *b, const int *c, int *d) {
    wmma::fragment<wmma::matrix_a, 8, 8, 32, ex::precision::u4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, ex::precision::u4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_col_major);
    for (int k = 0; k < 64; k += 32) {
        wmma::load_matrix_sync(fa, (const char *)a + k / 2, 64);
        wmma::load_matrix_sync(fb, (const char *)b + k / 2, 64);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_col_major);
}
__global__ void k_b1(const void *a, const void *b, const int *c, int *d, int and_op) {
    wmma::fragment<wmma::matrix_a, 8, 8, 128, ex::precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, ex::precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    for (int k = 0; k < 256; k += 128) {
        wmma::load_matrix_sync(fa, (const char *)a + k / 8, 256);
        wmma::load_matrix_sync(fb, (const char *)b + k / 8, 256);
        if (and_op) wmma::bmma_sync(fc, fa, fb, fc, ex::bmmaBitOpAND);
        else wmma::bmma_sync(fc, fa, fb, fc, ex::bmmaBitOpXOR);
    }
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}
