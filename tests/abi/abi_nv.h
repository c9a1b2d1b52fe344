/* tests/abi/abi_nv.h: between the translation units of abi_nv_values. */
#ifndef EXTMEM_ABI_NV_H
#define EXTMEM_ABI_NV_H

#include <stdio.h>

/* Prints NVIDIA's symbol names in per-thread-default-stream mode (abi_nv_ptds.c). */
void abi_print_ptds(FILE *out);

#endif
