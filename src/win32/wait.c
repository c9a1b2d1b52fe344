/*
 * Waiting on a word of memory on Windows. WaitOnAddress and WakeByAddressAll work within one
 * process only; a shared word (an interprocess event) may be changed by another process,
 * whose wake-up never reaches this one, so a shared wait also wakes itself every millisecond
 * (os_wait_on may return spuriously: its callers re-check the word). A true interprocess wait
 * needs a named kernel event beside the shared page (still to do, issue 7).
 */
#include "os.h"
#include "win32.h"

void os_wait_on(void *addr, uint32_t expected, bool shared)
{
    WaitOnAddress(addr, &expected, sizeof(expected), shared ? 1 : INFINITE);
}

void os_wake_all(void *addr, bool shared)
{
    (void)shared;
    WakeByAddressAll(addr);
}
