#version 450
// One Vulkan frame of the producer/consumer loop (vk_semaphore_test.cpp): the CUDA side left
// frame k's words as i * 7 + 2k with k in ctrl; this checks them (counting mismatches) and
// writes i * 7 + 2k + 1 for the CUDA side to check.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Data { uint ctrl; uint mismatches; uint data[]; };
layout(push_constant) uniform Push { uint count; } pc;

void main()
{
    uint k = ctrl;
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) {
        if (data[i] != i * 7u + 2u * k)
            atomicAdd(mismatches, 1u);
        data[i] = i * 7u + 2u * k + 1u;
    }
}
