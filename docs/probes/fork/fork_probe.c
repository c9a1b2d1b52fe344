/*
 * fork_probe.c - what the real NVIDIA driver answers in a process forked (without exec) from a
 * process that initialised CUDA, and what such a child sees at the parent's device addresses.
 *
 * Built against NVIDIA's own cuda.h and linked with -lcuda (NOT against extmem):
 *   gcc -std=gnu11 -O0 docs/probes/fork/fork_probe.c -I/usr/local/cuda/include -lcuda -o fork_probe
 *   ./fork_probe > fork_probe.out 2>&1          (docs/probes/fork/run.sh does both)
 *
 * Groups:
 *   0. fork before the parent calls cuInit: the child initialises on its own.
 *   1. the parent: cuInit, a context, cuMemAlloc (filled), cuMemAllocHost (filled), a VMM mapping
 *      (filled), a stream with a slow host function queued, an event.
 *   2. child A (forked): calls without cuInit first, then cuInit, then the calls again.
 *   3. child B (forked): cuInit first, then the calls, including the parent's handles.
 *   4. child C (forked): reads and writes the parent's device, pinned host and VMM addresses
 *      (a SIGSEGV/SIGBUS handler turns a fault into a line), and its /proc/self/maps lines.
 *   5. the parent afterwards: are its bytes unchanged, does its stream still work.
 * Every call in a child runs under a 10 s alarm: a hang prints "HANG" and ends the child.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE (2u << 20)

static const char *current = "";

static const char *name(CUresult r)
{
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s)
        return "?";
    return s;
}

static void on_alarm(int sig)
{
    (void)sig;
    char line[256];
    int n = snprintf(line, sizeof(line), "   %s: HANG (no answer in 10 s)\n", current);
    if (write(1, line, (size_t)n) < 0)
        _exit(4);
    _exit(3);
}

#define CALL(text, call)                                                         \
    do {                                                                         \
        current = text;                                                          \
        alarm(10);                                                               \
        CUresult r_ = (call);                                                    \
        alarm(0);                                                                \
        printf("   %-58s %s (%d)\n", text, name(r_), (int)r_);                   \
        fflush(stdout);                                                          \
    } while (0)

static sigjmp_buf jump;
static volatile sig_atomic_t fault_sig;

static void on_fault(int sig)
{
    fault_sig = sig;
    siglongjmp(jump, 1);
}

static void touch(const char *what, volatile uint32_t *p, int write_too)
{
    fault_sig = 0;
    if (sigsetjmp(jump, 1) == 0) {
        uint32_t v = p[0];
        printf("   read  %-12s at %p: 0x%08x\n", what, (void *)p, v);
    } else {
        printf("   read  %-12s at %p: fault, signal %d (%s)\n", what, (void *)p, fault_sig, strsignal(fault_sig));
    }
    if (write_too) {
        fault_sig = 0;
        if (sigsetjmp(jump, 1) == 0) {
            p[0] = 0xc41dc41du;
            printf("   write %-12s at %p: done (wrote 0xc41dc41d)\n", what, (void *)p);
        } else {
            printf("   write %-12s at %p: fault, signal %d (%s)\n", what, (void *)p, fault_sig, strsignal(fault_sig));
        }
    }
    fflush(stdout);
}

static void maps_line(const char *what, uintptr_t addr)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int found = 0;
    while (f && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && addr >= lo && addr < hi) {
            printf("   maps  %-12s %s", what, line);
            found = 1;
        }
    }
    if (!found)
        printf("   maps  %-12s (no mapping at %p)\n", what, (void *)addr);
    if (f)
        fclose(f);
    fflush(stdout);
}

static void slow(void *arg)
{
    (void)arg;
    sleep(3);
}

/* The parent's objects, seen by the children (copied by fork). */
static CUcontext ctx;
static CUdeviceptr dptr, vmm;
static uint32_t *host;
static CUstream stream;
static CUevent event;

static void calls(void)
{
    int count = -1, version = -1;
    CUdevice dev = -1;
    CUcontext cur = (CUcontext)0x1;
    CUdeviceptr mine = 0;
    uint32_t word = 0x12345678u, back = 0;
    CALL("cuDriverGetVersion", cuDriverGetVersion(&version));
    printf("      version %d\n", version);
    CALL("cuDeviceGetCount", cuDeviceGetCount(&count));
    printf("      count %d\n", count);
    CALL("cuDeviceGet(0)", cuDeviceGet(&dev, 0));
    CALL("cuCtxGetCurrent", cuCtxGetCurrent(&cur));
    printf("      current %p (the parent's context %p)\n", (void *)cur, (void *)ctx);
    CALL("cuCtxGetDevice", cuCtxGetDevice(&dev));
    CALL("cuMemAlloc(4096)", cuMemAlloc(&mine, 4096));
    CALL("cuMemcpyHtoD(the parent's cuMemAlloc pointer)", cuMemcpyHtoD(dptr, &word, sizeof(word)));
    CALL("cuMemcpyDtoH(the parent's cuMemAlloc pointer)", cuMemcpyDtoH(&back, dptr, sizeof(back)));
    CALL("cuMemsetD32(the parent's pointer, 0xc41d)", cuMemsetD32(dptr, 0xc41du, 1));
    CALL("cuStreamQuery(the parent's stream)", cuStreamQuery(stream));
    CALL("cuStreamSynchronize(the parent's stream)", cuStreamSynchronize(stream));
    CALL("cuEventRecord(the parent's event, stream)", cuEventRecord(event, stream));
    CALL("cuEventSynchronize(the parent's event)", cuEventSynchronize(event));
    CALL("cuCtxSynchronize", cuCtxSynchronize());
    CALL("cuCtxSetCurrent(the parent's context)", cuCtxSetCurrent(ctx));
    CUcontext fresh = NULL;
    CALL("cuCtxCreate (a new context)", cuCtxCreate(&fresh, NULL, 0, 0));
    CUcontext primary = NULL;
    CALL("cuDevicePrimaryCtxRetain(0)", cuDevicePrimaryCtxRetain(&primary, 0));
    CALL("cuMemFree(the parent's pointer)", cuMemFree(dptr));
    CALL("cuStreamDestroy(the parent's stream)", cuStreamDestroy(stream));
    CALL("cuCtxDestroy(the parent's context)", cuCtxDestroy(ctx));
}

static int wait_child(pid_t pid, const char *what)
{
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFEXITED(st))
        printf("   (%s exited with %d)\n", what, WEXITSTATUS(st));
    else
        printf("   (%s killed by signal %d)\n", what, WTERMSIG(st));
    fflush(stdout);
    return st;
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("# fork_probe (CUDA_VERSION %d headers)\n", CUDA_VERSION);

    printf("## 0. fork before the parent's cuInit; the child initialises\n");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int count = -1;
        CALL("cuInit(0)", cuInit(0));
        CALL("cuDeviceGetCount", cuDeviceGetCount(&count));
        printf("      count %d\n", count);
        CUcontext c = NULL;
        CUdeviceptr p = 0;
        CALL("cuCtxCreate", cuCtxCreate(&c, NULL, 0, 0));
        CALL("cuMemAlloc(4096)", cuMemAlloc(&p, 4096));
        CALL("cuMemFree", cuMemFree(p));
        CALL("cuCtxDestroy", cuCtxDestroy(c));
        _exit(0);
    }
    wait_child(pid, "child 0");

    printf("## 1. the parent\n");
    CALL("cuInit(0)", cuInit(0));
    int version = 0;
    cuDriverGetVersion(&version);
    printf("   driver version %d\n", version);
    CALL("cuCtxCreate", cuCtxCreate(&ctx, NULL, 0, 0));
    CALL("cuMemAlloc(2 MiB)", cuMemAlloc(&dptr, SIZE));
    CALL("cuMemsetD32(0xd0d0d0d0)", cuMemsetD32(dptr, 0xd0d0d0d0u, SIZE / 4));
    CALL("cuMemAllocHost(2 MiB)", cuMemAllocHost((void **)&host, SIZE));
    for (unsigned i = 0; i < SIZE / 4; ++i)
        host[i] = 0x40404040u;
    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    CUmemGenericAllocationHandle h = 0;
    CALL("cuMemCreate(2 MiB)", cuMemCreate(&h, SIZE, &prop, 0));
    CALL("cuMemAddressReserve(2 MiB)", cuMemAddressReserve(&vmm, SIZE, 0, 0, 0));
    CALL("cuMemMap", cuMemMap(vmm, SIZE, 0, h, 0));
    CUmemAccessDesc rw = {0};
    rw.location = prop.location;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CALL("cuMemSetAccess(READWRITE)", cuMemSetAccess(vmm, SIZE, &rw, 1));
    CALL("cuMemsetD32(vmm, 0x7a7a7a7a)", cuMemsetD32(vmm, 0x7a7a7a7au, SIZE / 4));
    CALL("cuStreamCreate", cuStreamCreate(&stream, 0));
    CALL("cuEventCreate", cuEventCreate(&event, 0));
    CALL("cuLaunchHostFunc(sleep 3 s) on the stream", cuLaunchHostFunc(stream, slow, NULL));
    printf("   dptr %p, host %p, vmm %p, stream %p, event %p, ctx %p\n", (void *)dptr, (void *)host, (void *)vmm,
           (void *)stream, (void *)event, (void *)ctx);
    maps_line("dptr", dptr);
    maps_line("host", (uintptr_t)host);
    maps_line("vmm", vmm);

    printf("## 2. child A: no cuInit first (the stream is busy for 3 s after the fork)\n");
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        calls();
        printf("   -- now cuInit\n");
        CALL("cuInit(0)", cuInit(0));
        calls();
        _exit(0);
    }
    wait_child(pid, "child A");

    printf("## 3. child B: cuInit first\n");
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        CALL("cuInit(0)", cuInit(0));
        calls();
        _exit(0);
    }
    wait_child(pid, "child B");

    printf("## 4. child C: the parent's addresses, touched directly\n");
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_fault;
        sigaction(SIGSEGV, &sa, NULL);
        sigaction(SIGBUS, &sa, NULL);
        maps_line("dptr", dptr);
        maps_line("host", (uintptr_t)host);
        maps_line("vmm", vmm);
        touch("dptr", (volatile uint32_t *)(uintptr_t)dptr, 1);
        touch("host", (volatile uint32_t *)host, 1);
        touch("vmm", (volatile uint32_t *)(uintptr_t)vmm, 1);
        _exit(0);
    }
    wait_child(pid, "child C");

    printf("## 4b. child D: the parent's addresses, read without a handler\n");
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        volatile uint32_t *p = (volatile uint32_t *)(uintptr_t)dptr;
        printf("   read dptr: 0x%08x\n", p[0]);
        _exit(0);
    }
    wait_child(pid, "child D");

    printf("## 5. the parent afterwards\n");
    uint32_t first = 0;
    CALL("cuStreamSynchronize", cuStreamSynchronize(stream));
    CALL("cuMemcpyDtoH(dptr)", cuMemcpyDtoH(&first, dptr, 4));
    printf("   dptr[0] = 0x%08x (0xd0d0d0d0 = unchanged)\n", first);
    printf("   host[0] = 0x%08x (0x40404040 = unchanged)\n", host[0]);
    CALL("cuMemcpyDtoH(vmm)", cuMemcpyDtoH(&first, vmm, 4));
    printf("   vmm[0]  = 0x%08x (0x7a7a7a7a = unchanged)\n", first);
    CALL("cuMemUnmap", cuMemUnmap(vmm, SIZE));
    CALL("cuMemAddressFree", cuMemAddressFree(vmm, SIZE));
    CALL("cuMemRelease", cuMemRelease(h));
    CALL("cuMemFreeHost", cuMemFreeHost(host));
    CALL("cuMemFree", cuMemFree(dptr));
    CALL("cuEventDestroy", cuEventDestroy(event));
    CALL("cuStreamDestroy", cuStreamDestroy(stream));
    CALL("cuCtxDestroy", cuCtxDestroy(ctx));
    return 0;
}
