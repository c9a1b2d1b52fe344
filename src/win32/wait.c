/*
 * Waiting on a word of memory on Windows. WaitOnAddress and WakeByAddressAll work within one
 * process only. A word in memory shared with other processes (an interprocess event's state)
 * has a named semaphore beside its section, `<section's name>-wake`, with the section's
 * owner-only DACL; waiters count themselves in a second shared word before they check the
 * first and sleep, and a waker that changed the first word releases the semaphore once per
 * counted sleeper. A sleeper that checks the word before the change is counted before the
 * waker reads the count (both are sequentially consistent atomics), so no wake-up is lost;
 * a sleeper that saw the change and left stays counted, which costs a later waiter one
 * spurious wake-up, which os.h allows.
 */
#include "os.h"
#include "win32.h"

#include <stdatomic.h>
#include <stdio.h>

void os_wait_on(void *addr, uint32_t expected) { WaitOnAddress(addr, &expected, sizeof(expected), INFINITE); }

void os_wake_all(void *addr) { WakeByAddressAll(addr); }

int os_waker_open(const os_memory *page, os_waker *w)
{
    uint64_t size;
    char name[256], full[300];
    bool not_section;
    int err = win32_section_info(page->handle, &size, name, sizeof(name), &not_section);
    if (err)
        return err;
    if (!name[0])
        return ERROR_INVALID_PARAMETER; /* only named sections are shared across processes */
    snprintf(full, sizeof(full), "Local\\%s-wake", name);
    /* Creates it, or opens the one the other process made. */
    HANDLE h = CreateSemaphoreA(win32_owner_only(), 0, 0x7fffffff, full);
    if (!h)
        return (int)GetLastError();
    w->semaphore = h;
    return 0;
}

void os_waker_close(os_waker *w)
{
    if (w->semaphore)
        CloseHandle(w->semaphore);
    w->semaphore = NULL;
}

void os_wait_shared(os_waker *w, uint32_t *word, uint32_t expected, uint32_t *sleepers, uint32_t timeout_ms)
{
    _Atomic uint32_t *count = (_Atomic uint32_t *)sleepers, *value = (_Atomic uint32_t *)word;
    /* A sleeper that times out stays counted, like one that saw the change and left: a later
     * waiter pays one spurious wake-up for it. */
    atomic_fetch_add(count, 1);
    if (atomic_load(value) == expected)
        WaitForSingleObject(w->semaphore, timeout_ms);
}

void os_wake_shared(os_waker *w, uint32_t *word, uint32_t *sleepers)
{
    (void)word;
    uint32_t n = atomic_exchange((_Atomic uint32_t *)sleepers, 0);
    if (n)
        ReleaseSemaphore(w->semaphore, (LONG)(n > 0x7fffffff ? 0x7fffffff : n), NULL);
}
