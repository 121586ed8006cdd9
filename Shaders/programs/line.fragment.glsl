// Coverage across the line (antialiased edges, gap for casings) and, with DASHED, along it.
uniform float u_device_pixel_ratio;

in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in float v_linesofar;

#ifdef HAS_ATTR_COLOR
in vec4 v_color;
#else
uniform vec4 u_color;
#endif
#ifdef HAS_ATTR_OPACITY
in float v_opacity;
#else
uniform float u_opacity;
#endif
#ifdef HAS_ATTR_BLUR
in float v_blur;
#else
uniform float u_blur;
#endif

#ifdef DASHED
uniform float u_ratio;          // points per tile unit
uniform vec4 u_dash_a;          // dash and gap lengths, points, up to 8
uniform vec4 u_dash_b;
uniform float u_dash_count;
uniform float u_dash_period;    // sum of the lengths, points
uniform float u_dash_round;     // 1 for round dash ends
uniform float u_half_width;     // points

float dashLength(int index) {
  return index < 4 ? u_dash_a[index] : u_dash_b[index - 4];
}

/// Signed distance (points) from the nearest dash edge, positive inside a dash.
float dashDistance(float position) {
  float start = 0.0;
  float best = -1e6;
  int count = int(u_dash_count);
  for (int index = 0; index < 8; index += 2) {
    if (index >= count) break;
    float end = start + dashLength(index);
    float gap = index + 1 < count ? dashLength(index + 1) : 0.0;
    // The dash repeats every period: test it and its neighbours.
    for (float shift = -1.0; shift <= 1.0; shift += 1.0) {
      float a = start + shift * u_dash_period;
      float b = end + shift * u_dash_period;
      float inside = min(position - a, b - position);
      if (u_dash_round > 0.5) {
        // Round ends: the dash grows by a half-width disc at each end.
        float along = max(max(a - position, position - b), 0.0);
        float across = v_normal.y * u_half_width;
        inside = u_half_width - length(vec2(along, across));
        if (position >= a && position <= b) inside = max(inside, min(position - a, b - position) + u_half_width - abs(across));
      }
      best = max(best, inside);
    }
    start = end + gap;
  }
  return best;
}
#endif

out vec4 fragColor;

void main() {
#ifdef HAS_ATTR_COLOR
  vec4 color = v_color;
#else
  vec4 color = u_color;
#endif
#ifdef HAS_ATTR_OPACITY
  float opacity = v_opacity;
#else
  float opacity = u_opacity;
#endif
#ifdef HAS_ATTR_BLUR
  float blur = v_blur;
#else
  float blur = u_blur;
#endif
  float dist = length(v_normal) * v_width2.s;
  float blur2 = (blur + 1.0 / u_device_pixel_ratio) * v_gamma_scale;
  float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
#ifdef DASHED
  float position = mod(v_linesofar * u_ratio, u_dash_period);
  float edge = dashDistance(position);
  alpha *= clamp(edge * u_device_pixel_ratio / max(v_gamma_scale, 0.0001) + 0.5, 0.0, 1.0);
#endif
  fragColor = color * (alpha * opacity);
}
