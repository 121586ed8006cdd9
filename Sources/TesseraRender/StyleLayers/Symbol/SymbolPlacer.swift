import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle
import TesseraText

/// The symbols of one layer a frame draws: instance data of glyph and icon quads, each a
/// packed ``SymbolInstanceVertex``.
struct PlacedSymbols: Sendable {
  var text: [Float] = []
  var textHalo = false
  var icons: [Float] = []
  var sdfIcons: [Float] = []
  var sdfIconHalo = false
  /// Whether plain icons are drawn texel for pixel (unscaled, untransformed).
  var iconsNearest = true
  /// Plain images inside text (drawn from the icon atlas after the icons), and whether they
  /// are read texel for pixel.
  var textImages: [Float] = []
  var textImagesNearest = true
  /// Colour glyphs (emoji) of text, drawn from the glyph store's colour atlas after the text.
  var colorGlyphs: [Float] = []
  /// Labels placed (text or icon).
  var placed = 0
  /// Collision debug circles of labels along lines, ``CollisionCirclePipeline/floatsPerCircle``
  /// floats each (with ``SymbolPlacer/showsCollisionCircles``).
  var collisionCircles: [Float] = []
  /// Where each run of one sort key starts in the arrays (floats), when the layer has sort
  /// keys: each run draws its icons then its text. Empty: one run.
  var segments: [Segment] = []

  struct Segment: Sendable {
    let key: Double
    let text: Int
    let icons: Int
    let sdfIcons: Int
    var textImages = 0
    var colorGlyphs = 0
  }

  /// The runs drawn in turn: float ranges of text, icons, SDF icons and images inside text.
  var runs:
    [(
      text: Range<Int>, icons: Range<Int>, sdfIcons: Range<Int>, textImages: Range<Int>, colorGlyphs: Range<Int>
    )]
  {
    guard !segments.isEmpty else {
      return [(0..<text.count, 0..<icons.count, 0..<sdfIcons.count, 0..<textImages.count, 0..<colorGlyphs.count)]
    }
    return segments.indices.map { index in
      let start = segments[index]
      let end = index + 1 < segments.count ? segments[index + 1] : nil
      return (
        start.text..<(end?.text ?? text.count), start.icons..<(end?.icons ?? icons.count),
        start.sdfIcons..<(end?.sdfIcons ?? sdfIcons.count), start.textImages..<(end?.textImages ?? textImages.count),
        start.colorGlyphs..<(end?.colorGlyphs ?? colorGlyphs.count)
      )
    }
  }

  var isEmpty: Bool {
    text.isEmpty && icons.isEmpty && sdfIcons.isEmpty && textImages.isEmpty && colorGlyphs.isEmpty
      && collisionCircles.isEmpty
  }
}

/// The tiles of one symbol layer in a frame with their buckets.
struct SymbolLayerTiles {
  let layer: StyleLayer
  let tiles: [(tile: BucketTile, bucket: SymbolBucket)]
  /// The buckets' keys, in the same order.
  let keys: [BucketKey]
}

/// Places the symbols of a frame, MapLibre's way: layers from the top of the style down, each
/// symbol in order (by `symbol-sort-key` when set), a label placed where its boxes (text and
/// icon, padded) fit among those placed before it (or overlap is allowed), trying each of
/// its variable anchors in turn; the same symbol in two tiles is placed once. Then makes the
/// instance data of what was placed, each quad's corners in clip space.
struct SymbolPlacer {
  /// Points plain icons are moved right and down by, so an edge exactly halfway between two
  /// pixels covers the later one (anchors lie on 1/16-point steps; this is far below one).
  static let halfPixelTieNudge = 1.0 / 1024

  let transform: CameraTransform
  /// Time spent making the quads of placed symbols (the rest of placing is collision tests).
  var quadNanoseconds: UInt64 = 0
  /// Map matrix: world offsets from the target (points) to clip space.
  let matrix: Mat4
  var grid: CollisionGrid
  /// Screen lines no label may cross (frames cut into tiles).
  var tileCuts: TileCuts?
  /// Whether the collision circles of labels along lines are kept for drawing.
  var showsCollisionCircles = false

  init(transform: CameraTransform, collisionMargin: Double = CollisionGrid.defaultMargin) {
    self.transform = transform
    matrix = transform.clipMatrix()
    grid = CollisionGrid(width: transform.viewport.width, height: transform.viewport.height, margin: collisionMargin)
  }

  /// Places every layer's symbols; the result by layer id.
  mutating func place(_ layers: [SymbolLayerTiles]) -> [String: PlacedSymbols] {
    if tileCuts?.tilePlacement == true { return placeAsTile(layers) }
    var result: [String: PlacedSymbols] = [:]
    for entry in layers.reversed() { result[entry.layer.id] = place(entry) }
    return result
  }

  /// Whether a box crosses a line of ``tileCuts``.
  func crossesCut(_ box: CollisionGrid.Box) -> Bool { tileCuts?.crosses(box) ?? false }

  /// A point projected: clip coordinates and screen points.
  struct Projected {
    let clip: SIMD4<Double>
    let screen: SIMD2<Double>
    /// Distance from the camera along its axis, points.
    var depth: Double { clip.w }
  }

  func project(dx: Double, dy: Double) -> Projected? {
    let m = matrix.elements
    let x = m[0] * dx + m[4] * dy + m[12]
    let y = m[1] * dx + m[5] * dy + m[13]
    let z = m[2] * dx + m[6] * dy + m[14]
    let w = m[3] * dx + m[7] * dy + m[15]
    guard w > 1e-6 else { return nil }
    let width = transform.viewport.width
    let height = transform.viewport.height
    return Projected(
      clip: SIMD4(x, y, z, w), screen: SIMD2((x / w + 1) / 2 * width, (1 - y / w) / 2 * height))
  }

  /// Clip coordinates of a screen point (points), at depth 0.
  func clip(screen point: SIMD2<Double>) -> SIMD4<Double> {
    SIMD4(point.x / transform.viewport.width * 2 - 1, 1 - point.y / transform.viewport.height * 2, 0, 1)
  }

  /// A symbol's text and icon and where it stands (eighths of a point).
  struct DedupeKey: Hashable {
    let identity: String
    let x: Int
    let y: Int
  }

  struct Candidate {
    let instance: SymbolInstance
    /// The anchor's world offset from the target, points.
    let offset: SIMD2<Double>
    let order: Int
    /// The bucket's origin as a world offset from the target, and points per bucket unit.
    var origin = SIMD2<Double>(0, 0)
    var unit = 0.0
    /// Points per bucket unit at the zoom of the tiles drawing the bucket (MapLibre's text
    /// pixel ratio).
    var tileUnit = 0.0
    /// How many times deeper the tiles drawing the bucket are than its data tile.
    var overscale = 1.0
  }

  /// A layer's symbols ready to place: its values and its candidates in placement order.
  struct LayerCandidates {
    let values: LayerValues
    let candidates: [Candidate]
  }

  /// One placed symbol's quads, with its candidate's index (placement order) and sort key.
  struct PlacedOutput {
    let index: Int
    let sortKey: Double
    let output: SymbolOutput
  }

  private mutating func place(_ entry: SymbolLayerTiles) -> PlacedSymbols {
    let prepared = candidates(of: entry)
    var result = PlacedSymbols()
    var drawn: [PlacedOutput] = []
    for (index, candidate) in prepared.candidates.enumerated() {
      guard let output = placeSymbol(candidate, values: prepared.values, result: &result) else { continue }
      drawn.append(PlacedOutput(index: index, sortKey: candidate.instance.sortKey, output: output))
    }
    assemble(drawn, values: prepared.values, into: &result)
    return result
  }

  /// The layer's candidates: each tile's symbols (the same symbol from two tiles once), in
  /// MapLibre's placement order.
  func candidates(of entry: SymbolLayerTiles) -> LayerCandidates {
    let layer = entry.layer
    let zoom = transform.camera.styleZoom
    var values = LayerValues(layer: layer, zoom: zoom, transform: transform)
    // MapLibre's tile mode keeps labels along lines inside the tile.
    if tileCuts?.tilePlacement == true && layer.value(SymbolProperties.placement, zoom: zoom) == .line {
      values.avoidEdges = true
    }
    var candidates: [Candidate] = []
    /// Where each tile's candidates end.
    var tileEnds: [Int] = []
    var seen: [DedupeKey: Int] = [:]
    for (tileIndex, (tile, bucket)) in entry.tiles.enumerated() {
      defer { tileEnds.append(candidates.count) }
      let tileSize = transform.worldSize / Double(tile.dataTile.tilesPerSide)
      let origin = tile.covered.origin(worldSize: transform.worldSize)
      let unit = tileSize / BucketGeometry.extent
      for instance in bucket.instances {
        let world = SIMD2(origin.x + instance.anchor.x * unit, origin.y + instance.anchor.y * unit)
        // The same symbol from two tiles (shared buffers, parent and child) is placed once;
        // equal symbols of one tile are distinct features.
        let key = DedupeKey(
          identity: instance.identity, x: Int(clamping: (world.x * 8).rounded()),
          y: Int(clamping: (world.y * 8).rounded()))
        if let first = seen[key], first != tileIndex { continue }
        seen[key] = tileIndex
        candidates.append(
          Candidate(
            instance: instance,
            offset: SIMD2(world.x - transform.targetWorld.x, world.y - transform.targetWorld.y),
            order: candidates.count,
            origin: SIMD2(origin.x - transform.targetWorld.x, origin.y - transform.targetWorld.y), unit: unit,
            tileUnit: unit * pow(2, Double(tile.zoom) - zoom),
            overscale: pow(2, Double(max(tile.zoom - tile.dataTile.z, 0)))))
      }
    }
    if values.hasSortKey {
      candidates.sort {
        $0.instance.sortKey == $1.instance.sortKey ? $0.order < $1.order : $0.instance.sortKey < $1.instance.sortKey
      }
    } else if values.placesByViewportY {
      // Drawn from the top of the view down, so placed from the bottom up: what is drawn
      // over others wins collisions (MapLibre's order). Each tile's symbols are sorted
      // apart, the tiles kept in their order, as MapLibre places one tile after another.
      func screenY(_ candidate: Candidate) -> Double {
        transform.sinBearing * -candidate.offset.x + transform.cosBearing * candidate.offset.y
      }
      var start = 0
      for end in tileEnds {
        candidates[start..<end].sort {
          screenY($0) == screenY($1) ? $0.order > $1.order : screenY($0) > screenY($1)
        }
        start = end
      }
    }
    return LayerCandidates(values: values, candidates: candidates)
  }

  /// Puts the placed symbols' quads into `result` in drawing order: placement order, or from
  /// the top of the view down; runs of one sort key drawn in turn.
  func assemble(_ placed: [PlacedOutput], values: LayerValues, into result: inout PlacedSymbols) {
    var drawn = placed.sorted { $0.index < $1.index }
    if values.sortsByViewportY {
      drawn.sort { $0.output.y == $1.output.y ? $0.index < $1.index : $0.output.y < $1.output.y }
    }
    for item in drawn {
      // Symbols of one sort key draw their icons then their text before the next key's.
      if values.hasSortKey, result.segments.last?.key != item.sortKey {
        result.segments.append(
          PlacedSymbols.Segment(
            key: item.sortKey, text: result.text.count, icons: result.icons.count, sdfIcons: result.sdfIcons.count,
            textImages: result.textImages.count, colorGlyphs: result.colorGlyphs.count))
      }
      result.text += item.output.text
      result.icons += item.output.icon
      result.sdfIcons += item.output.sdf
      result.textImages += item.output.textImages
      result.colorGlyphs += item.output.colorGlyphs
    }
  }
}
