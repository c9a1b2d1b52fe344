/* probe2.c - managed memory and IPC, dma-buf, copies; whether a NOT_READY answer is logged. gcc -std=gnu11 probe2.c -I/usr/local/cuda/include -lcuda (H200, 580.159.04; output in probe2.out). */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#define P(c) do{CUresult r_=(c);const char*n="?";cuGetErrorName(r_,&n);printf("%-60s -> %s\n",#c,n);}while(0)
static void CUDA_CB slow(void*u){(void)u;usleep(300000);}
int main(void){CUcontext c;CUdeviceptr m,d;CUipcMemHandle h;int v=9,fd=-1;CUstream s;CUevent e;
P(cuInit(0));P(cuCtxCreate(&c,NULL,0,0));P(cuMemAllocManaged(&m,1<<21,1));P(cuMemAlloc(&d,1<<21));
P(cuIpcGetMemHandle(&h,m));P(cuPointerGetAttribute(&v,CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE,m));printf("ipccap %d\n",v);
P(cuMemGetHandleForAddressRange(&fd,m,1<<21,CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD,0));
P(cuMemsetD8(m,1,64));P(cuMemcpyDtoD(d,m,64));
P(cuStreamCreate(&s,1));P(cuEventCreate(&e,2));P(cuLaunchHostFunc(s,slow,NULL));P(cuEventRecord(e,s));
CUlogIterator it;char b[4096];size_t sz=sizeof b;P(cuLogsCurrent(&it,0));
P(cuEventQuery(e));P(cuStreamQuery(s));P(cuLogsDumpToMemory(&it,b,&sz,0));printf("size %zu [%s]\n",sz,b);
P(cuStreamSynchronize(s));P(cuMemFree(m));P(cuMemFree(m));return 0;}
