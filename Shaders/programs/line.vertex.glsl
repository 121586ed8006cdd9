// Lines of any width in screen points, from geometry carrying extrusion vectors (see
// LineTessellator). Widths are extruded in tile units and projected with the tile, so lines
// foreshorten under tilt as MapLibre's do; v_gamma_scale corrects the antialiasing width for
// that foreshortening. Paint values are uniforms or two-zoom attributes (data-driven).
uniform mat4 u_matrix;
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
#ifdef DASHED
uniform float u_floorwidth;  // the width at the integer zoom, points (dash lengths are in widths)
out float v_floorwidth;
#endif

#ifdef HAS_ATTR_COLOR
in vec4 a_color_a;
in vec4 a_color_b;
uniform float u_color_t;
out vec4 v_color;
#endif
#ifdef HAS_ATTR_OPACITY
in vec2 a_opacity;
uniform float u_opacity_t;
out float v_opacity;
#endif
#ifdef HAS_ATTR_BLUR
in vec2 a_blur;
uniform float u_blur_t;
out float v_blur;
#endif
#ifdef HAS_ATTR_WIDTH
in vec2 a_width;
uniform float u_width_t;
#else
uniform float u_width;
#endif
#ifdef HAS_ATTR_GAPWIDTH
in vec2 a_gapwidth;
uniform float u_gapwidth_t;
#else
uniform float u_gapwidth;
#endif
#ifdef HAS_ATTR_OFFSET
in vec2 a_offset;
uniform float u_offset_t;
#else
uniform float u_offset;
#endif

void main() {
#ifdef HAS_ATTR_COLOR
  v_color = mix(a_color_a, a_color_b, u_color_t);
#endif
#ifdef HAS_ATTR_OPACITY
  v_opacity = mix(a_opacity.x, a_opacity.y, u_opacity_t);
#endif
#ifdef HAS_ATTR_BLUR
  v_blur = mix(a_blur.x, a_blur.y, u_blur_t);
#endif
#ifdef HAS_ATTR_WIDTH
  float width = mix(a_width.x, a_width.y, u_width_t);
#else
  float width = u_width;
#endif
#ifdef HAS_ATTR_GAPWIDTH
  float gapwidth = mix(a_gapwidth.x, a_gapwidth.y, u_gapwidth_t);
#else
  float gapwidth = u_gapwidth;
#endif
#ifdef HAS_ATTR_OFFSET
  float offset = mix(a_offset.x, a_offset.y, u_offset_t);
#else
  float offset = u_offset;
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

  float withoutPerspective = length(dist);
  float withPerspective = length(projectedExtrude.xy / gl_Position.w * u_units_to_pixels);
  v_gamma_scale = withPerspective > 0.0 ? withoutPerspective / withPerspective : 1.0;
  v_width2 = vec2(outset, inset);
  v_normal = a_normal;
  v_linesofar = a_data.y;
}
