/*
 * src/memory/copy.h: the copy engine of copy.c as the other copy calls of this folder use it
 * (copy3d.c: 3D, peer and batch copies). Private to src/memory.
 */
#ifndef EXTMEM_MEMORY_COPY_H
#define EXTMEM_MEMORY_COPY_H

#include "memory/memory.h"

/* One copy: depth layers of height rows of width bytes. Row y of layer z starts at
 * base + z * slice + y * pitch on each side. */
struct copy_region {
    uintptr_t dst, src;
    size_t dst_pitch, src_pitch;
    size_t dst_slice, src_slice;
    size_t width, height, depth;
};

/* Which sides of a copy must be memory CUDA gave out (MEM_DEVICE), by the call's signature. */
enum { DST_DEVICE = 1, SRC_DEVICE = 2, BOTH_DEVICE = 3 };

/* Checks both sides against the address maps and queues the copy in stream order (sync: and
 * waits for it). An empty region succeeds without looking at the addresses. */
CUresult mem_copy(const char *fn, CUstream stream, bool sync, const struct copy_region *g, unsigned int device_sides);

/* A batch: every copy is checked first (on failure *fail_idx, if given, is the index of the
 * copy that failed, and nothing is queued), then all are queued in stream order. src_now: the
 * source is read at the call (staged) or the call waits for the copy, so the caller may free
 * or change it when the call returns. */
struct copy_batch_item {
    struct copy_region region;
    unsigned int device_sides;
    bool src_now;
};
CUresult mem_copy_batch(const char *fn, CUstream stream, const struct copy_batch_item *items, size_t count,
                        size_t *fail_idx);

/* An array side of a copy (CU_MEMORYTYPE_ARRAY): a NULL array is INVALID_VALUE; the rest is
 * mem_array_hook's (memory.h). */
CUresult mem_array_side(const char *fn, const char *side, CUarray array, size_t x, size_t y, size_t z, size_t width,
                        size_t height, size_t depth, uintptr_t *addr, size_t *pitch, size_t *slice);

#endif /* EXTMEM_MEMORY_COPY_H */
