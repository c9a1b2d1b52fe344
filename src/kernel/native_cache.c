/*
 * The native tier's compiler and disk cache, as the driver keeps ~/.nv/ComputeCache and Mesa
 * its disk cache (STYLE.md 16), trusting nothing it did not make (DESIGN.md §20;
 * docs/kernels.md, "What the native tier trusts"):
 *
 *  - key: a 128-bit hash of the generated C source, the compiler's identity (its name or path,
 *    what `cc --version` says and what -march=native means on this processor, asked once per
 *    process) and KNATIVE_ENGINE. The entry is
 *    <folder>/<key>.so. Folder: $EXTMEM_CACHE_DIR, else $XDG_CACHE_HOME/extmem/kernels, else
 *    ~/.cache/extmem/kernels, made owner-only.
 *  - trusted only when it is this user's and no one else can write it (os_dir_open_private);
 *    entries only when they are regular files of this user's that no one else can write, and
 *    end with a trailer whose tag is keyed by the folder's own secret (16 random bytes in
 *    <folder>/secret, 0600). An entry copied from another folder or forged by someone who
 *    cannot read the secret is compiled again, never loaded. A folder that cannot be trusted
 *    is not used at all: the library is compiled privately and not cached (said at the info
 *    level).
 *  - compiled in a new private folder (mkdtemp) as the compiler's working directory, which is
 *    removed afterwards; written into the cache atomically (a temporary name, then rename), so
 *    two first launches of one kernel, in threads or processes, both succeed.
 *  - the compiler runs with a time and a memory limit (EXTMEM_CC_TIMEOUT, EXTMEM_CC_MEMORY) and
 *    is killed, with everything it started, when the library unloads: exit never waits for it.
 *  - a privileged process (set-uid, set-gid, file capabilities) runs no compiler at all.
 */
#include "native.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define TRAILER_MAGIC "EXTMEMK2"
#define SECRET_NAME "secret"
#define ENTRY_MAX ((size_t)1 << 30)

struct trailer {
    char magic[8];
    uint64_t length; /* bytes of the library before the trailer */
    uint64_t tag[2]; /* SipHash-2-4-128 of those bytes and the key, keyed by the folder's secret */
    char key[32];    /* the entry's key, hex */
};

/* ---- The key: two FNV-1a lanes with different bases and a final mix. It only names entries
 * (its inputs are public); what proves an entry is the trailer's keyed tag. ---- */
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

/* ---- The tag: SipHash-2-4 with its 128-bit output (Aumasson and Bernstein, "SipHash: a fast
 * short-input PRF"), a keyed function made for exactly this: whoever lacks the key cannot
 * make a tag that checks. ---- */
#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                                                       \
    do {                                                                                                               \
        v0 += v1, v1 = ROTL(v1, 13), v1 ^= v0, v0 = ROTL(v0, 32);                                                      \
        v2 += v3, v3 = ROTL(v3, 16), v3 ^= v2;                                                                         \
        v0 += v3, v3 = ROTL(v3, 21), v3 ^= v0;                                                                         \
        v2 += v1, v1 = ROTL(v1, 17), v1 ^= v2, v2 = ROTL(v2, 32);                                                      \
    } while (0)

static uint64_t load_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

static void knative_siphash128(const unsigned char key[16], const void *data, size_t len, uint64_t out[2])
{
    const unsigned char *m = data;
    uint64_t k0 = load_le64(key), k1 = load_le64(key + 8);
    uint64_t v0 = k0 ^ 0x736f6d6570736575ull, v1 = k1 ^ 0x646f72616e646f6dull;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ull, v3 = k1 ^ 0x7465646279746573ull;
    v1 ^= 0xee;
    size_t whole = len - len % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t w = load_le64(m + i);
        v3 ^= w;
        SIPROUND;
        SIPROUND;
        v0 ^= w;
    }
    uint64_t last = (uint64_t)(len & 0xff) << 56;
    for (size_t i = 0; i < len % 8; ++i)
        last |= (uint64_t)m[whole + i] << (8 * i);
    v3 ^= last;
    SIPROUND;
    SIPROUND;
    v0 ^= last;
    v2 ^= 0xee;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    out[0] = v0 ^ v1 ^ v2 ^ v3;
    v1 ^= 0xdd;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    out[1] = v0 ^ v1 ^ v2 ^ v3;
}

/* ---- Limits (docs/kernels.md) ---- */
static uint64_t env_number(const char *name, uint64_t fallback, uint64_t max)
{
    const char *s = os_getenv(name);
    if (!s || !*s)
        return fallback;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || *s == '-' || v > max) {
        log_warn("kernels: %s=%s is not a number from 0 to %llu: %llu", name, s, (unsigned long long)max,
                 (unsigned long long)fallback);
        return fallback;
    }
    return v;
}

/* EXTMEM_CC_TIMEOUT seconds (60; 0: none) and EXTMEM_CC_MEMORY MiB of address space (4096;
 * 0: none), the unload (the host's) as cancellation. */
static void run_options(struct os_run_options *o, const os_dir *dir, const struct khost *host)
{
    o->dir = dir;
    o->timeout_ms = env_number("EXTMEM_CC_TIMEOUT", 60, 86400) * 1000;
    o->memory_limit = env_number("EXTMEM_CC_MEMORY", 4096, 1u << 24) << 20;
    o->cancelled = host->unloading;
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

/* speed (issue 27): whether the compiler takes -march=native, and what it means on this
 * machine: the macros it predefines with it (the instruction sets: __AVX2__, __AVX512F__,
 * __ARM_NEON ...), hashed into the compiler's identity and so into every key. A cache folder
 * moved to a machine whose processor lacks an extension the code was compiled for has no entry
 * under the keys that machine computes: its modules are compiled again, never loaded. A
 * compiler that refuses -march=native compiles for its default target, and says so in the
 * identity. Asked once per process, after --version. */
static bool cc_march_native;

static void ask_march_native(const char *cc, const struct os_run_options *o)
{
    const char *argv[] = {cc, "-march=native", "-dM", "-E", "-x", "c", "/dev/null", NULL};
    size_t size = 256 * 1024, len = strlen(cc_identity);
    char *out = malloc(size);
    int status = 0;
    cc_march_native = out && os_run(argv, o, out, size, &status) == 0 && status == 0;
    if (cc_march_native) {
        struct khash128 h;
        uint64_t k[2];
        hash_init(&h);
        hash_bytes(&h, out, strlen(out));
        hash_final(&h, k);
        snprintf(cc_identity + len, sizeof(cc_identity) - len, "\n-march=native: %016llx%016llx",
                 (unsigned long long)k[0], (unsigned long long)k[1]);
    } else {
        snprintf(cc_identity + len, sizeof(cc_identity) - len, "\nthe default target");
    }
    free(out);
}

static CUresult compiler(const struct khost *host, char *why, size_t why_size)
{
    os_mutex_lock(&cc_lock);
    if (!cc_asked && os_privileged()) {
        /* The environment (PATH, EXTMEM_CC, the cache's folders) is the less privileged
         * caller's: no program is started on its word. */
        snprintf(cc_why, sizeof(cc_why),
                 "a privileged process (set-uid, set-gid or with file capabilities) runs no compiler");
        cc_result = CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
        cc_asked = true;
    }
    if (!cc_asked) {
        const char *cc = cc_name();
        const char *argv[] = {cc, "--version", NULL};
        struct os_run_options o = {.timeout_ms = 10000, .cancelled = host->unloading};
        char out[768];
        int status = 0;
        int err = os_run(argv, &o, out, sizeof(out), &status);
        if (err) {
            char buf[128];
            snprintf(cc_why, sizeof(cc_why), "the C compiler '%s' cannot be run: %s", cc,
                     err == ETIMEDOUT    ? "it did not answer --version within 10 s"
                     : err == ECANCELED ? "the library unloaded before it answered --version"
                                        : os_error_string(err, buf, sizeof(buf)));
            cc_result = CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
        } else if (status != 0) {
            snprintf(cc_why, sizeof(cc_why), "the C compiler '%s' answered --version with status %d", cc, status);
            cc_result = CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
        } else {
            snprintf(cc_identity, sizeof(cc_identity), "%s\n%s", cc, out);
            cc_result = CUDA_SUCCESS;
            ask_march_native(cc, &o);
        }
        /* Unloading cut the question short: a later process asks again. */
        cc_asked = err != ECANCELED;
    }
    CUresult r = cc_result;
    if (r)
        snprintf(why, why_size, "%s", cc_why);
    os_mutex_unlock(&cc_lock);
    return r;
}

/* ---- The cache folder and its secret ---- */
static bool cache_path(char *out, size_t size)
{
    const char *d = os_getenv("EXTMEM_CACHE_DIR");
    int n;
    if (d && *d)
        n = snprintf(out, size, "%s", d);
    else if ((d = os_getenv("XDG_CACHE_HOME")) && *d)
        n = snprintf(out, size, "%s/extmem/kernels", d);
    else if ((d = os_getenv("HOME")) && *d)
        n = snprintf(out, size, "%s/.cache/extmem/kernels", d);
    else
        return false;
    return n > 0 && (size_t)n < size;
}

struct cache {
    os_dir *dir;
    unsigned char secret[16];
};

/* The folder's secret: read, or made by the first process that needs it (link() lets one of
 * two racing processes win; the other reads the winner's). */
static bool cache_secret(struct cache *c, char *why, size_t why_size)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        char *data = NULL;
        size_t len = 0;
        int err = os_dir_read(c->dir, SECRET_NAME, true, 64, &data, &len, why, why_size);
        if (!err) {
            bool ok = len == sizeof(c->secret);
            if (ok)
                memcpy(c->secret, data, len);
            else
                snprintf(why, why_size, "%s/" SECRET_NAME " is not %zu bytes", os_dir_path(c->dir), sizeof(c->secret));
            free(data);
            return ok;
        }
        if (err != ENOENT)
            return false;
        unsigned char fresh[16];
        if (os_random_bytes(fresh, sizeof(fresh)) != 0) {
            snprintf(why, why_size, "no random bytes for the cache's secret");
            return false;
        }
        err = os_dir_write(c->dir, SECRET_NAME, fresh, sizeof(fresh), false);
        if (!err) {
            memcpy(c->secret, fresh, sizeof(fresh));
            return true;
        }
        if (err != EEXIST) {
            snprintf(why, why_size, "%s/" SECRET_NAME " cannot be written", os_dir_path(c->dir));
            return false;
        }
    }
    return false;
}

/* Opens the cache if it may be trusted; false (and c->dir NULL) with why otherwise. */
static bool cache_open(struct cache *c, char *why, size_t why_size)
{
    char path[1024];
    c->dir = NULL;
    if (!cache_path(path, sizeof(path))) {
        snprintf(why, why_size, "no cache folder is named (EXTMEM_CACHE_DIR, XDG_CACHE_HOME and HOME are unset)");
        return false;
    }
    if (os_dir_open_private(path, &c->dir, why, why_size) != 0)
        return false;
    if (!cache_secret(c, why, why_size)) {
        os_dir_close(c->dir, false);
        c->dir = NULL;
        return false;
    }
    return true;
}

/* ---- Entries ---- */
struct entry_check {
    const struct cache *cache;
    const char *key;
};

static void entry_tag(const unsigned char secret[16], const char *data, size_t len, const char *key, uint64_t out[2])
{
    /* The key is tagged too: a whole entry renamed to another key's name does not check. */
    uint64_t body[2];
    knative_siphash128(secret, data, len, body);
    unsigned char msg[16 + 32];
    memcpy(msg, body, 16);
    memcpy(msg + 16, key, 32);
    knative_siphash128(secret, msg, sizeof(msg), out);
}

/* True when data is a whole entry for the key, tagged with this folder's secret. */
static bool entry_valid(const char *data, size_t len, void *ctx)
{
    const struct entry_check *e = ctx;
    struct trailer t;
    if (len < sizeof(t))
        return false;
    memcpy(&t, data + len - sizeof(t), sizeof(t));
    if (memcmp(t.magic, TRAILER_MAGIC, 8) != 0 || t.length != len - sizeof(t) || memcmp(t.key, e->key, 32) != 0)
        return false;
    uint64_t tag[2];
    entry_tag(e->cache->secret, data, (size_t)t.length, e->key, tag);
    return tag[0] == t.tag[0] && tag[1] == t.tag[1];
}

/* Loads the entry and checks what it says it is. */
static int load(os_dir *dir, const char *name, struct entry_check *check, void **lib, char *why, size_t why_size)
{
    int err = os_dir_load(dir, name, check ? entry_valid : NULL, check, lib, why, why_size);
    if (err)
        return err;
    const char *engine = os_library_symbol(*lib, "extmem_knat_engine");
    if (!engine || strcmp(engine, KNATIVE_ENGINE) != 0) {
        snprintf(why, why_size, "%s/%s is not code of engine %s", os_dir_path(dir), name, KNATIVE_ENGINE);
        os_library_close(*lib);
        *lib = NULL;
        return EINVAL;
    }
    return 0;
}

/* Compiles source in the new private folder o->dir into its "kernels.so", under o's limits;
 * false with why (*timed_out when the time limit ended it). The folder is the compiler's
 * working directory, and its files are named relative to it. */
static bool compile(const struct os_run_options *o, const char *source, size_t len, bool *timed_out, char *why,
                    size_t why_size)
{
    const os_dir *work = o->dir;
    *timed_out = false;
    if (os_dir_write(work, "kernels.c", source, len, true) != 0) {
        snprintf(why, why_size, "cannot write %s/kernels.c", os_dir_path(work));
        return false;
    }
    /* ISO C without contraction or fast-math: the arithmetic is the executor's (docs/kernels.md).
     * -pipe: no intermediate files outside the private folder but the assembler's object.
     * -march=native where the compiler takes it (ask_march_native: the key holds what it means). */
    const char *argv[] = {cc_name(), "-std=c11", "-O2", "-pipe", "-fPIC", "-shared", "-ffp-contract=off",
                          "-fno-fast-math", "-fno-strict-aliasing", "-w", "-o", "kernels.so", "kernels.c", "-lm",
                          cc_march_native ? "-march=native" : NULL, NULL};
    char out[2048];
    int status = 0;
    int err = os_run(argv, o, out, sizeof(out), &status);
    if (err == ETIMEDOUT) {
        *timed_out = true;
        snprintf(why, why_size, "%s ran past its time limit of %llu s (EXTMEM_CC_TIMEOUT): killed", cc_name(),
                 (unsigned long long)(o->timeout_ms / 1000));
        return false;
    }
    if (err == ECANCELED) {
        snprintf(why, why_size, "%s was killed: the library is unloading", cc_name());
        return false;
    }
    if (err || status != 0) {
        char buf[128];
        char *nl = strchr(out, '\n'); /* the compiler's first line says why */
        if (nl)
            *nl = 0;
        snprintf(why, why_size, "%s failed (%s): %s", cc_name(),
                 err ? os_error_string(err, buf, sizeof(buf)) : "non-zero exit status", err ? "" : out);
        return false;
    }
    return true;
}

/* Puts the compiled library into the cache as `name`, with its trailer. */
static bool store(struct cache *c, os_dir *work, const char *name, const char *key, char *why, size_t why_size)
{
    char *data = NULL;
    size_t len = 0;
    if (os_dir_read(work, "kernels.so", false, ENTRY_MAX, &data, &len, why, why_size) != 0)
        return false;
    char *entry = realloc(data, len + sizeof(struct trailer));
    if (!entry) {
        free(data);
        snprintf(why, why_size, "out of memory for the cache entry");
        return false;
    }
    struct trailer t;
    memset(&t, 0, sizeof(t));
    memcpy(t.magic, TRAILER_MAGIC, 8);
    t.length = len;
    memcpy(t.key, key, 32);
    entry_tag(c->secret, entry, len, key, t.tag);
    memcpy(entry + len, &t, sizeof(t));
    int err = os_dir_write(c->dir, name, entry, len + sizeof(t), true);
    free(entry);
    if (err) {
        char buf[128];
        snprintf(why, why_size, "cannot put the compiled kernels at %s/%s: %s", os_dir_path(c->dir), name,
                 os_error_string(err, buf, sizeof(buf)));
        return false;
    }
    return true;
}

/* A source whose compile ran past the time limit is marked in the cache (<key>.slow, holding
 * the limit it ran past), so that later processes run it on the portable executor at once
 * instead of spending the limit again; a longer limit tries again. */
static bool marked_slow(struct cache *c, const char *key, uint64_t timeout_ms, char *why, size_t why_size)
{
    char name[64], note[256], *data = NULL;
    size_t len = 0;
    snprintf(name, sizeof(name), "%s.slow", key);
    if (os_dir_read(c->dir, name, false, 64, &data, &len, note, sizeof(note)) != 0)
        return false;
    char text[65];
    memcpy(text, data, len);
    text[len] = 0;
    free(data);
    unsigned long long limit = strtoull(text, NULL, 10);
    if (timeout_ms && timeout_ms <= limit) {
        snprintf(why, why_size, "an earlier compile of this module ran past the time limit of %llu s (%s/%s): "
                 "the portable executor runs it", limit / 1000, os_dir_path(c->dir), name);
        return true;
    }
    return false;
}

static void mark_slow(struct cache *c, const char *key, uint64_t timeout_ms)
{
    char name[64], text[32];
    snprintf(name, sizeof(name), "%s.slow", key);
    int n = snprintf(text, sizeof(text), "%llu", (unsigned long long)timeout_ms);
    (void)os_dir_write(c->dir, name, text, (size_t)n, true);
}

static os_mutex compile_lock = OS_MUTEX_INITIALIZER;

CUresult knative_cache_load(const struct khost *host, const char *source, size_t len, void **lib, char *how,
                            size_t how_size, char *why, size_t why_size)
{
    CUresult r = compiler(host, why, why_size);
    if (r)
        return r;
    /* The compiler's time grows faster than the source (gcc -O2 took 20-35 s for the 300 KiB
     * that 1000 PTX instructions make): past the threshold the module stays portable. */
    uint64_t max_source = env_number("EXTMEM_CC_MAX_SOURCE", 256, 1u << 30) << 10;
    if (max_source && len > max_source) {
        snprintf(why, why_size, "the module's generated C (%zu KiB) is larger than EXTMEM_CC_MAX_SOURCE (%llu KiB): "
                 "compiling it would take too long", len >> 10, (unsigned long long)(max_source >> 10));
        return CUDA_ERROR_LAUNCH_FAILED;
    }
    struct khash128 h;
    uint64_t k[2];
    hash_init(&h);
    hash_bytes(&h, cc_identity, strlen(cc_identity) + 1);
    hash_bytes(&h, KNATIVE_ENGINE, sizeof(KNATIVE_ENGINE));
    hash_bytes(&h, source, len);
    hash_final(&h, k);
    char key[33], name[64];
    snprintf(key, sizeof(key), "%016llx%016llx", (unsigned long long)k[0], (unsigned long long)k[1]);
    snprintf(name, sizeof(name), "%s.so", key);

    struct cache cache;
    char cache_why[512] = "";
    bool cached = cache_open(&cache, cache_why, sizeof(cache_why));
    struct entry_check check = {&cache, key};
    char miss[512] = "";
    if (cached && load(cache.dir, name, &check, lib, miss, sizeof(miss)) == 0) {
        snprintf(how, how_size, "from the cache (%s/%s)", os_dir_path(cache.dir), name);
        os_dir_close(cache.dir, false);
        return CUDA_SUCCESS;
    }
    /* One compile at a time in this process: a second thread that wanted the same library
     * finds it in the cache once the first is done, and the machine's cores are not all
     * spent on compilers. */
    os_mutex_lock(&compile_lock);
    if (cached && load(cache.dir, name, &check, lib, miss, sizeof(miss)) == 0) {
        os_mutex_unlock(&compile_lock);
        snprintf(how, how_size, "from the cache (%s/%s)", os_dir_path(cache.dir), name);
        os_dir_close(cache.dir, false);
        return CUDA_SUCCESS;
    }
    if (!cached)
        log_info("kernels: not using the kernel cache: %s; compiling privately", cache_why);
    struct os_run_options limits;
    run_options(&limits, NULL, host);
    os_dir *work = NULL;
    r = CUDA_ERROR_LAUNCH_FAILED;
    if (cached && marked_slow(&cache, key, limits.timeout_ms, why, why_size))
        goto out;
    uint64_t t0 = os_time_ns();
    bool timed_out = false;
    if (os_dir_make_temp("extmem-kernels-", &work, why, why_size) != 0)
        goto out;
    limits.dir = work;
    if (!compile(&limits, source, len, &timed_out, why, why_size)) {
        if (timed_out && cached)
            mark_slow(&cache, key, limits.timeout_ms);
        goto out;
    }
    double ms = (double)(os_time_ns() - t0) / 1e6;
    if (cached && store(&cache, work, name, key, why, why_size)) {
        if (load(cache.dir, name, &check, lib, why, why_size) != 0)
            goto out;
        snprintf(how, how_size, "compiled in %.0f ms into %s/%s", ms, os_dir_path(cache.dir), name);
    } else {
        if (cached)
            log_info("kernels: %s; loading the library without caching it", why);
        if (load(work, "kernels.so", NULL, lib, why, why_size) != 0)
            goto out;
        snprintf(how, how_size, "compiled in %.0f ms (not cached)", ms);
    }
    r = CUDA_SUCCESS;
out:
    os_dir_close(work, true);
    os_mutex_unlock(&compile_lock);
    if (cached)
        os_dir_close(cache.dir, false);
    return r;
}
