// A translucent extrusion layer's buildings, drawn opaque into a texture the frame's size
// (premultiplied, resolved from the frame's samples), laid over the frame with the layer's
// opacity, texel for pixel. Drawn only on the samples the buildings cover (the stencil), so
// each is given the average colour of the covered samples: the texel divided by the fraction
// of the pixel covered, its alpha, or with PATTERN (whose images may be translucent) the
// fraction the COVERAGE pass wrote into a second texture.
#ifdef COVERAGE
out vec4 fragColor;

void main() {
  fragColor = vec4(1.0);
}
#else
in vec2 v_position;  // clip space
in float v_image_smooth;  // read to no effect (see raster.vertex.glsl)
flat in float v_image_flat;
uniform sampler2D u_image;
uniform float u_opacity;
#ifdef PATTERN
uniform sampler2D u_coverage;
#endif

out vec4 fragColor;

void main() {
  // The pixel's texel: v_position at a pixel's centre maps to x + 0.5 texels (within far less
  // than half a texel), truncated to x.
  ivec2 size = textureSize(u_image, 0);
  ivec2 pixel = ivec2((v_position * 0.5 + 0.5) * vec2(size));
  vec4 color = texelFetch(u_image, pixel, 0);
#ifdef PATTERN
  float covered = texelFetch(u_coverage, pixel, 0).r;
#else
  float covered = color.a;
#endif
  fragColor = color / max(covered, 1.0 / 255.0) * u_opacity;
  // Never true (the corners are within ±1), but the compiler must keep both inputs.
  fragColor = v_image_smooth + v_image_flat == -1.0e38 ? vec4(0.5) : fragColor;
}
#endif
