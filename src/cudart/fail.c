/*
 * src/cudart/fail.c: the runtime's link to the driver's error record, in the libcudart
 * drop-ins.
 *
 * In libextmem the runtime layer records a failure's reason with the core's extmem__fail. The
 * drop-in libcudart.so.13 holds the runtime layer alone and reaches the driver through
 * libcuda.so.1 (as NVIDIA's runtime does), where only the public API is visible: the reason
 * goes through extmem_error_set, so extmem_error_detail() and EXTMEM_LOG show it as before.
 */
#include <stdarg.h>
#include <stdio.h>

#include "extmem/extmem.h"
#include "runtime/runtime.h"

CUresult extmem__fail(CUresult code, const char *file, int line, const char *fmt, ...)
{
    (void)file, (void)line;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return extmem_error_set(code, "%s", text);
}
