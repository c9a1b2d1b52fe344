/*
 * src/device/error.h: how every layer fails and logs (error.c). A leaf: the kernel engine
 * (src/kernel) reports through it too.
 *
 * Entry points validate at the door and record why they fail (STYLE.md 2, 3); the layers
 * below trust their arguments.
 */
#ifndef EXTMEM_DEVICE_ERROR_H
#define EXTMEM_DEVICE_ERROR_H

#include "extmem/extmem.h"

/* ---- Errors (error.c) ---- */

/* Records code with a reason ("function: what: why") for this thread, logs it under
 * EXTMEM_LOG, and returns code: `return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc: ...")`. */
CUresult extmem__fail(CUresult code, const char *file, int line, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(4, 5);
#define fail(code, ...) extmem__fail((code), __FILE__, __LINE__, __VA_ARGS__)

/* As fail, for an answer the caller is expected to take in its stride (a probe for an optional
 * interface): recorded the same way, logged at the info level instead of the error level. */
CUresult extmem__fail_quietly(CUresult code, const char *file, int line, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(4, 5);
#define fail_quietly(code, ...) extmem__fail_quietly((code), __FILE__, __LINE__, __VA_ARGS__)

/* Logs at info or trace level when EXTMEM_LOG asks for it. */
void log_info(const char *fmt, ...) EXTMEM_PRINTF_FORMAT(1, 2);
/* Logs what went wrong without failing a call (a peer process died) at EXTMEM_LOG=warn and
 * above. */
void log_warn(const char *fmt, ...) EXTMEM_PRINTF_FORMAT(1, 2);
enum { LOG_OFF, LOG_ERROR, LOG_WARN, LOG_INFO, LOG_TRACE };
int log_level(void);

/* The X-macro table's name for a code, or NULL for a code CUDA does not define. */
const char *result_name(CUresult code);

#endif /* EXTMEM_DEVICE_ERROR_H */
