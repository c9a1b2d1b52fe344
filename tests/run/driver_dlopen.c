/*
 * driver_dlopen: a driver-API client that loads the driver as many programs and language
 * bindings do, with dlopen("libcuda.so.1") and dlsym, and prints the device's name and where
 * the library it got lives (dladdr). Exit status 0 when every call succeeds.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

typedef int (*init_fn)(unsigned);
typedef int (*device_get_fn)(int *, int);
typedef int (*device_name_fn)(char *, int, int);
typedef int (*driver_version_fn)(int *);

int main(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        printf("dlopen(libcuda.so.1) failed: %s\n", dlerror());
        return 1;
    }
    init_fn init = (init_fn)dlsym(lib, "cuInit");
    device_get_fn device_get = (device_get_fn)dlsym(lib, "cuDeviceGet");
    device_name_fn device_name = (device_name_fn)dlsym(lib, "cuDeviceGetName");
    driver_version_fn driver_version = (driver_version_fn)dlsym(lib, "cuDriverGetVersion");
    if (!init || !device_get || !device_name || !driver_version) {
        printf("libcuda.so.1 lacks a driver entry point\n");
        return 1;
    }
    Dl_info where;
    if (dladdr((void *)init, &where) && where.dli_fname)
        printf("libcuda.so.1 loaded from %s\n", where.dli_fname);
    int device = -1, version = 0, r;
    char name[128];
    if ((r = init(0)) != 0 || (r = device_get(&device, 0)) != 0 || (r = device_name(name, sizeof name, device)) != 0 ||
        (r = driver_version(&version)) != 0) {
        printf("a driver call failed: CUresult %d\n", r);
        return 1;
    }
    printf("driver %d, device 0: %s\n", version, name);
    dlclose(lib);
    return 0;
}
