/*
 * src/interop/interop.h: interop as the rest of the core sees it: external memory and
 * semaphores (external_*.c) with their payloads (sem_payload.h), IPC (ipc.c) and dma-buf
 * (dmabuf.c). The Direct3D helpers (src/d3d) register their memory and fences through it.
 */
#ifndef EXTMEM_INTEROP_INTEROP_H
#define EXTMEM_INTEROP_INTEROP_H

#include "device/device.h"
#include "interop/image_layout.h"

/* ---- External memory that another API owns (src/d3d) ----
 * Memory extmem reaches at an address of this process, kept alive by a reference to its owner
 * (a Direct3D resource mapped for the CPU): imported as external memory without an OS handle. */
struct ext_texture;
struct ext_source {
    void *ptr;   /* its bytes, in this process */
    size_t size; /* how many */
    void *owner;
    void (*retain)(void *owner);
    void (*release)(void *owner);
    const struct ext_texture *texture; /* a texture's staging copy: how its subresources lie in
                                        * the bytes (the owner keeps it); NULL for a buffer or heap */
};

/* A Direct3D texture as its staging copy holds it (GetCopyableFootprints): what
 * cuExternalMemoryGetMappedMipmappedArray maps its levels with. */
struct ext_texture {
    uint32_t width, height, depth; /* level 0; depth 1 unless 3D */
    uint32_t layers;               /* array slices (cube faces included); 1 for 3D */
    uint32_t levels;
    bool one_d;                    /* a 1D texture (CUDA's Height 0) */
    unsigned elem_bytes;           /* one texel */
    struct ext_layout_level level[16]; /* layer 0 of each level; slice_pitch: the next layer
                                        * (arrays) or depth slice (3D) */
};
/* Registers src as external memory of `type`, `size` bytes as the application gave them (0:
 * src's size); takes the caller's reference to src's owner whatever happens. */
CUresult ext_import_source(const char *fn, const struct ext_source *src, unsigned long long size,
                           CUexternalMemoryHandleType type, CUexternalMemory *out);

/* ---- Imported images as CUDA arrays (external_image.c) ---- */
struct image_level;
struct image_mipmap;
/* The checks on a mipmapped array descriptor that need no memory (reserved fields, format and
 * channels, flags, extent against the device's limits, numLevels against the chain); on
 * success *elem_bytes is one element's size. */
CUresult ext_image_check(const char *fn, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *m, unsigned *elem_bytes);
/* The bytes an imported array is: size bytes at ptr, either a mapping of extmem's (unmapped
 * at the end) or memory of another API held by owner (released at the end). */
struct ext_image_bytes {
    void *ptr;
    unsigned long long size;
    void *unmap_base;
    size_t unmap_len;
    void *owner;
    void (*release)(void *owner);
};
/* Makes the mipmapped array over bytes, its levels as `levels` lays them out from bytes->ptr
 * (image_layout.h); takes bytes whatever happens. */
struct ext_layout_level;
CUresult ext_image_map(const char *fn, struct ctx *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned nlevels,
                       const struct ext_layout_level *levels, const struct ext_image_bytes *bytes,
                       struct image_mipmap **out);

/* ---- The Windows handle rules of external memory and semaphores (external_handle.c) ---- */
/* A descriptor's handle and name for `type` (its name in messages): a KMT type takes a handle
 * and no name, the others exactly one of the two. */
CUresult ext_handle_check(const char *fn, const char *type, bool kmt, const void *handle, const void *name);
/* Where the object is: *h is the caller's NT handle, or (*opened) one extmem opened by the name
 * or KMT token; `what` names the object in messages, *label names the handle. */
CUresult ext_handle_locate(const char *fn, const char *what, bool kmt, const void *handle, const uint16_t *name,
                           os_handle *h, bool *opened, char *label, size_t label_size);

/* ---- External semaphores (external_semaphore.c) ----
 * A semaphore that is not an extmem payload (src/interop/sem_payload.h): a Direct3D fence, for
 * one (src/d3d). Its owner gives these calls; stream workers make them. */
typedef enum sem_wait_result { SEM_PASSED = 0, SEM_TIMED_OUT, SEM_ABANDONED, SEM_FAILED } sem_wait_result;
struct sem_source {
    void *owner;
    bool timeline;                                        /* fences: a 64-bit value */
    void (*signal)(void *owner, uint64_t value);          /* sets the value (binary: signals) */
    sem_wait_result (*wait)(void *owner, uint64_t value, uint64_t timeout_ns);
    uint64_t (*value)(void *owner);
    void (*release)(void *owner);
};
/* Registers src as an external semaphore of `type`; takes the caller's reference to src's
 * owner whatever happens. */
CUresult ext_semaphore_from_source(const char *fn, const struct sem_source *src, CUexternalSemaphoreHandleType type,
                                   CUexternalSemaphore *out);

#endif /* EXTMEM_INTEROP_INTEROP_H */
