/*
 * src/memory/memory.h: memory as the rest of the core sees it: the address maps (addrmap.c),
 * allocations and their checks (memory.c, pointer.c), copies (copy.c), the VMM (vmm_*.c,
 * whose objects are in vmm.h, private to this folder) and memory pools (pool.c).
 */
#ifndef EXTMEM_MEMORY_MEMORY_H
#define EXTMEM_MEMORY_MEMORY_H

#include "device/device.h"

/* ---- Address maps (addrmap.c): which allocation holds this address? O(log n). ----
 * amap_memory holds what device pointers point at: allocations and VMM mappings.
 * amap_reservations holds cuMemAddressReserve ranges. One lock guards both. */
typedef enum range_kind {
    RANGE_DEVICE = 1,  /* cuMemAlloc */
    RANGE_HOST,        /* cuMemAllocHost / cuMemHostAlloc */
    RANGE_MAPPING,     /* cuMemMap: a struct mapping (vmm.h) */
    RANGE_EXTERNAL,    /* cuExternalMemoryGetMappedBuffer */
    RANGE_IPC,         /* cuIpcOpenMemHandle: a struct ipc_range (ipc.c) */
    RANGE_RESERVATION, /* cuMemAddressReserve: a struct reservation (vmm.h) */
    RANGE_MODULE,      /* a module's .global and .const variables: freed by cuModuleUnload only */
    RANGE_REGISTERED,  /* cuMemHostRegister: the caller's own pages (host_register.c) */
    RANGE_ARRAY,       /* a CUDA array's memory (src/image): freed by its array or its context only */
    RANGE_HEAP,        /* link part: the context's device heap (heap.c): freed with its context only */
} range_kind;

struct range {
    uintptr_t base;
    size_t size;      /* what the caller asked for */
    size_t map_size;  /* the extent lookups find: size rounded up to whole pages */
    uintptr_t unmap_base; /* what to unmap when the range goes */
    size_t unmap_len;
    range_kind kind;
    unsigned int flags; /* cuMemHostAlloc flags; cuMemHostRegister: the flags cuMemHostGetFlags reports */
    /* cuMemHostRegister: the pointer the caller registered (base is its page), which alone
     * unregisters it, and whether the device may only read the pages (READ_ONLY). */
    uintptr_t user_base;
    bool read_only;
    /* cuMemAllocManaged memory (a RANGE_DEVICE range): what it was advised (managed.c); NULL
     * for other memory. Read and changed with the maps locked for reading, under its lock. */
    struct managed *managed;
    uint64_t buffer_id;
    uint8_t nonce[16]; /* device memory: part of its memfd's name, proves IPC handles genuine */
    struct ctx *ctx;  /* owning context (not a reference: the context frees its ranges) */
    os_memory mem;
    /* Memory another API owns (Direct3D): nothing to unmap; the owner is released instead. */
    void (*release)(void *owner);
    void *owner;
    /* Optional: frees the range itself, with its owner's bookkeeping (an opened IPC range leaves
     * src/interop/ipc.c's list), instead of mem_free_range closing its memory and freeing it. */
    void (*free)(struct range *r);
    /* A pool allocation (pool.c) with a cuMemFreeAsync queued: it stays findable for the work
     * queued before the free, but no other free may take it. Under the maps' write lock. */
    bool pending_free;
    /* Memory of a pool: the CUmemoryPool it came from (an imported pointer: the importer's
     * pool), for CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE; 0 otherwise. Pool memory is not shareable
     * through cuIpcGetMemHandle, as on the driver. */
    uint64_t pool;
    struct list_node ctx_node; /* the context's allocations */
    /* treap links */
    struct range *left, *right;
    uint32_t priority;
};

struct amap {
    struct range *root;
    size_t count;
};
extern struct amap amap_memory, amap_reservations;

void amap_lock_read(void);
void amap_lock_write(void);
void amap_unlock(void);
/* With the maps locked: */
void amap_insert(struct amap *m, struct range *r);
void amap_remove(struct amap *m, struct range *r);
struct range *amap_find(const struct amap *m, uintptr_t addr);
/* A range that shares an address with [base, base + size), or NULL. */
struct range *amap_overlap(const struct amap *m, uintptr_t base, size_t size);
/* The first range (lowest base) that overlaps [addr, addr + size), or NULL. */
struct range *amap_find_overlap(const struct amap *m, uintptr_t addr, size_t size);
/* The range with the lowest base >= addr, or NULL. */
struct range *amap_next(const struct amap *m, uintptr_t addr);

/* Looks up [addr, addr + size) for a copy or fill: a range that starts in an allocation
 * must end in it, a range in VMM mappings must be mapped throughout with the access it
 * needs (MEM_WRITE, or only read); an address outside every allocation is pageable host
 * memory, refused with MEM_DEVICE (a parameter the call names a device pointer, as the driver
 * refuses it) and otherwise accepted where mapped and readable, with *pageable set (NULL: not
 * wanted). With the maps unlocked. */
enum { MEM_WRITE = 1, MEM_DEVICE = 2 };
CUresult mem_check_access(const char *fn, const char *what, uintptr_t addr, size_t size, int flags, bool *pageable);
/* For kernels' loads and stores: true when [addr, addr + size) lies in device memory a kernel
 * may read (write: and write), with the extent of the allocation or mapping that holds it in
 * [*lo, *hi) (empty when the access spans several mappings). Takes the maps' read lock. */
bool mem_kernel_extent(uintptr_t addr, size_t size, bool write, uintptr_t *lo, uintptr_t *hi);
/* With the maps read-locked: checks that [addr, addr + size) is covered by contiguous VMM
 * mappings, starting with first (which contains addr); on failure *why says what is wrong. */
bool vmm_covered(const struct range *first, uintptr_t addr, size_t size, int need_access, const char **why);
/* Fails with CUDA_ERROR_OUT_OF_MEMORY when size is more than the memory the machine has
 * available (device memory is host memory). */
CUresult mem_check_available(const char *fn, size_t size);
/* A new CU_POINTER_ATTRIBUTE_BUFFER_ID: never 0, never the same twice in the process. */
uint64_t mem_next_buffer_id(void);
/* Registers r (base, size, map_size, unmap_*, kind set by the caller) as an allocation of ctx. */
void mem_register(struct ctx *ctx, struct range *r);
/* The same, unless r would share an address with a registered range (memory of another API,
 * which has one address for all its buffers): then nothing is registered and it is false. */
bool mem_register_unless_overlapping(struct ctx *ctx, struct range *r);
/* With the maps write-locked: makes r unfindable, by address and in its context's list, in
 * one step, so that exactly one caller (a free, or the context's destruction) owns it. */
void mem_unpublish(struct range *r);
/* Fills r (calloc'd by the caller) with a new shareable allocation of size bytes, mapped, not
 * registered: kind RANGE_DEVICE draws the nonce its memfd is named after. */
CUresult mem_range_init(const char *fn, struct range *r, size_t size, range_kind kind, unsigned int flags);
/* Explains why addr is not the start of a live allocation of kind (CUDA_ERROR_INVALID_VALUE). */
CUresult mem_not_an_allocation(const char *fn, const char *what, uintptr_t addr, range_kind kind);
/* Frees a range the caller has unpublished; it does not touch r->ctx, which may be gone. */
void mem_free_range(struct range *r);
/* Frees a managed allocation's record (managed.c); with the range unpublished. */
void managed_free(struct managed *m);
/* The memory graphs' allocation nodes own (src/graph/memory.c, above this folder, sets it):
 * cuMemFree and cuMemFreeAsync of such an address end the allocation's life (the node keeps
 * the memory for the next launch); true when dptr was such memory, with the result in *r. */
/* cuMemFree's work, without the checks of a call (a graph's own memory, src/graph/memory.c). */
CUresult mem_free_device(const char *fn, CUdeviceptr dptr);
extern bool (*_Atomic mem_graph_free_hook)(const char *fn, CUdeviceptr dptr, CUresult *r);
/* Creates one allocation of ctx of `size` bytes (cuMemAlloc's memory, RANGE_DEVICE), with m
 * (NULL: none) as its managed record, which the range owns from then on, freed or not. */
CUresult mem_alloc_device(const char *fn, struct ctx *ctx, size_t size, struct managed *m, uintptr_t *base);

/* ---- The device heap (heap.c; link part): malloc and free in kernels ----
 * The context's heap, made by the first call (of the size cuCtxSetLimit(MALLOC_HEAP_SIZE) says
 * then; the limit is fixed from then on) and freed with the context. *out is handed to the
 * engine as klaunch.heap, with mem_heap_alloc and mem_heap_free as khost's hooks (kernel.h says
 * what they do). */
CUresult mem_heap_get(const char *fn, struct ctx *ctx, void **out);
uint64_t mem_heap_alloc(void *heap, uint64_t size);
enum { MEM_HEAP_FREED, MEM_HEAP_NOT_A_BLOCK, MEM_HEAP_OUTSIDE, /* inside the heap, or elsewhere */
       MEM_HEAP_FREED_BEFORE }; /* devrt: where a block freed already starts, its header still saying so */
int mem_heap_free(void *heap, uint64_t addr);

/* ---- Copies with CUDA arrays (src/image sets the hook; copy.c and copy3d.c call it) ----
 * An array side (CU_MEMORYTYPE_ARRAY) of a 2D or 3D copy: checks that the region of width
 * bytes x height rows x depth slices or layers at (x bytes, y, z) lies inside the array
 * `array` (not NULL), and gives its first byte, row pitch and slice pitch, which are device
 * memory. NULL until the first array is made (then no handle can name one: the copy answers
 * INVALID_HANDLE). */
typedef CUresult (*mem_array_resolver)(const char *fn, const char *side, CUarray array, size_t x, size_t y, size_t z,
                                       size_t width, size_t height, size_t depth, uintptr_t *addr, size_t *pitch,
                                       size_t *slice);
extern _Atomic(mem_array_resolver) mem_array_hook;
/* texlod: the bytes of one element of `array` (cuMemcpy3DBatchAsync's array operands count
 * offsets and extents in elements); set with mem_array_hook. */
typedef CUresult (*mem_array_element_fn)(const char *fn, const char *what, CUarray array, size_t *bytes);
extern _Atomic(mem_array_element_fn) mem_array_element_hook;
/* A copy of n bytes between addresses the caller resolved (src/image's 1D array copies): the
 * engine's checks and stream order, as cuMemcpy's (dst_device, src_device: the side must be
 * device memory). sync: the call returns once the copy is done. */
CUresult mem_copy_bytes(const char *fn, CUstream stream, bool sync, uintptr_t dst, uintptr_t src, size_t n,
                        bool dst_device, bool src_device);

/* The memory object a VMM mapping (RANGE_MAPPING) maps, from the object's offset 0 (cuMemMap
 * maps an allocation from its start). With the maps locked. */
os_handle mem_mapping_object(const struct range *r);

/* ---- Memory pools (pool.c; docs/memory-pools.md) ---- */
/* The context is being torn down (the device has drained): the pools let go of the freed
 * memory they keep that was allocated in it, and of memory freed from destroyed pools. */
void pool_context_gone(struct ctx *ctx);

#endif /* EXTMEM_MEMORY_MEMORY_H */
