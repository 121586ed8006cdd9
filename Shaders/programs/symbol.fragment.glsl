// SDF: MapLibre's signed-distance glyphs and icons (192/255 on the outline, 255/8 per
// pixel): the fill inside the outline, or the halo out to its width, edges smoothed by a
// gamma of 0.105 px scaled with the size (and blurred by the halo blur). GLYPHS read the
// single-channel glyph atlas, icons the alpha of the RGBA icon atlas. Without SDF, icons are
// their premultiplied pixels times the opacity (NEAREST: read texel for pixel).
uniform sampler2D u_texture;
uniform vec2 u_texsize;
uniform bool u_is_halo;
uniform float u_device_pixel_ratio;

in vec2 v_texture;
in vec4 v_fill;
in vec4 v_halo;
in vec4 v_params;
out vec4 fragColor;

void main() {
#ifdef SDF
  float edgeGamma = 0.105 / u_device_pixel_ratio;
  float fontScale = v_params.x;
  vec4 color = v_fill;
  float gamma = edgeGamma / fontScale;
  float buff = (256.0 - 64.0) / 256.0;
  if (u_is_halo) {
    color = v_halo;
    gamma = (v_params.z * 1.19 / 8.0 + edgeGamma) / fontScale;
    buff = (6.0 - v_params.y / fontScale) / 8.0;
  }
#ifdef GLYPHS
  float dist = texture(u_texture, v_texture).r;
#else
  float dist = texture(u_texture, v_texture).a;
#endif
  float gammaScaled = gamma * v_params.w;
  float alpha = smoothstep(buff - gammaScaled, buff + gammaScaled, dist);
  fragColor = color * alpha;
#else
#ifdef NEAREST
  vec4 texel = texelFetch(u_texture, ivec2(floor(v_texture * u_texsize)), 0);
#else
  vec4 texel = texture(u_texture, v_texture);
#endif
  fragColor = texel * v_fill.a;
#endif
}
