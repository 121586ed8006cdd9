// The density texture over the whole frame (it was drawn with the frame's own clip space).
in vec2 a_position;  // unit square corners
out vec2 v_position;

void main() {
  v_position = a_position;
  gl_Position = vec4(a_position * 2.0 - 1.0, 0.0, 1.0);
}
