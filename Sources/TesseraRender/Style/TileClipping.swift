import TesseraGL
import TesseraGeo

/// How the tiles of the source drawn last are clipped to their areas, so geometry in a tile's
/// buffer never blends twice: in an unrotated, untilted view with scissor rectangles (each
/// group's area is then a rectangle of whole pixels: no stencil buffer work at all), else with
/// stencil masks (one reference per bucket group), drawn again only when the source changes.
struct TileClipping {
  private var stencilSource: String?
  private var stencilReferences: [BucketTile: Int32] = [:]
  private var scissorSource: String?
  private var scissorRects: [BucketTile: PixelRect] = [:]

  /// Forgets the masks and rectangles (the stencil buffer was used for something else).
  mutating func forget() {
    self = TileClipping()
  }

  /// The stencil reference of a group (nil when it got no mask or is clipped by a scissor).
  func stencilReference(_ tile: BucketTile) -> Int32? { scissorRects.isEmpty ? stencilReferences[tile] : nil }

  /// The scissor rectangle of a group (nil when clipped by a stencil mask).
  func scissor(_ tile: BucketTile) -> PixelRect? { scissorRects[tile] }

  /// Adopts scissor rectangles for `source`.
  fileprivate mutating func useScissors(_ rects: [BucketTile: PixelRect], source: String) {
    scissorSource = source
    scissorRects = rects
  }

  /// Whether `source` is clipped by the scissors now.
  fileprivate func hasScissors(for source: String) -> Bool { scissorSource == source }

  /// Whether the stencil buffer holds `source`'s masks now.
  fileprivate func hasMasks(for source: String) -> Bool { stencilSource == source }

  /// Starts masks for `source` (after the stencil buffer was cleared).
  fileprivate mutating func startMasks(for source: String) {
    scissorSource = nil
    scissorRects = [:]
    stencilSource = source
    stencilReferences = [:]
  }

  fileprivate mutating func dropScissors() {
    scissorSource = nil
    scissorRects = [:]
  }

  fileprivate mutating func setReference(_ reference: Int32, for tile: BucketTile) {
    stencilReferences[tile] = reference
  }
}

extension StyleFramePlanner {
  /// The stencil reference a group's draws compare with (nil: not clipped by a mask).
  func stencilReference(_ tile: BucketTile) -> Int32? { clipping.stencilReference(tile) }

  /// The scissor rectangle a group's draws are limited to (nil: none).
  func scissor(_ tile: BucketTile) -> PixelRect? { clipping.scissor(tile) }

  /// Clips the tiles of `source` (see ``TileClipping``): scissor rectangles when every group
  /// maps to one, else stencil masks, drawn unless the last masks drawn were for the same
  /// source, clearing the stencil buffer first. Tiles drawn from one bucket share a reference
  /// (their areas join); groups beyond 255 get no mask and are drawn unclipped.
  mutating func clipMasks(source: String, groups: [BucketGroup]) {
    if clipping.hasScissors(for: source) { return }
    if let rects = scissorRectangles(groups) {
      clipping.useScissors(rects, source: source)
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
        let m = tileMatrix(tile.covered, extent: 1).floats.map(Double.init)
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
        Int32(min(max(((edge * 256).rounded() / 256 - 0.5).rounded(.up), 0), limit))
      }
      let x0 = pixel(bounds.minX, limit: width)
      let x1 = pixel(bounds.maxX, limit: width)
      let y0 = pixel(bounds.minY, limit: height)
      let y1 = pixel(bounds.maxY, limit: height)
      rects[group.key] = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    return rects
  }
}
