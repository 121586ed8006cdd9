// DEPTH_ONLY: the first pass of translucent extrusions writes depth alone, so neither stage
// computes the lit colour.
#ifndef DEPTH_ONLY
in vec4 v_lit_color;
#ifdef PATTERN
#pragma pattern: define
#endif
#endif
out vec4 fragColor;

void main() {
#ifdef DEPTH_ONLY
  fragColor = vec4(0.0);
#elif defined(PATTERN)
  fragColor = patternColor() * v_lit_color;
#else
  fragColor = v_lit_color;
#endif
}
