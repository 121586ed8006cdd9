// Circles as quads around points, in screen space (pitch-alignment viewport) or on the map
// plane (map), scaled with the map's perspective or not (pitch-scale), as MapLibre draws them.
uniform mat4 u_matrix;
uniform bool u_scale_with_map;
uniform bool u_pitch_with_map;
uniform vec2 u_extrude_scale;   // tile units per point (map) or clip units per point (viewport)
uniform float u_camera_to_center_distance;  // points
uniform float u_device_pixel_ratio;

in vec2 a_pos;
in vec2 a_extrude;  // quad corner, ±1

out vec3 v_data;    // extrusion and antialiasing blur (relative to the radius)

#ifdef HAS_ATTR_COLOR
in vec4 a_color_a;
in vec4 a_color_b;
uniform float u_color_t;
out vec4 v_color;
#endif
#ifdef HAS_ATTR_STROKE_COLOR
in vec4 a_stroke_color_a;
in vec4 a_stroke_color_b;
uniform float u_stroke_color_t;
out vec4 v_stroke_color;
#endif
#ifdef HAS_ATTR_RADIUS
in vec2 a_radius;
uniform float u_radius_t;
out float v_radius;
#else
uniform float u_radius;
#endif
#ifdef HAS_ATTR_STROKE_WIDTH
in vec2 a_stroke_width;
uniform float u_stroke_width_t;
out float v_stroke_width;
#else
uniform float u_stroke_width;
#endif
#ifdef HAS_ATTR_BLUR
in vec2 a_blur;
uniform float u_blur_t;
out float v_blur;
#endif
#ifdef HAS_ATTR_OPACITY
in vec2 a_opacity;
uniform float u_opacity_t;
out float v_opacity;
#endif
#ifdef HAS_ATTR_STROKE_OPACITY
in vec2 a_stroke_opacity;
uniform float u_stroke_opacity_t;
out float v_stroke_opacity;
#endif

void main() {
#ifdef HAS_ATTR_COLOR
  v_color = mix(a_color_a, a_color_b, u_color_t);
#endif
#ifdef HAS_ATTR_STROKE_COLOR
  v_stroke_color = mix(a_stroke_color_a, a_stroke_color_b, u_stroke_color_t);
#endif
#ifdef HAS_ATTR_RADIUS
  float radius = mix(a_radius.x, a_radius.y, u_radius_t);
  v_radius = radius;
#else
  float radius = u_radius;
#endif
#ifdef HAS_ATTR_STROKE_WIDTH
  float strokeWidth = mix(a_stroke_width.x, a_stroke_width.y, u_stroke_width_t);
  v_stroke_width = strokeWidth;
#else
  float strokeWidth = u_stroke_width;
#endif
#ifdef HAS_ATTR_BLUR
  v_blur = mix(a_blur.x, a_blur.y, u_blur_t);
#endif
#ifdef HAS_ATTR_OPACITY
  v_opacity = mix(a_opacity.x, a_opacity.y, u_opacity_t);
#endif
#ifdef HAS_ATTR_STROKE_OPACITY
  v_stroke_opacity = mix(a_stroke_opacity.x, a_stroke_opacity.y, u_stroke_opacity_t);
#endif
  vec2 extrude = a_extrude;
  float size = radius + strokeWidth;
  if (u_pitch_with_map) {
    vec2 corner = a_pos;
    if (u_scale_with_map) {
      corner += extrude * size * u_extrude_scale;
    } else {
      vec4 center = u_matrix * vec4(a_pos, 0.0, 1.0);
      corner += extrude * size * u_extrude_scale * (center.w / u_camera_to_center_distance);
    }
    gl_Position = u_matrix * vec4(corner, 0.0, 1.0);
  } else {
    gl_Position = u_matrix * vec4(a_pos, 0.0, 1.0);
    if (u_scale_with_map) {
      gl_Position.xy += extrude * size * u_extrude_scale * u_camera_to_center_distance;
    } else {
      gl_Position.xy += extrude * size * u_extrude_scale * gl_Position.w;
    }
  }
  v_data = vec3(extrude, 1.0 / u_device_pixel_ratio / size);
}
