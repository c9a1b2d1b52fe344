/* A program that uses the installed extmem package: allocate, fill, read back. */
#include <extmem/extmem.h>

#include <stdio.h>

int main(void)
{
    CUcontext ctx;
    CUdeviceptr p;
    unsigned int v = 0;
    if (cuInit(0) || cuCtxCreate(&ctx, NULL, 0, 0) || cuMemAlloc(&p, 4096) || cuMemsetD32(p, 7, 1024) ||
        cuMemcpyDtoH(&v, p, 4) || v != 7 || cuMemFree(p) || cuCtxDestroy(ctx)) {
        printf("consumer failed: %s\n", extmem_error_detail());
        return 1;
    }
    printf("consumer: extmem %s works\n", extmem_version());
    return 0;
}
