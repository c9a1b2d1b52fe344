/*
 * src/device/device.h: the device and its lifetime, as the rest of the core sees it: the
 * library's state (init.c), objects and handles (object.c), lists (list.c), the device
 * (device.c), contexts (context.c), the device's streams and threads as a whole (drain.c),
 * running kernels' cancellation (kernel_cancel.c) and the worker pool (pool.c).
 *
 * Handles are registered objects (object.c); device pointers are found through the address map
 * (src/memory/memory.h).
 */
#ifndef EXTMEM_DEVICE_DEVICE_H
#define EXTMEM_DEVICE_DEVICE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extmem/extmem.h"
#include "os.h"
#include "device/error.h"

/* ---- Library state (init.c) ---- */
/* True after cuInit, except in a fork() child of the process that called it (docs/fork.md). */
bool lib_initialized(void);
/* Records why the library cannot be used (cuInit not called; or this process is a fork child of
 * an initialised one) and returns CUDA_ERROR_NOT_INITIALIZED, as the driver answers both. */
CUresult lib_not_ready(const char *fn);
/* The start time of this process, as os_process_start_time tells it (read once): interprocess
 * events' recorders and IPC handles name their process by it. */
uint64_t lib_start_time(void);
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
    OBJ_MEMPOOL,  /* CUmemoryPool (src/memory/pool.c) */
    OBJ_GRAPH,      /* CUgraph (src/graph) */
    OBJ_GRAPH_NODE, /* CUgraphNode: dies with its graph */
    OBJ_GRAPH_EXEC, /* CUgraphExec */
    OBJ_USER_OBJECT, /* CUuserObject */
    OBJ_ARRAY,          /* CUarray (src/image) */
    OBJ_MIPMAPPED_ARRAY, /* CUmipmappedArray */
    OBJ_TEXTURE,        /* CUtexObject */
    OBJ_SURFACE,        /* CUsurfObject */
    OBJ_LINK_STATE,     /* CUlinkState (src/module/link.c; link part) */
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

/* The type a handle value names (object.c's encoding: its low 5 bits). */
#define OBJ_HANDLE_TYPE(handle) ((obj_type)((uint64_t)(handle) & 0x1f))
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
/* The name of an OS object carrying a nonce: prefix then 32 hex digits. Device memory is
 * "extmem-device-<nonce>", an interprocess event's page "extmem-event-<nonce>" (ipc.c checks
 * the name of what a handle opens against it). */
void obj_nonce_name(const char *prefix, const uint8_t nonce[16], char name[64]);

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
/* Texture objects over linear memory: the H100's alignments and limits as driver 580 reports
 * them (CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, TEXTURE_PITCH_ALIGNMENT,
 * MAXIMUM_TEXTURE1D_LINEAR_WIDTH, MAXIMUM_TEXTURE2D_LINEAR_*), enforced by src/image/texture.c. */
#define DEVICE_TEXTURE_ALIGNMENT 512
#define DEVICE_TEXTURE_PITCH_ALIGNMENT 32
#define DEVICE_TEXTURE1D_LINEAR_WIDTH 268435456
#define DEVICE_TEXTURE2D_LINEAR_WIDTH 131072
#define DEVICE_TEXTURE2D_LINEAR_HEIGHT 65000
#define DEVICE_TEXTURE2D_LINEAR_PITCH 2097120

/* ---- Contexts (context.c) ---- */
struct stream;
struct ctx;
/* A doubly linked list node, for the objects a context owns. */
struct list_node {
    struct list_node *prev, *next;
};
void list_init(struct list_node *head);
void list_add(struct list_node *head, struct list_node *node);
void list_del(struct list_node *node);
bool list_empty(const struct list_node *head);
#define list_entry(node, type, member) ((type *)((char *)(node) - offsetof(type, member)))

/* Teardown by registration: a context does not call its subsystems by name. Each subsystem
 * registers a step with the context when it first attaches something to it (under ctx->lock),
 * and a context's teardown (cuCtxDestroy, the primary context's last release or reset) runs the
 * registered steps in the order below, after waiting for the device and before letting new
 * submissions in again. A step stays registered: the primary context comes back after a reset
 * with its steps, which find nothing to do until something is attached again. */
struct ctx_step {
    int order; /* CTX_STEP_*: lower runs first */
    void (*run)(struct ctx *ctx);
};
/* The order of teardown, in one place, with what must wait for what (the device has drained
 * before the first step, and submissions are kept out until the last has run):
 *  - STREAMS first (src/exec/stream.c): every stream's handle dies and its worker leaves, so no
 *    work can be queued on the context while what work uses goes; then the context's own
 *    reference to the legacy stream's deferred queue, whose handle died with the others;
 *  - EVENTS (src/exec/event.c): their handles die; work that recorded or waited on one held a
 *    reference of its own (DESIGN.md §6), and that work has run;
 *  - MODULES (src/module/module.c) before MEMORY: a module's .global and .const data is a
 *    RANGE_MODULE range on the context's list that the module frees through its own pointer;
 *    freeing the context's memory first would free it twice (module.h: freed only after the
 *    drain, which has happened);
 *  - IMAGE_OBJECTS (src/image/texture.c) before the arrays and MEMORY: texture and surface
 *    objects' handles die and drop the arrays they held;
 *  - IMAGES (src/image/array.c) before MEMORY: an array's memory is a RANGE_ARRAY range on the
 *    context's list that the array frees through its own pointer, as modules do;
 *  - MEMORY last (src/memory/memory.c): every allocation still listed, once nothing that could
 *    reach it (a stream, a module) is left. */
enum {
    CTX_STEP_STREAMS = 10,
    CTX_STEP_EVENTS = 20,
    CTX_STEP_MODULES = 30,
    CTX_STEP_IMAGE_OBJECTS = 34,
    CTX_STEP_IMAGES = 35,
    CTX_STEP_HEAP = 39, /* link part: the device heap (src/memory/heap.c), before the rest of MEMORY */
    CTX_STEP_MEMORY = 40,
};
#define CTX_STEPS_MAX 8

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
    size_t pending_launch_limit; /* grid (issue 25): CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT (under lock) */
    struct stream *deferred;   /* the legacy stream's deferred work (target_defer), under lock; a reference */
    const struct ctx_step *steps[CTX_STEPS_MAX]; /* registered teardown steps by order (under lock) */
    unsigned int nsteps;
    uint64_t id;               /* cuCtxGetId: unique in the process, never reused */
    uint64_t legacy_stream_id; /* cuStreamGetId of its legacy stream */
    int usage;                 /* cuCtxAttach / cuCtxDetach's count, under lock */
    atomic_int cache_config;   /* cuCtxSetCacheConfig's preference */
    /* link part: the device heap (src/memory/heap.c), made by the first launch that uses it;
     * while it exists CU_LIMIT_MALLOC_HEAP_SIZE cannot change. Under lock. */
    struct mem_heap *heap;
};

/* Stream priorities: the H100's range, lower numbers being greater priorities (streams run
 * as their work comes; the software device orders nothing by priority). */
#define CTX_PRIORITY_LEAST 0
#define CTX_PRIORITY_GREATEST (-5)
/* The next of the ids that contexts and streams are given (cuCtxGetId, cuStreamGetId): one
 * counter, from 1, never reused. */
uint64_t ctx_next_id(void);
/* The current context of this thread with a reference, or a failure with a reason. */
CUresult ctx_current(const char *fn, struct ctx **out);
/* A context handle from the caller, with a reference. */
CUresult ctx_lookup(const char *fn, CUcontext handle, struct ctx **out);
void ctx_release(struct ctx *ctx);
/* Makes code (a kernel's fault) the context's sticky error, unless it already has one. */
void ctx_set_sticky(struct ctx *ctx, CUresult code, const char *reason);
/* The context's sticky error (recorded with fail: "fn: ..."), or CUDA_SUCCESS. ctx_current
 * answers it at every call's door; calls that wait for work ask again after the wait. */
CUresult ctx_check_sticky(const char *fn, struct ctx *ctx);
/* The same for this thread's current context, if it has one (cuEventSynchronize). */
CUresult ctx_current_sticky(const char *fn);
/* Registers step (a static object of the subsystem's) with ctx for its teardown, once: a step
 * already registered is not added again. With ctx->lock held. */
void ctx_add_teardown(struct ctx *ctx, const struct ctx_step *step);

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
/* device_release_begin's hold, but only where it need not wait: true (held: device_release_end
 * follows) when no work is queued on any stream of the device; false in device work, inside a
 * submission, while another thread submits, or while work is queued. */
bool device_release_try(void);
/* A program's synchronisation points (cuStreamSynchronize, cuEventSynchronize, cuCtxSynchronize,
 * src/exec) call device_synced after their wait, outside any submission; a subsystem above may
 * register one hook (the memory pools give memory above their release threshold back there, as
 * the driver does: src/memory/pool.c). */
void device_set_sync_hook(void (*hook)(void));
void device_synced(void);
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
/* Every stream of the device, for the waits that span them: a stream is tracked from its creation
 * (src/exec/stream.c) by its `node`, with the operations drain.c needs on the list (the same
 * for every stream; kept from the first call). */
struct device_stream_ops {
    /* Waits until every stream on `head` (guarded by `lock`, taken before any stream's lock)
     * has completed the work queued on it when it was seen. */
    void (*wait)(os_mutex *lock, struct list_node *head);
    /* Wakes the worker of the stream tracked by `node` (unloading: it leaves once drained).
     * With the device's lock held. */
    void (*wake)(struct list_node *node);
    /* True when no stream on `head` has work queued that has not run (with `lock` held). */
    bool (*idle)(struct list_node *head);
};
void device_track_stream(struct list_node *node, const struct device_stream_ops *ops);
void device_untrack_stream(struct list_node *node);
/* Stream workers' lifetimes, so that unloading can join every one. */
void device_worker_started(void);
void device_worker_leaving(os_thread self);
void device_worker_leaving_unstarted(void); /* a worker counted as started could not start */
void device_reap_workers(void);
/* Waits for queued work, joins every thread extmem started; called when the library is
 * unloaded (src/posix: a destructor; Windows joins nothing under the loader lock). */
void device_unload(void);

/* ---- The driver's log (logs.c): cuLogs* ----
 * Keeps text (a failure's reason, a warning) in the bounded log the dump calls read and hands
 * it to the registered callbacks. level: CU_LOG_LEVEL_ERROR or CU_LOG_LEVEL_WARNING. */
void logs_record(int level, const char *text);

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
/* A launch running its blocks is on a list, so that the watchdog (EXTMEM_KERNEL_TIMEOUT), a
 * teardown that stopped waiting and the library's unload can cancel it. The launch is the
 * caller's (src/module/kernel_launch.c): it is ended through `cancel`, so this file knows
 * nothing of the engine. */
struct kernel_run {
    struct list_node node;
    void *launch;
    const char *name; /* the kernel's, for reasons */
    /* Ends the launch with code (klaunch_cancel); false when it had faulted already. */
    bool (*cancel)(void *launch, CUresult code, const char *reason);
    uint64_t start, deadline; /* os_time_ns; the watchdog's deadline, or UINT64_MAX */
    bool cancelled;
};
/* Called once the launch is ready, before its blocks run (launch, name and cancel set): while
 * the library unloads, the launch is cancelled at once. */
void kernel_run_begin(struct kernel_run *r);
/* Called once its blocks have all ended: from then on nothing cancels it, and what a cancel
 * wrote (the launch's fault) may be read. */
void kernel_run_end(struct kernel_run *r);
/* The library unloads (exit): every running kernel is cancelled at once, none starts from now
 * on, and the watchdog's thread is joined. */
void kernel_cancel_all(void);

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

#endif /* EXTMEM_DEVICE_DEVICE_H */
