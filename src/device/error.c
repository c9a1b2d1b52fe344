/*
 * Errors explain themselves (DESIGN.md §5): every failing path records its code and a
 * reason in the calling thread, readable through extmem_error_detail(), and printed as it
 * happens under EXTMEM_LOG.
 */
#include "device/device.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Every name in the table must be declared by the public header (a typo fails the build). */
#define X(name, text) _Static_assert((int)name >= 0, #name);
#include "device/result_table.h"
#undef X

static OS_THREAD_LOCAL char detail[512];
static OS_THREAD_LOCAL CUresult detail_code;

static atomic_int level = -1;

static int level_from_env(void)
{
    const char *s = os_getenv("EXTMEM_LOG");
    if (!s || !*s)
        return LOG_OFF;
    static const char *const names[] = {"off", "error", "warn", "info", "trace"};
    for (int i = 0; i < 5; ++i)
        if (strcmp(s, names[i]) == 0)
            return i;
    return LOG_ERROR; /* set to something unknown: show errors, the common wish */
}

int log_level(void)
{
    int l = atomic_load_explicit(&level, memory_order_relaxed);
    if (l < 0) {
        l = level_from_env();
        atomic_store(&level, l);
    }
    return l;
}

void extmem_log_set(int l)
{
    atomic_store(&level, l < 0 ? LOG_OFF : l > LOG_TRACE ? LOG_TRACE : l);
}

CUresult extmem__fail(CUresult code, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    detail_code = code;
    /* NOT_READY is an answer (a query's "not yet"), not a failure: polling loops would fill the
     * log with it. */
    if (code != CUDA_ERROR_NOT_READY) {
        const char *name = result_name(code);
        char entry[sizeof(detail) + 64];
        snprintf(entry, sizeof entry, "%s [%s]", detail, name ? name : "?"); /* as EXTMEM_LOG shows it */
        logs_record(CU_LOG_LEVEL_ERROR, entry);
    }
    if (log_level() >= LOG_ERROR) {
        const char *name = result_name(code);
        fprintf(stderr, "extmem: error: %s [%s] (%s:%d)\n", detail, name ? name : "?", file, line);
    }
    return code;
}

CUresult extmem__fail_quietly(CUresult code, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    detail_code = code;
    if (log_level() >= LOG_INFO) {
        const char *name = result_name(code);
        fprintf(stderr, "extmem: info: %s [%s] (%s:%d)\n", detail, name ? name : "?", file, line);
    }
    return code;
}

CUresult extmem_error_set(CUresult code, const char *fmt, ...)
{
    char text[sizeof(detail)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    return extmem__fail(code, "interop", 0, "%s", text);
}

EXTMEM_PRINTF_FORMAT(3, 0) static void log_at(int at, const char *label, const char *fmt, va_list ap)
{
    if (log_level() < at)
        return;
    char buf[512];
    vsnprintf(buf, sizeof(buf), fmt, ap);
    fprintf(stderr, "extmem: %s: %s\n", label, buf);
}

void log_info(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_at(LOG_INFO, "info", fmt, ap);
    va_end(ap);
}

void log_warn(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    logs_record(CU_LOG_LEVEL_WARNING, buf);
    if (log_level() >= LOG_WARN)
        fprintf(stderr, "extmem: warning: %s\n", buf);
}

const char *extmem_error_detail(void) { return detail; }
CUresult extmem_error_code(void) { return detail_code; }

void extmem_error_clear(void)
{
    detail[0] = '\0';
    detail_code = CUDA_SUCCESS;
}

const char *result_name(CUresult code)
{
    switch (code) {
#define X(name, text) \
    case name:        \
        return #name;
#include "device/result_table.h"
#undef X
    }
    return NULL;
}

static const char *result_text(CUresult code)
{
    switch (code) {
#define X(name, text) \
    case name:        \
        return text;
#include "device/result_table.h"
#undef X
    }
    return NULL;
}

/* Both work before cuInit, as the driver's do. */
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr)
{
    if (!pStr)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGetErrorName: pStr is NULL");
    *pStr = result_name(error);
    if (!*pStr)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGetErrorName: %d is not a CUresult", (int)error);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr)
{
    if (!pStr)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGetErrorString: pStr is NULL");
    *pStr = result_text(error);
    if (!*pStr)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuGetErrorString: %d is not a CUresult", (int)error);
    return CUDA_SUCCESS;
}

const char *extmem_version(void) { return EXTMEM_VERSION_STRING; }
