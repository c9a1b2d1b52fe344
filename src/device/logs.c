/*
 * The driver's log (CUDA 12.9): cuLogsRegisterCallback, cuLogsUnregisterCallback,
 * cuLogsCurrent, cuLogsDumpToFile, cuLogsDumpToMemory.
 *
 * extmem already gives every failure a reason (error.c, DESIGN.md §5). Each reason, and each
 * warning, is also an entry of this log: numbered in order (an iterator is the number of the
 * next entry, so cuLogsCurrent names "from now on"), kept in a bounded buffer, and handed to the
 * registered callbacks as it happens. A query's CUDA_ERROR_NOT_READY is an answer, not a
 * failure, and is not logged (error.c). What NVIDIA's driver does, measured (H200, 580.159.04,
 * docs/probes/managed/probe.out), and kept here: a dump is one line per entry,
 * "[HH:MM:SS.mmm][thread][CUDA][E] message" ([W] for warnings), a callback gets the message
 * alone; the newest 100 entries are kept (CUDA documents a buffer of 25600 bytes: both bounds
 * hold here); a dump that misses entries begins with a line saying so; the flags, which CUDA
 * reserves, are ignored; cuLogsDumpToFile writes the file anew. The driver logs two entries per
 * failure (the reason, then "Returning N (NAME) from function"); extmem logs one, its reason
 * with the code's name.
 *
 * Callbacks run in the thread that failed, without the log's lock held, so a callback may call
 * CUDA; failures inside a callback are logged but not handed to callbacks again (that would
 * recurse for ever). A delivery holds a reference on each registration it calls, taken under
 * the log's lock; cuLogsUnregisterCallback takes the registration off the list, then waits until
 * no delivery holds it, so when it returns no thread is still running that callback and its
 * userData may be freed (a callback that unregisters cannot wait for itself: the last delivery
 * to let go frees the registration instead). No lock is held while a callback runs, so a
 * callback's own failures (which take the log's lock) cannot deadlock with other threads.
 */
#include "device/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_BYTES 25600 /* what CUDA documents for its buffer */
#define LOG_SLOTS 100   /* what NVIDIA's driver keeps */
#define MESSAGE_MAX 1024

struct CUlogsCallbackEntry_st {
    CUlogsCallback fn;
    void *data;
    struct CUlogsCallbackEntry_st *next;
    atomic_int refs; /* 1 for the list while registered, 1 per delivery calling it */
};

static os_mutex lock = OS_MUTEX_INITIALIZER;
static struct {
    char *text;
    size_t len;
    CUlogLevel level;
} ring[LOG_SLOTS];
static uint32_t oldest, next; /* entries [oldest, next) are kept, at ring[seq % LOG_SLOTS] */
static size_t kept_bytes;
static struct CUlogsCallbackEntry_st *callbacks;
static OS_THREAD_LOCAL bool in_callback;
static OS_THREAD_LOCAL unsigned thread_number; /* the [thread] of a dump line: 1, 2, ... */
static atomic_uint threads_seen;

/* With the lock held: drops the oldest entry. */
static void drop_oldest(void)
{
    size_t i = oldest % LOG_SLOTS;
    kept_bytes -= ring[i].len;
    free(ring[i].text);
    ring[i].text = NULL;
    ring[i].len = 0;
    ++oldest;
}

/* The entry as a dump shows it: "[HH:MM:SS.mmm][thread][CUDA][E] message" (UTC). */
static char *dump_line(int level, const char *text, size_t len, size_t *out_len)
{
    uint64_t now = os_wall_time_ns();
    long day = (long)(now / 1000000000u % 86400), ms = (long)(now / 1000000u % 1000);
    if (!thread_number)
        thread_number = atomic_fetch_add(&threads_seen, 1) + 1;
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "[%02ld:%02ld:%02ld.%03ld][%u][CUDA][%c] ", day / 3600, day / 60 % 60,
                     day % 60, ms, thread_number, level == CU_LOG_LEVEL_ERROR ? 'E' : 'W');
    size_t plen = n > 0 ? (size_t)n : 0;
    char *line = malloc(plen + len + 1);
    if (line) {
        memcpy(line, prefix, plen);
        memcpy(line + plen, text, len);
        line[plen + len] = '\0';
        *out_len = plen + len;
    }
    return line;
}

static void entry_release(struct CUlogsCallbackEntry_st *c)
{
    if (atomic_fetch_sub(&c->refs, 1) == 1)
        free(c);
}

/* Waits until c is held by nothing but the caller's reference: no delivery is calling it. */
static void wait_for_deliveries(struct CUlogsCallbackEntry_st *c)
{
    if (atomic_load(&c->refs) == 1)
        return;
    os_mutex nap_lock;
    os_cond nap;
    os_mutex_init(&nap_lock);
    os_cond_init(&nap);
    os_mutex_lock(&nap_lock);
    while (atomic_load(&c->refs) > 1)
        os_cond_timedwait(&nap, &nap_lock, 200u * 1000u); /* nobody signals it: a short sleep */
    os_mutex_unlock(&nap_lock);
    os_cond_destroy(&nap);
    os_mutex_destroy(&nap_lock);
}

void logs_record(int level, const char *text)
{
    size_t len = strlen(text);
    if (len > MESSAGE_MAX)
        len = MESSAGE_MAX;
    size_t line_len = 0;
    char *line = dump_line(level, text, len, &line_len);
    struct CUlogsCallbackEntry_st *call[16];
    size_t ncall = 0;
    os_mutex_lock(&lock);
    if (line) {
        while (next - oldest == LOG_SLOTS || (next != oldest && kept_bytes + line_len > LOG_BYTES))
            drop_oldest();
        size_t i = next % LOG_SLOTS;
        ring[i].text = line;
        ring[i].len = line_len;
        ring[i].level = (CUlogLevel)level;
        kept_bytes += line_len;
    } else { /* no memory for its text: counted all the same, it reads as dropped, with all before it */
        while (oldest != next)
            drop_oldest();
    }
    ++next;
    if (!line)
        oldest = next;
    if (!in_callback)
        for (struct CUlogsCallbackEntry_st *c = callbacks; c && ncall < 16; c = c->next) {
            atomic_fetch_add(&c->refs, 1); /* before the list can change: an unregistration waits for it */
            call[ncall++] = c;
        }
    os_mutex_unlock(&lock);
    if (!ncall)
        return;
    char message[MESSAGE_MAX + 1];
    in_callback = true;
    for (size_t i = 0; i < ncall; ++i) {
        /* Each callback gets a copy of its own: the message is not const in CUDA's signature. */
        memcpy(message, text, len);
        message[len] = '\0';
        call[i]->fn(call[i]->data, (CUlogLevel)level, message, len);
        entry_release(call[i]);
    }
    in_callback = false;
}

CUresult CUDAAPI cuLogsRegisterCallback(CUlogsCallback callbackFunc, void *userData,
                                        CUlogsCallbackHandle *callback_out)
{
    static const char fn[] = "cuLogsRegisterCallback";
    if (!callbackFunc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: callbackFunc is NULL", fn);
    struct CUlogsCallbackEntry_st *c = calloc(1, sizeof(*c));
    if (!c)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the callback", fn);
    c->fn = callbackFunc;
    c->data = userData;
    atomic_init(&c->refs, 1);
    size_t count = 0;
    os_mutex_lock(&lock);
    for (struct CUlogsCallbackEntry_st *it = callbacks; it; it = it->next)
        ++count;
    if (count < 16) {
        /* At the end: callbacks run in the order they were registered. */
        struct CUlogsCallbackEntry_st **at = &callbacks;
        while (*at)
            at = &(*at)->next;
        *at = c;
    }
    os_mutex_unlock(&lock);
    if (count >= 16) {
        free(c);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: 16 callbacks are registered already, extmem's limit", fn);
    }
    /* callback_out is optional (CUDA): without it the callback can never be unregistered. */
    if (callback_out)
        *callback_out = c;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLogsUnregisterCallback(CUlogsCallbackHandle callback)
{
    static const char fn[] = "cuLogsUnregisterCallback";
    if (!callback)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: callback is NULL", fn);
    os_mutex_lock(&lock);
    struct CUlogsCallbackEntry_st **at = &callbacks;
    while (*at && *at != callback)
        at = &(*at)->next;
    struct CUlogsCallbackEntry_st *found = *at;
    if (found)
        *at = found->next;
    os_mutex_unlock(&lock);
    if (!found)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %p is not a registered callback (unregistered already, or forged)",
                    fn, (void *)callback);
    if (!in_callback) /* deliveries in other threads may still be running it */
        wait_for_deliveries(found);
    entry_release(found);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLogsCurrent(CUlogIterator *iterator_out, unsigned int flags)
{
    static const char fn[] = "cuLogsCurrent";
    (void)flags; /* reserved by CUDA, and ignored by NVIDIA's driver (H200, 580.159.04) */
    if (!iterator_out)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: iterator_out is NULL", fn);
    os_mutex_lock(&lock);
    *iterator_out = next;
    os_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

/* With the lock held: the first entry a dump from `iterator` shows (NULL: every kept entry),
 * and how many entries before it were asked for but are gone. */
static uint32_t dump_start(const CUlogIterator *iterator, uint32_t *lost)
{
    *lost = 0;
    if (!iterator)
        return oldest;
    uint32_t from = *iterator;
    if (next - from > next - oldest) { /* before the oldest kept, or after the newest */
        if (oldest - from <= UINT32_MAX / 2) {
            *lost = oldest - from;
            return oldest;
        }
        return next; /* an iterator from the future: nothing yet */
    }
    return from;
}

/* With the lock held: the oldest entry from which the entries up to the newest fit in cap
 * bytes, `used` of them taken already; next when not even the newest fits. */
static uint32_t fit_from(uint32_t from, size_t used, size_t cap)
{
    uint32_t first = next;
    while (first != from) {
        size_t len = ring[(first - 1) % LOG_SLOTS].len + 1;
        if (used + len > cap)
            break;
        used += len;
        --first;
    }
    return first;
}

/* The line a dump begins with when entries it was asked for are missing: dropped from the log
 * (rolled over, as NVIDIA's driver says) or left out for want of room in the buffer. */
static int missing_note(char *out, size_t size, uint32_t missing, bool rolled_over)
{
    if (rolled_over)
        return snprintf(out, size, "[extmem] the log has dropped its oldest entries since this iterator: %u are "
                        "missing\n", missing);
    return snprintf(out, size, "[extmem] the buffer is too small for every entry: the oldest %u are missing\n",
                    missing);
}

CUresult CUDAAPI cuLogsDumpToMemory(CUlogIterator *iterator, char *buffer, size_t *size, unsigned int flags)
{
    static const char fn[] = "cuLogsDumpToMemory";
    (void)flags; /* as cuLogsCurrent */
    if (!buffer || !size)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !buffer ? "buffer" : "size");
    size_t cap = *size;
    os_mutex_lock(&lock);
    uint32_t lost;
    uint32_t from = dump_start(iterator, &lost);
    if (from == next) {
        uint32_t now = next; /* read under the lock: other threads append */
        os_mutex_unlock(&lock);
        if (iterator)
            *iterator = now;
        if (cap)
            buffer[0] = '\0';
        *size = 0;
        return CUDA_SUCCESS;
    }
    /* The newest entries that fit, with the terminating NUL, behind a note when some asked for
     * are missing. A buffer too small for the newest entry gets the note alone, if it fits
     * (NVIDIA's driver: 120 bytes, *size 92 and the note; 20 bytes, *size 0), the iterator
     * stays, and the call fails. */
    char note[160];
    uint32_t first = fit_from(from, 1, cap);
    bool missing = lost || first != from;
    size_t note_len = 0;
    if (missing) {
        /* The count in the note is at most the entries asked for: size it for that. */
        int n = missing_note(note, sizeof note, lost + (next - from), lost != 0);
        uint32_t with_note = n > 0 ? fit_from(from, 1 + (size_t)n, cap) : next;
        if (with_note != next || first == next) {
            first = with_note;
            n = missing_note(note, sizeof note, lost + (first - from), lost != 0);
            note_len = n > 0 && (size_t)n < cap ? (size_t)n : 0;
        }
    }
    memcpy(buffer, note, note_len);
    size_t at = note_len;
    for (uint32_t s = first; s != next; ++s) {
        size_t i = s % LOG_SLOTS;
        memcpy(buffer + at, ring[i].text, ring[i].len);
        at += ring[i].len;
        buffer[at++] = '\n';
    }
    if (cap)
        buffer[at] = '\0';
    uint32_t end = next;
    bool none = first == next;
    os_mutex_unlock(&lock);
    *size = at;
    if (none)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: *size %zu bytes hold not even the newest entry", fn, cap);
    if (iterator)
        *iterator = end;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLogsDumpToFile(CUlogIterator *iterator, const char *pathToFile, unsigned int flags)
{
    static const char fn[] = "cuLogsDumpToFile";
    (void)flags; /* as cuLogsCurrent */
    if (!pathToFile)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pathToFile is NULL", fn);
    /* The whole log fits the buffer: it is at most LOG_BYTES of text, a newline per entry and
     * the note. */
    size_t size = LOG_BYTES + LOG_SLOTS + 256;
    char *text = malloc(size);
    if (!text)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the log's text", fn);
    CUlogIterator it = 0;
    if (iterator)
        it = *iterator;
    CUresult r = cuLogsDumpToMemory(iterator ? &it : NULL, text, &size, 0);
    if (r) {
        free(text);
        return r;
    }
    /* Written anew, as NVIDIA's driver does (a dump from the same iterator twice leaves one copy). */
    FILE *f = fopen(pathToFile, "wb");
    if (!f) {
        free(text);
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: cannot open %s for writing", fn, pathToFile);
    }
    bool ok = fwrite(text, 1, size, f) == size;
    ok = fclose(f) == 0 && ok;
    free(text);
    if (!ok)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: writing %zu bytes to %s failed", fn, size, pathToFile);
    if (iterator)
        *iterator = it;
    return CUDA_SUCCESS;
}
