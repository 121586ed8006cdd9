// Marker sprites, one instance each. The anchor's world position (0…1, as high and low float
// parts) minus the camera target's gives an exact offset at any zoom. Billboards are quads in
// screen points around the projected anchor, unrotated ones snapped to whole pixels so icons
// stay crisp; FLAT markers are quads on the ground in points at the current zoom (turning with
// the map, foreshortened by tilt). Rotation is clockwise about the anchor.
// Only a_part of the icon is drawn: the bounding box of what markers in front leave visible.
uniform mat4 u_matrix;           // world offsets from the target (points) to clip space
uniform vec2 u_target_high;      // the target in world units, high and low parts
uniform vec2 u_target_low;
uniform float u_world_size;      // points
uniform vec2 u_points_to_clip;   // (2 / width, −2 / height)
uniform vec2 u_viewport_pixels;
uniform float u_scale;           // pixels per point
uniform float u_appear;          // appear animations' progress, 0…1
uniform float u_world_copy;      // the world copy drawn, in world widths from the nearest one

in vec2 a_corner;                // 0…1
in vec4 a_position;              // high.xy, low.xy (world units)
in vec4 a_size_anchor;           // width, height (points), anchor x, y (0…1)
in vec4 a_texture_rect;          // u0, v0, u1, v1
in vec4 a_style;                 // rotation (radians), opacity, animation (0 none, 1 pop, 2 fade)
in vec4 a_part;                  // the part of the icon drawn (0…1: x0, y0, x1, y1)
in vec4 a_pixel;                 // z = 1: the icon's top-left corner is screen pixel (x, y)

out vec2 v_texture;
out float v_opacity;

void main() {
  vec2 offset = (a_position.xy - u_target_high) + (a_position.zw - u_target_low);
  offset.x -= floor(offset.x + 0.5);  // the world copy nearest the target
  offset.x += u_world_copy;           // or another, when the view is wider than the world
  vec2 world = offset * u_world_size;

  float scale = 1.0;
  float opacity = a_style.y;
  if (a_style.z == 1.0) {
    // Pop: grow from the anchor with a small overshoot (ease-out-back).
    float t = u_appear - 1.0;
    scale = max(1.0 + 2.70158 * t * t * t + 1.70158 * t * t, 0.0);
  } else if (a_style.z == 2.0) {
    opacity *= u_appear;
  }
  vec2 corner = mix(a_part.xy, a_part.zw, a_corner);
  vec2 local = (corner - a_size_anchor.zw) * a_size_anchor.xy * scale;
  float c = cos(a_style.x);
  float s = sin(a_style.x);
  local = vec2(local.x * c - local.y * s, local.x * s + local.y * c);

#ifdef FLAT
  gl_Position = u_matrix * vec4(world + local, 0.0, 1.0);
#else
  vec4 anchor = u_matrix * vec4(world, 0.0, 1.0);
  vec2 shift = vec2(0.0);
  if (a_style.x == 0.0 && scale == 1.0) {
    // Put the icon's top-left corner on a pixel corner.
    vec2 topLeft = ((anchor.xy / anchor.w) * 0.5 + 0.5) * u_viewport_pixels
      - a_size_anchor.zw * a_size_anchor.xy * vec2(1.0, -1.0) * u_scale;
    shift = (floor(topLeft + 0.5) - topLeft) / u_viewport_pixels * 2.0;
  }
  gl_Position = anchor + vec4((local * u_points_to_clip + shift) * anchor.w, 0.0, 0.0);
  if (a_pixel.z > 0.5 && u_world_copy == 0.0) {
    // Placed by the CPU (occlusion culling): exactly on the given pixels.
    vec2 pixel = a_pixel.xy + corner * a_size_anchor.xy * u_scale;
    gl_Position = vec4(pixel.x / u_viewport_pixels.x * 2.0 - 1.0, 1.0 - pixel.y / u_viewport_pixels.y * 2.0, 0.0, 1.0);
  }
#endif
  v_texture = mix(a_texture_rect.xy, a_texture_rect.zw, corner);
  v_opacity = opacity;
}
