/*
 * src/interop/sem_payload.h: the payload of an external semaphore (DESIGN.md §15).
 *
 * A semaphore that extmem and its Vulkan layer share is one page of shareable memory (a sealed
 * memfd named "extmem.semaphore" on Linux, a section on Windows) holding a 64-bit value and a
 * word that waiters sleep on. Whoever has the handle maps the page: CUDA streams
 * (cuImportExternalSemaphore), Vulkan queues and the host through the layer (src/vk/layer/),
 * in any number of processes. The value means:
 *   - timeline semaphores (and fences): the semaphore's value; a wait for v passes once
 *     value >= v;
 *   - binary semaphores: how many signals there have been; `taken` counts the waits that
 *     passed, and a wait passes by taking one signal nobody took yet (value > taken).
 *
 * A process that dies must never hang the others (issue 15). Each holder of the page has a
 * slot in it, and raises its `owed` count before it queues a signal that it will make later;
 * a waiter that sleeps long looks for slots whose process died and makes their owed signals
 * (a timeline: the highest value it had queued). If the semaphore is left with no other
 * living holder than the waiter's own process and a holder died, the semaphore is
 * *abandoned*: every wait passes from then on (as a Windows mutex whose owner died is),
 * and the waiter's process is told once so it can say so (docs/external-semaphores.md).
 *
 * This file uses src/os.h alone, so that the Vulkan layer, a library of its own, builds it
 * too; it reports errors as OS error codes and reasons, never through extmem's fail().
 */
#ifndef EXTMEM_SEM_PAYLOAD_H
#define EXTMEM_SEM_PAYLOAD_H

#include "os.h"

#include <stdatomic.h>

#define SEMP_NAME "extmem.semaphore"
#define SEMP_MAGIC 0x53656d4d74784558ull /* "XExtMmeS" read as bytes: no other object starts so */
#define SEMP_VERSION 1u
#define SEMP_HOLDERS 48

typedef enum semp_kind { SEMP_BINARY = 1, SEMP_TIMELINE = 2 } semp_kind;

struct semp_holder {
    _Atomic uint64_t owner; /* pid << 32 | a hash of its start time; 0: a free slot */
    _Atomic uint64_t owed;  /* binary: signals queued but not made yet; timeline: the highest
                             * value queued (made or not) */
};

struct semp_page {
    uint64_t magic;   /* SEMP_MAGIC */
    uint32_t version; /* SEMP_VERSION */
    uint32_t kind;    /* semp_kind */
    _Atomic uint64_t value;
    _Atomic uint64_t taken;     /* binary: waits that passed */
    _Atomic uint32_t wake;      /* bumped at every change: what waiters sleep on */
    _Atomic uint32_t sleepers;  /* Windows: waiters asleep (os_wait_shared) */
    _Atomic uint32_t abandoned; /* a holder died and no other can signal any more */
    _Atomic uint32_t deaths;    /* holders found dead so far */
    struct semp_holder holders[SEMP_HOLDERS];
};
_Static_assert(sizeof(struct semp_page) <= 4096, "a semaphore's payload fits one page");

/* One process's view of a payload. */
struct semp {
    os_memory mem;
    struct semp_page *page;
    os_waker waker;
    struct semp_holder *slot; /* this view's slot in the page; NULL when the table was full */
    _Atomic bool saw_abandoned; /* semp_wait has returned SEMP_ABANDONED once */
    _Atomic int dead_pid;       /* a holder this view found dead, for messages */
};

/* Creates a payload of `kind` with `initial` value (timelines; binary: 1 = signalled). */
int semp_create(struct semp *s, semp_kind kind, uint64_t initial);
/* Opens the payload behind handle h (which stays the caller's). Returns 0, an OS error for an
 * unusable handle, or EINVAL with *why saying what h is instead of a payload. */
int semp_open(os_handle h, struct semp *s, char *why, size_t why_size);
/* A new handle of the payload for an application (vkGetSemaphoreFdKHR). */
int semp_export(const struct semp *s, os_handle *out);
void semp_close(struct semp *s);

semp_kind semp_kind_of(const struct semp *s);
uint64_t semp_value(const struct semp *s);

/* Says that this process will signal later (so that its death makes the signal): binary, one
 * more signal; timeline, the value. A semp_signal with `owed` follows each. */
void semp_owe(struct semp *s, uint64_t value);
/* Signals: binary, one signal (value ignored); timeline, the value is set to `value` (as
 * cuSignalExternalSemaphoresAsync specifies: "set to the value"). `owed`: this signal was
 * announced by semp_owe. Wakes every waiter, in every process. */
void semp_signal(struct semp *s, uint64_t value, bool owed);

/* Binary: takes one signal if there is one; timeline: true when value >= `value`. An abandoned
 * payload always passes. Never sleeps. */
bool semp_try_pass(struct semp *s, uint64_t value);

typedef enum semp_wait_result {
    SEMP_PASSED = 0,
    SEMP_TIMED_OUT,
    SEMP_ABANDONED, /* passed because the payload was abandoned (the first time this view saw it) */
} semp_wait_result;
/* Waits until semp_try_pass succeeds or timeout_ns (UINT64_MAX: none) passes, sleeping on the
 * payload's word; looks for dead holders now and then. */
semp_wait_result semp_wait(struct semp *s, uint64_t value, uint64_t timeout_ns);


#endif
