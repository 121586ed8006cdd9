in vec3 v_data;

#pragma paint: define vec4 color
#pragma paint: define vec4 stroke_color
#pragma paint: define float radius
#pragma paint: define float stroke_width
#pragma paint: define float blur
#pragma paint: define float opacity
#pragma paint: define float stroke_opacity

out vec4 fragColor;

/// smoothstep written out, so reversed edges are well defined.
float ramp(float edge0, float edge1, float x) {
  float t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize vec4 stroke_color
  #pragma paint: initialize float radius
  #pragma paint: initialize float stroke_width
  #pragma paint: initialize float blur
  #pragma paint: initialize float opacity
  #pragma paint: initialize float stroke_opacity
  float extrudeLength = length(v_data.xy);
  float antialiasedBlur = -max(blur, v_data.z);
  float opacityT = ramp(0.0, antialiasedBlur, extrudeLength - 1.0);
  float colorT = stroke_width < 0.01 ? 0.0 : ramp(antialiasedBlur, 0.0, extrudeLength - radius / (radius + stroke_width));
  fragColor = opacityT * mix(color * opacity, stroke_color * stroke_opacity, colorT);
}
