// Filled polygons (triangles in tile units). Colour and opacity are uniforms, or per-vertex
// attributes holding values at two zooms for data-driven properties (#pragma paint). PATTERN
// fills with a sprite image instead (fill-pattern): repeats as wide as the image in points
// at the integer zoom, aligned to the world's origin; its atlas place is a uniform, or per
// vertex when data-driven (HAS_ATTR_PATTERN).
uniform mat4 u_matrix;

in vec2 a_pos;

#ifdef PATTERN
#pragma pattern: define
#endif

#pragma paint: define vec4 color
#pragma paint: define float opacity

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
#ifdef PATTERN
  #pragma pattern: position a_pos
#endif
}
