// Coverage across the line (antialiased edges, gap for casings) and, with DASHED, along it.
uniform float u_device_pixel_ratio;

in vec2 v_normal;
in vec2 v_width2;
in float v_gamma_scale;
in float v_linesofar;

#pragma paint: define vec4 color
#pragma paint: define float opacity
#pragma paint: define float blur

// Dashed lines read v_floorwidth and v_tex; plain solid lines read them as well, to no effect
// (below), so both read the same fragment inputs and llvmpipe sets up their triangles with one
// generated function, not two (the first draw with each distinct set of inputs costs 3–5 ms of
// LLVM code generation). The floor width is flat: it is the same at every vertex of a line.
#if defined(DASHED) || !(defined(PATTERN) || defined(GRADIENT))
flat in float v_floorwidth;
in vec2 v_tex;
#endif
#ifdef DASHED
// Dashes from the pattern's signed-distance texture (LineDashes), repeated along the line.
uniform sampler2D u_image;
uniform float u_sdfgamma;  // the edge's smoothing, distance units per line width
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
  float distance = texture(u_image, v_tex).a;
  alpha *= smoothstep(0.5 - u_sdfgamma / floorwidth, 0.5 + u_sdfgamma / floorwidth, distance);
#elif !(defined(PATTERN) || defined(GRADIENT))
  // Never true: solid lines pass the direction (−1, 0 or 1) and the extrusion vector (finite,
  // as long as the miter limit allows), so alpha stays as it is; the compiler cannot know that
  // and keeps the inputs.
  alpha = v_floorwidth + v_tex.x + v_tex.y == -1.0e38 ? 0.5 : alpha;
#endif
#if defined(PAINT_VARYINGS) && !(defined(PATTERN) || defined(GRADIENT))
  // Never true either (window positions are not negative): solid and dashed lines read the
  // fragment's position as fill outlines do, which then share their triangle set-up.
  alpha = gl_FragCoord.x + gl_FragCoord.y == -1.0e38 ? 0.5 : alpha;
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
