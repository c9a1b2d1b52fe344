/*
 * src/runtime/refused.c: every function of NVIDIA's libcudart.so.13 that extmem exports but
 * refuses, made from the entry-point list (runtime_api.h): each returns its reason's code as a
 * cudaError_t, recorded as the thread's last error with the reason (rt_refuse, error.c). This
 * file must not include the runtime's headers, which declare some of them with their
 * parameters: here they take none and ignore what the caller passed.
 */
#include "entry/refuse.h"
#include "extmem/export.h"

int rt_refuse(const char *symbol, enum refusal_id why);

#define RT(symbol)
#define RT_REFUSED(symbol, why)                                                                                       \
    EXTMEM_API int symbol(void);                                                                                      \
    int symbol(void) { return rt_refuse(#symbol, REFUSAL_##why); }
#include "runtime/runtime_api.h"
#undef RT
#undef RT_REFUSED
