uniform sampler2D u_image;  // the style's pattern atlas (premultiplied)
uniform vec2 u_texsize;     // its size, pixels
uniform vec4 u_pattern;     // the image's top-left and bottom-right corners in it, pixels
uniform float u_opacity;

in vec2 v_pattern_pos;
out vec4 fragColor;

void main() {
  vec2 position = mix(u_pattern.xy / u_texsize, u_pattern.zw / u_texsize, mod(v_pattern_pos, 1.0));
  fragColor = texture(u_image, position) * u_opacity;
}
