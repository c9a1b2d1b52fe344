/*
 * Queue submissions joined to payloads. A submission that waits on or signals payload-backed
 * semaphores reaches the driver with each of them replaced, one for one, by a gate (an
 * internal timeline semaphore of the driver), so every array sized by the semaphore counts
 * (stage masks, device indices) stays valid:
 *   - a wait becomes a wait for gate >= release; a host job signals the gate once the payload
 *     passes (the queue never runs ahead of the other side);
 *   - a signal becomes a signal of gate = reached; a host job waits for it, then signals the
 *     payload and the gate to release. One more batch at the end of the submission waits for
 *     every release and carries the fence, so the fence, vkQueueWaitIdle and vkDeviceWaitIdle
 *     complete only after the payload signals are made: the other side sees them as soon as
 *     the application knows the work is done.
 * Submissions without payload-backed semaphores pass through untouched.
 */
#include "layer.h"

#include <stdlib.h>
#include <string.h>

/* One payload-backed semaphore of a submission: where it is, and what replaces it. */
struct entry {
    uint32_t batch, slot; /* slot: its index among the batch's waits, then its signals */
    bool wait;
    struct lpayload *payload; /* a reference, handed to the job */
    uint64_t value;
    struct lgate *gate;
    uint64_t reached, release;
};

struct plan {
    struct entry *entries;
    uint32_t count, capacity, signals;
};

/* Notes the semaphore at (batch, slot): a new entry when it is payload-backed. dev->lock held. */
static VkResult note(struct ldevice *dev, struct plan *plan, uint32_t batch, uint32_t slot, VkSemaphore semaphore,
                     bool wait, uint64_t value)
{
    struct lpayload *p = wait ? layer_wait_payload(dev, semaphore) : layer_signal_payload(dev, semaphore);
    if (!p)
        return VK_SUCCESS;
    if (plan->count == plan->capacity) {
        uint32_t capacity = plan->capacity ? plan->capacity * 2 : 8;
        struct entry *e = realloc(plan->entries, capacity * sizeof(*e));
        if (!e) {
            lpayload_unref(p);
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
        plan->entries = e;
        plan->capacity = capacity;
    }
    struct entry *e = &plan->entries[plan->count];
    *e = (struct entry){.batch = batch, .slot = slot, .wait = wait, .payload = p, .value = value};
    VkResult r = layer_gate_take(dev, &e->gate);
    if (r != VK_SUCCESS) {
        lpayload_unref(p);
        return r;
    }
    if (!wait)
        e->reached = ++e->gate->value;
    e->release = ++e->gate->value;
    plan->count++;
    plan->signals += !wait;
    return VK_SUCCESS;
}

/* After the driver's answer: on success the jobs start (signals owed first, so that a death of
 * this process from now on makes them); on failure everything goes back (a temporary import
 * the failed submission would have consumed is gone all the same). */
static void finish(struct ldevice *dev, struct plan *plan, bool submitted)
{
    for (uint32_t i = 0; i < plan->count; ++i) {
        struct entry *e = &plan->entries[i];
        struct ljob *job = submitted ? malloc(sizeof(*job)) : NULL;
        if (submitted && !job) {
            /* The queue would wait forever: let it go, and make the signal, rather than hang. */
            layer_error(VK_SUCCESS, "vkQueueSubmit: out of memory for a host job: the external semaphore is %s "
                                    "without waiting", e->wait ? "passed" : "signalled");
            if (!e->wait)
                layer_payload_signal(e->payload, e->value, false);
            const VkSemaphoreSignalInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                                .semaphore = e->gate->semaphore,
                                                .value = e->release};
            dev->SignalSemaphore(dev->handle, &info);
        }
        if (!job) {
            lpayload_unref(e->payload);
            os_mutex_lock(&dev->lock);
            layer_gate_give(dev, e->gate);
            os_mutex_unlock(&dev->lock);
            continue;
        }
        if (!e->wait)
            semp_owe(&e->payload->semp, e->value);
        *job = (struct ljob){.kind = e->wait ? JOB_WAIT : JOB_SIGNAL,
                             .payload = e->payload,
                             .value = e->value,
                             .gate = e->gate,
                             .reached = e->reached,
                             .release = e->release};
        layer_job_queue(dev, job);
    }
    free(plan->entries);
}

static uint64_t value_at(const uint64_t *values, uint32_t count, uint32_t i)
{
    return values && i < count ? values[i] : 0;
}

static VkResult out_of_memory(struct ldevice *dev, struct plan *plan, struct layer_arena *arena, const char *fn)
{
    layer_arena_free(arena);
    finish(dev, plan, false);
    return layer_error(VK_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory for the rewritten submission", fn);
}

VKAPI_ATTR VkResult VKAPI_CALL layer_QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits,
                                                 VkFence fence)
{
    static const char fn[] = "vkQueueSubmit";
    struct ldevice *dev = layer_device(queue);
    struct plan plan = {0};
    VkResult r = VK_SUCCESS;
    os_mutex_lock(&dev->lock);
    for (uint32_t b = 0; b < count && r == VK_SUCCESS; ++b) {
        const VkSubmitInfo *s = &submits[b];
        const VkTimelineSemaphoreSubmitInfo *tl = layer_find(s->pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
        for (uint32_t i = 0; i < s->waitSemaphoreCount && r == VK_SUCCESS; ++i)
            r = note(dev, &plan, b, i, s->pWaitSemaphores[i], true,
                     tl ? value_at(tl->pWaitSemaphoreValues, tl->waitSemaphoreValueCount, i) : 0);
        for (uint32_t i = 0; i < s->signalSemaphoreCount && r == VK_SUCCESS; ++i)
            r = note(dev, &plan, b, s->waitSemaphoreCount + i, s->pSignalSemaphores[i], false,
                     tl ? value_at(tl->pSignalSemaphoreValues, tl->signalSemaphoreValueCount, i) : 0);
    }
    os_mutex_unlock(&dev->lock);
    if (r != VK_SUCCESS) {
        finish(dev, &plan, false);
        return layer_error(r, "%s: the layer's own semaphores cannot be made", fn);
    }
    if (!plan.count)
        return dev->QueueSubmit(queue, count, submits, fence);

    struct layer_arena arena = {0};
    VkSubmitInfo *down = layer_alloc(&arena, (count + 1) * sizeof(*down));
    if (!down)
        return out_of_memory(dev, &plan, &arena, fn);
    uint32_t e = 0;
    for (uint32_t b = 0; b < count; ++b) {
        const VkSubmitInfo *s = &submits[b];
        down[b] = *s;
        if (e == plan.count || plan.entries[e].batch != b)
            continue; /* nothing of this batch is payload-backed */
        const uint32_t nw = s->waitSemaphoreCount, ns = s->signalSemaphoreCount;
        const VkTimelineSemaphoreSubmitInfo *tl = layer_find(s->pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
        VkSemaphore *sems = layer_alloc(&arena, (nw + ns) * sizeof(*sems));
        uint64_t *values = layer_alloc(&arena, (nw + ns) * sizeof(*values));
        VkTimelineSemaphoreSubmitInfo *mine = layer_alloc(&arena, sizeof(*mine));
        if (!sems || !values || !mine)
            return out_of_memory(dev, &plan, &arena, fn);
        for (uint32_t i = 0; i < nw; ++i) {
            sems[i] = s->pWaitSemaphores[i];
            values[i] = tl ? value_at(tl->pWaitSemaphoreValues, tl->waitSemaphoreValueCount, i) : 0;
        }
        for (uint32_t i = 0; i < ns; ++i) {
            sems[nw + i] = s->pSignalSemaphores[i];
            values[nw + i] = tl ? value_at(tl->pSignalSemaphoreValues, tl->signalSemaphoreValueCount, i) : 0;
        }
        for (; e < plan.count && plan.entries[e].batch == b; ++e) {
            const struct entry *x = &plan.entries[e];
            sems[x->slot] = x->gate->semaphore;
            values[x->slot] = x->wait ? x->release : x->reached;
        }
        *mine = (VkTimelineSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                                .waitSemaphoreValueCount = nw,
                                                .pWaitSemaphoreValues = values,
                                                .signalSemaphoreValueCount = ns,
                                                .pSignalSemaphoreValues = values + nw};
        VkStructureType unknown;
        if (!layer_chain_without(s->pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, (VkBaseOutStructure *)mine,
                                 &arena, &down[b].pNext, &unknown)) {
            if (unknown == VK_STRUCTURE_TYPE_MAX_ENUM)
                return out_of_memory(dev, &plan, &arena, fn);
            layer_arena_free(&arena);
            finish(dev, &plan, false);
            return layer_error(VK_ERROR_FEATURE_NOT_PRESENT,
                               "%s: batch %u has a structure of type %d before its VkTimelineSemaphoreSubmitInfo, "
                               "which the layer cannot copy (put VkTimelineSemaphoreSubmitInfo first)",
                               fn, b, (int)unknown);
        }
        down[b].pWaitSemaphores = sems;
        down[b].pSignalSemaphores = sems + nw;
    }
    uint32_t batches = count;
    if (plan.signals) {
        /* The last batch: waits for every payload signal of the submission (the fence's). */
        VkSemaphore *sems = layer_alloc(&arena, plan.signals * sizeof(*sems));
        uint64_t *values = layer_alloc(&arena, plan.signals * sizeof(*values));
        VkPipelineStageFlags *stages = layer_alloc(&arena, plan.signals * sizeof(*stages));
        VkTimelineSemaphoreSubmitInfo *tl = layer_alloc(&arena, sizeof(*tl));
        if (!sems || !values || !stages || !tl)
            return out_of_memory(dev, &plan, &arena, fn);
        uint32_t n = 0;
        for (uint32_t i = 0; i < plan.count; ++i) {
            if (plan.entries[i].wait)
                continue;
            sems[n] = plan.entries[i].gate->semaphore;
            values[n] = plan.entries[i].release;
            stages[n++] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
        }
        *tl = (VkTimelineSemaphoreSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, .waitSemaphoreValueCount = n, .pWaitSemaphoreValues = values};
        down[batches++] = (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                         .pNext = tl,
                                         .waitSemaphoreCount = n,
                                         .pWaitSemaphores = sems,
                                         .pWaitDstStageMask = stages};
    }
    r = dev->QueueSubmit(queue, batches, down, fence);
    layer_arena_free(&arena);
    finish(dev, &plan, r == VK_SUCCESS);
    return r;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                  VkFence fence)
{
    static const char fn[] = "vkQueueSubmit2";
    struct ldevice *dev = layer_device(queue);
    struct plan plan = {0};
    VkResult r = VK_SUCCESS;
    os_mutex_lock(&dev->lock);
    for (uint32_t b = 0; b < count && r == VK_SUCCESS; ++b) {
        const VkSubmitInfo2 *s = &submits[b];
        for (uint32_t i = 0; i < s->waitSemaphoreInfoCount && r == VK_SUCCESS; ++i)
            r = note(dev, &plan, b, i, s->pWaitSemaphoreInfos[i].semaphore, true, s->pWaitSemaphoreInfos[i].value);
        for (uint32_t i = 0; i < s->signalSemaphoreInfoCount && r == VK_SUCCESS; ++i)
            r = note(dev, &plan, b, s->waitSemaphoreInfoCount + i, s->pSignalSemaphoreInfos[i].semaphore, false,
                     s->pSignalSemaphoreInfos[i].value);
    }
    os_mutex_unlock(&dev->lock);
    if (r != VK_SUCCESS) {
        finish(dev, &plan, false);
        return layer_error(r, "%s: the layer's own semaphores cannot be made", fn);
    }
    if (!plan.count)
        return dev->QueueSubmit2(queue, count, submits, fence);

    struct layer_arena arena = {0};
    VkSubmitInfo2 *down = layer_alloc(&arena, (count + 1) * sizeof(*down));
    if (!down)
        return out_of_memory(dev, &plan, &arena, fn);
    uint32_t e = 0;
    for (uint32_t b = 0; b < count; ++b) {
        const VkSubmitInfo2 *s = &submits[b];
        down[b] = *s;
        if (e == plan.count || plan.entries[e].batch != b)
            continue;
        const uint32_t nw = s->waitSemaphoreInfoCount, ns = s->signalSemaphoreInfoCount;
        VkSemaphoreSubmitInfo *infos = layer_alloc(&arena, (nw + ns) * sizeof(*infos));
        if (!infos)
            return out_of_memory(dev, &plan, &arena, fn);
        if (nw)
            memcpy(infos, s->pWaitSemaphoreInfos, nw * sizeof(*infos));
        if (ns)
            memcpy(infos + nw, s->pSignalSemaphoreInfos, ns * sizeof(*infos));
        for (; e < plan.count && plan.entries[e].batch == b; ++e) {
            const struct entry *x = &plan.entries[e];
            infos[x->slot].semaphore = x->gate->semaphore;
            infos[x->slot].value = x->wait ? x->release : x->reached;
        }
        down[b].pWaitSemaphoreInfos = infos;
        down[b].pSignalSemaphoreInfos = infos + nw;
    }
    uint32_t batches = count;
    if (plan.signals) {
        VkSemaphoreSubmitInfo *infos = layer_alloc(&arena, plan.signals * sizeof(*infos));
        if (!infos)
            return out_of_memory(dev, &plan, &arena, fn);
        uint32_t n = 0;
        for (uint32_t i = 0; i < plan.count; ++i)
            if (!plan.entries[i].wait)
                infos[n++] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                                     .semaphore = plan.entries[i].gate->semaphore,
                                                     .value = plan.entries[i].release,
                                                     .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
        down[batches++] = (VkSubmitInfo2){
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = n, .pWaitSemaphoreInfos = infos};
    }
    r = dev->QueueSubmit2(queue, batches, down, fence);
    layer_arena_free(&arena);
    finish(dev, &plan, r == VK_SUCCESS);
    return r;
}

/* Presentation waits on the host: the payload-backed semaphores are waited for (and, being
 * binary, taken) on the calling thread first, and the driver sees only its own. */
VKAPI_ATTR VkResult VKAPI_CALL layer_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *info)
{
    struct ldevice *dev = layer_device(queue);
    struct layer_arena arena = {0};
    VkSemaphore *rest = layer_alloc(&arena, (info->waitSemaphoreCount + 1) * sizeof(*rest));
    struct lpayload **payloads = layer_alloc(&arena, (info->waitSemaphoreCount + 1) * sizeof(*payloads));
    if (!rest || !payloads) {
        layer_arena_free(&arena);
        return layer_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkQueuePresentKHR: out of host memory");
    }
    uint32_t n = 0;
    os_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < info->waitSemaphoreCount; ++i)
        if (!(payloads[i] = layer_wait_payload(dev, info->pWaitSemaphores[i])))
            rest[n++] = info->pWaitSemaphores[i];
    os_mutex_unlock(&dev->lock);
    for (uint32_t i = 0; i < info->waitSemaphoreCount; ++i) {
        if (payloads[i]) {
            layer_payload_wait(dev, payloads[i], 0, "vkQueuePresentKHR");
            lpayload_unref(payloads[i]);
        }
    }
    VkPresentInfoKHR down = *info;
    down.waitSemaphoreCount = n;
    down.pWaitSemaphores = rest;
    VkResult r = dev->QueuePresentKHR(queue, &down);
    layer_arena_free(&arena);
    return r;
}
