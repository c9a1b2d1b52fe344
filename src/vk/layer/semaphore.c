/*
 * Semaphores with an extmem payload: created exportable (VkExportSemaphoreCreateInfo naming
 * OPAQUE_FD), or given one by vkImportSemaphoreFdKHR. The driver's semaphore stays the handle
 * the application holds; for a payload-backed semaphore the payload is its state, and the
 * host commands on timelines (vkSignalSemaphore, vkWaitSemaphores, vkGetSemaphoreCounterValue)
 * go to the payload.
 */
#include "layer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lpayload_ref(struct lpayload *p) { atomic_fetch_add(&p->refs, 1); }

void lpayload_unref(struct lpayload *p)
{
    if (p && atomic_fetch_sub(&p->refs, 1) == 1) {
        semp_close(&p->semp);
        free(p);
    }
}

static struct lsemaphore *find(struct ldevice *dev, VkSemaphore semaphore)
{
    return lmap_get(&dev->semaphores, (uint64_t)semaphore);
}

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *info,
                                                     const VkAllocationCallbacks *alloc, VkSemaphore *out)
{
    static const char fn[] = "vkCreateSemaphore";
    struct ldevice *dev = layer_device(device);
    const VkExportSemaphoreCreateInfo *exp = layer_find(info->pNext, VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO);
    const VkSemaphoreTypeCreateInfo *type = layer_find(info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
    const bool timeline = type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
    const bool exportable = exp && (exp->handleTypes & VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);

    struct layer_arena arena = {0};
    struct lsemaphore *sem = calloc(1, sizeof(*sem));
    struct lpayload *payload = NULL;
    VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;
    if (!sem)
        goto fail;
    VkSemaphoreCreateInfo down = *info;
    if (exportable) {
        /* The driver cannot export: it sees the semaphore without the export request. */
        VkStructureType unknown;
        if (!layer_chain_without(info->pNext, VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, NULL, &arena, &down.pNext,
                                 &unknown)) {
            if (unknown != VK_STRUCTURE_TYPE_MAX_ENUM)
                r = layer_error(VK_ERROR_INITIALIZATION_FAILED,
                                "%s: a structure of type %d comes before VkExportSemaphoreCreateInfo in pNext and the "
                                "layer cannot copy it (put VkExportSemaphoreCreateInfo first)",
                                fn, (int)unknown);
            goto fail;
        }
        if (!(payload = calloc(1, sizeof(*payload))))
            goto fail;
        int err = semp_create(&payload->semp, timeline ? SEMP_TIMELINE : SEMP_BINARY, timeline ? type->initialValue : 0);
        if (err) {
            free(payload);
            payload = NULL;
            r = layer_error(layer_os_result(err), "%s: the semaphore's payload cannot be made (error %d)", fn, err);
            goto fail;
        }
        atomic_store(&payload->refs, 1);
    }
    if ((r = dev->CreateSemaphore(device, &down, alloc, out)) != VK_SUCCESS)
        goto fail;
    sem->handle = *out;
    sem->timeline = timeline;
    sem->payload = payload;
    os_mutex_lock(&dev->lock);
    int err = lmap_put(&dev->semaphores, (uint64_t)*out, sem);
    os_mutex_unlock(&dev->lock);
    if (err) {
        dev->DestroySemaphore(device, *out, alloc);
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    layer_arena_free(&arena);
    return VK_SUCCESS;
fail:
    lpayload_unref(payload);
    free(sem);
    layer_arena_free(&arena);
    return r;
}

static void free_semaphore(struct lsemaphore *sem)
{
    lpayload_unref(sem->payload);
    lpayload_unref(sem->temporary);
    free(sem);
}

VKAPI_ATTR void VKAPI_CALL layer_DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                                  const VkAllocationCallbacks *alloc)
{
    struct ldevice *dev = layer_device(device);
    if (semaphore) {
        os_mutex_lock(&dev->lock);
        struct lsemaphore *sem = lmap_remove(&dev->semaphores, (uint64_t)semaphore);
        os_mutex_unlock(&dev->lock);
        /* Jobs still using the payload hold references of their own. */
        if (sem)
            free_semaphore(sem);
    }
    dev->DestroySemaphore(device, semaphore, alloc);
}

void layer_semaphores_free(struct ldevice *dev)
{
    for (size_t i = 0; i < dev->semaphores.capacity; ++i)
        if (dev->semaphores.keys[i])
            free_semaphore(dev->semaphores.values[i]);
    lmap_free(&dev->semaphores);
}

VKAPI_ATTR VkResult VKAPI_CALL layer_GetSemaphoreFdKHR(VkDevice device, const VkSemaphoreGetFdInfoKHR *info, int *fd)
{
    static const char fn[] = "vkGetSemaphoreFdKHR";
    struct ldevice *dev = layer_device(device);
    *fd = -1;
    if (info->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "%s: handle type 0x%x: the layer exports OPAQUE_FD (0x%x) only", fn,
                           (unsigned)info->handleType, (unsigned)VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);
    os_mutex_lock(&dev->lock);
    struct lsemaphore *sem = find(dev, info->semaphore);
    struct lpayload *p = sem ? (sem->temporary ? sem->temporary : sem->payload) : NULL;
    int err = p ? semp_export(&p->semp, fd) : 0;
    os_mutex_unlock(&dev->lock);
    if (!p)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "%s: the semaphore was not created with VkExportSemaphoreCreateInfo naming OPAQUE_FD "
                           "(VUID-VkSemaphoreGetFdInfoKHR-handleType-01132)",
                           fn);
    if (err)
        return layer_error(layer_os_result(err), "%s: no fd for the payload (error %d)", fn, err);
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_ImportSemaphoreFdKHR(VkDevice device, const VkImportSemaphoreFdInfoKHR *info)
{
    static const char fn[] = "vkImportSemaphoreFdKHR";
    struct ldevice *dev = layer_device(device);
    if (info->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "%s: handle type 0x%x: the layer imports OPAQUE_FD (0x%x) only", fn,
                           (unsigned)info->handleType, (unsigned)VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);
    os_mutex_lock(&dev->lock);
    struct lsemaphore *sem = find(dev, info->semaphore);
    const bool timeline = sem && sem->timeline;
    os_mutex_unlock(&dev->lock);
    if (!sem)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE, "%s: the semaphore is not one of this device", fn);
    const bool temporary = info->flags & VK_SEMAPHORE_IMPORT_TEMPORARY_BIT;
    if (temporary && timeline)
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "%s: a timeline semaphore cannot be imported temporarily "
                           "(VUID-VkImportSemaphoreFdInfoKHR-flags-03323); the fd %d stays the caller's",
                           fn, info->fd);

    /* A failed import leaves the fd the caller's; a successful one makes it the
     * implementation's (Vulkan: "Importing a semaphore payload from a file descriptor transfers
     * ownership of the file descriptor from the application to the Vulkan implementation"). */
    struct lpayload *p = calloc(1, sizeof(*p));
    if (!p)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    char why[300] = "";
    int err = semp_open(info->fd, &p->semp, why, sizeof(why));
    if (err) {
        free(p);
        return layer_error(err == EINVAL || err == EBADF ? VK_ERROR_INVALID_EXTERNAL_HANDLE : layer_os_result(err),
                           "%s: fd %d %s (error %d); it stays the caller's", fn, info->fd,
                           why[0] ? why : "cannot be opened as a semaphore payload", err);
    }
    if ((semp_kind_of(&p->semp) == SEMP_TIMELINE) != timeline) {
        const bool payload_timeline = semp_kind_of(&p->semp) == SEMP_TIMELINE;
        semp_close(&p->semp);
        free(p);
        return layer_error(VK_ERROR_INVALID_EXTERNAL_HANDLE,
                           "%s: fd %d is the payload of a %s semaphore and the semaphore is %s "
                           "(VUID-VkImportSemaphoreFdInfoKHR-handleType-03264); it stays the caller's",
                           fn, info->fd, payload_timeline ? "timeline" : "binary", timeline ? "a timeline" : "binary");
    }
    atomic_store(&p->refs, 1);
    close(info->fd);

    os_mutex_lock(&dev->lock);
    struct lpayload *old = NULL;
    sem = find(dev, info->semaphore); /* still there: destroying it now would be the caller's race */
    if (sem && temporary) {
        old = sem->temporary;
        sem->temporary = p;
    } else if (sem) {
        old = sem->payload;
        sem->payload = p;
    } else {
        old = p;
    }
    os_mutex_unlock(&dev->lock);
    lpayload_unref(old);
    return VK_SUCCESS;
}

struct lpayload *layer_wait_payload(struct ldevice *dev, VkSemaphore semaphore)
{
    struct lsemaphore *sem = find(dev, semaphore);
    if (!sem)
        return NULL;
    if (sem->temporary) {
        /* A wait consumes a temporary import: the semaphore has its permanent payload again
         * (Vulkan, "Importing Semaphore Payloads"). The reference passes to the caller. */
        struct lpayload *p = sem->temporary;
        sem->temporary = NULL;
        return p;
    }
    if (sem->payload)
        lpayload_ref(sem->payload);
    return sem->payload;
}

struct lpayload *layer_signal_payload(struct ldevice *dev, VkSemaphore semaphore)
{
    struct lsemaphore *sem = find(dev, semaphore);
    struct lpayload *p = sem ? (sem->temporary ? sem->temporary : sem->payload) : NULL;
    if (p)
        lpayload_ref(p);
    return p;
}

/* The payload behind a timeline semaphore for a host command, or NULL. */
static struct lpayload *host_payload(struct ldevice *dev, VkSemaphore semaphore)
{
    os_mutex_lock(&dev->lock);
    struct lpayload *p = layer_signal_payload(dev, semaphore);
    os_mutex_unlock(&dev->lock);
    return p;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_SignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo *info)
{
    struct ldevice *dev = layer_device(device);
    struct lpayload *p = host_payload(dev, info->semaphore);
    if (!p)
        return dev->SignalSemaphore(device, info);
    layer_payload_signal(p, info->value, false);
    lpayload_unref(p);
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL layer_GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, uint64_t *value)
{
    struct ldevice *dev = layer_device(device);
    struct lpayload *p = host_payload(dev, semaphore);
    if (!p)
        return dev->GetSemaphoreCounterValue(device, semaphore, value);
    *value = semp_value(&p->semp);
    lpayload_unref(p);
    return VK_SUCCESS;
}

static uint64_t left_of(uint64_t timeout, uint64_t start)
{
    if (timeout == UINT64_MAX)
        return UINT64_MAX;
    uint64_t spent = os_time_ns() - start;
    return spent >= timeout ? 0 : timeout - spent;
}

/* vkWaitSemaphores over payloads and driver semaphores. Waiting for all: the driver's first
 * (one call), then each payload in turn with what is left of the timeout. Waiting for any:
 * the payloads cannot be slept on together with the driver's semaphores, so the wait goes
 * round them, sleeping on one payload at a time for a slice that grows from 1 ms to 20 ms:
 * a wake-up at most every 20 ms, never a busy loop. */
VKAPI_ATTR VkResult VKAPI_CALL layer_WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *info, uint64_t timeout)
{
    struct ldevice *dev = layer_device(device);
    const uint64_t start = os_time_ns();
    struct lpayload *stack[8], **payloads = stack;
    if (info->semaphoreCount > 8 && !(payloads = calloc(info->semaphoreCount, sizeof(*payloads))))
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t found = 0;
    os_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < info->semaphoreCount; ++i)
        found += (payloads[i] = layer_signal_payload(dev, info->pSemaphores[i])) != NULL;
    os_mutex_unlock(&dev->lock);

    VkResult r = VK_SUCCESS;
    struct layer_arena arena = {0};
    if (!found) {
        r = dev->WaitSemaphores(device, info, timeout);
        goto done;
    }
    /* The driver's semaphores alone, for the driver. */
    VkSemaphore *rest = layer_alloc(&arena, info->semaphoreCount * sizeof(VkSemaphore));
    uint64_t *rest_values = layer_alloc(&arena, info->semaphoreCount * sizeof(uint64_t));
    if (!rest || !rest_values) {
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
        goto done;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < info->semaphoreCount; ++i)
        if (!payloads[i]) {
            rest[n] = info->pSemaphores[i];
            rest_values[n++] = info->pValues[i];
        }
    VkSemaphoreWaitInfo down = *info;
    down.semaphoreCount = n;
    down.pSemaphores = rest;
    down.pValues = rest_values;

    if (!(info->flags & VK_SEMAPHORE_WAIT_ANY_BIT)) {
        if (n && (r = dev->WaitSemaphores(device, &down, timeout)) != VK_SUCCESS)
            goto done;
        for (uint32_t i = 0; i < info->semaphoreCount; ++i) {
            if (!payloads[i])
                continue;
            semp_wait_result w = semp_wait(&payloads[i]->semp, info->pValues[i], left_of(timeout, start));
            if (w == SEMP_TIMED_OUT) {
                r = VK_TIMEOUT;
                goto done;
            }
        }
        goto done;
    }
    for (uint64_t slice = 1000000u;; slice = slice < 20000000u ? slice * 2 : 20000000u) {
        for (uint32_t i = 0; i < info->semaphoreCount; ++i)
            if (payloads[i] && semp_try_pass(&payloads[i]->semp, info->pValues[i]))
                goto done;
        if (n && (r = dev->WaitSemaphores(device, &down, 0)) != VK_TIMEOUT)
            goto done;
        uint64_t left = left_of(timeout, start);
        if (left == 0) {
            r = VK_TIMEOUT;
            goto done;
        }
        for (uint32_t i = 0; i < info->semaphoreCount; ++i) {
            if (payloads[i]) { /* sleep on the first payload: any change of it wakes the wait */
                if (semp_wait(&payloads[i]->semp, info->pValues[i], left < slice ? left : slice) != SEMP_TIMED_OUT)
                    goto done;
                break;
            }
        }
    }
done:
    for (uint32_t i = 0; i < info->semaphoreCount; ++i)
        lpayload_unref(payloads[i]);
    if (payloads != stack)
        free(payloads);
    layer_arena_free(&arena);
    return r;
}
