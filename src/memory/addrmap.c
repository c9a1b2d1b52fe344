/*
 * The address maps: which allocation holds a device address? A treap keyed by base address
 * answers in O(log n) (DESIGN.md §6); ranges in one map never overlap. One reader-writer
 * lock guards both maps.
 */
#include "memory/memory.h"

struct amap amap_memory, amap_reservations;

static os_rwlock map_lock = OS_RWLOCK_INITIALIZER;
static uint32_t seed = 2463534242u;

void amap_lock_read(void) { os_rwlock_read(&map_lock); }
void amap_lock_write(void) { os_rwlock_write(&map_lock); }
void amap_unlock(void) { os_rwlock_unlock(&map_lock); }

static uint32_t next_priority(void)
{
    /* xorshift32: priorities only need to look random to keep the treap balanced. Called
     * with the write lock held. */
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return seed;
}

static struct range *merge(struct range *a, struct range *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    if (a->priority > b->priority) {
        a->right = merge(a->right, b);
        return a;
    }
    b->left = merge(a, b->left);
    return b;
}

/* Splits t into ranges with base < key (*lo) and base >= key (*hi). */
static void split(struct range *t, uintptr_t key, struct range **lo, struct range **hi)
{
    if (!t) {
        *lo = *hi = NULL;
    } else if (t->base < key) {
        split(t->right, key, &t->right, hi);
        *lo = t;
    } else {
        split(t->left, key, lo, &t->left);
        *hi = t;
    }
}

void amap_insert(struct amap *m, struct range *r)
{
    r->left = r->right = NULL;
    r->priority = next_priority();
    struct range *lo, *hi;
    split(m->root, r->base, &lo, &hi);
    m->root = merge(merge(lo, r), hi);
    m->count++;
}

void amap_remove(struct amap *m, struct range *r)
{
    struct range **link = &m->root;
    while (*link && *link != r)
        link = r->base < (*link)->base ? &(*link)->left : &(*link)->right;
    if (*link) {
        *link = merge(r->left, r->right);
        m->count--;
    }
}

/* The range with the greatest base <= addr. */
static struct range *floor_range(const struct amap *m, uintptr_t addr)
{
    struct range *t = m->root, *best = NULL;
    while (t) {
        if (t->base <= addr) {
            best = t;
            t = t->right;
        } else {
            t = t->left;
        }
    }
    return best;
}

struct range *amap_find(const struct amap *m, uintptr_t addr)
{
    struct range *r = floor_range(m, addr);
    return r && addr - r->base < r->map_size ? r : NULL;
}

struct range *amap_overlap(const struct amap *m, uintptr_t base, size_t size)
{
    /* Ranges do not overlap one another, so only the last one that starts before the end
     * can reach into [base, base + size). */
    struct range *r = size ? floor_range(m, base + size - 1) : NULL;
    return r && r->base + r->map_size > base ? r : NULL;
}

struct range *amap_next(const struct amap *m, uintptr_t addr)
{
    struct range *t = m->root, *best = NULL;
    while (t) {
        if (t->base >= addr) {
            best = t;
            t = t->left;
        } else {
            t = t->right;
        }
    }
    return best;
}

struct range *amap_find_overlap(const struct amap *m, uintptr_t addr, size_t size)
{
    struct range *r = amap_find(m, addr);
    if (r)
        return r;
    r = amap_next(m, addr);
    return r && r->base - addr < size ? r : NULL;
}
