/*
 * What the native kernel tier needs from a POSIX system (src/kernel/native_cache.c): running
 * the C compiler, loading the shared library it made, and files and folders of the cache.
 */
#include "../os.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int os_run(const char *const *argv, char *out, size_t out_size, int *status)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return errno;
    posix_spawn_file_actions_t fa;
    int err = posix_spawn_file_actions_init(&fa);
    if (err) {
        close(fds[0]);
        close(fds[1]);
        return err;
    }
    /* dup2 clears close-on-exec on the child's copies; the pipe's own ends close at exec. */
    if ((err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) ||
        (err = posix_spawn_file_actions_adddup2(&fa, fds[1], 1)) ||
        (err = posix_spawn_file_actions_adddup2(&fa, fds[1], 2))) {
        posix_spawn_file_actions_destroy(&fa);
        close(fds[0]);
        close(fds[1]);
        return err;
    }
    pid_t pid;
    err = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)(uintptr_t)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (err) {
        close(fds[0]);
        return err;
    }
    size_t used = 0;
    for (;;) {
        char buf[4096];
        ssize_t n = read(fds[0], buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size_t take = (size_t)n;
        if (out_size && used + take > out_size - 1)
            take = out_size - 1 - used;
        if (take)
            memcpy(out + used, buf, take);
        used += take;
    }
    close(fds[0]);
    if (out_size)
        out[used] = 0;
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return errno;
    }
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return 0;
}

int os_library_open(const char *path, void **lib, char *why, size_t why_size)
{
    *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!*lib) {
        const char *e = dlerror();
        snprintf(why, why_size, "%s", e ? e : "dlopen failed");
        return ENOEXEC;
    }
    return 0;
}

void *os_library_symbol(void *lib, const char *name) { return dlsym(lib, name); }

void os_library_close(void *lib) { dlclose(lib); }

int os_make_dir(const char *path)
{
    if (mkdir(path, 0755) == 0)
        return 0;
    int err = errno;
    struct stat st;
    if (err == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    return err;
}

int os_rename_replace(const char *from, const char *to) { return rename(from, to) == 0 ? 0 : errno; }

void os_remove_file(const char *path) { unlink(path); }

const char *os_temp_dir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}
