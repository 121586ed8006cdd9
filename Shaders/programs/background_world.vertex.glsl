// A background colour over one copy of the world: a_position 0…1 over the zoom-0 tile's
// square, mapped to clip space by u_matrix (nothing is drawn past the poles).
uniform mat4 u_matrix;

in vec2 a_position;

void main() {
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
}
