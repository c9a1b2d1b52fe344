/*
 * tests/abi/abi_layout_report_ptds.c: the report's comparison of symbol names for programs
 * built with CUDA_API_PER_THREAD_DEFAULT_STREAM. Compiled against our headers only.
 */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include "abi_our_headers.h"
#include "nv_values.h"
#include "abi_report.h"

#define ABI_STR_(x) #x
#define ABI_STR(x) ABI_STR_(x)

void abi_compare_ptds(void)
{
#define ABI_SYMBOL(n) \
    abi_check_str(K_PTDS_SYMBOL, "per-thread-stream symbol of", #n, ABI_STR(n), NV_PSYMNAME_##n);
#include "abi_items_ptds.h"
}
