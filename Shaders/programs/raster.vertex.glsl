// An image tile (raster, and hillshade's prepared slopes): the unit square mapped to the
// tile's area; texture coordinates select the part of the image that covers it (a parent's
// quarter when falling back or overzooming). QUAD draws an image source's picture instead:
// the unit square's corners moved to the picture's four corners in tile units. RECTS draws
// one instance of the unit square per rectangle of the tile (a_rect: min x, min y, max x, max y
// in the unit square), so that parts of a tile that draw nothing can be left out; corners are
// chosen, not interpolated, so that rectangles sharing an edge share its vertices exactly.
uniform mat4 u_matrix;
uniform vec4 u_texture_rect;  // x, y offset and width, height scale in the texture
#ifdef QUAD
uniform vec4 u_quad_top;  // top left (xy) and top right (zw) corners
uniform vec4 u_quad_bottom;  // bottom left (xy) and bottom right (zw) corners
#endif

in vec2 a_position;
#ifdef RECTS
in vec4 a_rect;
#endif
out vec2 v_position;
// Nothing the image needs: hillshade reads them to no effect, so that with v_position its
// fragment stage has the inputs of a lit extrusion (three smooth components and a flat one,
// fill_extrusion.vertex.glsl) and llvmpipe draws both with one triangle-setup function. Image
// tiles leave them unread (the linker drops them): a raster-only map would pay for the reads
// on every pixel and gain nothing. Each holds a value no other output holds (Mesa's linker
// merges equal outputs) and that the compiler cannot fold.
out float v_image_smooth;
flat out float v_image_flat;

void main() {
  v_image_smooth = a_position.x + a_position.y;
  v_image_flat = a_position.y;
#ifdef QUAD
  v_position = a_position;
  vec2 top = mix(u_quad_top.xy, u_quad_top.zw, a_position.x);
  vec2 bottom = mix(u_quad_bottom.xy, u_quad_bottom.zw, a_position.x);
  gl_Position = u_matrix * vec4(mix(top, bottom, a_position.y), 0.0, 1.0);
#elif defined(RECTS)
  vec2 corner = vec2(a_position.x < 0.5 ? a_rect.x : a_rect.z, a_position.y < 0.5 ? a_rect.y : a_rect.w);
  v_position = u_texture_rect.xy + corner * u_texture_rect.zw;
  gl_Position = u_matrix * vec4(corner, 0.0, 1.0);
#else
  v_position = u_texture_rect.xy + a_position * u_texture_rect.zw;
  gl_Position = u_matrix * vec4(a_position, 0.0, 1.0);
#endif
}
