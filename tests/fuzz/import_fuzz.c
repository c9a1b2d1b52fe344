/*
 * tests/fuzz/import_fuzz.c: the libFuzzer target over external memory imports and mapped
 * buffers (import_driver.h). Any difference from the rules, a crash, a leak or a sanitizer
 * report is a finding. Built with clang only (tests/fuzz/CMakeLists.txt).
 */
#include "import_driver.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char message[512];
    if (!import_driver_run(data, size, message, sizeof(message))) {
        fprintf(stderr, "import_fuzz: %s", message);
        abort();
    }
    return 0;
}
