/*
 * What the native kernel tier needs from Windows (src/kernel/native_cache.c). No C compiler is
 * run on Windows: os_run answers ERROR_NOT_SUPPORTED, so the native tier never starts and the
 * portable tier runs the kernels (docs/kernels.md). Nothing here is ever reached with a
 * compiled library, so the cache's folder calls refuse too rather than half-implement the
 * POSIX layer's trust checks.
 */
#include "os.h"
#include "win32.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Windows has no set-uid programs: a process's environment is its own. */
bool os_privileged(void) { return false; }

static int refuse(char *why, size_t why_size)
{
    if (why_size)
        snprintf(why, why_size, "the native kernel tier does not run on Windows");
    return ERROR_NOT_SUPPORTED;
}

int os_dir_open_private(const char *path, os_dir **out, char *why, size_t why_size)
{
    (void)path;
    *out = NULL;
    return refuse(why, why_size);
}

int os_dir_make_temp(const char *prefix, os_dir **out, char *why, size_t why_size)
{
    (void)prefix;
    *out = NULL;
    return refuse(why, why_size);
}

const char *os_dir_path(const os_dir *d)
{
    (void)d;
    return "";
}

void os_dir_close(os_dir *d, bool remove)
{
    (void)d;
    (void)remove;
}

int os_dir_read(os_dir *d, const char *name, bool secret, size_t max, char **data, size_t *len, char *why,
                size_t why_size)
{
    (void)d, (void)name, (void)secret, (void)max;
    *data = NULL;
    *len = 0;
    return refuse(why, why_size);
}

int os_dir_write(const os_dir *d, const char *name, const void *data, size_t len, bool replace)
{
    (void)d, (void)name, (void)data, (void)len, (void)replace;
    return ERROR_NOT_SUPPORTED;
}

int os_dir_load(os_dir *d, const char *name, bool (*check)(const char *data, size_t len, void *ctx), void *ctx,
                void **lib, char *why, size_t why_size)
{
    (void)d, (void)name, (void)check, (void)ctx;
    *lib = NULL;
    return refuse(why, why_size);
}

void *os_library_symbol(void *lib, const char *name)
{
    FARPROC p = GetProcAddress((HMODULE)lib, name);
    void *v;
    memcpy(&v, &p, sizeof(v));
    return v;
}

void os_library_close(void *lib) { FreeLibrary((HMODULE)lib); }

int os_run(const char *const *argv, const struct os_run_options *o, char *out, size_t out_size, int *status)
{
    (void)argv;
    (void)o;
    if (out_size)
        out[0] = 0;
    *status = -1;
    return ERROR_NOT_SUPPORTED;
}
