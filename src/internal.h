/*
 * src/internal.h: what the core's files share.
 *
 * Entry points validate at the door and record why they fail (STYLE.md 2, 3); the layers
 * below trust their arguments. Handles are registered objects (object.c); device pointers
 * are found through the address map (addrmap.c).
 */
#ifndef EXTMEM_INTERNAL_H
#define EXTMEM_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extmem/extmem.h"
#include "os.h"

/* ---- Errors (error.c) ---- */

/* Records code with a reason ("function: what: why") for this thread, logs it under
 * EXTMEM_LOG, and returns code: `return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc: ...")`. */
CUresult extmem__fail(CUresult code, const char *file, int line, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(4, 5);
#define fail(code, ...) extmem__fail((code), __FILE__, __LINE__, __VA_ARGS__)

/* Logs at info or trace level when EXTMEM_LOG asks for it. */
void log_info(const char *fmt, ...) EXTMEM_PRINTF_FORMAT(1, 2);
/* Logs what went wrong without failing a call (a peer process died) at EXTMEM_LOG=warn and
 * above. */
void log_warn(const char *fmt, ...) EXTMEM_PRINTF_FORMAT(1, 2);
enum { LOG_OFF, LOG_ERROR, LOG_WARN, LOG_INFO, LOG_TRACE };
int log_level(void);

/* The X-macro table's name for a code, or NULL for a code CUDA does not define. */
const char *result_name(CUresult code);

/* ---- Library state (init.c) ---- */
/* True after cuInit, except in a fork() child of the process that called it (docs/fork.md). */
bool lib_initialized(void);
/* Records why the library cannot be used (cuInit not called; or this process is a fork child of
 * an initialised one) and returns CUDA_ERROR_NOT_INITIALIZED, as the driver answers both. */
CUresult lib_not_ready(const char *fn);
/* The door of every entry point (ctx_current goes through it too): fails with
 * CUDA_ERROR_NOT_INITIALIZED before cuInit and in a fork child of an initialised process. */
#define REQUIRE_INIT(fn)                                                                       \
    do {                                                                                       \
        if (!lib_initialized())                                                                \
            return lib_not_ready(fn);                                                          \
    } while (0)

/* ---- Objects and handles (object.c) ---- */
typedef enum obj_type {
    OBJ_CONTEXT = 1,
    OBJ_STREAM,
    OBJ_EVENT,
    OBJ_ALLOCATION, /* CUmemGenericAllocationHandle */
    OBJ_EXTERNAL_MEMORY,
    OBJ_MODULE,   /* CUmodule (module.h) */
    OBJ_FUNCTION, /* CUfunction: dies with its module */
    OBJ_LIBRARY,  /* CUlibrary */
    OBJ_KERNEL,   /* CUkernel: an entry of a library, in whichever context is current */
    OBJ_EXTERNAL_SEMAPHORE,
    OBJ_TYPE_COUNT
} obj_type;

struct obj {
    obj_type type;
    uint32_t slot;
    uint64_t handle;
    atomic_int refs;
    void (*destroy)(struct obj *);
};

typedef enum obj_status {
    OBJ_FOUND,
    OBJ_NULL,       /* the handle is 0 */
    OBJ_DESTROYED,  /* issued by extmem, since destroyed */
    OBJ_WRONG_TYPE, /* a live handle of another type */
    OBJ_UNKNOWN     /* never issued by extmem */
} obj_status;

/* Registers o (one reference, owned by the registry) and returns its handle value, or 0 when
 * out of memory. */
uint64_t obj_register(struct obj *o, obj_type type, void (*destroy)(struct obj *));
/* Looks a handle up; on OBJ_FOUND *out holds a new reference. */
obj_status obj_lookup(uint64_t handle, obj_type type, struct obj **out);
/* Removes o from the registry (once: false when already removed) and drops the registry's
 * reference. */
bool obj_unregister(struct obj *o);
void obj_retain(struct obj *o);
void obj_release(struct obj *o);
const char *obj_type_name(obj_type type);
/* Why a lookup failed, for error messages: "was destroyed", "is an event, not a stream"... */
const char *obj_status_text(obj_status status, obj_type wanted, uint64_t handle);

/* ---- Device (device.c) ---- */
#define EXTMEM_DEVICE_COUNT 1
#define EXTMEM_DRIVER_VERSION 13000
/* Fails with CUDA_ERROR_INVALID_DEVICE for an ordinal that is not the software device. */
CUresult device_check(const char *fn, CUdevice dev);
size_t device_granularity(void);
void device_uuid(CUuuid *uuid);
/* The compute capability the device reports: 8.0, or EXTMEM_COMPUTE_CAPABILITY (docs/attributes.md).
 * As major * 10 + minor: 80. */
int device_sm(void);
/* Shared memory a block may have without opting in (48 KiB), and with it (sm_80's 163 KiB). */
#define DEVICE_SHARED_PER_BLOCK (48 * 1024)
#define DEVICE_SHARED_PER_BLOCK_OPTIN (163 * 1024)
#define DEVICE_SHARED_PER_SM (164 * 1024)
#define DEVICE_RESERVED_SHARED_PER_BLOCK 1024
#define DEVICE_THREADS_PER_SM 2048
#define DEVICE_BLOCKS_PER_SM 32
#define DEVICE_REGISTERS_PER_SM 65536

/* ---- Contexts (context.c) ---- */
struct stream;
/* A doubly linked list node, for the objects a context owns. */
struct list_node {
    struct list_node *prev, *next;
};
void list_init(struct list_node *head);
void list_add(struct list_node *head, struct list_node *node);
void list_del(struct list_node *node);
bool list_empty(const struct list_node *head);
#define list_entry(node, type, member) ((type *)((char *)(node) - offsetof(type, member)))

struct ctx {
    struct obj base;
    CUdevice dev;
    unsigned int flags;
    bool primary;
    atomic_bool destroyed;
    os_mutex lock;             /* guards the lists below */
    struct list_node streams;  /* struct stream.ctx_node */
    struct list_node events;   /* struct event.ctx_node */
    struct list_node ranges;   /* struct range.ctx_node */
    struct list_node modules;  /* struct module.ctx_node (module.h) */
    /* The first fault of a kernel (ILLEGAL_ADDRESS, LAUNCH_FAILED, ASSERT ...) is sticky, as on
     * a GPU: ctx_current answers it to every later call until the context is destroyed or
     * reset (docs/kernels.md). 0 while the context is healthy; the reason under lock. */
    atomic_int sticky;
    char sticky_reason[600];
    uint32_t stack_limit;      /* CU_LIMIT_STACK_SIZE: bytes of local memory per thread */
    size_t printf_fifo_limit, malloc_heap_limit; /* CU_LIMIT_PRINTF_FIFO_SIZE, MALLOC_HEAP_SIZE */
    struct stream *deferred;   /* the legacy stream's deferred work (target_defer), under lock; a reference */
};

/* The current context of this thread with a reference, or a failure with a reason. */
CUresult ctx_current(const char *fn, struct ctx **out);
/* A context handle from the caller, with a reference. */
CUresult ctx_lookup(const char *fn, CUcontext handle, struct ctx **out);
void ctx_release(struct ctx *ctx);
/* Waits until every stream of ctx has drained. */
void ctx_synchronize(struct ctx *ctx);
/* Makes code (a kernel's fault) the context's sticky error, unless it already has one. */
void ctx_set_sticky(struct ctx *ctx, CUresult code, const char *reason);
/* The context's sticky error (recorded with fail: "fn: ..."), or CUDA_SUCCESS. ctx_current
 * answers it at every call's door; calls that wait for work ask again after the wait. */
CUresult ctx_check_sticky(const char *fn, struct ctx *ctx);
/* The same for this thread's current context, if it has one (cuEventSynchronize). */
CUresult ctx_current_sticky(const char *fn);
/* Unloads the modules of a context that is being destroyed (module.c). */
void module_destroy_all(struct ctx *ctx);

/* ---- Address maps (addrmap.c): which allocation holds this address? O(log n). ----
 * amap_memory holds what device pointers point at: allocations and VMM mappings.
 * amap_reservations holds cuMemAddressReserve ranges. One lock guards both. */
typedef enum range_kind {
    RANGE_DEVICE = 1,  /* cuMemAlloc */
    RANGE_HOST,        /* cuMemAllocHost / cuMemHostAlloc */
    RANGE_MAPPING,     /* cuMemMap: a struct mapping (vmm.h) */
    RANGE_EXTERNAL,    /* cuExternalMemoryGetMappedBuffer */
    RANGE_IPC,         /* cuIpcOpenMemHandle: a struct ipc_range (ipc.c) */
    RANGE_RESERVATION, /* cuMemAddressReserve: a struct reservation (vmm.h) */
    RANGE_MODULE,      /* a module's .global and .const variables: freed by cuModuleUnload only */
} range_kind;

struct range {
    uintptr_t base;
    size_t size;      /* what the caller asked for */
    size_t map_size;  /* the extent lookups find: size rounded up to whole pages */
    uintptr_t unmap_base; /* what to unmap when the range goes */
    size_t unmap_len;
    range_kind kind;
    unsigned int flags; /* cuMemHostAlloc flags */
    uint64_t buffer_id;
    uint8_t nonce[16]; /* device memory: part of its memfd's name, proves IPC handles genuine */
    struct ctx *ctx;  /* owning context (not a reference: the context frees its ranges) */
    os_memory mem;
    /* Memory another API owns (Direct3D): nothing to unmap; the owner is released instead. */
    void (*release)(void *owner);
    void *owner;
    struct list_node ctx_node; /* the context's allocations */
    /* treap links */
    struct range *left, *right;
    uint32_t priority;
};

struct amap {
    struct range *root;
    size_t count;
};
extern struct amap amap_memory, amap_reservations;

void amap_lock_read(void);
void amap_lock_write(void);
void amap_unlock(void);
/* With the maps locked: */
void amap_insert(struct amap *m, struct range *r);
void amap_remove(struct amap *m, struct range *r);
struct range *amap_find(const struct amap *m, uintptr_t addr);
/* A range that shares an address with [base, base + size), or NULL. */
struct range *amap_overlap(const struct amap *m, uintptr_t base, size_t size);
/* The first range (lowest base) that overlaps [addr, addr + size), or NULL. */
struct range *amap_find_overlap(const struct amap *m, uintptr_t addr, size_t size);
/* The range with the lowest base >= addr, or NULL. */
struct range *amap_next(const struct amap *m, uintptr_t addr);

/* Looks up [addr, addr + size) for a copy or fill: a range that starts in an allocation
 * must end in it, a range in VMM mappings must be mapped throughout with the access it
 * needs (MEM_WRITE, or only read); an address outside every allocation is pageable host
 * memory, refused with MEM_DEVICE (a parameter the call names a device pointer, as the driver
 * refuses it) and otherwise accepted where mapped and readable, with *pageable set (NULL: not
 * wanted). With the maps unlocked. */
enum { MEM_WRITE = 1, MEM_DEVICE = 2 };
CUresult mem_check_access(const char *fn, const char *what, uintptr_t addr, size_t size, int flags, bool *pageable);
/* For kernels' loads and stores: true when [addr, addr + size) lies in device memory a kernel
 * may read (write: and write), with the extent of the allocation or mapping that holds it in
 * [*lo, *hi) (empty when the access spans several mappings). Takes the maps' read lock. */
bool mem_kernel_extent(uintptr_t addr, size_t size, bool write, uintptr_t *lo, uintptr_t *hi);
/* With the maps read-locked: checks that [addr, addr + size) is covered by contiguous VMM
 * mappings, starting with first (which contains addr); on failure *why says what is wrong. */
bool vmm_covered(const struct range *first, uintptr_t addr, size_t size, int need_access, const char **why);
/* Fails with CUDA_ERROR_OUT_OF_MEMORY when size is more than the memory the machine has
 * available (device memory is host memory). */
CUresult mem_check_available(const char *fn, size_t size);
/* Frees every allocation of ctx (context destruction). */
void mem_free_context(struct ctx *ctx);
/* Registers r (base, size, map_size, unmap_*, kind set by the caller) as an allocation of ctx. */
void mem_register(struct ctx *ctx, struct range *r);
/* The same, unless r would share an address with a registered range (memory of another API,
 * which has one address for all its buffers): then nothing is registered and it is false. */
bool mem_register_unless_overlapping(struct ctx *ctx, struct range *r);
/* The name of a memory object carrying a nonce: prefix then 32 hex digits. Device memory is
 * "extmem-device-<nonce>", an interprocess event's page "extmem-event-<nonce>" (ipc.c checks
 * the name of what a handle opens against it). */
void mem_object_name(const char *prefix, const uint8_t nonce[16], char name[64]);
/* With the maps write-locked: makes r unfindable, by address and in its context's list, in
 * one step, so that exactly one caller (a free, or the context's destruction) owns it. */
void mem_unpublish(struct range *r);
/* Frees a range the caller has unpublished; it does not touch r->ctx, which may be gone. */
void mem_free_range(struct range *r);
/* ipc.c: forgets an opened IPC range that is being freed. */
void ipc_range_forget(struct range *r);

/* ---- Streams and work (stream.c) ---- */
struct work {
    struct work *next;
    void (*run)(struct work *w);
    void (*discard)(struct work *w); /* optional: frees what run would have freed */
    /* Optional: called when w takes its place in its stream's order, under the lock that
     * orders the queue (an event record takes its sequence number there, DESIGN.md §6). */
    void (*queued)(struct work *w);
    /* Optional: called in the submitting thread when w is queued rather than run at once, before
     * it can run: w stops depending on the caller's memory (a copy stages a pageable source).
     * False: it could not, and the call waits for w instead. */
    bool (*detach)(struct work *w);
};

struct stream {
    struct obj base;
    struct ctx *ctx; /* a reference */
    unsigned int flags;
    int priority;
    os_mutex lock;
    os_cond cond;
    struct work *head, *tail;
    /* Written under lock; also read without it by waiters that spin (stream_wait_until). */
    _Atomic uint64_t submitted, completed;
    bool running;     /* a worker thread is attached */
    bool destroyed;   /* cuStreamDestroy was called: the worker exits when drained */
    os_thread thread; /* the worker, while running */
    struct list_node ctx_node;
    struct list_node device_node; /* every stream of the device (drain.c) */
};

/* Destroys the streams and events of a context that is being destroyed. */
void stream_destroy_all(struct ctx *ctx);
void event_destroy_all(struct ctx *ctx);

/* Where work goes: a stream's queue, or (s NULL) the calling thread. Work for the legacy
 * default stream runs in the caller once the context's blocking streams have drained, which
 * orders it after all earlier work and before all later work; work for the per-thread
 * default stream runs in the caller at once. */
struct target {
    struct ctx *ctx;   /* a reference */
    struct stream *s;  /* a reference, or NULL */
    bool legacy;
    bool sync;         /* the call returns only once its work has run (cuMemcpy, not ...Async) */
};
/* Resolves the current context and a stream argument. On success release with target_put. */
CUresult target_get(const char *fn, CUstream handle, struct target *t);
void target_put(struct target *t);
/* Queues w (ownership passes), or runs it now; see struct target. While the legacy stream has
 * deferred work (target_defer), its work is queued behind it instead, and a `sync` caller waits
 * for its piece. */
void target_submit(struct target *t, struct work *w);
/* Queues w, work for the legacy default stream that must not run in the calling thread (a
 * semaphore wait that may not pass for a long time), on the context's queue for deferred legacy
 * work; until that queue drains, the legacy stream's later work follows it there, and work for
 * blocking streams waits for what was queued there before it (stream.c). */
void target_defer(struct target *t, struct work *w);

CUresult stream_lookup(const char *fn, CUstream handle, struct stream **out);
/* Drops the context's queue of deferred legacy work (context teardown, after its streams). */
void stream_drop_deferred(struct ctx *ctx);
/* True while the legacy stream of ctx has deferred work not yet run. */
bool stream_legacy_busy(struct ctx *ctx);
void stream_release(struct stream *s);
void stream_synchronize(struct stream *s);
/* Waits until s has completed `count` pieces of work. */
void stream_wait_until(struct stream *s, uint64_t count);
/* Waits until each stream on the list `head` (linked through the list_node at `node_offset` in
 * struct stream, guarded by `lock`, taken before any stream's lock) has completed the work
 * queued on it when it was seen; with blocking_only, non-blocking streams are skipped. A busy
 * stream still has its worker's reference (the worker leaves only when drained), so it can be
 * retained even while its handle is being destroyed. */
void streams_wait(os_mutex *lock, struct list_node *head, size_t node_offset, bool blocking_only);

/* ---- The device's streams and threads as a whole (drain.c) ---- */
/* Waits for all work queued on the device before the call: what a release does before memory
 * leaves the address space (a no-op in device work, which device_wait_allowed refuses). */
void device_drain(void);
/* CUDA_ERROR_NOT_PERMITTED in a host function or kernel, which would wait for itself. */
CUresult device_wait_allowed(const char *fn);
/* Submissions (target_get .. target_put) against releases: a release call brackets its work
 * with device_release_begin (refuses in device work, waits for the device, and keeps new
 * submissions out until device_release_end), so no submission validated against memory the
 * release frees is queued after the release waited. */
void device_submit_begin(void);
void device_submit_end(void);
CUresult device_release_begin(const char *fn);
void device_release_end(void);
/* device_release_begin (or, where that is refused, device_drain) for a call that tears down a
 * context, a module or a library: kernels still running after the grace period from the call
 * (EXTMEM_KERNEL_TIMEOUT, else 10 s) are cancelled, so that the wait ends (kernel_cancel.c).
 * True when device_release_end must follow. */
bool device_teardown_begin(const char *fn);
/* This thread runs device work (a stream worker, a pool thread): API calls that wait for the
 * device refuse instead of waiting for themselves. */
void device_thread_mark(void);
bool device_thread(void);
/* The library is being unloaded: work runs in the calling thread, no thread is started. */
bool device_unloading(void);
void device_track_stream(struct stream *s);
void device_untrack_stream(struct stream *s);
/* Stream workers' lifetimes, so that unloading can join every one. */
void device_worker_started(void);
void device_worker_leaving(os_thread self);
void device_worker_leaving_unstarted(void); /* a worker counted as started could not start */
void device_reap_workers(void);
/* Waits for queued work, joins every thread extmem started; called when the library is
 * unloaded (src/posix: a destructor; Windows joins nothing under the loader lock). */
void device_unload(void);

/* ---- Running kernels: cancellation and the watchdog (kernel_cancel.c; docs/kernels.md) ---- */
/* A call that waits for the device to tear something down: while it waits, kernels that run
 * past its deadline are cancelled (CUDA_ERROR_LAUNCH_TIMEOUT, sticky for their contexts). */
struct kernel_grace {
    struct list_node node;
    const char *fn;          /* the call, for reasons and the log */
    uint64_t start, deadline; /* os_time_ns */
};
void kernel_grace_begin(struct kernel_grace *g, const char *fn);
void kernel_grace_end(struct kernel_grace *g);
/* The library unloads (exit): every running kernel is cancelled at once, none starts from now
 * on, and the watchdog's thread is joined. */
void kernel_cancel_all(void);

/* ---- Events (event.c) ---- */
struct event;
CUresult event_lookup(const char *fn, CUevent handle, struct event **out);
void event_release(struct event *e);

/* ---- Worker pool (pool.c) ---- */
struct pool_job {
    void (*run)(struct pool_job *job, uint64_t index);
    uint64_t count;             /* indices 0..count-1 */
    atomic_int *stop;           /* optional: once nonzero, the indices not yet handed out are skipped
                                 * (a kernel's `faulted`: its blocks not yet started never run) */
    atomic_uint_fast64_t next;  /* next index to hand out */
    uint64_t done;              /* indices finished (pool lock) */
    unsigned int helpers;       /* pool threads inside the job (pool lock) */
    struct list_node node;      /* the pool's list of jobs with indices left */
};
/* Runs job->run for every index on the pool, this thread helping, and returns when all ran. */
void pool_run(struct pool_job *job);
unsigned int pool_worker_count(void);
/* Stops and joins the pool threads (unloading). */
void pool_stop(void);

/* ---- External memory that another API owns (src/d3d) ----
 * Memory extmem reaches at an address of this process, kept alive by a reference to its owner
 * (a Direct3D resource mapped for the CPU): imported as external memory without an OS handle. */
struct ext_source {
    void *ptr;   /* its bytes, in this process */
    size_t size; /* how many */
    void *owner;
    void (*retain)(void *owner);
    void (*release)(void *owner);
};
/* Registers src as external memory of `type`, `size` bytes as the application gave them (0:
 * src's size); takes the caller's reference to src's owner whatever happens. */
CUresult ext_import_source(const char *fn, const struct ext_source *src, unsigned long long size,
                           CUexternalMemoryHandleType type, CUexternalMemory *out);

/* ---- The Windows handle rules of external memory and semaphores (external_handle.c) ---- */
/* A descriptor's handle and name for `type` (its name in messages): a KMT type takes a handle
 * and no name, the others exactly one of the two. */
CUresult ext_handle_check(const char *fn, const char *type, bool kmt, const void *handle, const void *name);
/* Where the object is: *h is the caller's NT handle, or (*opened) one extmem opened by the name
 * or KMT token; `what` names the object in messages, *label names the handle. */
CUresult ext_handle_locate(const char *fn, const char *what, bool kmt, const void *handle, const uint16_t *name,
                           os_handle *h, bool *opened, char *label, size_t label_size);

/* ---- External semaphores (external_semaphore.c) ----
 * A semaphore that is not an extmem payload (src/sem_payload.h): a Direct3D fence, for one
 * (src/d3d). Its owner gives these calls; stream workers make them. */
typedef enum sem_wait_result { SEM_PASSED = 0, SEM_TIMED_OUT, SEM_ABANDONED, SEM_FAILED } sem_wait_result;
struct sem_source {
    void *owner;
    bool timeline;                                        /* fences: a 64-bit value */
    void (*signal)(void *owner, uint64_t value);          /* sets the value (binary: signals) */
    sem_wait_result (*wait)(void *owner, uint64_t value, uint64_t timeout_ns);
    uint64_t (*value)(void *owner);
    void (*release)(void *owner);
};
/* Registers src as an external semaphore of `type`; takes the caller's reference to src's
 * owner whatever happens. */
CUresult ext_semaphore_from_source(const char *fn, const struct sem_source *src, CUexternalSemaphoreHandleType type,
                                   CUexternalSemaphore *out);

#endif /* EXTMEM_INTERNAL_H */
