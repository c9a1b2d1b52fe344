/*
 * What the native kernel tier needs from Windows (src/kernel/native_cache.c). No C compiler is
 * run on Windows: os_run answers ERROR_NOT_SUPPORTED and the portable tier runs the kernels
 * (docs/kernels.md); loading libraries and the cache's files work as on POSIX.
 */
#include "os.h"
#include "win32.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int os_run(const char *const *argv, char *out, size_t out_size, int *status)
{
    (void)argv;
    if (out_size)
        out[0] = 0;
    *status = -1;
    return ERROR_NOT_SUPPORTED;
}

int os_library_open(const char *path, void **lib, char *why, size_t why_size)
{
    HMODULE h = LoadLibraryA(path);
    if (!h) {
        int err = (int)GetLastError();
        snprintf(why, why_size, "LoadLibrary failed (error %d)", err);
        *lib = NULL;
        return err;
    }
    *lib = (void *)h;
    return 0;
}

void *os_library_symbol(void *lib, const char *name)
{
    FARPROC p = GetProcAddress((HMODULE)lib, name);
    void *v;
    memcpy(&v, &p, sizeof(v));
    return v;
}

void os_library_close(void *lib) { FreeLibrary((HMODULE)lib); }

int os_make_dir(const char *path)
{
    if (CreateDirectoryA(path, NULL))
        return 0;
    int err = (int)GetLastError();
    if (err == ERROR_ALREADY_EXISTS) {
        DWORD a = GetFileAttributesA(path);
        if (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY))
            return 0;
    }
    return err;
}

int os_rename_replace(const char *from, const char *to)
{
    return MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING) ? 0 : (int)GetLastError();
}

void os_remove_file(const char *path) { DeleteFileA(path); }

const char *os_temp_dir(void)
{
    const char *t = getenv("TEMP");
    if (!t || !*t)
        t = getenv("TMP");
    return t && *t ? t : ".";
}
