/*
 * tests/abi/abi_exports.c: libextmem exports every entry point our headers declare, under the
 * name NVIDIA's headers make a program ask for.
 *
 * The names come from nv_values.h (NV_SYMNAME_*: what NVIDIA's macros expand each of our
 * public names to, e.g. cuMemAlloc -> cuMemAlloc_v2), so a declaration without a definition,
 * or a definition under the wrong name, is found before a program fails to load.
 *
 *   abi_exports LIBRARY [--per-thread-stream]
 * With --per-thread-stream the names are those of a program built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM (NV_PSYMNAME_*).
 */
#include "nv_values.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static unsigned checked, missing;
static void *lib;

/* Names NVIDIA's header defines as static inline functions, so no library exports them. */
static int inline_in_nvidia_header(const char *symbol)
{
    return strcmp(symbol, "cuGetProcAddress_v2_ptsz") == 0;
}

static void check(const char *name, const char *symbol)
{
    if (inline_in_nvidia_header(symbol))
        return;
    checked++;
    if (!dlsym(lib, symbol)) {
        missing++;
        printf("MISSING %s (what %s names in NVIDIA's header)\n", symbol, name);
    }
}

static void check_default(void)
{
#define ABI_ENUM(n)
#define ABI_INT_MACRO(n)
#define ABI_PTR_MACRO(n)
#define ABI_STR_MACRO(n)
#define ABI_FLOAT_MACRO(n)
#define ABI_TYPE(id, t)
#define ABI_FIELD(id, t, path)
#define ABI_SYMBOL(n) check(#n, NV_SYMNAME_##n);
#include "abi_items.h"
#undef ABI_SYMBOL
}

static void check_ptds(void)
{
#define ABI_SYMBOL(n) check(#n, NV_PSYMNAME_##n);
#include "abi_items_ptds.h"
#undef ABI_SYMBOL
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--per-thread-stream") != 0)) {
        fprintf(stderr, "usage: %s LIBRARY [--per-thread-stream]\n", argv[0]);
        return 2;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "FAIL: dlopen(%s): %s\n", argv[1], dlerror());
        return 1;
    }
    if (argc == 3)
        check_ptds();
    else
        check_default();
    dlclose(lib);
    printf("checked %u entry points, %u missing\n", checked, missing);
    return checked > 0 && missing == 0 ? 0 : 1;
}
