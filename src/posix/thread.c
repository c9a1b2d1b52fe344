/* Threads and synchronisation on POSIX: thin wrappers over pthreads. */
#include "os.h"

#include <stdlib.h>
#include <time.h>

void os_mutex_init(os_mutex *m) { pthread_mutex_init(m, NULL); }
void os_mutex_destroy(os_mutex *m) { pthread_mutex_destroy(m); }
void os_mutex_lock(os_mutex *m) { pthread_mutex_lock(m); }
void os_mutex_unlock(os_mutex *m) { pthread_mutex_unlock(m); }

void os_rwlock_read(os_rwlock *l) { pthread_rwlock_rdlock(l); }
void os_rwlock_write(os_rwlock *l) { pthread_rwlock_wrlock(l); }
bool os_rwlock_try_write(os_rwlock *l) { return pthread_rwlock_trywrlock(l) == 0; }
void os_rwlock_unlock(os_rwlock *l) { pthread_rwlock_unlock(l); }

void os_cond_init(os_cond *c)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(c, &attr);
    pthread_condattr_destroy(&attr);
}
void os_cond_destroy(os_cond *c) { pthread_cond_destroy(c); }
void os_cond_wait(os_cond *c, os_mutex *m) { pthread_cond_wait(c, m); }
void os_cond_timedwait(os_cond *c, os_mutex *m, uint64_t ns)
{
    const uint64_t second = 1000000000u, most = 1000000 * second; /* far enough, and no overflow */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* the clock os_cond_init gives the condition */
    uint64_t at = (uint64_t)ts.tv_sec * second + (uint64_t)ts.tv_nsec + (ns < most ? ns : most);
    ts.tv_sec = (time_t)(at / second);
    ts.tv_nsec = (long)(at % second);
    pthread_cond_timedwait(c, m, &ts);
}
void os_cond_signal(os_cond *c) { pthread_cond_signal(c); }
void os_cond_broadcast(os_cond *c) { pthread_cond_broadcast(c); }

struct thread_start {
    void (*fn)(void *);
    void *arg;
};

static void *thread_main(void *p)
{
    struct thread_start start = *(struct thread_start *)p;
    free(p);
    start.fn(start.arg);
    return NULL;
}

int os_thread_create(os_thread *t, void (*fn)(void *), void *arg)
{
    struct thread_start *start = malloc(sizeof(*start));
    if (!start)
        return 12; /* ENOMEM */
    start->fn = fn;
    start->arg = arg;
    int err = pthread_create(t, NULL, thread_main, start);
    if (err)
        free(start);
    return err;
}

void os_thread_detach(os_thread t) { pthread_detach(t); }

void os_thread_join(os_thread t) { pthread_join(t, NULL); }

void os_thread_set_name(const char *name) { pthread_setname_np(pthread_self(), name); }
