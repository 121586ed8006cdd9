in vec2 v_pos;

#pragma paint: define vec4 color
#pragma paint: define float opacity

#ifdef PATTERN
#pragma pattern: define
#endif

out vec4 fragColor;

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  float distance = length(v_pos - gl_FragCoord.xy);
  float coverage = 1.0 - smoothstep(0.0, 1.0, distance);
#ifdef PATTERN
  fragColor = patternColor() * (coverage * opacity);
#else
  fragColor = color * (coverage * opacity);
#endif
}
