#version 450
// extmem-vulkan-heightfield (samples/vulkan_heightfield.cu): the point's colour, as the vertex
// shader made it from the height and the row.
layout(location = 0) flat in vec3 color;
layout(location = 0) out vec4 out_color;

void main()
{
    out_color = vec4(color, 1.0);
}
