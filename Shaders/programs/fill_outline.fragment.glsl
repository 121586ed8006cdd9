in vec2 v_pos;

#pragma paint: define vec4 color
#pragma paint: define float opacity

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

out vec4 fragColor;

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  float distance = length(v_pos - gl_FragCoord.xy);
  float coverage = 1.0 - smoothstep(0.0, 1.0, distance);
#ifdef PATTERN
#ifdef HAS_ATTR_PATTERN
  vec4 pattern = v_pattern;
#else
  vec4 pattern = u_pattern;
#endif
  vec2 position = mix(pattern.xy / u_texsize, pattern.zw / u_texsize, mod(v_pattern_pos, 1.0));
  fragColor = texture(u_image, position) * (coverage * opacity);
#else
  fragColor = color * (coverage * opacity);
#endif
}
