// The texture and surface object functions of extmem/texture_functions.h, one call of each
// kind: tests/cuda/CMakeLists.txt compiles this file to PTX with clang and compares its texture
// and surface instructions with nvcc's for the same file (texture_functions.ptx.expected, made
// by `nvcc -arch=sm_80 -ptx -O2` of CUDA 13.0 with NVIDIA's headers, the first line
// `#include <cuda_runtime.h>` added: scripts in the comment of that file's CMake rule).
__global__ void k(cudaTextureObject_t t, cudaSurfaceObject_t s, float4 *out, int *iout, uchar4 *cout)
{
    int i = threadIdx.x;
    out[0] = tex2D<float4>(t, i + 0.5f, 0.5f);
    out[1] = make_float4(tex1Dfetch<float>(t, i), tex1D<float>(t, 0.5f), tex3D<float>(t, 1, 2, 3), 0);
    iout[0] = tex1Dfetch<int>(t, i);
    out[2] = tex2DLod<float4>(t, 0.5f, 0.5f, 1.5f);
    out[3] = tex2DGrad<float4>(t, 0.5f, 0.5f, make_float2(1, 0), make_float2(0, 1));
    out[4] = tex2Dgather<float4>(t, 0.5f, 0.5f, 2);
    out[5] = tex2DLayered<float4>(t, 0.5f, 0.5f, 3);
    out[6] = texCubemap<float4>(t, 1, 0, 0);
    cout[0] = tex2D<uchar4>(t, 0.5f, 0.5f);
    uint2 u = tex1Dfetch<uint2>(t, 3);
    iout[1] = u.y;
    float4 v = surf2Dread<float4>(s, i * 16, 1);
    surf2Dwrite(v, s, i * 16, 2, cudaBoundaryModeZero);
    uchar4 c = surf2Dread<uchar4>(s, i * 4, 0, cudaBoundaryModeClamp);
    surf2Dwrite(c, s, i * 4, 3);
    surf3Dwrite(1.0f, s, i * 4, 1, 2);
    unsigned char b = surf1Dread<unsigned char>(s, i);
    surf1Dwrite(b, s, i + 1);
    surf2DLayeredwrite(make_int2(1, 2), s, i * 8, 1, 4);
    float2 dd = surf1DLayeredread<float2>(s, 8, 1);
    surf1Dwrite(dd, s, 16);
    out[7] = tex3DGrad<float4>(t, 1, 2, 3, make_float4(1,2,3,4), make_float4(5,6,7,8));
    out[8] = texCubemapLayered<float4>(t, 1, 0, 0, 2);
    out[9] = make_float4(tex1DLayered<float>(t, 0.5f, 2), tex1DLod<float>(t, 0.5f, 1), tex1DGrad<float>(t, 0.5f, 1, 2), 0);
    short2 sh = surf2Dread<short2>(s, 0, 0); surf2Dwrite(sh, s, 4, 0);
}
