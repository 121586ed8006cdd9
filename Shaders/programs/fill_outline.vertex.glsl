// Polygon outlines drawn as 2-pixel GL lines for antialiased fill edges (fill-antialias):
// coverage falls off with the distance from the line's centre in window pixels. As in
// MapLibre, the centre's window position is interpolated perspective-correctly, so under a
// strong tilt long edges lose their antialiasing (MapLibre's renders look the same; use MSAA
// for smooth edges on tilted maps). PATTERN draws the fill's pattern along them (see fill).
uniform mat4 u_matrix;
uniform vec2 u_world;  // viewport size in pixels

in vec2 a_pos;
out vec2 v_pos;

#ifdef PATTERN
uniform vec2 u_pixel_coord_upper;
uniform vec2 u_pixel_coord_lower;
uniform float u_tile_ratio;
#ifdef HAS_ATTR_PATTERN
in vec4 a_pattern;
in float a_pattern_ratio;
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
  v_pos = (gl_Position.xy / gl_Position.w + 1.0) / 2.0 * u_world;
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
  size = size.x > 0.0 && size.y > 0.0 ? size : vec2(1.0);
  v_pattern_pos = patternPosition(u_pixel_coord_upper, u_pixel_coord_lower, size, u_tile_ratio, a_pos);
#endif
}
