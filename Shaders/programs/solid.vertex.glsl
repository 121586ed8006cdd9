// Plain geometry in one colour: positions in a local frame mapped to clip space by u_matrix.
uniform mat4 u_matrix;

in vec2 a_position;

void main() {
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
}
