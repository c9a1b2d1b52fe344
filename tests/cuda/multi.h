// What the two units of the multi test share.
#pragma once
cudaError_t add_from_other_unit(int *p, int n, int v);
int read_other_unit_variable();
