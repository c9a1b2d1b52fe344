/*
 * src/entry/refuse.h: the refusals of functions extmem exports but does not implement (DESIGN.md
 * §16). Included by the generated stubs (refused.c), which must not see cuda.h: there each
 * refused function is defined with no parameters, which it ignores, and returns its code.
 */
#ifndef EXTMEM_ENTRY_REFUSE_H
#define EXTMEM_ENTRY_REFUSE_H

enum refusal_id {
#define REFUSAL(id, code, text) REFUSAL_##id,
#include "entry/refusals.h"
#undef REFUSAL
    REFUSAL_COUNT
};

/* Records "<symbol>: <the reason's text>" with the reason's code and returns the code. */
int entry_refuse(const char *symbol, enum refusal_id why);

/* The code and text of a reason. */
int refusal_code(enum refusal_id why);
const char *refusal_text(enum refusal_id why);

#endif /* EXTMEM_ENTRY_REFUSE_H */
