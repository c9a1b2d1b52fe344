/*
 * src/vk/layer/layer.h: what the files of the extmem semaphore layer share
 * (VK_LAYER_EXTMEM_external_semaphore, docs/external-semaphores.md).
 *
 * The layer adds VK_KHR_external_semaphore_fd (OPAQUE_FD, binary and timeline) to a Vulkan
 * driver that lacks it (lavapipe). An exported semaphore is backed by an extmem payload
 * (src/interop/sem_payload.h); queue submissions that wait on or signal one are joined to the
 * payload by host jobs (jobs.c) through internal timeline semaphores of the driver ("gates").
 * Everything else passes through untouched.
 *
 * It is a layer as the Vulkan loader defines them (Vulkan-Loader's LoaderLayerInterface.md):
 * interface version 2, three exported entry points (entry.c), dispatch through the next
 * layer's vkGetInstanceProcAddr / vkGetDeviceProcAddr. It links neither the loader nor
 * extmem: the payload code (src/interop/sem_payload.c and the src/posix files it needs) is
 * compiled in.
 */
#ifndef EXTMEM_VK_LAYER_H
#define EXTMEM_VK_LAYER_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>
#include <vulkan/vk_layer.h>

#include <stdatomic.h>

#include "os.h"
#include "interop/sem_payload.h"

#define LAYER_NAME "VK_LAYER_EXTMEM_external_semaphore"
#define LAYER_SLICE_NS (200u * 1000000u) /* how long a host job sleeps before it looks at vkDestroyDevice */

/* ---- Logging (entry.c) ----
 * Errors always go to stderr ("VK_LAYER_EXTMEM_external_semaphore: function: what: why");
 * EXTMEM_LOG=info or trace adds what the layer does. Returns `r`, so that a failure reads
 * `return layer_error(VK_ERROR_..., "...")`. */
VkResult layer_error(VkResult r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void layer_info(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The VkResult for an OS error of a payload call: out of fds is VK_ERROR_TOO_MANY_OBJECTS,
 * the rest VK_ERROR_OUT_OF_HOST_MEMORY (the codes vkGetSemaphoreFdKHR may return). */
VkResult layer_os_result(int err);

struct linstance;
struct ldevice;

/* ---- A small map from 64-bit keys (handles) to pointers (map.c) ---- */
struct lmap {
    uint64_t *keys; /* 0: an empty slot (no handle is 0) */
    void **values;
    size_t capacity, count, tombstones;
};
/* 0, or ENOMEM (then the map is unchanged). */
int lmap_put(struct lmap *m, uint64_t key, void *value);
void *lmap_get(const struct lmap *m, uint64_t key);
void *lmap_remove(struct lmap *m, uint64_t key);
/* Removes every entry whose value is `value`; how many there were. */
size_t lmap_remove_value(struct lmap *m, const void *value);
void lmap_free(struct lmap *m);

#ifdef LAYER_AS_DRIVER
/* The same code built as a Vulkan driver (driver.c, libvulkan_extmem.so): the loader sees it as
 * the driver and puts every layer, however enabled, above it; it wraps the real driver, whose
 * handles it hands out unchanged. The loader writes its dispatch pointer into a device's and a
 * queue's first word only after the driver returns them, so a handle is its own key, and a
 * physical device (whose first word is the driver's, the same for all) or a queue is found by
 * the handles recorded when they were handed out (vkEnumeratePhysicalDevices,
 * vkGetDeviceQueue). */
struct ldriver {
    PFN_vkGetInstanceProcAddr gipa; /* the real driver's vk_icdGetInstanceProcAddr */
    PFN_vkVoidFunction (*gpdpa)(VkInstance, const char *); /* its vk_icdGetPhysicalDeviceProcAddr, or NULL */
};
extern struct ldriver layer_driver;
static inline uint64_t layer_key(const void *handle) { return (uint64_t)(uintptr_t)handle; }
/* Records what the real driver handed out (driver mode): physical devices of an instance, and
 * a device's queues. */
void layer_instance_adopt(struct linstance *inst, const VkPhysicalDevice *physicals, uint32_t count);
void layer_device_adopt_queue(struct ldevice *dev, VkQueue queue);
/* The layer's vkGetInstanceProcAddr (entry.c), which driver.c hands the loader. */
PFN_vkVoidFunction layer_instance_command(VkInstance instance, const char *name);
#else
/* A dispatchable handle's key: the loader's dispatch table pointer, which a physical device
 * shares with its instance and a queue with its device (LoaderLayerInterface.md, "Dispatchable
 * object creation"). */
static inline uint64_t layer_key(const void *handle) { return (uint64_t)(uintptr_t)*(void *const *)handle; }
#endif

/* Memory for one call's rewritten structures, freed at once afterwards. */
struct layer_arena {
    void *blocks; /* a list of blocks, each starting with the next one's address */
};
void *layer_alloc(struct layer_arena *a, size_t size); /* zeroed; NULL when out of memory */
void layer_arena_free(struct layer_arena *a);

/* A pNext chain walked as the Vulkan specification lays it out ("Valid Usage for Structure
 * Pointer Chains"): every structure starts with sType and pNext. */
const void *layer_find(const void *chain, VkStructureType type);
/* A copy of `chain` without its structure of type `drop`, with `head` (which may be NULL) put
 * in front, in *out: the structures before `drop` are copied into `arena` (each of a type whose
 * size the layer knows), the rest is linked as it is. False when a structure before `drop` is
 * of a type the layer does not know (*unknown says which) or memory ran out (*unknown is
 * VK_STRUCTURE_TYPE_MAX_ENUM). */
bool layer_chain_without(const void *chain, VkStructureType drop, VkBaseOutStructure *head,
                         struct layer_arena *arena, const void **out, VkStructureType *unknown);

/* ---- Instances (instance.c) ---- */
struct linstance {
    VkInstance handle;
    PFN_vkGetInstanceProcAddr gipa; /* the next layer's */
    PFN_vkDestroyInstance DestroyInstance;
    PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties;
    PFN_vkGetPhysicalDeviceExternalSemaphoreProperties GetPhysicalDeviceExternalSemaphoreProperties;
    PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
    PFN_vkGetPhysicalDeviceExternalBufferProperties GetPhysicalDeviceExternalBufferProperties;
    PFN_vkEnumeratePhysicalDevices EnumeratePhysicalDevices;             /* driver mode */
    PFN_vkEnumeratePhysicalDeviceGroups EnumeratePhysicalDeviceGroups;   /* driver mode, core or KHR */
    /* The Vulkan version the application asked for (VkApplicationInfo.apiVersion; 1.0 without
     * one). Every call the layer makes of its own keeps to what the application's instance and
     * devices have: a layer below it (validation) checks them as the application's. */
    uint32_t api_version;
};
struct linstance *layer_instance(const void *dispatchable);
/* True when the layer adds VK_KHR_external_semaphore_fd to physical: the driver lacks it and
 * has timeline semaphores, which the gates are (Vulkan 1.2 devices, or the driver names
 * VK_KHR_timeline_semaphore: either way the spec requires the timelineSemaphore feature, so no
 * vkGetPhysicalDeviceFeatures2, which a 1.0 application's instance lacks, is called).
 * *timeline_ext: the driver names VK_KHR_timeline_semaphore. *version: the device's effective
 * Vulkan version for this application (the lower of its apiVersion and the device's). */
bool layer_adds_extension(struct linstance *inst, VkPhysicalDevice physical, bool *timeline_ext, uint32_t *version);
/* True when the layer adds VK_EXT_external_memory_dma_buf to physical: the driver lacks it and
 * has VK_EXT_external_memory_host and VK_KHR_external_memory_fd (memory.c imports a dma-buf as
 * host memory). */
bool layer_adds_dmabuf(struct linstance *inst, VkPhysicalDevice physical);
/* True when the driver has VK_EXT_external_memory_host and VK_KHR_external_memory_fd, which
 * the layer's imports need; *dmabuf: it names VK_EXT_external_memory_dma_buf itself. */
bool layer_driver_imports_host(struct linstance *inst, VkPhysicalDevice physical, bool *dmabuf);
VKAPI_ATTR void VKAPI_CALL layer_GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice physical, const VkPhysicalDeviceExternalBufferInfo *info, VkExternalBufferProperties *props);

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *alloc,
                                                    VkInstance *out);
VKAPI_ATTR void VKAPI_CALL layer_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc);
VKAPI_ATTR VkResult VKAPI_CALL layer_EnumeratePhysicalDevices(VkInstance instance, uint32_t *count,
                                                              VkPhysicalDevice *physicals);
VKAPI_ATTR VkResult VKAPI_CALL layer_EnumeratePhysicalDeviceGroups(VkInstance instance, uint32_t *count,
                                                                   VkPhysicalDeviceGroupProperties *groups);
VKAPI_ATTR VkResult VKAPI_CALL layer_EnumerateDeviceExtensionProperties(VkPhysicalDevice physical, const char *layer,
                                                                        uint32_t *count, VkExtensionProperties *props);
VKAPI_ATTR void VKAPI_CALL layer_GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice physical, const VkPhysicalDeviceExternalSemaphoreInfo *info, VkExternalSemaphoreProperties *props);

/* ---- Payloads, shared by semaphores and the jobs that use them (semaphore.c) ---- */
struct lpayload {
    _Atomic int refs;
    struct semp semp;
};
void lpayload_ref(struct lpayload *p);
void lpayload_unref(struct lpayload *p);

/* What the layer knows of an application's semaphore. */
struct lsemaphore {
    VkSemaphore handle;
    bool timeline;
    struct lpayload *payload;   /* the permanent payload: exportable, or imported permanently */
    struct lpayload *temporary; /* a binary semaphore's temporary import, for its next wait */
};

/* An internal timeline semaphore of the driver that a queue waits on or signals for a job.
 * `value` is the last value handed out; values only grow, so a gate is reused at once. */
struct lgate {
    VkSemaphore semaphore;
    uint64_t value;
    struct lgate *next;
};

/* A host job joining a queue to a payload (jobs.c):
 *   JOB_WAIT:   the queue waits for gate >= release; the job waits for the payload (semp_wait),
 *               then signals the gate on the host.
 *   JOB_SIGNAL: the queue signals gate = reached; the job waits for it on the host, signals
 *               the payload, then signals gate = release, which the submission's last batch
 *               waits for, so its fence and vkQueueWaitIdle cover the payload signal. */
enum ljob_kind { JOB_WAIT, JOB_SIGNAL };
struct ljob {
    struct ljob *next;
    enum ljob_kind kind;
    struct lpayload *payload; /* a reference */
    uint64_t value;           /* the payload value (timelines) */
    struct lgate *gate;
    uint64_t reached, release;
};

/* ---- Devices (device.c, jobs.c) ---- */
struct ldevice {
    VkDevice handle;
    struct linstance *inst;
    bool active;     /* the layer implements VK_KHR_external_semaphore_fd for this device */
    bool fd_enabled; /* the application enabled it */
    bool timeline_khr, sync2_khr; /* the application enabled these (their KHR names answer) */
    uint32_t version;     /* the device's effective Vulkan version (layer_adds_extension) */
    /* Imported memory (memory.c): the application enabled VK_KHR_external_memory_fd or the
     * dma-buf extension and the driver has VK_EXT_external_memory_host, which the layer enables. */
    bool memory_active;
    bool dmabuf_added;        /* the layer provides VK_EXT_external_memory_dma_buf here */
    VkDeviceSize host_alignment; /* the driver's minImportedHostPointerAlignment */
    PFN_vkAllocateMemory AllocateMemory;
    PFN_vkFreeMemory FreeMemory;
    PFN_vkGetMemoryFdKHR GetMemoryFdKHR;
    PFN_vkGetMemoryFdPropertiesKHR GetMemoryFdPropertiesKHR;
    PFN_vkGetMemoryHostPointerPropertiesEXT GetMemoryHostPointerPropertiesEXT;
    PFN_vkCreateBuffer CreateBuffer;
    PFN_vkCreateImage CreateImage;
    PFN_vkGetDeviceProcAddr gdpa; /* the next layer's */
    PFN_vkDestroyDevice DestroyDevice;
    PFN_vkCreateSemaphore CreateSemaphore;
    PFN_vkDestroySemaphore DestroySemaphore;
    PFN_vkQueueSubmit QueueSubmit;
    PFN_vkQueueSubmit2 QueueSubmit2; /* core or KHR; NULL without either */
    PFN_vkQueuePresentKHR QueuePresentKHR;
    PFN_vkSignalSemaphore SignalSemaphore; /* core or KHR */
    PFN_vkWaitSemaphores WaitSemaphores;
    PFN_vkGetSemaphoreCounterValue GetSemaphoreCounterValue;
    PFN_vkGetDeviceQueue GetDeviceQueue;   /* driver mode */
    PFN_vkGetDeviceQueue2 GetDeviceQueue2; /* driver mode; NULL before 1.1 */

    os_mutex lock; /* guards everything below */
    struct lmap semaphores; /* VkSemaphore -> struct lsemaphore */
    struct lmap memories;   /* VkDeviceMemory -> struct lmemory (memory.c) */
    struct lgate *free_gates;
    struct ljob *jobs, *jobs_tail;
    os_cond work; /* a job was queued, or the device is closing */
    os_thread *threads;
    unsigned thread_count, idle;
    _Atomic bool closing;
};
struct ldevice *layer_device(const void *dispatchable); /* a VkDevice or a VkQueue */

/* ---- Imported memory (memory.c) ---- */
VKAPI_ATTR VkResult VKAPI_CALL layer_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *info,
                                                    const VkAllocationCallbacks *alloc, VkDeviceMemory *out);
VKAPI_ATTR void VKAPI_CALL layer_FreeMemory(VkDevice device, VkDeviceMemory memory, const VkAllocationCallbacks *alloc);
VKAPI_ATTR VkResult VKAPI_CALL layer_GetMemoryFdKHR(VkDevice device, const VkMemoryGetFdInfoKHR *info, int *fd);
VKAPI_ATTR VkResult VKAPI_CALL layer_GetMemoryFdPropertiesKHR(VkDevice device, VkExternalMemoryHandleTypeFlagBits type,
                                                              int fd, VkMemoryFdPropertiesKHR *props);
VKAPI_ATTR VkResult VKAPI_CALL layer_CreateBuffer(VkDevice device, const VkBufferCreateInfo *info,
                                                  const VkAllocationCallbacks *alloc, VkBuffer *out);
VKAPI_ATTR VkResult VKAPI_CALL layer_CreateImage(VkDevice device, const VkImageCreateInfo *info,
                                                 const VkAllocationCallbacks *alloc, VkImage *out);
/* Unmaps and closes what the device still holds (vkDestroyDevice). */
void layer_memories_free(struct ldevice *dev);

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                                                  const VkAllocationCallbacks *alloc, VkDevice *out);
VKAPI_ATTR void VKAPI_CALL layer_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc);
VKAPI_ATTR void VKAPI_CALL layer_GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue *queue);
VKAPI_ATTR void VKAPI_CALL layer_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *info, VkQueue *queue);
/* The layer's own command for name on dev, or NULL when it passes name through. */
PFN_vkVoidFunction layer_device_command(struct ldevice *dev, const char *name);

/* Gates: taken under dev->lock; a gate goes back to the free list once its job is done. */
VkResult layer_gate_take(struct ldevice *dev, struct lgate **out);
void layer_gate_give(struct ldevice *dev, struct lgate *gate);

/* Queues a job (dev->lock not held); starts a thread when none is idle. Takes the job. */
void layer_job_queue(struct ldevice *dev, struct ljob *job);
/* Ends the device's jobs and threads (vkDestroyDevice). */
void layer_jobs_close(struct ldevice *dev);
/* Waits for payload p to pass `value` on the calling thread, until it passes or the device
 * closes (then false); says once when the payload was abandoned. */
bool layer_payload_wait(struct ldevice *dev, struct lpayload *p, uint64_t value, const char *fn);
/* Signals payload p: timelines only move forward. */
void layer_payload_signal(struct lpayload *p, uint64_t value, bool owed);

/* ---- Semaphore commands (semaphore.c) ---- */
VKAPI_ATTR VkResult VKAPI_CALL layer_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *info,
                                                     const VkAllocationCallbacks *alloc, VkSemaphore *out);
VKAPI_ATTR void VKAPI_CALL layer_DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                                  const VkAllocationCallbacks *alloc);
VKAPI_ATTR VkResult VKAPI_CALL layer_GetSemaphoreFdKHR(VkDevice device, const VkSemaphoreGetFdInfoKHR *info, int *fd);
VKAPI_ATTR VkResult VKAPI_CALL layer_ImportSemaphoreFdKHR(VkDevice device, const VkImportSemaphoreFdInfoKHR *info);
VKAPI_ATTR VkResult VKAPI_CALL layer_SignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo *info);
VKAPI_ATTR VkResult VKAPI_CALL layer_WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *info, uint64_t timeout);
VKAPI_ATTR VkResult VKAPI_CALL layer_GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, uint64_t *value);
/* The payload a wait on semaphore uses (a reference; the temporary one is taken off the
 * semaphore, as a wait consumes a temporary import), or NULL for a driver semaphore.
 * dev->lock held. */
struct lpayload *layer_wait_payload(struct ldevice *dev, VkSemaphore semaphore);
/* The payload a signal of semaphore makes (a reference), or NULL. dev->lock held. */
struct lpayload *layer_signal_payload(struct ldevice *dev, VkSemaphore semaphore);
void layer_semaphores_free(struct ldevice *dev);

/* ---- Queue commands (submit.c) ---- */
VKAPI_ATTR VkResult VKAPI_CALL layer_QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits,
                                                 VkFence fence);
VKAPI_ATTR VkResult VKAPI_CALL layer_QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                  VkFence fence);
VKAPI_ATTR VkResult VKAPI_CALL layer_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *info);

#endif
