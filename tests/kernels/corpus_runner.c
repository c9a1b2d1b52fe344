/*
 * corpus_runner: runs the kernel corpus's cases (cases.c) through the CUDA driver API, to
 * record what a device computes or to compare with what was recorded.
 *
 *   corpus_runner --record DIR --ptx PTXDIR [--case NAME]   writes DIR/<case>.bin
 *   corpus_runner --check DIR --ptx PTXDIR [--case NAME]    compares with DIR/<case>.bin
 *   corpus_runner --list                                    prints the case names
 *
 * The same source builds against extmem (tests/kernels/CMakeLists.txt) and against NVIDIA's
 * cuda.h and libcuda on a machine with a GPU (scripts/kernels-gpu-expected.sh, with
 * -DCORPUS_NVIDIA). The module API is looked up with cuGetProcAddress, so the program links
 * against any driver that has cuGetProcAddress and reports at run time which entry point is
 * missing. Exit status: 0 when every selected case ran (and matched), 1 otherwise.
 */
#ifdef CORPUS_NVIDIA
#include <cuda.h>
#else
#include "extmem/cuda.h"
#endif

#include "cases.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef CUresult(CUDAAPI *module_load_data_fn)(CUmodule *, const void *);
typedef CUresult(CUDAAPI *module_unload_fn)(CUmodule);
typedef CUresult(CUDAAPI *module_get_function_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult(CUDAAPI *module_get_global_fn)(CUdeviceptr *, size_t *, CUmodule, const char *);
typedef CUresult(CUDAAPI *launch_kernel_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                            unsigned, CUstream, void **, void **);

static struct {
    module_load_data_fn load;
    module_unload_fn unload;
    module_get_function_fn get_function;
    module_get_global_fn get_global;
    launch_kernel_fn launch;
} api;

static const char *result_name(CUresult r)
{
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) return "(unknown CUresult)";
    return s;
}

/* Prints "what: NAME (number)" and answers false when r is not CUDA_SUCCESS. */
static bool ok(CUresult r, const char *what, const char *case_name)
{
    if (r == CUDA_SUCCESS) return true;
    printf("%s: %s: %s (%d)\n", case_name, what, result_name(r), (int)r);
    return false;
}

static bool lookup(const char *symbol, void **pfn)
{
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = cuGetProcAddress(symbol, pfn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS || !*pfn) {
        printf("corpus_runner: cuGetProcAddress(%s): %s, status %d: the driver has no module API\n", symbol,
               result_name(r), (int)status);
        return false;
    }
    return true;
}

static bool lookup_api(void)
{
    return lookup("cuModuleLoadData", (void **)&api.load) && lookup("cuModuleUnload", (void **)&api.unload) &&
           lookup("cuModuleGetFunction", (void **)&api.get_function) &&
           lookup("cuModuleGetGlobal", (void **)&api.get_global) && lookup("cuLaunchKernel", (void **)&api.launch);
}

/* ---- deterministic inputs ---- */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *s; ++s) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static const uint8_t special_u8[] = {0, 1, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x40};
static const uint16_t special_u16[] = {0, 1, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe, 0x00ff, 0xff00};
static const uint32_t special_u32[] = {
    0,          1,          2,          3,          5,          7,          31,         32,         33,
    63,         64,         0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0x0000ffff, 0x00010000,
    0x00007fff, 0x00008000, 0x00800000, 0x00ff00ff, 0x12345678, 0xdeadbeef, 0xaaaaaaaa, 0x55555555};
static const uint64_t special_u64[] = {0,
                                       1,
                                       2,
                                       63,
                                       64,
                                       0xffffffffull,
                                       0x100000000ull,
                                       0x7fffffffull,
                                       0xffffffff80000000ull,
                                       0x7fffffffffffffffull,
                                       0x8000000000000000ull,
                                       0x8000000000000001ull,
                                       0xffffffffffffffffull,
                                       0xfffffffffffffffeull,
                                       0x0020000000000001ull, /* 2^53 + 1: rounds in f64 */
                                       0x0000000001000001ull, /* 2^24 + 1: rounds in f32 */
                                       0xdeadbeefcafebabeull,
                                       0x7ffffffffffffc00ull};
/* f16: zeros, ones, infinities, quiet/signalling/negative NaNs, the largest finite, subnormals,
 * the smallest normal, 1/3, 0.5, 2.5 (a tie), 2048 + 1 ulp. */
static const uint16_t special_f16[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01,
                                       0xfe01, 0x7bff, 0xfbff, 0x0001, 0x83ff, 0x0400, 0x3555, 0x3800,
                                       0x4100, 0x6801, 0x3c01, 0x7f80};
/* f32: zeros, ±1, ties for rint (0.5, 1.5, 2.5, -2.5), infinities, NaNs (quiet, signalling,
 * negative with a payload), ±FLT_MAX, FLT_MIN, subnormals, the integer-conversion limits
 * (±2^31, 2^32 - 256, 2^32, 2^63, -2^63 - 1 ulp, 2^64), 2^24 + 2, 1/3, 65504 (f16's largest),
 * 65520 (f16's overflow tie), 2^-25 (below f16's subnormals), 3. */
static const uint32_t special_f32[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0x40200000, 0xc0200000,
    0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00123, 0x7f7fffff, 0xff7fffff, 0x00800000,
    0x00000001, 0x807fffff, 0x4f000000, 0xcf000000, 0x4f7fffff, 0x4f800000, 0x5f000000, 0xdf000001,
    0x5f800000, 0x4b800001, 0x3eaaaaab, 0x477fe000, 0x477ff000, 0x33000000, 0x40400000, 0xcf000001};
static const uint64_t special_f64[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
    0x3fe0000000000000ull, 0x4004000000000000ull, 0xc004000000000000ull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull, 0xfff8000000000123ull,
    0x7fefffffffffffffull, 0xffefffffffffffffull, 0x0010000000000000ull, 0x0000000000000001ull,
    0x800fffffffffffffull, 0x41e0000000000000ull, 0xc1e0000000200000ull, 0x41f0000000000000ull,
    0x43e0000000000000ull, 0xc3e0000000000000ull, 0x43f0000000000000ull, 0x47efffffe0000000ull, /* FLT_MAX */
    0x47effffff0000000ull, /* halfway between FLT_MAX and 2^128 */
    0x3690000000000000ull, /* 2^-150: half of f32's smallest subnormal */
    0x36a0000000000001ull, 0x3fd5555555555555ull, 0x7e37e43c8800759cull, 0xc1dfffffffc00000ull};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static size_t gen_size(enum gen g)
{
    switch (g) {
    case GEN_U8: return 1;
    case GEN_U16: case GEN_F16: return 2;
    case GEN_U32: case GEN_F32: case GEN_F32_RANGE: case GEN_F32_RANGE_SPEC: return 4;
    case GEN_U64: case GEN_F64: return 8;
    case GEN_NONE: break;
    }
    return 0;
}

/* Index of the special value for element i of input k, or -1 past the specials. */
static long special_index(size_t i, unsigned k, size_t m)
{
    if (i >= m * m) return -1;
    if (k == 0) return (long)(i % m);
    if (k == 1) return (long)((i / m) % m);
    return (long)((7 * i + 3) % m);
}

static float random_ordinary_f32(uint64_t *s)
{
    uint64_t r = splitmix(s);
    float mant = 1.0f + (float)(r & 0xffffff) / 16777216.0f;
    int e = (int)((r >> 24) % 61) - 30;
    return ldexpf((r >> 40) & 1 ? -mant : mant, e);
}

static void generate(const struct kcase *c, unsigned k, unsigned char *buf, size_t count)
{
    const struct input *in = &c->in[k];
    uint64_t s = name_hash(c->name) ^ (0x1234567ull * (k + 1));
    for (size_t i = 0; i < count; ++i) {
        uint64_t r = splitmix(&s);
        long sp;
        switch (in->gen) {
        case GEN_U8: {
            uint8_t v = (sp = special_index(i, k, COUNT(special_u8))) >= 0 ? special_u8[sp] : (uint8_t)r;
            memcpy(buf + i, &v, 1);
            break;
        }
        case GEN_U16: {
            uint16_t v = (sp = special_index(i, k, COUNT(special_u16))) >= 0 ? special_u16[sp] : (uint16_t)r;
            memcpy(buf + 2 * i, &v, 2);
            break;
        }
        case GEN_F16: {
            /* Past the specials: half random bit patterns, half values in [2^-8, 2^8). */
            uint16_t v = (sp = special_index(i, k, COUNT(special_f16))) >= 0 ? special_f16[sp]
                         : (r >> 63)                                         ? (uint16_t)r
                                     : (uint16_t)((r & 0x83ff) | (uint16_t)((7 + (r >> 16) % 16) << 10));
            memcpy(buf + 2 * i, &v, 2);
            break;
        }
        case GEN_U32: {
            uint32_t v = (sp = special_index(i, k, COUNT(special_u32))) >= 0 ? special_u32[sp] : (uint32_t)r;
            memcpy(buf + 4 * i, &v, 4);
            break;
        }
        case GEN_U64: {
            uint64_t v = (sp = special_index(i, k, COUNT(special_u64))) >= 0 ? special_u64[sp] : r;
            if (sp < 0 && (r & 3) == 0) v >>= (r >> 58); /* small magnitudes too */
            memcpy(buf + 8 * i, &v, 8);
            break;
        }
        case GEN_F32: {
            uint32_t v;
            if ((sp = special_index(i, k, COUNT(special_f32))) >= 0) {
                v = special_f32[sp];
            } else if (r & 1) {
                v = (uint32_t)(r >> 32);
            } else {
                float f = random_ordinary_f32(&s);
                memcpy(&v, &f, 4);
            }
            memcpy(buf + 4 * i, &v, 4);
            break;
        }
        case GEN_F64: {
            uint64_t v;
            if ((sp = special_index(i, k, COUNT(special_f64))) >= 0) {
                v = special_f64[sp];
            } else if (r & 1) {
                v = splitmix(&s);
            } else {
                double d = ldexp(1.0 + (double)(splitmix(&s) >> 11) / 9007199254740992.0, (int)(r >> 8) % 121 - 60);
                if ((r >> 40) & 1) d = -d;
                memcpy(&v, &d, 8);
            }
            memcpy(buf + 8 * i, &v, 8);
            break;
        }
        case GEN_F32_RANGE:
        case GEN_F32_RANGE_SPEC: {
            static const uint32_t spec[] = {0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000};
            float f = (float)(in->lo + (in->hi - in->lo) * (double)(r >> 11) / 9007199254740992.0);
            if (i == 0) f = (float)in->lo;
            if (i == 1) f = (float)in->hi;
            if (i == 2) f = 0.0f;
            if (i == 3) f = -0.0f;
            uint32_t v;
            memcpy(&v, &f, 4);
            if (in->gen == GEN_F32_RANGE_SPEC && i >= 4 && i < 8) v = spec[i - 4];
            memcpy(buf + 4 * i, &v, 4);
            break;
        }
        case GEN_NONE: break;
        }
    }
}

/* ---- comparing ---- */

static uint64_t load_elem(const unsigned char *p, unsigned size)
{
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t q;
    switch (size) {
    case 1: memcpy(&b, p, 1); return b;
    case 2: memcpy(&h, p, 2); return h;
    case 4: memcpy(&w, p, 4); return w;
    default: memcpy(&q, p, 8); return q;
    }
}

static float as_f32(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

/* Distance in units in the last place between two f32 values (monotonic integer map). */
static uint64_t ulp_distance(uint32_t a, uint32_t b)
{
    int64_t ia = (a & 0x80000000u) ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
    int64_t ib = (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
    return (uint64_t)(ia > ib ? ia - ib : ib - ia);
}

static bool elem_matches(const struct kcase *c, uint64_t expected, uint64_t actual)
{
    if (c->cmp == CMP_EXACT_NAN_ANY) {
        if (expected == actual) return true;
        if (c->elem == 8) {
            double de, da;
            memcpy(&de, &expected, 8);
            memcpy(&da, &actual, 8);
            return isnan(de) && isnan(da);
        }
        return c->elem == 4 && isnan(as_f32((uint32_t)expected)) && isnan(as_f32((uint32_t)actual));
    }
    if (c->cmp == CMP_EXACT || c->elem != 4) return expected == actual;
    uint32_t e = (uint32_t)expected, a = (uint32_t)actual;
    float fe = as_f32(e), fa = as_f32(a);
    if (isnan(fe)) return isnan(fa); /* the ISA bounds values; any NaN answers NaN */
    if (!isfinite(fe) || !isfinite(fa)) return e == a;
    if (ulp_distance(e, a) <= 1) return true; /* the rounding of each result to f32 */
    double d = fabs((double)fe - (double)fa);
    switch (c->cmp) {
    case CMP_F32_ULP: return ulp_distance(e, a) <= (uint64_t)c->tol;
    case CMP_F32_ABS: return d <= c->tol;
    case CMP_F32_REL: return d <= c->tol * fabs((double)fe) || (fabs((double)fe) < 0x1p-126 && d <= 0x1p-126);
    case CMP_EXACT:
    case CMP_EXACT_NAN_ANY: break;
    }
    return false;
}

static void print_elem(const char *label, uint64_t v, unsigned size)
{
    printf("    %s 0x%0*llx", label, (int)(2 * size), (unsigned long long)v);
    if (size == 4) printf(" (u32 %u, s32 %d, f32 %.9g)", (unsigned)v, (int)(uint32_t)v, (double)as_f32((uint32_t)v));
    if (size == 8) {
        double d;
        memcpy(&d, &v, 8);
        printf(" (u64 %llu, s64 %lld, f64 %.17g)", (unsigned long long)v, (long long)v, d);
    }
    if (size == 2) printf(" (u16 %u, s16 %d)", (unsigned)v, (int)(int16_t)(uint16_t)v);
    if (size == 1) printf(" (u8 %u)", (unsigned)v);
    printf("\n");
}

/* ---- running a case ---- */

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) goto fail;
    long len = ftell(f);
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0) goto fail;
    buf = malloc((size_t)len + 1);
    if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) goto fail;
    buf[len] = 0;
    *size = (size_t)len;
    fclose(f);
    return buf;
fail:
    free(buf);
    fclose(f);
    return NULL;
}

static bool write_file(const char *path, const unsigned char *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool good = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && good;
}

struct run {
    unsigned char *host_in[3];
    size_t in_bytes[3];
    unsigned char *result; /* output buffer, then the global */
    size_t result_bytes;
};

static unsigned dim(unsigned v) { return v ? v : 1; }

static bool run_case(const struct kcase *c, const char *ptxdir, struct run *run)
{
    char path[1024];
    size_t ptx_size = 0;
    unsigned char *ptx = NULL;
    CUmodule mod = NULL;
    CUfunction fn = NULL;
    CUdeviceptr dev_in[3] = {0, 0, 0}, dev_out = 0;
    bool good = false;
    unsigned block[3] = {dim(c->block[0]), dim(c->block[1]), dim(c->block[2])};
    unsigned grid[3] = {c->grid[0], dim(c->grid[1]), dim(c->grid[2])};
    if (grid[0] == 0) grid[0] = (c->n + block[0] - 1) / block[0];
    size_t threads = (size_t)grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];

    snprintf(path, sizeof path, "%s/%s.ptx", ptxdir, c->module);
    ptx = read_file(path, &ptx_size);
    if (!ptx) {
        printf("%s: cannot read %s\n", c->name, path);
        goto done;
    }
    if (!ok(api.load(&mod, ptx), "cuModuleLoadData", c->name)) goto done;
    if (!ok(api.get_function(&fn, mod, c->kernel), "cuModuleGetFunction", c->name)) goto done;

    /* Inputs: one element per thread of the grid (at least n), times per_thread. */
    for (unsigned k = 0; k < 3; ++k) {
        size_t esize = gen_size(c->in[k].gen);
        if (!esize) continue;
        size_t count = (threads > c->n ? threads : c->n) * dim(c->in[k].per_thread);
        run->in_bytes[k] = count * esize;
        run->host_in[k] = calloc(1, run->in_bytes[k]);
        if (!run->host_in[k]) goto done;
        generate(c, k, run->host_in[k], count);
        if (!ok(cuMemAlloc(&dev_in[k], run->in_bytes[k]), "cuMemAlloc", c->name)) goto done;
        if (!ok(cuMemcpyHtoD(dev_in[k], run->host_in[k], run->in_bytes[k]), "cuMemcpyHtoD", c->name)) goto done;
    }
    run->result_bytes = c->out_bytes + c->global_bytes;
    run->result = malloc(run->result_bytes);
    if (!run->result) goto done;
    for (size_t i = 0; i + 4 <= c->out_bytes; i += 4) memcpy(run->result + i, &c->out_init, 4);
    if (!ok(cuMemAlloc(&dev_out, c->out_bytes), "cuMemAlloc", c->name)) goto done;
    if (!ok(cuMemcpyHtoD(dev_out, run->result, c->out_bytes), "cuMemcpyHtoD", c->name)) goto done;

    int n = (int)c->n;
    void *params[] = {&dev_out, &dev_in[0], &dev_in[1], &dev_in[2], &n};
    if (!ok(api.launch(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], c->shared, NULL, params, NULL),
            "cuLaunchKernel", c->name))
        goto done;
    if (!ok(cuCtxSynchronize(), "cuCtxSynchronize after the launch", c->name)) goto done;
    if (!ok(cuMemcpyDtoH(run->result, dev_out, c->out_bytes), "cuMemcpyDtoH", c->name)) goto done;
    if (c->global) {
        CUdeviceptr g = 0;
        size_t gsize = 0;
        if (!ok(api.get_global(&g, &gsize, mod, c->global), "cuModuleGetGlobal", c->name)) goto done;
        if (gsize != c->global_bytes) {
            printf("%s: cuModuleGetGlobal(%s): %zu bytes, the case expects %zu\n", c->name, c->global, gsize,
                   c->global_bytes);
            goto done;
        }
        if (!ok(cuMemcpyDtoH(run->result + c->out_bytes, g, gsize), "cuMemcpyDtoH of the global", c->name)) goto done;
    }
    good = true;
done:
    for (unsigned k = 0; k < 3; ++k)
        if (dev_in[k]) cuMemFree(dev_in[k]);
    if (dev_out) cuMemFree(dev_out);
    if (mod) api.unload(mod);
    free(ptx);
    return good;
}

static void free_run(struct run *run)
{
    for (unsigned k = 0; k < 3; ++k) free(run->host_in[k]);
    free(run->result);
    memset(run, 0, sizeof *run);
}

/* Compares run's result with the recorded file; prints each mismatch (the first 20 in full). */
static bool check_case(const struct kcase *c, const struct run *run, const char *dir)
{
    char path[1024];
    size_t size = 0;
    snprintf(path, sizeof path, "%s/%s.bin", dir, c->name);
    unsigned char *expected = read_file(path, &size);
    if (!expected) {
        printf("%s: cannot read the expected results %s\n", c->name, path);
        return false;
    }
    if (size != run->result_bytes) {
        printf("%s: %s has %zu bytes, the case makes %zu\n", c->name, path, size, run->result_bytes);
        free(expected);
        return false;
    }
    size_t bad = 0, count = size / c->elem;
    for (size_t i = 0; i < count; ++i) {
        uint64_t e = load_elem(expected + i * c->elem, c->elem), a = load_elem(run->result + i * c->elem, c->elem);
        bool in_global = i * c->elem >= c->out_bytes;
        if (in_global ? e == a : elem_matches(c, e, a)) continue;
        if (++bad > 20) continue;
        if (in_global) {
            printf("%s: the global %s, byte %zu:\n", c->name, c->global, i * c->elem - c->out_bytes);
        } else if (c->per_thread) {
            size_t t = i / c->per_thread;
            printf("%s: element %zu (thread %zu, output %zu) differs:\n", c->name, i, t, i % c->per_thread);
            for (unsigned k = 0; k < 3; ++k) {
                size_t es = gen_size(c->in[k].gen), per = dim(c->in[k].per_thread);
                char label[32];
                for (size_t j = 0; es && j < per && (t * per + j + 1) * es <= run->in_bytes[k]; ++j) {
                    snprintf(label, sizeof label, "input %c[%zu]", 'a' + k, t * per + j);
                    print_elem(label, load_elem(run->host_in[k] + (t * per + j) * es, (unsigned)es), (unsigned)es);
                }
            }
        } else {
            printf("%s: element %zu differs:\n", c->name, i);
        }
        print_elem("expected", e, c->elem);
        print_elem("actual  ", a, c->elem);
    }
    free(expected);
    if (bad) {
        printf("%s: %zu of %zu elements differ%s%s\n", c->name, bad, count, c->why ? "; comparison: " : "",
               c->why ? c->why : "");
        return false;
    }
    return true;
}

static int usage(void)
{
    fprintf(stderr, "usage: corpus_runner --record DIR --ptx PTXDIR [--case NAME]\n"
                    "       corpus_runner --check DIR --ptx PTXDIR [--case NAME]\n"
                    "       corpus_runner --list\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *record = NULL, *check = NULL, *ptxdir = NULL, *only = NULL;
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        bool has_value = i + 1 < argc;
        if (!strcmp(argv[i], "--record") && has_value) record = argv[++i];
        else if (!strcmp(argv[i], "--check") && has_value) check = argv[++i];
        else if (!strcmp(argv[i], "--ptx") && has_value) ptxdir = argv[++i];
        else if (!strcmp(argv[i], "--case") && has_value) only = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = true;
        else return usage();
    }
    if (list) {
        for (size_t i = 0; i < corpus_case_count; ++i) printf("%s\n", corpus_cases[i].name);
        return 0;
    }
    if ((!record) == (!check) || !ptxdir) return usage();
    bool found = false;
    for (size_t i = 0; i < corpus_case_count; ++i) found |= !only || !strcmp(only, corpus_cases[i].name);
    if (!found) {
        fprintf(stderr, "corpus_runner: no case is named %s (--list shows them)\n", only);
        return 2;
    }

    CUdevice dev = 0;
    CUcontext ctx = NULL;
    if (!ok(cuInit(0), "cuInit", "corpus_runner") || !ok(cuDeviceGet(&dev, 0), "cuDeviceGet", "corpus_runner") ||
        !ok(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain", "corpus_runner") ||
        !ok(cuCtxSetCurrent(ctx), "cuCtxSetCurrent", "corpus_runner"))
        return 1;
    int failed = 0, passed = 0;
    if (lookup_api()) {
        for (size_t i = 0; i < corpus_case_count; ++i) {
            const struct kcase *c = &corpus_cases[i];
            if (only && strcmp(only, c->name)) continue;
            struct run run;
            memset(&run, 0, sizeof run);
            bool good = run_case(c, ptxdir, &run);
            if (good && record) {
                char path[1024];
                snprintf(path, sizeof path, "%s/%s.bin", record, c->name);
                good = write_file(path, run.result, run.result_bytes);
                if (!good) printf("%s: cannot write %s\n", c->name, path);
            } else if (good) {
                good = check_case(c, &run, check);
            }
            printf("%s %s\n", good ? "PASS" : "FAIL", c->name);
            good ? ++passed : ++failed;
            free_run(&run);
            if (!good) {
                /* A fault is sticky: later cases need a fresh context. */
                CUresult r = cuCtxSynchronize();
                if (r != CUDA_SUCCESS) {
                    printf("corpus_runner: the context is unusable (%s): resetting it\n", result_name(r));
                    cuDevicePrimaryCtxRelease(dev);
                    cuDevicePrimaryCtxReset(dev);
                    if (!ok(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain", "corpus_runner") ||
                        !ok(cuCtxSetCurrent(ctx), "cuCtxSetCurrent", "corpus_runner"))
                        return 1;
                }
            }
        }
    } else {
        failed = 1;
    }
    cuDevicePrimaryCtxRelease(dev);
    printf("corpus_runner: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
