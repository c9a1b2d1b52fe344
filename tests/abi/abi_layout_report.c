/*
 * tests/abi/abi_layout_report.c: what the ABI check compared, and every difference with both
 * values.
 *
 * Built from the same lists as abi_static_check.c (which stops the build on a difference) but
 * compares at run time, so it builds and explains even when the static check fails:
 *   ninja -C build abi_layout_report && build/tests/abi/abi_layout_report [-v]
 * It also compares what cannot be compared at compile time (pointer and string macros).
 * With --per-thread-stream it compares the symbol names a program built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM asks for (abi_layout_report_ptds.c) instead.
 * Exit status 0 only when everything matches and something was compared.
 */
#include "abi_our_headers.h"
#include "nv_values.h"
#include "abi_notes.h"
#include "abi_report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ABI_STR_(x) #x
#define ABI_STR(x) ABI_STR_(x)

static int verbose;
static unsigned mismatches;

static unsigned counts[K_COUNT];
static const char *const kind_names[K_COUNT] = {
    "enum constants", "macros", "symbol names",
    "symbol names with CUDA_API_PER_THREAD_DEFAULT_STREAM", "type sizes and alignments",
    "field offsets and sizes",
    ("type spellings checked in NVIDIA's headers (typedefs, field types, prototypes)"),
};

static void check_ll(int kind, const char *what, const char *name, long long ours, long long nv)
{
    counts[kind]++;
    if (ours != nv) {
        mismatches++;
        printf("MISMATCH %s %s: extmem %lld, NVIDIA %lld\n", what, name, ours, nv);
    } else if (verbose) {
        printf("ok %s %s = %lld\n", what, name, ours);
    }
}

void abi_check_str(int kind, const char *what, const char *name, const char *ours,
                   const char *nv)
{
    counts[kind]++;
    if (strcmp(ours, nv) != 0) {
        mismatches++;
        printf("MISMATCH %s %s: extmem \"%s\", NVIDIA \"%s\"\n", what, name, ours, nv);
    } else if (verbose) {
        printf("ok %s %s = \"%s\"\n", what, name, ours);
    }
}

static void check_double(int kind, const char *name, double ours, double nv)
{
    counts[kind]++;
    if (ours != nv) {
        mismatches++;
        printf("MISMATCH macro %s: extmem %g, NVIDIA %g\n", name, ours, nv);
    } else if (verbose) {
        printf("ok macro %s = %g\n", name, ours);
    }
}

static void compare(void)
{
#define ABI_ENUM(n) check_ll(K_ENUM, "enum", #n, (long long)(n), NV_ENUM_##n);
#define ABI_INT_MACRO(n) check_ll(K_MACRO, "macro", #n, (long long)(n), NV_MACRO_##n);
#define ABI_PTR_MACRO(n) \
    check_ll(K_MACRO, "macro", #n, (long long)(uintptr_t)(n), (long long)NV_PTR_##n);
#define ABI_STR_MACRO(n) abi_check_str(K_MACRO, "macro", #n, n, NV_STR_##n);
#define ABI_FLOAT_MACRO(n) check_double(K_MACRO, #n, (double)(n), NV_FLOAT_##n);
#define ABI_SYMBOL(n) abi_check_str(K_SYMBOL, "symbol of", #n, ABI_STR(n), NV_SYMNAME_##n);
#define ABI_TYPE(id, t)                                                                  \
    check_ll(K_SIZE, "sizeof", #t, (long long)sizeof(t), (long long)NV_SIZEOF_##id);     \
    check_ll(K_SIZE, "_Alignof", #t, (long long)_Alignof(t), (long long)NV_ALIGNOF_##id);
#define ABI_FIELD(id, t, path)                                                           \
    check_ll(K_FIELD, "offsetof", #t "." #path, (long long)offsetof(t, path),            \
             (long long)NV_OFFSETOF_##id);                                               \
    check_ll(K_FIELD, "sizeof field", #t "." #path, (long long)sizeof(((t *)0)->path),   \
             (long long)NV_FIELDSIZE_##id);
#include "abi_items.h"

    /* These were checked when abi_nv_types.c compiled; here they are only counted. */
#define ABI_SAME_TYPE(name, ...) counts[K_TYPE_SPELLING]++;
#define ABI_SAME_FIELD_TYPE(t, path, ...) counts[K_TYPE_SPELLING]++;
#define ABI_PROTO(name, ...) counts[K_TYPE_SPELLING]++;
#include "abi_types.h"
#include "abi_types_ptds.h"
}

int main(int argc, char **argv)
{
    int ptds = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
        } else if (strcmp(argv[i], "--per-thread-stream") == 0) {
            ptds = 1;
        } else {
            fprintf(stderr, "usage: %s [-v] [--per-thread-stream]\n", argv[0]);
            return 2;
        }
    }
    (void)check_double; /* used only when a header defines a floating macro */
    if (ptds)
        abi_compare_ptds();
    else
        compare();

    unsigned total = 0;
    for (int k = 0; k < K_COUNT; ++k)
        total += counts[k];
    printf("extmem ABI: %s against NVIDIA's CUDA %d headers%s\n", ABI_SCANNED_HEADERS,
           NV_HEADERS_CUDA_VERSION, ptds ? ", built with CUDA_API_PER_THREAD_DEFAULT_STREAM" : "");
    for (int k = 0; k < K_COUNT; ++k) {
        if (counts[k])
            printf("  %5u %s\n", counts[k], kind_names[k]);
    }
    for (int i = 0; !ptds && abi_notes[i]; ++i)
        printf("  not compared: %s\n", abi_notes[i]);
    printf("compared %u items, %u mismatches\n", total, mismatches);
    if (total == 0) {
        printf("FAIL: nothing was compared\n");
        return 1;
    }
    return mismatches == 0 ? 0 : 1;
}
