import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// The debug layer that outlines the tiles under the camera, so perspective, tilt, bearing and
/// level of detail are visible: alternate tiles are shaded like a checkerboard and every tile
/// gets a border about ``borderWidth`` points wide.
package struct DebugTileGrid: FrameLayer, Sendable {
  /// Border width at the tile's own zoom, in points.
  package var borderWidth: Double = 1.5
  /// Shade of odd checkerboard cells (straight alpha).
  package var cellColor = Color(red: 0, green: 0, blue: 0, alpha: 0.07)
  /// Border colour (straight alpha).
  package var borderColor = Color(red: 0.16, green: 0.24, blue: 0.36, alpha: 0.75)
  /// Which tiles to draw (256-point tiles, like Google's).
  package var covering = TileCovering(tileSize: 256)

  package init() {}

  /// The grid's two pipelines: cell fills and border rings (the `debug_grid` program).
  package enum GridPipeline: PipelineVariant {
    case cell
    case border

    package var descriptor: PipelineDescriptor {
      PipelineDescriptor(
        program: "debug_grid",
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 12)],
          attributes: [VertexAttribute("a_position", .float2), VertexAttribute("a_inner", .float, offset: 8)]),
        label: description)
    }

    package var description: String { self == .cell ? "debug grid cells" : "debug grid borders" }
  }

  package static let matrix = UniformSlot<Mat4>("u_matrix")
  /// Tile units the border ring's inner edge lies inside the tile's square.
  static let inset = UniformSlot<Float>("u_inset")
  static let color = UniformSlot<Color>("u_color")

  /// Adds the cells of odd tiles, then every tile's border (so borders lie on top).
  package func addDraws(to frame: inout FrameBuilder) {
    let transform = frame.transform
    let tiles = covering.tiles(for: transform)
    let matrices = tiles.map { covered in
      transform.clipMatrix(
        origin: covered.origin(worldSize: transform.worldSize),
        unitsToPoints: transform.worldSize / Double(covered.tile.tilesPerSide))
    }
    for (covered, matrix) in zip(tiles, matrices) where (covered.tile.x + covered.tile.y) % 2 == 1 {
      var uniforms = UniformValues()
      uniforms.set(DebugTileGrid.matrix, matrix)
      uniforms.set(DebugTileGrid.inset, 0)
      uniforms.set(DebugTileGrid.color, cellColor)
      frame.draw(.translucent, Pipeline(GridPipeline.cell), .builtin(.unitSquare), uniforms)
    }
    let tileAtOwnZoom = 256.0
    for matrix in matrices {
      var uniforms = UniformValues()
      uniforms.set(DebugTileGrid.matrix, matrix)
      uniforms.set(DebugTileGrid.inset, Float(borderWidth / tileAtOwnZoom))
      uniforms.set(DebugTileGrid.color, borderColor)
      frame.draw(.translucent, Pipeline(GridPipeline.border), .builtin(.unitSquareRing), uniforms)
    }
  }
}
