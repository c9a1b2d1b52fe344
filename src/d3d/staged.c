/*
 * The Direct3D memory that is reached through staging copies (d3d12_staging.c, d3d11_memory.c;
 * docs/d3d-interop.md), and the copies that external semaphore waits and signals make of it.
 */
#include "d3d/d3d_private.h"

/* Every live entry; copies hold the lock shared, a removal exclusively (so an entry is never
 * freed under a copy). */
static SRWLOCK registry = SRWLOCK_INIT;
static struct list_node entries = {&entries, &entries};
static volatile LONG count;

static void staged_retain(void *o) { InterlockedIncrement(&((struct staged *)o)->refs); }

/* The last reference: out of the registry (waiting for copies that use it), then freed. */
static void staged_release(void *o)
{
    struct staged *s = o;
    if (InterlockedDecrement(&s->refs) != 0)
        return;
    AcquireSRWLockExclusive(&registry);
    list_del(&s->node);
    InterlockedDecrement(&count);
    ReleaseSRWLockExclusive(&registry);
    s->destroy(s);
}

void staged_add(struct staged *s, void *ptr, struct ext_source *out)
{
    s->refs = 1;
    AcquireSRWLockExclusive(&registry);
    list_add(&entries, &s->node);
    InterlockedIncrement(&count);
    ReleaseSRWLockExclusive(&registry);
    *out = (struct ext_source){
        .ptr = ptr, .size = s->size, .owner = s, .retain = staged_retain, .release = staged_release};
}

CUresult staged_failure(const char *fn, const char *api, const char *call, HRESULT hr)
{
    CUresult code = hr == E_OUTOFMEMORY ? CUDA_ERROR_OUT_OF_MEMORY
                    : hr == E_NOTIMPL   ? CUDA_ERROR_NOT_SUPPORTED
                                        : CUDA_ERROR_OPERATING_SYSTEM;
    return fail(code, "%s: the staging copy of %s memory: %s failed (HRESULT 0x%08lx)", fn, api, call,
                (unsigned long)hr);
}

void d3d_staged_sync(bool in)
{
    if (InterlockedCompareExchange(&count, 0, 0) == 0)
        return;
    AcquireSRWLockShared(&registry);
    for (struct list_node *it = entries.next; it != &entries; it = it->next) {
        struct staged *s = list_entry(it, struct staged, node);
        HRESULT hr = s->copy(s, in);
        if (FAILED(hr))
            log_warn("%s memory of %zu bytes: the staging copy %s failed (HRESULT 0x%08lx): CUDA and Direct3D may "
                     "see different contents", s->api, s->size, in ? "in" : "out", (unsigned long)hr);
    }
    ReleaseSRWLockShared(&registry);
}
