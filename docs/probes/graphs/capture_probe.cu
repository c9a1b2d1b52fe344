/*
 * capture_probe.cu - NVIDIA's runtime answers for stream capture and graphs (issue 22):
 * which runtime calls are refused during a capture, what cudaGetLastError says afterwards,
 * and the runtime's view of the capture info. One line per probe: `name: cudaErrorName (number) [extra]`.
 * nvcc -arch=sm_90 -cudart shared -o capture_probe capture_probe.cu
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__global__ void add1(int *p) { p[threadIdx.x] += 1; }

static void line(const char *name, cudaError_t e, const char *extra)
{
    printf("%s: %s (%d)%s%s\n", name, cudaGetErrorName(e), (int)e, extra && extra[0] ? " " : "", extra ? extra : "");
}
static const char *cs(cudaStreamCaptureStatus s)
{
    return s == cudaStreamCaptureStatusNone ? "NONE" : s == cudaStreamCaptureStatusActive ? "ACTIVE" : s == cudaStreamCaptureStatusInvalidated ? "INVALIDATED" : "?";
}
static cudaStreamCaptureStatus st(cudaStream_t s)
{
    cudaStreamCaptureStatus c = (cudaStreamCaptureStatus)99;
    cudaStreamIsCapturing(s, &c);
    return c;
}
static int *dbuf;
static void end(const char *name, cudaStream_t s)
{
    char nm[200], ex[200];
    cudaGraph_t g = (cudaGraph_t)0x1234;
    cudaStreamCaptureStatus before = st(s);
    cudaError_t e = cudaStreamEndCapture(s, &g);
    cudaError_t last = cudaGetLastError();
    cudaError_t last2 = cudaGetLastError();
    snprintf(nm, sizeof nm, "%s.end", name);
    snprintf(ex, sizeof ex, "status_before=%s graph=%s lastError_after=%s then=%s", cs(before),
             g == (cudaGraph_t)0x1234 ? "untouched" : g ? "set" : "NULL", cudaGetErrorName(last), cudaGetErrorName(last2));
    line(nm, e, ex);
    if (g && g != (cudaGraph_t)0x1234) cudaGraphDestroy(g);
}

int main()
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    cudaFree(0);
    cudaMalloc(&dbuf, 4096);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    char ex[256];
    line("R.begin_legacy", cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal), NULL);
    line("R.lastError_after_begin_legacy", cudaGetLastError(), NULL);
    line("R.begin_0", cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), NULL);
    cudaGetLastError();
    cudaError_t e = cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal);
    line("R.begin_per_thread", e, NULL);
    if (!e) end("R.per_thread", cudaStreamPerThread);
    const char *ops[] = {"cudaMalloc", "cudaFree", "cudaMallocHost", "cudaMemcpy", "cudaMemset", "cudaDeviceSynchronize",
                         "cudaStreamSynchronize_s", "cudaStreamQuery_s", "launch_legacy", "cudaMemcpyAsync_0",
                         "cudaMallocAsync_s", "cudaEventQuery_capture_event", "cudaGetDeviceProperties",
                         "cudaMemGetInfo", "cudaFuncGetAttributes", "cudaStreamCreate", "cudaEventCreate", "cudaSetDevice"};
    for (int mode = 0; mode < 3; mode++)
        for (int op = 0; op < 18; op++) {
            char nm[160];
            int *p = NULL, *tf = NULL;
            void *h;
            char hb[64] = {0};
            cudaMalloc(&tf, 256);
            cudaEvent_t ev;
            cudaEventCreate(&ev);
            cudaStreamBeginCapture(s, (cudaStreamCaptureMode)mode);
            add1<<<1, 32, 0, s>>>(dbuf);
            cudaEventRecord(ev, s);
            switch (op) {
            case 0: e = cudaMalloc(&p, 256); if (!e) cudaFree(p); break;
            case 1: e = cudaFree(tf); break;
            case 2: e = cudaMallocHost(&h, 256); if (!e) cudaFreeHost(h); break;
            case 3: e = cudaMemcpy(dbuf, hb, 64, cudaMemcpyHostToDevice); break;
            case 4: e = cudaMemset(dbuf, 0, 64); break;
            case 5: e = cudaDeviceSynchronize(); break;
            case 6: e = cudaStreamSynchronize(s); break;
            case 7: e = cudaStreamQuery(s); break;
            case 8: add1<<<1, 32>>>(dbuf); e = cudaPeekAtLastError(); break;
            case 9: e = cudaMemcpyAsync(dbuf, hb, 64, cudaMemcpyHostToDevice, 0); break;
            case 10: e = cudaMallocAsync(&p, 256, s); if (!e) cudaFreeAsync(p, s); break;
            case 11: e = cudaEventQuery(ev); break;
            case 12: { cudaDeviceProp pr; e = cudaGetDeviceProperties(&pr, 0); break; }
            case 13: { size_t a, b; e = cudaMemGetInfo(&a, &b); break; }
            case 14: { cudaFuncAttributes fa; e = cudaFuncGetAttributes(&fa, add1); break; }
            case 15: { cudaStream_t t; e = cudaStreamCreate(&t); if (!e) cudaStreamDestroy(t); break; }
            case 16: { cudaEvent_t t; e = cudaEventCreate(&t); if (!e) cudaEventDestroy(t); break; }
            case 17: e = cudaSetDevice(0); break;
            }
            cudaError_t last = cudaPeekAtLastError();
            snprintf(nm, sizeof nm, "R.%s.%s", mode == 0 ? "GLOBAL" : mode == 1 ? "THREAD_LOCAL" : "RELAXED", ops[op]);
            snprintf(ex, sizeof ex, "status_after=%s peekLastError=%s", cs(st(s)), cudaGetErrorName(last));
            line(nm, e, ex);
            end(nm, s);
            cudaDeviceSynchronize();
            cudaGetLastError();
            if (op != 1 || e) cudaFree(tf);
            cudaEventDestroy(ev);
        }
    /* capture info */
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add1<<<1, 32, 0, s>>>(dbuf);
    cudaStreamCaptureStatus cst;
    unsigned long long id = 0;
    cudaGraph_t g = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t nd = 99;
    e = cudaStreamGetCaptureInfo(s, &cst, &id, &g, &deps, NULL, &nd);
    snprintf(ex, sizeof ex, "status=%s id=%llu graph=%s numDeps=%zu", cs(cst), id, g ? "set" : "NULL", nd);
    line("R.getCaptureInfo_1_op", e, ex);
    end("R.info", s);
    /* graph launch basics */
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add1<<<1, 32, 0, s>>>(dbuf);
    cudaMemsetAsync(dbuf + 64, 0, 100, s);
    cudaStreamEndCapture(s, &g);
    cudaGraphExec_t x;
    line("R.graphInstantiate_flags0", cudaGraphInstantiate(&x, g, 0), NULL);
    line("R.graphLaunch", cudaGraphLaunch(x, s), NULL);
    line("R.sync", cudaStreamSynchronize(s), NULL);
    size_t nn = 0;
    cudaGraphGetNodes(g, NULL, &nn);
    snprintf(ex, sizeof ex, "n=%zu", nn);
    line("R.graphGetNodes_count", cudaSuccess, ex);
    line("R.graphInstantiateWithFlags_0x100", cudaGraphInstantiateWithFlags(&x, g, 0x100), NULL);
    line("R.lastError", cudaGetLastError(), NULL);
    line("R.graphExecDestroy", cudaGraphExecDestroy(x), NULL);
    line("R.graphDestroy", cudaGraphDestroy(g), NULL);
    /* sticky? invalidated capture then getLastError */
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    add1<<<1, 32, 0, s>>>(dbuf);
    cudaStreamSynchronize(s);
    add1<<<1, 32, 0, s>>>(dbuf);
    e = cudaPeekAtLastError();
    snprintf(ex, sizeof ex, "status=%s", cs(st(s)));
    line("R.launch_into_invalidated_capture_peek", e, ex);
    end("R.invalidated", s);
    line("R.deviceSynchronize_after", cudaDeviceSynchronize(), NULL);
    return 0;
}
