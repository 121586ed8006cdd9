// An image tile (raster, and hillshade's prepared slopes): the unit square mapped to the
// tile's area; texture coordinates select the part of the image that covers it (a parent's
// quarter when falling back or overzooming).
uniform mat4 u_matrix;
uniform vec4 u_texture_rect;  // x, y offset and width, height scale in the texture

in vec2 a_position;
out vec2 v_position;

void main() {
  v_position = u_texture_rect.xy + a_position * u_texture_rect.zw;
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
}
