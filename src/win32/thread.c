/* Threads and synchronisation on Windows: slim reader-writer locks, condition variables and
 * CRT threads (_beginthreadex, so the C runtime's per-thread state is set up and freed). */
#include "os.h"
#include "win32.h"

#include <process.h>
#include <stddef.h>
#include <stdlib.h>

/* os.h cannot include windows.h, so its types are pointer-sized stand-ins whose zero value is
 * SRWLOCK_INIT / CONDITION_VARIABLE_INIT, which lets OS_MUTEX_INITIALIZER be {0}. */
_Static_assert(sizeof(os_mutex) == sizeof(SRWLOCK), "os_mutex holds an SRWLOCK");
_Static_assert(offsetof(os_rwlock, srw) == 0 && sizeof(((os_rwlock *)0)->srw) == sizeof(SRWLOCK),
               "os_rwlock starts with an SRWLOCK");
_Static_assert(sizeof(os_cond) == sizeof(CONDITION_VARIABLE), "os_cond holds a CONDITION_VARIABLE");

#define SRW(m) ((PSRWLOCK)(void *)(m))
#define CV(c) ((PCONDITION_VARIABLE)(void *)(c))

void os_mutex_init(os_mutex *m) { InitializeSRWLock(SRW(m)); }
void os_mutex_destroy(os_mutex *m) { (void)m; /* an SRWLOCK holds no resources */ }
void os_mutex_lock(os_mutex *m) { AcquireSRWLockExclusive(SRW(m)); }
void os_mutex_unlock(os_mutex *m) { ReleaseSRWLockExclusive(SRW(m)); }

/* An SRWLOCK is released by the call matching how it was taken, but os_rwlock_unlock is one
 * call for both: the lock records the thread that holds it exclusively, and any other thread
 * that unlocks it held it shared. (A count of shared holds per thread cannot tell two locks
 * apart: a thread holding the address map shared that takes and releases drain.c's lock
 * exclusively would release the wrong kind, and deadlock the next writer.) */
void os_rwlock_read(os_rwlock *l) { AcquireSRWLockShared(SRW(l)); }

void os_rwlock_write(os_rwlock *l)
{
    AcquireSRWLockExclusive(SRW(l));
    l->writer = GetCurrentThreadId();
}

bool os_rwlock_try_write(os_rwlock *l)
{
    if (!TryAcquireSRWLockExclusive(SRW(l)))
        return false;
    l->writer = GetCurrentThreadId();
    return true;
}

void os_rwlock_unlock(os_rwlock *l)
{
    /* Only the writer itself can find its id here: while it holds the lock no one else does,
     * and it clears the field before it lets go. */
    if (l->writer == GetCurrentThreadId()) {
        l->writer = 0;
        ReleaseSRWLockExclusive(SRW(l));
    } else {
        ReleaseSRWLockShared(SRW(l));
    }
}

void os_cond_init(os_cond *c) { InitializeConditionVariable(CV(c)); }
void os_cond_destroy(os_cond *c) { (void)c; }
void os_cond_wait(os_cond *c, os_mutex *m) { SleepConditionVariableSRW(CV(c), SRW(m), INFINITE, 0); }
void os_cond_timedwait(os_cond *c, os_mutex *m, uint64_t ns)
{
    uint64_t ms = (ns + 999999) / 1000000; /* rounded up: a wait never ends before its time */
    SleepConditionVariableSRW(CV(c), SRW(m), ms < INFINITE ? (DWORD)ms : INFINITE - 1, 0);
}
void os_cond_signal(os_cond *c) { WakeConditionVariable(CV(c)); }
void os_cond_broadcast(os_cond *c) { WakeAllConditionVariable(CV(c)); }

struct thread_start {
    void (*fn)(void *);
    void *arg;
};

static unsigned __stdcall thread_main(void *p)
{
    struct thread_start start = *(struct thread_start *)p;
    free(p);
    start.fn(start.arg);
    return 0;
}

int os_thread_create(os_thread *t, void (*fn)(void *), void *arg)
{
    struct thread_start *start = malloc(sizeof(*start));
    if (!start)
        return ERROR_NOT_ENOUGH_MEMORY;
    start->fn = fn;
    start->arg = arg;
    uintptr_t h = _beginthreadex(NULL, 0, thread_main, start, 0, NULL);
    if (!h) {
        int err = (int)GetLastError();
        free(start);
        return err ? err : ERROR_NOT_ENOUGH_MEMORY;
    }
    t->handle = (void *)h;
    return 0;
}

void os_thread_detach(os_thread t) { CloseHandle(t.handle); }

/* SetThreadDescription is Windows 10 1607 and later, and wine 8 lacks it: threads go unnamed. */
void os_thread_set_name(const char *name) { (void)name; }

void os_thread_join(os_thread t)
{
    WaitForSingleObject(t.handle, INFINITE);
    CloseHandle(t.handle);
}
