// DEPTH_ONLY: the first pass of translucent extrusions writes depth alone, so neither stage
// computes the lit colour.
#ifndef DEPTH_ONLY
in vec4 v_lit_color;
#ifdef PATTERN
uniform sampler2D u_image;
uniform vec2 u_texsize;
in vec2 v_pattern_pos;
#ifdef HAS_ATTR_PATTERN
in vec4 v_pattern;
#else
uniform vec4 u_pattern;
#endif
#endif
#endif
out vec4 fragColor;

void main() {
#ifdef DEPTH_ONLY
  fragColor = vec4(0.0);
#elif defined(PATTERN)
#ifdef HAS_ATTR_PATTERN
  vec4 pattern = v_pattern;
#else
  vec4 pattern = u_pattern;
#endif
  vec2 position = mix(pattern.xy / u_texsize, pattern.zw / u_texsize, mod(v_pattern_pos, 1.0));
  fragColor = texture(u_image, position) * v_lit_color;
#else
  fragColor = v_lit_color;
#endif
}
