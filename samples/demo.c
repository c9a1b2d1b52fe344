/*
 * extmem-demo: the software device in one page.
 *
 * Initialises the driver API, prints the device, allocates device memory, fills it with
 * cuMemcpyHtoD, runs a SAXPY kernel (a C function) over a 2D grid in a stream between two
 * events, copies the result back and checks every element. Exits 0 when every element is
 * right, 1 on any failure, printing why (extmem_error_detail) when a call fails.
 */
#include "extmem/extmem.h"

#include <stdio.h>
#include <stdlib.h>

/* An image-sized problem whose height is not a multiple of the block: the kernel must check
 * its bounds, as a CUDA kernel would. */
enum { WIDTH = 1920, HEIGHT = 1080, BLOCK_X = 16, BLOCK_Y = 16 };

struct saxpy_args {
    float a;
    CUdeviceptr x, y;
    unsigned int width, height;
};

/* y = a * x + y, one block of BLOCK_X x BLOCK_Y elements per call. */
static void saxpy(const extmem_block *blk, void *p)
{
    const struct saxpy_args *args = p;
    const float *x = (const float *)(uintptr_t)args->x;
    float *y = (float *)(uintptr_t)args->y;
    EXTMEM_FOR_EACH_THREAD(blk, tx, ty, tz)
    {
        (void)tz;
        unsigned int col = blk->blockIdx.x * blk->blockDim.x + tx;
        unsigned int row = blk->blockIdx.y * blk->blockDim.y + ty;
        if (col < args->width && row < args->height) {
            size_t i = (size_t)row * args->width + col;
            y[i] = args->a * x[i] + y[i];
        }
    }
}

static int failed(const char *call, CUresult r)
{
    const char *name = NULL;
    cuGetErrorName(r, &name);
    fprintf(stderr, "extmem-demo: %s failed: %s (%d)\n  why: %s\n", call, name ? name : "unknown error", (int)r,
            extmem_error_detail());
    return 1;
}

#define CHECK(call)                                                                                              \
    do {                                                                                                         \
        CUresult check_r_ = (call);                                                                              \
        if (check_r_ != CUDA_SUCCESS) {                                                                          \
            status = failed(#call, check_r_);                                                                    \
            goto done;                                                                                           \
        }                                                                                                        \
    } while (0)

int main(void)
{
    int status = 1;
    CUcontext ctx = NULL;
    CUstream stream = NULL;
    CUevent start = NULL, stop = NULL;
    CUdeviceptr d_x = 0, d_y = 0;
    const size_t count = (size_t)WIDTH * HEIGHT;
    const size_t bytes = count * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
    if (!x || !y || !out) {
        fprintf(stderr, "extmem-demo: out of host memory\n");
        goto done;
    }

    CUdevice dev;
    char name[128];
    int sms, warp;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceGetName(name, (int)sizeof(name), dev));
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CHECK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    printf("extmem %s: device 0 is \"%s\" (%d multiprocessors = worker threads, warp size %d)\n", extmem_version(),
           name, sms, warp);

    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));

    /* Whole numbers below 2^24, so a * x + y is exact in float and the check can be exact. */
    for (size_t i = 0; i < count; ++i) {
        x[i] = (float)(i % 1024);
        y[i] = (float)(2 * (i % 512));
    }
    CHECK(cuMemAlloc(&d_x, bytes));
    CHECK(cuMemAlloc(&d_y, bytes));
    CHECK(cuMemcpyHtoD(d_x, x, bytes));
    CHECK(cuMemcpyHtoD(d_y, y, bytes));
    printf("allocated 2 x %zu bytes of device memory (%u x %u floats each) and filled them with cuMemcpyHtoD\n",
           bytes, (unsigned)WIDTH, (unsigned)HEIGHT);

    const struct saxpy_args args = {2.0f, d_x, d_y, WIDTH, HEIGHT};
    const extmem_dim3 block = {BLOCK_X, BLOCK_Y, 1};
    const extmem_dim3 grid = {(WIDTH + BLOCK_X - 1) / BLOCK_X, (HEIGHT + BLOCK_Y - 1) / BLOCK_Y, 1};
    CHECK(cuEventRecord(start, stream));
    CHECK(extmem_launch_kernel(saxpy, grid, block, &args, sizeof(args), stream));
    CHECK(cuEventRecord(stop, stream));
    CHECK(cuEventSynchronize(stop));
    float ms = 0;
    CHECK(cuEventElapsedTime(&ms, start, stop));
    printf("launched saxpy (y = %.1f * x + y) over a %u x %u grid of %u x %u blocks (%u blocks) in a stream: %.3f ms "
           "between the events, %.2f GB/s of x and y traffic\n",
           (double)args.a, grid.x, grid.y, block.x, block.y, grid.x * grid.y, (double)ms,
           ms > 0 ? 3.0 * (double)bytes / ((double)ms * 1e6) : 0.0);

    CHECK(cuMemcpyDtoH(out, d_y, bytes));
    size_t wrong = 0, first_wrong = 0;
    for (size_t i = 0; i < count; ++i) {
        if (out[i] != 2.0f * x[i] + y[i] && wrong++ == 0)
            first_wrong = i;
    }
    if (wrong) {
        printf("verification FAILED: %zu of %zu elements are wrong; the first is [%zu] = %g, expected %g\n", wrong,
               count, first_wrong, (double)out[first_wrong], (double)(2.0f * x[first_wrong] + y[first_wrong]));
        status = 1;
        goto done;
    }
    printf("copied the result back with cuMemcpyDtoH and verified all %zu elements: PASSED\n", count);
    status = 0;

done:
    /* Teardown failures after a success still fail the demo. */
    for (int i = 0; i < 2; ++i) {
        CUdeviceptr d = i ? d_y : d_x;
        CUresult r = d ? cuMemFree(d) : CUDA_SUCCESS;
        if (r != CUDA_SUCCESS)
            status = failed("cuMemFree", r);
    }
    if (start)
        cuEventDestroy(start);
    if (stop)
        cuEventDestroy(stop);
    if (stream)
        cuStreamDestroy(stream);
    if (ctx)
        cuCtxDestroy(ctx);
    free(x);
    free(y);
    free(out);
    return status;
}
