#version 450
// extmem-vulkan-mmap-pi (samples/vulkan_mmap_pi.cu): two colours, inside the circle and
// outside it, as whole numbers over 255 so that they reach the window exactly.
layout(location = 0) flat in float is_inside;
layout(location = 0) out vec4 color;

void main()
{
    color = is_inside > 0.5 ? vec4(255.0, 176.0, 32.0, 255.0) / 255.0 : vec4(48.0, 96.0, 224.0, 255.0) / 255.0;
}
