/*
 * managed_probe.c - NVIDIA's driver answers for managed memory (range attributes after advice
 * and prefetches, stream association, the batch prefetches and discards), the stream memory
 * operations and the logs API: the family the surface probe's managed cases could not reach
 * (its context was broken by then).
 * Each line: the call as written, then the driver's code and what it wrote.
 * Built against NVIDIA's cuda.h: gcc -std=gnu11 managed_probe.c -I/usr/local/cuda/include -lcuda
 * Cases where the driver crashed are left out: a destroyed stream given to a prefetch, an
 * attach, a batch or a write; cuStreamAttachMemAsync with flags 0; cuStreamBatchMemOp with a
 * NULL paramArray; a second cuLogsUnregisterCallback of the same handle.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    if (cuGetErrorName(r, &n))
        return "(unnamed)";
    return n;
}
#define P(call) printf("%-78s -> %s\n", #call, rn(call))
#define PV(call, fmt, ...) do { CUresult r_ = (call); printf("%-78s -> %s " fmt "\n", #call, rn(r_), __VA_ARGS__); } while (0)

static void attrs(const char *what, CUdeviceptr p, size_t n)
{
    int v[8];
    for (int a = 1; a <= 8; ++a) {
        int out[3] = {99, 99, 99};
        size_t sz = a == CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY ? sizeof out : 4;
        CUresult r = cuMemRangeGetAttribute(out, sz, (CUmem_range_attribute)a, p, n);
        if (a == CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY)
            printf("  %s attr %d -> %s {%d,%d,%d}\n", what, a, rn(r), out[0], out[1], out[2]);
        else
            v[a - 1] = out[0], printf("  %s attr %d -> %s %d\n", what, a, rn(r), out[0]);
    }
    (void)v;
}

static void CUDA_CB logcb(void *data, CUlogLevel level, char *msg, size_t len)
{
    (void)data;
    printf("  callback level=%d len=%zu strlen=%zu msg=[%s]\n", (int)level, len, strlen(msg), msg);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUdevice dev = 0;
    CUcontext ctx = NULL;
    P(cuInit(0));
    P(cuCtxCreate(&ctx, NULL, 0, dev));
    long pg = sysconf(_SC_PAGESIZE);
    printf("page %ld\n", pg);
    int av = -1;
    for (int a = 83; a <= 101; ++a) {
        cuDeviceGetAttribute(&av, (CUdevice_attribute)a, dev);
        printf("A %d %d\n", a, av);
    }

    /* ---- allocation ---- */
    CUdeviceptr m = 0, m2 = 0, d = 0, bad = 0;
    P(cuMemAllocManaged(&bad, 0, CU_MEM_ATTACH_GLOBAL));
    P(cuMemAllocManaged(&bad, 64, 0));
    P(cuMemAllocManaged(&bad, 64, CU_MEM_ATTACH_SINGLE));
    P(cuMemAllocManaged(&bad, 64, 3));
    P(cuMemAllocManaged(NULL, 64, CU_MEM_ATTACH_GLOBAL));
    P(cuMemAllocManaged(&m, 4 * pg, CU_MEM_ATTACH_GLOBAL));
    P(cuMemAllocManaged(&m2, pg, CU_MEM_ATTACH_HOST));
    P(cuMemAlloc(&d, 4 * pg));
    printf("  m2 - m = %lld\n", (long long)(m2 - m));
    unsigned int ism = 9;
    PV(cuPointerGetAttribute(&ism, CU_POINTER_ATTRIBUTE_IS_MANAGED, m), "%u", ism);
    unsigned int mt = 9;
    PV(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, m), "%u", mt);
    void *hp = NULL;
    PV(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, m + 8), "%s", hp == (void *)(m + 8) ? "same" : "other");
    attrs("fresh", m, 4 * pg);

    /* ---- advice ---- */
    CUmemLocation dl = {CU_MEM_LOCATION_TYPE_DEVICE, 0}, hl = {CU_MEM_LOCATION_TYPE_HOST, 0};
    CUmemLocation d1 = {CU_MEM_LOCATION_TYPE_DEVICE, 1}, numa0 = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 0};
    CUmemLocation numa5 = {CU_MEM_LOCATION_TYPE_HOST_NUMA, 5}, numacur = {CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 77};
    CUmemLocation inv = {CU_MEM_LOCATION_TYPE_INVALID, 0}, t9 = {(CUmemLocationType)9, 0};
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_READ_MOSTLY, dl));
    attrs("rm page0 [0,1)", m, pg);
    attrs("rm page0 [0,2)", m, 2 * pg);
    P(cuMemAdvise(m + 2 * pg - 1, 2, CU_MEM_ADVISE_SET_READ_MOSTLY, hl));
    attrs("rm 1B of p1 and p2 -> [0,3)", m, 3 * pg);
    P(cuMemAdvise(m, 4 * pg, CU_MEM_ADVISE_UNSET_READ_MOSTLY, hl));
    P(cuMemAdvise(m, 2 * pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dl));
    P(cuMemAdvise(m + 2 * pg, 2 * pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, hl));
    attrs("pref dev [0,2)", m, 2 * pg);
    attrs("pref host [2,4)", m + 2 * pg, 2 * pg);
    attrs("pref mixed [0,4)", m, 4 * pg);
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, numa0));
    attrs("pref numa0 [0,1)", m, pg);
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, numacur));
    attrs("pref numacur [0,1)", m, pg);
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, numa5));
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, d1));
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, inv));
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, t9));
    P(cuMemAdvise(m, 4 * pg, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, t9));
    P(cuMemAdvise(m, 4 * pg, CU_MEM_ADVISE_SET_ACCESSED_BY, dl));
    P(cuMemAdvise(m, 2 * pg, CU_MEM_ADVISE_SET_ACCESSED_BY, hl));
    attrs("accby dev all, host [0,2): [0,2)", m, 2 * pg);
    attrs("accby [0,4)", m, 4 * pg);
    int one = 99;
    PV(cuMemRangeGetAttribute(&one, 4, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, pg), "%d", one);
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_ACCESSED_BY, numa0));
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_ACCESSED_BY, d1));
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_UNSET_ACCESSED_BY, d1));
    P(cuMemAdvise(m, 4 * pg, CU_MEM_ADVISE_UNSET_ACCESSED_BY, dl));
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_READ_MOSTLY, d1));
    P(cuMemAdvise(m, pg, CU_MEM_ADVISE_SET_READ_MOSTLY, t9));
    P(cuMemAdvise(m, pg, (CUmem_advise)0, hl));
    P(cuMemAdvise(m, pg, (CUmem_advise)7, hl));
    P(cuMemAdvise(m, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, hl));
    P(cuMemAdvise(0, pg, CU_MEM_ADVISE_SET_READ_MOSTLY, hl));
    P(cuMemAdvise(m, 4 * pg + 1, CU_MEM_ADVISE_SET_READ_MOSTLY, hl));
    P(cuMemAdvise(m, 8 * pg, CU_MEM_ADVISE_SET_READ_MOSTLY, hl));
    P(cuMemAdvise(d, pg, CU_MEM_ADVISE_SET_READ_MOSTLY, hl));
    char *heap = aligned_alloc(pg, 4 * pg);
    P(cuMemAdvise((CUdeviceptr)heap, pg, CU_MEM_ADVISE_SET_READ_MOSTLY, hl));
    void *hostmem = NULL;
    P(cuMemAllocHost(&hostmem, pg));
    P(cuMemAdvise((CUdeviceptr)hostmem, pg, CU_MEM_ADVISE_SET_READ_MOSTLY, hl));

    /* ---- prefetch ---- */
    CUstream st = NULL, dead = NULL;
    P(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
    P(cuStreamCreate(&dead, 0));
    P(cuStreamDestroy(dead));
    P(cuMemPrefetchAsync(m, 4 * pg, dl, 0, st));
    attrs("pf dev [0,4)", m, 4 * pg);
    P(cuMemPrefetchAsync(m + 3 * pg, pg, hl, 0, st));
    attrs("pf host [3,4)", m + 3 * pg, pg);
    attrs("pf mixed [0,4)", m, 4 * pg);
    P(cuMemPrefetchAsync(m, pg, numa0, 0, st));
    attrs("pf numa0 [0,1)", m, pg);
    P(cuMemPrefetchAsync(m, pg, numacur, 0, st));
    attrs("pf numacur [0,1)", m, pg);
    P(cuMemPrefetchAsync(m, pg, numa5, 0, st));
    P(cuMemPrefetchAsync(m, pg, d1, 0, st));
    P(cuMemPrefetchAsync(m, pg, inv, 0, st));
    P(cuMemPrefetchAsync(m, pg, hl, 1, st));
    P(cuMemPrefetchAsync(m, 0, hl, 0, st));
    P(cuMemPrefetchAsync(m, 8 * pg, hl, 0, st));
    P(cuMemPrefetchAsync(d, pg, hl, 0, st));
    P(cuMemPrefetchAsync((CUdeviceptr)heap, pg, hl, 0, st));
    P(cuMemPrefetchAsync(m, pg, hl, 0, NULL));
    P(cuStreamSynchronize(st));

    /* ---- range attributes: arguments ---- */
    int v = 99, two[2];
    P(cuMemRangeGetAttribute(NULL, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, pg));
    P(cuMemRangeGetAttribute(&v, 3, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, pg));
    P(cuMemRangeGetAttribute(&v, 8, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, pg));
    P(cuMemRangeGetAttribute(two, 8, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, pg));
    P(cuMemRangeGetAttribute(two, 0, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, pg));
    P(cuMemRangeGetAttribute(two, 6, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, pg));
    P(cuMemRangeGetAttribute(&v, 4, (CUmem_range_attribute)0, m, pg));
    P(cuMemRangeGetAttribute(&v, 4, (CUmem_range_attribute)9, m, pg));
    P(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0));
    P(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, 0, pg));
    P(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + pg, 4 * pg));
    P(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, d, pg));
    P(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, (CUdeviceptr)heap, pg));
    P(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, (CUdeviceptr)hostmem, pg));
    P(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 6 * pg));
    void *data[2] = {&v, NULL};
    size_t sizes[2] = {4, 4};
    CUmem_range_attribute at2[2] = {CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION};
    P(cuMemRangeGetAttributes(data, sizes, at2, 2, m, pg));
    P(cuMemRangeGetAttributes(data, sizes, at2, 0, m, pg));
    P(cuMemRangeGetAttributes(NULL, sizes, at2, 1, m, pg));
    P(cuMemRangeGetAttributes(data, NULL, at2, 1, m, pg));
    P(cuMemRangeGetAttributes(data, sizes, NULL, 1, m, pg));
    v = 55;
    sizes[1] = 3;
    data[1] = two;
    PV(cuMemRangeGetAttributes(data, sizes, at2, 2, m, pg), "first written: %d", v);

    /* ---- stream association ---- */
    P(cuStreamAttachMemAsync(st, m, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, m, 4 * pg, CU_MEM_ATTACH_HOST));
    P(cuStreamAttachMemAsync(st, m, pg, CU_MEM_ATTACH_GLOBAL));
    P(cuStreamAttachMemAsync(st, m + pg, 0, CU_MEM_ATTACH_GLOBAL));
    P(cuStreamAttachMemAsync(st, m, 0, 7));
    P(cuStreamAttachMemAsync(st, m, 0, 3));
    P(cuStreamAttachMemAsync(NULL, m, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(NULL, m, 0, CU_MEM_ATTACH_GLOBAL));
    P(cuStreamAttachMemAsync(CU_STREAM_PER_THREAD, m, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, d, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, (CUdeviceptr)heap, pg, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, 0, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamSynchronize(st));

    /* ---- batches ---- */
    CUdeviceptr ptrs[3] = {m, m + pg, m2};
    size_t bs[3] = {pg, pg, pg};
    CUmemLocation locs[2] = {dl, hl};
    size_t idx[2] = {0, 2};
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx, 2, 0, st));
    attrs("batch [0,2)", m, 2 * pg);
    attrs("batch m2", m2, pg);
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx, 2, 0, NULL));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx, 2, 0, CU_STREAM_LEGACY));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx, 2, 0, CU_STREAM_PER_THREAD));
    P(cuMemPrefetchBatchAsync(NULL, bs, 3, locs, idx, 2, 0, st));
    P(cuMemPrefetchBatchAsync(ptrs, NULL, 3, locs, idx, 2, 0, st));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 0, locs, idx, 2, 0, st));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx, 2, 1, st));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, NULL, idx, 2, 0, st));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, NULL, 2, 0, st));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx, 0, 0, st));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 1, locs, idx, 2, 0, st));
    size_t idx1[2] = {1, 2}, idx00[2] = {0, 0}, idx03[2] = {0, 3};
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx1, 2, 0, st));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx00, 2, 0, st));
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, locs, idx03, 2, 0, st));
    CUmemLocation badl[2] = {dl, d1};
    P(cuMemPrefetchBatchAsync(ptrs, bs, 3, badl, idx, 2, 0, st));
    CUdeviceptr mixed[2] = {m, d};
    P(cuMemPrefetchBatchAsync(mixed, bs, 2, locs, idx, 1, 0, st));
    P(cuMemDiscardBatchAsync(ptrs, bs, 3, 0, st));
    P(cuMemDiscardBatchAsync(ptrs, bs, 3, 0, NULL));
    P(cuMemDiscardBatchAsync(ptrs, bs, 0, 0, st));
    P(cuMemDiscardBatchAsync(ptrs, bs, 3, 1, st));
    P(cuMemDiscardBatchAsync(mixed, bs, 2, 0, st));
    P(cuMemDiscardAndPrefetchBatchAsync(ptrs, bs, 3, locs, idx, 2, 0, st));
    attrs("after discard+prefetch [0,2)", m, 2 * pg);
    P(cuStreamSynchronize(st));

    /* ---- stream memory operations ---- */
    P(cuMemsetD8(d, 0, 4 * pg));
    P(cuStreamWriteValue32(st, d, 5, 0));
    P(cuStreamWriteValue64(st, d + 8, 6, 0));
    P(cuStreamWaitValue32(st, d, 5, CU_STREAM_WAIT_VALUE_EQ));
    P(cuStreamSynchronize(st));
    P(cuStreamWriteValue32(st, d + 2, 5, 0));
    P(cuStreamWriteValue64(st, d + 4, 5, 0));
    P(cuStreamWaitValue32(st, d + 2, 5, 0));
    P(cuStreamWriteValue32(st, 0, 5, 0));
    P(cuStreamWriteValue32(st, d, 5, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
    P(cuStreamWriteValue32(st, d, 5, 2));
    P(cuStreamWaitValue32(st, d, 5, 4));
    P(cuStreamWaitValue32(st, d, 5, CU_STREAM_WAIT_VALUE_FLUSH));
    P(cuStreamWaitValue32(st, d, 5, CU_STREAM_WAIT_VALUE_NOR));
    P(cuStreamSynchronize(st));
    P(cuStreamWaitValue32(st, m, 0, CU_STREAM_WAIT_VALUE_GEQ));
    P(cuStreamWriteValue32(st, m, 0, 0));
    P(cuStreamWaitValue64(st, m, 0, CU_STREAM_WAIT_VALUE_GEQ));
    P(cuStreamSynchronize(st));
    P(cuStreamWriteValue32(st, (CUdeviceptr)heap, 1, 0));
    P(cuStreamWaitValue32(st, (CUdeviceptr)heap, 0, 0));
    P(cuStreamWriteValue32(st, (CUdeviceptr)hostmem, 1, 0));
    P(cuStreamSynchronize(st));
    P(cuStreamWriteValue32(st, d + 4 * pg + 1024 * 1024 * 64, 1, 0));
    CUstreamBatchMemOpParams ops[256];
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < 256; ++i) {
        ops[i].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
        ops[i].writeValue.address = d + 16;
        ops[i].writeValue.value = 1;
    }
    P(cuStreamBatchMemOp(st, 256, ops, 0));
    P(cuStreamBatchMemOp(st, 255, ops, 0));
    P(cuStreamBatchMemOp(st, 0, ops, 0));
    P(cuStreamBatchMemOp(st, 1, ops, 1));
    ops[1].operation = (CUstreamBatchMemOpType)99;
    P(cuStreamBatchMemOp(st, 2, ops, 0));
    ops[1].flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
    ops[1].flushRemoteWrites.flags = 0;
    P(cuStreamBatchMemOp(st, 2, ops, 0));
    ops[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
    ops[1].memoryBarrier.flags = 0;
    P(cuStreamBatchMemOp(st, 2, ops, 0));
    ops[1].memoryBarrier.flags = 2;
    P(cuStreamBatchMemOp(st, 2, ops, 0));
    P(cuStreamSynchronize(st));
    /* The forms before 11.7 through cuGetProcAddress. */
    void *fn = NULL;
    CUdriverProcAddressQueryResult q;
    PV(cuGetProcAddress("cuStreamWriteValue32", &fn, 8000, CU_GET_PROC_ADDRESS_DEFAULT, &q), "%s", fn ? "set" : "NULL");
    if (fn)
        PV(((CUresult(*)(CUstream, CUdeviceptr, cuuint32_t, unsigned))fn)(st, d, 1, 0), "%s", "v1 write");
    PV(cuGetProcAddress("cuStreamBatchMemOp", &fn, 8000, CU_GET_PROC_ADDRESS_DEFAULT, &q), "%s", fn ? "set" : "NULL");
    ops[1].memoryBarrier.flags = 0;
    if (fn)
        PV(((CUresult(*)(CUstream, unsigned, CUstreamBatchMemOpParams *, unsigned))fn)(st, 2, ops, 0), "%s", "v1 barrier");
    PV(cuGetProcAddress("cuMemAdvise", &fn, 8000, CU_GET_PROC_ADDRESS_DEFAULT, &q), "%s", fn ? "set" : "NULL");
    if (fn) {
        PV(((CUresult(*)(CUdeviceptr, size_t, CUmem_advise, CUdevice))fn)(m, pg, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, -1), "%s", "v1 advise cpu");
        attrs("v1 pref cpu", m, pg);
        PV(((CUresult(*)(CUdeviceptr, size_t, CUmem_advise, CUdevice))fn)(m, pg, CU_MEM_ADVISE_SET_ACCESSED_BY, 1), "%s", "v1 accby dev1");
    }
    PV(cuGetProcAddress("cuMemPrefetchAsync", &fn, 8000, CU_GET_PROC_ADDRESS_DEFAULT, &q), "%s", fn ? "set" : "NULL");
    if (fn) {
        PV(((CUresult(*)(CUdeviceptr, size_t, CUdevice, CUstream))fn)(m, pg, -1, st), "%s", "v1 prefetch cpu");
        PV(((CUresult(*)(CUdeviceptr, size_t, CUdevice, CUstream))fn)(m, pg, 1, st), "%s", "v1 prefetch dev1");
    }
    P(cuStreamSynchronize(st));

    /* ---- logs ---- */
    CUlogsCallbackHandle lh = NULL, lh2 = NULL;
    CUlogIterator it = 0, it0 = 0;
    char buf[4096];
    size_t sz;
    PV(cuLogsCurrent(&it0, 0), "it=%u", it0);
    it = it0;
    sz = sizeof buf;
    PV(cuLogsDumpToMemory(&it, buf, &sz, 0), "size=%zu it=%u", sz, it);
    P(cuLogsRegisterCallback(logcb, NULL, &lh));
    P(cuLogsRegisterCallback(logcb, NULL, NULL));
    P(cuMemAlloc(NULL, 16));
    P(cuDeviceGetAttribute(&av, (CUdevice_attribute)0, 0));
    PV(cuLogsCurrent(&it, 0), "it=%u", it);
    it = it0;
    sz = sizeof buf;
    memset(buf, 'Z', sizeof buf);
    PV(cuLogsDumpToMemory(&it, buf, &sz, 0), "size=%zu it=%u strlen=%zu", sz, it, strlen(buf));
    printf("  dump=[%s]\n", buf);
    sz = sizeof buf;
    PV(cuLogsDumpToMemory(&it, buf, &sz, 0), "size=%zu it=%u (again)", sz, it);
    it = it0;
    sz = 20;
    PV(cuLogsDumpToMemory(&it, buf, &sz, 0), "size=%zu it=%u small", sz, it);
    it = it0;
    sz = 120;
    PV(cuLogsDumpToMemory(&it, buf, &sz, 0), "size=%zu it=%u 120", sz, it);
    printf("  dump120=[%s]\n", buf);
    sz = sizeof buf;
    PV(cuLogsDumpToMemory(NULL, buf, &sz, 0), "size=%zu all", sz);
    P(cuLogsDumpToMemory(&it, NULL, &sz, 0));
    P(cuLogsDumpToMemory(&it, buf, NULL, 0));
    sz = sizeof buf;
    P(cuLogsDumpToMemory(&it, buf, &sz, 1));
    P(cuLogsCurrent(NULL, 0));
    P(cuLogsCurrent(&it, 1));
    P(cuLogsUnregisterCallback(lh));
    P(cuLogsUnregisterCallback(NULL));
    (void)lh2;
    P(cuMemAlloc(NULL, 16));
    const char *path = "/tmp/managed_probe_log.txt";
    unlink(path);
    it = it0;
    P(cuLogsDumpToFile(&it, path, 0));
    P(cuLogsDumpToFile(&it, path, 0));
    it = it0;
    P(cuLogsDumpToFile(&it, path, 0));
    FILE *f = fopen(path, "r");
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
        printf("  file(%zu)=[%s]\n", n, buf);
    }
    P(cuLogsDumpToFile(&it, NULL, 0));
    P(cuLogsDumpToFile(&it, "/nonexistent/x/y", 0));
    P(cuLogsDumpToFile(&it, path, 1));
    /* Many failures: the buffer's bound and the truncation note. */
    for (int i = 0; i < 2000; ++i)
        cuMemAlloc(NULL, 16);
    static char big[65536];
    it = it0;
    sz = sizeof big;
    PV(cuLogsDumpToMemory(&it, big, &sz, 0), "size=%zu it=%u", sz, it);
    printf("  head=[%.300s]\n", big);
    P(cuCtxDestroy(ctx));
    return 0;
}
