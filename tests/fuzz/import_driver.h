/*
 * tests/fuzz/import_driver.h: a driver over cuImportExternalMemory and
 * cuExternalMemoryGetMappedBuffer for fuzzing. Bytes choose fds (extmem exports, foreign
 * memfds, /dev/null, closed or invalid numbers) and descriptors (types, sizes, flags, reserved
 * fields, offsets); every result is checked against the rules (docs/external-memory.md), fd
 * ownership against the specification (consumed only on success), buffer contents against the
 * memory they map, and at the end nothing may be left open.
 */
#ifndef EXTMEM_IMPORT_DRIVER_H
#define EXTMEM_IMPORT_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs one input. Returns 1 when everything matched, 0 with a message on the first difference. */
int import_driver_run(const uint8_t *data, size_t size, char *message, size_t message_size);
/* How many imports and mapped buffers succeeded so far, to show the inputs reach them. */
void import_driver_counts(unsigned long *imports, unsigned long *buffers);

#ifdef __cplusplus
}
#endif

#endif
