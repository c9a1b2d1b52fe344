// A texture and a surface reference, as CUDA 11 programs wrote them.
#include <cuda_runtime.h>
texture<float, 2, cudaReadModeElementType> tex;
surface<void, 2> surf;
__global__ void k(float *o)
{
    o[0] = tex2D(tex, 0.5f, 0.5f);
    float v;
    surf2Dread(&v, surf, 0, 0);
    o[1] = v;
}
