/*
 * pNext chains and the memory of rewritten structures. The layer changes an application's
 * structures only in copies (they are const to every layer), so a chain that must lose one
 * structure is copied up to it.
 */
#include "layer.h"

#include <stdlib.h>
#include <string.h>

const void *layer_find(const void *chain, VkStructureType type)
{
    for (const VkBaseInStructure *s = chain; s; s = s->pNext)
        if (s->sType == type)
            return s;
    return NULL;
}

/* The sizes of the structures that may come before the one the layer drops: those that the
 * specification allows in the pNext chains of VkSubmitInfo and VkSemaphoreCreateInfo. */
static size_t size_of(VkStructureType type)
{
    switch (type) {
    case VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO:
        return sizeof(VkDeviceGroupSubmitInfo);
    case VK_STRUCTURE_TYPE_PROTECTED_SUBMIT_INFO:
        return sizeof(VkProtectedSubmitInfo);
    case VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR:
        return sizeof(VkPerformanceQuerySubmitInfoKHR);
    case VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO:
        return sizeof(VkTimelineSemaphoreSubmitInfo);
    case VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO:
        return sizeof(VkSemaphoreTypeCreateInfo);
    case VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO:
        return sizeof(VkExportSemaphoreCreateInfo);
    default:
        return 0;
    }
}

bool layer_chain_without(const void *chain, VkStructureType drop, VkBaseOutStructure *head,
                         struct layer_arena *arena, const void **out, VkStructureType *unknown)
{
    const VkBaseInStructure *dropped = layer_find(chain, drop);
    VkBaseOutStructure *first = head, *last = head;
    if (dropped) {
        /* Copies of the structures before `dropped`, then what follows it as it is. */
        for (const VkBaseInStructure *s = chain; s != dropped; s = s->pNext) {
            size_t size = size_of(s->sType);
            VkBaseOutStructure *copy = size ? layer_alloc(arena, size) : NULL;
            if (!copy) {
                *unknown = size ? VK_STRUCTURE_TYPE_MAX_ENUM : s->sType;
                return false;
            }
            memcpy(copy, s, size);
            if (last)
                last->pNext = copy;
            else
                first = copy;
            last = copy;
        }
        chain = dropped->pNext;
    }
    if (last)
        last->pNext = (VkBaseOutStructure *)chain; /* the application's own, never written through */
    *out = last ? first : chain;
    return true;
}

void *layer_alloc(struct layer_arena *a, size_t size)
{
    void **block = calloc(1, sizeof(void *) * 2 + size);
    if (!block)
        return NULL;
    block[0] = a->blocks;
    a->blocks = block;
    return block + 2; /* two pointers keep the start 16-byte aligned */
}

void layer_arena_free(struct layer_arena *a)
{
    while (a->blocks) {
        void **block = a->blocks;
        a->blocks = block[0];
        free(block);
    }
}
