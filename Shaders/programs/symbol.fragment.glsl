// SDF: MapLibre's signed-distance glyphs and icons (192/255 on the outline, 255/8 per
// pixel): the fill inside the outline, or the halo out to its width, edges smoothed by a
// gamma of 0.105 px scaled with the size (and blurred by the halo blur). GLYPHS read the
// single-channel glyph atlas, icons the alpha of the RGBA icon atlas. Without SDF, icons are
// their premultiplied pixels times the opacity (NEAREST: read texel for pixel).
//
// Atlas texels are filtered here (bilinear from four fetches) at coordinates measured from
// the image's own corner, so an image samples the same wherever the atlas placed it. A glyph
// never reads outside its own padded box (its edge texels repeat, as a texture of its own
// would clamp): glyphs are packed as labels first need them, so their neighbours differ from
// map to map, and a map that has drawn other labels before must give the same bytes as a fresh
// one. Icons read across their quad's edge (the pieces of a stretched icon meet seamlessly);
// their atlas is packed once per style, the same every time.
uniform sampler2D u_texture;
uniform vec2 u_texsize;
uniform bool u_is_halo;
uniform float u_device_pixel_ratio;

in vec2 v_local;
flat in vec2 v_origin;
flat in vec2 v_size;
in vec4 v_fill;
in vec4 v_halo;
in vec4 v_params;
out vec4 fragColor;

// The image's texel at `cell` (texels from its corner); for glyphs, the nearest texel of the
// glyph's own box.
vec4 imageTexel(ivec2 cell) {
#ifdef GLYPHS
  cell = clamp(cell, ivec2(0), max(ivec2(v_size) - 1, ivec2(0)));
#endif
  return texelFetch(u_texture, clamp(ivec2(v_origin) + cell, ivec2(0), ivec2(u_texsize) - 1), 0);
}

// Bilinear filtering of the image's texels at `local` (texels from its corner).
vec4 sampleAtlas(vec2 local) {
  vec2 position = local - 0.5;
  vec2 cellPosition = floor(position);
  vec2 weight = position - cellPosition;
  ivec2 cell = ivec2(cellPosition);
  vec4 top = mix(imageTexel(cell), imageTexel(cell + ivec2(1, 0)), weight.x);
  vec4 bottom = mix(imageTexel(cell + ivec2(0, 1)), imageTexel(cell + ivec2(1, 1)), weight.x);
  return mix(top, bottom, weight.y);
}

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
  float dist = sampleAtlas(v_local).r;
#else
  float dist = sampleAtlas(v_local).a;
#endif
  float gammaScaled = gamma * v_params.w;
  float alpha = smoothstep(buff - gammaScaled, buff + gammaScaled, dist);
  fragColor = color * alpha;
#else
#ifdef NEAREST
  vec4 texel = imageTexel(ivec2(floor(v_local)));
#else
  vec4 texel = sampleAtlas(v_local);
#endif
  fragColor = texel * v_fill.a;
#endif
}
