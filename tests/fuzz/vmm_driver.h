/*
 * tests/fuzz/vmm_driver.h: a stream of VMM operations run against extmem and against a
 * reference model of what each one must do.
 *
 * The driver reads its choices (which operation, which handle, which range, which of the
 * invalid variants) from a byte string, so one driver serves three users:
 *   - tests/vmm_model_test.cpp: bytes from a seeded generator, long sequences, one seed per
 *     test case;
 *   - vmm_fuzz.c: libFuzzer's bytes (clang builds);
 *   - vmm_replay.c: the files of tests/fuzz/corpus/, for builds without libFuzzer.
 * After every operation it checks the result code, the out-parameters and the memory:
 * bytes written through one mapping are read through every other mapping of the same
 * memory, ranges the model calls inaccessible must refuse a read (process_vm_readv says
 * EFAULT instead of the process faulting). At the end it tears everything down and checks
 * that no handle, mapping or file descriptor is left.
 */
#ifndef EXTMEM_TESTS_VMM_DRIVER_H
#define EXTMEM_TESTS_VMM_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum vmm_driver_op {
    VMM_OP_CREATE,
    VMM_OP_RELEASE,
    VMM_OP_RESERVE,
    VMM_OP_ADDRESS_FREE,
    VMM_OP_MAP,
    VMM_OP_UNMAP,
    VMM_OP_SET_ACCESS,
    VMM_OP_GET_ACCESS,
    VMM_OP_WRITE,
    VMM_OP_READ,
    VMM_OP_LOOKUP,
    VMM_OP_RETAIN,
    VMM_OP_PROPERTIES,
    VMM_OP_EXPORT,
    VMM_OP_IMPORT,
    VMM_OP_CLOSE_FD,
    VMM_OP_COUNT
};

typedef struct vmm_driver_result {
    int ok;                              /* 1: every result and every byte matched the model */
    size_t steps;                        /* operations run */
    size_t calls[VMM_OP_COUNT];          /* operations of each kind */
    size_t successes[VMM_OP_COUNT];      /* of which the model expected CUDA_SUCCESS */
    size_t max_mappings;                 /* the most mappings live at once */
    char message[4096];                  /* the first mismatch and the operations before it */
} vmm_driver_result;

/* The name of an operation, for summaries. */
const char *vmm_driver_op_name(int op);

/* cuInit and a current context for the calling thread (once per process is enough).
 * Returns 0, or -1 with the reason in why. */
int vmm_driver_setup(char *why, size_t why_size);

/* Runs operations chosen by data (at most max_steps; 0 means until the bytes run out),
 * then tears down. Returns 1 when everything matched the model, 0 otherwise; out says
 * what happened. The calling thread must have a current context (vmm_driver_setup). */
int vmm_driver_run(const uint8_t *data, size_t size, size_t max_steps, vmm_driver_result *out);

/* Fills out with n bytes from a generator seeded by seed (splitmix64): the same seed gives
 * the same bytes on every machine. */
void vmm_driver_random_bytes(uint64_t seed, uint8_t *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
