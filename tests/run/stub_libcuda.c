/*
 * A stand-in libcuda.so.1 that is not extmem's, for the RPATH tests: a program that links it
 * with an RPATH would load it instead of extmem's, and extmem-run must say so.
 */
int cuInit(unsigned flags);

int cuInit(unsigned flags)
{
    (void)flags;
    return 999;
}
