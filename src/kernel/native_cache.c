/*
 * The native tier's compiler and disk cache, as the driver keeps ~/.nv/ComputeCache and Mesa
 * its disk cache (STYLE.md 16):
 *
 *  - key: a 128-bit hash of the generated C source, the compiler's identity (its name or path
 *    and what `cc --version` says, asked once per process) and KNATIVE_ENGINE. The entry is
 *    <folder>/<key>.so. Folder: $EXTMEM_CACHE_DIR, else $XDG_CACHE_HOME/extmem/kernels, else
 *    ~/.cache/extmem/kernels.
 *  - written atomically: the compiler writes a file of a name no other thread or process uses
 *    (key, process id, a counter, random bits), the trailer is appended, and rename() puts it
 *    in place. Two first launches of one kernel, in threads or processes, both compile and
 *    both succeed; the last rename wins with the same contents.
 *  - harmless when corrupt or stale: every entry ends with a trailer (magic, the length of the
 *    library before it, a hash of those bytes, and the key) that is checked before the library
 *    is loaded, and the loaded library must say KNATIVE_ENGINE. A bad entry is compiled again
 *    and replaced; it is never loaded.
 *  - a folder that cannot be written: the library is compiled into a private temporary folder
 *    instead, loaded and deleted, with a log line.
 */
#include "native.h"

#include <stdio.h>
#include <stdlib.h>

#define TRAILER_MAGIC "EXTMEMK1"

struct trailer {
    char magic[8];
    uint64_t length;  /* bytes of the library before the trailer */
    uint64_t hash[2]; /* of those bytes */
    char key[32];     /* the entry's key, hex */
};

/* ---- Hashing: two FNV-1a lanes with different bases and a final mix (not cryptographic: the
 * cache is the user's own, the hash only names and checks entries). ---- */
struct khash128 {
    uint64_t a, b;
};
static void hash_init(struct khash128 *h)
{
    h->a = 0xcbf29ce484222325ull;
    h->b = 0x84222325cbf29ce4ull;
}
static void hash_bytes(struct khash128 *h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; ++i) {
        h->a = (h->a ^ s[i]) * 0x100000001b3ull;
        h->b = (h->b ^ s[i]) * 0x100000001b3ull;
        h->b ^= h->b >> 29;
    }
}
static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}
static void hash_final(const struct khash128 *h, uint64_t out[2])
{
    out[0] = mix(h->a ^ mix(h->b));
    out[1] = mix(h->b + out[0]);
}

/* ---- The compiler: EXTMEM_CC or cc, asked for its version once per process ---- */
static os_mutex cc_lock = OS_MUTEX_INITIALIZER;
static bool cc_asked;
static CUresult cc_result;
static char cc_identity[1024];
static char cc_why[256];

static const char *cc_name(void)
{
    const char *cc = os_getenv("EXTMEM_CC");
    return cc && *cc ? cc : "cc";
}

static CUresult compiler(char *why, size_t why_size)
{
    os_mutex_lock(&cc_lock);
    if (!cc_asked) {
        const char *cc = cc_name();
        const char *argv[] = {cc, "--version", NULL};
        char out[768];
        int status = 0;
        int err = os_run(argv, out, sizeof(out), &status);
        if (err) {
            char buf[128];
            snprintf(cc_why, sizeof(cc_why), "the C compiler '%s' cannot be run: %s", cc,
                     os_error_string(err, buf, sizeof(buf)));
            cc_result = CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
        } else if (status != 0) {
            snprintf(cc_why, sizeof(cc_why), "the C compiler '%s' answered --version with status %d", cc, status);
            cc_result = CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
        } else {
            snprintf(cc_identity, sizeof(cc_identity), "%s\n%s", cc, out);
            cc_result = CUDA_SUCCESS;
        }
        cc_asked = true;
    }
    CUresult r = cc_result;
    if (r)
        snprintf(why, why_size, "%s", cc_why);
    os_mutex_unlock(&cc_lock);
    return r;
}

/* ---- The folder ---- */
static bool cache_dir(char *out, size_t size)
{
    const char *d = os_getenv("EXTMEM_CACHE_DIR");
    int n;
    if (d && *d) {
        n = snprintf(out, size, "%s", d);
    } else if ((d = os_getenv("XDG_CACHE_HOME")) && *d) {
        n = snprintf(out, size, "%s/extmem/kernels", d);
    } else if ((d = os_getenv("HOME")) && *d) {
        n = snprintf(out, size, "%s/.cache/extmem/kernels", d);
    } else {
        return false;
    }
    if (n < 0 || (size_t)n >= size)
        return false;
    /* Make it and its parents (mkdir -p). */
    for (char *p = out + 1; *p; ++p) {
        if (*p == '/' || *p == '\\') {
            char c = *p;
            *p = 0;
            os_make_dir(out);
            *p = c;
        }
    }
    return os_make_dir(out) == 0;
}

/* ---- Entries ---- */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, used = 0;
    for (;;) {
        if (used == cap) {
            size_t nc = cap ? cap * 2 : 65536;
            char *p = realloc(buf, nc);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
            cap = nc;
        }
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (n == 0)
            break;
    }
    fclose(f);
    *len = used;
    return buf;
}

/* True when the file at path is a whole entry for key. */
static bool entry_valid(const char *path, const char *key)
{
    size_t len = 0;
    char *data = read_all(path, &len);
    if (!data)
        return false;
    bool ok = false;
    struct trailer t;
    if (len >= sizeof(t)) {
        memcpy(&t, data + len - sizeof(t), sizeof(t));
        if (memcmp(t.magic, TRAILER_MAGIC, 8) == 0 && t.length == len - sizeof(t) && memcmp(t.key, key, 32) == 0) {
            struct khash128 h;
            uint64_t sum[2];
            hash_init(&h);
            hash_bytes(&h, data, (size_t)t.length);
            hash_final(&h, sum);
            ok = sum[0] == t.hash[0] && sum[1] == t.hash[1];
        }
    }
    free(data);
    return ok;
}

static bool append_trailer(const char *path, const char *key)
{
    size_t len = 0;
    char *data = read_all(path, &len);
    if (!data)
        return false;
    struct trailer t;
    memset(&t, 0, sizeof(t));
    memcpy(t.magic, TRAILER_MAGIC, 8);
    t.length = len;
    struct khash128 h;
    hash_init(&h);
    hash_bytes(&h, data, len);
    hash_final(&h, t.hash);
    memcpy(t.key, key, 32);
    free(data);
    FILE *f = fopen(path, "ab");
    if (!f)
        return false;
    bool ok = fwrite(&t, sizeof(t), 1, f) == 1;
    return fclose(f) == 0 && ok;
}

/* Loads the entry and checks what it says it is. */
static int load(const char *path, void **lib, char *why, size_t why_size)
{
    int err = os_library_open(path, lib, why, why_size);
    if (err)
        return err;
    const char *engine = os_library_symbol(*lib, "extmem_knat_engine");
    if (!engine || strcmp(engine, KNATIVE_ENGINE) != 0) {
        snprintf(why, why_size, "%s is not code of engine %s", path, KNATIVE_ENGINE);
        os_library_close(*lib);
        *lib = NULL;
        return -1;
    }
    return 0;
}

/* A name no other thread or process uses at the same time. */
static void unique_name(char *out, size_t size, const char *dir, const char *key, const char *ext)
{
    static atomic_uint counter;
    uint32_t r = 0;
    os_random_bytes(&r, sizeof(r));
    snprintf(out, size, "%s/%s.tmp-%d-%u-%08x%s", dir, key, os_process_id(), atomic_fetch_add(&counter, 1) + 1, r, ext);
}

/* Compiles source into the library `so` (a temporary name); false with why. */
static bool compile(const char *dir, const char *key, const char *source, size_t len, const char *so, char *why,
                    size_t why_size)
{
    char c_path[1100];
    unique_name(c_path, sizeof(c_path), dir, key, ".c");
    FILE *f = fopen(c_path, "wb");
    if (!f) {
        snprintf(why, why_size, "cannot write %s", c_path);
        return false;
    }
    bool wrote = fwrite(source, 1, len, f) == len;
    if (fclose(f) != 0 || !wrote) {
        os_remove_file(c_path);
        snprintf(why, why_size, "cannot write %s", c_path);
        return false;
    }
    /* ISO C without contraction or fast-math: the arithmetic is the executor's (docs/kernels.md). */
    const char *argv[] = {cc_name(), "-std=c11", "-O2", "-fPIC", "-shared", "-ffp-contract=off", "-fno-fast-math",
                          "-fno-strict-aliasing", "-w", "-o", so, c_path, "-lm", NULL};
    char out[2048];
    int status = 0;
    int err = os_run(argv, out, sizeof(out), &status);
    os_remove_file(c_path);
    if (err || status != 0) {
        char buf[128];
        /* the compiler's first line says why */
        char *nl = strchr(out, '\n');
        if (nl)
            *nl = 0;
        snprintf(why, why_size, "%s failed (%s): %s", cc_name(),
                 err ? os_error_string(err, buf, sizeof(buf)) : "non-zero exit status", err ? "" : out);
        os_remove_file(so);
        return false;
    }
    return true;
}

static os_mutex compile_lock = OS_MUTEX_INITIALIZER;

CUresult knative_cache_load(const char *source, size_t len, void **lib, char *how, size_t how_size, char *why,
                            size_t why_size)
{
    CUresult r = compiler(why, why_size);
    if (r)
        return r;
    struct khash128 h;
    uint64_t k[2];
    hash_init(&h);
    hash_bytes(&h, cc_identity, strlen(cc_identity) + 1);
    hash_bytes(&h, KNATIVE_ENGINE, sizeof(KNATIVE_ENGINE));
    hash_bytes(&h, source, len);
    hash_final(&h, k);
    char key[33];
    snprintf(key, sizeof(key), "%016llx%016llx", (unsigned long long)k[0], (unsigned long long)k[1]);

    char dir[1024], path[1100], tmp[1100];
    bool have_dir = cache_dir(dir, sizeof(dir));
    if (have_dir) {
        snprintf(path, sizeof(path), "%s/%s.so", dir, key);
        if (entry_valid(path, key) && load(path, lib, why, why_size) == 0) {
            snprintf(how, how_size, "from the cache (%s)", path);
            return CUDA_SUCCESS;
        }
    }
    /* One compile at a time in this process: a second thread that wanted the same library
     * finds it in the cache once the first is done, and the machine's cores are not all
     * spent on compilers. */
    os_mutex_lock(&compile_lock);
    if (have_dir && entry_valid(path, key) && load(path, lib, why, why_size) == 0) {
        os_mutex_unlock(&compile_lock);
        snprintf(how, how_size, "from the cache (%s)", path);
        return CUDA_SUCCESS;
    }
    uint64_t t0 = os_time_ns();
    bool private_dir = false;
    if (have_dir) {
        unique_name(tmp, sizeof(tmp), dir, key, ".so");
        FILE *probe = fopen(tmp, "wb");
        if (probe)
            fclose(probe);
        else
            have_dir = false;
    }
    if (!have_dir) {
        /* The cache folder cannot be written (or there is none): a private folder. */
        int n = snprintf(dir, sizeof(dir), "%s/extmem-kernels-%d", os_temp_dir(), os_process_id());
        if (n < 0 || (size_t)n >= sizeof(dir) || os_make_dir(dir) != 0) {
            os_mutex_unlock(&compile_lock);
            snprintf(why, why_size, "no folder to compile kernels in (the cache's cannot be written, nor %s)", dir);
            return CUDA_ERROR_LAUNCH_FAILED;
        }
        private_dir = true;
        log_info("kernels: the cache folder cannot be written: compiling into %s instead", dir);
        unique_name(tmp, sizeof(tmp), dir, key, ".so");
    }
    if (!compile(dir, key, source, len, tmp, why, why_size)) {
        os_mutex_unlock(&compile_lock);
        return CUDA_ERROR_LAUNCH_FAILED;
    }
    double ms = (double)(os_time_ns() - t0) / 1e6;
    if (private_dir) {
        int err = load(tmp, lib, why, why_size);
        os_remove_file(tmp);
        os_mutex_unlock(&compile_lock);
        if (err)
            return CUDA_ERROR_LAUNCH_FAILED;
        snprintf(how, how_size, "compiled in %.0f ms (not cached)", ms);
        return CUDA_SUCCESS;
    }
    if (!append_trailer(tmp, key) || os_rename_replace(tmp, path) != 0) {
        os_remove_file(tmp);
        os_mutex_unlock(&compile_lock);
        snprintf(why, why_size, "cannot put the compiled kernels at %s", path);
        return CUDA_ERROR_LAUNCH_FAILED;
    }
    int err = load(path, lib, why, why_size);
    os_mutex_unlock(&compile_lock);
    if (err)
        return CUDA_ERROR_LAUNCH_FAILED;
    snprintf(how, how_size, "compiled in %.0f ms into %s", ms, path);
    return CUDA_SUCCESS;
}
