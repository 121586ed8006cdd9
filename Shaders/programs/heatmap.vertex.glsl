// A point's Gaussian kernel as MapLibre draws it: a quad around the point, large enough that
// the kernel (weight × intensity × N(0, 1/3 of the radius)) falls below 1/4080 at its edge.
uniform mat4 u_matrix;
uniform float u_extrude_scale;  // mesh units per point
uniform float u_intensity;

in vec2 a_pos;
in vec2 a_extrude;  // quad corner, ±1

out vec2 v_extrude;  // in radii

#pragma paint: define float weight
#pragma paint: define float radius

// The kernel value taken as zero, and 1 / sqrt(2π).
const highp float ZERO = 1.0 / 255.0 / 16.0;
const highp float GAUSS_COEF = 0.3989422804014327;

void main() {
  #pragma paint: initialize float weight
  #pragma paint: initialize float radius
  float reach = sqrt(-2.0 * log(ZERO / weight / u_intensity / GAUSS_COEF)) / 3.0;
  v_extrude = reach * a_extrude;
  vec2 extrude = v_extrude * radius * u_extrude_scale;
  gl_Position = u_matrix * vec4(a_pos + extrude, 0.0, 1.0);
}
