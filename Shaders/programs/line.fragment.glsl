// Coverage across the line (antialiased edges, gap for casings) and, with DASHED, along it.
uniform float u_device_pixel_ratio;

in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in float v_linesofar;

#pragma paint: define vec4 color
#pragma paint: define float opacity
#pragma paint: define float blur

#ifdef DASHED
// Dashes are intervals of the pattern in line widths (at the integer zoom), as in the style.
uniform float u_dash_ratio;     // points per tile unit at the tile's own zoom
uniform float u_dash_scale;     // screen points per point at the tile's zoom (2^(zoom − tile zoom))
uniform vec4 u_dash_a;          // up to four dashes as (start, end) pairs
uniform vec4 u_dash_b;
uniform float u_dash_count;     // number of dashes
uniform float u_dash_period;    // pattern length
uniform float u_dash_round;     // 1 for round dash ends
in float v_floorwidth;

/// Signed distance (line widths) from the nearest dash edge, positive inside a dash.
float dashDistance(float position) {
  float best = -1e6;
  int count = int(u_dash_count);
  float across = v_normal.y * 0.5;
  for (int index = 0; index < 4; index++) {
    if (index >= count) break;
    vec2 dash = index < 2 ? (index == 0 ? u_dash_a.xy : u_dash_a.zw) : (index == 2 ? u_dash_b.xy : u_dash_b.zw);
    // The pattern repeats every period: test this dash and its neighbours.
    for (float shift = -1.0; shift <= 1.0; shift += 1.0) {
      float a = dash.x + shift * u_dash_period;
      float b = dash.y + shift * u_dash_period;
      float inside = min(position - a, b - position);
      if (u_dash_round > 0.5) {
        // Round ends: half-width discs centred on the dash's ends.
        float along = max(max(a - position, position - b), 0.0);
        inside = 0.5 - length(vec2(along, across));
      }
      best = max(best, inside);
    }
  }
  return best;
}
#endif

out vec4 fragColor;

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  #pragma paint: initialize float blur
  float dist = length(v_normal) * v_width2.s;
  float blur2 = (blur + 1.0 / u_device_pixel_ratio) * v_gamma_scale;
  float alpha = clamp(min(dist - (v_width2.t - blur2), v_width2.s - dist) / blur2, 0.0, 1.0);
#ifdef DASHED
  float floorwidth = max(v_floorwidth, 1e-6);
  float position = mod(v_linesofar * u_dash_ratio / floorwidth, u_dash_period);
  float edge = dashDistance(position) * floorwidth * u_dash_scale;  // screen points
  // Dash ends fade over one device pixel (of the integer zoom), as MapLibre's dash atlas does.
  alpha *= clamp(edge * u_device_pixel_ratio + 0.5, 0.0, 1.0);
#endif
  fragColor = color * (alpha * opacity);
}
