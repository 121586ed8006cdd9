/// The GLSL ES 3.00 programs of Tessera, embedded in the binary at build time.
///
/// Each program is a pair of files in `Shaders/programs/`: `<name>.vertex.glsl` and
/// `<name>.fragment.glsl`, written without a `#version` line (a program may share another's
/// vertex stage: hillshade draws with raster's); ``ShaderLibrary/source(of:defines:)`` prepends
/// `#version 300 es`, the precision statements and any defines. Paint properties that are
/// uniforms or per-vertex attributes are written once with `#pragma paint:` lines (see
/// ``PaintPragma``), pattern paint with `#pragma pattern:` lines (see ``PatternPragma``). Adding a program means adding its two files and one line to
/// ``ShaderLibrary/programs``; a test fails if a file in the folder is not listed.
public enum ShaderLibrary {
  /// The sources of one program.
  public struct Program: Sendable {
    /// The program's name (the file names without the stage suffix).
    public let name: String
    /// The vertex stage without the preamble.
    public let vertex: String
    /// The fragment stage without the preamble.
    public let fragment: String
  }

  /// Every program, by name.
  public static let programs: [String: Program] = [
    "solid": program("solid", PackageResources.solid_vertex_glsl, PackageResources.solid_fragment_glsl),
    "debug_grid": program(
      "debug_grid", PackageResources.debug_grid_vertex_glsl, PackageResources.debug_grid_fragment_glsl),
    "collision_circle": program(
      "collision_circle", PackageResources.collision_circle_vertex_glsl,
      PackageResources.collision_circle_fragment_glsl),
    "sky": program("sky", PackageResources.sky_vertex_glsl, PackageResources.sky_fragment_glsl),
    "points": program("points", PackageResources.points_vertex_glsl, PackageResources.points_fragment_glsl),
    "background_pattern": program(
      "background_pattern", PackageResources.background_pattern_vertex_glsl,
      PackageResources.background_pattern_fragment_glsl),
    "background": program(
      "background", PackageResources.background_vertex_glsl, PackageResources.background_fragment_glsl),
    "clip": program("clip", PackageResources.clip_vertex_glsl, PackageResources.clip_fragment_glsl),
    "fill": program("fill", PackageResources.fill_vertex_glsl, PackageResources.fill_fragment_glsl),
    "fill_outline": program(
      "fill_outline", PackageResources.fill_outline_vertex_glsl, PackageResources.fill_outline_fragment_glsl),
    "line": program("line", PackageResources.line_vertex_glsl, PackageResources.line_fragment_glsl),
    "circle": program("circle", PackageResources.circle_vertex_glsl, PackageResources.circle_fragment_glsl),
    "marker": program("marker", PackageResources.marker_vertex_glsl, PackageResources.marker_fragment_glsl),
    "fill_extrusion": program(
      "fill_extrusion", PackageResources.fill_extrusion_vertex_glsl, PackageResources.fill_extrusion_fragment_glsl),
    "raster": program("raster", PackageResources.raster_vertex_glsl, PackageResources.raster_fragment_glsl),
    "hillshade": program(
      "hillshade", PackageResources.raster_vertex_glsl, PackageResources.hillshade_fragment_glsl),
    "heatmap": program("heatmap", PackageResources.heatmap_vertex_glsl, PackageResources.heatmap_fragment_glsl),
    "symbol": program("symbol", PackageResources.symbol_vertex_glsl, PackageResources.symbol_fragment_glsl),
    "heatmap_texture": program(
      "heatmap_texture", PackageResources.heatmap_texture_vertex_glsl, PackageResources.heatmap_texture_fragment_glsl),
  ]

  /// The first lines of every stage: the version and default precisions.
  public static let preamble = """
    #version 300 es
    precision highp float;
    precision highp int;

    """

  /// A program's vertex and fragment sources with the preamble and `#define` lines for
  /// `defines` (name → value), ready for `glShaderSource`; nil for an unknown name.
  public static func source(of name: String, defines: [String: String] = [:])
    -> (vertex: String, fragment: String)?
  {
    guard let program = programs[name] else { return nil }
    let defineLines = defines.keys.sorted().map { "#define \($0) \(defines[$0]!)\n" }.joined()
    let header = preamble + defineLines
    return (header + program.vertex, header + program.fragment)
  }

  private static func program(_ name: String, _ vertex: [UInt8], _ fragment: [UInt8]) -> Program {
    func expand(_ bytes: [UInt8], _ stage: PaintPragma.Stage) -> String {
      PatternPragma.expand(PaintPragma.expand(String(decoding: bytes, as: UTF8.self), stage: stage), stage: stage)
    }
    return Program(name: name, vertex: expand(vertex, .vertex), fragment: expand(fragment, .fragment))
  }
}
