/* The float instruction family: none yet. */
#include "kernel.h"

const struct klower_entry kops_float[] = {{NULL, NULL}};
