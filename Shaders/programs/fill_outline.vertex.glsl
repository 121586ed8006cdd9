// Polygon outlines drawn as 2-pixel GL lines for antialiased fill edges (fill-antialias):
// coverage falls off with the distance from the line's centre in window pixels. The centre's
// window position is passed as (position·w, w) so that dividing after perspective-correct
// interpolation gives the linear (screen-space) interpolation a tilted view needs.
uniform mat4 u_matrix;
uniform vec2 u_world;  // viewport size in pixels

in vec2 a_pos;
out vec3 v_pos;  // window position × w, and w

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

void main() {
#ifdef HAS_ATTR_COLOR
  v_color = mix(a_color_a, a_color_b, u_color_t);
#endif
#ifdef HAS_ATTR_OPACITY
  v_opacity = mix(a_opacity.x, a_opacity.y, u_opacity_t);
#endif
  gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
  vec2 window = (gl_Position.xy / gl_Position.w + 1.0) / 2.0 * u_world;
  v_pos = vec3(window * gl_Position.w, gl_Position.w);
}
