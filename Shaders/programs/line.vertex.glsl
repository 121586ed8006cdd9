// Lines of any width in screen points, from geometry carrying extrusion vectors (see
// LineTessellator). Widths are extruded in tile units and projected with the tile, so lines
// foreshorten under tilt as MapLibre's do; v_gamma_scale corrects the antialiasing width for
// that foreshortening. Paint values are uniforms or two-zoom attributes (data-driven). PATTERN
// (line-pattern) passes the image's atlas place on when it is per vertex (HAS_ATTR_PATTERN).
uniform mat4 u_matrix;
#ifdef CLIP_DISTANCES
// The area drawn (tile units: min x, min y, max x, max y): the tile's square, or the joint
// square of the overzoomed tiles drawing this bucket. Geometry beyond it (the tile's buffer)
// is clipped away, so neighbouring tiles never draw a pixel twice.
uniform vec4 u_tile_clip;
#endif
uniform float u_ratio;            // points per tile unit
uniform vec2 u_units_to_pixels;   // clip units to points
uniform float u_device_pixel_ratio;

in vec2 a_pos;
in vec2 a_normal;   // x: 1 on round joins and caps; y: side (±1)
in vec2 a_extrude;
in vec2 a_data;     // x: direction (−1, 0, 1); y: distance along the line, tile units

out vec2 v_normal;
out vec2 v_width2;
out float v_gamma_scale;
out float v_linesofar;
#if defined(DASHED) || !(defined(PATTERN) || defined(GRADIENT))
flat out float v_floorwidth;  // DASHED: the width at the integer zoom, points
out vec2 v_tex;               // DASHED: the dash texture's position
#endif
#ifdef DASHED
uniform float u_floorwidth;  // the width at the integer zoom, points (dash lengths are in widths)
uniform vec2 u_patternscale; // periods per tile unit per width; texture rows per side
uniform float u_tex_y;       // the texture row of the line's centre
#endif
#ifdef HAS_ATTR_PATTERN
in vec4 a_pattern;
in float a_pattern_ratio;
out vec4 v_pattern;
out float v_pattern_ratio;
#endif

#pragma paint: define vec4 color
#pragma paint: define float opacity
#pragma paint: define float blur
#pragma paint: define float width
#pragma paint: define float gapwidth
#pragma paint: define float offset

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  #pragma paint: initialize float blur
  #pragma paint: initialize float width
  #pragma paint: initialize float gapwidth
  #pragma paint: initialize float offset
#ifdef HAS_ATTR_PATTERN
  v_pattern = a_pattern;
  v_pattern_ratio = a_pattern_ratio;
#endif
#ifdef DASHED
#ifdef HAS_ATTR_WIDTH
  v_floorwidth = a_width.x;
#else
  v_floorwidth = u_floorwidth;
#endif
#endif
  float antialiasing = 1.0 / u_device_pixel_ratio / 2.0;
  float halfwidth = width / 2.0;
  // The gap is the total space between the two sides of a casing.
  gapwidth = gapwidth / 2.0;
  float inset = gapwidth + (gapwidth > 0.0 ? antialiasing : 0.0);
  float outset = gapwidth + halfwidth * (gapwidth > 0.0 ? 2.0 : 1.0) + (halfwidth == 0.0 ? 0.0 : antialiasing);

  vec2 dist = outset * a_extrude;
  // Offset lines keep their shape at round caps: rotate the offset by the cap direction.
  float u = 0.5 * a_data.x;
  float t = 1.0 - abs(u);
  vec2 shift = -offset * a_extrude * a_normal.y * mat2(t, -u, u, t);

  vec4 projectedExtrude = u_matrix * vec4(dist / u_ratio, 0.0, 0.0);
  gl_Position = u_matrix * vec4(a_pos + shift / u_ratio, 0.0, 1.0) + projectedExtrude;
#ifdef CLIP_DISTANCES
  // Where the extruded vertex lies in tile units: the planes cut the drawn outline itself.
  vec2 extruded = a_pos + (shift + dist) / u_ratio;
#endif
#ifdef CLIP_DISTANCES
  gl_ClipDistance[0] = extruded.x - u_tile_clip.x;
  gl_ClipDistance[1] = u_tile_clip.z - extruded.x;
  gl_ClipDistance[2] = extruded.y - u_tile_clip.y;
  gl_ClipDistance[3] = u_tile_clip.w - extruded.y;
#endif

  float withoutPerspective = length(dist);
  float withPerspective = length(projectedExtrude.xy / gl_Position.w * u_units_to_pixels);
  v_gamma_scale = withPerspective > 0.0 ? withoutPerspective / withPerspective : 1.0;
  v_width2 = vec2(outset, inset);
  v_normal = a_normal;
  v_linesofar = a_data.y;
#ifdef DASHED
  v_tex = vec2(a_data.y * u_patternscale.x / max(v_floorwidth, 1e-6), a_normal.y * u_patternscale.y + u_tex_y);
#elif !(defined(PATTERN) || defined(GRADIENT))
  // Read by solid lines' fragment stage to no effect, so that it reads the dashed one's inputs
  // (see there). Attributes, not constants: the linker would fold constants into the fragment
  // stage and drop the inputs.
  v_floorwidth = a_data.x;
  v_tex = a_extrude;
#endif
}
