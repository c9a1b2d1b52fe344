/* Links the stand-in libcuda.so.1 (stub_libcuda.c) and calls it: 999 means the stand-in ran. */
#include <stdio.h>

int cuInit(unsigned flags);

int main(void)
{
    const int r = cuInit(0);
    printf("cuInit: %d (%s)\n", r, r == 999 ? "the stand-in libcuda.so.1" : "another libcuda.so.1");
    return 0;
}
