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

#pragma paint: define vec4 color
#pragma paint: define vec4 stroke_color
#pragma paint: define float radius
#pragma paint: define float stroke_width
#pragma paint: define float blur
#pragma paint: define float opacity
#pragma paint: define float stroke_opacity

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize vec4 stroke_color
  #pragma paint: initialize float radius
  #pragma paint: initialize float stroke_width
  #pragma paint: initialize float blur
  #pragma paint: initialize float opacity
  #pragma paint: initialize float stroke_opacity
  vec2 extrude = a_extrude;
  float size = radius + stroke_width;
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
