/*
 * tests/abi/abi_nv_ptds.c: NVIDIA's side of the check for programs built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread).
 *
 * In that mode NVIDIA's headers rename the stream-ordered calls to their _ptds/_ptsz symbols
 * and declare only those. This prints the symbol each public name expands to then
 * (NV_PSYM_*), for abi_static_check_ptds.c, and checks our _ptds/_ptsz prototypes
 * (abi_types_ptds.h) against NVIDIA's.
 */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <stdio.h>

#include "abi_nv.h"

#define ABI_STR_(x) #x
#define ABI_STR(x) ABI_STR_(x)

#define ABI_SAME_TYPE(name, ...)
#define ABI_SAME_FIELD_TYPE(t, path, ...)
#define ABI_PROTO(name, ...)                                                             \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), __VA_ARGS__),         \
                   "extmem ABI: prototype of " #name " differs from NVIDIA's: ours is "  \
                   #__VA_ARGS__);
#include "abi_types_ptds.h"

void abi_print_ptds(FILE *out)
{
#define ABI_SYMBOL(n)                                                    \
    fprintf(out, "#define NV_PSYM_%s__%s 1\n", #n, ABI_STR(n));          \
    fprintf(out, "#define NV_PSYMNAME_%s \"%s\"\n", #n, ABI_STR(n));
#include "abi_items_ptds.h"
}
