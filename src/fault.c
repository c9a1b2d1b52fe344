/*
 * Fault injection into the OS layer, for tests (os.h): failures the OS does not produce on
 * demand, such as an mprotect refused halfway through a cuMemSetAccess, so that the unwinding
 * of each one can be tested. One file for both OS layers: it needs nothing but os_getenv.
 *
 * EXTMEM_FAULT="<call>@<hex address>" makes every call of <call> (an os_* name) whose range
 * contains the address fail with the OS's out-of-memory error. The variable is read at each
 * call, so a test can set it around one API call; unset, it costs one getenv.
 */
#include "os.h"

#include <stdlib.h>
#include <string.h>

bool os_fault_injected(const char *call, const void *addr, size_t size)
{
    const char *spec = os_getenv("EXTMEM_FAULT");
    if (!spec || !spec[0])
        return false;
    size_t n = strlen(call);
    if (strncmp(spec, call, n) != 0 || spec[n] != '@')
        return false;
    char *end = NULL;
    unsigned long long at = strtoull(spec + n + 1, &end, 16);
    if (end == spec + n + 1)
        return false;
    uintptr_t base = (uintptr_t)addr;
    return at >= base && at - base < size;
}
