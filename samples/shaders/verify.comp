#version 450
// Checks words [0, count) of the bound range against pattern(i, seed) * mul + add and counts
// the words that differ, keeping the lowest wrong index.
#extension GL_GOOGLE_include_directive : require
#include "pattern.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Data { uint data[]; };
layout(std430, set = 0, binding = 1) buffer Result { uint mismatches; uint first_bad; uint checked; uint pad; } result;
layout(push_constant) uniform Push { uint count; uint seed; uint mul; uint add; } pc;

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint bad = 0u, first = 0xffffffffu, seen = 0u;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) {
        if (data[i] != pattern(i, pc.seed) * pc.mul + pc.add) {
            bad++;
            first = min(first, i);
        }
        seen++;
    }
    if (bad != 0u) {
        atomicAdd(result.mismatches, bad);
        atomicMin(result.first_bad, first);
    }
    atomicAdd(result.checked, seen);
}
