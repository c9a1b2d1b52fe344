/*
 * extmem-unload-check: loads the drop-in libcuda.so.1 with dlopen, as a program that picks
 * its CUDA driver at run time does, uses streams, the worker pool and a stream that is being
 * destroyed, then unloads it with dlclose, three times over. After each dlclose no thread the
 * library started may be left (they would run unmapped code: a crash when they wake), and the
 * library must really be gone from the address space.
 *
 * Usage: extmem-unload-check PATH/TO/libcuda.so.1
 * Exits 0 when every round holds, 1 with a message when one does not.
 */
#define _GNU_SOURCE
#include "extmem/extmem.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef CUresult (*init_fn)(unsigned int);
typedef CUresult (*device_get_fn)(CUdevice *, int);
typedef CUresult (*ctx_create_fn)(CUcontext *, unsigned int, CUdevice);
typedef CUresult (*ctx_destroy_fn)(CUcontext);
typedef CUresult (*stream_create_fn)(CUstream *, unsigned int);
typedef CUresult (*stream_fn)(CUstream);
typedef CUresult (*host_func_fn)(CUstream, CUhostFn, void *);
typedef CUresult (*launch_fn)(extmem_kernel, extmem_dim3, extmem_dim3, const void *, size_t, CUstream);

/* Threads of this process that extmem started: it names them extmem-stream and extmem-pool
 * (other runtimes, such as a sanitizer's, start threads of their own). */
static int extmem_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[300], comm[32] = "";
        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f) {
            if (!fgets(comm, sizeof(comm), f))
                comm[0] = 0;
            fclose(f);
        }
        /* (This program's own name starts with "extmem-" too.) */
        n += strncmp(comm, "extmem-stream", 13) == 0 || strncmp(comm, "extmem-pool", 11) == 0;
    }
    closedir(d);
    return n;
}

static int library_mapped(const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof(line), f))
        found = strstr(line, name) != NULL;
    fclose(f);
    return found;
}

static void CUDA_CB nap(void *arg)
{
    (void)arg;
    usleep(20000);
}

static void block(const extmem_block *b, void *args)
{
    (void)b;
    (void)args;
}

#define CHECK(call)                                                                                  \
    do {                                                                                             \
        CUresult r_ = (call);                                                                        \
        if (r_ != CUDA_SUCCESS) {                                                                    \
            fprintf(stderr, "round %d: %s failed: %d\n", round, #call, (int)r_);                    \
            return 1;                                                                                \
        }                                                                                            \
    } while (0)

#define LOAD(var, type, name)                                                                        \
    type var = (type)dlsym(lib, name);                                                               \
    if (!var) {                                                                                      \
        fprintf(stderr, "round %d: %s is missing: %s\n", round, name, dlerror());                    \
        return 1;                                                                                    \
    }

static int one_round(const char *path, int round)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "round %d: dlopen: %s\n", round, dlerror());
        return 1;
    }
    LOAD(init, init_fn, "cuInit");
    LOAD(device_get, device_get_fn, "cuDeviceGet");
    LOAD(ctx_create, ctx_create_fn, "cuCtxCreate_v2");
    LOAD(ctx_destroy, ctx_destroy_fn, "cuCtxDestroy_v2");
    LOAD(stream_create, stream_create_fn, "cuStreamCreate");
    LOAD(stream_sync, stream_fn, "cuStreamSynchronize");
    LOAD(stream_destroy, stream_fn, "cuStreamDestroy_v2");
    LOAD(host_func, host_func_fn, "cuLaunchHostFunc");
    LOAD(launch, launch_fn, "extmem_launch_kernel");

    CUdevice dev;
    CUcontext ctx;
    CUstream idle, dying;
    CHECK(init(0));
    CHECK(device_get(&dev, 0));
    CHECK(ctx_create(&ctx, 0, dev));
    CHECK(stream_create(&idle, 0));
    CHECK(stream_create(&dying, CU_STREAM_NON_BLOCKING));
    extmem_dim3 grid = {64, 1, 1}, blk = {1, 1, 1};
    CHECK(launch(block, grid, blk, NULL, 0, idle)); /* starts the worker pool */
    CHECK(host_func(idle, nap, NULL));
    CHECK(stream_sync(idle)); /* its worker now waits for more work */
    if (extmem_threads() < 1) {
        fprintf(stderr, "round %d: no extmem-stream/extmem-pool thread while streams run: the check would prove nothing\n",
                round);
        return 1;
    }
    CHECK(host_func(dying, nap, NULL));
    CHECK(stream_destroy(dying)); /* its worker leaves when drained, maybe during dlclose */
    CHECK(host_func(idle, nap, NULL));
    CHECK(ctx_destroy(ctx)); /* the idle stream's worker is told to leave; the pool stays */

    if (dlclose(lib) != 0) {
        fprintf(stderr, "round %d: dlclose: %s\n", round, dlerror());
        return 1;
    }
    usleep(50000); /* a thread left behind would wake in unmapped code by now */
    int left = extmem_threads();
    if (left != 0) {
        fprintf(stderr, "round %d: %d extmem-stream/extmem-pool threads still run after dlclose\n", round, left);
        return 1;
    }
    if (library_mapped(path) != 0) {
        fprintf(stderr, "round %d: %s is still mapped after dlclose\n", round, path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH/TO/libcuda.so.1\n", argv[0]);
        return 2;
    }
    for (int round = 1; round <= 3; ++round)
        if (one_round(argv[1], round))
            return 1;
    printf("3 rounds of dlopen, stream use and dlclose: no thread left, library unmapped\n");
    return 0;
}
