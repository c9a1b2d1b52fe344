/*
 * tests/abi/abi_static_check_ptds.c: symbol names for programs built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM, against NVIDIA's (NV_PSYM_*, from abi_nv_ptds.c).
 * Compiled against our headers only; see abi_static_check.c.
 */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include "abi_our_headers.h"
#include "nv_values.h"

#define ABI_CAT_(a, b) a##b
#define ABI_CAT(a, b) ABI_CAT_(a, b)

#define ABI_SYMBOL(n)                                                                    \
    _Static_assert(ABI_CAT(NV_PSYM_##n##__, n) == 1,                                     \
                   "extmem ABI: with CUDA_API_PER_THREAD_DEFAULT_STREAM, " #n            \
                   " must expand to the symbol NVIDIA's header names");
#include "abi_items_ptds.h"

/* ISO C wants a translation unit to declare something. */
extern int abi_static_checked_ptds;
