/* The cvt instruction family: none yet. */
#include "kernel.h"

const struct klower_entry kops_cvt[] = {{NULL, NULL}};
