// An image tile (raster, and hillshade's prepared slopes): the unit square mapped to the
// tile's area; texture coordinates select the part of the image that covers it (a parent's
// quarter when falling back or overzooming). QUAD draws an image source's picture instead:
// the unit square's corners moved to the picture's four corners in tile units.
uniform mat4 u_matrix;
uniform vec4 u_texture_rect;  // x, y offset and width, height scale in the texture
#ifdef QUAD
uniform vec4 u_quad_top;  // top left (xy) and top right (zw) corners
uniform vec4 u_quad_bottom;  // bottom left (xy) and bottom right (zw) corners
#endif

in vec2 a_position;
out vec2 v_position;

void main() {
#ifdef QUAD
  v_position = a_position;
  vec2 top = mix(u_quad_top.xy, u_quad_top.zw, a_position.x);
  vec2 bottom = mix(u_quad_bottom.xy, u_quad_bottom.zw, a_position.x);
  gl_Position = u_matrix * vec4(mix(top, bottom, a_position.y), 0.0, 1.0);
#else
  v_position = u_texture_rect.xy + a_position * u_texture_rect.zw;
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
#endif
}
