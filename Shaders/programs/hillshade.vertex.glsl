// A hillshade tile: the unit square over the tile; the texture holds the prepared slopes and
// u_texture_rect selects the part covering the tile (an ancestor's quarter when falling back).
uniform mat4 u_matrix;
uniform vec4 u_texture_rect;  // x, y offset and width, height scale in the texture

in vec2 a_position;
out vec2 v_position;

void main() {
  v_position = u_texture_rect.xy + a_position * u_texture_rect.zw;
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
}
