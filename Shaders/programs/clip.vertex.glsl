// A tile's area (unit square mapped by u_matrix), drawn into the stencil buffer only.
uniform mat4 u_matrix;

in vec2 a_position;

void main() {
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
}
