/* Calls an entry point extmem's libcuda.so.1 does not export (stub_future.c). */
#include <stdio.h>

int cuInit(unsigned flags);
int cuFutureEntryPointForTests_v9(int value);

int main(void)
{
    printf("cuInit: %d\n", cuInit(0));
    printf("future: %d\n", cuFutureEntryPointForTests_v9(7));
    return 0;
}
