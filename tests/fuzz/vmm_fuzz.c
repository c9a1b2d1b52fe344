/*
 * tests/fuzz/vmm_fuzz.c: the libFuzzer target over the VMM driver (vmm_driver.h). The
 * fuzzer's bytes choose the operations; any difference from the model, a crash or a
 * sanitizer report is a finding. Built with clang only (tests/fuzz/CMakeLists.txt).
 */
#include "vmm_driver.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    static vmm_driver_result result;
    if (!ready) {
        char why[256];
        if (vmm_driver_setup(why, sizeof(why)) != 0) {
            fprintf(stderr, "vmm_fuzz: %s\n", why);
            abort();
        }
        ready = 1;
    }
    if (!vmm_driver_run(data, size, 0, &result)) {
        fprintf(stderr, "vmm_fuzz: extmem differs from the model\n%s", result.message);
        abort();
    }
    return 0;
}
