// The kernel density of one point, added (additive blending) into the red channel.
uniform highp float u_intensity;

in vec2 v_extrude;
out vec4 fragColor;

#pragma paint: define float weight

const highp float GAUSS_COEF = 0.3989422804014327;

void main() {
  #pragma paint: initialize float weight
  float d = -0.5 * 3.0 * 3.0 * dot(v_extrude, v_extrude);
  float value = weight * u_intensity * GAUSS_COEF * exp(d);
  fragColor = vec4(value, 1.0, 1.0, 1.0);
}
