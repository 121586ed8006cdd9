import TesseraGL
import TesseraGeo
import TesseraImage

/// The debug layer that outlines the tiles under the camera, so perspective, tilt, bearing and
/// level of detail are visible: alternate tiles are shaded like a checkerboard and every tile
/// gets a border about ``borderWidth`` points wide.
public struct DebugTileGrid: Sendable {
  /// Border width at the tile's own zoom, in points.
  public var borderWidth: Double = 1.5
  /// Shade of odd checkerboard cells (straight alpha).
  public var cellColor = Color(red: 0, green: 0, blue: 0, alpha: 0.07)
  /// Border colour (straight alpha).
  public var borderColor = Color(red: 0.16, green: 0.24, blue: 0.36, alpha: 0.75)
  /// Which tiles to draw (256-point tiles, like Google's).
  public var covering = TileCovering(tileSize: 256)

  public init() {}

  /// The draw commands of the grid for `transform`, in layer slot `layer`.
  public func commands(for transform: CameraTransform, layer: Int) -> [DrawCommand] {
    let tiles = covering.tiles(for: transform)
    var commands: [DrawCommand] = []
    for (order, covered) in tiles.enumerated() {
      let tileWorldSize = transform.worldSize / Double(covered.tile.tilesPerSide)
      let matrix = transform.clipMatrix(
        origin: covered.origin(worldSize: transform.worldSize), unitsToPoints: tileWorldSize
      ).floats
      let tileAtOwnZoom = 256.0
      let inset = borderWidth / tileAtOwnZoom
      if (covered.tile.x + covered.tile.y) % 2 == 1 {
        commands.append(
          DrawCommand(
            key: SortKey(pass: .translucent, layer: layer, order: order), pipeline: .debugTileFill,
            mesh: .builtin(.unitSquare),
            uniforms: [("u_matrix", .mat4(matrix)), ("u_inset", .float(0)), ("u_color", cellColor.uniform)]))
      }
      commands.append(
        DrawCommand(
          key: SortKey(pass: .translucent, layer: layer, order: tiles.count + order),
          pipeline: .debugTileBorder, mesh: .builtin(.unitSquareRing),
          uniforms: [
            ("u_matrix", .mat4(matrix)), ("u_inset", .float(Float(inset))),
            ("u_color", borderColor.uniform),
          ]))
    }
    return commands
  }
}

extension Color {
  /// The colour premultiplied, as a `vec4` uniform.
  var uniform: UniformValue {
    let (r, g, b, a) = premultiplied
    return .vec4(Float(r), Float(g), Float(b), Float(a))
  }
}
