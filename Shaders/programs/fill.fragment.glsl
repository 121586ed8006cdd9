#pragma paint: define vec4 color
#pragma paint: define float opacity

#ifdef PATTERN
#pragma pattern: define
#endif

out vec4 fragColor;

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
#ifdef PATTERN
  fragColor = patternColor() * opacity;
#else
  fragColor = color * opacity;
#endif
}
