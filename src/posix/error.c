/* OS errors on POSIX: errno values, translated in this one place (STYLE.md 4). */
#include "os.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int os_last_error(void) { return errno; }

const char *os_error_string(int err, char *buf, size_t size)
{
    char text[128];
    /* GNU strerror_r may return a static string instead of filling text. */
    const char *s = strerror_r(err, text, sizeof(text));
    snprintf(buf, size, "%s (errno %d)", s, err);
    return buf;
}

bool os_error_is_out_of_memory(int err)
{
    return err == ENOMEM || err == ENOSPC || err == EMFILE || err == ENFILE || err == EFBIG;
}

bool os_error_is_access_denied(int err) { return err == EACCES || err == EPERM; }
