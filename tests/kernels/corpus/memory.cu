// Memory: vector loads and stores, ld.global.nc, local arrays indexed at run time, dynamic
// shared memory, __constant__ and __device__ variables with initialisers, a switch (a jump
// table where the compiler makes one), a recursive __noinline__ function, function pointers.
#include "corpus.h"

__constant__ int c_table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__constant__ float c_scale = 1.5f;
__device__ int d_counter = 1000;
__device__ int d_array[4] = {10, 20, 30, 40};

// out: n float4, then n int2.
KERNEL mem_vector(KPARAMS) {
    const float4 *a = (const float4 *)a_;
    const int2 *b = (const int2 *)b_;
    float4 *out = (float4 *)out_;
    int i = GID;
    if (i >= n) return;
    float4 v = a[i];
    float4 w = __ldg(&a[(i + 1) % n]);
    int2 k = b[i];
    float4 r;
    r.x = v.y + w.x; r.y = v.z * 2.0f; r.z = v.w - w.w; r.w = (float)(k.x - k.y);
    out[i] = r;
    int2 s;
    s.x = k.y; s.y = k.x + __ldg((const int *)b + i);
    ((int2 *)(out + n))[i] = s;
}

// A local array written and read at indices known only at run time (it stays in .local).
KERNEL mem_local(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    volatile uint loc[24];
    uint x = a[i];
    for (int k = 0; k < 24; ++k) loc[k] = x * (uint)k + (uint)i;
    for (int k = 0; k < 24; ++k) loc[(x + (uint)k * 7u) % 24u] += (uint)k;
    uint s = 0;
    for (int k = 0; k < 24; ++k) s = s * 31u + loc[(x >> 3) % 24u + 0] + loc[k];
    out[i] = s;
}

// Dynamic shared memory (extern __shared__, sized by the launch): a block-wide reversal.
KERNEL mem_dyn_shared(KPARAMS) {
    extern __shared__ int dyn[];
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    int t = threadIdx.x, nt = blockDim.x;
    int base = blockIdx.x * nt;
    dyn[t] = a[base + t];
    dyn[nt + t] = a[base + t] * 2;
    __syncthreads();
    out[base + t] = dyn[nt - 1 - t] + dyn[2 * nt - 1 - ((t * 7) % nt)];
}

// __constant__ and __device__ variables: read the initialisers, count in d_counter (the runner
// reads it back with cuModuleGetGlobal), write d_array.
KERNEL mem_globals(KPARAMS) {
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    int i = GID;
    if (i >= n) return;
    int x = a[i];
    out[i] = c_table[x & 15] * (int)(c_scale * 2.0f) + d_array[x & 3];
    atomicAdd(&d_counter, 1); // a __device__ variable written, and read back by the runner
}

// A dense switch: nvcc and clang may make brx.idx jump tables of it.
static __device__ __noinline__ int classify(int k, int x) {
    switch (k) {
    case 0: return x + 1;
    case 1: return x * 3;
    case 2: return x ^ 0x55;
    case 3: return x - 7;
    case 4: return x << 2;
    case 5: return x >> 1;
    case 6: return ~x;
    case 7: return x * x;
    case 8: return -x;
    case 9: return x & 0xf0f0;
    case 10: return x | 0x101;
    case 11: return x % 13;
    default: return 12345;
    }
}

KERNEL mem_switch(KPARAMS) {
    const int *a = (const int *)a_;
    int *out = (int *)out_;
    int i = GID;
    if (i >= n) return;
    int x = a[i];
    out[i] = classify((x & 0x7fffffff) % 14, x);
}

// Recursion through the .func calling convention (a call stack in .local per thread).
static __device__ __noinline__ uint fib_rec(uint k) { return k < 2 ? k : fib_rec(k - 1) + fib_rec(k - 2); }
static __device__ __noinline__ int ackermann_small(int m, int k) {
    if (m == 0) return k + 1;
    if (k == 0) return ackermann_small(m - 1, 1);
    return ackermann_small(m - 1, ackermann_small(m, k - 1));
}

KERNEL mem_recursion(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    uint x = a[i];
    out[i * 2] = fib_rec(x % 16);
    out[i * 2 + 1] = (uint)ackermann_small((int)(x % 3), (int)((x >> 4) % 4));
}

// Indirect calls through a table of function pointers (call with a register target).
typedef int (*binop)(int, int);
static __device__ __noinline__ int op_add(int x, int y) { return x + y; }
static __device__ __noinline__ int op_sub(int x, int y) { return x - y; }
static __device__ __noinline__ int op_mul(int x, int y) { return x * y; }
static __device__ __noinline__ int op_max(int x, int y) { return x > y ? x : y; }

KERNEL mem_funcptr(KPARAMS) {
    const int *a = (const int *)a_, *b = (const int *)b_;
    int *out = (int *)out_;
    int i = GID;
    if (i >= n) return;
    binop ops[4] = {op_add, op_sub, op_mul, op_max};
    binop f = ops[(uint)a[i] % 4u];
    out[i] = f(a[i], b[i]);
}

// brx.idx written out, since neither compiler makes a jump table of the switch above: an
// indirect branch through a .branchtargets list (PTX ISA 6.0+, brx.idx).
KERNEL mem_brx(KPARAMS) {
    const uint *a = (const uint *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    uint x = a[i], r;
    asm("{\n\t"
        ".reg .u32 %%k;\n\t"
        "rem.u32 %%k, %1, 4;\n\t"
        "Ltab: .branchtargets Lb0, Lb1, Lb2, Lb3;\n\t"
        "brx.idx %%k, Ltab;\n\t"
        "Lb0: add.u32 %0, %1, 100;\n\t bra.uni Ldone;\n\t"
        "Lb1: mul.lo.u32 %0, %1, 3;\n\t bra.uni Ldone;\n\t"
        "Lb2: xor.b32 %0, %1, 0xff;\n\t bra.uni Ldone;\n\t"
        "Lb3: not.b32 %0, %1;\n\t"
        "Ldone:\n\t}"
        : "=r"(r) : "r"(x));
    out[i] = r;
}
