// Probe: what the GPU does where the PTX ISA leaves atomics' float details and warp functions'
// membermask cases open. Build: nvcc -arch=sm_90 -o warp_atom_probe warp_atom_probe.cu
// The last warp case runs lanes outside membermask (undefined in the ISA), so it comes last.
// Prints one line per case: name, then the per-lane or per-case results in hex.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__global__ void atoms(uint32_t *g32, unsigned long long *g64, uint16_t *g16, uint32_t *out32,
                      unsigned long long *out64, const uint32_t *b32, const unsigned long long *b64,
                      const uint16_t *b16, int n32, int n64, int n16)
{
    __shared__ uint32_t s32[64];
    if (threadIdx.x != 0)
        return;
    for (int i = 0; i < n32; ++i) {
        uint32_t old;
        asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=r"(old) : "l"(g32 + i), "r"(b32[i]) : "memory");
        out32[i] = old;
        s32[i] = out32[i];
        asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=r"(old) : "l"((unsigned long long)__cvta_generic_to_shared(s32 + i)), "r"(b32[i]) : "memory");
        out32[64 + i] = s32[i];
        // generic address of shared memory
        s32[i] = out32[i];
        asm volatile("atom.add.f32 %0, [%1], %2;" : "=r"(old) : "l"(s32 + i), "r"(b32[i]) : "memory");
        out32[128 + i] = s32[i];
    }
    for (int i = 0; i < n64; ++i) {
        unsigned long long old;
        asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=l"(old) : "l"(g64 + i), "l"(b64[i]) : "memory");
        out64[i] = old;
    }
    for (int i = 0; i < n16; ++i) {
        unsigned short old, v = b16[i];
        (void)old;
        unsigned short *p = g16 + i;
        asm volatile("atom.global.add.noftz.f16 %0, [%1], %2;" : "=h"(old) : "l"(p), "h"(v) : "memory");
        p = g16 + 64 + i;
        asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "l"(p), "h"(v) : "memory");
    }
}

__global__ void warps(uint32_t *out, uint32_t mask, uint32_t exit_from)
{
    uint32_t lane = threadIdx.x & 31, r, p;
    if (lane >= exit_from)
        return;
    // 0: ballot of true with membermask `mask` executed by every lane
    asm volatile("{.reg .pred q; setp.ne.u32 q, %1, 99; vote.sync.ballot.b32 %0, q, %2;}" : "=r"(r) : "r"(lane), "r"(mask));
    out[0 * 32 + lane] = r;
    // 1: all of (lane < 16)
    asm volatile("{.reg .pred q, d; setp.lt.u32 q, %1, 16; vote.sync.all.pred d, q, %2; selp.u32 %0, 1, 0, d;}" : "=r"(r) : "r"(lane), "r"(mask));
    out[1 * 32 + lane] = r;
    // 2: any of (lane >= 16)
    asm volatile("{.reg .pred q, d; setp.ge.u32 q, %1, 16; vote.sync.any.pred d, q, %2; selp.u32 %0, 1, 0, d;}" : "=r"(r) : "r"(lane), "r"(mask));
    out[2 * 32 + lane] = r;
    // 3: redux add of lane+1
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(lane + 1), "r"(mask));
    out[3 * 32 + lane] = r;
    // 4: match.any of lane % 4
    asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(lane % 4), "r"(mask));
    out[4 * 32 + lane] = r;
    // 5: match.all of 7 with predicate
    asm volatile("{.reg .pred d; match.all.sync.b32 %0|d, %2, %3; selp.u32 %1, 1, 0, d;}" : "=r"(r), "=r"(p) : "r"(7u), "r"(mask));
    out[5 * 32 + lane] = r;
    out[6 * 32 + lane] = p;
    // 7: shfl idx from lane+16
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;" : "=r"(r) : "r"(lane * 100), "r"((lane + 16) & 31), "r"(mask));
    out[7 * 32 + lane] = r;
    // 8: activemask
    asm volatile("activemask.b32 %0;" : "=r"(r));
    out[8 * 32 + lane] = r;
    // 9, 10: shfl.up with c = 0x0803 (segment of 8 ... clamp 3) and its predicate
    asm volatile("{.reg .pred d; shfl.sync.up.b32 %0|d, %2, 2, 0x1803, %3; selp.u32 %1, 1, 0, d;}" : "=r"(r), "=r"(p) : "r"(lane * 100), "r"(mask));
    out[9 * 32 + lane] = r;
    out[10 * 32 + lane] = p;
    // 11, 12: shfl.idx with c = 0x181c, b = lane*3
    asm volatile("{.reg .pred d; shfl.sync.idx.b32 %0|d, %2, %3, 0x1c05, %4; selp.u32 %1, 1, 0, d;}" : "=r"(r), "=r"(p) : "r"(lane * 100), "r"(lane * 3), "r"(mask));
    out[11 * 32 + lane] = r;
    out[12 * 32 + lane] = p;
    // 13: vote.uni
    asm volatile("{.reg .pred q, d; setp.lt.u32 q, %1, 16; vote.sync.uni.pred d, q, %2; selp.u32 %0, 1, 0, d;}" : "=r"(r) : "r"(lane), "r"(mask));
    out[13 * 32 + lane] = r;
}

int main()
{
    const uint32_t b32[] = {
        0x00000000u, 0x80000000u, 0x80000000u, 0x00400000u, 0x80400000u, 0x80800000u, 0x00000001u,
        0x3f800000u, 0xffc00000u, 0x7f800000u, 0x3f800000u, 0x7f7fffffu, 0x33800000u, 0x00000001u};
    const uint32_t m32[] = {
        0x80000000u, 0x80000000u, 0x00000000u, 0x00000000u, 0x00800000u, 0x00c00000u, 0x00000001u,
        0x7fc00001u, 0x3f800000u, 0xff800000u, 0x7f800001u, 0x7f7fffffu, 0x3f800000u, 0x00400000u};
    const int n32 = sizeof(b32) / 4;
    const unsigned long long b64[] = {1ull, 0x3ff0000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000000ull,
                                      0x8000000000000000ull, 0x7ff0000000000001ull};
    const unsigned long long m64[] = {1ull, 0x7ff0000000000001ull, 0x3ff0000000000000ull, 0xfff0000000000000ull,
                                      0x8000000000000000ull, 0x3ff0000000000000ull};
    const int n64 = 6;
    // f16 cases then the same bits as bf16
    const uint16_t b16[] = {0x0001, 0x3c00, 0xfc00, 0x8000, 0x7bff, 0x3c00, 0x0001, 0x7e01};
    const uint16_t m16[] = {0x0001, 0x7e01, 0x7c00, 0x8000, 0x7bff, 0x3c00, 0x8001, 0x3c00};
    const int n16 = 8;
    uint32_t *g32, *out32, *db32;
    unsigned long long *g64, *out64, *db64;
    uint16_t *g16, *db16;
    cudaMalloc(&g32, 64 * 4); cudaMalloc(&out32, 256 * 4); cudaMalloc(&db32, 64 * 4);
    cudaMalloc(&g64, 64 * 8); cudaMalloc(&out64, 64 * 8); cudaMalloc(&db64, 64 * 8);
    cudaMalloc(&g16, 128 * 2); cudaMalloc(&db16, 64 * 2);
    cudaMemcpy(g32, m32, sizeof(m32), cudaMemcpyHostToDevice);
    cudaMemcpy(db32, b32, sizeof(b32), cudaMemcpyHostToDevice);
    cudaMemcpy(g64, m64, sizeof(m64), cudaMemcpyHostToDevice);
    cudaMemcpy(db64, b64, sizeof(b64), cudaMemcpyHostToDevice);
    cudaMemcpy(g16, m16, sizeof(m16), cudaMemcpyHostToDevice);
    cudaMemcpy(g16 + 64, m16, sizeof(m16), cudaMemcpyHostToDevice);
    cudaMemcpy(db16, b16, sizeof(b16), cudaMemcpyHostToDevice);
    atoms<<<1, 32>>>(g32, g64, g16, out32, out64, db32, db64, db16, n32, n64, n16);
    cudaError_t e = cudaDeviceSynchronize();
    printf("atoms: %s\n", cudaGetErrorString(e));
    uint32_t r32[64], o32[256];
    unsigned long long r64[64], o64[64];
    uint16_t r16[128];
    cudaMemcpy(r32, g32, sizeof(r32), cudaMemcpyDeviceToHost);
    cudaMemcpy(o32, out32, sizeof(o32), cudaMemcpyDeviceToHost);
    cudaMemcpy(r64, g64, sizeof(r64), cudaMemcpyDeviceToHost);
    cudaMemcpy(o64, out64, sizeof(o64), cudaMemcpyDeviceToHost);
    cudaMemcpy(r16, g16, sizeof(r16), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n32; ++i)
        printf("f32 mem %08x + %08x: global %08x (old %08x) shared %08x generic-shared %08x\n", m32[i], b32[i], r32[i],
               o32[i], o32[64 + i], o32[128 + i]);
    for (int i = 0; i < n64; ++i)
        printf("f64 mem %016llx + %016llx: %016llx (old %016llx)\n", m64[i], b64[i], r64[i], o64[i]);
    for (int i = 0; i < n16; ++i)
        printf("h16 mem %04x + %04x: f16 %04x bf16 %04x\n", m16[i], b16[i], r16[i], r16[64 + i]);
    uint32_t *wo, w[14 * 32];
    cudaMalloc(&wo, sizeof(w));
    const uint32_t cases[][2] = {{0xffffffffu, 32}, {0xffffffffu, 20}, {0x0000ffffu, 8}, {0x0000ffffu, 32}};
    for (auto &c : cases) {
        cudaMemset(wo, 0xee, sizeof(w));
        warps<<<1, 32>>>(wo, c[0], c[1]);
        e = cudaDeviceSynchronize();
        cudaMemcpy(w, wo, sizeof(w), cudaMemcpyDeviceToHost);
        printf("warps mask %08x lanes below %u: %s\n", c[0], c[1], cudaGetErrorString(e));
        for (int k = 0; k < 14; ++k) {
            printf("  case %2d:", k);
            for (int l = 0; l < 32; ++l)
                printf(" %x", w[k * 32 + l]);
            printf("\n");
        }
    }
    return 0;
}
