uniform vec4 u_color;  // premultiplied
uniform float u_opacity;

out vec4 fragColor;

void main() {
  fragColor = u_color * u_opacity;
}
