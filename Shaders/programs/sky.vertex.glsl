// A triangle covering the whole view at the far plane (depth 1), so buildings standing in
// front of the horizon stay visible; the fragment stage works from window coordinates.
in vec2 a_position;

void main() {
  gl_Position = vec4(a_position, 1.0, 1.0);
}
