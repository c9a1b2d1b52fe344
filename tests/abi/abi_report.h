/* tests/abi/abi_report.h: between the translation units of abi_layout_report. */
#ifndef EXTMEM_ABI_REPORT_H
#define EXTMEM_ABI_REPORT_H

enum { K_ENUM, K_MACRO, K_SYMBOL, K_PTDS_SYMBOL, K_SIZE, K_FIELD, K_TYPE_SPELLING, K_COUNT };

/* Counts one comparison of kind and reports it when the two strings differ. */
void abi_check_str(int kind, const char *what, const char *name, const char *ours, const char *nv);

/* Compares symbol names in per-thread-default-stream mode (abi_layout_report_ptds.c). */
void abi_compare_ptds(void);

#endif
