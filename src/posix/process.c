/* Other processes on Linux: /proc tells a process's start time and opens its descriptors.
 * Opening /proc/<pid>/fd/<n> is subject to the kernel's ptrace access check, so a process of
 * another user cannot reach into this one's memory (IPC handles are capabilities on top). */
#include "os.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* /proc/<n> answers for a thread id as well as for a process, with the thread's own start
 * time and the process's descriptors: only a thread group's leader is a process. */
static bool is_process(int pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/status", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    const char *tgid = strstr(buf, "\nTgid:");
    return tgid && strtol(tgid + 6, NULL, 10) == pid;
}

void os_watch_fork(void (*in_child)(void))
{
    /* Registered once per process by cuInit; fails only without memory for the entry. */
    (void)pthread_atfork(NULL, NULL, in_child);
}

uint64_t os_process_start_time(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    /* Field 2 is "(comm)", which may hold spaces: count fields after its closing ')'. state
     * is field 3, num_threads field 20, starttime field 22. */
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ')
        return 0;
    char state = p[2];
    unsigned long long threads = 0;
    int field = 2;
    for (; *p && field < 22; ++p) {
        if (*p != ' ')
            continue;
        if (++field == 20)
            threads = strtoull(p + 1, NULL, 10);
    }
    /* A process that has exited keeps its entry, start time included, until its parent reaps
     * it (a zombie, Z): it has exited all the same. A leader thread that exited while other
     * threads run shows Z too, but counts them: that process lives. */
    if ((state == 'Z' || state == 'X') && threads <= 1)
        return 0;
    uint64_t start = strtoull(p, NULL, 10);
    return is_process(pid) ? start : 0;
}

int32_t os_ipc_token(const os_memory *mem) { return mem->handle; }

int os_ipc_open(int pid, int32_t token, const char *name, os_handle *out)
{
    (void)name; /* the opener checks the name of what it got (ipc.c) */
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, token);
    /* The handle is the other process's word: what it names may be a terminal (O_NOCTTY) or a
     * FIFO (O_NONBLOCK) rather than a memfd, which the caller finds out next. */
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return errno;
    *out = fd;
    return 0;
}

int os_handle_identity(os_handle h, uint64_t *id, uint64_t *size, char *name, size_t name_size)
{
    struct stat st;
    if (fstat(h, &st) != 0)
        return errno;
    if (name) {
        /* The link text of a memfd is "/memfd:<name> (deleted)": os.h promises the name first. */
        char link[64], target[256];
        snprintf(link, sizeof(link), "/proc/self/fd/%d", h);
        ssize_t n = readlink(link, target, sizeof(target) - 1);
        target[n > 0 ? n : 0] = '\0';
        const char *memfd = "/memfd:";
        snprintf(name, name_size, "%s", strncmp(target, memfd, strlen(memfd)) == 0 ? target + strlen(memfd) : target);
    }
    *id = (uint64_t)st.st_ino;
    *size = (uint64_t)st.st_size;
    return 0;
}
