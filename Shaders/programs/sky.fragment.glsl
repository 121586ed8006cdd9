// Sky above the horizon and fog over distant ground, computed per row from the camera model
// (CAMERA.md): a screen row y (points) looks at ground depth zc = D − v·sinθ with
// v = b·D / (cosθ + b·sinθ), b = (y − cy) / D; rows with cosθ + b·sinθ ≤ 0 look above the
// horizon. Colours are premultiplied.
uniform float u_viewport_height;  // pixels
uniform float u_scale;            // pixels per point
uniform float u_center_y;         // padded centre, points
uniform float u_distance;         // camera distance D, points
uniform float u_sin_tilt;
uniform float u_cos_tilt;
uniform float u_horizon_y;        // horizon row, points
uniform float u_fog_start;        // ground depth where fog begins, points
uniform float u_fog_end;          // ground depth where fog is complete, points
uniform float u_haze;             // height of the haze band below the horizon, points
uniform vec4 u_sky_color;
uniform vec4 u_fog_color;

out vec4 fragColor;

void main() {
  float y = (u_viewport_height - gl_FragCoord.y) / u_scale;
  float b = (y - u_center_y) / u_distance;
  float denominator = u_cos_tilt + b * u_sin_tilt;
  if (denominator <= 0.0) {
    // Above the horizon: the fog colour at the horizon fading to the sky colour higher up.
    float height = clamp((u_horizon_y - y) / (0.35 * u_distance), 0.0, 1.0);
    fragColor = mix(u_fog_color, u_sky_color, sqrt(height));
    return;
  }
  float v = b * u_distance / denominator;
  float depth = u_distance - v * u_sin_tilt;
  float fog = smoothstep(u_fog_start, u_fog_end, depth);
  // Haze: ground within u_haze rows below the horizon fades into the fog colour too.
  float haze = 1.0 - smoothstep(0.0, u_haze, y - u_horizon_y);
  fragColor = u_fog_color * max(fog, haze);
}
