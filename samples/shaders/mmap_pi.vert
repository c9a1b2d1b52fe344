#version 450
// extmem-vulkan-mmap-pi (samples/vulkan_mmap_pi.cu): one point per sample. Both vertex
// attributes come from the memory CUDA allocated and Vulkan imported: the position (at a pixel's
// centre, in normalized device coordinates) and whether the point fell inside the circle.
layout(location = 0) in vec2 position;
layout(location = 1) in float inside;
layout(location = 0) flat out float is_inside;

void main()
{
    gl_Position = vec4(position, 0.0, 1.0);
    gl_PointSize = 1.0;
    is_inside = inside;
}
