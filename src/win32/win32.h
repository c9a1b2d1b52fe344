/*
 * src/win32/win32.h: what the files of the Windows OS layer share. Only src/win32/ includes
 * it; the core sees os.h alone, and no windows.h (STYLE.md 7).
 */
#ifndef EXTMEM_WIN32_H
#define EXTMEM_WIN32_H

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Placeholder flags (Windows 10 1803; winnt.h), which older SDKs and mingw-w64 10 lack. */
#ifndef MEM_RESERVE_PLACEHOLDER
#define MEM_RESERVE_PLACEHOLDER 0x00040000
#endif
#ifndef MEM_REPLACE_PLACEHOLDER
#define MEM_REPLACE_PLACEHOLDER 0x00004000
#endif
#ifndef MEM_PRESERVE_PLACEHOLDER
#define MEM_PRESERVE_PLACEHOLDER 0x00000002
#endif
#ifndef MEM_COALESCE_PLACEHOLDERS
#define MEM_COALESCE_PLACEHOLDERS 0x00000001
#endif

/* Views start at multiples of this (64 KiB), not of the page size. */
size_t win32_allocation_granularity(void);

/* What a handle is, when it is a section (memory.c names extmem's): its size, and the last
 * component of its object name ("extmem-device-<nonce>-<pid>-<n>"; "" when unnamed). Returns 0,
 * ERROR_INVALID_HANDLE, or ERROR_INVALID_PARAMETER (with *not_section) for an object of another
 * kind (a file, an event...). process.c. */
int win32_section_info(HANDLE h, uint64_t *size, char *name, size_t name_size, bool *not_section);

/* The full names of extmem's sections (memory.c): `Local\<name>-<pid>-<token>`, and
 * `Local\extmem-kmt-<token>` for one reachable by its KMT token. */
void win32_section_name(char *out, size_t size, const char *name, unsigned long pid, uint32_t token);
void win32_kmt_name(char *out, size_t size, uint32_t token);

/* Security attributes whose DACL admits this process's user alone (memory.c); NULL when the
 * token cannot be read (then the default DACL applies). */
SECURITY_ATTRIBUTES *win32_owner_only(void);

/* The object names extmem gives its sections start with this. */
#define WIN32_EXTMEM_PREFIX "extmem-"

#endif
