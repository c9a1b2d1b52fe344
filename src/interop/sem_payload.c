/*
 * The payload of an external semaphore: one shared page with a value, a word to sleep on and
 * a table of holders (src/interop/sem_payload.h says what each field means).
 */
#include "interop/sem_payload.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* How often a sleeping waiter looks for holders that died: the longest a survivor waits
 * beyond a peer's death (the same period interprocess events use, src/exec/event.c). */
#define SEMP_CHECK_NS (50u * 1000000u)

static uint64_t owner_of(int pid, uint64_t start)
{
    return (uint64_t)(uint32_t)pid << 32 | (uint32_t)(start ^ start >> 32);
}

static uint64_t self_owner(void)
{
    static _Atomic uint64_t self; /* the start time never changes; fork children see their own pid */
    uint64_t known = atomic_load(&self);
    int pid = os_process_id();
    if (known && (int)(known >> 32) == pid)
        return known;
    known = owner_of(pid, os_process_start_time(pid));
    atomic_store(&self, known);
    return known;
}

static bool owner_alive(uint64_t owner)
{
    int pid = (int)(owner >> 32);
    uint64_t start = os_process_start_time(pid); /* 0 once it exited, zombies included */
    return start && owner_of(pid, start) == owner;
}

/* Takes a free slot of the page for this view; none when the table is full (then this view's
 * death cannot be told apart from a quiet peer: its owed signals are not made for it). */
static void join(struct semp *s)
{
    uint64_t self = self_owner();
    s->slot = NULL;
    for (int i = 0; i < SEMP_HOLDERS; ++i) {
        uint64_t free_slot = 0;
        struct semp_holder *h = &s->page->holders[i];
        if (atomic_compare_exchange_strong(&h->owner, &free_slot, self)) {
            atomic_store(&h->owed, 0);
            s->slot = h;
            return;
        }
    }
}

static int map_page(struct semp *s)
{
    void *addr;
    int err = os_memory_map(&s->mem, 0, s->mem.size, &addr);
    if (err)
        return err;
    s->page = addr;
    if ((err = os_waker_open(&s->mem, &s->waker))) {
        os_memory_unmap(addr, s->mem.size);
        return err;
    }
    return 0;
}

int semp_create(struct semp *s, semp_kind kind, uint64_t initial)
{
    memset(s, 0, sizeof(*s));
    int err = os_memory_create(&s->mem, os_page_size(), SEMP_NAME, NULL);
    if (err)
        return err;
    if ((err = map_page(s))) {
        os_memory_close(&s->mem);
        return err;
    }
    struct semp_page *p = s->page;
    p->magic = SEMP_MAGIC;
    p->version = SEMP_VERSION;
    p->kind = (uint32_t)kind;
    atomic_store(&p->value, kind == SEMP_BINARY ? (initial ? 1 : 0) : initial);
    join(s);
    return 0;
}

int semp_open(os_handle h, struct semp *s, char *why, size_t why_size)
{
    memset(s, 0, sizeof(*s));
    char name[200];
    uint64_t id, size;
    int err = os_handle_identity(h, &id, &size, name, sizeof(name));
    if (err)
        return err;
    if (!strstr(name, SEMP_NAME) || size < sizeof(struct semp_page) || size > (1u << 20)) {
        snprintf(why, why_size, "is not a semaphore that extmem or its Vulkan layer exported (it is %s of %llu bytes)",
                 name[0] ? name : "an unnamed object", (unsigned long long)size);
        return EINVAL;
    }
    /* A payload whose size could change would fault under its mapper (SIGBUS). */
    if (!os_memory_size_is_fixed(h)) {
        snprintf(why, why_size, "is named like a semaphore payload but its size is not sealed");
        return EINVAL;
    }
    if ((err = os_handle_dup(h, &s->mem.handle)))
        return err;
    s->mem.size = (size_t)size;
    if ((err = map_page(s))) {
        os_handle_close(s->mem.handle);
        return err;
    }
    const struct semp_page *p = s->page;
    if (p->magic != SEMP_MAGIC || p->version != SEMP_VERSION || (p->kind != SEMP_BINARY && p->kind != SEMP_TIMELINE)) {
        snprintf(why, why_size, "is named like a semaphore payload but is not one of version %u (magic 0x%llx, version %u)",
                 SEMP_VERSION, (unsigned long long)p->magic, p->version);
        semp_close(s);
        return EINVAL;
    }
    join(s);
    return 0;
}

int semp_export(const struct semp *s, os_handle *out) { return os_memory_export(&s->mem, out); }

void semp_close(struct semp *s)
{
    if (!s->page)
        return;
    if (s->slot)
        atomic_store(&s->slot->owner, 0);
    os_waker_close(&s->waker);
    os_memory_unmap(s->page, s->mem.size);
    os_memory_close(&s->mem);
    s->page = NULL;
    s->slot = NULL;
}

semp_kind semp_kind_of(const struct semp *s) { return (semp_kind)s->page->kind; }

uint64_t semp_value(const struct semp *s) { return atomic_load(&s->page->value); }

static void raise_to(_Atomic uint64_t *v, uint64_t to)
{
    uint64_t was = atomic_load(v);
    while (was < to && !atomic_compare_exchange_weak(v, &was, to))
        ;
}

static void wake(struct semp *s)
{
    atomic_fetch_add(&s->page->wake, 1);
    os_wake_shared(&s->waker, (uint32_t *)&s->page->wake, (uint32_t *)&s->page->sleepers);
}

void semp_owe(struct semp *s, uint64_t value)
{
    if (!s->slot)
        return;
    if (s->page->kind == SEMP_BINARY)
        atomic_fetch_add(&s->slot->owed, 1);
    else
        raise_to(&s->slot->owed, value);
}

void semp_signal(struct semp *s, uint64_t value, bool owed)
{
    struct semp_page *p = s->page;
    if (p->kind == SEMP_BINARY) {
        /* The signal first, then the debt: a death between the two makes one signal too many
         * (a reaper adds the debt again), never one too few, which could hang a waiter. */
        atomic_fetch_add(&p->value, 1);
        if (owed && s->slot) {
            uint64_t debt = atomic_load(&s->slot->owed);
            while (debt && !atomic_compare_exchange_weak(&s->slot->owed, &debt, debt - 1))
                ;
        }
    } else {
        atomic_store(&p->value, value);
    }
    wake(s);
}

bool semp_try_pass(struct semp *s, uint64_t value)
{
    struct semp_page *p = s->page;
    if (atomic_load(&p->abandoned))
        return true;
    if (p->kind != SEMP_BINARY)
        return atomic_load(&p->value) >= value;
    uint64_t taken = atomic_load(&p->taken);
    while (atomic_load(&p->value) > taken)
        if (atomic_compare_exchange_weak(&p->taken, &taken, taken + 1))
            return true;
    return false;
}

/* Makes the owed signals of holders that died, frees their slots, and abandons the payload
 * when a holder died and no process but this one holds it any more, unless this process
 * owes a signal itself. Returns true when anything changed. */
static bool reap(struct semp *s)
{
    struct semp_page *p = s->page;
    uint64_t self = self_owner();
    bool changed = false, others_alive = false, self_owes = false;
    for (int i = 0; i < SEMP_HOLDERS; ++i) {
        struct semp_holder *h = &p->holders[i];
        uint64_t owner = atomic_load(&h->owner);
        if (!owner)
            continue;
        if (owner == self) {
            uint64_t owed = atomic_load(&h->owed);
            self_owes |= p->kind == SEMP_BINARY ? owed > 0 : owed > atomic_load(&p->value);
            continue;
        }
        if (owner_alive(owner)) {
            others_alive = true;
            continue;
        }
        uint64_t owed = atomic_exchange(&h->owed, 0);
        if (p->kind == SEMP_BINARY)
            atomic_fetch_add(&p->value, owed);
        else
            raise_to(&p->value, owed);
        /* Of several reapers, the one that frees the slot counts the death. */
        if (atomic_compare_exchange_strong(&h->owner, &owner, 0)) {
            atomic_fetch_add(&p->deaths, 1);
            s->dead_pid = (int)(owner >> 32);
        }
        changed = true;
    }
    if (!others_alive && !self_owes && atomic_load(&p->deaths) && !atomic_load(&p->abandoned)) {
        atomic_store(&p->abandoned, 1);
        changed = true;
    }
    if (changed)
        wake(s);
    return changed;
}

semp_wait_result semp_wait(struct semp *s, uint64_t value, uint64_t timeout_ns)
{
    struct semp_page *p = s->page;
    uint64_t start = os_time_ns(), checked = start;
    for (;;) {
        uint32_t word = atomic_load(&p->wake);
        if (semp_try_pass(s, value)) {
            if (atomic_load(&p->abandoned) && !atomic_exchange(&s->saw_abandoned, true))
                return SEMP_ABANDONED;
            return SEMP_PASSED;
        }
        uint64_t now = os_time_ns();
        if (timeout_ns != UINT64_MAX && now - start >= timeout_ns)
            return SEMP_TIMED_OUT;
        if (now - checked >= SEMP_CHECK_NS) {
            checked = now;
            if (reap(s))
                continue;
        }
        uint64_t left = timeout_ns == UINT64_MAX ? SEMP_CHECK_NS : timeout_ns - (now - start);
        if (left > SEMP_CHECK_NS)
            left = SEMP_CHECK_NS;
        uint32_t ms = (uint32_t)((left + 999999u) / 1000000u);
        os_wait_shared(&s->waker, (uint32_t *)&p->wake, word, (uint32_t *)&p->sleepers, ms ? ms : 1);
    }
}
