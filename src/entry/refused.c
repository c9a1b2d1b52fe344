/*
 * src/entry/refused.c: every driver function of NVIDIA's libcuda.so that extmem exports but
 * refuses, made from the entry-point list (driver_api.h): each returns its reason's code and
 * records why (refuse.c). This file must not include cuda.h, which declares some of them
 * with their parameters: here they take none and ignore what the caller passed, which every
 * ABI extmem builds for allows (the caller cleans up its arguments).
 */
#include "entry/refuse.h"
#include "extmem/export.h"

#define DRV(symbol, base, version, ptds_version)
#define DRV_REFUSED(symbol, base, version, ptds_version, why)                                                         \
    EXTMEM_API int symbol(void);                                                                                      \
    int symbol(void) { return entry_refuse(#symbol, REFUSAL_##why); }
#include "entry/driver_api.h"
#undef DRV
#undef DRV_REFUSED
