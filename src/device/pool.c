/*
 * The worker pool that runs kernel blocks. A job is a count of indices; pool threads and the
 * thread that submitted the job take indices until none are left. The submitter returns when
 * every index has run and no pool thread still looks at the job, so jobs can live on its stack.
 */
#include "device/device.h"

#include <stdlib.h>

static struct {
    os_mutex lock;
    os_cond work;     /* a job was added */
    os_cond finished; /* a job's last index ran, or a helper left it */
    struct list_node jobs;
    unsigned int threads;
    os_thread *handles; /* the pool threads, joined when the library is unloaded */
    bool started;
    bool stopping;
} pool = {.lock = OS_MUTEX_INITIALIZER};

static unsigned int configured_workers(void)
{
    const char *env = os_getenv("EXTMEM_THREADS");
    long n = env ? strtol(env, NULL, 10) : 0;
    if (n > 0 && n <= 1024)
        return (unsigned int)n;
    return os_cpu_count();
}

unsigned int pool_worker_count(void)
{
    static unsigned int n;
    if (!n)
        n = configured_workers();
    return n;
}

unsigned int extmem_worker_count(void) { return pool_worker_count(); }

/* Runs indices of job until none are left; returns how many this thread ran, or skipped.
 * speed (issue 27): indices are taken in chunks of up to 64, at least 16 chunks per worker, so
 * that a grid of many small blocks does not serialise every core on one contended counter (65536
 * blocks of saxpy took 65536 atomic increments of one cache line across 16 cores: the C-kernel
 * path ran at 2.9x plain threaded C). */
static uint64_t take_indices(struct pool_job *job)
{
    uint64_t ran = 0, i, count = job->count;
    uint64_t chunk = count / ((uint64_t)pool_worker_count() * 16);
    chunk = chunk < 1 ? 1 : chunk > 64 ? 64 : chunk;
    while ((i = atomic_fetch_add(&job->next, chunk)) < count) {
        uint64_t end = count - i > chunk ? i + chunk : count;
        for (; i < end; ++i) {
            job->run(job, i);
            ran++;
            if (job->stop && atomic_load_explicit(job->stop, memory_order_relaxed)) {
                /* The indices not yet handed out, and the rest of this chunk, are this thread's
                 * to skip: counted once each, so that the submitter's count of finished ones
                 * still reaches the job's. */
                ran += end - i - 1;
                uint64_t rest = atomic_exchange(&job->next, count);
                if (rest < count)
                    ran += count - rest;
                return ran;
            }
        }
    }
    return ran;
}

static void pool_thread(void *arg)
{
    (void)arg;
    device_thread_mark();
    os_thread_set_name("extmem-pool");
    os_mutex_lock(&pool.lock);
    for (;;) {
        while (list_empty(&pool.jobs) && !pool.stopping)
            os_cond_wait(&pool.work, &pool.lock);
        if (list_empty(&pool.jobs))
            break; /* stopping, with nothing left to run */
        struct pool_job *job = list_entry(pool.jobs.next, struct pool_job, node);
        job->helpers++;
        os_mutex_unlock(&pool.lock);
        uint64_t ran = take_indices(job);
        os_mutex_lock(&pool.lock);
        /* Nothing is left to hand out: no one else should pick the job up. */
        if (job->node.next != &job->node)
            list_del(&job->node);
        job->done += ran;
        job->helpers--;
        os_cond_broadcast(&pool.finished);
    }
    os_mutex_unlock(&pool.lock);
}

/* With pool.lock held: starts the pool threads the first time. The submitting thread helps
 * too, so one thread fewer than the worker count is enough. */
static void start_threads(void)
{
    if (pool.started)
        return;
    pool.started = true;
    list_init(&pool.jobs);
    os_cond_init(&pool.work);
    os_cond_init(&pool.finished);
    unsigned int n = pool_worker_count();
    if (n < 2 || !(pool.handles = calloc(n - 1, sizeof(*pool.handles))))
        return; /* the submitting threads run every index themselves */
    for (unsigned int i = 1; i < n; ++i) {
        if (os_thread_create(&pool.handles[pool.threads], pool_thread, NULL) != 0)
            break;
        pool.threads++;
    }
}

void pool_stop(void)
{
    os_mutex_lock(&pool.lock);
    if (!pool.started) {
        os_mutex_unlock(&pool.lock);
        return;
    }
    pool.stopping = true;
    os_cond_broadcast(&pool.work);
    os_mutex_unlock(&pool.lock);
    for (unsigned int i = 0; i < pool.threads; ++i)
        os_thread_join(pool.handles[i]);
    os_mutex_lock(&pool.lock);
    free(pool.handles);
    pool.handles = NULL;
    pool.threads = 0; /* still started: a later job runs in its submitting thread alone */
    os_mutex_unlock(&pool.lock);
}

void pool_run(struct pool_job *job)
{
    atomic_init(&job->next, 0);
    job->done = 0;
    job->helpers = 0;
    if (job->count <= 1 || pool_worker_count() <= 1 || device_unloading()) {
        take_indices(job);
        return;
    }
    os_mutex_lock(&pool.lock);
    start_threads();
    list_add(pool.jobs.prev, &job->node); /* at the tail: first come, first served */
    os_cond_broadcast(&pool.work);
    os_mutex_unlock(&pool.lock);

    uint64_t ran = take_indices(job);

    os_mutex_lock(&pool.lock);
    if (job->node.next != &job->node)
        list_del(&job->node);
    job->done += ran;
    while (job->done < job->count || job->helpers > 0)
        os_cond_wait(&pool.finished, &pool.lock);
    os_mutex_unlock(&pool.lock);
}
