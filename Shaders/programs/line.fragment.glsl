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

#ifdef GRADIENT
// line-gradient: the colour at the fragment's progress along the whole line (v_linesofar holds
// the progress, 0…1, instead of a distance), from the layer's 256-texel ramp.
uniform sampler2D u_image;
#endif

#ifdef PATTERN
// The image repeats along the line at its own size in points of the integer zoom, centred
// across the line (a line wider than the image shows its edge rows), as MapLibre Native
// draws it.
uniform sampler2D u_image;  // the style's pattern atlas (premultiplied)
uniform vec2 u_texsize;     // its size, pixels
uniform float u_tile_ratio; // points at the integer zoom per tile unit
#ifdef HAS_ATTR_PATTERN
in vec4 v_pattern;
in float v_pattern_ratio;
#else
uniform vec4 u_pattern;
uniform float u_pattern_ratio;
#endif
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
#ifdef PATTERN
#ifdef HAS_ATTR_PATTERN
  vec4 pattern = v_pattern;
  float ratio = v_pattern_ratio;
#else
  vec4 pattern = u_pattern;
  float ratio = u_pattern_ratio;
#endif
  vec2 size = (pattern.zw - pattern.xy) / ratio;  // points
  float repeat = size.x / u_tile_ratio;            // tile units
  float x = repeat > 0.0 ? mod(v_linesofar / repeat, 1.0) : 0.0;
  // Across: points from the centre line, at most half the image's height and a pixel.
  float y = size.y > 0.0 ? 0.5 + v_normal.y * clamp(v_width2.s, 0.0, (size.y + 2.0) / 2.0) / size.y : 0.0;
  vec2 position = mix(pattern.xy / u_texsize, pattern.zw / u_texsize, vec2(x, y));
  fragColor = texture(u_image, position) * (alpha * opacity);
#elif defined(GRADIENT)
  fragColor = texture(u_image, vec2(v_linesofar, 0.5)) * (alpha * opacity);
#else
  fragColor = color * (alpha * opacity);
#endif
}
