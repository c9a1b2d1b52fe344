/*
 * A map from handles to the layer's records: open addressing with linear probing. Handles
 * are never 0 (VK_NULL_HANDLE), so 0 marks an empty slot; a removed entry leaves a tombstone
 * (key 0, value `tombstone`) so that probes for keys placed after it still find them.
 */
#include "layer.h"

#include <errno.h>
#include <stdlib.h>

static char tombstone_mark;
#define TOMBSTONE ((void *)&tombstone_mark)

static size_t slot_of(uint64_t key, size_t capacity)
{
    key ^= key >> 33; /* handles are pointers or counters: mix the bits before masking */
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (capacity - 1);
}

static int grow(struct lmap *m)
{
    size_t capacity = m->capacity ? m->capacity * 2 : 16;
    if (m->count * 2 < m->capacity)
        capacity = m->capacity; /* mostly tombstones: rebuild at the same size */
    uint64_t *keys = calloc(capacity, sizeof(*keys));
    void **values = calloc(capacity, sizeof(*values));
    if (!keys || !values) {
        free(keys);
        free(values);
        return ENOMEM;
    }
    for (size_t i = 0; i < m->capacity; ++i) {
        if (!m->keys[i])
            continue;
        size_t j = slot_of(m->keys[i], capacity);
        while (keys[j])
            j = (j + 1) & (capacity - 1);
        keys[j] = m->keys[i];
        values[j] = m->values[i];
    }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->capacity = capacity;
    m->tombstones = 0;
    return 0;
}

static size_t find(const struct lmap *m, uint64_t key);

int lmap_put(struct lmap *m, uint64_t key, void *value)
{
    size_t i = find(m, key);
    if (i != SIZE_MAX) {
        m->values[i] = value;
        return 0;
    }
    if ((m->count + m->tombstones + 1) * 4 > m->capacity * 3) {
        int err = grow(m);
        if (err)
            return err;
    }
    i = slot_of(key, m->capacity);
    while (m->keys[i]) /* the first empty slot or tombstone: key is not in the map */
        i = (i + 1) & (m->capacity - 1);
    if (m->values[i] == TOMBSTONE)
        m->tombstones--;
    m->count++;
    m->keys[i] = key;
    m->values[i] = value;
    return 0;
}

static size_t find(const struct lmap *m, uint64_t key)
{
    if (!m->capacity || !key)
        return SIZE_MAX;
    for (size_t i = slot_of(key, m->capacity), n = 0; n < m->capacity; i = (i + 1) & (m->capacity - 1), ++n) {
        if (m->keys[i] == key)
            return i;
        if (!m->keys[i] && m->values[i] != TOMBSTONE)
            return SIZE_MAX;
    }
    return SIZE_MAX;
}

void *lmap_get(const struct lmap *m, uint64_t key)
{
    size_t i = find(m, key);
    return i == SIZE_MAX ? NULL : m->values[i];
}

void *lmap_remove(struct lmap *m, uint64_t key)
{
    size_t i = find(m, key);
    if (i == SIZE_MAX)
        return NULL;
    void *value = m->values[i];
    m->keys[i] = 0;
    m->values[i] = TOMBSTONE;
    m->count--;
    m->tombstones++;
    return value;
}

size_t lmap_remove_value(struct lmap *m, const void *value)
{
    size_t n = 0;
    for (size_t i = 0; i < m->capacity; ++i) {
        if (m->keys[i] && m->values[i] == value) {
            m->keys[i] = 0;
            m->values[i] = TOMBSTONE;
            m->count--;
            m->tombstones++;
            n++;
        }
    }
    return n;
}

void lmap_free(struct lmap *m)
{
    free(m->keys);
    free(m->values);
    *m = (struct lmap){0};
}
