/* plane_probe.c - the video formats with CUDA_ARRAY3D_VIDEO_ENCODE_DECODE, and cuArrayGetPlane on
 * those the driver accepts (array_probe.c found every video format refused without the flag).
 * gcc -std=gnu11 plane_probe.c -I/usr/local/cuda/include -lcuda -o p && ./p > plane_probe.out */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
static const char *rn(CUresult r){const char*n="?";cuGetErrorName(r,&n);return n;}
int main(void){
CUdevice dev;CUcontext ctx;cuInit(0);cuDeviceGet(&dev,0);cuDevicePrimaryCtxRetain(&ctx,dev);cuCtxSetCurrent(ctx);
unsigned f[]={0x9f,0xa1,0xa2,0xa3,0xa4,0xa5,0xa6,0xa7,0xa8,0xa9,0xb0,0xb1,0xb2,0xb3,0x01};
unsigned fl[]={0x100,0x102,0x101};
for(int i=0;i<15;i++)for(int k=0;k<3;k++)for(unsigned ch=1;ch<=4;ch++){
CUDA_ARRAY3D_DESCRIPTOR a={64,32,k==2?2:0,(CUarray_format)f[i],ch,fl[k]};CUarray arr;
CUresult r=cuArray3DCreate(&arr,&a);
if(r){if(k==0&&ch==3)printf("fmt 0x%x fl 0x%x ch%u %s\n",f[i],fl[k],ch,rn(r));continue;}
printf("fmt 0x%x fl 0x%x ch%u OK",f[i],fl[k],ch);
for(unsigned p=0;p<3;p++){CUarray pl;r=cuArrayGetPlane(&pl,arr,p);printf(" p%u=%s",p,rn(r));
if(!r){CUDA_ARRAY3D_DESCRIPTOR g;memset(&g,0,sizeof g);cuArray3DGetDescriptor(&g,pl);
printf("(%zux%zux%zu f%x c%u fl%x)",g.Width,g.Height,g.Depth,(unsigned)g.Format,g.NumChannels,g.Flags);
CUDA_MEMCPY2D c;memset(&c,0,sizeof c);static char buf[65536];c.srcMemoryType=CU_MEMORYTYPE_ARRAY;c.srcArray=pl;
c.dstMemoryType=CU_MEMORYTYPE_HOST;c.dstHost=buf;c.dstPitch=1024;c.WidthInBytes=8;c.Height=1;printf("cp=%s",rn(cuMemcpy2D(&c)));}}
CUDA_MEMCPY2D c;memset(&c,0,sizeof c);static char buf2[65536];c.srcMemoryType=CU_MEMORYTYPE_ARRAY;c.srcArray=arr;
c.dstMemoryType=CU_MEMORYTYPE_HOST;c.dstHost=buf2;c.dstPitch=1024;c.WidthInBytes=8;c.Height=1;printf(" cpwhole=%s",rn(cuMemcpy2D(&c)));
printf(" destroy=%s\n",rn(cuArrayDestroy(arr)));}
return 0;}
