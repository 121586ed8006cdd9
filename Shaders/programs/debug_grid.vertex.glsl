// The debug tile grid: one tile's square (a_inner = 0 everywhere) or its border ring (a_inner
// = 1 on the inner edge). Positions are in tile units (0..1); u_matrix maps a tile to clip
// space; u_inset is the ring's width in tile units.
uniform mat4 u_matrix;
uniform float u_inset;

in vec2 a_position;
in float a_inner;

void main() {
  vec2 towardCentre = vec2(1.0) - 2.0 * a_position;
  vec2 position = a_position + a_inner * towardCentre * u_inset;
  gl_Position = u_matrix * vec4(position, 0.0, 1.0);
}
