// Extruded polygons lit as MapLibre lights them: a directional light (u_lightpos, a unit-ish
// vector in the map's frame) shades each face by its normal, darkened less for bright
// colours; with u_vertical_gradient walls darken towards their foot. Heights are metres
// (u_matrix scales z by points per metre). PATTERN shows a sprite image instead of the colour
// (fill-extrusion-pattern): on roofs placed like fill patterns, on walls along the ring's edge
// distance and up the wall, lit as MapLibre Native lights patterned extrusions. u_opacity is 1
// for translucent layers, drawn opaque into a target of their own and laid over the frame with
// their opacity (fill_extrusion_texture).
uniform mat4 u_matrix;
uniform vec3 u_lightcolor;
uniform vec3 u_lightpos;
uniform float u_lightintensity;
uniform float u_vertical_gradient;
uniform float u_opacity;

in vec2 a_pos;
in vec3 a_normal;   // walls: outward horizontal normal; roofs: (0, 0, 1)
in vec2 a_data;     // x: 1 at the top, 0 at the base; y: distance along the ring, tile units

// Its alpha is u_opacity alone, which Mesa passes flat: the fragment stage reads three smooth
// components and a flat one, as hillshade does (raster.vertex.glsl), and llvmpipe draws both
// with one triangle-setup function.
out vec4 v_lit_color;
#ifdef PATTERN
uniform float u_height_factor;  // tile units per metre up a wall (negative: up)
#pragma pattern: define
#endif

#pragma paint: define vec4 color
#pragma paint: define float height
#pragma paint: define float base

void main() {
  #pragma paint: initialize vec4 color
  #pragma paint: initialize float height
  #pragma paint: initialize float base
  base = max(0.0, base);
  height = max(0.0, height);
  float top = a_data.x;
  float z = top > 0.0 ? height : base;
  gl_Position = u_matrix * vec4(a_pos, z, 1.0);
#ifdef PATTERN
  vec2 surface = a_normal.z > 0.5 ? a_pos : vec2(a_data.y, z * u_height_factor);
  #pragma pattern: position surface
  // The light on a white surface, multiplied by the image in the fragment stage.
  float lit = clamp(dot(a_normal, u_lightpos), 0.0, 1.0);
  lit = mix(1.0 - u_lightintensity, max(0.5 + u_lightintensity, 1.0), lit);
  if (a_normal.y != 0.0) {
    lit *= (1.0 - u_vertical_gradient)
      + u_vertical_gradient * clamp((top + base) * pow(height / 150.0, 0.5), mix(0.7, 0.98, 1.0 - u_lightintensity), 1.0);
  }
  v_lit_color = vec4(clamp(lit * u_lightcolor, mix(vec3(0.0), vec3(0.3), 1.0 - u_lightcolor), vec3(1.0)), 1.0);
  v_lit_color *= u_opacity;
#else

  // Relative luminance of the surface colour.
  float colorvalue = color.r * 0.2126 + color.g * 0.7152 + color.b * 0.0722;
  v_lit_color = vec4(0.0, 0.0, 0.0, 1.0);
  // A little ambient light so no face is black.
  color += vec4(0.03, 0.03, 0.03, 1.0);
  float directional = clamp(dot(a_normal, u_lightpos), 0.0, 1.0);
  // Narrower shading for weaker light and brighter colours.
  directional = mix(1.0 - u_lightintensity, max(1.0 - colorvalue + u_lightintensity, 1.0), directional);
  if (a_normal.y != 0.0) {
    // Walls (except those facing due east or west, as in MapLibre) darken towards the ground.
    directional *= (1.0 - u_vertical_gradient)
      + u_vertical_gradient * clamp((top + base) * pow(height / 150.0, 0.5), mix(0.7, 0.98, 1.0 - u_lightintensity), 1.0);
  }
  v_lit_color.r += clamp(color.r * directional * u_lightcolor.r, mix(0.0, 0.3, 1.0 - u_lightcolor.r), 1.0);
  v_lit_color.g += clamp(color.g * directional * u_lightcolor.g, mix(0.0, 0.3, 1.0 - u_lightcolor.g), 1.0);
  v_lit_color.b += clamp(color.b * directional * u_lightcolor.b, mix(0.0, 0.3, 1.0 - u_lightcolor.b), 1.0);
  v_lit_color *= u_opacity;
#endif
}
