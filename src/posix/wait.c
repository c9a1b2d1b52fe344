/* Waiting on a word of memory with futexes; shared futexes work across processes that map
 * the same memory (interprocess events). */
#include "os.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void futex_wait(void *addr, uint32_t expected, int op, const struct timespec *timeout)
{
    syscall(SYS_futex, addr, op, expected, timeout, NULL, 0);
}

static void futex_wake_all(void *addr, int op)
{
    syscall(SYS_futex, addr, op, 0x7fffffff, NULL, NULL, 0);
}

void os_wait_on(void *addr, uint32_t expected) { futex_wait(addr, expected, FUTEX_WAIT_PRIVATE, NULL); }

void os_wake_all(void *addr) { futex_wake_all(addr, FUTEX_WAKE_PRIVATE); }

int os_waker_open(const os_memory *page, os_waker *w)
{
    (void)page;
    w->semaphore = OS_INVALID_HANDLE; /* shared futexes need nothing beside the memory */
    return 0;
}

void os_waker_close(os_waker *w) { (void)w; }

void os_wait_shared(os_waker *w, uint32_t *word, uint32_t expected, uint32_t *sleepers, uint32_t timeout_ms)
{
    (void)w;
    (void)sleepers;
    struct timespec timeout = {(time_t)(timeout_ms / 1000), (long)(timeout_ms % 1000) * 1000000L}; /* relative */
    futex_wait(word, expected, FUTEX_WAIT, &timeout);
}

void os_wake_shared(os_waker *w, uint32_t *word, uint32_t *sleepers)
{
    (void)w;
    (void)sleepers;
    futex_wake_all(word, FUTEX_WAKE);
}
