// Temporary probe of NVIDIA's runtime behaviour (not part of the build).
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/wait.h>
#include <thread>
#include <functional>

#define P(expr) do { cudaError_t r_ = (expr); printf("%-70s -> %d %s | last=%d\n", #expr, (int)r_, cudaGetErrorName(r_), (int)cudaPeekAtLastError()); cudaGetLastError(); } while (0)

static const char *g_case = "";
static void forked_unused(const char *what, std::function<void()> fn) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) { fn(); fflush(stdout); _exit(0); }
    int st; waitpid(pid, &st, 0);
    if (WIFSIGNALED(st)) printf("%-70s -> CRASH signal %d\n", what, WTERMSIG(st));
}
static void sleepy(void *) { usleep(300000); }


#define CASE(name, ...) do { if (strcmp(g_case, name) == 0) { (__VA_ARGS__)(); printf("case done\n"); return 0; } } while (0)
int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1) g_case = argv[1];
    if (argc > 1 && strncmp(argv[1], "fresh", 5) == 0) cuInit(0);
    bool risky = argc > 1;
    bool fresh = strncmp(g_case, "fresh", 5) == 0;
    void *d = NULL; if (!fresh) cudaMalloc(&d, 4096);
    void *ph = NULL; if (!fresh) cudaMallocHost(&ph, 4096);
    void *hm = malloc(64);
    char hb[64], hb2[64]; memset(hb, 1, 64);
    CASE("forged memcpyasync", [&]{ P(cudaMemcpyAsync(d, hb, 64, cudaMemcpyHostToDevice, (cudaStream_t)0x1234)); });
    CASE("memcpy past end HtoD", [&]{ static char big[8192]; P(cudaMemcpy(d, big, 8192, cudaMemcpyHostToDevice)); });
    CASE("memcpy past end DtoH", [&]{ static char big[8192]; P(cudaMemcpy(big, d, 8192, cudaMemcpyDeviceToHost)); });
    CASE("memcpy past end Default", [&]{ static char big[8192]; P(cudaMemcpy(big, d, 8192, cudaMemcpyDefault)); });
    CASE("memcpy HtoD src device", [&]{ void *d2; cudaMalloc(&d2, 64); P(cudaMemcpy(d, d2, 64, cudaMemcpyHostToDevice)); });
    CASE("memcpy DtoH dst device", [&]{ void *d2; cudaMalloc(&d2, 64); P(cudaMemcpy(d, d2, 64, cudaMemcpyDeviceToHost)); });
    CASE("memcpy HtoD src pinned dst pinned", [&]{ void *p2; cudaMallocHost(&p2, 64); P(cudaMemcpy(ph, p2, 64, cudaMemcpyHostToDevice)); });
    CASE("memcpy DtoH to pageable from pinned", [&]{ P(cudaMemcpy(hb2, ph, 64, cudaMemcpyDeviceToHost)); });
    CASE("memcpyasync pageable HtoD invalid kind", [&]{ P(cudaMemcpyAsync(hb2, hb, 64, cudaMemcpyHostToDevice, 0)); P(cudaMemcpyAsync(hb2, hb, 64, cudaMemcpyHostToHost, 0)); P(cudaMemcpyAsync(hb2, hb, 0, (cudaMemcpyKind)9, 0)); });
    CASE("memcpy invalid kind null", [&]{ P(cudaMemcpy(NULL, hb, 16, (cudaMemcpyKind)9)); P(cudaMemcpyAsync(d, hb, 16, (cudaMemcpyKind)9, (cudaStream_t)0x1234)); });
    CASE("hostalloc zero bad flags", [&]{ void *h; P(cudaHostAlloc(&h, 0, 8)); P(cudaHostAlloc(NULL, 0, 8)); P(cudaHostAlloc(NULL, 16, 8)); P(cudaHostGetDevicePointer(NULL, NULL, 1)); P(cudaMallocHost(NULL, 0)); });
    CASE("memset device unaligned", [&]{ P(cudaMemset((char*)d + 3, 5, 7)); P(cudaMemset(d, 5, 0)); P(cudaMemset((void*)0x1234, 0, 0)); });
    CASE("fresh memgetinfo", [&]{ size_t f=0,t=0; P(cudaMemGetInfo(&f,&t)); CUcontext c=NULL; cuCtxGetCurrent(&c); printf("ctx=%p\n",(void*)c); });
    CASE("fresh free null", [&]{ P(cudaFree(NULL)); CUcontext c=NULL; cuCtxGetCurrent(&c); printf("ctx=%p\n",(void*)c); P(cudaDeviceReset()); cuCtxGetCurrent(&c); printf("after reset ctx=%p\n",(void*)c); });
    CASE("fresh reset first", [&]{ P(cudaDeviceReset()); CUcontext c=NULL; cuCtxGetCurrent(&c); printf("ctx=%p\n",(void*)c); P(cudaDeviceSynchronize()); });
    CASE("fresh getprops", [&]{ cudaDeviceProp p; P(cudaGetDeviceProperties(&p, 0)); CUcontext c=NULL; cuCtxGetCurrent(&c); printf("ctx=%p\n",(void*)c); int v; P(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0)); cuCtxGetCurrent(&c); printf("ctx=%p\n",(void*)c); });
    CASE("notready last error", [&]{ cudaStream_t s; cudaStreamCreate(&s); cudaLaunchHostFunc(s, sleepy, NULL); P(cudaStreamQuery(s)); cudaEvent_t e; cudaEventCreate(&e); cudaEventRecord(e, s); cudaError_t q = cudaEventQuery(e); printf("eventquery=%d peek=%d\n", q, cudaPeekAtLastError()); float ms; q = cudaEventElapsedTime(&ms, e, e); printf("elapsed notready=%d peek=%d\n", q, cudaPeekAtLastError()); cudaStreamSynchronize(s); });
    CASE("ctx adopt", [&]{ CUcontext own; CUdevice dev0; cuDeviceGet(&dev0, 0); CUctxCreateParams cp = {}; cuCtxCreate(&own, &cp, 0, dev0);
      void *q; P(cudaMalloc(&q, 16)); CUcontext pc = NULL; cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)q); printf("alloc in own ctx: %d\n", pc == own);
      cudaFree(q); cuCtxSetCurrent(NULL); P(cudaMalloc(&q, 16)); CUcontext cur = NULL; cuCtxGetCurrent(&cur); printf("after SetCurrent(NULL): cur==own %d cur=%p\n", cur == own, (void*)cur); cudaFree(q);
      cuCtxSetCurrent(own); P(cudaSetDevice(0)); cuCtxGetCurrent(&cur); printf("SetDevice with own current: cur==own %d\n", cur == own);
      cuCtxDestroy(own); cuCtxGetCurrent(&cur); printf("after destroy own cur=%p\n", (void*)cur); P(cudaMalloc(&q, 16)); cuCtxGetCurrent(&cur); printf("then cur=%p\n", (void*)cur); });
    CASE("fresh ctx adopt", [&]{ CUcontext own; CUdevice dev0; cuDeviceGet(&dev0, 0); CUctxCreateParams cp = {}; cuCtxCreate(&own, &cp, 0, dev0);
      void *q; P(cudaMalloc(&q, 16)); CUcontext pc = NULL; cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)q); printf("alloc in own ctx: %d\n", pc == own);
      cudaFree(q); cuCtxSetCurrent(NULL); P(cudaMalloc(&q, 16)); CUcontext cur = NULL; cuCtxGetCurrent(&cur); printf("after SetCurrent(NULL): cur==own %d cur=%p\n", cur == own, (void*)cur); cudaFree(q);
      cuCtxSetCurrent(own); P(cudaSetDevice(0)); cuCtxGetCurrent(&cur); printf("SetDevice with own current: cur==own %d\n", cur == own);
      cuCtxDestroy(own); cuCtxGetCurrent(&cur); printf("after destroy own cur=%p\n", (void*)cur); P(cudaMalloc(&q, 16)); cuCtxGetCurrent(&cur); printf("then cur=%p\n", (void*)cur); });
    P(cudaMemcpyAsync(d, hb, 64, (cudaMemcpyKind)7, 0));

    printf("== memset\n");
    P(cudaMemset(NULL, 0, 16));
    P(cudaMemset(NULL, 0, 0));
    P(cudaMemset((char*)d + 1, 7, 15));
    P(cudaMemset(d, 0x1ff, 16)); cudaMemcpy(hb2, d, 1, cudaMemcpyDefault); printf("byte=%d\n", (unsigned char)hb2[0]);
    P(cudaMemset(hm, 0, 16));
    P(cudaMemset(hb, 0, 16));
    P(cudaMemset(ph, 0, 16));
    P(cudaMemset(d, 0, 8192));
    CASE("forged memsetasync", [&]{ P(cudaMemsetAsync(d, 0, 16, (cudaStream_t)0x1234)); });
    P(cudaMemsetAsync(NULL, 0, 16, 0));
    size_t fr=0, to=0;
    P(cudaMemGetInfo(NULL, &to)); P(cudaMemGetInfo(&fr, NULL)); P(cudaMemGetInfo(NULL, NULL)); P(cudaMemGetInfo(&fr, &to));

    printf("== streams\n");
    cudaStream_t s = NULL;
    P(cudaStreamCreate(NULL));
    P(cudaStreamCreateWithFlags(NULL, 0));
    P(cudaStreamCreateWithFlags(&s, 2));
    P(cudaStreamCreateWithFlags(&s, 0xff));
    P(cudaStreamCreateWithFlags(&s, 1)); P(cudaStreamDestroy(s));
    P(cudaStreamCreate(&s));
    P(cudaStreamDestroy(NULL));
    P(cudaStreamDestroy(cudaStreamLegacy));
    P(cudaStreamDestroy(cudaStreamPerThread));
    P(cudaStreamSynchronize(NULL)); P(cudaStreamSynchronize(cudaStreamLegacy)); P(cudaStreamSynchronize(cudaStreamPerThread));
    P(cudaStreamQuery(NULL)); P(cudaStreamQuery(s));
    P(cudaLaunchHostFunc(s, NULL, NULL));
    P(cudaLaunchHostFunc(s, sleepy, NULL));
    P(cudaStreamQuery(s)); printf("after NotReady peek=%d\n", cudaPeekAtLastError());
    cudaEvent_t e1 = NULL, e2 = NULL, en = NULL;
    P(cudaEventCreate(&e1)); P(cudaEventRecord(e1, s)); P(cudaEventQuery(e1)); printf("after event NotReady peek=%d\n", cudaPeekAtLastError());
    { float ms; P(cudaEventElapsedTime(&ms, e1, e1)); }
    P(cudaEventSynchronize(e1));
    P(cudaStreamSynchronize(s));
    P(cudaStreamWaitEvent(s, NULL, 0));
    P(cudaStreamWaitEvent(s, e1, 2));
    P(cudaStreamWaitEvent(s, e1, 1));
    P(cudaStreamWaitEvent(s, e1, 0));
    CASE("forged waitevent", [&]{ P(cudaStreamWaitEvent((cudaStream_t)0x1234, e1, 0)); });
    CASE("forged stream sync", [&]{ P(cudaStreamSynchronize((cudaStream_t)0x1234)); });
    CASE("forged stream query", [&]{ P(cudaStreamQuery((cudaStream_t)0x1234)); });
    CASE("forged stream destroy", [&]{ P(cudaStreamDestroy((cudaStream_t)0x1234)); });
    { cudaStream_t s2; cudaStreamCreate(&s2); cudaStreamDestroy(s2);
      CASE("destroyed stream destroy", [&]{ P(cudaStreamDestroy(s2)); });
      CASE("destroyed stream sync", [&]{ P(cudaStreamSynchronize(s2)); });
      CASE("destroyed stream query", [&]{ P(cudaStreamQuery(s2)); });
      CASE("destroyed stream memcpyasync", [&]{ P(cudaMemcpyAsync(d, hb, 4, cudaMemcpyDefault, s2)); });
      CASE("destroyed stream hostfunc", [&]{ P(cudaLaunchHostFunc(s2, sleepy, NULL)); });
    }

    printf("== events\n");
    P(cudaEventCreate(NULL));
    P(cudaEventCreateWithFlags(NULL, 0));
    P(cudaEventCreateWithFlags(&e2, 8));
    P(cudaEventCreateWithFlags(&e2, 0xff));
    P(cudaEventCreateWithFlags(&e2, cudaEventInterprocess));
    P(cudaEventCreateWithFlags(&e2, cudaEventInterprocess | cudaEventDisableTiming)); P(cudaEventDestroy(e2));
    P(cudaEventCreateWithFlags(&en, cudaEventDisableTiming));
    P(cudaEventCreate(&e2));
    float ms = -1;
    P(cudaEventElapsedTime(&ms, e1, e2));
    P(cudaEventRecord(e2, s)); P(cudaEventSynchronize(e2));
    P(cudaEventElapsedTime(&ms, e1, e2)); printf("ms=%f\n", ms);
    P(cudaEventElapsedTime(NULL, e1, e2));
    P(cudaEventElapsedTime(&ms, NULL, e2));
    P(cudaEventElapsedTime(&ms, e1, NULL));
    P(cudaEventRecord(en, s)); P(cudaEventSynchronize(en));
    P(cudaEventElapsedTime(&ms, e1, en));
    P(cudaEventElapsedTime(&ms, en, e1));
    { cudaEvent_t u; cudaEventCreate(&u); P(cudaEventElapsedTime(&ms, u, e2)); P(cudaEventElapsedTime(&ms, e1, u)); P(cudaEventQuery(u)); P(cudaEventSynchronize(u)); cudaEventDestroy(u); }
    P(cudaEventRecord(NULL, s));
    CASE("forged record", [&]{ P(cudaEventRecord(e1, (cudaStream_t)0x1234)); });
    P(cudaEventQuery(NULL));
    P(cudaEventSynchronize(NULL));
    P(cudaEventDestroy(NULL));
    CASE("forged event query", [&]{ P(cudaEventQuery((cudaEvent_t)0x1234)); });
    { cudaEvent_t u; cudaEventCreate(&u); cudaEventDestroy(u);
      CASE("destroyed event destroy", [&]{ P(cudaEventDestroy(u)); });
      CASE("destroyed event query", [&]{ P(cudaEventQuery(u)); });
      CASE("destroyed event record", [&]{ P(cudaEventRecord(u, 0)); });
      CASE("destroyed event sync", [&]{ P(cudaEventSynchronize(u)); });
      CASE("destroyed event wait", [&]{ P(cudaStreamWaitEvent(0, u, 0)); });
    }
    P(cudaStreamDestroy(s));
    P(cudaDeviceSynchronize());

    printf("== reset\n");
    P(cudaDeviceReset());
    { CUcontext c = (CUcontext)1; cuCtxGetCurrent(&c); unsigned f; int a; cuDevicePrimaryCtxGetState(0,&f,&a); printf("ctx after reset: %p active=%d\n", (void*)c, a); }
    P(cudaFree(d));
    P(cudaStreamQuery(s));
    void *d2; P(cudaMalloc(&d2, 16)); P(cudaFree(d2));
    { CUcontext c = (CUcontext)1; cuCtxGetCurrent(&c); unsigned f; int a; cuDevicePrimaryCtxGetState(0,&f,&a); printf("ctx after reuse: %p active=%d\n", (void*)c, a); }
    P(cudaDeviceReset()); P(cudaDeviceReset());
    printf("== ctx adopt\n");
    { CUcontext own; CUdevice dev0; cuDeviceGet(&dev0, 0); CUctxCreateParams cp = {}; cuCtxCreate(&own, &cp, 0, dev0);
      void *q; P(cudaMalloc(&q, 16)); CUcontext pc = NULL; cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)q); printf("alloc in own ctx: %d\n", pc == own);
      cudaFree(q); cuCtxSetCurrent(NULL); P(cudaMalloc(&q, 16)); CUcontext cur = NULL; cuCtxGetCurrent(&cur); printf("after SetCurrent(NULL): cur==own %d cur=%p\n", cur == own, (void*)cur); cudaFree(q);
      cuCtxSetCurrent(own); P(cudaSetDevice(0)); cuCtxGetCurrent(&cur); printf("SetDevice with own current: cur==own %d\n", cur == own);
      cuCtxDestroy(own); cuCtxGetCurrent(&cur); printf("after destroy own cur=%p\n", (void*)cur); P(cudaMalloc(&q, 16)); cuCtxGetCurrent(&cur); printf("then cur=%p\n", (void*)cur); }
    if (risky) printf("NO SUCH CASE\n");
    printf("done\n");
    return 0;
}
