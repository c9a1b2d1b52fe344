/*
 * The layer built as a Vulkan driver (libvulkan_extmem.so, LAYER_AS_DRIVER): the Vulkan loader
 * loads it as a driver, through a driver manifest (extmem_icd.json), so every layer, whether the
 * environment, vkconfig or the application enabled it, sits above it; it loads the real driver
 * (lavapipe) and passes everything through it, adding what the layer adds
 * (docs/external-semaphores.md, docs/vulkan-import.md).
 *
 * The interface is the loader's driver interface (Vulkan-Loader's LoaderDriverInterface.md):
 * vk_icdNegotiateLoaderICDInterfaceVersion, vk_icdGetInstanceProcAddr and
 * vk_icdGetPhysicalDeviceProcAddr, the only symbols the library exports (driver.map). The
 * version agreed is the real driver's own answer to the loader's offer: extmem hands out the
 * real driver's handles (which carry the loader's magic word where the interface wants it) and
 * keeps to whatever that version asks of a driver.
 *
 * The real driver: the manifest named by EXTMEM_VK_DRIVER_FILE (extmem-run sets it), else
 * lavapipe's in the usual folders. Its library_path is resolved as the loader resolves one: an
 * absolute path, a path relative to the manifest's folder, or a bare name for dlopen.
 */
#include "layer.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DRIVER_EXPORT __attribute__((visibility("default")))

typedef VkResult(VKAPI_PTR *negotiate_fn)(uint32_t *version);
typedef PFN_vkVoidFunction(VKAPI_PTR *gpdpa_fn)(VkInstance instance, const char *name);

DRIVER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *version);
DRIVER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance, const char *name);
DRIVER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                   const char *name);

struct ldriver layer_driver;
static negotiate_fn driver_negotiate;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_why[PATH_MAX + 256];

/* Lavapipe's manifest where Debian, Ubuntu and Mesa's default prefix put it. */
static const char *const default_manifests[] = {
    "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json", "/usr/share/vulkan/icd.d/lvp_icd.aarch64.json",
    "/usr/share/vulkan/icd.d/lvp_icd.json",        "/usr/local/share/vulkan/icd.d/lvp_icd.x86_64.json",
    "/usr/local/share/vulkan/icd.d/lvp_icd.json",
};

/* The manifest's "library_path" string (no escapes: a path with a backslash or a quote in it is
 * refused, as nothing the loader's own parser would accept needs one here). */
static bool library_path(const char *json, char *out, size_t size)
{
    const char *k = strstr(json, "\"library_path\"");
    if (!k)
        return false;
    const char *p = k + strlen("\"library_path\"");
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p++ != ':')
        return false;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p++ != '"')
        return false;
    const char *end = strchr(p, '"');
    if (!end || end == p || (size_t)(end - p) >= size || memchr(p, '\\', (size_t)(end - p)))
        return false;
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = 0;
    return true;
}

static bool read_manifest(const char *path, char *text, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(load_why, sizeof(load_why), "cannot open the driver manifest %s: %s", path, strerror(errno));
        return false;
    }
    size_t n = 0;
    ssize_t r;
    while (n + 1 < size && (r = read(fd, text + n, size - 1 - n)) > 0)
        n += (size_t)r;
    close(fd);
    text[n] = 0;
    return true;
}

static void load(void)
{
    const char *manifest = secure_getenv("EXTMEM_VK_DRIVER_FILE"); /* unset in set-uid programs */
    if (!manifest || !*manifest) {
        manifest = NULL;
        for (size_t i = 0; i < sizeof(default_manifests) / sizeof(default_manifests[0]) && !manifest; ++i)
            if (access(default_manifests[i], R_OK) == 0)
                manifest = default_manifests[i];
        if (!manifest) {
            snprintf(load_why, sizeof(load_why),
                     "no driver to wrap: EXTMEM_VK_DRIVER_FILE is unset and lavapipe's manifest (lvp_icd.*.json) is "
                     "not in /usr/share/vulkan/icd.d (Debian/Ubuntu: mesa-vulkan-drivers)");
            return;
        }
    }
    static char text[65536];
    char lib[PATH_MAX], full[PATH_MAX];
    if (!read_manifest(manifest, text, sizeof(text)))
        return;
    if (!library_path(text, lib, sizeof(lib))) {
        snprintf(load_why, sizeof(load_why), "the driver manifest %s has no usable \"library_path\"", manifest);
        return;
    }
    const char *path = lib;
    if (lib[0] != '/' && strchr(lib, '/')) { /* relative to the manifest's folder */
        const char *slash = strrchr(manifest, '/');
        int dir = slash ? (int)(slash - manifest) : 1;
        if (snprintf(full, sizeof(full), "%.*s/%s", dir, slash ? manifest : ".", lib) >= (int)sizeof(full)) {
            snprintf(load_why, sizeof(load_why), "the driver library's path in %s is too long", manifest);
            return;
        }
        path = full;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(load_why, sizeof(load_why), "cannot load the driver %s (from %s): %s", path, manifest, e ? e : "?");
        return;
    }
    negotiate_fn neg = (negotiate_fn)dlsym(h, "vk_icdNegotiateLoaderICDInterfaceVersion");
    PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(h, "vk_icdGetInstanceProcAddr");
    gpdpa_fn gpdpa = (gpdpa_fn)dlsym(h, "vk_icdGetPhysicalDeviceProcAddr");
    if (!neg || !gipa) {
        snprintf(load_why, sizeof(load_why), "%s is no Vulkan driver of interface version 2 or later (no %s)", path,
                 !neg ? "vk_icdNegotiateLoaderICDInterfaceVersion" : "vk_icdGetInstanceProcAddr");
        dlclose(h);
        return;
    }
    if (gipa == vk_icdGetInstanceProcAddr) {
        snprintf(load_why, sizeof(load_why), "%s names extmem's own driver: it cannot wrap itself", manifest);
        dlclose(h);
        return;
    }
    /* The library stays loaded for the life of the process, as the loader keeps drivers. */
    driver_negotiate = neg;
    layer_driver.gipa = gipa;
    layer_driver.gpdpa = gpdpa;
    layer_info("driver: wrapping %s (%s)", path, manifest);
}

DRIVER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *version)
{
    pthread_once(&load_once, load);
    if (!layer_driver.gipa)
        return layer_error(VK_ERROR_INCOMPATIBLE_DRIVER, "%s", load_why);
    if (!version)
        return VK_ERROR_INCOMPATIBLE_DRIVER;
    /* The real driver answers the loader's offer; version 2 is the first with
     * vk_icdGetInstanceProcAddr, which everything here goes through. */
    uint32_t offer = *version;
    VkResult r = driver_negotiate(&offer);
    if (r != VK_SUCCESS)
        return r;
    if (offer < 2)
        return layer_error(VK_ERROR_INCOMPATIBLE_DRIVER, "the driver agreed to interface version %u: extmem needs 2",
                           offer);
    *version = offer;
    return VK_SUCCESS;
}

DRIVER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance, const char *name)
{
    pthread_once(&load_once, load);
    if (!layer_driver.gipa || !name)
        return NULL;
    return layer_instance_command(instance, name);
}

DRIVER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                   const char *name)
{
    pthread_once(&load_once, load);
    if (!layer_driver.gipa || !name)
        return NULL;
    /* The physical-device commands the layer answers, else the driver's (for commands the
     * loader does not know). */
    if (strcmp(name, "vkGetPhysicalDeviceExternalSemaphoreProperties") == 0 ||
        strcmp(name, "vkGetPhysicalDeviceExternalSemaphorePropertiesKHR") == 0 ||
        strcmp(name, "vkGetPhysicalDeviceExternalBufferProperties") == 0 ||
        strcmp(name, "vkGetPhysicalDeviceExternalBufferPropertiesKHR") == 0 ||
        strcmp(name, "vkEnumerateDeviceExtensionProperties") == 0)
        return layer_instance_command(instance, name);
    return layer_driver.gpdpa ? layer_driver.gpdpa(instance, name) : NULL;
}
