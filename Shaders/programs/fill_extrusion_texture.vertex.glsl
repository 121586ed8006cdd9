// A full-screen triangle: the passes of a translucent extrusion layer over its own targets and
// the frame, each drawn only where the layer's buildings marked the stencil. v_position is the
// clip-space position again, passed as the one smooth vec2 that image tiles and hillshade also
// pass, so that llvmpipe draws all of them with one triangle-setup function.
in vec2 a_position;
out vec2 v_position;

void main() {
  v_position = a_position;
  gl_Position = vec4(a_position, 0.0, 1.0);
}
