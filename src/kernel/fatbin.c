/*
 * Images a module may be loaded from: PTX text, and nvcc's fat binaries, whose PTX entries
 * the kernel engine runs (DESIGN.md §13).
 *
 * The fat binary layout, as nvcc 13 writes it (learnt from files made with `nvcc -fatbin`
 * and read with cuobjdump; scripts/make-test-fatbins.sh makes the test files). Little-endian:
 *   wrapper (what nvcc's host code registers): u32 magic 0x466243B1, u32 version (1 or 2),
 *     then a pointer to the container (and one more pointer we do not need);
 *   container: u32 magic 0xBA55ED50, u16 version 1, u16 header size (16), u64 the size of
 *     the entries that follow the header;
 *   entry header (its own size in it, 64 bytes for ELF, 80 for PTX), then its payload:
 *     +0 u16 kind (1 PTX, 2 ELF), +2 u16 version, +4 u32 header size, +8 u64 payload size
 *     (padded), +16 u32 compressed size (0 when stored), +24 u32 the PTX ISA version
 *     (major << 16 | minor), +28 u32 the target (75 for sm_75), +40 u64 flags (0x2000 LZ4,
 *     0x8000 ZSTD), +56 u64 the uncompressed size (with its NUL, for PTX).
 */
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(EXTMEM_HAVE_ZSTD)
#include <zstd.h>
#endif
#if defined(EXTMEM_HAVE_LZ4)
#include <lz4.h>
#endif

#define WRAPPER_MAGIC 0x466243B1u
#define CONTAINER_MAGIC 0xBA55ED50u
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define ENTRY_MIN_HEADER 64

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* True when the first four bytes are `magic`; stops at the first byte that differs, so a
 * short NUL-terminated string is never read past its end. */
static bool starts_with(const unsigned char *p, uint32_t magic)
{
    for (int i = 0; i < 4; ++i)
        if (p[i] != (unsigned char)(magic >> (8 * i)))
            return false;
    return true;
}

struct entry {
    const unsigned char *payload;
    uint64_t payload_size, compressed, uncompressed, flags;
    uint32_t kind, arch;
};

static CUresult copy_ptx(const char *fn, const struct entry *e, char **text, size_t *len)
{
    uint64_t stored = e->compressed ? e->compressed : e->payload_size;
    uint64_t out_size = e->compressed ? e->uncompressed : e->payload_size;
    if (stored > e->payload_size)
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: fat binary entry for compute_%u: %llu compressed bytes in a %llu-byte "
                    "payload", fn, e->arch, (unsigned long long)stored, (unsigned long long)e->payload_size);
    if (out_size > ((uint64_t)1 << 31))
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: fat binary entry for compute_%u claims %llu bytes of PTX", fn,
                    e->arch, (unsigned long long)out_size);
    char *buf = malloc((size_t)out_size + 1);
    if (!buf)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: no host memory for %llu bytes of PTX", fn, (unsigned long long)out_size);
    if (!e->compressed) {
        memcpy(buf, e->payload, (size_t)out_size);
    } else if (e->flags & FLAG_ZSTD) {
#if defined(EXTMEM_HAVE_ZSTD)
        size_t got = ZSTD_decompress(buf, (size_t)out_size, e->payload, (size_t)stored);
        if (ZSTD_isError(got) || got != out_size) {
            free(buf);
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: the ZSTD-compressed PTX for compute_%u does not decompress to its "
                        "%llu bytes: %s", fn, e->arch, (unsigned long long)out_size,
                        ZSTD_isError(got) ? ZSTD_getErrorName(got) : "wrong size");
        }
#else
        free(buf);
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the PTX for compute_%u is ZSTD-compressed and this build of extmem has "
                    "no libzstd: compile with --compress-mode=none", fn, e->arch);
#endif
    } else if (e->flags & FLAG_LZ4) {
#if defined(EXTMEM_HAVE_LZ4)
        int got = stored > INT32_MAX ? -1 : LZ4_decompress_safe((const char *)e->payload, buf, (int)stored, (int)out_size);
        if (got < 0 || (uint64_t)got != out_size) {
            free(buf);
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: the LZ4-compressed PTX for compute_%u does not decompress to its "
                        "%llu bytes", fn, e->arch, (unsigned long long)out_size);
        }
#else
        free(buf);
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the PTX for compute_%u is LZ4-compressed and this build of extmem has "
                    "no liblz4: compile with --compress-mode=none", fn, e->arch);
#endif
    } else {
        free(buf);
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the PTX for compute_%u is compressed (flags 0x%llx) in a way extmem does "
                    "not know", fn, e->arch, (unsigned long long)e->flags);
    }
    buf[out_size] = 0;
    *len = strlen(buf); /* the payload ends with a NUL and padding */
    *text = buf;
    return CUDA_SUCCESS;
}

/* Reads the container at p (avail bytes known to be readable, or 0: trust its header). */
static CUresult from_container(const char *fn, const unsigned char *p, size_t avail, int sm, char **text,
                               size_t *len, char name[96])
{
    uint16_t hsize = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (hsize < 16 || body > ((uint64_t)1 << 40))
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: fat binary header size %u or size %llu is implausible", fn, hsize,
                    (unsigned long long)body);
    uint64_t total = hsize + body;
    if (avail && total > avail)
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: the fat binary says it has %llu bytes but the image has %zu", fn,
                    (unsigned long long)total, avail);
    struct entry best = {0};
    bool have = false;
    uint32_t sass_arch = 0, newer_ptx = 0;
    unsigned nentries = 0;
    for (uint64_t off = hsize; off < total; ++nentries) {
        const unsigned char *e = p + off;
        if (total - off < ENTRY_MIN_HEADER)
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: fat binary entry %u at offset %llu is truncated", fn, nentries,
                        (unsigned long long)off);
        uint32_t ehs = rd32(e + 4);
        uint64_t psize = rd64(e + 8);
        if (ehs < ENTRY_MIN_HEADER || ehs > total - off || psize > total - off - ehs)
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: fat binary entry %u at offset %llu runs past the end (header %u, "
                        "payload %llu bytes)", fn, nentries, (unsigned long long)off, ehs, (unsigned long long)psize);
        struct entry x = {e + ehs, psize, rd32(e + 16), rd64(e + 56), rd64(e + 40), rd16(e), rd32(e + 28)};
        if (x.kind == KIND_PTX && (int)x.arch <= sm) {
            if (!have || x.arch > best.arch)
                best = x;
            have = true;
        } else if (x.kind == KIND_PTX) {
            newer_ptx = newer_ptx ? newer_ptx : x.arch;
        } else if (x.kind == KIND_ELF) {
            sass_arch = sass_arch ? sass_arch : x.arch;
        }
        off += ehs + psize;
    }
    if (!have && newer_ptx)
        return fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: the fat binary has PTX for compute_%u only, newer than the "
                    "device's compute capability %d.%d: compile for an older target, or raise "
                    "EXTMEM_COMPUTE_CAPABILITY", fn, newer_ptx, sm / 10, sm % 10);
    if (!have && sass_arch)
        return fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: the fat binary has SASS for sm_%u only: a CPU cannot run SASS; "
                    "compile with -gencode arch=compute_XX,code=compute_XX to include PTX", fn, sass_arch);
    if (!have)
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: the fat binary has no PTX entry (%u entries)", fn, nentries);
    snprintf(name, 96, "fat binary PTX for compute_%u", best.arch);
    return copy_ptx(fn, &best, text, len);
}

CUresult image_ptx(const char *fn, const void *image, size_t size, int sm, char **text, size_t *len, char name[96])
{
    if (!image)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: image is NULL", fn);
    const unsigned char *p = image;
    bool room = size == 0 || size >= 16;
    if (room && starts_with(p, WRAPPER_MAGIC)) {
        const void *inner;
        memcpy(&inner, p + 8, sizeof(inner));
        if (!inner || !starts_with(inner, CONTAINER_MAGIC))
            return fail(CUDA_ERROR_INVALID_IMAGE, "%s: the fat binary wrapper (magic 0x%x) does not point to a fat "
                        "binary (magic 0x%x)", fn, WRAPPER_MAGIC, CONTAINER_MAGIC);
        return from_container(fn, inner, 0, sm, text, len, name);
    }
    if (room && starts_with(p, CONTAINER_MAGIC))
        return from_container(fn, p, size, sm, text, len, name);
    if (starts_with(p, 0x464c457fu)) /* "\x7f" "ELF" */
        return fail(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: the image is an ELF cubin (SASS): a CPU cannot run SASS; load "
                    "PTX, or a fat binary with PTX (-gencode arch=compute_XX,code=compute_XX)", fn);
    size_t n = 0;
    while ((size == 0 || n < size) && p[n])
        n++;
    if (!kptx_looks_like(image, n))
        return fail(CUDA_ERROR_INVALID_IMAGE, "%s: the image is neither PTX (which starts with .version) nor a fat "
                    "binary (magic 0x%x or 0x%x)", fn, CONTAINER_MAGIC, WRAPPER_MAGIC);
    char *buf = malloc(n + 1);
    if (!buf)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: no host memory for %zu bytes of PTX", fn, n);
    memcpy(buf, image, n);
    buf[n] = 0;
    *text = buf;
    *len = n;
    snprintf(name, 96, "PTX");
    return CUDA_SUCCESS;
}
