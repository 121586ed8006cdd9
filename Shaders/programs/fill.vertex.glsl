// Filled polygons (triangles in tile units). Colour and opacity are uniforms, or per-vertex
// attributes holding values at two zooms (a, b) mixed by u_*_t for data-driven properties.
uniform mat4 u_matrix;

in vec2 a_pos;

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
}
