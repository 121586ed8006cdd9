in vec2 v_pos;
#if defined(PAINT_VARYINGS) && !defined(PATTERN)
// Inputs of the lines' types and interpolations (two vec2 and a float smooth, two floats flat
// beside the paint), read to no effect: outlines and lines then read the same fragment inputs
// and llvmpipe sets up their triangles with one generated function (3–5 ms of LLVM code
// generation at the first draw of each distinct set).
in vec2 v_unread_a;
in vec2 v_unread_b;
in float v_unread_c;
flat in float v_unread_d;
flat in float v_unread_e;
#endif

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
#if defined(PAINT_VARYINGS) && !defined(PATTERN)
  // Never true: the inputs are tile coordinates times small factors, finite; the compiler
  // cannot know that and keeps them.
  float unread = v_unread_a.x + v_unread_a.y + v_unread_b.x + v_unread_b.y + v_unread_c + v_unread_d + v_unread_e;
  coverage = unread == -1.0e38 ? 0.5 : coverage;
#endif
#ifdef PATTERN
  fragColor = patternColor() * (coverage * opacity);
#else
  fragColor = color * (coverage * opacity);
#endif
}
