/*
 * src/event.h: events. The state of an event is a few counters that can live in memory shared
 * with other processes, so an interprocess event recorded in one process is waited on in
 * another (ipc.c).
 */
#ifndef EXTMEM_EVENT_H
#define EXTMEM_EVENT_H

#include "internal.h"

struct event_state {
    _Atomic uint64_t recorded;  /* sequence number of the latest record */
    _Atomic uint64_t completed; /* highest record whose work has run */
    _Atomic uint64_t time_ns;   /* when `completed` was reached */
    _Atomic uint32_t wake;      /* bumped at each completion: what waiters sleep on */
    _Atomic uint32_t sleepers;  /* interprocess events on Windows: waiters asleep (os_wait_shared) */
};

/* Interprocess events: who may leave a record unfinished by dying. Each process that has the
 * event (created or opened) holds a slot, and raises its `pending` to every sequence number it
 * is about to take; a waiter that finds a slot's owner dead with pending > completed counts
 * that record as complete, so a peer's death never hangs the survivor (event.c, docs/ipc.md). */
#define EVENT_RECORDERS 64
struct event_recorder {
    _Atomic uint64_t owner;   /* pid << 32 | a hash of its start time (event.c); 0: free */
    _Atomic uint64_t pending; /* the highest sequence number the owner may have taken */
};

/* The page an interprocess event's state lives in, shared by the processes that have it. */
struct event_page {
    struct event_state state;
    struct event_recorder recorders[EVENT_RECORDERS];
};
_Static_assert(sizeof(struct event_page) <= 4096, "an interprocess event's state fits one page");

struct event {
    struct obj base;
    struct ctx *ctx; /* a reference */
    unsigned int flags;
    struct event_state *state; /* &local, or a page shared with other processes */
    struct event_state local;
    bool shared;
    bool imported;         /* opened from another process's handle */
    os_memory shm;         /* interprocess events: the shared page's memory object */
    os_waker waker;        /* interprocess events: wakes waiters in other processes */
    uint8_t nonce[16];     /* interprocess events: proves a handle genuine (ipc.c) */
    struct event_recorder *mine; /* interprocess events: this process's slot in the page's table
                                  * of recorders; NULL when it was full */
    struct list_node ctx_node;
};

/* Creates an event of ctx. With shm, the state lives in that mapped page; the event takes
 * shm and page whether it succeeds or not. */
CUresult event_create(const char *fn, struct ctx *ctx, unsigned int flags, os_memory *shm, void *page,
                      struct event **out);
/* The start time of this process, as os_process_start_time tells it (ipc.c). */
uint64_t ipc_self_start_time(void);

#endif
