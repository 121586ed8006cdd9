// A hillshade tile: the unit square over the tile; the texture holds the prepared slopes.
uniform mat4 u_matrix;

in vec2 a_position;
out vec2 v_position;

void main() {
  v_position = a_position;
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
}
