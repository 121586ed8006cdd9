#pragma paint: define vec4 color
#pragma paint: define float opacity

out vec4 fragColor;

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float opacity
  fragColor = color * opacity;
}
