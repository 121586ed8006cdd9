// Densities coloured through the heatmap's colour ramp (premultiplied), times its opacity.
uniform sampler2D u_image;
uniform sampler2D u_color_ramp;
uniform float u_opacity;

in vec2 v_position;
in float v_image_smooth;  // read to no effect (see raster.vertex.glsl)
flat in float v_image_flat;
out vec4 fragColor;

void main() {
  float density = texture(u_image, v_position).r;
  fragColor = texture(u_color_ramp, vec2(density, 0.5)) * u_opacity;
  // Never true (the corners are within ±1), but the compiler must keep both inputs.
  fragColor = v_image_smooth + v_image_flat == -1.0e38 ? vec4(0.5) : fragColor;
}
