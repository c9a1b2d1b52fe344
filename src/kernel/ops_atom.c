/* The atom instruction family: none yet. */
#include "kernel.h"

const struct klower_entry kops_atom[] = {{NULL, NULL}};
