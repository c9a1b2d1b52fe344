/*
 * A stand-in libcuda.so.1 with an entry point no CUDA release has: a program linked with it
 * needs a function extmem's libcuda.so.1 does not export, and extmem-run must name it before
 * the program starts.
 */
int cuInit(unsigned flags);
int cuFutureEntryPointForTests_v9(int value);

int cuInit(unsigned flags)
{
    (void)flags;
    return 999;
}

int cuFutureEntryPointForTests_v9(int value)
{
    return value;
}
