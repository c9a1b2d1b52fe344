// runtime_graph_probe.cu - NVIDIA's runtime answers for what src/runtime/graph.c checks itself (issue 24).
// nvcc -arch=sm_90 -cudart shared runtime_graph_probe.cu -o p && ./p   (output: runtime_graph_probe.out)
#include <cstdio>
__global__ void k(int*p){}
__device__ int sym;
#define P(n,e) printf("%s: %s\n",n,cudaGetErrorName(e)),cudaGetLastError()
int main(){cudaGraph_t g;cudaGraphCreate(&g,0);cudaGraphNode_t n;int*d;cudaMalloc(&d,256);int x;
P("addKernel_NULL",cudaGraphAddKernelNode(&n,g,0,0,0));
cudaKernelNodeParams kp={};void*a[]={&d};kp.gridDim=dim3(1);kp.blockDim=dim3(1);kp.kernelParams=a;
P("addKernel_funcNULL",cudaGraphAddKernelNode(&n,g,0,0,&kp));
kp.func=&x;P("addKernel_notKernel",cudaGraphAddKernelNode(&n,g,0,0,&kp));
cudaGraphNodeParams np={};np.type=(cudaGraphNodeType)12;P("addNode_type12",cudaGraphAddNode(&n,g,0,0,0,&np));
np.type=cudaGraphNodeTypeMemcpy;np.memcpy.reserved[2]=1;np.memcpy.copyParams.srcPtr=make_cudaPitchedPtr(d,64,64,1);np.memcpy.copyParams.dstPtr=make_cudaPitchedPtr(d+32,64,64,1);np.memcpy.copyParams.extent=make_cudaExtent(64,1,1);np.memcpy.copyParams.kind=cudaMemcpyDeviceToDevice;P("addNode_memcpy_reserved",cudaGraphAddNode(&n,g,0,0,0,&np));
P("add1D_kind7",cudaGraphAddMemcpyNode1D(&n,g,0,0,d,d+32,64,(cudaMemcpyKind)7));
P("addToSymbol_notSymbol",cudaGraphAddMemcpyNodeToSymbol(&n,g,0,0,&x,&x,4,0,cudaMemcpyHostToDevice));
P("addToSymbol_D2H",cudaGraphAddMemcpyNodeToSymbol(&n,g,0,0,(const void*)&sym,&x,4,0,cudaMemcpyDeviceToHost));
P("addToSymbol_range",cudaGraphAddMemcpyNodeToSymbol(&n,g,0,0,(const void*)&sym,&x,4,4,cudaMemcpyHostToDevice));
P("info_NULL",cudaStreamGetCaptureInfo(0,0));
unsigned long long v;P("memattr_99",cudaDeviceGetGraphMemAttribute(99,cudaGraphMemAttrUsedMemHigh,&v));
P("add1D",cudaGraphAddMemcpyNode1D(&n,g,0,0,d+32,d,64,cudaMemcpyDeviceToDevice));
cudaMemcpy3DParms c;memset(&c,0x55,sizeof c);P("memcpyGet",cudaGraphMemcpyNodeGetParams(n,&c));
printf("kind=%d src=%d dst=%d pitch=%zu xsize=%zu ysize=%zu ext=%zu,%zu,%zu arr=%p\n",c.kind,c.srcPtr.ptr==d,c.dstPtr.ptr==d+32,c.srcPtr.pitch,c.srcPtr.xsize,c.srcPtr.ysize,c.extent.width,c.extent.height,c.extent.depth,(void*)c.srcArray);
P("kernelGet_NULL",cudaGraphKernelNodeGetParams(n,0));
cudaGraphExec_t e;cudaGraphInstantiate(&e,g,0);cudaGraphAddEmptyNode(&n,g,0,0);
P("update_NULL_info_topology",cudaGraphExecUpdate(e,g,0));
kp.func=(void*)k;P("addKernel_ok",cudaGraphAddKernelNode(&n,g,0,0,&kp));
cudaKernelNodeParams o;P("kernelGet",cudaGraphKernelNodeGetParams(n,&o));printf("func==k:%d\n",o.func==(void*)k);}
