/* The exporter's side of an external semaphore for the tests (sem_exporter.h). */
#include "framework/sem_exporter.h"

#include "interop/sem_payload.h"

#include <stdlib.h>

struct sem_exporter {
    struct semp s;
};

sem_exporter *sem_exporter_create(bool timeline, uint64_t initial)
{
    sem_exporter *e = calloc(1, sizeof(*e));
    if (e && semp_create(&e->s, timeline ? SEMP_TIMELINE : SEMP_BINARY, initial) != 0) {
        free(e);
        return NULL;
    }
    return e;
}

sem_exporter *sem_exporter_open(int fd)
{
    sem_exporter *e = calloc(1, sizeof(*e));
    char why[200];
    if (e && semp_open(os_handle_from_int32(fd), &e->s, why, sizeof(why)) != 0) {
        free(e);
        return NULL;
    }
    return e;
}

void sem_exporter_close(sem_exporter *e)
{
    if (!e)
        return;
    semp_close(&e->s);
    free(e);
}

int sem_exporter_fd(sem_exporter *e)
{
    os_handle h;
    return semp_export(&e->s, &h) == 0 ? os_handle_to_int32(h) : -1;
}

void sem_exporter_signal(sem_exporter *e, uint64_t value) { semp_signal(&e->s, value, false); }
void sem_exporter_owe(sem_exporter *e, uint64_t value) { semp_owe(&e->s, value); }
bool sem_exporter_try_pass(sem_exporter *e, uint64_t value) { return semp_try_pass(&e->s, value); }
uint64_t sem_exporter_value(sem_exporter *e) { return semp_value(&e->s); }
