#version 450
// One Vulkan turn of extmem-vulkan-demo's frame loop (samples/vulkan_demo.cu), over the buffer
// it shares with CUDA: a header whose first word counts the frames the kernel has finished,
// then count words. The same command buffer is submitted every frame, each submission after
// the kernel's previous one (a timeline semaphore), so the frame number comes from the header,
// which the kernel wrote, not from the host.
// Turn k checks that every word holds what the kernel made of frame k - 1,
// pattern(i, seed(k - 1)) * mul + add, into result[k - 1], then writes frame k,
// pattern(i, seed(k)); the turn after the last frame only checks.
#extension GL_GOOGLE_include_directive : require
#include "pattern.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Frame { uint done; uint pad0, pad1, pad2; uint data[]; } frame;
struct Result { uint mismatches; uint first_bad; uint checked; uint pad; };
layout(std430, set = 0, binding = 1) buffer Results { Result result[]; };
layout(push_constant) uniform Push { uint count; uint seed; uint mul; uint add; uint frames; } pc;

// Frame k's seed; the demo's host code computes the same for the kernel.
uint frame_seed(uint k) { return pc.seed ^ (k * 0x9e3779b9u); }

void main()
{
    // Nothing writes the header during this dispatch: every invocation reads the same k.
    uint k = frame.done;
    bool check = k > 0u && k <= pc.frames, fill = k < pc.frames;
    uint want = frame_seed(k - 1u), next = frame_seed(k);
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint bad = 0u, first = 0xffffffffu, seen = 0u;
    for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) {
        if (check) {
            if (frame.data[i] != pattern(i, want) * pc.mul + pc.add) {
                bad++;
                first = min(first, i);
            }
            seen++;
        }
        if (fill)
            frame.data[i] = pattern(i, next);
    }
    // A header out of range leaves every slot unchecked: the host reports the frame missing.
    if (check) {
        if (bad != 0u) {
            atomicAdd(result[k - 1u].mismatches, bad);
            atomicMin(result[k - 1u].first_bad, first);
        }
        atomicAdd(result[k - 1u].checked, seen);
    }
}
