#version 450
// Fills words [0, count) of the bound range with pattern(i, seed) * mul + add.
#extension GL_GOOGLE_include_directive : require
#include "pattern.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform Push { uint count; uint seed; uint mul; uint add; } pc;

void main()
{
    // A grid-stride loop: any size fits in the dispatch limits (65535 groups).
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride)
        data[i] = pattern(i, pc.seed) * pc.mul + pc.add;
}
