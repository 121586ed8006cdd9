in vec3 v_data;

#ifdef HAS_ATTR_COLOR
in vec4 v_color;
#else
uniform vec4 u_color;
#endif
#ifdef HAS_ATTR_STROKE_COLOR
in vec4 v_stroke_color;
#else
uniform vec4 u_stroke_color;
#endif
#ifdef HAS_ATTR_RADIUS
in float v_radius;
#else
uniform float u_radius;
#endif
#ifdef HAS_ATTR_STROKE_WIDTH
in float v_stroke_width;
#else
uniform float u_stroke_width;
#endif
#ifdef HAS_ATTR_BLUR
in float v_blur;
#else
uniform float u_blur;
#endif
#ifdef HAS_ATTR_OPACITY
in float v_opacity;
#else
uniform float u_opacity;
#endif
#ifdef HAS_ATTR_STROKE_OPACITY
in float v_stroke_opacity;
#else
uniform float u_stroke_opacity;
#endif

out vec4 fragColor;

/// smoothstep written out, so reversed edges are well defined.
float ramp(float edge0, float edge1, float x) {
  float t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

void main() {
#ifdef HAS_ATTR_COLOR
  vec4 color = v_color;
#else
  vec4 color = u_color;
#endif
#ifdef HAS_ATTR_STROKE_COLOR
  vec4 strokeColor = v_stroke_color;
#else
  vec4 strokeColor = u_stroke_color;
#endif
#ifdef HAS_ATTR_RADIUS
  float radius = v_radius;
#else
  float radius = u_radius;
#endif
#ifdef HAS_ATTR_STROKE_WIDTH
  float strokeWidth = v_stroke_width;
#else
  float strokeWidth = u_stroke_width;
#endif
#ifdef HAS_ATTR_BLUR
  float blur = v_blur;
#else
  float blur = u_blur;
#endif
#ifdef HAS_ATTR_OPACITY
  float opacity = v_opacity;
#else
  float opacity = u_opacity;
#endif
#ifdef HAS_ATTR_STROKE_OPACITY
  float strokeOpacity = v_stroke_opacity;
#else
  float strokeOpacity = u_stroke_opacity;
#endif
  float extrudeLength = length(v_data.xy);
  float antialiasedBlur = -max(blur, v_data.z);
  float opacityT = ramp(0.0, antialiasedBlur, extrudeLength - 1.0);
  float colorT = strokeWidth < 0.01 ? 0.0 : ramp(antialiasedBlur, 0.0, extrudeLength - radius / (radius + strokeWidth));
  fragColor = opacityT * mix(color * opacity, strokeColor * strokeOpacity, colorT);
}
