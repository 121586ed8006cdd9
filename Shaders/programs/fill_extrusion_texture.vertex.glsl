// A full-screen triangle: the passes of a translucent extrusion layer over its own targets and
// the frame, each drawn only where the layer's buildings marked the stencil.
in vec2 a_position;

void main() {
  gl_Position = vec4(a_position, 0.0, 1.0);
}
