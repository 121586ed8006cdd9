// Filled polygons (triangles in tile units). Colour and opacity are uniforms, or per-vertex
// attributes holding values at two zooms for data-driven properties (#pragma paint). PATTERN
// fills with a sprite image instead (fill-pattern): repeats as wide as the image in points
// at the integer zoom, aligned to the world's origin; its atlas place is a uniform, or per
// vertex when data-driven (HAS_ATTR_PATTERN).
uniform mat4 u_matrix;

in vec2 a_pos;

#ifdef PATTERN
uniform vec2 u_pixel_coord_upper;  // the tile's origin, points at the integer zoom, / 65536
uniform vec2 u_pixel_coord_lower;  // and modulo 65536
uniform float u_tile_ratio;        // points at the integer zoom per tile unit
#ifdef HAS_ATTR_PATTERN
in vec4 a_pattern;                 // the image's corners in the atlas, pixels
in float a_pattern_ratio;          // its pixels per point
out vec4 v_pattern;
#else
uniform vec4 u_pattern;
uniform float u_pattern_ratio;
#endif
out vec2 v_pattern_pos;

#pragma include: pattern
#endif

#pragma paint: define vec4 color
#pragma paint: define float opacity

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
#ifdef PATTERN
#ifdef HAS_ATTR_PATTERN
  vec4 pattern = a_pattern;
  float ratio = a_pattern_ratio;
  v_pattern = a_pattern;
#else
  vec4 pattern = u_pattern;
  float ratio = u_pattern_ratio;
#endif
  vec2 size = (pattern.zw - pattern.xy) / ratio;
  // A missing image (an empty rectangle) samples the atlas's clear corner.
  size = size.x > 0.0 && size.y > 0.0 ? size : vec2(1.0);
  v_pattern_pos = patternPosition(u_pixel_coord_upper, u_pixel_coord_lower, size, u_tile_ratio, a_pos);
#endif
}
