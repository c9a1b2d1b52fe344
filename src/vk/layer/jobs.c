/*
 * Host jobs: the threads that join queues to payloads. Each job waits on one thing (a payload,
 * or a gate the queue signals) and sleeps while it does: on the payload's futex word
 * (semp_wait) or in the driver's vkWaitSemaphores, waking every LAYER_SLICE_NS only to look at
 * vkDestroyDevice. A job has a thread to itself while it runs, because one waiting job must
 * never hold up another (a wait for CUDA may depend on a signal queued after it); idle threads
 * sleep on a condition variable and are reused, and all of them end at vkDestroyDevice.
 */
#include "layer.h"

#include <stdlib.h>

#define MAX_THREADS 64 /* jobs beyond this many at once wait for a thread (docs/external-semaphores.md) */

static os_mutex timeline_lock = OS_MUTEX_INITIALIZER;

void layer_payload_signal(struct lpayload *p, uint64_t value, bool owed)
{
    if (semp_kind_of(&p->semp) == SEMP_BINARY) {
        semp_signal(&p->semp, value, owed);
        return;
    }
    /* Two jobs of this process may finish out of order; a timeline never goes back. (Other
     * processes signal in their own order: a timeline signalled lower than it is breaks
     * Vulkan's rule, VUID-VkSemaphoreSignalInfo-value-03258, whoever does it.) */
    os_mutex_lock(&timeline_lock);
    if (semp_value(&p->semp) < value)
        semp_signal(&p->semp, value, owed);
    os_mutex_unlock(&timeline_lock);
}

bool layer_payload_wait(struct ldevice *dev, struct lpayload *p, uint64_t value, const char *fn)
{
    for (;;) {
        switch (semp_wait(&p->semp, value, LAYER_SLICE_NS)) {
        case SEMP_PASSED:
            return true;
        case SEMP_ABANDONED:
            layer_error(VK_SUCCESS,
                        "%s: a process that held the semaphore died (pid %d) and nobody else can signal it: it is "
                        "abandoned, and every wait on it passes from now on",
                        fn, atomic_load(&p->semp.dead_pid));
            return true;
        case SEMP_TIMED_OUT:
            if (atomic_load(&dev->closing))
                return false;
            break;
        }
    }
}

static VkResult host_signal(struct ldevice *dev, struct lgate *gate, uint64_t value)
{
    const VkSemaphoreSignalInfo info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = gate->semaphore, .value = value};
    VkResult r = dev->SignalSemaphore(dev->handle, &info);
    if (r != VK_SUCCESS)
        layer_error(r, "a host job: vkSignalSemaphore of the layer's own semaphore failed (VkResult %d)", r);
    return r;
}

static void run(struct ldevice *dev, struct ljob *job)
{
    if (job->kind == JOB_WAIT) {
        /* Cancelled or not, the queue is let go: vkDestroyDevice needs it idle. */
        if (!layer_payload_wait(dev, job->payload, job->value, "a queue's wait"))
            layer_error(VK_SUCCESS, "vkDestroyDevice: a queue still waited for an external semaphore: it is let go");
        host_signal(dev, job->gate, job->release);
        return;
    }
    const VkSemaphoreWaitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                      .semaphoreCount = 1,
                                      .pSemaphores = &job->gate->semaphore,
                                      .pValues = &job->reached};
    for (;;) {
        VkResult r = dev->WaitSemaphores(dev->handle, &wait, LAYER_SLICE_NS);
        if (r == VK_SUCCESS)
            break;
        if (r != VK_TIMEOUT) {
            /* The device is lost: make the signal so that no other side waits forever. */
            layer_error(r, "a queue's signal: vkWaitSemaphores failed (VkResult %d): the external semaphore is "
                           "signalled anyway", r);
            break;
        }
        if (atomic_load(&dev->closing)) {
            layer_error(VK_SUCCESS, "vkDestroyDevice: a submission that signals an external semaphore has not "
                                    "finished: its signal is not made");
            return;
        }
    }
    layer_payload_signal(job->payload, job->value, true);
    host_signal(dev, job->gate, job->release);
}

static void job_thread(void *arg)
{
    struct ldevice *dev = arg;
    os_thread_set_name("extmem-vk-sem");
    os_mutex_lock(&dev->lock);
    for (;;) {
        while (!dev->jobs && !atomic_load(&dev->closing))
            os_cond_wait(&dev->work, &dev->lock);
        struct ljob *job = dev->jobs;
        if (!job)
            break; /* closing, and every job ran */
        dev->jobs = job->next;
        if (!dev->jobs)
            dev->jobs_tail = NULL;
        dev->idle--;
        os_mutex_unlock(&dev->lock);
        run(dev, job);
        lpayload_unref(job->payload);
        os_mutex_lock(&dev->lock);
        layer_gate_give(dev, job->gate);
        free(job);
        dev->idle++;
    }
    os_mutex_unlock(&dev->lock);
}

void layer_job_queue(struct ldevice *dev, struct ljob *job)
{
    job->next = NULL;
    os_mutex_lock(&dev->lock);
    if (dev->jobs_tail)
        dev->jobs_tail->next = job;
    else
        dev->jobs = job;
    dev->jobs_tail = job;
    unsigned queued = 0;
    for (struct ljob *j = dev->jobs; j; j = j->next)
        queued++;
    /* Every queued job gets a thread of its own: one that waits must not hold up another. */
    if (queued > dev->idle && dev->thread_count < MAX_THREADS) {
        os_thread *threads = realloc(dev->threads, (dev->thread_count + 1) * sizeof(*threads));
        if (threads) {
            dev->threads = threads;
            if (os_thread_create(&threads[dev->thread_count], job_thread, dev) == 0) {
                dev->thread_count++;
                dev->idle++;
            }
        }
        if (dev->thread_count == 0)
            layer_error(VK_SUCCESS, "vkQueueSubmit: no thread can be started for the external semaphores: the "
                                    "submission will wait until one can");
    }
    os_cond_signal(&dev->work);
    os_mutex_unlock(&dev->lock);
}

void layer_jobs_close(struct ldevice *dev)
{
    os_mutex_lock(&dev->lock);
    atomic_store(&dev->closing, true);
    os_cond_broadcast(&dev->work);
    unsigned n = dev->thread_count;
    os_mutex_unlock(&dev->lock);
    for (unsigned i = 0; i < n; ++i)
        os_thread_join(dev->threads[i]);
    free(dev->threads);
    dev->threads = NULL;
    dev->thread_count = 0;
}
