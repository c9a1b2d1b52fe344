#version 450
// extmem-vulkan-image (samples/vulkan_image.cu): samples the texture that CUDA animates and
// whose mip levels CUDA generates. The level is explicit (textureLod) and the sampler filters
// to the nearest texel and the nearest level, and each quad is drawn at its level's own size,
// pixel-aligned: every pixel of the window is one texel, which makes the screenshot exact on
// any lavapipe (no derivative or filter weights in it).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform Quad { vec4 rect; float lod; } quad;

void main()
{
    color = textureLod(tex, uv, quad.lod);
}
