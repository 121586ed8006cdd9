in vec4 v_lit_color;
#ifdef PATTERN
#pragma pattern: define
#endif
out vec4 fragColor;

void main() {
#ifdef PATTERN
  fragColor = patternColor() * v_lit_color;
#else
  fragColor = v_lit_color;
#endif
}
