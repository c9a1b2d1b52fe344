#version 450
// extmem-vulkan-heightfield (samples/vulkan_heightfield.cu): one point per vertex of the grid.
// The vertex buffer holds only the heights, which CUDA writes every frame (whole multiples of
// 1/32); the grid position comes from the vertex's index. The view is oblique and in whole
// pixels: column x, row y and height h land on pixel (x0 + 2x + y, y0 + 2y - 32h), so every
// point is a 3x3 square of whole pixels and the picture is the same on any rasterizer.
layout(location = 0) in float height;
layout(location = 0) flat out vec3 color;
layout(push_constant) uniform Grid { int n, x0, y0, width, height; } grid;

void main()
{
    int x = gl_VertexIndex % grid.n, y = gl_VertexIndex / grid.n;
    int q = int(height * 32.0); // exact: CUDA writes whole multiples of 1/32
    vec2 pixel = vec2(grid.x0 + 2 * x + y, grid.y0 + 2 * y - q) + 0.5;
    gl_Position = vec4(pixel / vec2(grid.width, grid.height) * 2.0 - 1.0, 0.0, 1.0);
    gl_PointSize = 3.0;
    // Whole numbers over 255: each channel reaches the window as that number exactly.
    color = vec3(128 + 5 * q, 64 + y, 128 - 5 * q) / 255.0;
}
