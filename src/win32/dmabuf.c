/* dma-bufs are a Linux kernel object: Windows has no provider (DESIGN.md §10). */
#include "os.h"

bool os_dmabuf_supported(const char **why)
{
    if (why)
        *why = "dma-bufs are Linux kernel objects: Windows has none";
    return false;
}

int os_dmabuf_create(const os_dmabuf_piece *pieces, size_t count, os_handle *out, char *why, size_t why_size)
{
    (void)pieces;
    (void)count;
    (void)out;
    if (why_size)
        why[0] = '\0';
    return 50; /* ERROR_NOT_SUPPORTED */
}
