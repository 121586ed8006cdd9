import Foundation
import TesseraGL
import TesseraGeo
import TesseraNumbers

/// How the tiles of the source drawn last are clipped to their areas, so geometry in a tile's
/// buffer never blends twice: in an unrotated, untilted view with scissor rectangles (each
/// group's area is then a rectangle of whole pixels: no stencil buffer work at all); else, on
/// devices with clip planes, by the tile programs' vertex stage cutting the geometry at the
/// area's edges (``StyleFramePlanner/clipAreas(_:translate:viewportAnchored:)``); else with
/// stencil masks (one reference per bucket group), drawn again only when the source changes.
struct TileClipping {
  private var stencilSource: String?
  private var stencilReferences: [BucketTile: Int32] = [:]
  private var scissorSource: String?
  private var scissorRects: [BucketTile: PixelRect] = [:]
  private var planesSource: String?
  /// With clip planes: each group's areas, as rectangles of tiles.
  private(set) var planeCells: [BucketTile: [TileRectangle]] = [:]

  /// Forgets the masks and rectangles (the stencil buffer was used for something else).
  mutating func forget() {
    self = TileClipping()
  }

  /// The stencil reference of a group (nil when it got no mask or is clipped otherwise).
  func stencilReference(_ tile: BucketTile) -> Int32? {
    scissorRects.isEmpty && planesSource == nil ? stencilReferences[tile] : nil
  }

  /// The scissor rectangle of a group (nil when clipped otherwise).
  func scissor(_ tile: BucketTile) -> PixelRect? { scissorRects[tile] }

  /// Whether the draws of the current source clip their geometry with clip planes.
  var clipsByPlanes: Bool { planesSource != nil }

  /// Adopts scissor rectangles for `source`.
  fileprivate mutating func useScissors(_ rects: [BucketTile: PixelRect], source: String) {
    scissorSource = source
    scissorRects = rects
    planesSource = nil
  }

  /// Clips `source` with clip planes (the stencil buffer keeps any masks it holds).
  fileprivate mutating func usePlanes(_ cells: [BucketTile: [TileRectangle]], for source: String) {
    scissorSource = nil
    scissorRects = [:]
    planesSource = source
    planeCells = cells
  }

  /// Whether `source` is clipped by clip planes now.
  fileprivate func hasPlanes(for source: String) -> Bool { planesSource == source }

  /// Whether `source` is clipped by the scissors now.
  fileprivate func hasScissors(for source: String) -> Bool { scissorSource == source }

  /// Whether the stencil buffer holds `source`'s masks now.
  fileprivate func hasMasks(for source: String) -> Bool { stencilSource == source }

  /// Starts masks for `source` (after the stencil buffer was cleared).
  fileprivate mutating func startMasks(for source: String) {
    scissorSource = nil
    scissorRects = [:]
    planesSource = nil
    stencilSource = source
    stencilReferences = [:]
  }

  fileprivate mutating func dropScissors() {
    scissorSource = nil
    scissorRects = [:]
    planesSource = nil
  }

  fileprivate mutating func setReference(_ reference: Int32, for tile: BucketTile) {
    stencilReferences[tile] = reference
  }
}

/// A rectangle of whole tiles at one zoom (max edges exclusive).
struct TileRectangle: Equatable {
  let zoom: Int
  let minX: Int
  let minY: Int
  let maxX: Int
  let maxY: Int

  init(zoom: Int, minX: Int, minY: Int, maxX: Int, maxY: Int) {
    (self.zoom, self.minX, self.minY, self.maxX, self.maxY) = (zoom, minX, minY, maxX, maxY)
  }

  /// One tile's square.
  init(tile: TileID) {
    self.init(zoom: tile.z, minX: tile.x, minY: tile.y, maxX: tile.x + 1, maxY: tile.y + 1)
  }

  var cellCount: Int { (maxX - minX) * (maxY - minY) }

  /// Whether `tile`'s square shares area with this rectangle.
  func overlaps(_ tile: TileID) -> Bool {
    // Both in units of the deeper zoom.
    let depth = max(zoom, tile.z)
    let own = 1 << (depth - zoom)
    let other = 1 << (depth - tile.z)
    return tile.x * other < maxX * own && (tile.x + 1) * other > minX * own
      && tile.y * other < maxY * own && (tile.y + 1) * other > minY * own
  }
}

extension DeviceLimits {
  /// Whether tile programs can clip to their tiles with four clip planes.
  package var clipsTilesByPlanes: Bool { maxClipDistances >= 4 }
}

extension StyleFramePlanner {
  /// The stencil reference a group's draws compare with (nil: not clipped by a mask).
  func stencilReference(_ tile: BucketTile) -> Int32? { clipping.stencilReference(tile) }

  /// The scissor rectangle a group's draws are limited to (nil: none).
  func scissor(_ tile: BucketTile) -> PixelRect? { clipping.scissor(tile) }

  /// Clips the tiles of `source` (see ``TileClipping``): scissor rectangles when every group
  /// maps to one, else clip planes where the device has them, else stencil masks, drawn unless the last masks drawn were for the same
  /// source, clearing the stencil buffer first. Tiles drawn from one bucket share a reference
  /// (their areas join); groups beyond 255 get no mask and are drawn unclipped.
  mutating func clipMasks(source: String, groups: [BucketGroup]) {
    if clipping.hasScissors(for: source) { return }
    if let rects = scissorRectangles(groups) {
      clipping.useScissors(rects, source: source)
      return
    }
    if input.clipsByPlanes {
      if !clipping.hasPlanes(for: source) { clipping.usePlanes(StyleFramePlanner.planeCells(groups), for: source) }
      return
    }
    clipping.dropScissors()
    if clipping.hasMasks(for: source) { return }
    frame.clearStencil(.translucent)
    clipping.startMasks(for: source)
    var next: Int32 = 1
    for group in groups {
      if next > 255 { break }
      clipping.setReference(next, for: group.key)
      for tile in group.tiles {
        var uniforms = UniformValues()
        uniforms.set(StyleFramePlanner.matrix, tileMatrix(tile.covered, extent: 1))
        draw(.clip, .builtin(.unitSquare), uniforms, stencil: next)
      }
      next += 1
    }
  }

  /// Each group's area as a rectangle of window pixels, or nil unless every tile maps to an
  /// axis-aligned rectangle (no bearing, no tilt) and every group's tiles join into one. A
  /// pixel is inside when its centre is, with edges snapped to the rasteriser's 1/256 pixel
  /// grid, so the rectangle covers the pixels the group's stencil mask would.
  func scissorRectangles(_ groups: [BucketGroup]) -> [BucketTile: PixelRect]? {
    let width = Double(input.transform.viewport.pixelWidth)
    let height = Double(input.transform.viewport.pixelHeight)
    var rects: [BucketTile: PixelRect] = [:]
    for group in groups {
      var bounds = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
      var area = 0.0
      for tile in group.tiles {
        // The matrix as the GPU gets it (single precision), so the rectangle matches the mask.
        let m = SIMD16<Double>(SIMD16<Float>(tileMatrix(tile.covered, extent: 1).elements))
        let scale = max(abs(m[0]), abs(m[5]))
        guard abs(m[1]) <= 1e-9 * scale, abs(m[4]) <= 1e-9 * scale, m[3] == 0, m[7] == 0, m[15] > 0 else {
          return nil
        }
        let xs = [(m[12] / m[15] + 1) / 2 * width, ((m[0] + m[12]) / m[15] + 1) / 2 * width]
        let ys = [(m[13] / m[15] + 1) / 2 * height, ((m[5] + m[13]) / m[15] + 1) / 2 * height]
        bounds.minX = min(bounds.minX, xs.min()!)
        bounds.maxX = max(bounds.maxX, xs.max()!)
        bounds.minY = min(bounds.minY, ys.min()!)
        bounds.maxY = max(bounds.maxY, ys.max()!)
        area += abs(xs[1] - xs[0]) * abs(ys[1] - ys[0])
      }
      let boundsArea = (bounds.maxX - bounds.minX) * (bounds.maxY - bounds.minY)
      guard boundsArea.isFinite, abs(boundsArea - area) <= 1e-6 * boundsArea else { return nil }
      /// The first pixel whose centre lies at or after `edge` (snapped to 1/256 pixel).
      func pixel(_ edge: Double, limit: Double) -> Int32 {
        Int32(clamping: min(max(((edge * 256).rounded() / 256 - 0.5).rounded(.up), 0), limit))
      }
      let x0 = pixel(bounds.minX, limit: width)
      let x1 = pixel(bounds.maxX, limit: width)
      let y0 = pixel(bounds.minY, limit: height)
      let y1 = pixel(bounds.maxY, limit: height)
      rects[group.key] = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    return rects
  }

  /// The areas a group's draws are clipped to by clip planes, in the bucket's tile units (min
  /// x, min y, max x, max y), for a layer shifted by `translate` (points; see ``tileMatrix``):
  /// one unbounded area when the source is clipped otherwise. One area covers the group's
  /// tiles when they join into a rectangle, or when the rectangle around them holds no other
  /// group's tile (the cells missing from it lie outside the view); else each row of adjoining
  /// tiles gets its own (the bucket is drawn once for each).
  func clipAreas(_ group: BucketGroup, translate: (Double, Double) = (0, 0), viewportAnchored: Bool = false)
    -> [SIMD4<Float>]
  {
    guard clipping.clipsByPlanes, let cells = clipping.planeCells[group.key] else {
      return [StyleFramePlanner.unclipped]
    }
    let data = group.key.dataTile
    let extent = BucketGeometry.extent
    // The untranslated square is the area: the geometry moves, the area stays.
    var (tx, ty) = translate
    if viewportAnchored { (tx, ty) = StyleFramePlanner.rotatedToMap(tx, ty, transform) }
    let unitsPerPoint = extent * Double(data.tilesPerSide) / transform.worldSize
    let shiftX = tx * unitsPerPoint
    let shiftY = ty * unitsPerPoint
    return cells.map { cell in
      let scale = extent * pow(2, Double(data.z - cell.zoom))
      return SIMD4(
        Float(Double(cell.minX) * scale - Double(data.x) * extent - shiftX),
        Float(Double(cell.minY) * scale - Double(data.y) * extent - shiftY),
        Float(Double(cell.maxX) * scale - Double(data.x) * extent - shiftX),
        Float(Double(cell.maxY) * scale - Double(data.y) * extent - shiftY))
    }
  }

  /// Each group's clip areas as rectangles of tiles (see ``clipAreas(_:translate:viewportAnchored:)``).
  static func planeCells(_ groups: [BucketGroup]) -> [BucketTile: [TileRectangle]] {
    var all: [(group: BucketTile, tile: RenderTile)] = []
    for group in groups { for tile in group.tiles { all.append((group.key, tile)) } }
    var result: [BucketTile: [TileRectangle]] = [:]
    for group in groups where !group.tiles.isEmpty {
      let zoom = group.tiles[0].tile.z
      guard group.tiles.allSatisfy({ $0.tile.z == zoom }) else {
        result[group.key] = group.tiles.map { TileRectangle(tile: $0.tile) }
        continue
      }
      let cells = Set(group.tiles.map { SIMD2($0.tile.x, $0.tile.y) })
      let bounds = TileRectangle(
        zoom: zoom, minX: cells.map(\.x).min()!, minY: cells.map(\.y).min()!, maxX: cells.map(\.x).max()! + 1,
        maxY: cells.map(\.y).max()! + 1)
      let others = all.filter { $0.group != group.key && $0.tile.wrap == group.key.wrap }
      if cells.count == bounds.cellCount || !others.contains(where: { bounds.overlaps($0.tile.tile) }) {
        result[group.key] = [bounds]
        continue
      }
      // Rows of adjoining tiles.
      var rows: [TileRectangle] = []
      for y in bounds.minY..<bounds.maxY {
        var x = bounds.minX
        while x < bounds.maxX {
          guard cells.contains(SIMD2(x, y)) else {
            x += 1
            continue
          }
          let start = x
          while x < bounds.maxX, cells.contains(SIMD2(x, y)) { x += 1 }
          rows.append(TileRectangle(zoom: zoom, minX: start, minY: y, maxX: x, maxY: y + 1))
        }
      }
      result[group.key] = rows
    }
    return result
  }

  /// A clip area that clips nothing.
  static let unclipped = SIMD4<Float>(
    -.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .greatestFiniteMagnitude, .greatestFiniteMagnitude)

  /// The uniform of a tile program's clip area (see ``clipAreas(_:translate:viewportAnchored:)``).
  static let tileClip = UniformSlot<SIMD4<Float>>("u_tile_clip")
}
