// MapLibre's hillshade: slope and aspect from the prepared derivatives (bytes of 128 + d · 127.5,
// so that flat ground is exactly 0 and shades to nothing), the slope scaled by the
// exaggeration (u_light.x), shaded between shadow and highlight by how the aspect faces the
// illumination direction, plus the accent on steep slopes. The same formulas rearranged so each
// pixel needs fewer transcendental functions (the results agree to float rounding):
// pow(base, slope) is exp2(slope · log2 base) with the constants from the planner, and the
// triangle wave |mod((aspect + azimuth) / π + 1/2, 2) − 1| is acos(sin(aspect + azimuth)) / π,
// where sin(aspect + azimuth) comes from the derivative's direction without atan. LINEAR_SLOPE
// (exaggeration 0.5, where the curve is the identity) needs no transcendental function for
// the slope at all; SLOPE_TABLE (any other constant exaggeration) looks the curve up.
uniform sampler2D u_image;
#ifdef SLOPE_TABLE
uniform sampler2D u_slope_table;
#endif
uniform vec2 u_latrange;
uniform vec2 u_light;
uniform vec4 u_shadow;
uniform vec4 u_highlight;
uniform vec4 u_accent;
// log2(base) and maxValue / (base^maxValue − 1), maxValue = π/2, base = 1.875 − 1.75 · intensity.
uniform vec2 u_slope_curve;
// cos and sin of the azimuth (the illumination direction + π).
uniform vec2 u_azimuth;

in vec2 v_position;
in float v_image_smooth;  // read to no effect (see raster.vertex.glsl)
flat in float v_image_flat;
out vec4 fragColor;

#define PI 3.141592653589793

void main() {
#ifdef BAKED
  // u_image holds the tile's shading, drawn per texel by this program without BAKED.
  fragColor = texture(u_image, v_position);
#else
  vec4 pixel = texture(u_image, v_position);
  vec2 deriv = (pixel.rg * 255.0 - 128.0) / 127.5;
  float scaleFactor = cos(radians((u_latrange[0] - u_latrange[1]) * (1.0 - v_position.y) + u_latrange[1]));
  float magnitude = length(deriv);
  float intensity = u_light.x;
#ifdef LINEAR_SLOPE
  // Exaggeration 0.5: the slope curve is the identity, and sin and cos of atan(t) are
  // t / sqrt(1 + t²) and 1 / sqrt(1 + t²).
  float tangent = 1.25 * magnitude / scaleFactor;
  float cosSlope = inversesqrt(1.0 + tangent * tangent);
  float sinSlope = tangent * cosSlope;
#elif defined(SLOPE_TABLE)
  // A constant exaggeration: sin and 1 − cos of the curved slope from the layer's table, as
  // 16-bit fixed point (high and low bytes) at u = t / (1 + t), interpolated between entries.
  float tangent = 1.25 * magnitude / scaleFactor;
  float position = tangent / (1.0 + tangent) * 1023.0;
  int index = min(int(position), 1022);
  vec4 entry = mix(
    texelFetch(u_slope_table, ivec2(index, 0), 0), texelFetch(u_slope_table, ivec2(index + 1, 0), 0),
    position - float(index));
  float sinSlope = dot(entry.rg, vec2(65280.0, 255.0)) / 65535.0;
  float cosSlope = 1.0 - dot(entry.ba, vec2(65280.0, 255.0)) / 65535.0;
#else
  float slope = atan(1.25 * magnitude / scaleFactor);
  float scaledSlope = (exp2(slope * u_slope_curve.x) - 1.0) * u_slope_curve.y;
  float cosSlope = cos(scaledSlope);
  float sinSlope = sin(scaledSlope);
#endif
  // aspect = atan(deriv.y, -deriv.x), and -π/2 where the ground is flat.
  vec2 aspect = magnitude > 0.0 ? vec2(-deriv.x, deriv.y) / magnitude : vec2(0.0, -1.0);
  float facing = clamp(aspect.y * u_azimuth.x + aspect.x * u_azimuth.y, -1.0, 1.0);
  float shade = acos(facing) / PI;
  float strength = clamp(intensity * 2.0, 0.0, 1.0);
  vec4 accentColor = (1.0 - cosSlope) * u_accent * strength;
  vec4 shadeColor = mix(u_shadow, u_highlight, shade) * sinSlope * strength;
  fragColor = accentColor * (1.0 - shadeColor.a) + shadeColor;
#endif
  // Never true (the corners are within ±1), but the compiler must keep both inputs.
  fragColor = v_image_smooth + v_image_flat == -1.0e38 ? vec4(0.5) : fragColor;
}
