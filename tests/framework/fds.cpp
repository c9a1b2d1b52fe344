#include "framework/testing.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>

namespace extmem_test {

int open_fd_count()
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    while (struct dirent *e = readdir(d))
        if (e->d_name[0] != '.')
            ++n;
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

bool fd_is_open(int fd) { return fcntl(fd, F_GETFD) != -1; }

void *map_inaccessible(size_t size)
{
    void *p = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

void unmap_inaccessible(void *p, size_t size) { munmap(p, size); }

} // namespace extmem_test
