/*
 * tests/fuzz/ptx_driver.h: one input to the PTX front end through cuModuleLoadData. Whatever
 * the bytes, the call must answer with a result the API documents for bad images
 * (INVALID_PTX, INVALID_IMAGE, NO_BINARY_FOR_GPU, NOT_SUPPORTED, OUT_OF_MEMORY) or load a
 * module that unloads again: never crash, hang or leak.
 */
#ifndef EXTMEM_PTX_DRIVER_H
#define EXTMEM_PTX_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Runs one input; false with a message when the answer breaks the rules. */
bool ptx_driver_run(const uint8_t *data, size_t size, char *message, size_t message_size);
/* How many inputs loaded as modules so far. */
unsigned long ptx_driver_loaded(void);

#endif
