/*
 * The device as a whole: every stream of every context, the threads that run their work, and
 * the waits that span them (DESIGN.md §6).
 *
 * A release call (cuMemFree, cuMemFreeHost, cuMemUnmap, cuIpcCloseMemHandle, a context's
 * destruction) waits for all work queued on the device before the call, not only for work on
 * the context's streams: a kernel or copy on any stream may touch any address (unified
 * addressing), and which addresses a kernel touches is not known until it runs. The driver
 * does the same: CUDA's notes on API synchronisation describe the frees as synchronous with
 * respect to outstanding work on the device (docs/streams.md says what each call waits for).
 *
 * Unloading the library (dlclose of the drop-in libcuda.so.1, or the process's exit) must not
 * leave a thread running its code, nor hang: device_unload cancels running kernels (an endless
 * one would hold it for ever), waits for queued work, tells every stream worker to leave and
 * joins it, then stops the worker pool.
 */
#include "device/device.h"

#include <stdlib.h>

static struct {
    os_mutex lock;            /* guards what follows; taken before any stream's lock */
    os_cond changed;          /* a worker left */
    struct list_node streams; /* every stream not yet freed (struct stream.device_node) */
    /* How to wait for and wake the streams (src/exec/stream.c): set by the first stream tracked,
     * so NULL only while the list has never had one. */
    const struct device_stream_ops *_Atomic stream_ops;
    bool ready;               /* `changed` is initialised */
    atomic_int workers;       /* stream workers started and not yet left (counted without the
                               * lock: a stream's lock is held when one starts) */
    os_thread *finished;      /* workers that left, to be joined */
    size_t finished_count, finished_capacity;
} device = {.lock = OS_MUTEX_INITIALIZER, .streams = {&device.streams, &device.streams}};

static atomic_bool unloading;
static OS_THREAD_LOCAL bool on_device_thread;

/* Submissions (validate, then queue or run: between target_get and target_put) hold this
 * shared; a release holds it exclusively while it waits for the device and unmaps. So a copy
 * validated against memory that is being freed is queued before the release waits (and waited
 * for), or runs after the memory is gone from the maps (and is refused): never in between. */
static os_rwlock submit_lock = OS_RWLOCK_INITIALIZER;
static OS_THREAD_LOCAL int submit_depth; /* nested submissions take the lock once */

/* With device.lock held. */
static void ready(void)
{
    if (device.ready)
        return;
    os_cond_init(&device.changed);
    device.ready = true;
}

void device_thread_mark(void) { on_device_thread = true; }

bool device_thread(void) { return on_device_thread; }

bool device_unloading(void) { return atomic_load(&unloading); }

void device_track_stream(struct list_node *node, const struct device_stream_ops *ops)
{
    os_mutex_lock(&device.lock);
    ready();
    if (!atomic_load(&device.stream_ops))
        atomic_store(&device.stream_ops, ops);
    list_add(&device.streams, node);
    os_mutex_unlock(&device.lock);
}

void device_untrack_stream(struct list_node *node)
{
    os_mutex_lock(&device.lock);
    list_del(node);
    os_mutex_unlock(&device.lock);
}

void device_worker_started(void) { atomic_fetch_add(&device.workers, 1); }

void device_worker_leaving_unstarted(void)
{
    os_mutex_lock(&device.lock);
    atomic_fetch_sub(&device.workers, 1);
    os_cond_broadcast(&device.changed);
    os_mutex_unlock(&device.lock);
}

void device_worker_leaving(os_thread self)
{
    os_mutex_lock(&device.lock);
    if (device.finished_count == device.finished_capacity) {
        size_t cap = device.finished_capacity ? device.finished_capacity * 2 : 16;
        os_thread *grown = realloc(device.finished, cap * sizeof(*grown));
        if (grown) {
            device.finished = grown;
            device.finished_capacity = cap;
        }
    }
    if (device.finished_count < device.finished_capacity)
        device.finished[device.finished_count++] = self;
    else
        os_thread_detach(self); /* no memory to remember it: it cannot be joined */
    atomic_fetch_sub(&device.workers, 1);
    os_cond_broadcast(&device.changed);
    os_mutex_unlock(&device.lock);
}

void device_reap_workers(void)
{
    os_mutex_lock(&device.lock);
    os_thread *list = device.finished;
    size_t n = device.finished_count;
    device.finished = NULL;
    device.finished_count = device.finished_capacity = 0;
    os_mutex_unlock(&device.lock);
    for (size_t i = 0; i < n; ++i)
        os_thread_join(list[i]);
    free(list);
}

/* Waits until every stream has completed what was queued on it when this was called. */
static void drain(void)
{
    /* No operations: no stream was ever made, so no work was queued on one. */
    const struct device_stream_ops *ops = atomic_load(&device.stream_ops);
    if (ops)
        ops->wait(&device.lock, &device.streams);
}

CUresult device_wait_allowed(const char *fn)
{
    /* CUDA forbids API calls from host functions (cuLaunchHostFunc); a release there would
     * wait for the very work that is calling it. */
    if (on_device_thread)
        return fail(CUDA_ERROR_NOT_PERMITTED, "%s: called from a host function or kernel running on a stream: it "
                    "would wait for the work that is calling it (CUDA does not allow API calls there)", fn);
    return CUDA_SUCCESS;
}

void device_drain(void)
{
    if (!on_device_thread)
        drain();
}

void device_submit_begin(void)
{
    /* Device threads never take it: work they run cannot wait for a release that waits for
     * that very work (and CUDA forbids their API calls anyway). */
    if (!on_device_thread && submit_depth++ == 0)
        os_rwlock_read(&submit_lock);
}

void device_submit_end(void)
{
    if (!on_device_thread && --submit_depth == 0)
        os_rwlock_unlock(&submit_lock);
}

CUresult device_release_begin(const char *fn)
{
    CUresult r = device_wait_allowed(fn);
    if (r)
        return r;
    if (submit_depth)
        return fail(CUDA_ERROR_NOT_PERMITTED, "%s: called while this thread submits work (from a callback of a "
                    "submission), which the release would wait for", fn);
    os_rwlock_write(&submit_lock);
    drain();
    return CUDA_SUCCESS;
}

void device_release_end(void) { os_rwlock_unlock(&submit_lock); }

bool device_release_try(void)
{
    /* Never waits, not even for the lock: a submission holding it may be waiting for work that
     * waits for this very thread (a host function the caller releases after its synchronisation). */
    if (on_device_thread || submit_depth || !os_rwlock_try_write(&submit_lock))
        return false;
    const struct device_stream_ops *ops = atomic_load(&device.stream_ops);
    os_mutex_lock(&device.lock);
    bool idle = !ops || ops->idle(&device.streams);
    os_mutex_unlock(&device.lock);
    if (!idle)
        os_rwlock_unlock(&submit_lock);
    return idle;
}

static void (*_Atomic sync_hook)(void);

void device_set_sync_hook(void (*hook)(void)) { atomic_store(&sync_hook, hook); }

void device_synced(void)
{
    void (*hook)(void) = atomic_load(&sync_hook);
    if (hook && !on_device_thread && !submit_depth)
        hook();
}

bool device_teardown_begin(const char *fn)
{
    /* The driver waits for a running kernel for ever here (docs/kernels.md): extmem waits as
     * long as the grace period, then cancels what still runs, and its wait ends with the work. */
    struct kernel_grace g;
    kernel_grace_begin(&g, fn);
    bool held = device_release_begin(fn) == CUDA_SUCCESS;
    if (!held)
        device_drain();
    kernel_grace_end(&g);
    return held;
}

void device_unload(void)
{
    /* exit() called from a host function: that thread cannot wait for itself, and the process
     * is ending anyway. A fork() child of an initialised process (lib_initialized is false
     * there) has the parent's bookkeeping but none of its threads: nothing to wait for. */
    if (on_device_thread || !lib_initialized())
        return;
    atomic_store(&unloading, true); /* from now on work runs in the calling thread */
    /* Running kernels end now, as a GPU's do when its process exits, and none starts: the
     * drain would otherwise wait for an endless one for ever. */
    kernel_cancel_all();
    drain();
    os_mutex_lock(&device.lock);
    ready();
    const struct device_stream_ops *ops = atomic_load(&device.stream_ops);
    for (struct list_node *it = device.streams.next; it != &device.streams; it = it->next)
        ops->wake(it); /* a listed stream set ops */
    while (atomic_load(&device.workers) > 0)
        os_cond_wait(&device.changed, &device.lock);
    os_mutex_unlock(&device.lock);
    device_reap_workers();
    pool_stop();
}

#if OS_JOIN_THREADS_AT_UNLOAD && defined(__GNUC__)
/* dlclose of the library, or the process's exit: no thread may go on running its code. */
__attribute__((destructor)) static void unload(void) { device_unload(); }
#endif
