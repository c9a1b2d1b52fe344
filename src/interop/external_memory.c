/*
 * External memory: cuImportExternalMemory, cuExternalMemoryGetMappedBuffer and
 * cuDestroyExternalMemory (../shared/seeds/004_899ba516d5a0237d.txt and
 * 001_a59e0c8da9f21121.txt; BEHAVIOR.md's external memory table; docs/external-memory.md).
 *
 * A mapped buffer is a shared mapping of the object's own pages: no copy. It lives on its
 * own, so destroying the external memory leaves live buffers usable, as on the driver. A mapped
 * mipmapped array (cuExternalMemoryGetMappedMipmappedArray) is the same: its levels are the
 * object's pages, laid out as the exporter lays the image out (external_image.c).
 */
#include "interop/interop.h"
#include "interop/image_layout.h"
#include "image/image.h"
#include "memory/memory.h"
#include "d3d/d3d.h"

#include <stdio.h>
#include <stdlib.h>

struct ext_memory {
    struct obj base;
    struct ext_source source; /* Direct3D: memory at an address of this process (owner set) */
    os_handle handle;   /* extmem's own: a duplicate of the caller's fd or NT handle, or what
                         * extmem opened by name or token; never the caller's number */
    os_external object; /* what it is and where its bytes are */
    unsigned long long size; /* the size the application imported */
    CUexternalMemoryHandleType type;
    bool dedicated; /* imported with CUDA_EXTERNAL_MEMORY_DEDICATED: the memory is one image */
};

static void ext_free(struct obj *o)
{
    struct ext_memory *e = (struct ext_memory *)o;
    if (e->source.owner)
        e->source.release(e->source.owner);
    else
        os_handle_close(e->handle);
    free(e);
}

static const char *type_name(CUexternalMemoryHandleType t)
{
    static const char *const names[] = {"", "OPAQUE_FD", "OPAQUE_WIN32", "OPAQUE_WIN32_KMT", "D3D12_HEAP",
                                        "D3D12_RESOURCE", "D3D11_RESOURCE", "D3D11_RESOURCE_KMT", "NVSCIBUF",
                                        "DMABUF_FD"};
    return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

static bool is_kmt(CUexternalMemoryHandleType t)
{
    return t == CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT || t == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT;
}

/* The rules that do not look at the handle, in the driver's order: the descriptor, the
 * type, the size, the flags and reserved fields, the dedicated-flag rule, then whether the
 * platform has the type at all. On every failure the caller's fd stays open. */
static CUresult check_desc(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d)
{
    if (d->type < CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD || d->type > CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: type %d is not a CUexternalMemoryHandleType", fn, (int)d->type);
    if (d->size == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: size is 0: give the size of the memory object", fn);
    if (d->flags & ~(unsigned int)CUDA_EXTERNAL_MEMORY_DEDICATED)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: only CUDA_EXTERNAL_MEMORY_DEDICATED (0x1) is defined",
                    fn, d->flags);
    for (int i = 0; i < 16; ++i)
        if (d->reserved[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: reserved[%d] is %u: it must be 0", fn, i, d->reserved[i]);
    /* The specification: these types describe dedicated allocations and need the flag. */
    bool dedicated = d->flags & CUDA_EXTERNAL_MEMORY_DEDICATED;
    if (!dedicated && (d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE ||
                       d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE ||
                       d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s memory must be imported with CUDA_EXTERNAL_MEMORY_DEDICATED", fn,
                    type_name(d->type));
    switch (d->type) {
    case CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD:
    case CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD:
        if (!OS_HAS_POSIX_FD)
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s handles are POSIX file descriptors: this is the Windows build",
                        fn, type_name(d->type));
        return CUDA_SUCCESS;
    case CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF:
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: NvSciBuf objects exist on NVIDIA's Tegra and DRIVE platforms only",
                    fn);
    default:
        break;
    }
    if (OS_HAS_POSIX_FD)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s handles are Windows handles: this is the Linux build", fn,
                    type_name(d->type));
    /* The specification: KMT handles (OPAQUE_WIN32_KMT, D3D11_RESOURCE_KMT) come without a
     * name; the NT-handle types take "exactly one" of a handle and a name. */
    return ext_handle_check(fn, type_name(d->type), is_kmt(d->type), d->handle.win32.handle, d->handle.win32.name);
}

/* Where the memory object is: *h is the caller's fd or handle, or (*opened) a handle extmem
 * opened by the name or KMT token the caller gave. *label names it in messages. */
static CUresult locate(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, os_handle *h, bool *opened,
                       char *label, size_t label_size)
{
    *opened = false;
    if (d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD || d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD) {
        *h = os_handle_from_int32(d->handle.fd);
        snprintf(label, label_size, "fd %d", d->handle.fd);
        return CUDA_SUCCESS;
    }
    return ext_handle_locate(fn, "memory object", is_kmt(d->type), d->handle.win32.handle, d->handle.win32.name, h,
                             opened, label, label_size);
}

/* An OPAQUE_WIN32 handle or name of no section may be a Direct3D shared resource: what Direct3D
 * 12 and Windows Vulkan drivers export (src/d3d). True when that settled it, *r the result. */
static bool import_d3d_opaque(const char *fn, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d, CUexternalMemory *out,
                              CUresult *r)
{
    if (d->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32)
        return false;
    struct ext_source src;
    CUresult opened = d3d_open_opaque(fn, d, &src);
    if (opened == CUDA_ERROR_NOT_FOUND)
        return false; /* no Direct3D object either: the caller's message stands */
    *r = opened ? opened : ext_import_source(fn, &src, d->size, d->type, out);
    return true;
}

CUresult CUDAAPI cuImportExternalMemory(CUexternalMemory *extMem_out, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *memHandleDesc)
{
    static const char fn[] = "cuImportExternalMemory";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!extMem_out || !memHandleDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !extMem_out ? "extMem_out" : "memHandleDesc");
    const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d = memHandleDesc;
    if ((r = check_desc(fn, d)))
        return r;
    if (d->type >= CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP && d->type <= CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT) {
        /* Direct3D opens its own handle (src/d3d); the caller's stays the caller's. */
        struct ext_source src;
        if ((r = d3d_open_shared(fn, d, &src)))
            return r;
        return ext_import_source(fn, &src, d->size, d->type, extMem_out);
    }
    /* Whose handle it is after a success: the specification transfers an fd to extmem, and the
     * driver closes the caller's number (BEHAVIOR.md, docs/probes/fd_ownership); an NT handle
     * stays the caller's. extmem keeps a duplicate of its own either way, so a caller that
     * closes the number anyway (and reuses it) never closes or touches extmem's descriptor. */
    bool fd = OS_HAS_POSIX_FD, opened; /* opened: extmem opened h by a name or token: its own */
    const char *stays = fd ? "; it stays open and yours" : "; it stays yours";
    os_handle h, own = OS_INVALID_HANDLE;
    char label[128];
    if ((r = locate(fn, d, &h, &opened, label, sizeof(label)))) {
        CUresult located = r;
        return import_d3d_opaque(fn, d, extMem_out, &r) ? r : located;
    }
    if (opened)
        stays = "";
    bool dmabuf = d->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
    os_external object;
    char why[200] = "", text[128];
    int err = os_external_identify(h, dmabuf, &object, why, sizeof(why));
    if (err && !opened && import_d3d_opaque(fn, d, extMem_out, &r))
        return r; /* the handle stays the caller's either way */
    struct ext_memory *e = NULL;
    if (err && why[0])
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s %s%s", fn, label, why, stays);
    else if (err)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s cannot be imported: %s%s", fn, label,
                 os_error_string(err, text, sizeof(text)), stays);
    else if (!(e = calloc(1, sizeof(*e))))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory%s", fn, stays);
    else if (opened)
        own = h;
    else if ((err = os_handle_dup(h, &own)))
        r = fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                 "%s: duplicating %s failed: %s%s", fn, label, os_error_string(err, text, sizeof(text)), stays);
    if (r) {
        if (opened)
            os_handle_close(h);
        free(e);
        return r;
    }
    e->handle = own;
    e->object = object;
    e->size = d->size;
    e->type = d->type;
    e->dedicated = d->flags & CUDA_EXTERNAL_MEMORY_DEDICATED;
    if (!obj_register(&e->base, OBJ_EXTERNAL_MEMORY, ext_free)) {
        ext_free(&e->base); /* closes own; the caller's handle is untouched */
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table%s", fn, stays);
    }
    /* Success: the specification transfers the fd to extmem now, and only now; extmem has its
     * duplicate, so the caller's number is closed, as the driver closes it. */
    if (fd)
        os_handle_close(h);
    log_info("%s: %s (%s, %zu bytes at offset %zu) imported as 0x%llx", fn, label, type_name(d->type),
             object.data_size, object.data_offset, (unsigned long long)e->base.handle);
    *extMem_out = (CUexternalMemory)(uintptr_t)e->base.handle;
    return CUDA_SUCCESS;
}

CUresult ext_import_source(const char *fn, const struct ext_source *src, unsigned long long size,
                           CUexternalMemoryHandleType type, CUexternalMemory *out)
{
    struct ext_memory *e = calloc(1, sizeof(*e));
    if (!e) {
        src->release(src->owner);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    e->source = *src;
    e->handle = OS_INVALID_HANDLE;
    e->object = (os_external){.kind = OS_EXTERNAL_SECTION, .data_offset = 0, .data_size = src->size};
    e->size = size ? size : src->size;
    e->type = type;
    /* These types are dedicated allocations by the specification (cuImportExternalMemory
     * demands the flag; extmem's own import calls imply it). */
    e->dedicated = type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE ||
                   type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE ||
                   type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT;
    if (!obj_register(&e->base, OBJ_EXTERNAL_MEMORY, ext_free)) {
        ext_free(&e->base);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
    }
    log_info("%s: %s memory (%zu bytes at %p) imported as 0x%llx", fn, type_name(type), src->size, src->ptr,
             (unsigned long long)e->base.handle);
    *out = (CUexternalMemory)(uintptr_t)e->base.handle;
    return CUDA_SUCCESS;
}

static CUresult lookup(const char *fn, CUexternalMemory handle, struct ext_memory **out)
{
    if (!handle)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: extMem is NULL", fn);
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_EXTERNAL_MEMORY, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn,
                    obj_status_text(st, OBJ_EXTERNAL_MEMORY, (uint64_t)(uintptr_t)handle));
    *out = (struct ext_memory *)o;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuExternalMemoryGetMappedBuffer(CUdeviceptr *devPtr, CUexternalMemory extMem,
                                                 const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *bufferDesc)
{
    static const char fn[] = "cuExternalMemoryGetMappedBuffer";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct ext_memory *e = NULL;
    const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *b = bufferDesc;
    if (!devPtr || !b) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !devPtr ? "devPtr" : "bufferDesc");
        goto out;
    }
    if ((r = lookup(fn, extMem, &e)))
        goto out;
    /* The specification: flags must be zero. Buffers need no alignment (as on the driver);
     * they must lie inside both the imported size and the object itself. */
    unsigned long long limit = e->size < e->object.data_size ? e->size : e->object.data_size;
    if (b->flags != 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: flags is 0x%x: it must be 0", fn, b->flags);
    for (int i = 0; i < 16 && !r; ++i)
        if (b->reserved[i])
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: reserved[%d] is %u: it must be 0", fn, i, b->reserved[i]);
    if (!r && b->size == 0)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: size is 0", fn);
    if (!r && (b->offset > limit || b->size > limit - b->offset))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: [offset %llu, +%llu) runs past the end of the memory (%llu bytes)", fn,
                 b->offset, b->size, limit);
    if (!r && b->size > SIZE_MAX)
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: %llu bytes do not fit this address space", fn, b->size);
    struct range *range = NULL;
    if (!r && !(range = calloc(1, sizeof(*range))))
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    if (r)
        goto out;
    void *ptr, *base;
    size_t len;
    int err = 0;
    if (e->source.owner) {
        /* Memory of another API has one address: buffers of it may not overlap. */
        ptr = base = (char *)e->source.ptr + b->offset;
        len = 0;
    } else {
        err = os_external_map(e->handle, e->object.data_offset + b->offset, (size_t)b->size, &ptr, &base, &len);
    }
    if (err) {
        free(range);
        char text[128];
        r = fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                 "%s: mapping the memory failed: %s", fn, os_error_string(err, text, sizeof(text)));
        goto out;
    }
    range->base = (uintptr_t)ptr;
    range->size = range->map_size = (size_t)b->size;
    range->unmap_base = (uintptr_t)base;
    range->unmap_len = len;
    range->kind = RANGE_EXTERNAL;
    range->mem.handle = OS_INVALID_HANDLE;
    range->buffer_id = e->base.handle;
    if (e->source.owner) {
        /* The buffer holds the memory's owner as a mapping would: it outlives the import. */
        e->source.retain(e->source.owner);
        range->release = e->source.release;
        range->owner = e->source.owner;
        if (!mem_register_unless_overlapping(ctx, range)) {
            e->source.release(e->source.owner);
            free(range);
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: [offset %llu, +%llu) overlaps a buffer already mapped from this "
                     "%s memory, which has a single address: cuMemFree that buffer first", fn, b->offset, b->size,
                     type_name(e->type));
            goto out;
        }
    } else {
        mem_register(ctx, range);
    }
    *devPtr = (CUdeviceptr)(uintptr_t)ptr;
out:
    if (e)
        obj_release(&e->base);
    ctx_release(ctx);
    return r;
}

/* A descriptor of a Direct3D texture's levels: the texture's own extent, element size and
 * layers, and no more levels than it has (its layout is Direct3D's, the descriptor only names
 * which part of it CUDA sees). */
static CUresult match_texture(const char *fn, const struct ext_texture *t, const CUDA_ARRAY3D_DESCRIPTOR *d,
                              unsigned nlevels, unsigned elem_bytes)
{
    bool layered = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    size_t height = t->one_d ? 0 : t->height;
    size_t depth = t->depth > 1 ? t->depth : t->layers > 1 || layered ? t->layers : 0;
    if (elem_bytes != t->elem_bytes || d->Width != t->width || d->Height != height || d->Depth != depth ||
        (t->depth > 1 && layered) || nlevels > t->levels)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc (%zux%zux%zu%s, %u-byte elements, %u level%s) does not "
                    "describe the Direct3D texture (%zux%zux%zu, %u-byte texels, %u level%s)", fn, d->Width, d->Height,
                    d->Depth, layered ? " layered" : "", elem_bytes, nlevels, nlevels == 1 ? "" : "s", (size_t)t->width,
                    height, depth, t->elem_bytes, t->levels, t->levels == 1 ? "" : "s");
    return CUDA_SUCCESS;
}

/* Which layout the image in e has: what extmem knows of the exporter is the object itself
 * (os_external_identify, ext_source). A Mesa memory fd is lavapipe's (or another Mesa driver with
 * llvmpipe's layout); extmem's own memfds and sections of other programs carry no image
 * layout of their own, and the software device's Vulkan partner is lavapipe on every
 * platform, so they are read with llvmpipe's layout too: a lavapipe image bound to memory
 * lavapipe imported from extmem has exactly that layout. A Direct3D texture is staged in the
 * layout Direct3D gives its copies (src/d3d: GetCopyableFootprints); Direct3D buffers and heaps
 * have no texture layout: refused. */
static CUresult image_layout(const char *fn, const struct ext_memory *e, const CUDA_ARRAY3D_DESCRIPTOR *d,
                             unsigned nlevels, unsigned elem_bytes, struct ext_layout_level *levels, uint64_t *total)
{
    if (e->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: memory imported as DMABUF_FD cannot be mapped as a mipmapped array "
                    "(the specification: not supported); map a buffer", fn);
    if (e->source.owner && !e->source.texture)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: this %s memory is a Direct3D buffer or heap, which has no texture "
                    "layout; map a buffer, or import the texture itself", fn, type_name(e->type));
    if (e->source.owner) {
        const struct ext_texture *t = e->source.texture;
        CUresult r = match_texture(fn, t, d, nlevels, elem_bytes);
        if (r)
            return r;
        *total = 0;
        for (unsigned l = 0; l < nlevels; ++l) {
            levels[l] = t->level[l];
            if (levels[l].offset + levels[l].size > *total)
                *total = levels[l].offset + levels[l].size;
        }
        return CUDA_SUCCESS;
    }
    if (!ext_image_layout_llvmpipe(d, nlevels, elem_bytes, levels, total))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: arrayDesc: the image's size overflows", fn);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuExternalMemoryGetMappedMipmappedArray(CUmipmappedArray *mipmap, CUexternalMemory extMem,
                                                         const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *mipmapDesc)
{
    static const char fn[] = "cuExternalMemoryGetMappedMipmappedArray";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    struct ext_memory *e = NULL;
    const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *m = mipmapDesc;
    unsigned elem_bytes = 0;
    struct ext_layout_level levels[KIMAGE_MAX_LEVELS];
    uint64_t total = 0;
    if (!mipmap || !m) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !mipmap ? "mipmap" : "mipmapDesc");
        goto out;
    }
    if ((r = lookup(fn, extMem, &e)) || (r = ext_image_check(fn, m, &elem_bytes)) ||
        (r = image_layout(fn, e, &m->arrayDesc, m->numLevels, elem_bytes, levels, &total)))
        goto out;
    /* Dedicated memory is one image, which starts at its start: the driver refuses every other
     * offset, even one that leaves room (docs/probes/images/extmem_array). Other memory holds the
     * image where the exporter bound it: lavapipe aligns images to 16 bytes. */
    if (e->dedicated && m->offset != 0) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: offset %llu: memory imported with CUDA_EXTERNAL_MEMORY_DEDICATED is one "
                 "image, which starts at offset 0", fn, m->offset);
        goto out;
    }
    if (m->offset % 16) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: offset %llu is not where an image can start: the exporter aligns images "
                 "to 16 bytes", fn, m->offset);
        goto out;
    }
    /* The image must lie inside both the imported size and the object itself. */
    unsigned long long limit = e->size < e->object.data_size ? e->size : e->object.data_size;
    if (m->offset > limit || total > limit - m->offset) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the image (%llu bytes as the exporter lays %zux%zux%zu out, %u level%s) "
                 "at offset %llu runs past the end of the memory (%llu bytes)", fn, (unsigned long long)total,
                 m->arrayDesc.Width, m->arrayDesc.Height, m->arrayDesc.Depth, m->numLevels,
                 m->numLevels == 1 ? "" : "s", m->offset, limit);
        goto out;
    }
    if (total > SIZE_MAX) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: %llu bytes do not fit this address space", fn,
                 (unsigned long long)total);
        goto out;
    }
    struct ext_image_bytes bytes = {.size = total};
    int err = 0;
    if (e->source.owner) {
        /* The staging copy of a Direct3D texture: one address, held as a mapped buffer holds it. */
        e->source.retain(e->source.owner);
        bytes.ptr = (char *)e->source.ptr + m->offset;
        bytes.owner = e->source.owner;
        bytes.release = e->source.release;
    } else {
        err = os_external_map(e->handle, e->object.data_offset + m->offset, (size_t)total, &bytes.ptr,
                              &bytes.unmap_base, &bytes.unmap_len);
    }
    if (err) {
        char text[128];
        r = fail(os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_OPERATING_SYSTEM,
                 "%s: mapping the memory failed: %s", fn, os_error_string(err, text, sizeof(text)));
        goto out;
    }
    struct image_mipmap *mm;
    if (!(r = ext_image_map(fn, ctx, &m->arrayDesc, m->numLevels, levels, &bytes, &mm))) {
        log_info("%s: %u level%s of %zux%zux%zu (%llu bytes) at offset %llu of 0x%llx as 0x%llx", fn, m->numLevels,
                 m->numLevels == 1 ? "" : "s", m->arrayDesc.Width, m->arrayDesc.Height, m->arrayDesc.Depth,
                 (unsigned long long)total, m->offset, (unsigned long long)e->base.handle,
                 (unsigned long long)mm->obj.handle);
        *mipmap = (CUmipmappedArray)(uintptr_t)mm->obj.handle;
    }
out:
    if (e)
        obj_release(&e->base);
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuDestroyExternalMemory(CUexternalMemory extMem)
{
    static const char fn[] = "cuDestroyExternalMemory";
    REQUIRE_INIT(fn);
    struct ext_memory *e;
    CUresult r = lookup(fn, extMem, &e);
    if (r)
        return r;
    /* Mapped buffers are mappings of their own and stay usable until cuMemFree. */
    obj_unregister(&e->base);
    obj_release(&e->base);
    return CUDA_SUCCESS;
}
