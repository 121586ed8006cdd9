import Foundation
import TesseraGeo
import TesseraNumbers

/// Which parts of dense marker sets can be seen: sprites tested front to back against the
/// opaque pixels of the sprites in front of them (see ``MarkerOcclusion``).
extension MarkerRenderer {
  /// One drawn part of a visible sprite: the part of its icon (unit square) and, for sprites
  /// placed texel for pixel, the screen pixel of its icon's top-left corner.
  struct VisiblePart {
    let index: Int
    let part: (Float, Float, Float, Float)
    let pixel: (x: Int, y: Int)?
  }

  /// The sprites that show for `transform`, in draw order, each with the parts of its icon to
  /// draw (one entry per part): tested front to back against what is in front of them.
  func visibleSprites(for transform: CameraTransform) -> [VisiblePart] {
    let viewport = transform.viewport
    var occlusion = MarkerOcclusion(width: viewport.pixelWidth, height: viewport.pixelHeight)
    // Front to back: billboards above flat markers, later pages above earlier ones, later
    // sprites above earlier ones.
    let order = sprites.indices.sorted {
      let a = spriteBatches[$0]
      let b = spriteBatches[$1]
      return (a.isFlat ? 0 : 1, a.page, $0) > (b.isFlat ? 0 : 1, b.page, $1)
    }
    var visible: [VisiblePart] = []
    let worldSize = transform.worldSize
    for index in order {
      let sprite = sprites[index]
      let world = WorldPoint(x: sprite.world.x * worldSize, y: sprite.world.y * worldSize)
      let (dx, dy) = transform.offsetFromTarget(world)
      if MarkerRenderer.isPixelAligned(sprite, scale: scale), let masks = masks[sprite.icon],
        let anchor = transform.screenPoint(dx: dx, dy: dy)
      {
        // The icon's top-left pixel (the GPU draws it exactly there).
        let x = MarkerRenderer.pixel((anchor.x - sprite.anchorX * sprite.width) * scale, .toNearestOrAwayFromZero)
        let y = MarkerRenderer.pixel((anchor.y - sprite.anchorY * sprite.height) * scale, .toNearestOrAwayFromZero)
        let rows = occlusion.exposedRows(masks.drawn, x: x, y: y)
        guard !rows.isEmpty else { continue }
        let width = Float(masks.width)
        let height = Float(masks.height)
        for band in MarkerOcclusion.bands(rows) {
          let part = (
            max(Float(band.minX - x), 0) / width, max(Float(band.minY - y), 0) / height,
            min(Float(band.maxX - x + 1), width) / width, min(Float(band.maxY - y + 1), height) / height
          )
          guard part.0 < part.2, part.1 < part.3 else { continue }
          visible.append(VisiblePart(index: index, part: part, pixel: (x, y)))
        }
        if sprite.opacity >= 1 { occlusion.cover(masks.opaque, x: x, y: y) }
        continue
      }
      // Anything else: the part of its icon under uncovered pixels of its quad (none: culled).
      guard let quad = MarkerRenderer.pixelQuad(sprite, dx: dx, dy: dy, transform: transform, scale: scale) else {
        visible.append(VisiblePart(index: index, part: (0, 0, 1, 1), pixel: nil))
        continue
      }
      let xs = quad.map(\.x)
      let ys = quad.map(\.y)
      guard xs.max()! >= -1, ys.max()! >= -1, xs.min()! <= Double(viewport.pixelWidth + 1),
        ys.min()! <= Double(viewport.pixelHeight + 1)
      else { continue }
      switch MarkerRenderer.exposedPart(
        sprite, quad: quad, dx: dx, dy: dy, occlusion: occlusion, transform: transform, scale: scale)
      {
      case .hidden: continue
      case .part(let part): visible.append(VisiblePart(index: index, part: part, pixel: nil))
      }
    }
    // Stable: a marker's bands stay together, in draw order.
    return visible.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(\.element)
  }

  enum Exposure {
    case hidden
    case part((Float, Float, Float, Float))
  }

  /// For a sprite not drawn texel for pixel (rotated, flat or scaled): the part of its icon
  /// (unit square) under the uncovered pixels of its screen quad, grown by a pixel; hidden
  /// when every pixel is covered. On each pixel row the first and last uncovered pixel
  /// of the quad's span are mapped back into the icon (the maps are affine or projective, so
  /// what lies between them maps between them).
  static func exposedPart(
    _ sprite: MarkerSprite, quad: [ScreenPoint], dx: Double, dy: Double, occlusion: MarkerOcclusion,
    transform: CameraTransform, scale: Double
  ) -> Exposure {
    let angle = sprite.rotation * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    let anchor = sprite.isFlat ? nil : transform.screenPoint(dx: dx, dy: dy)
    /// The icon point (unit square) under a screen point (pixels).
    func iconPoint(_ x: Double, _ y: Double) -> (Double, Double)? {
      let point = ScreenPoint(x: x / scale, y: y / scale)
      var offset: (Double, Double)
      if let anchor {
        offset = (point.x - anchor.x, point.y - anchor.y)
      } else {
        guard let ground = transform.groundOffset(for: point) else { return nil }
        offset = (ground.dx - dx, ground.dy - dy)
      }
      offset = (offset.0 * c + offset.1 * s, -offset.0 * s + offset.1 * c)
      return (offset.0 / sprite.width + sprite.anchorX, offset.1 / sprite.height + sprite.anchorY)
    }
    let minY = MarkerRenderer.pixel(quad.map(\.y).min()!, .down) - 1
    let maxY = MarkerRenderer.pixel(quad.map(\.y).max()!, .up) + 1
    var bounds: (Double, Double, Double, Double)?
    for row in max(minY, 0)...max(min(maxY, occlusion.height - 1), 0) {
      guard let extent = MarkerRenderer.rowExtent(quad, row: row),
        let span = occlusion.uncoveredSpan(
          minX: MarkerRenderer.pixel(extent.low, .down) - 1, maxX: MarkerRenderer.pixel(extent.high, .up) + 1,
          row: row)
      else { continue }
      // The corners of the end pixels grown by a pixel, so rounding and filtering never cut
      // a visible pixel.
      for x in [span.0, span.1] {
        for (px, py) in [(x - 1, row - 1), (x + 2, row - 1), (x - 1, row + 2), (x + 2, row + 2)] {
          // Off the ground: draw the whole sprite.
          guard let (u, v) = iconPoint(Double(px), Double(py)) else { return .part((0, 0, 1, 1)) }
          bounds = bounds.map { (min($0.0, u), min($0.1, v), max($0.2, u), max($0.3, v)) } ?? (u, v, u, v)
        }
      }
    }
    guard let bounds else { return .hidden }
    let part = (
      Float(min(max(bounds.0, 0), 1)), Float(min(max(bounds.1, 0), 1)), Float(min(max(bounds.2, 0), 1)),
      Float(min(max(bounds.3, 0), 1))
    )
    guard part.0 < part.2, part.1 < part.3 else { return .hidden }
    return .part(part)
  }

  /// The x extent (pixels) of a convex quad over the pixel row band [row, row + 1].
  static func rowExtent(_ quad: [ScreenPoint], row: Int) -> (low: Double, high: Double)? {
    var low = Double.infinity
    var high = -Double.infinity
    let top = Double(row)
    let bottom = Double(row + 1)
    for index in 0..<4 {
      let a = quad[index]
      let b = quad[(index + 1) % 4]
      let (y0, y1) = (min(a.y, b.y), max(a.y, b.y))
      guard y1 >= top, y0 <= bottom else { continue }
      for y in [max(y0, top), min(y1, bottom)] {
        let t = a.y == b.y ? 0 : (y - a.y) / (b.y - a.y)
        let x = a.x + (b.x - a.x) * min(max(t, 0), 1)
        low = min(low, x)
        high = max(high, x)
      }
    }
    return low <= high ? (low, high) : nil
  }

  /// A sprite's corners in screen pixels; nil when one is behind the camera.
  static func pixelQuad(
    _ sprite: MarkerSprite, dx: Double, dy: Double, transform: CameraTransform, scale: Double
  ) -> [ScreenPoint]? {
    let angle = sprite.rotation * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    let anchor = sprite.isFlat ? nil : transform.screenPoint(dx: dx, dy: dy)
    if !sprite.isFlat && anchor == nil { return nil }
    var points: [ScreenPoint] = []
    for (u, v) in [(0.0, 0.0), (1, 0), (1, 1), (0, 1)] {
      let lx = (u - sprite.anchorX) * sprite.width
      let ly = (v - sprite.anchorY) * sprite.height
      let (rx, ry) = (lx * c - ly * s, lx * s + ly * c)
      if let anchor {
        points.append(ScreenPoint(x: (anchor.x + rx) * scale, y: (anchor.y + ry) * scale))
      } else {
        guard let point = transform.screenPoint(dx: dx + rx, dy: dy + ry) else { return nil }
        points.append(ScreenPoint(x: point.x * scale, y: point.y * scale))
      }
    }
    return points
  }

  /// A screen coordinate (pixels) as a whole pixel, rounded by `rule`; far outside any view it
  /// is held at ±2^30 pixels (points near the horizon project arbitrarily far).
  static func pixel(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
    let limit = Double(1 << 30)
    return Int(clamping: min(max(value.isNaN ? -limit : value, -limit), limit).rounded(rule))
  }
}
