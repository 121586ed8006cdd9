// Densities coloured through the heatmap's colour ramp (premultiplied), times its opacity.
uniform sampler2D u_image;
uniform sampler2D u_color_ramp;
uniform float u_opacity;

in vec2 v_position;
out vec4 fragColor;

void main() {
  float density = texture(u_image, v_position).r;
  fragColor = texture(u_color_ramp, vec2(density, 0.5)) * u_opacity;
}
