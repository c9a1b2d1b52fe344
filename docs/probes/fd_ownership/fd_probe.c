/*
 * fd_probe.c - whose is an fd after a successful import, on the real NVIDIA driver:
 * cuImportExternalMemory (OPAQUE_FD) and cuMemImportFromShareableHandle (POSIX fd).
 *
 *   gcc -std=gnu11 -O0 fd_probe.c -I/usr/local/cuda/include -lcuda -o fd_probe && ./fd_probe > fd_probe.out
 *
 * (fcntl(F_GETFD) tells whether the number is still open; EBADF: the driver closed it.)
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *name(CUresult r)
{
    const char *s = "?";
    cuGetErrorName(r, &s);
    return s;
}

static void state(const char *what, int fd)
{
    int f = fcntl(fd, F_GETFD), err = errno;
    char link[64], target[256] = "";
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    target[n > 0 ? n : 0] = '\0';
    printf("  %-44s fd %d: %s%s%s\n", what, fd, f < 0 ? strerror(err) : "open -> ", f < 0 ? "" : target,
           f >= 0 && (f & FD_CLOEXEC) ? " (FD_CLOEXEC)" : "");
}

int main(void)
{
    CUcontext ctx;
    cuInit(0);
    cuCtxCreate(&ctx, NULL, 0, 0);
    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t g = 0;
    cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    CUmemGenericAllocationHandle h;
    printf("cuMemCreate: %s\n", name(cuMemCreate(&h, g, &prop, 0)));

    int fd = -1;
    printf("cuMemExportToShareableHandle: %s\n", name(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0)));
    state("after export", fd);
    CUmemGenericAllocationHandle imported;
    printf("cuMemImportFromShareableHandle: %s\n",
           name(cuMemImportFromShareableHandle(&imported, (void *)(long)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)));
    state("after cuMemImportFromShareableHandle", fd);
    printf("cuMemRelease(imported): %s\n", name(cuMemRelease(imported)));
    state("after cuMemRelease(imported)", fd);
    if (fcntl(fd, F_GETFD) >= 0)
        close(fd);

    int fd2 = -1;
    cuMemExportToShareableHandle(&fd2, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    state("second export", fd2);
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = {0};
    d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    d.handle.fd = fd2;
    d.size = g;
    CUexternalMemory ext;
    printf("cuImportExternalMemory(OPAQUE_FD): %s\n", name(cuImportExternalMemory(&ext, &d)));
    state("after cuImportExternalMemory", fd2);
    int reuse = open("/dev/null", O_RDONLY);
    printf("  open(/dev/null) now gives fd %d\n", reuse);
    printf("cuDestroyExternalMemory: %s\n", name(cuDestroyExternalMemory(ext)));
    state("the reused number after destroy", reuse);
    close(reuse);
    cuMemRelease(h);
    cuCtxDestroy(ctx);
    return 0;
}
