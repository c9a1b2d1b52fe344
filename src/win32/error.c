/* OS errors on Windows: GetLastError codes, translated in this one place (STYLE.md 4). The
 * raw code stays in the text, since FormatMessage's wording depends on the system language. */
#include "os.h"
#include "win32.h"

#include <stdio.h>
#include <string.h>

int os_last_error(void) { return (int)GetLastError(); }

const char *os_error_string(int err, char *buf, size_t size)
{
    char text[256];
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, (DWORD)err,
                             MAKELANGID(LANG_ENGLISH, SUBLANG_DEFAULT), text, sizeof(text), NULL);
    if (n == 0) /* no English text installed: the user's language */
        n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, (DWORD)err, 0, text,
                           sizeof(text), NULL);
    /* The messages end in ".\r\n", which does not fit inside extmem's sentences. */
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' ' || text[n - 1] == '.'))
        n--;
    text[n] = '\0';
    snprintf(buf, size, "%s (Windows error %d)", n ? text : "unknown error", err);
    return buf;
}

bool os_error_is_out_of_memory(int err)
{
    switch (err) {
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
    case ERROR_COMMITMENT_LIMIT:
    case ERROR_NO_SYSTEM_RESOURCES:
    case ERROR_NONPAGED_SYSTEM_RESOURCES:
    case ERROR_PAGED_SYSTEM_RESOURCES:
    case ERROR_PAGEFILE_QUOTA:
    case ERROR_WORKING_SET_QUOTA:
    case ERROR_DISK_FULL:
    case ERROR_TOO_MANY_OPEN_FILES:
        return true;
    default:
        return false;
    }
}

bool os_error_is_access_denied(int err) { return err == ERROR_ACCESS_DENIED || err == ERROR_PRIVILEGE_NOT_HELD; }
