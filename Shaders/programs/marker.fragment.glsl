// The atlas holds premultiplied colour. EXACT batches are drawn texel for pixel and read each
// texel directly (what linear filtering gives at texel centres, for less work).
uniform sampler2D u_image;
uniform float u_atlas_size;

in vec2 v_texture;
in float v_opacity;
out vec4 fragColor;

void main() {
#ifdef EXACT
  vec4 color = texelFetch(u_image, ivec2(v_texture * u_atlas_size), 0);
#else
  vec4 color = texture(u_image, v_texture);
#endif
  fragColor = color * v_opacity;
}
