// Raster paint as MapLibre applies it: hue rotation, saturation, contrast, then brightness
// remapping between u_brightness_low and u_brightness_high, then opacity. The texture holds
// premultiplied colour; NEAREST samples the nearest texel (raster-resampling); PLAIN is
// the default paint, drawn without that arithmetic.
uniform sampler2D u_image;
uniform float u_opacity;
uniform float u_brightness_low;
uniform float u_brightness_high;
uniform float u_saturation_factor;
uniform float u_contrast_factor;
uniform vec3 u_spin_weights;

in vec2 v_position;
out vec4 fragColor;

void main() {
#ifdef NEAREST
  ivec2 size = textureSize(u_image, 0);
  ivec2 texel = clamp(ivec2(floor(v_position * vec2(size))), ivec2(0), size - 1);
  vec4 color = texelFetch(u_image, texel, 0);
#else
  vec4 color = texture(u_image, v_position);
#endif
#ifdef PLAIN
  // Default paint: the arithmetic below would give the texel back unchanged.
  fragColor = color * u_opacity;
#else
  if (color.a > 0.0) color.rgb /= color.a;
  vec3 rgb = color.rgb;
  rgb = vec3(dot(rgb, u_spin_weights.xyz), dot(rgb, u_spin_weights.zxy), dot(rgb, u_spin_weights.yzx));
  float average = (color.r + color.g + color.b) / 3.0;
  rgb += (average - rgb) * u_saturation_factor;
  rgb = (rgb - 0.5) * u_contrast_factor + 0.5;
  vec3 high = vec3(u_brightness_low);
  vec3 low = vec3(u_brightness_high);
  fragColor = vec4(mix(high, low, rgb) * color.a, color.a) * u_opacity;
#endif
}
