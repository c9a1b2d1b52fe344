/*
 * src/memory/vmm.h: the objects of virtual memory management (DESIGN.md §8).
 *
 * A physical allocation (cuMemCreate, cuMemImportFromShareableHandle) is a memory object (a
 * sealed memfd; a section on Windows) with a handle. A reservation is PROT_NONE address space. A mapping maps an allocation into a
 * reservation and holds a reference to it, so releasing the handle keeps the memory alive
 * until the last unmap. Every change happens under the address maps' write lock.
 */
#ifndef EXTMEM_VMM_H
#define EXTMEM_VMM_H

#include "memory/memory.h"

/* As on the driver, the handle stays valid while the application holds a reference
 * (create, import, retain minus release) or the memory is mapped somewhere. */
struct vmm_alloc {
    struct obj base;
    os_memory mem;
    size_t size;
    CUmemAllocationProp prop; /* what cuMemGetAllocationPropertiesFromHandle reports */
    unsigned int export_types; /* the CU_MEM_HANDLE_TYPE_* it may be exported as */
    int user_refs;
    size_t mappings;
};

struct reservation {
    struct range r;
    size_t mappings; /* live mappings inside */
};

struct mapping {
    struct range r; /* base and size of the mapped range */
    struct vmm_alloc *alloc; /* a reference */
    struct reservation *res;
    int access; /* OS_ACCESS_*: the driver sets access for whole mappings */
};

size_t vmm_granularity(void);
/* Looks up an allocation handle, with a reference. */
CUresult vmm_alloc_lookup(const char *fn, CUmemGenericAllocationHandle handle, struct vmm_alloc **out);
void vmm_alloc_release(struct vmm_alloc *a);
/* With the write lock: the mapping or the application let go of a; unregisters the handle
 * when neither holds it any more. */
void vmm_alloc_drop_holder(struct vmm_alloc *a);

#endif
