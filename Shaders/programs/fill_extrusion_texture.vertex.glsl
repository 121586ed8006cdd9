// A full-screen triangle: the passes of a translucent extrusion layer over its own targets and
// the frame, each drawn only where the layer's buildings marked the stencil. v_position is the
// clip-space position again, passed with the varyings that hillshade also passes, so that
// llvmpipe draws both (and the extrusions) with one triangle-setup function.
in vec2 a_position;
out vec2 v_position;
out float v_image_smooth;  // the extrusion's inputs again, see raster.vertex.glsl
flat out float v_image_flat;

void main() {
  v_position = a_position;
  v_image_smooth = a_position.x + a_position.y;
  v_image_flat = a_position.y;
  gl_Position = vec4(a_position, 0.0, 1.0);
}
