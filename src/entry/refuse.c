/*
 * src/entry/refuse.c: what a refused driver function answers (refuse.h).
 */
#include "entry/refuse.h"

#include "device/error.h"

static const struct {
    CUresult code;
    const char *text;
} reasons[REFUSAL_COUNT] = {
#define REFUSAL(id, c, t) [REFUSAL_##id] = {c, t},
#include "entry/refusals.h"
#undef REFUSAL
};

int refusal_code(enum refusal_id why) { return (int)reasons[why].code; }
const char *refusal_text(enum refusal_id why) { return reasons[why].text; }

int entry_refuse(const char *symbol, enum refusal_id why)
{
    return (int)fail(reasons[why].code, "%s: %s (docs/coverage.md)", symbol, reasons[why].text);
}
