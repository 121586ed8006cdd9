// The density texture over the whole frame (it was drawn with the frame's own clip space).
in vec2 a_position;  // unit square corners
out vec2 v_position;
out float v_image_smooth;  // the extrusion's inputs again, see raster.vertex.glsl
flat out float v_image_flat;

void main() {
  v_position = a_position;
  v_image_smooth = a_position.x + a_position.y;
  v_image_flat = a_position.y;
  gl_Position = vec4(a_position * 2.0 - 1.0, 0.0, 1.0);
}
