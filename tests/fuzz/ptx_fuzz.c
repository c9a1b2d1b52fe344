/*
 * tests/fuzz/ptx_fuzz.c: the libFuzzer target over the PTX front end (ptx_driver.h), seeded
 * with the PTX of corpus/ptx. Built with clang only (tests/fuzz/CMakeLists.txt).
 */
#include "ptx_driver.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char message[512];
    if (!ptx_driver_run(data, size, message, sizeof(message))) {
        fprintf(stderr, "ptx_fuzz: %s", message);
        abort();
    }
    return 0;
}
