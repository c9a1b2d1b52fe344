/* Waiting on a word of memory with futexes; shared futexes work across processes that map
 * the same memory (interprocess events). */
#include "os.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void os_wait_on(void *addr, uint32_t expected, bool shared)
{
    syscall(SYS_futex, addr, shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void os_wake_all(void *addr, bool shared)
{
    syscall(SYS_futex, addr, shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}

int os_waker_open(const os_memory *page, os_waker *w)
{
    (void)page;
    w->semaphore = OS_INVALID_HANDLE; /* shared futexes need nothing beside the memory */
    return 0;
}

void os_waker_close(os_waker *w) { (void)w; }

void os_wait_shared(os_waker *w, uint32_t *word, uint32_t expected, uint32_t *sleepers)
{
    (void)w;
    (void)sleepers;
    os_wait_on(word, expected, true);
}

void os_wake_shared(os_waker *w, uint32_t *word, uint32_t *sleepers)
{
    (void)w;
    (void)sleepers;
    os_wake_all(word, true);
}
