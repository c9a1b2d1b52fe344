/*
 * tests/abi/abi_static_check.c: extmem's headers against NVIDIA's values, at compile time.
 *
 * Compiled against our headers only. nv_values.h holds NVIDIA's value of every enum constant,
 * macro, type size and alignment, field offset and size, and the symbol each public name
 * expands to (printed by abi_nv_values); abi_items.h lists the names. Any difference stops the
 * build here with the name in the message; abi_layout_report prints both values.
 */
#include "abi_our_headers.h"
#include "nv_values.h"

#include <stddef.h>

#define ABI_CAT_(a, b) a##b
#define ABI_CAT(a, b) ABI_CAT_(a, b)
#define ABI_HINT " (abi_layout_report prints both values)"

#define ABI_ENUM(n)                                                                      \
    _Static_assert((long long)(n) == NV_ENUM_##n,                                        \
                   "extmem ABI: enum constant " #n " differs from NVIDIA's" ABI_HINT);
#define ABI_INT_MACRO(n)                                                                 \
    _Static_assert((long long)(n) == NV_MACRO_##n,                                       \
                   "extmem ABI: macro " #n " differs from NVIDIA's" ABI_HINT);
/* Pointer, string and floating macros are not integer constant expressions: the report
 * compares them at run time. */
#define ABI_PTR_MACRO(n)
#define ABI_STR_MACRO(n)
#define ABI_FLOAT_MACRO(n)
/* NV_SYM_<name>__<symbol> exists only for the symbol NVIDIA's header expands <name> to; pasting
 * the symbol ours expands to names it, or an undeclared identifier when they differ. */
#define ABI_SYMBOL(n)                                                                    \
    _Static_assert(ABI_CAT(NV_SYM_##n##__, n) == 1,                                      \
                   "extmem ABI: " #n " must expand to the symbol NVIDIA's header names");
#define ABI_TYPE(id, t)                                                                  \
    _Static_assert(sizeof(t) == NV_SIZEOF_##id,                                          \
                   "extmem ABI: sizeof(" #t ") differs from NVIDIA's" ABI_HINT);         \
    _Static_assert(_Alignof(t) == NV_ALIGNOF_##id,                                       \
                   "extmem ABI: _Alignof(" #t ") differs from NVIDIA's" ABI_HINT);
#define ABI_FIELD(id, t, path)                                                           \
    _Static_assert(offsetof(t, path) == NV_OFFSETOF_##id,                                \
                   "extmem ABI: offsetof(" #t ", " #path ") differs from NVIDIA's" ABI_HINT); \
    _Static_assert(sizeof(((t *)0)->path) == NV_FIELDSIZE_##id,                          \
                   "extmem ABI: size of " #t "." #path " differs from NVIDIA's" ABI_HINT);

#include "abi_items.h"

/* ISO C wants a translation unit to declare something. */
extern int abi_static_checked;
