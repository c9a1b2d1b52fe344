/*
 * What the native kernel tier needs from a POSIX system (src/kernel/native_cache.c): folders it
 * may trust, the files in them, running the C compiler with limits, and loading the library
 * it made (docs/kernels.md, "What the native tier trusts").
 *
 * A folder is opened once and then reached only through its descriptor: entries are opened
 * relative to it with O_NOFOLLOW, the compiler runs with the folder as its working directory
 * (fchdir in the child) and is given relative names, and a library is loaded from the very
 * descriptor whose owner, mode and contents were checked (/proc/self/fd/N). So renaming the
 * folder's parents, or a symbolic link put in its place after the checks, changes nothing.
 */
#include "../os.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct os_dir {
    int fd;
    char path[PATH_MAX];
};

/* A loaded library, and the descriptor number whose /proc/self/fd name it was loaded by
 * (os_dir_load). */
struct os_lib {
    void *dl;
    int name_fd;
};

/* The loader knows a library by the name it was opened with and hands out an already loaded
 * one again for the same name: a second module loaded through a reused /proc/self/fd/N would
 * get the first module's code. So the numbers that name loaded libraries are kept here, and a
 * descriptor whose number is among them is loaded through a duplicate of another number. */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static int *names;
static size_t names_count, names_cap;

static bool name_taken(int n)
{
    for (size_t i = 0; i < names_count; ++i)
        if (names[i] == n)
            return true;
    return false;
}

/* fd, or a duplicate of it, whose number names no loaded library; now taken. -1 if none. */
static int unique_name_fd(int fd)
{
    pthread_mutex_lock(&names_lock);
    int n = fd;
    while (n >= 0 && name_taken(n)) {
        int dup = fcntl(fd, F_DUPFD_CLOEXEC, n + 1);
        if (n != fd)
            close(n);
        n = dup;
    }
    if (n >= 0 && names_count == names_cap) {
        size_t cap = names_cap ? names_cap * 2 : 16;
        int *grown = realloc(names, cap * sizeof(*grown));
        if (grown) {
            names = grown;
            names_cap = cap;
        }
    }
    if (n >= 0 && names_count < names_cap) {
        names[names_count++] = n;
    } else if (n >= 0) {
        if (n != fd)
            close(n);
        n = -1;
    }
    pthread_mutex_unlock(&names_lock);
    return n;
}

static void forget_name_fd(int n)
{
    pthread_mutex_lock(&names_lock);
    for (size_t i = 0; i < names_count; ++i)
        if (names[i] == n) {
            names[i] = names[--names_count];
            break;
        }
    pthread_mutex_unlock(&names_lock);
}

bool os_privileged(void)
{
    /* AT_SECURE: the kernel ran this program set-uid, set-gid or with file capabilities
     * (the real and effective ids differ, or capabilities were gained): the environment
     * belongs to a less privileged caller. */
    return getauxval(AT_SECURE) != 0;
}

/* Who may be trusted: files and folders of this process's (effective) user that nobody else
 * can write. `secret` also refuses a file others can read. */
static bool trusted(const struct stat *st, bool secret, char *why, size_t why_size, const char *what)
{
    if (st->st_uid != geteuid()) {
        snprintf(why, why_size, "%s is owned by uid %u, not by this process's user (uid %u)", what, (unsigned)st->st_uid,
                 (unsigned)geteuid());
        return false;
    }
    mode_t others = secret ? (S_IRWXG | S_IRWXO) : (S_IWGRP | S_IWOTH);
    if (st->st_mode & others) {
        snprintf(why, why_size, "%s has mode %04o: %s", what, (unsigned)(st->st_mode & 07777),
                 secret ? "others can read or write it" : "others can write it");
        return false;
    }
    return true;
}

static struct os_dir *dir_from_fd(int fd, const char *path)
{
    struct os_dir *d = calloc(1, sizeof(*d));
    if (!d) {
        close(fd);
        return NULL;
    }
    d->fd = fd;
    snprintf(d->path, sizeof(d->path), "%s", path);
    return d;
}

int os_dir_open_private(const char *path, os_dir **out, char *why, size_t why_size)
{
    *out = NULL;
    char p[PATH_MAX];
    if (!*path || snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p)) {
        snprintf(why, why_size, "the folder name is empty or too long");
        return ENAMETOOLONG;
    }
    /* Its missing parents and itself, owner-only (as the XDG base directory specification asks
     * of $XDG_CACHE_HOME); folders that exist are left as they are and judged below. */
    for (char *s = p + 1; *s; ++s) {
        if (*s != '/')
            continue;
        *s = 0;
        (void)mkdir(p, 0700);
        *s = '/';
    }
    if (mkdir(p, 0700) != 0 && errno != EEXIST) {
        int err = errno;
        snprintf(why, why_size, "%s cannot be made: %s", path, strerror(err));
        return err;
    }
    int fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        struct stat lst;
        bool link = lstat(p, &lst) == 0 && S_ISLNK(lst.st_mode);
        snprintf(why, why_size, "%s cannot be opened as a folder: %s", path,
                 link ? "it is a symbolic link" : strerror(err));
        return err;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || !trusted(&st, false, why, why_size, path)) {
        if (!why[0])
            snprintf(why, why_size, "%s is not a folder", path);
        close(fd);
        return EACCES;
    }
    /* Root can write any folder whatever its mode; the write test is what says whether this
     * one really takes files (a read-only file system, say). */
    if (faccessat(fd, ".", W_OK, AT_EACCESS) != 0) {
        int err = errno;
        snprintf(why, why_size, "%s cannot be written: %s", path, strerror(err));
        close(fd);
        return err;
    }
    *out = dir_from_fd(fd, p);
    return *out ? 0 : ENOMEM;
}

int os_dir_make_temp(const char *prefix, os_dir **out, char *why, size_t why_size)
{
    *out = NULL;
    const char *t = os_getenv("TMPDIR");
    if (!t || !*t)
        t = "/tmp";
    char p[PATH_MAX];
    if (snprintf(p, sizeof(p), "%s/%sXXXXXX", t, prefix) >= (int)sizeof(p)) {
        snprintf(why, why_size, "the temporary folder's name is too long (TMPDIR=%s)", t);
        return ENAMETOOLONG;
    }
    /* mkdtemp makes a new folder of a random name, 0700, and fails rather than take one that
     * exists: no other user can have prepared it. */
    if (!mkdtemp(p)) {
        int err = errno;
        snprintf(why, why_size, "no temporary folder could be made in %s: %s", t, strerror(err));
        return err;
    }
    int fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        snprintf(why, why_size, "the temporary folder %s cannot be opened: %s", p, strerror(err));
        rmdir(p);
        return err;
    }
    *out = dir_from_fd(fd, p);
    if (!*out) {
        rmdir(p);
        return ENOMEM;
    }
    return 0;
}

const char *os_dir_path(const os_dir *d) { return d->path; }

void os_dir_close(os_dir *d, bool remove)
{
    if (!d)
        return;
    if (remove) {
        /* Its files (the compiler makes no folders here), then the folder itself. */
        int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *list = fd >= 0 ? fdopendir(fd) : NULL;
        if (list) {
            struct dirent *e;
            while ((e = readdir(list)))
                if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                    (void)unlinkat(d->fd, e->d_name, 0);
            closedir(list);
        } else if (fd >= 0) {
            close(fd);
        }
        (void)rmdir(d->path);
    }
    close(d->fd);
    free(d);
}

/* Opens the entry `name` for reading, if it may be trusted: a regular file (never a FIFO or
 * device, which could block or never end), not a link, owned by this user and not writable by
 * others. The descriptor, or -1 with errno and why. */
static int open_entry(os_dir *d, const char *name, bool secret, struct stat *st, char *why, size_t why_size)
{
    /* O_NONBLOCK: opening a FIFO would otherwise wait for a writer. */
    int fd = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int err = errno;
        snprintf(why, why_size, "%s/%s: %s", d->path, name, err == ELOOP ? "a symbolic link" : strerror(err));
        errno = err;
        return -1;
    }
    char what[PATH_MAX + 64];
    snprintf(what, sizeof(what), "%s/%s", d->path, name);
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        snprintf(why, why_size, "%s is not a regular file", what);
        close(fd);
        errno = EINVAL;
        return -1;
    }
    if (!trusted(st, secret, why, why_size, what)) {
        close(fd);
        errno = EACCES;
        return -1;
    }
    return fd;
}

static int read_fd(int fd, size_t size, char **data)
{
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return ENOMEM;
    size_t used = 0;
    while (used < size) {
        ssize_t n = pread(fd, buf + used, size - used, (off_t)used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int err = n < 0 ? errno : EIO; /* shorter than fstat said: changed under us */
            free(buf);
            return err;
        }
        used += (size_t)n;
    }
    *data = buf;
    return 0;
}

int os_dir_read(os_dir *d, const char *name, bool secret, size_t max, char **data, size_t *len, char *why,
                size_t why_size)
{
    *data = NULL;
    *len = 0;
    struct stat st;
    int fd = open_entry(d, name, secret, &st, why, why_size);
    if (fd < 0)
        return errno;
    if ((uint64_t)st.st_size > max) {
        snprintf(why, why_size, "%s/%s is larger than %zu bytes", d->path, name, max);
        close(fd);
        return EFBIG;
    }
    int err = read_fd(fd, (size_t)st.st_size, data);
    close(fd);
    if (err) {
        snprintf(why, why_size, "%s/%s cannot be read: %s", d->path, name, strerror(err));
        return err;
    }
    *len = (size_t)st.st_size;
    return 0;
}

int os_dir_write(const os_dir *d, const char *name, const void *data, size_t len, bool replace)
{
    char tmp[NAME_MAX + 1];
    uint32_t r = 0;
    os_random_bytes(&r, sizeof(r));
    if (snprintf(tmp, sizeof(tmp), ".tmp-%d-%08x", (int)getpid(), r) >= (int)sizeof(tmp))
        return ENAMETOOLONG;
    int fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno;
    const char *p = data;
    size_t left = len;
    int err = 0;
    while (left) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err = errno;
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err) {
        /* Whole or not at all: readers see the old entry or the new one. Where the entry must not
         * be replaced (a secret another process may have made first), link() fails instead. */
        if (replace ? renameat(d->fd, tmp, d->fd, name) != 0 : linkat(d->fd, tmp, d->fd, name, 0) != 0)
            err = errno;
    }
    if (err || !replace)
        (void)unlinkat(d->fd, tmp, 0);
    return err;
}

int os_dir_load(os_dir *d, const char *name, bool (*check)(const char *data, size_t len, void *ctx), void *ctx,
                void **lib, char *why, size_t why_size)
{
    *lib = NULL;
    struct stat st;
    int fd = open_entry(d, name, false, &st, why, why_size);
    if (fd < 0)
        return errno;
    if (check) {
        char *data = NULL;
        int err = read_fd(fd, (size_t)st.st_size, &data);
        bool ok = !err && check(data, (size_t)st.st_size, ctx);
        free(data);
        if (!ok) {
            snprintf(why, why_size, "%s/%s is not a whole entry of this cache", d->path, name);
            close(fd);
            return err ? err : EINVAL;
        }
    }
    /* The file whose owner, mode and bytes were checked, through its descriptor: no path is
     * resolved again. */
    struct os_lib *l = malloc(sizeof(*l));
    if (!l) {
        close(fd);
        snprintf(why, why_size, "out of memory");
        return ENOMEM;
    }
    int name_fd = unique_name_fd(fd);
    char self[64];
    snprintf(self, sizeof(self), "/proc/self/fd/%d", name_fd);
    l->dl = name_fd >= 0 ? dlopen(self, RTLD_NOW | RTLD_LOCAL) : NULL;
    int err = 0;
    if (!l->dl) {
        const char *e = name_fd >= 0 ? dlerror() : NULL;
        snprintf(why, why_size, "%s/%s cannot be loaded: %s", d->path, name, e ? e : "dlopen failed");
        err = ENOEXEC;
        free(l);
    } else {
        l->name_fd = name_fd;
        *lib = l;
    }
    if (name_fd >= 0 && name_fd != fd)
        close(name_fd);
    if (err && name_fd >= 0)
        forget_name_fd(name_fd);
    close(fd);
    return err;
}

void *os_library_symbol(void *lib, const char *name) { return dlsym(((struct os_lib *)lib)->dl, name); }

void os_library_close(void *lib)
{
    struct os_lib *l = lib;
    dlclose(l->dl);
    forget_name_fd(l->name_fd);
    free(l);
}

/* ---- Running the compiler ---- */

/* Kills the child's whole process group (the compiler driver and the programs it started). */
static void kill_group(pid_t pid)
{
    if (kill(-pid, SIGKILL) != 0)
        kill(pid, SIGKILL);
}

static int spawn(const char *const *argv, const struct os_run_options *o, int out_fd, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    int err = posix_spawn_file_actions_init(&fa);
    if (err)
        return err;
    if ((err = posix_spawnattr_init(&attr))) {
        posix_spawn_file_actions_destroy(&fa);
        return err;
    }
    /* A process group of its own, so that a time limit or unload kills the compiler's children
     * too; no signal blocked, whatever the spawning thread blocks. */
    sigset_t none;
    sigemptyset(&none);
    if ((err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK)) ||
        (err = posix_spawnattr_setpgroup(&attr, 0)) || (err = posix_spawnattr_setsigmask(&attr, &none)))
        goto out;
    /* dup2 clears close-on-exec on the child's copies; the pipe's own ends close at exec. */
    if ((err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) ||
        (err = posix_spawn_file_actions_adddup2(&fa, out_fd, 1)) ||
        (err = posix_spawn_file_actions_adddup2(&fa, out_fd, 2)))
        goto out;
    if (o && o->dir && (err = posix_spawn_file_actions_addfchdir_np(&fa, o->dir->fd)))
        goto out;
    err = posix_spawnp(pid, argv[0], &fa, &attr, (char *const *)(uintptr_t)argv, environ);
out:
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    return err;
}

int os_run(const char *const *argv, const struct os_run_options *o, char *out, size_t out_size, int *status)
{
    *status = -1;
    if (out_size)
        out[0] = 0;
    /* A memory limit is set by the shell the compiler is started from (ulimit -v), so that it
     * holds from the compiler's first instruction; posix_spawn sets no resource limits. */
    const char *shell_argv[64];
    char limit[64];
    if (o && o->memory_limit) {
        size_t n = 0;
        while (argv[n])
            ++n;
        if (n + 5 > sizeof(shell_argv) / sizeof(shell_argv[0]))
            return E2BIG;
        snprintf(limit, sizeof(limit), "ulimit -v %llu && exec \"$0\" \"$@\"",
                 (unsigned long long)(o->memory_limit / 1024 ? o->memory_limit / 1024 : 1));
        shell_argv[0] = "/bin/sh";
        shell_argv[1] = "-c";
        shell_argv[2] = limit;
        for (size_t i = 0; i <= n; ++i)
            shell_argv[3 + i] = argv[i];
        argv = shell_argv;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return errno;
    pid_t pid;
    int err = spawn(argv, o, fds[1], &pid);
    close(fds[1]);
    if (err) {
        close(fds[0]);
        return err;
    }
    uint64_t deadline = o && o->timeout_ms ? os_time_ns() + o->timeout_ms * 1000000ull : 0;
    size_t used = 0;
    int why_killed = 0;
    for (;;) {
        /* Wake at least every 50 ms to see whether the library is unloading: unload must never
         * wait for a compiler. */
        int wait_ms = 50;
        if (deadline) {
            uint64_t now = os_time_ns();
            if (now >= deadline) {
                why_killed = ETIMEDOUT;
                break;
            }
            if ((deadline - now) / 1000000 < (uint64_t)wait_ms)
                wait_ms = (int)((deadline - now) / 1000000) + 1;
        }
        if (o && o->cancelled && o->cancelled()) {
            why_killed = ECANCELED;
            break;
        }
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int k = poll(&p, 1, wait_ms);
        if (k < 0 && errno != EINTR)
            break;
        if (k <= 0)
            continue;
        char buf[4096];
        ssize_t n = read(fds[0], buf, sizeof(buf));
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
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
    if (why_killed)
        kill_group(pid);
    close(fds[0]);
    if (out_size)
        out[used] = 0;
    /* Once the driver has ended, programs it started and left behind end with it: the group is
     * killed while the driver is still a zombie, whose pid (the group's id) no other process
     * can have taken yet. */
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0 && errno == EINTR)
        ;
    kill(-pid, SIGKILL);
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return errno;
    }
    if (why_killed)
        return why_killed;
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return 0;
}
