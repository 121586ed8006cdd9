// Collision debug circles of labels along lines, one instance per circle, as MapLibre Native
// draws them: a quad 1.2 times the circle's radius around its centre (screen points).
uniform vec2 u_viewport;         // frame size, points

in vec2 a_corner;                // 0…1 (x right, y down)
in vec4 a_circle;                // centre x, y (points), radius (points), stroke width (points)
in vec4 a_color;                 // premultiplied

out vec2 v_offset;               // points from the centre
flat out vec2 v_radius_stroke;
flat out vec4 v_color;

void main() {
  float extent = a_circle.z * 1.2;
  v_offset = (a_corner * 2.0 - 1.0) * extent;
  vec2 point = a_circle.xy + v_offset;
  gl_Position = vec4(point.x / u_viewport.x * 2.0 - 1.0, 1.0 - point.y / u_viewport.y * 2.0, 0.0, 1.0);
  v_radius_stroke = a_circle.zw;
  v_color = a_color;
}
