// Coverage of a disk of radius u_radius pixels, antialiased over one pixel.
uniform float u_radius;

in vec2 v_offset;
in vec4 v_color;

out vec4 fragColor;

void main() {
  float coverage = clamp(u_radius + 0.5 - length(v_offset), 0.0, 1.0);
  fragColor = v_color * coverage;
}
