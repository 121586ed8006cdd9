// A sprite image repeated over the view, drawn tile by tile at the integer zoom (a_position
// 0…1 over the tile's square), each repeat as many points wide as the image at that zoom and
// aligned to the world's origin, as MapLibre places background patterns.
uniform mat4 u_matrix;
uniform vec2 u_pixel_coord_upper;  // the tile's origin, points at the integer zoom, / 65536
uniform vec2 u_pixel_coord_lower;  // and modulo 65536
uniform float u_tile_ratio;        // points at the integer zoom per tile unit
uniform vec2 u_pattern_size;       // the image's size, points

in vec2 a_position;
out vec2 v_pattern_pos;

#pragma pattern: functions

void main() {
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
  v_pattern_pos = patternPosition(u_pixel_coord_upper, u_pixel_coord_lower, u_pattern_size, u_tile_ratio, a_position);
}
