// Glyphs and icons of symbol layers, one instance per quad. Placement runs on the CPU (it
// needs every label of the frame for collisions), so each instance carries its four corners
// already in clip space: quads facing the screen and quads lying on the map alike, drawn
// with perspective-correct texture coordinates.
uniform vec2 u_texsize;          // atlas size, texels

in vec2 a_corner;                // 0…1 (x right, y down)
in vec4 a_top_left;              // clip-space corners
in vec4 a_top_right;
in vec4 a_bottom_left;
in vec4 a_bottom_right;
in vec4 a_texture_rect;          // x0, y0, x1, y1 in texels
in vec4 a_fill;                  // premultiplied, opacity applied
in vec4 a_halo;                  // premultiplied, opacity applied
in vec4 a_params;                // font scale, halo width (px), halo blur (px), gamma scale

out vec2 v_local;                // texels from the image's top-left corner
flat out vec2 v_origin;          // the image's top-left corner in the atlas, texels
flat out vec2 v_size;            // the image's size in the atlas (with its padding), texels
out vec4 v_fill;
out vec4 v_halo;
out vec4 v_params;

void main() {
  vec4 top = mix(a_top_left, a_top_right, a_corner.x);
  vec4 bottom = mix(a_bottom_left, a_bottom_right, a_corner.x);
  gl_Position = mix(top, bottom, a_corner.y);
  v_local = (a_texture_rect.zw - a_texture_rect.xy) * a_corner;
  v_origin = a_texture_rect.xy;
  v_size = a_texture_rect.zw - a_texture_rect.xy;
  v_fill = a_fill;
  v_halo = a_halo;
  v_params = a_params;
}
