import Synchronization
import TesseraNumbers

/// The GLSL ES 3.00 programs of Tessera, embedded in the binary at build time.
///
/// Each program is a pair of files in `Shaders/programs/`: `<name>.vertex.glsl` and
/// `<name>.fragment.glsl`, written without a `#version` line (a program may share another's
/// vertex stage: hillshade draws with raster's); ``ShaderLibrary/source(of:defines:)`` prepends
/// `#version 300 es`, the precision statements and any defines. Paint properties that are
/// uniforms or per-vertex attributes are written once with `#pragma paint:` lines (see
/// ``PaintPragma``), pattern paint with `#pragma pattern:` lines (see ``PatternPragma``). Adding a program means adding its two files and one line to
/// ``ShaderLibrary/programs``; a test fails if a file in the folder is not listed. Programs are
/// expanded on first use (``program(named:)``), so a map compiles and pays only for those it draws.
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

  /// A program's embedded files before expansion (UTF-8 bytes).
  private struct Files: Sendable {
    let vertex: [UInt8]
    let fragment: [UInt8]
  }

  /// The names of every program.
  public static var names: [String] { files.keys.sorted() }

  /// Every program, by name, expanded (all of them: for tools and tests; a map uses
  /// ``program(named:)``).
  public static var programs: [String: Program] {
    Dictionary(uniqueKeysWithValues: names.compactMap { name in program(named: name).map { (name, $0) } })
  }

  /// Programs expanded so far.
  private static let expanded = Mutex<[String: Program]>([:])

  /// The program `name` with its pragmas expanded (once per process), nil for an unknown name.
  public static func program(named name: String) -> Program? {
    if let known = expanded.withLock({ $0[name] }) { return known }
    guard let raw = files[name] else { return nil }
    func expand(_ bytes: [UInt8], _ stage: PaintPragma.Stage) -> String {
      PatternPragma.expand(PaintPragma.expand(String(decoding: bytes, as: UTF8.self), stage: stage), stage: stage)
    }
    let program = Program(name: name, vertex: expand(raw.vertex, .vertex), fragment: expand(raw.fragment, .fragment))
    expanded.withLock { $0[name] = program }
    return program
  }

  /// The paint properties the fragment stage of program `name` declares with
  /// `#pragma paint: define` (the ones whose values reach it), empty for an unknown name.
  public static func fragmentPaint(ofProgram name: String) -> Set<String> {
    guard let raw = files[name] else { return [] }
    return PaintPragma.definedNames(in: String(decoding: raw.fragment, as: UTF8.self))
  }

  private static let files: [String: Files] = [
    "solid": embedded("solid", PackageResources.solid_vertex_glsl, PackageResources.solid_fragment_glsl),
    "debug_grid": embedded(
      "debug_grid", PackageResources.debug_grid_vertex_glsl, PackageResources.debug_grid_fragment_glsl),
    "collision_circle": embedded(
      "collision_circle", PackageResources.collision_circle_vertex_glsl,
      PackageResources.collision_circle_fragment_glsl),
    "sky": embedded("sky", PackageResources.sky_vertex_glsl, PackageResources.sky_fragment_glsl),
    "points": embedded("points", PackageResources.points_vertex_glsl, PackageResources.points_fragment_glsl),
    "background_pattern": embedded(
      "background_pattern", PackageResources.background_pattern_vertex_glsl,
      PackageResources.background_pattern_fragment_glsl),
    "background": embedded(
      "background", PackageResources.background_vertex_glsl, PackageResources.background_fragment_glsl),
    "background_world": embedded(
      "background_world", PackageResources.background_world_vertex_glsl,
      PackageResources.background_world_fragment_glsl),
    "clip": embedded("clip", PackageResources.clip_vertex_glsl, PackageResources.clip_fragment_glsl),
    "fill": embedded("fill", PackageResources.fill_vertex_glsl, PackageResources.fill_fragment_glsl),
    "fill_outline": embedded(
      "fill_outline", PackageResources.fill_outline_vertex_glsl, PackageResources.fill_outline_fragment_glsl),
    "line": embedded("line", PackageResources.line_vertex_glsl, PackageResources.line_fragment_glsl),
    "circle": embedded("circle", PackageResources.circle_vertex_glsl, PackageResources.circle_fragment_glsl),
    "marker": embedded("marker", PackageResources.marker_vertex_glsl, PackageResources.marker_fragment_glsl),
    "fill_extrusion": embedded(
      "fill_extrusion", PackageResources.fill_extrusion_vertex_glsl, PackageResources.fill_extrusion_fragment_glsl),
    "fill_extrusion_texture": embedded(
      "fill_extrusion_texture", PackageResources.fill_extrusion_texture_vertex_glsl,
      PackageResources.fill_extrusion_texture_fragment_glsl),
    "raster": embedded("raster", PackageResources.raster_vertex_glsl, PackageResources.raster_fragment_glsl),
    "hillshade": embedded(
      "hillshade", PackageResources.raster_vertex_glsl, PackageResources.hillshade_fragment_glsl),
    "heatmap": embedded("heatmap", PackageResources.heatmap_vertex_glsl, PackageResources.heatmap_fragment_glsl),
    "symbol": embedded("symbol", PackageResources.symbol_vertex_glsl, PackageResources.symbol_fragment_glsl),
    "heatmap_texture": embedded(
      "heatmap_texture", PackageResources.heatmap_texture_vertex_glsl, PackageResources.heatmap_texture_fragment_glsl),
  ]

  /// The define of programs that write `gl_ClipDistance` (their sources also get the
  /// `GL_EXT_clip_cull_distance` extension directive).
  public static let clipDistancesDefine = "CLIP_DISTANCES"

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
    guard let found = program(named: name) else { return nil }
    let defineLines = defines.keys.sorted().map { "#define \($0) \(defines[$0]!)\n" }.joined()
    // Extension directives come before any other token (the precision statements).
    let extensions = defines[clipDistancesDefine] != nil ? "#extension GL_EXT_clip_cull_distance : require\n" : ""
    let header = "#version 300 es\n" + extensions + preamble.dropFirst("#version 300 es\n".count) + defineLines
    return (header + found.vertex, header + found.fragment)
  }

  /// A program's files as embedded (`name` keeps the table readable: it is the key).
  private static func embedded(_ name: String, _ vertex: [UInt8], _ fragment: [UInt8]) -> Files {
    Files(vertex: vertex, fragment: fragment)
  }
}
