/* The warp instruction family: none yet. */
#include "kernel.h"

const struct klower_entry kops_warp[] = {{NULL, NULL}};
