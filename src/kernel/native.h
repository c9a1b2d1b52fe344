/*
 * src/kernel/native.h: what the native tier's files share (native.c, native_emit.c,
 * native_cache.c). The rest of the engine sees only kernel.h's knative_* functions.
 */
#ifndef EXTMEM_KERNEL_NATIVE_H
#define EXTMEM_KERNEL_NATIVE_H

#include "kernel.h"

/* Bumped whenever the generated code's meaning changes without its text changing (it is part
 * of every cache key, and the library it makes says it). */
#define KNATIVE_ENGINE "extmem-native-5" /* 2: backward branches are cancellation points; 3: fused runs, -march=native; 4: cooperative yields; 5: lanes32, 32-bit and uniform locals in whole-warp runs */

/* A growing text. */
struct kbuf {
    char *p;
    size_t len, cap;
    bool failed; /* out of memory: the text is incomplete */
};
void kbuf_printf(struct kbuf *b, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(2, 3);
void kbuf_puts(struct kbuf *b, const char *s);

/* The C source of m's defined functions: one function `knat_<i>` per m->funcs[i] with a body
 * (knat_fn), and `extmem_knat_engine` (KNATIVE_ENGINE). Returns false when out of memory. */
bool knative_emit(const struct kmodule *m, struct kbuf *out);

/* A module's native code, and the compile that makes it (native.c). The module and the
 * compiling thread each hold a reference; `state` says whether lib and fns are there yet. */
enum knative_state { KNATIVE_COMPILING, KNATIVE_READY, KNATIVE_FAILED };
struct knative {
    _Atomic int state;  /* knative_state */
    _Atomic int refs;
    void *lib;
    uint32_t nfuncs;
    knat_fn *fns;       /* parallel to the module's funcs: NULL where a function has no body */
    bool *body;         /* which functions have a knat_<i> */
    char *source;       /* the generated C, until it is compiled */
    size_t len;
    char name[128];     /* the module's, for messages */
    CUresult code;      /* KNATIVE_FAILED: why, as a launch under EXTMEM_JIT=native reports it */
    char why[512];
    os_mutex lock;      /* guards the wait for the compile, and `thread` */
    os_thread thread;   /* the compiling thread */
    os_cond done;
    const struct khost *host; /* the first launch's: the compile's thread and its cancellation */
};

/* Gets the library for `source` (its cache entry, or compiles it): *lib is loaded and says
 * KNATIVE_ENGINE. `how` says where it came from ("cache", "compiled in 230 ms"). Returns 0, or
 * CUDA_ERROR_JIT_COMPILER_NOT_FOUND (no working compiler: `why` says which) or
 * CUDA_ERROR_LAUNCH_FAILED (the compiler refused, or the library cannot be loaded). */
CUresult knative_cache_load(const struct khost *host, const char *source, size_t len, void **lib, char *how,
                            size_t how_size, char *why, size_t why_size);

#endif /* EXTMEM_KERNEL_NATIVE_H */
