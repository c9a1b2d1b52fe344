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
