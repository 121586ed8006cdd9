// Filled polygons (triangles in tile units). Colour and opacity are uniforms, or per-vertex
// attributes holding values at two zooms for data-driven properties (#pragma paint). PATTERN
// fills with a sprite image instead (fill-pattern): repeats as wide as the image in points
// at the integer zoom, aligned to the world's origin; its atlas place is a uniform, or per
// vertex when data-driven (HAS_ATTR_PATTERN).
uniform mat4 u_matrix;
#ifdef CLIP_DISTANCES
// The area drawn (tile units: min x, min y, max x, max y): the tile's square, or the joint
// square of the overzoomed tiles drawing this bucket. Geometry beyond it (the tile's buffer)
// is clipped away, so neighbouring tiles never draw a pixel twice.
uniform vec4 u_tile_clip;
#endif

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
#ifdef CLIP_DISTANCES
  gl_ClipDistance[0] = a_pos.x - u_tile_clip.x;
  gl_ClipDistance[1] = u_tile_clip.z - a_pos.x;
  gl_ClipDistance[2] = a_pos.y - u_tile_clip.y;
  gl_ClipDistance[3] = u_tile_clip.w - a_pos.y;
#endif
#ifdef PATTERN
  #pragma pattern: position a_pos
#endif
}
