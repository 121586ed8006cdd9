// Shading from slope and aspect as MapLibre computes it. The texture holds the terrain's
// derivatives (x in red, y in green, each as d/2 + 0.5); u_latrange corrects for Mercator
// scale across the tile; u_light is (exaggeration, azimuth in radians).
uniform sampler2D u_image;
uniform vec2 u_latrange;
uniform vec2 u_light;
uniform vec4 u_shadow;
uniform vec4 u_highlight;
uniform vec4 u_accent;

in vec2 v_position;
out vec4 fragColor;

#define PI 3.141592653589793

void main() {
  vec4 pixel = texture(u_image, v_position);
  vec2 deriv = pixel.rg * 2.0 - 1.0;
  float scaleFactor = cos(radians((u_latrange[0] - u_latrange[1]) * (1.0 - v_position.y) + u_latrange[1]));
  float slope = atan(1.25 * length(deriv) / scaleFactor);
  float aspect = deriv.x != 0.0 ? atan(deriv.y, -deriv.x) : PI / 2.0 * (deriv.y > 0.0 ? 1.0 : -1.0);
  float intensity = u_light.x;
  float azimuth = u_light.y + PI;
  float base = 1.875 - intensity * 1.75;
  float maxValue = 0.5 * PI;
  float scaledSlope = intensity != 0.5 ? ((pow(base, slope) - 1.0) / (pow(base, maxValue) - 1.0)) * maxValue : slope;
  float accent = cos(scaledSlope);
  vec4 accentColor = (1.0 - accent) * u_accent * clamp(intensity * 2.0, 0.0, 1.0);
  float shade = abs(mod((aspect + azimuth) / PI + 0.5, 2.0) - 1.0);
  vec4 shadeColor = mix(u_shadow, u_highlight, shade) * sin(scaledSlope) * clamp(intensity * 2.0, 0.0, 1.0);
  fragColor = accentColor * (1.0 - shadeColor.a) + shadeColor;
}
