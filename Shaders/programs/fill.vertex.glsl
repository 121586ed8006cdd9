// Filled polygons (triangles in tile units). Colour and opacity are uniforms, or per-vertex
// attributes holding values at two zooms for data-driven properties (#pragma paint).
uniform mat4 u_matrix;

in vec2 a_pos;

#pragma paint: define vec4 color
#pragma paint: define float opacity

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
}
