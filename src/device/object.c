/*
 * Objects and handles (DESIGN.md §6, STYLE.md 5). A handle is never a pointer: it encodes
 * a slot of the registry, a generation and the object's type, so a destroyed, forged or
 * wrong-type handle is recognised as such without touching memory it might point to.
 *
 *   handle = generation << 32 | (slot + 1) << 5 | type
 *
 * The type takes 5 bits (OBJ_HANDLE_TYPE, device.h): the image objects took the types past 15.
 * The smallest handle is 33, so NULL and the special stream values 1 and 2 never collide.
 */
#include "device/device.h"

#include <stdio.h>
#include <stdlib.h>

struct slot {
    struct obj *obj;    /* NULL when free */
    uint32_t generation;
    obj_type last_type; /* type of the last object held, for "was destroyed" messages */
    uint32_t next_free;
};

static os_mutex lock = OS_MUTEX_INITIALIZER;
static struct slot *slots;
static uint32_t slot_count, slot_capacity;
static uint32_t free_head = UINT32_MAX;

/* When the library is unloaded (dlclose of a drop-in libcuda.so.1) with nothing left alive,
 * the table goes too, so leak checkers see a clean unload. */
#if defined(__GNUC__)
__attribute__((destructor)) static void registry_unload(void)
{
    for (uint32_t s = 0; s < slot_count; ++s)
        if (slots[s].obj)
            return;
    free(slots);
    slots = NULL;
    slot_count = slot_capacity = 0;
}
#endif

_Static_assert(OBJ_TYPE_COUNT <= 32, "a handle keeps its type in 5 bits");

static uint64_t make_handle(uint32_t slot, uint32_t generation, obj_type type)
{
    return (uint64_t)generation << 32 | (uint64_t)(slot + 1) << 5 | (uint64_t)type;
}

/* Puts o in a free slot; with the lock held. Returns 0 when out of memory. */
static uint64_t place(struct obj *o)
{
    uint32_t s;
    if (free_head != UINT32_MAX) {
        s = free_head;
        free_head = slots[s].next_free;
    } else {
        if (slot_count == slot_capacity) {
            uint32_t cap = slot_capacity ? slot_capacity * 2 : 64;
            struct slot *grown = cap < (1u << 24) ? realloc(slots, cap * sizeof(*slots)) : NULL;
            if (!grown)
                return 0;
            slots = grown;
            slot_capacity = cap;
        }
        s = slot_count++;
        slots[s].generation = 0;
    }
    slots[s].generation++;
    slots[s].obj = o;
    slots[s].last_type = o->type;
    o->slot = s;
    o->handle = make_handle(s, slots[s].generation, o->type);
    return o->handle;
}

uint64_t obj_register(struct obj *o, obj_type type, void (*destroy)(struct obj *))
{
    o->type = type;
    o->destroy = destroy;
    atomic_init(&o->refs, 1);
    os_mutex_lock(&lock);
    uint64_t h = place(o);
    os_mutex_unlock(&lock);
    return h;
}


obj_status obj_lookup(uint64_t handle, obj_type type, struct obj **out)
{
    *out = NULL;
    if (handle == 0)
        return OBJ_NULL;
    uint64_t slot_plus_one = (handle >> 5) & 0x07ffffffu;
    uint32_t generation = (uint32_t)(handle >> 32);
    obj_type htype = OBJ_HANDLE_TYPE(handle);
    if (slot_plus_one == 0 || htype == 0 || htype >= OBJ_TYPE_COUNT)
        return OBJ_UNKNOWN;
    uint32_t s = (uint32_t)slot_plus_one - 1;
    obj_status status;
    os_mutex_lock(&lock);
    if (s >= slot_count || generation == 0 || generation > slots[s].generation) {
        status = OBJ_UNKNOWN;
    } else if (generation < slots[s].generation || !slots[s].obj) {
        /* The generation was issued for this slot; it is gone now. A forged handle can
         * land here too, but only with a value extmem once handed out. */
        status = slots[s].last_type == htype || generation < slots[s].generation ? OBJ_DESTROYED : OBJ_UNKNOWN;
    } else if (slots[s].obj->type != htype) {
        status = OBJ_UNKNOWN;
    } else if (htype != type) {
        status = OBJ_WRONG_TYPE;
    } else {
        *out = slots[s].obj;
        atomic_fetch_add(&(*out)->refs, 1);
        status = OBJ_FOUND;
    }
    os_mutex_unlock(&lock);
    return status;
}

bool obj_unregister(struct obj *o)
{
    os_mutex_lock(&lock);
    bool was_live = slots[o->slot].obj == o;
    if (was_live) {
        slots[o->slot].obj = NULL;
        slots[o->slot].next_free = free_head;
        free_head = o->slot;
    }
    os_mutex_unlock(&lock);
    if (was_live)
        obj_release(o);
    return was_live;
}

void obj_retain(struct obj *o) { atomic_fetch_add(&o->refs, 1); }

void obj_release(struct obj *o)
{
    if (atomic_fetch_sub(&o->refs, 1) == 1)
        o->destroy(o);
}

const char *obj_type_name(obj_type type)
{
    switch (type) {
    case OBJ_CONTEXT: return "context";
    case OBJ_STREAM: return "stream";
    case OBJ_EVENT: return "event";
    case OBJ_ALLOCATION: return "allocation";
    case OBJ_EXTERNAL_MEMORY: return "external memory";
    case OBJ_MODULE: return "module";
    case OBJ_FUNCTION: return "function";
    case OBJ_LIBRARY: return "library";
    case OBJ_KERNEL: return "kernel";
    case OBJ_EXTERNAL_SEMAPHORE: return "external semaphore";
    case OBJ_MEMPOOL: return "memory pool";
    case OBJ_GRAPH: return "graph";
    case OBJ_GRAPH_NODE: return "graph node";
    case OBJ_GRAPH_EXEC: return "executable graph";
    case OBJ_USER_OBJECT: return "user object";
    case OBJ_ARRAY: return "array";
    case OBJ_MIPMAPPED_ARRAY: return "mipmapped array";
    case OBJ_TEXTURE: return "texture object";
    case OBJ_SURFACE: return "surface object";
    case OBJ_LINK_STATE: return "link state";
    default: return "object";
    }
}

static const char *article_name(obj_type type)
{
    switch (type) {
    case OBJ_CONTEXT: return "a context";
    case OBJ_STREAM: return "a stream";
    case OBJ_EVENT: return "an event";
    case OBJ_ALLOCATION: return "an allocation";
    case OBJ_EXTERNAL_MEMORY: return "an external memory";
    case OBJ_MODULE: return "a module";
    case OBJ_FUNCTION: return "a function";
    case OBJ_LIBRARY: return "a library";
    case OBJ_KERNEL: return "a kernel";
    case OBJ_EXTERNAL_SEMAPHORE: return "an external semaphore";
    case OBJ_MEMPOOL: return "a memory pool";
    case OBJ_GRAPH: return "a graph";
    case OBJ_GRAPH_NODE: return "a graph node";
    case OBJ_GRAPH_EXEC: return "an executable graph";
    case OBJ_USER_OBJECT: return "a user object";
    case OBJ_ARRAY: return "an array";
    case OBJ_MIPMAPPED_ARRAY: return "a mipmapped array";
    case OBJ_TEXTURE: return "a texture object";
    case OBJ_SURFACE: return "a surface object";
    case OBJ_LINK_STATE: return "a link state";
    default: return "an object";
    }
}

const char *obj_status_text(obj_status status, obj_type wanted, uint64_t handle)
{
    static OS_THREAD_LOCAL char buf[128];
    switch (status) {
    case OBJ_FOUND: return "is valid";
    case OBJ_NULL: snprintf(buf, sizeof(buf), "the %s handle is NULL", obj_type_name(wanted)); break;
    case OBJ_DESTROYED: snprintf(buf, sizeof(buf), "%s 0x%llx was destroyed", obj_type_name(wanted), (unsigned long long)handle); break;
    case OBJ_WRONG_TYPE:
        snprintf(buf, sizeof(buf), "0x%llx is %s handle, not %s handle", (unsigned long long)handle,
                 article_name(OBJ_HANDLE_TYPE(handle)), article_name(wanted));
        break;
    case OBJ_UNKNOWN: snprintf(buf, sizeof(buf), "0x%llx is not a %s handle extmem issued", (unsigned long long)handle, obj_type_name(wanted)); break;
    }
    return buf;
}

void obj_nonce_name(const char *prefix, const uint8_t nonce[16], char name[64])
{
    size_t n = (size_t)snprintf(name, 64, "%s", prefix);
    for (int i = 0; i < 16 && n + 2 < 64; ++i, n += 2)
        snprintf(name + n, 3, "%02x", nonce[i]);
}
