/*
 * The device heap: what malloc and free (and new and delete, which compilers make of them) use
 * in kernels (issue 25, link part; docs/kernels.md "The device heap").
 *
 * One heap per context, made by the first launch of a module that calls malloc or free, of
 * the size cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE) says then (8 MiB by default): from then on
 * the limit cannot change, as on the GPU (docs/driver-observations.md, "Linking and the device
 * heap"). Its memory is device memory of the context (a RANGE_HEAP range, so kernels and copies
 * reach it and cuMemFree refuses it), freed with the context.
 *
 * The allocator keeps its records in host memory, out of the kernels' reach: an address-ordered
 * list of free extents (first fit, neighbours merged when freed) and a hash of the live
 * allocations, so a free of anything else (twice, an address inside a block, memory the heap
 * did not give) is found and faults, which the GPU does only sometimes. Each block is preceded
 * by a 16-byte header as the GPU's are (its size, for the curious reader of device memory), so
 * a heap holds fewer blocks than its size over theirs, as there. Blocks are 16-byte aligned.
 * devrt (issue 25): the header's second word says whether the block is live or was freed, as
 * the GPU's headers do (docs/probes/kernels/devrt, header_dump): a free of an address the heap
 * does not hold live whose header says "freed" is the GPU's double free (a trap); any other
 * address inside the heap is let pass, as the GPU lets a free inside a block pass. The word is
 * device memory, which a kernel may overwrite (a stale or forged header decides only between a
 * fault and nothing, as on the GPU: the records that decide what is free are the host's).
 * One lock guards it: blocks of a launch run on several threads.
 */
#include "memory/memory.h"

#include <stdlib.h>
#include <string.h>

#define HEAP_ALIGN 16
#define HEAP_HEADER 16
#define HEAP_MIN ((size_t)4 << 20) /* cuCtxSetLimit makes smaller sizes 4 MiB, as the driver does */
#define HEAP_TAG_LIVE 0x6c697665u  /* devrt: a header's second word */
#define HEAP_TAG_FREED 0x66726565u

struct extent {
    size_t off, size;
};

struct mem_heap {
    struct range *range;
    uintptr_t base;
    size_t size;
    os_mutex lock;
    struct extent *free; /* by offset, none adjacent */
    size_t nfree, cap_free;
    /* live blocks: address (the user's) -> size with header; 0 empty, 1 removed */
    uintptr_t *keys;
    size_t *sizes;
    size_t cap, used, tombs;
};

static size_t hash_slot(uintptr_t key, size_t cap) { return (size_t)((key >> 4) * 0x9E3779B97F4A7C15ull) & (cap - 1); }

static bool live_grow(struct mem_heap *h)
{
    size_t ncap = h->cap ? h->cap * 2 : 1024;
    uintptr_t *keys = calloc(ncap, sizeof(*keys));
    size_t *sizes = calloc(ncap, sizeof(*sizes));
    if (!keys || !sizes) {
        free(keys);
        free(sizes);
        return false;
    }
    for (size_t i = 0; i < h->cap; ++i) {
        if (h->keys[i] <= 1)
            continue;
        size_t j = hash_slot(h->keys[i], ncap);
        while (keys[j])
            j = (j + 1) & (ncap - 1);
        keys[j] = h->keys[i];
        sizes[j] = h->sizes[i];
    }
    free(h->keys);
    free(h->sizes);
    h->keys = keys;
    h->sizes = sizes;
    h->cap = ncap;
    h->tombs = 0;
    return true;
}

static size_t *live_find(struct mem_heap *h, uintptr_t key, size_t *at)
{
    if (!h->cap)
        return NULL;
    for (size_t j = hash_slot(key, h->cap);; j = (j + 1) & (h->cap - 1)) {
        if (h->keys[j] == key) {
            *at = j;
            return &h->sizes[j];
        }
        if (!h->keys[j])
            return NULL;
    }
}

static bool live_put(struct mem_heap *h, uintptr_t key, size_t size)
{
    if ((h->used + h->tombs + 1) * 2 > h->cap && !live_grow(h))
        return false;
    size_t j = hash_slot(key, h->cap);
    while (h->keys[j] > 1)
        j = (j + 1) & (h->cap - 1);
    if (h->keys[j] == 1)
        h->tombs--;
    h->keys[j] = key;
    h->sizes[j] = size;
    h->used++;
    return true;
}

uint64_t mem_heap_alloc(void *heap, uint64_t want)
{
    struct mem_heap *h = heap;
    /* malloc(0) gives a block too, as on the GPU (a unique pointer). */
    if (want > h->size)
        return 0;
    size_t need = ((size_t)want + HEAP_HEADER + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1);
    uint64_t addr = 0;
    os_mutex_lock(&h->lock);
    for (size_t i = 0; i < h->nfree; ++i) {
        struct extent *e = &h->free[i];
        if (e->size < need)
            continue;
        size_t off = e->off;
        if (!live_put(h, h->base + off + HEAP_HEADER, need))
            break; /* no host memory for the record: the kernel sees an exhausted heap */
        e->off += need;
        e->size -= need;
        if (!e->size) {
            memmove(e, e + 1, (h->nfree - i - 1) * sizeof(*e));
            h->nfree--;
        }
        uint64_t header[2] = {(uint64_t)want, HEAP_TAG_LIVE};
        memcpy((void *)(h->base + off), header, sizeof(header));
        addr = h->base + off + HEAP_HEADER;
        break;
    }
    os_mutex_unlock(&h->lock);
    return addr;
}

int mem_heap_free(void *heap, uint64_t addr)
{
    struct mem_heap *h = heap;
    os_mutex_lock(&h->lock);
    size_t at;
    size_t *sz = live_find(h, (uintptr_t)addr, &at);
    if (!sz) {
        int r = MEM_HEAP_OUTSIDE;
        if (addr >= h->base && addr < h->base + h->size) {
            r = MEM_HEAP_NOT_A_BLOCK;
            uint64_t tag;
            if (addr - h->base >= HEAP_HEADER && (addr - h->base) % HEAP_ALIGN == 0) {
                memcpy(&tag, (const void *)(uintptr_t)(addr - 8), sizeof(tag));
                if (tag == HEAP_TAG_FREED)
                    r = MEM_HEAP_FREED_BEFORE;
            }
        }
        os_mutex_unlock(&h->lock);
        return r;
    }
    size_t size = *sz, off = (size_t)addr - HEAP_HEADER - h->base;
    {
        uint64_t tag = HEAP_TAG_FREED; /* devrt: the header says so, for a second free */
        memcpy((void *)(uintptr_t)(addr - 8), &tag, sizeof(tag));
    }
    h->keys[at] = 1;
    h->used--;
    h->tombs++;
    /* Insert [off, off + size) in order, merging with the extents beside it. */
    size_t lo = 0, hi = h->nfree;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (h->free[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool left = lo > 0 && h->free[lo - 1].off + h->free[lo - 1].size == off;
    bool right = lo < h->nfree && off + size == h->free[lo].off;
    if (left && right) {
        h->free[lo - 1].size += size + h->free[lo].size;
        memmove(&h->free[lo], &h->free[lo + 1], (h->nfree - lo - 1) * sizeof(*h->free));
        h->nfree--;
    } else if (left) {
        h->free[lo - 1].size += size;
    } else if (right) {
        h->free[lo].off = off;
        h->free[lo].size += size;
    } else {
        if (h->nfree == h->cap_free) {
            size_t ncap = h->cap_free * 2;
            struct extent *n = realloc(h->free, ncap * sizeof(*n));
            if (!n) {
                /* Keep the block as used rather than lose the list: the heap only shrinks. */
                os_mutex_unlock(&h->lock);
                return MEM_HEAP_FREED;
            }
            h->free = n;
            h->cap_free = ncap;
        }
        memmove(&h->free[lo + 1], &h->free[lo], (h->nfree - lo) * sizeof(*h->free));
        h->free[lo] = (struct extent){off, size};
        h->nfree++;
    }
    os_mutex_unlock(&h->lock);
    return MEM_HEAP_FREED;
}

/* Frees the heap with its context (before the context's other memory). */
static void heap_teardown(struct ctx *ctx)
{
    os_mutex_lock(&ctx->lock);
    struct mem_heap *h = ctx->heap;
    ctx->heap = NULL;
    os_mutex_unlock(&ctx->lock);
    if (!h)
        return;
    amap_lock_write();
    mem_unpublish(h->range);
    amap_unlock();
    mem_free_range(h->range);
    os_mutex_destroy(&h->lock);
    free(h->free);
    free(h->keys);
    free(h->sizes);
    free(h);
}
static const struct ctx_step heap_step = {CTX_STEP_HEAP, heap_teardown};

CUresult mem_heap_get(const char *fn, struct ctx *ctx, void **out)
{
    os_mutex_lock(&ctx->lock);
    struct mem_heap *h = ctx->heap;
    os_mutex_unlock(&ctx->lock);
    if (h) {
        *out = h;
        return CUDA_SUCCESS;
    }
    h = calloc(1, sizeof(*h));
    struct range *r = calloc(1, sizeof(*r));
    struct extent *e = malloc(16 * sizeof(*e));
    CUresult res;
    if (!h || !r || !e) {
        res = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the device heap's records", fn);
        goto fail_free;
    }
    os_mutex_lock(&ctx->lock);
    size_t size = ctx->malloc_heap_limit < HEAP_MIN ? HEAP_MIN : ctx->malloc_heap_limit;
    os_mutex_unlock(&ctx->lock);
    if ((res = mem_range_init(fn, r, size, RANGE_HEAP, 0))) {
        res = fail(res, "%s: the device heap of %zu bytes (cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)) cannot be made: "
                   "%s", fn, size, extmem_error_detail());
        goto fail_free;
    }
    h->range = r;
    h->base = r->base;
    h->size = size;
    h->free = e;
    h->cap_free = 16;
    h->free[0] = (struct extent){0, size};
    h->nfree = 1;
    os_mutex_init(&h->lock);
    mem_register(ctx, r);
    os_mutex_lock(&ctx->lock);
    struct mem_heap *other = ctx->heap;
    if (!other) {
        ctx->heap = h;
        ctx_add_teardown(ctx, &heap_step);
    }
    os_mutex_unlock(&ctx->lock);
    if (other) {
        /* Another launch made it first: keep one. */
        amap_lock_write();
        mem_unpublish(r);
        amap_unlock();
        mem_free_range(r);
        os_mutex_destroy(&h->lock);
        free(e);
        free(h);
        h = other;
    }
    *out = h;
    return CUDA_SUCCESS;

fail_free:
    free(e);
    free(r);
    free(h);
    return res;
}
