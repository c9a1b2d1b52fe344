/*
 * src/entry/table.c: the driver's entry points by name, for cuGetProcAddress (proc_address.c),
 * made from the entry-point list (driver_api.h). Only the functions' addresses are taken here:
 * this file does not include cuda.h, whose macros rename the base names (cuMemAlloc is
 * cuMemAlloc_v2 there), and declares each symbol as a function of no parameters, exported as
 * its definition is (a hidden declaration would hide the definition too).
 */
#include "entry/table.h"
#include "extmem/export.h"

#define DRV(symbol, base, version, ptds_version) EXTMEM_API void symbol(void);
#define DRV_REFUSED(symbol, base, version, ptds_version, why) EXTMEM_API void symbol(void);
#include "entry/driver_api.h"
#undef DRV
#undef DRV_REFUSED

const struct entry entry_table[] = {
#define DRV(symbol, base, version, ptds_version) {#base, #symbol, version, ptds_version, -1, symbol},
#define DRV_REFUSED(symbol, base, version, ptds_version, why)                                                         \
    {#base, #symbol, version, ptds_version, REFUSAL_##why, symbol},
#include "entry/driver_api.h"
#undef DRV
#undef DRV_REFUSED
};

const unsigned entry_count = sizeof(entry_table) / sizeof(entry_table[0]);
