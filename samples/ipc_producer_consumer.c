/*
 * extmem-sample-ipc: a producer and a consumer process sharing a buffer and an event through
 * CUDA IPC handles.
 *
 * The producer allocates a frame buffer and an interprocess event, starts the consumer (this
 * program again, "consumer" role) and sends it both handles through a pipe. For each frame it
 * launches a kernel that fills the buffer and records the event; the consumer waits for the
 * event in its own stream, checks the frame, and answers through a pipe, so the producer does
 * not overwrite a frame before it has been read.
 */
#define _POSIX_C_SOURCE 200809L
#include <extmem/extmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FRAMES 8
#define WORDS (1u << 18) /* a 1 MiB frame */

#define CHECK(call)                                                                                \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            fprintf(stderr, "%s failed: %s\n", #call, extmem_error_detail());                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

struct fill_args {
    unsigned int *frame;
    unsigned int value;
};

static void fill(const extmem_block *b, void *p)
{
    struct fill_args *a = p;
    EXTMEM_FOR_EACH_THREAD(b, tx, ty, tz)
    {
        (void)ty;
        (void)tz;
        a->frame[b->blockIdx.x * b->blockDim.x + tx] = a->value;
    }
}

static void hex_out(FILE *f, const void *data, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        fprintf(f, "%02x", ((const unsigned char *)data)[i]);
    fputc('\n', f);
}

static void hex_in(FILE *f, void *data, size_t n)
{
    char line[2 * 64 + 2];
    if (!fgets(line, sizeof(line), f) || strlen(line) < 2 * n)
        exit(2);
    for (size_t i = 0; i < n; ++i) {
        unsigned int b;
        if (sscanf(line + 2 * i, "%2x", &b) != 1)
            exit(2);
        ((unsigned char *)data)[i] = (unsigned char)b;
    }
}

static int consumer(void)
{
    CUcontext ctx;
    CUipcMemHandle mh;
    CUipcEventHandle eh;
    CHECK(cuInit(0));
    CHECK(cuCtxCreate(&ctx, NULL, 0, 0));
    hex_in(stdin, &mh, sizeof(mh));
    hex_in(stdin, &eh, sizeof(eh));
    CUdeviceptr frame;
    CUevent ready;
    CUstream s;
    CHECK(cuIpcOpenMemHandle(&frame, mh, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    CHECK(cuIpcOpenEventHandle(&ready, eh));
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    unsigned int *copy = malloc(WORDS * sizeof(unsigned int));
    for (unsigned int f = 1; f <= FRAMES; ++f) {
        char go[16];
        if (!fgets(go, sizeof(go), stdin)) /* the producer recorded frame f */
            return 3;
        CHECK(cuStreamWaitEvent(s, ready, 0));
        CHECK(cuMemcpyDtoHAsync(copy, frame, WORDS * sizeof(unsigned int), s));
        CHECK(cuStreamSynchronize(s));
        unsigned int bad = 0;
        for (unsigned int i = 0; i < WORDS; ++i)
            bad += copy[i] != f;
        fprintf(stderr, "consumer: frame %u: %u words, %u wrong\n", f, WORDS, bad);
        printf("%s\n", bad ? "bad" : "ok");
        fflush(stdout);
    }
    free(copy);
    CHECK(cuStreamDestroy(s));
    CHECK(cuEventDestroy(ready));
    CHECK(cuIpcCloseMemHandle(frame));
    CHECK(cuCtxDestroy(ctx));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "consumer") == 0)
        return consumer();

    CUcontext ctx;
    CUdeviceptr frame;
    CUevent ready;
    CUstream s;
    CHECK(cuInit(0));
    CHECK(cuCtxCreate(&ctx, NULL, 0, 0));
    CHECK(cuMemAlloc(&frame, WORDS * sizeof(unsigned int)));
    CHECK(cuEventCreate(&ready, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    CHECK(cuStreamCreate(&s, 0));
    CUipcMemHandle mh;
    CUipcEventHandle eh;
    CHECK(cuIpcGetMemHandle(&mh, frame));
    CHECK(cuIpcGetEventHandle(&eh, ready));

    int to_consumer[2], from_consumer[2];
    if (pipe(to_consumer) || pipe(from_consumer))
        return 1;
    pid_t pid = fork();
    if (pid == 0) { /* exec: the consumer is a process of its own, not a copy of this one */
        dup2(to_consumer[0], 0);
        dup2(from_consumer[1], 1);
        close(to_consumer[1]);
        close(from_consumer[0]);
        execl("/proc/self/exe", argv[0], "consumer", (char *)NULL);
        _exit(127);
    }
    close(to_consumer[0]);
    close(from_consumer[1]);
    FILE *out = fdopen(to_consumer[1], "w"), *in = fdopen(from_consumer[0], "r");
    printf("producer: pid %d, consumer pid %d; a %u-byte frame and an event shared by IPC handles\n", getpid(),
           (int)pid, (unsigned)(WORDS * sizeof(unsigned int)));
    hex_out(out, &mh, sizeof(mh));
    hex_out(out, &eh, sizeof(eh));
    fflush(out);
    int failures = 0;
    for (unsigned int f = 1; f <= FRAMES; ++f) {
        struct fill_args args = {(unsigned int *)frame, f};
        extmem_dim3 grid = {WORDS / 256, 1, 1}, block = {256, 1, 1};
        CHECK(extmem_launch_kernel(fill, grid, block, &args, sizeof(args), s));
        CHECK(cuEventRecord(ready, s));
        fprintf(out, "frame %u\n", f);
        fflush(out);
        char answer[16] = "";
        if (!fgets(answer, sizeof(answer), in))
            return 1;
        failures += strncmp(answer, "ok", 2) != 0;
        printf("producer: frame %u consumed: %s", f, answer);
    }
    fclose(out);
    int status = 0;
    waitpid(pid, &status, 0);
    fclose(in);
    CHECK(cuStreamDestroy(s));
    CHECK(cuEventDestroy(ready));
    CHECK(cuMemFree(frame));
    CHECK(cuCtxDestroy(ctx));
    int ok = failures == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok)
        printf("producer: %d frame(s) wrong; the consumer ended with status 0x%x\n", failures, status);
    printf("producer: %d frames shared, %s\n", FRAMES, ok ? "all verified: PASSED" : "FAILED");
    return ok ? 0 : 1;
}
