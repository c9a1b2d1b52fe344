/*
 * src/os.h: the one internal interface to the operating system.
 *
 * src/posix/ and src/win32/ implement it with the same file names; CMake picks the folder
 * (DESIGN.md §1, STYLE.md 1). Every platform #ifdef of the core lives in this header.
 * Functions that can fail return 0 or the OS's own error code (errno, or a Windows error),
 * which the caller puts into its error detail through os_error_string().
 */
#ifndef EXTMEM_OS_H
#define EXTMEM_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(_MSC_VER) && !defined(__clang__)
#define OS_THREAD_LOCAL __declspec(thread)
#else
#define OS_THREAD_LOCAL _Thread_local /* mingw-w64 gcc ignores __declspec(thread) */
#endif
/* Stand-ins for SRWLOCK and CONDITION_VARIABLE (one pointer each; zero is their initial
 * value), so that no core file includes windows.h; src/win32/thread.c checks the sizes. */
typedef struct os_mutex { void *srw; } os_mutex;
typedef struct os_cond { void *cv; } os_cond;
typedef struct os_thread { void *handle; } os_thread;
/* The SRW lock, and the thread that holds it exclusively (0: none), which tells
 * os_rwlock_unlock how it was taken. */
typedef struct os_rwlock { void *srw; volatile unsigned long writer; } os_rwlock;
#define OS_RWLOCK_INITIALIZER {0, 0}
typedef void *os_handle; /* a HANDLE */
#define OS_INVALID_HANDLE ((os_handle)0)
/* Kernel handles are 32-bit values sign-extended, so 32-bit and 64-bit processes can share
 * them (Microsoft's "Interprocess Communication Between 32-bit and 64-bit Applications"):
 * IPC handles carry them in 32 bits. */
static inline int32_t os_handle_to_int32(os_handle h) { return (int32_t)(intptr_t)h; }
static inline os_handle os_handle_from_int32(int32_t v) { return (os_handle)(intptr_t)v; }
#define OS_MUTEX_INITIALIZER {0}
#define OS_HAS_POSIX_FD 0
#define OS_VULKAN_LOADER "vulkan-1.dll"
/* A DLL's destructors run under the loader lock (DllMain), where joining a thread deadlocks,
 * and at process exit after the other threads were ended: extmem joins nothing there. */
#define OS_JOIN_THREADS_AT_UNLOAD 0
#else
#include <pthread.h>
#define OS_THREAD_LOCAL _Thread_local
typedef pthread_mutex_t os_mutex;
typedef pthread_cond_t os_cond;
typedef pthread_t os_thread;
typedef pthread_rwlock_t os_rwlock;
#define OS_RWLOCK_INITIALIZER PTHREAD_RWLOCK_INITIALIZER
typedef int os_handle; /* a file descriptor */
#define OS_INVALID_HANDLE (-1)
static inline int32_t os_handle_to_int32(os_handle h) { return h; }
static inline os_handle os_handle_from_int32(int32_t v) { return v; }
#define OS_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#define OS_HAS_POSIX_FD 1
#define OS_VULKAN_LOADER "libvulkan.so.1"
#define OS_JOIN_THREADS_AT_UNLOAD 1
#endif

/* ---- Shareable memory (src/<os>/memory.c) ----
 * Device memory is an OS memory object (a sealed memfd on Linux, a pagefile-backed section
 * on Windows) mapped shared, so any allocation can be exported without a copy. */
typedef struct os_memory {
    os_handle handle;
    size_t size;        /* bytes in the object: a multiple of the page size */
    uint32_t token;     /* Windows: what names the section besides its name and the pid (IPC),
                         * or its KMT token when `global`; Linux: 0 */
    bool global;        /* Windows: reachable by its token alone (a KMT handle) */
    bool inheritable;   /* Windows: exported handles are inherited by child processes */
    bool read_only;     /* Linux: opened from a read-only fd (os_memory_open): its mappings
                         * can never be made writable */
} os_memory;

/* Who else may open a new memory object, and how. Windows only: on Linux a memory object
 * reaches just the processes its fd is given to. */
typedef struct os_share {
    /* A SECURITY_ATTRIBUTES or an OBJECT_ATTRIBUTES (CUmemAllocationProp::win32HandleMetaData):
     * its security descriptor guards the object, its inherit flag the exported handles. NULL:
     * the creating user alone (an owner-only DACL, DESIGN.md §9). */
    const void *security;
    bool global; /* also reachable by a token that holds no reference (KMT), os_memory.token */
} os_share;

size_t os_page_size(void);
/* Creates a memory object of size bytes. `name` (unique per object when it carries a nonce)
 * is how extmem recognises its own objects; `share` may be NULL (the defaults). */
int os_memory_create(os_memory *mem, size_t size, const char *name, const os_share *share);
/* Checks that `security` is something os_share.security accepts; 0, or EINVAL with *why. */
int os_share_check(const void *security, char *why, size_t why_size);
/* Maps [offset, offset + size) of mem shared and writable. Like every mapping of device memory
 * the OS layer makes (os_map_fixed, os_external_map), it is not inherited by a fork() child:
 * the child of an initialised process cannot use CUDA (docs/fork.md), and on the driver it
 * cannot reach the parent's device memory either. */
int os_memory_map(const os_memory *mem, size_t offset, size_t size, void **addr);
/* Makes a mapping of os_memory_map inherited by fork() children after all: pinned host memory,
 * which the driver maps shared and its fork children keep (docs/fork.md). */
void os_memory_inherit(void *addr, size_t size);
/* The other way round, for a mapping the OS layer made by other means (its own use). */
void os_memory_keep_from_fork(void *addr, size_t size);
int os_memory_unmap(void *addr, size_t size);
void os_memory_close(os_memory *mem);
/* True when the size of the memory object h can no longer change (Linux: a memfd sealed
 * against shrinking and growing, as os_memory_create makes them; Windows: any section, whose
 * size is fixed when it is made). A mapping of an object that can shrink loses pages under
 * its mapper (SIGBUS), so memory from another process is mapped only after this holds. */
bool os_memory_size_is_fixed(os_handle h);
/* True when every page of [addr, addr + size) is mapped in this process. */
bool os_memory_is_mapped(const void *addr, size_t size);
/* True when every page of [addr, addr + size) can be read, without touching it (a mapped but
 * PROT_NONE page is not readable). */
bool os_memory_is_readable(const void *addr, size_t size);

/* ---- External memory objects (src/<os>/external.c) ---- */
typedef enum os_external_kind {
    OS_EXTERNAL_EXTMEM = 1, /* an extmem allocation (cuMemExportToShareableHandle) */
    OS_EXTERNAL_MESA,       /* a Mesa memory fd (lavapipe's vkGetMemoryFdKHR): header, then data */
    OS_EXTERNAL_DMABUF,     /* a dma-buf */
    OS_EXTERNAL_SECTION,    /* Windows: a section another program made: all of it is data */
} os_external_kind;

typedef struct os_external {
    os_external_kind kind;
    size_t data_offset; /* where the memory's bytes start in the object */
    size_t data_size;   /* how many bytes it has */
} os_external;

/* Identifies h as memory extmem can import as `want` (OPAQUE_FD: extmem or Mesa; DMABUF_FD:
 * a dma-buf), without taking or changing it. Returns 0, an OS error for an unusable handle,
 * or EINVAL with *why saying what h is instead. */
int os_external_identify(os_handle h, bool dmabuf, os_external *out, char *why, size_t why_size);
/* Windows: opens the memory object (a section) of a NUL-terminated UTF-16 name, or of a KMT
 * token; *out is extmem's own handle. Returns 0 or the OS error; Linux: ENOTSUP. */
int os_external_open_name(const uint16_t *name, os_handle *out);
int os_external_open_token(uint32_t token, os_handle *out);
/* Maps [offset, offset + size) of the object's file shared and writable; *base and *len are
 * what to unmap, *ptr the address of offset. */
int os_external_map(os_handle h, uint64_t offset, size_t size, void **ptr, void **base, size_t *len);
void os_handle_close(os_handle h);

/* ---- dma-bufs from memory objects (src/<os>/dmabuf.c; DESIGN.md §10) ---- */
typedef struct os_dmabuf_piece {
    os_handle memory; /* an os_memory's handle */
    uint64_t offset;  /* page-aligned */
    uint64_t size;    /* page-aligned */
} os_dmabuf_piece;
/* True when this machine can make dma-bufs of memory objects (Linux: /dev/udmabuf works);
 * otherwise *why says what is missing. Probed once per process. */
bool os_dmabuf_supported(const char **why);
/* Makes one dma-buf of the pieces, in order, over the very same pages; *out is a new handle
 * (close-on-exec). Returns 0 or an OS error; *why explains an EINVAL (a provider's limit). */
int os_dmabuf_create(const os_dmabuf_piece *pieces, size_t count, os_handle *out, char *why, size_t why_size);
/* Called before a memory object's handle is closed: where a dma-buf made from it is still mapped
 * in this process, its pages are kept until that mapping goes (Linux: udmabuf does not keep the
 * memfd, src/posix/dmabuf.c). */
void os_dmabuf_memory_closing(os_handle memory);

/* ---- Address space for VMM (src/<os>/vmm.c) ---- */
enum { OS_ACCESS_NONE = 0, OS_ACCESS_READ = 1, OS_ACCESS_READWRITE = 3 };
/* Reserves size bytes aligned to alignment (a power of two), at hint when that is free. */
int os_reserve(size_t size, size_t alignment, uintptr_t hint, void **addr);
int os_unreserve(void *addr, size_t size);
/* Maps [offset, offset + size) of mem at addr, inside a reservation, with no access. */
int os_map_fixed(const os_memory *mem, size_t offset, void *addr, size_t size);
/* Puts the reservation back over a mapped range. */
int os_unmap_fixed(void *addr, size_t size);
int os_protect(void *addr, size_t size, int access);
/* How this OS layer does the above, in words, for logs (Windows: placeholders, or the
 * fallback and why; src/win32/vmm.c). */
const char *os_vmm_method(void);
/* A new handle for the same object (not inheritable; close-on-exec). */
int os_handle_dup(os_handle h, os_handle *out);
/* A new handle of mem for the application (cuMemExportToShareableHandle): inheritable when
 * the object's security attributes asked for that. */
int os_memory_export(const os_memory *mem, os_handle *out);
/* Opens the memory object of a KMT token (os_memory.token of a `global` object). Returns 0,
 * or ERROR_FILE_NOT_FOUND when no object has the token (any more); Linux: ENOTSUP. */
int os_memory_open_token(uint32_t token, os_memory *mem);
/* Checks that h is a memory object extmem created (in any process) and opens it as mem (a new
 * handle; h stays the caller's; mem.read_only when h allows no writing). Returns 0, or an OS error; *why explains a refusal when
 * the object is readable but not extmem's (then the return is EINVAL). */
int os_memory_open(os_handle h, os_memory *mem, char *why, size_t why_size);

/* ---- Threads and synchronisation (src/<os>/thread.c) ---- */
void os_mutex_init(os_mutex *m);
void os_mutex_destroy(os_mutex *m);
void os_mutex_lock(os_mutex *m);
void os_mutex_unlock(os_mutex *m);
void os_rwlock_read(os_rwlock *l);
void os_rwlock_write(os_rwlock *l);
/* os_rwlock_write only where it need not wait: false when another thread holds the lock. */
bool os_rwlock_try_write(os_rwlock *l);
void os_rwlock_unlock(os_rwlock *l);
void os_cond_init(os_cond *c);
void os_cond_destroy(os_cond *c);
void os_cond_wait(os_cond *c, os_mutex *m);
/* os_cond_wait for at most about ns nanoseconds (spurious and timed-out wake-ups alike return). */
void os_cond_timedwait(os_cond *c, os_mutex *m, uint64_t ns);
void os_cond_signal(os_cond *c);
void os_cond_broadcast(os_cond *c);
int os_thread_create(os_thread *t, void (*fn)(void *), void *arg);
void os_thread_detach(os_thread t);
/* Waits for t to end and frees what it holds. */
void os_thread_join(os_thread t);
/* Names the calling thread (at most 15 characters), for debuggers, /proc and the unload test. */
void os_thread_set_name(const char *name);
/* Tells the CPU this thread is spinning on a word (a short wait before sleeping). */
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include <immintrin.h>
static inline void os_cpu_relax(void) { _mm_pause(); }
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
static inline void os_cpu_relax(void) { __asm__ __volatile__("yield"); }
#else
static inline void os_cpu_relax(void) {}
#endif

/* ---- Waiting on a word of memory, also across processes (src/<os>/wait.c) ---- */
/* Sleeps while *addr == expected (spurious wake-ups are allowed); the word is this process's. */
void os_wait_on(void *addr, uint32_t expected);
void os_wake_all(void *addr);

/* Waiting on a word that lives in a shared memory object (`page`), woken from any process.
 * Linux: shared futexes do it, and the waker holds nothing. Windows: WaitOnAddress stays inside
 * a process, so waiters count themselves in *sleepers (a word beside *word in the same memory)
 * and sleep on a named semaphore beside the object, which the waker releases once per
 * sleeper. Spurious wake-ups are allowed, as for os_wait_on. */
typedef struct os_waker {
    os_handle semaphore;
} os_waker;
int os_waker_open(const os_memory *page, os_waker *w);
void os_waker_close(os_waker *w);
/* Returns after at most about timeout_ms even if nobody woke it, so a waiter can look at why
 * it was not woken (a waker in another process may have died). */
void os_wait_shared(os_waker *w, uint32_t *word, uint32_t expected, uint32_t *sleepers, uint32_t timeout_ms);
void os_wake_shared(os_waker *w, uint32_t *word, uint32_t *sleepers);

/* ---- Other processes (src/<os>/process.c) ---- */
/* From now on, in_child runs in the child of every fork() of this process (pthread_atfork),
 * before fork returns there. Windows has no fork: nothing happens. */
void os_watch_fork(void (*in_child)(void));
/* A value that changes when a pid is reused: the process's start time; 0 if it has exited,
 * reaped or not (Linux: a zombie counts as exited, as an exited process does on Windows while
 * handles keep its object), is gone, or pid is not the process's own id (Linux: a thread's id;
 * Windows: the id with its low two bits changed, which OpenProcess ignores). */
uint64_t os_process_start_time(int pid);
/* What an IPC handle carries to name mem besides its name and the exporter's pid: Linux, the
 * fd; Windows, the section's token. */
int32_t os_ipc_token(const os_memory *mem);
/* Opens the memory object another process exported as (name, token): Linux, that process's
 * /proc/<pid>/fd/<token>, which the kernel refuses to other users; Windows, the named section
 * Local\<name>-<pid>-<token>, whose DACL admits its owner alone, so no process needs rights
 * over another. Fails when the object is gone or this process may not open it. */
int os_ipc_open(int pid, int32_t token, const char *name, os_handle *out);
/* The object's identity, size and (unless name is NULL) name: the name os_memory_create was
 * given, possibly followed by the OS's decoration (Linux: inode, size, and the memfd's name,
 * " (deleted)" after it; Windows: a hash of the section's unique name, its size, and that name). */
int os_handle_identity(os_handle h, uint64_t *id, uint64_t *size, char *name, size_t name_size);

/* ---- System facts (src/<os>/system.c) ---- */
uint64_t os_time_ns(void); /* monotonic */
/* Nanoseconds since 1970-01-01 UTC (the wall clock, for timestamps people read). */
uint64_t os_wall_time_ns(void);
unsigned int os_cpu_count(void);
uint64_t os_memory_total(void);
uint64_t os_memory_available(void);
/* A cheap lower bound of os_memory_available() (free memory, without reclaimable cache). */
uint64_t os_memory_free(void);
int os_random_bytes(void *buf, size_t size);
/* An environment variable's value, or NULL; always NULL in a privileged process (os_privileged:
 * a set-uid program's environment is its caller's, secure_getenv's rule) and on Windows the
 * process environment, not the C runtime's copy. */
const char *os_getenv(const char *name);
int os_process_id(void);
/* CPU facts for device attributes; 0 when the OS does not say. */
unsigned int os_cpu_clock_khz(void);
size_t os_l2_cache_size(void);
const char *os_cpu_model(void);
/* True when the shared library `name` is already loaded in this process (nothing is loaded). */
bool os_library_loaded(const char *name);
/* Called once by cuInit: allow as many open handles as the process may have, since every
 * allocation holds one. */
void os_raise_handle_limit(void);

/* ---- The native kernel tier's needs (src/<os>/jit.c; docs/kernels.md, "What the native tier
 * trusts") ---- */
/* True in a process the OS started with more privileges than its caller has (Linux: set-uid,
 * set-gid or file capabilities, AT_SECURE): its environment is the caller's, so os_getenv
 * answers NULL for everything and the native tier runs no compiler at all. */
bool os_privileged(void);
/* A folder, opened once and reached only through what was opened: entries are opened relative
 * to it, never by a path that could have been swapped since the checks. */
typedef struct os_dir os_dir;
/* Opens the folder at path, making it and its missing parents (owner-only) where they do not
 * exist, and only if it may be trusted: owned by this process's user, writable by no one else,
 * not a symbolic link, writable. 0, or an OS error with why. */
int os_dir_open_private(const char *path, os_dir **out, char *why, size_t why_size);
/* A new folder of this process's alone, of a random name under TMPDIR (or /tmp): never one
 * that existed before the call. 0, or an OS error with why. */
int os_dir_make_temp(const char *prefix, os_dir **out, char *why, size_t why_size);
const char *os_dir_path(const os_dir *d);
/* Closes d (NULL: nothing); `remove` deletes its files and the folder itself. */
void os_dir_close(os_dir *d, bool remove);
/* Reads the entry `name` whole (at most max bytes) into *data (free it): only a regular file,
 * not a link, owned by this user and writable by no one else (`secret`: nor readable). 0, or an
 * OS error with why (ENOENT: there is none). */
int os_dir_read(os_dir *d, const char *name, bool secret, size_t max, char **data, size_t *len, char *why,
                size_t why_size);
/* Writes the entry `name` (owner-only) whole or not at all: under a temporary name, then
 * renamed over it (`replace`), or linked where none exists yet (EEXIST if one does). */
int os_dir_write(const os_dir *d, const char *name, const void *data, size_t len, bool replace);
/* Loads the entry `name` as a shared library, with its symbols private to it, after the checks
 * of os_dir_read and `check` (may be NULL) on its bytes, from the very file that was checked.
 * 0, or an OS error with why. */
int os_dir_load(os_dir *d, const char *name, bool (*check)(const char *data, size_t len, void *ctx), void *ctx,
                void **lib, char *why, size_t why_size);
void *os_library_symbol(void *lib, const char *name);
void os_library_close(void *lib);
/* How a program is run: in the folder `dir` (NULL: the process's), killed with everything it
 * started after timeout_ms (0: no limit) or once cancelled() says so (checked every 50 ms or
 * sooner), with at most memory_limit bytes of address space (0: no limit). */
struct os_run_options {
    const os_dir *dir;
    uint64_t timeout_ms;
    uint64_t memory_limit;
    bool (*cancelled)(void);
};
/* Runs the program argv[0] (a path, or a name looked up on PATH) with argv (NULL-ended), input
 * empty, its output and errors collected into out (NUL-terminated, cut at out_size). 0 with
 * *status its exit status (or -1 when a signal ended it); ETIMEDOUT or ECANCELED when it was
 * killed for o's limits; or an OS error when it could not be started. Windows runs no
 * compiler: it answers ERROR_NOT_SUPPORTED. */
int os_run(const char *const *argv, const struct os_run_options *o, char *out, size_t out_size, int *status);

/* ---- Fault injection for tests (src/fault.c, one file for both OS layers) ----
 * True when the environment variable EXTMEM_FAULT is "<call>@<hex address>" with an address
 * inside [addr, addr + size): then the OS layer's `call` fails with the OS's out-of-memory
 * error instead of doing its work. Checked by os_protect. */
bool os_fault_injected(const char *call, const void *addr, size_t size);

/* ---- Errors (src/<os>/error.c) ---- */
int os_last_error(void);
/* Writes a readable text for err into buf, including the raw code. Returns buf. */
const char *os_error_string(int err, char *buf, size_t size);
/* True when err means the system is out of memory or out of address space. */
bool os_error_is_out_of_memory(int err);
/* True when err means this process lacks the permission (EACCES, EPERM; ERROR_ACCESS_DENIED). */
bool os_error_is_access_denied(int err);

#endif /* EXTMEM_OS_H */
