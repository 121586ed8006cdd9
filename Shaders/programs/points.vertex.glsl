// Round points of a fixed pixel radius, drawn as instanced screen-aligned quads.
// a_corner: quad corner (−1…1) per vertex; a_position (local frame units) and a_color
// (premultiplied) per instance. u_matrix maps the local frame to clip space; u_pixel_to_clip
// is 2 / (viewport size in pixels).
uniform mat4 u_matrix;
uniform vec2 u_pixel_to_clip;
uniform float u_radius;  // pixels

in vec2 a_corner;
in vec2 a_position;
in vec4 a_color;

out vec2 v_offset;  // pixels from the point's centre
out vec4 v_color;

void main() {
  vec4 clip = u_matrix * vec4(a_position, 0.0, 1.0);
  v_offset = a_corner * (u_radius + 1.0);
  clip.xy += v_offset * u_pixel_to_clip * clip.w;
  gl_Position = clip;
  v_color = a_color;
}
