// A triangle covering the whole view; the fragment stage works from window coordinates.
in vec2 a_position;

void main() {
  gl_Position = vec4(a_position, 0.0, 1.0);
}
