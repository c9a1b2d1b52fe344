/* tests/framework/sem_exporter.h: the exporter's side of an external semaphore, for C++ tests.
 * It is the payload library (src/interop/sem_payload.h) that extmem's Vulkan layer exports
 * semaphores with, behind an opaque handle, since C++ cannot include C11 atomics. */
#ifndef EXTMEM_TESTS_SEM_EXPORTER_H
#define EXTMEM_TESTS_SEM_EXPORTER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sem_exporter sem_exporter;
/* A new semaphore: binary (initial: 1 = signalled) or timeline (initial value). NULL on failure. */
sem_exporter *sem_exporter_create(bool timeline, uint64_t initial);
/* Opens the semaphore behind fd as another holder would (the fd stays the caller's). */
sem_exporter *sem_exporter_open(int fd);
void sem_exporter_close(sem_exporter *e);
/* A new fd of the semaphore (what vkGetSemaphoreFdKHR returns); -1 on failure. */
int sem_exporter_fd(sem_exporter *e);
/* Binary: one signal; timeline: the value is set. */
void sem_exporter_signal(sem_exporter *e, uint64_t value);
/* Announces a signal this holder will make (so its death makes it). */
void sem_exporter_owe(sem_exporter *e, uint64_t value);
/* Binary: takes a signal if there is one; timeline: value >= value. Never sleeps. */
bool sem_exporter_try_pass(sem_exporter *e, uint64_t value);
uint64_t sem_exporter_value(sem_exporter *e);

#ifdef __cplusplus
}
#endif

#endif
