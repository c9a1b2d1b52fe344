/*
 * src/entry/table.h: the driver's entry points by name (table.c), one row per exported symbol.
 */
#ifndef EXTMEM_ENTRY_TABLE_H
#define EXTMEM_ENTRY_TABLE_H

#include "entry/refuse.h"

struct entry {
    const char *base;   /* the name cuGetProcAddress is asked for: "cuMemAlloc" */
    const char *symbol; /* the exported function: "cuMemAlloc_v2" */
    int version;        /* the first CUDA version answered with it (0: never) */
    int ptds_version;   /* the same with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM */
    int refused;        /* the refusal_id of a refused function, -1 for one that works */
    void (*fn)(void);
};

extern const struct entry entry_table[];
extern const unsigned entry_count;

#endif /* EXTMEM_ENTRY_TABLE_H */
