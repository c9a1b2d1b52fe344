/*
 * src/vmm.h: the objects of virtual memory management (DESIGN.md §8).
 *
 * A physical allocation (cuMemCreate, cuMemImportFromShareableHandle) is a sealed memfd with
 * a handle. A reservation is PROT_NONE address space. A mapping maps an allocation into a
 * reservation and holds a reference to it, so releasing the handle keeps the memory alive
 * until the last unmap. Every change happens under the address maps' write lock.
 */
#ifndef EXTMEM_VMM_H
#define EXTMEM_VMM_H

#include "internal.h"

struct vmm_alloc {
    struct obj base;
    os_memory mem;
    size_t size;
    CUmemAllocationProp prop;
    int user_refs;   /* handles the application holds: create, import, retain minus release */
    bool registered; /* the handle is live (user_refs > 0) */
};

struct reservation {
    struct range r;
    size_t mappings; /* live mappings inside */
};

struct mapping {
    struct range r; /* base and size of the mapped range */
    struct vmm_alloc *alloc; /* a reference */
    struct reservation *res;
    uint8_t *access; /* OS_ACCESS_* per granule */
};

size_t vmm_granularity(void);
/* Looks up an allocation handle, with a reference. */
CUresult vmm_alloc_lookup(const char *fn, CUmemGenericAllocationHandle handle, struct vmm_alloc **out);
void vmm_alloc_release(struct vmm_alloc *a);
/* With the write lock: one more application handle on a (cuMemRetainAllocationHandle). */
CUresult vmm_alloc_retain_user(const char *fn, struct vmm_alloc *a);
/* The access of the granule holding addr in mapping m. */
int vmm_access_at(const struct mapping *m, uintptr_t addr);

#endif
