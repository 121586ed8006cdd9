// A ring on the circle's edge, fading over the stroke width on both sides (MapLibre Native's
// collision circles).
in vec2 v_offset;
flat in vec2 v_radius_stroke;
flat in vec4 v_color;

out vec4 fragColor;

void main() {
  float distance_to_edge = abs(length(v_offset) - v_radius_stroke.x);
  fragColor = v_color * smoothstep(-v_radius_stroke.y, 0.0, -distance_to_edge);
}
