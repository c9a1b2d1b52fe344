#version 450
// extmem-vulkan-image (samples/vulkan_image.cu): one textured quad per mip level. The vertex
// buffer holds the unit square's corners with their texture coordinates; the push constants
// place the square on the window (rect: x0, y0, x1, y1 in normalized device coordinates) and
// name the mip level the fragment shader samples.
layout(location = 0) in vec2 corner;
layout(location = 1) in vec2 uv_in;
layout(location = 0) out vec2 uv;
layout(push_constant) uniform Quad { vec4 rect; float lod; } quad;

void main()
{
    uv = uv_in;
    gl_Position = vec4(mix(quad.rect.xy, quad.rect.zw, corner), 0.0, 1.0);
}
