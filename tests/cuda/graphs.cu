// CUDA graphs, in the manner of NVIDIA's simpleCudaGraphs sample: a two-kernel reduction with
// its copies, fill and a host callback, built twice (by hand with cudaGraphAdd*Node, and by
// capturing two streams that fork and join through events), instantiated and launched several
// times; then an exec update after a kernel argument changed, an exec-only parameter change, a
// refused update, a child graph node, and stream-ordered allocation captured as graph-owned
// memory. Everything printed is the same on any device: counts, types, sums.
#include <vector>

#include "check.h"

constexpr int kThreads = 256;
constexpr int kBlocks = 16;
constexpr int kN = kThreads * kBlocks;

// partial[b] += the sum of block b's elements of in.
__global__ void partial_sums(const int *in, int *partial, int n)
{
    __shared__ int s[kThreads];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] += s[0];
}

// *result = scale * the sum of the m partial sums (one block of 32 threads).
__global__ void final_sum(const int *partial, int *result, int m, int scale)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    int v = 0;
    for (int i = t; i < m; i += blockDim.x)
        v += partial[i];
    s[t] = v;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        *result = s[0] * scale;
}

static int *h_result;
static std::vector<int> results;

static void CUDART_CB record(void *)
{
    results.push_back(*h_result);
}

static void print_results(const char *what)
{
    std::printf("%s:", what);
    for (int r : results)
        std::printf(" %d", r);
    std::printf("\n");
    results.clear();
}

// "6 nodes (kernel 2, memcpy 2, memset 1, host 1), 5 edges, 2 roots"
static void describe(const char *what, cudaGraph_t g)
{
    static const char *names[] = {"kernel", "memcpy", "memset", "host", "graph", "empty", "event wait",
                                  "event record", "semaphore signal", "semaphore wait", "mem alloc", "mem free",
                                  "batch memop", "conditional"};
    size_t n = 0, edges = 0, roots = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    std::vector<cudaGraphNode_t> nodes(n);
    CHECK(cudaGraphGetNodes(g, nodes.data(), &n));
    CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
    CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
    int count[14] = {0};
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType t;
        CHECK(cudaGraphNodeGetType(node, &t));
        REQUIRE((int)t >= 0 && (int)t < 14);
        ++count[t];
    }
    std::printf("%s: %zu nodes (", what, n);
    const char *sep = "";
    for (int t = 0; t < 14; ++t)
        if (count[t]) {
            std::printf("%s%s %d", sep, names[t], count[t]);
            sep = ", ";
        }
    std::printf("), %zu edges, %zu roots\n", edges, roots);
}

int main()
{
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    int *d_in, *d_partial, *d_result, *h_in;
    CHECK(cudaMalloc(&d_in, kN * sizeof(int)));
    CHECK(cudaMalloc(&d_partial, kBlocks * sizeof(int)));
    CHECK(cudaMalloc(&d_result, sizeof(int)));
    CHECK(cudaMallocHost(&h_in, kN * sizeof(int)));
    CHECK(cudaMallocHost(&h_result, sizeof(int)));
    int expected = 0;
    for (int i = 0; i < kN; ++i) {
        h_in[i] = i % 7 + 1;
        expected += h_in[i];
    }
    std::printf("expected sum: %d\n", expected);

    // ---- 1. By hand: copy in and clear the partial sums (roots), two kernels, copy out, callback.
    cudaGraph_t hand;
    CHECK(cudaGraphCreate(&hand, 0));
    cudaGraphNode_t copy_in, clear, partial, final, copy_out, callback;
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(h_in, kN * sizeof(int), kN, 1);
    cp.dstPtr = make_cudaPitchedPtr(d_in, kN * sizeof(int), kN, 1);
    cp.extent = make_cudaExtent(kN * sizeof(int), 1, 1);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaGraphAddMemcpyNode(&copy_in, hand, nullptr, 0, &cp));
    cudaMemsetParams mp = {};
    mp.dst = d_partial;
    mp.value = 0;
    mp.elementSize = sizeof(int);
    mp.width = kBlocks;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&clear, hand, nullptr, 0, &mp));

    int n = kN, m = kBlocks, scale = 1;
    void *partial_args[] = {&d_in, &d_partial, &n};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)partial_sums;
    kp.gridDim = dim3(kBlocks);
    kp.blockDim = dim3(kThreads);
    kp.kernelParams = partial_args;
    cudaGraphNode_t roots[] = {copy_in, clear};
    CHECK(cudaGraphAddKernelNode(&partial, hand, roots, 2, &kp));

    void *final_args[] = {&d_partial, &d_result, &m, &scale};
    cudaKernelNodeParams kf = {};
    kf.func = (void *)final_sum;
    kf.gridDim = dim3(1);
    kf.blockDim = dim3(32);
    kf.kernelParams = final_args;
    CHECK(cudaGraphAddKernelNode(&final, hand, &partial, 1, &kf));
    CHECK(cudaGraphAddMemcpyNode1D(&copy_out, hand, &final, 1, h_result, d_result, sizeof(int),
                                   cudaMemcpyDeviceToHost));
    cudaHostNodeParams hp = {record, nullptr};
    CHECK(cudaGraphAddHostNode(&callback, hand, &copy_out, 1, &hp));
    describe("hand-built graph", hand);

    cudaKernelNodeParams got = {};
    CHECK(cudaGraphKernelNodeGetParams(partial, &got));
    std::printf("kernel node gives back its function: %s, grid %u, block %u\n",
                got.func == (void *)partial_sums ? "yes" : "no", got.gridDim.x, got.blockDim.x);
    cudaMemsetParams mg = {};
    CHECK(cudaGraphMemsetNodeGetParams(clear, &mg));
    std::printf("memset node: %s, %zu elements of %u bytes\n", mg.dst == d_partial ? "same address" : "other address",
                mg.width, mg.elementSize);

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, hand, 0));
    for (int i = 0; i < 3; ++i)
        CHECK(cudaGraphLaunch(exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    print_results("hand-built graph, 3 launches");

    // ---- 2. The graph's kernel node changed, then the exec updated from it.
    scale = 2;
    CHECK(cudaGraphKernelNodeSetParams(final, &kf));
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(exec, hand, &info));
    std::printf("exec update after a new argument: result %d\n", (int)info.result);
    CHECK(cudaGraphLaunch(exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    print_results("after the update");

    // ---- 3. The exec's node alone changed.
    scale = 3;
    CHECK(cudaGraphExecKernelNodeSetParams(exec, final, &kf));
    CHECK(cudaGraphLaunch(exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    print_results("after cudaGraphExecKernelNodeSetParams");

    // ---- An update that adds a node is refused, and the exec runs as before.
    cudaGraphNode_t extra;
    CHECK(cudaGraphAddEmptyNode(&extra, hand, &callback, 1));
    EXPECT_ERR(cudaErrorGraphExecUpdateFailure, cudaGraphExecUpdate(exec, hand, &info));
    std::printf("exec update after a node was added: cudaErrorGraphExecUpdateFailure, result %d\n", (int)info.result);
    CHECK(cudaGraphLaunch(exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    print_results("the exec still runs");
    CHECK(cudaGraphExecDestroy(exec));

    // ---- 4. By capture: s2 forks from s1, clears the partial sums while s1 copies in, and joins.
    scale = 1;
    cudaEvent_t fork, join;
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    cudaGraph_t captured;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    CHECK(cudaMemsetAsync(d_partial, 0, kBlocks * sizeof(int), s2));
    CHECK(cudaEventRecord(join, s2));
    CHECK(cudaMemcpyAsync(d_in, h_in, kN * sizeof(int), cudaMemcpyHostToDevice, s1));
    CHECK(cudaStreamWaitEvent(s1, join, 0));
    partial_sums<<<kBlocks, kThreads, 0, s1>>>(d_in, d_partial, kN);
    final_sum<<<1, 32, 0, s1>>>(d_partial, d_result, kBlocks, 1);
    CHECK(cudaMemcpyAsync(h_result, d_result, sizeof(int), cudaMemcpyDeviceToHost, s1));
    CHECK(cudaLaunchHostFunc(s1, record, nullptr));
    cudaStreamCaptureStatus status;
    CHECK(cudaStreamIsCapturing(s1, &status));
    std::printf("s1 while capturing: %s\n", status == cudaStreamCaptureStatusActive ? "active" : "not active");
    CHECK(cudaStreamEndCapture(s1, &captured));
    CHECK(cudaStreamIsCapturing(s2, &status));
    std::printf("s2 after the capture: %s\n", status == cudaStreamCaptureStatusNone ? "not capturing" : "capturing");
    describe("captured graph", captured);
    CHECK(cudaGraphInstantiate(&exec, captured, 0));
    for (int i = 0; i < 3; ++i)
        CHECK(cudaGraphLaunch(exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    print_results("captured graph, 3 launches");
    CHECK(cudaGraphExecDestroy(exec));

    // ---- 5. The captured graph as a child node of another graph.
    cudaGraph_t parent;
    CHECK(cudaGraphCreate(&parent, 0));
    cudaGraphNode_t child_node, after;
    CHECK(cudaGraphAddChildGraphNode(&child_node, parent, nullptr, 0, captured));
    CHECK(cudaGraphAddEmptyNode(&after, parent, &child_node, 1));
    cudaGraph_t held;
    CHECK(cudaGraphChildGraphNodeGetGraph(child_node, &held));
    size_t held_nodes = 0;
    CHECK(cudaGraphGetNodes(held, nullptr, &held_nodes));
    describe("parent graph", parent);
    std::printf("its child graph: %zu nodes\n", held_nodes);
    CHECK(cudaGraphInstantiate(&exec, parent, 0));
    CHECK(cudaGraphLaunch(exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    print_results("parent graph, 1 launch");
    CHECK(cudaGraphExecDestroy(exec));

    // ---- 6. Stream-ordered allocation captured: the graph owns the scratch buffer.
    cudaGraph_t owning;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    int *scratch = nullptr;
    CHECK(cudaMallocAsync(&scratch, kN * sizeof(int), s1));
    CHECK(cudaMemcpyAsync(scratch, d_in, kN * sizeof(int), cudaMemcpyDeviceToDevice, s1));
    CHECK(cudaMemsetAsync(d_partial, 0, kBlocks * sizeof(int), s1));
    partial_sums<<<kBlocks, kThreads, 0, s1>>>(scratch, d_partial, kN);
    CHECK(cudaFreeAsync(scratch, s1));
    final_sum<<<1, 32, 0, s1>>>(d_partial, d_result, kBlocks, 1);
    CHECK(cudaMemcpyAsync(h_result, d_result, sizeof(int), cudaMemcpyDeviceToHost, s1));
    CHECK(cudaLaunchHostFunc(s1, record, nullptr));
    CHECK(cudaStreamEndCapture(s1, &owning));
    describe("graph with its own memory", owning);
    CHECK(cudaGraphInstantiate(&exec, owning, 0));
    for (int i = 0; i < 2; ++i)
        CHECK(cudaGraphLaunch(exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    print_results("graph with its own memory, 2 launches");
    CHECK(cudaGraphExecDestroy(exec));

    CHECK(cudaGraphDestroy(owning));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(captured));
    CHECK(cudaGraphDestroy(hand));
    CHECK(cudaEventDestroy(join));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaFreeHost(h_result));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFree(d_result));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_in));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaStreamDestroy(s1));
    return 0;
}
