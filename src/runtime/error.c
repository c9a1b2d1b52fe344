/*
 * src/runtime/error.c: the runtime's result codes and the thread's last error.
 *
 * One table (RT_ERRORS) gives, for every cudaError_t: its value, the CUresult of the same
 * meaning (RT_NO_CU where the driver has none) and its description. It drives
 * cudaGetErrorName, cudaGetErrorString, the CUresult -> cudaError_t translation and the
 * driver code recorded with a reason the runtime finds itself. The descriptions are the
 * ones NVIDIA's runtime prints, since programs match on them ("out of memory").
 */
#include <stdarg.h>
#include <stdio.h>

#include "runtime/runtime.h"
#include "entry/refuse.h"
#include "kernel/cuda_errors.h"

#define RT_NO_CU ((CUresult)-1)

/* The table of every cudaError_t (shared with the device runtime, src/kernel/devrt.c). */
#define RT_ERRORS(X) CUDA_ERRORS_TABLE(X)

/* The table and the header's enumeration cannot drift apart. */
#define RT_CHECK_VALUE(name, value, cu, text) _Static_assert((int)(name) == (value), #name " has the wrong value");
RT_ERRORS(RT_CHECK_VALUE)
#undef RT_CHECK_VALUE

typedef struct rt_error_info {
    cudaError_t code;
    CUresult cu;
    const char *name;
    const char *text;
} rt_error_info;

static const rt_error_info rt_errors[] = {
#define RT_ROW(name, value, cu, text) {name, cu, #name, text},
    RT_ERRORS(RT_ROW)
#undef RT_ROW
};

#define RT_ERROR_COUNT (sizeof rt_errors / sizeof rt_errors[0])
#define RT_UNRECOGNIZED "unrecognized error code"

static RT_THREAD_LOCAL cudaError_t rt_last_error = cudaSuccess;

static const rt_error_info *rt_error_find(cudaError_t code)
{
    for (size_t i = 0; i < RT_ERROR_COUNT; ++i)
        if (rt_errors[i].code == code)
            return &rt_errors[i];
    return NULL;
}

cudaError_t rt_from_cu(CUresult r)
{
    if (r == CUDA_SUCCESS)
        return cudaSuccess;
    for (size_t i = 0; i < RT_ERROR_COUNT; ++i)
        if (rt_errors[i].cu == r)
            return rt_errors[i].code;
    return cudaErrorUnknown;
}

cudaError_t rt_result(cudaError_t err)
{
    /* cudaErrorNotReady reports progress (a query found pending work); NVIDIA's runtime
     * does not keep it as the last error either. */
    if (err != cudaSuccess && err != cudaErrorNotReady)
        rt_last_error = err;
    return err;
}

cudaError_t rt_cu(CUresult r)
{
    return rt_result(rt_from_cu(r));
}

cudaError_t rt__fail(cudaError_t err, const char *file, int line, const char *fmt, ...)
{
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    /* The reason is kept by the driver's error record, which speaks CUresult: record the
     * driver code of the same meaning (cudaErrorInvalidMemcpyDirection has none, and is an
     * invalid value to the driver). */
    const rt_error_info *info = rt_error_find(err);
    CUresult cu = info && info->cu != RT_NO_CU ? info->cu : CUDA_ERROR_INVALID_VALUE;
    extmem__fail(cu, file, line, "%s", reason);
    return rt_result(err);
}

cudaError_t CUDARTAPI cudaGetLastError(void)
{
    cudaError_t err = rt_last_error;
    rt_last_error = cudaSuccess;
    return err;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void)
{
    return rt_last_error;
}

const char *CUDARTAPI cudaGetErrorName(cudaError_t error)
{
    const rt_error_info *info = rt_error_find(error);
    return info ? info->name : RT_UNRECOGNIZED;
}

const char *CUDARTAPI cudaGetErrorString(cudaError_t error)
{
    const rt_error_info *info = rt_error_find(error);
    return info ? info->text : RT_UNRECOGNIZED;
}

/* ---- Refused functions (refused.c) ---- */

static const struct {
    CUresult code;
    const char *text;
} rt_refusals[REFUSAL_COUNT] = {
#define REFUSAL(id, c, t) [REFUSAL_##id] = {c, t},
#include "entry/refusals.h"
#undef REFUSAL
};

/* A refused runtime function's answer: the runtime code of its reason's driver code, with
 * "<symbol>: <why>" as the reason and the thread's last error. */
int rt_refuse(const char *symbol, enum refusal_id why);
int rt_refuse(const char *symbol, enum refusal_id why)
{
    return (int)rt_fail(rt_from_cu(rt_refusals[why].code), "%s: %s (docs/coverage.md)", symbol,
                        rt_refusals[why].text);
}
