import Foundation
import TesseraGL
import TesseraStyle

extension StyleFramePlanner {
  /// `line`: the tessellated lines of every tile, widths in points; with `line-dasharray`,
  /// dashes measured in line widths at the integer zoom (so, as in MapLibre, they scale with the
  /// map between integer zooms).
  mutating func planLine(_ layer: StyleLayer, index: Int, tiles: [RenderTile]) {
    guard let source = layer.source, !tiles.isEmpty else { return }
    let zoom = input.zoom
    let (translate, anchoredToViewport) = translation(layer, prefix: "line")
    let mask = PaintBinding.mask(PaintBinding.line, layer: layer)
    let dashes = LineDashes(layer: layer, zoom: zoom)
    let viewport = input.transform.viewport
    let groups = StyleFramePlanner.groups(tiles)
    let reach = StyleFramePlanner.lineReach(layer, zoom: zoom)
    clipMasks(source: source, groups: groups, index: index)
    for group in groups {
      let tile = group.key
      let stencil = stencilReference(tile)
      let tileWorldSize = input.transform.worldSize / Double(tile.dataTile.tilesPerSide)
      var uniforms: [(name: String, value: UniformValue)] = [
        (
          "u_matrix",
          tileMatrix(
            tile.covered, extent: FillBucketBuilder.extent, translate: translate,
            viewportAnchored: anchoredToViewport)
        ),
        ("u_ratio", .float(Float(tileWorldSize / FillBucketBuilder.extent))),
        ("u_units_to_pixels", .vec2(Float(viewport.width / 2), Float(-viewport.height / 2))),
        ("u_device_pixel_ratio", .float(Float(input.pixelRatio))),
      ]
      uniforms += paintUniforms(PaintBinding.line, layer: layer, mask: mask, tile: tile)
      if let dashes { uniforms += dashes.uniforms(tileZoom: tile.dataTile.z, zoom: zoom) }
      append(
        index, .style(StylePipeline(program: .line, mask: mask, dashed: dashes != nil, clipped: stencil != nil)),
        .bucket(bucketKey(layer, tile), .main), uniforms, stencil: stencil,
        cullMargin: reach.map { $0 * FillBucketBuilder.extent / tileWorldSize }, scissor: scissor(tile))
    }
  }

  /// How far (points) a line layer's drawing may reach from its centre line: the width
  /// stretched by miter joins, gap, offset and blur, with room for antialiasing; nil when one
  /// of them is data-driven (the layer is then never culled).
  static func lineReach(_ layer: StyleLayer, zoom: Double) -> Double? {
    let names = ["line-width", "line-gap-width", "line-offset", "line-blur", "line-miter-limit"]
    guard !names.contains(where: { layer.property($0).isDataDriven }) else { return nil }
    let value = { (name: String) in abs(layer.property(name).number(zoom: zoom)) }
    let width = value("line-width")
    let gap = value("line-gap-width")
    return max(value("line-miter-limit"), 1) * (width + 2 * gap) + value("line-offset") + value("line-blur") + 2
  }
}

/// A line layer's dash pattern as the `line` program's DASHED variant reads it: dashes as
/// intervals of one period, touching dashes merged (a zero gap joins them, and an odd-length
/// array's last dash joins the next period's first, as in MapLibre).
struct LineDashes {
  /// Dash intervals in line widths (at most 4); the last may reach past the period.
  let dashes: [(start: Double, end: Double)]
  let period: Double
  let round: Bool
  /// The line width at the integer zoom, points.
  let floorWidth: Double

  /// The layer's pattern, or nil when it has none (or only zero lengths).
  init?(layer: StyleLayer, zoom: Double) {
    guard let lengths = layer.property("line-dasharray").evaluate(zoom: zoom).numbers?.map({ max($0, 0) }),
      !lengths.isEmpty
    else { return nil }
    let period = lengths.reduce(0, +)
    guard period > 0 else { return nil }
    round = layer.property("line-cap").evaluate(zoom: zoom).string == "round"
    var dashes: [(start: Double, end: Double)] = []
    var position = 0.0
    for (index, length) in lengths.enumerated() {
      if index % 2 == 0 {
        if let last = dashes.last, last.end == position {
          dashes[dashes.count - 1].end = position + length
        } else {
          dashes.append((position, position + length))
        }
      }
      position += length
    }
    // A dash ending the period joins the first dash of the next one.
    if dashes.count > 1, let last = dashes.last, last.end == period, dashes[0].start == 0 {
      dashes[dashes.count - 1].end = period + dashes[0].end
      dashes.removeFirst()
    }
    // Zero-length dashes show only with round ends (as dots).
    if !round { dashes.removeAll { $0.end <= $0.start } }
    self.dashes = Array(dashes.prefix(4))
    self.period = period
    floorWidth = layer.property("line-width").number(zoom: Foundation.floor(zoom))
  }

  /// The uniforms for a bucket in the coordinates of a tile of zoom `tileZoom`.
  func uniforms(tileZoom: Int, zoom: Double) -> [(name: String, value: UniformValue)] {
    // Pattern lengths are points at the integer zoom of the camera (MapLibre's tile zoom).
    let integerZoom = max(Foundation.floor(zoom), 0)
    let pointsPerUnit = 512 * pow(2, integerZoom - Double(tileZoom)) / FillBucketBuilder.extent
    var flat = dashes.flatMap { [Float($0.start), Float($0.end)] }
    while flat.count < 8 { flat.append(0) }
    return [
      ("u_dash_ratio", .float(Float(pointsPerUnit))),
      ("u_dash_scale", .float(Float(pow(2, zoom - integerZoom)))),
      ("u_dash_a", .vec4(flat[0], flat[1], flat[2], flat[3])),
      ("u_dash_b", .vec4(flat[4], flat[5], flat[6], flat[7])),
      ("u_dash_count", .float(Float(dashes.count))),
      ("u_dash_period", .float(Float(period))),
      ("u_dash_round", .float(round ? 1 : 0)),
      ("u_floorwidth", .float(Float(floorWidth))),
    ]
  }
}
