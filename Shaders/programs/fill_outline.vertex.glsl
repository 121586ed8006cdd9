// Polygon outlines drawn as 2-pixel GL lines for antialiased fill edges (fill-antialias):
// coverage falls off with the distance from the line's centre in window pixels. As in
// MapLibre, the centre's window position is interpolated perspective-correctly, so under a
// strong tilt long edges lose their antialiasing (MapLibre's renders look the same; use MSAA
// for smooth edges on tilted maps). PATTERN draws the fill's pattern along them (see fill).
uniform mat4 u_matrix;
#ifdef CLIP_DISTANCES
// The area drawn (tile units: min x, min y, max x, max y): the tile's square, or the joint
// square of the overzoomed tiles drawing this bucket. Geometry beyond it (the tile's buffer)
// is clipped away, so neighbouring tiles never draw a pixel twice.
uniform vec4 u_tile_clip;
#endif
uniform vec2 u_world;  // viewport size in pixels

in vec2 a_pos;
out vec2 v_pos;
#if defined(PAINT_VARYINGS) && !defined(PATTERN)
// Read by the fragment stage to no effect, so that outlines read the solid and dashed lines'
// fragment inputs (see there). Each a value of its own from the attribute: the linker folds
// constants into the fragment stage and merges outputs holding the same value.
out vec2 v_unread_a;
out vec2 v_unread_b;
out float v_unread_c;
flat out float v_unread_d;
flat out float v_unread_e;
#endif

#ifdef PATTERN
#pragma pattern: define
#endif

#pragma paint: define vec4 color
#pragma paint: define float opacity

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
#ifdef CLIP_DISTANCES
  gl_ClipDistance[0] = a_pos.x - u_tile_clip.x;
  gl_ClipDistance[1] = u_tile_clip.z - a_pos.x;
  gl_ClipDistance[2] = a_pos.y - u_tile_clip.y;
  gl_ClipDistance[3] = u_tile_clip.w - a_pos.y;
#endif
  v_pos = (gl_Position.xy / gl_Position.w + 1.0) / 2.0 * u_world;
#if defined(PAINT_VARYINGS) && !defined(PATTERN)
  v_unread_a = a_pos * 2.0;
  v_unread_b = a_pos * 3.0;
  v_unread_c = a_pos.x * 5.0;
  v_unread_d = a_pos.y * 7.0;
  v_unread_e = a_pos.x * 11.0;
#endif
#ifdef PATTERN
  #pragma pattern: position a_pos
#endif
}
