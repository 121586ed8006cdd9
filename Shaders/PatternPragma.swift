import TesseraNumbers

/// The `#pragma pattern:` lines of Tessera's shaders: the repeating sprite image of `PATTERN`
/// variants (fill, fill outline and extrusion patterns), written once instead of copied into
/// every program. The image's place in the atlas is a uniform (`u_pattern`, `u_pattern_ratio`)
/// or, when data-driven, a per-vertex attribute (`a_pattern`, `a_pattern_ratio`; the
/// `HAS_ATTR_PATTERN` define).
///
/// - `#pragma pattern: functions` declares `patternPosition(upper, lower, size, ratio, pos)`:
///   where `pos` (tile units) lies in repeats of a `size`-point image, the tile's origin given
///   in points split into `upper` (÷ 65536) and `lower` (mod 65536) halves so that large world
///   coordinates keep their precision in 32-bit floats; `ratio` is points per tile unit.
/// - `#pragma pattern: define` declares, in the vertex stage, the placement uniforms, the
///   image's attribute or uniform, the varyings and the function; in the fragment stage the
///   atlas, the varyings and `patternColor()`, the image's colour at the fragment.
/// - `#pragma pattern: position EXPR` (vertex `main`) sets the varyings for the surface point
///   `EXPR` in tile units.
public enum PatternPragma {
  /// `source` with every `#pragma pattern:` line replaced by its expansion for `stage`.
  public static func expand(_ source: String, stage: PaintPragma.Stage) -> String {
    PragmaLines.rewrite(source) { line in
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("#pragma pattern: ") else { return nil }
      let indent = String(line.prefix { $0 == " " })
      let directive = trimmed.dropFirst("#pragma pattern: ".count)
      if directive == "functions" {
        return functions
      } else if directive == "define" {
        return stage == .vertex ? vertexDeclarations : fragmentDeclarations
      } else if directive.hasPrefix("position ") {
        precondition(stage == .vertex, "#pragma pattern: position belongs in the vertex stage (\(line))")
        return position(String(directive.dropFirst("position ".count))).map { indent + $0 }
      } else {
        preconditionFailure("#pragma pattern: expected functions, define or position (\(line))")
      }
    }
  }

  static let functions = [
    "vec2 patternPosition(vec2 upper, vec2 lower, vec2 size, float ratio, vec2 position) {",
    "  vec2 offset = mod(mod(mod(upper, size) * 256.0, size) * 256.0 + lower, size);",
    "  return (ratio * position + offset) / size;",
    "}",
  ]

  static let vertexDeclarations =
    [
      "uniform vec2 u_pixel_coord_upper;  // the tile's origin, points at the integer zoom, / 65536",
      "uniform vec2 u_pixel_coord_lower;  // and modulo 65536",
      "uniform float u_tile_ratio;        // points at the integer zoom per tile unit",
      "#ifdef HAS_ATTR_PATTERN",
      "in vec4 a_pattern;                 // the image's corners in the atlas, pixels",
      "in float a_pattern_ratio;          // its pixels per point",
      "out vec4 v_pattern;",
      "#else",
      "uniform vec4 u_pattern;",
      "uniform float u_pattern_ratio;",
      "#endif",
      "out vec2 v_pattern_pos;",
    ] + functions

  static let fragmentDeclarations = [
    "uniform sampler2D u_image;  // the style's pattern atlas (premultiplied)",
    "uniform vec2 u_texsize;     // its size, pixels",
    "in vec2 v_pattern_pos;",
    "#ifdef HAS_ATTR_PATTERN",
    "in vec4 v_pattern;",
    "#else",
    "uniform vec4 u_pattern;",
    "#endif",
    "vec4 patternColor() {",
    "#ifdef HAS_ATTR_PATTERN",
    "  vec4 pattern = v_pattern;",
    "#else",
    "  vec4 pattern = u_pattern;",
    "#endif",
    "  return texture(u_image, mix(pattern.xy / u_texsize, pattern.zw / u_texsize, mod(v_pattern_pos, 1.0)));",
    "}",
  ]

  static func position(_ surface: String) -> [String] {
    [
      "#ifdef HAS_ATTR_PATTERN",
      "vec4 pattern = a_pattern;",
      "float patternRatio = a_pattern_ratio;",
      "v_pattern = a_pattern;",
      "#else",
      "vec4 pattern = u_pattern;",
      "float patternRatio = u_pattern_ratio;",
      "#endif",
      "vec2 patternSize = (pattern.zw - pattern.xy) / patternRatio;",
      "// A missing image (an empty rectangle) samples the atlas's clear corner.",
      "patternSize = patternSize.x > 0.0 && patternSize.y > 0.0 ? patternSize : vec2(1.0);",
      "v_pattern_pos = patternPosition(u_pixel_coord_upper, u_pixel_coord_lower, patternSize, u_tile_ratio, \(surface));",
    ]
  }
}
