/* The test pattern of samples/shaders/pattern.glsl, for C, C++ and CUDA code: word i of a
 * buffer filled with seed s holds extmem_pattern(i, s); the CUDA kernel turns each word w
 * into w * mul + add (wrapping, as in the shaders). */
#ifndef EXTMEM_SAMPLES_PATTERN_H
#define EXTMEM_SAMPLES_PATTERN_H

#include <stdint.h>

/* CUDA code calls the pattern from kernels and from the host alike. */
#if defined(__CUDA__) || defined(__CUDACC__)
#define EXTMEM_PATTERN_FN __host__ __device__ static inline
#else
#define EXTMEM_PATTERN_FN static inline
#endif

EXTMEM_PATTERN_FN uint32_t extmem_pattern(uint32_t i, uint32_t seed) { return (i * 2654435761u) ^ seed; }

/* The push constants of fill.comp and verify.comp. */
struct extmem_pattern_push {
    uint32_t count; /* words */
    uint32_t seed;
    uint32_t mul;   /* verify.comp expects pattern * mul + add; fill.comp writes it */
    uint32_t add;
};

/* verify.comp's result buffer. */
struct extmem_pattern_result {
    uint32_t mismatches;
    uint32_t first_bad; /* the lowest wrong index, 0xffffffff when none */
    uint32_t checked;   /* words the shader looked at */
    uint32_t pad;
};

#endif
