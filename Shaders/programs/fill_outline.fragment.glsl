in vec2 v_pos;

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
  float distance = length(v_pos - gl_FragCoord.xy);
  float coverage = 1.0 - smoothstep(0.0, 1.0, distance);
  fragColor = color * (coverage * opacity);
}
