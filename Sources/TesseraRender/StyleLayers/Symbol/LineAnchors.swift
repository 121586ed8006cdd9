import Foundation
import TesseraNumbers

/// Where a label stands on a line: the point, the segment it lies on (from `line[segment]`
/// to `line[segment + 1]`), in bucket units.
struct LineAnchor: Sendable {
  let point: SIMD2<Double>
  let segment: Int
}

/// MapLibre's anchors of labels along lines: the line resampled every `symbol-spacing`
/// (widened so that labels keep a quarter spacing apart), starting half a label plus two ems in
/// (or half a spacing on lines continued from a neighbouring tile), keeping points inside the
/// tile where the whole label fits on the line and its bends stay within `text-max-angle` over
/// a window of three fifths of an em; a line too short for any gets one anchor at its middle.
enum LineAnchors {
  /// One em, pixels.
  static let glyphSize = 24.0

  /// - Parameters:
  ///   - line: bucket units.
  ///   - spacing: bucket units.
  ///   - labelWidth: the label's width in pixels at 24 px (text, or the icon when wider).
  ///   - boxScale: bucket units per pixel at 24 px (the layout text size over 24, times bucket
  ///     units per pixel).
  ///   - maxAngle: radians.
  static func anchors(
    _ line: [SIMD2<Double>], spacing: Double, labelWidth: Double, boxScale: Double, overscale: Double,
    maxAngle: Double, hasText: Bool, extent: Double
  ) -> [LineAnchor] {
    guard line.count > 1 else { return [] }
    let angleWindow = hasText ? 3.0 / 5.0 * glyphSize * boxScale : 0
    let labelLength = labelWidth * boxScale
    let first = line[0]
    let continued = first.x == 0 || first.x == extent || first.y == 0 || first.y == extent
    var spacing = spacing
    if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
    let fixedExtraOffset = glyphSize * 2
    let offset =
      !continued
      ? ((labelWidth / 2 + fixedExtraOffset) * boxScale * overscale).truncatingRemainder(dividingBy: spacing)
      : (spacing / 2 * overscale).truncatingRemainder(dividingBy: spacing)
    return resample(
      line, offset: offset, spacing: spacing, angleWindow: angleWindow, maxAngle: maxAngle, labelLength: labelLength,
      continued: continued, atMiddle: false, extent: extent)
  }

  /// `lines` clipped to the tile square 0…`extent` (MapLibre's clipLines): a line leaving and
  /// re-entering becomes two; clipped ends lie on the square's edges (rounded to bucket units).
  static func clip(_ lines: [[SIMD2<Double>]], extent: Double) -> [[SIMD2<Double>]] {
    var result: [[SIMD2<Double>]] = []
    for line in lines where line.count > 1 {
      for index in 0..<(line.count - 1) {
        var p0 = line[index]
        var p1 = line[index + 1]
        func cut(_ a: SIMD2<Double>, _ b: SIMD2<Double>, x: Double) -> SIMD2<Double> {
          SIMD2(x, (a.y + (b.y - a.y) * ((x - a.x) / (b.x - a.x))).rounded())
        }
        func cut(_ a: SIMD2<Double>, _ b: SIMD2<Double>, y: Double) -> SIMD2<Double> {
          SIMD2((a.x + (b.x - a.x) * ((y - a.y) / (b.y - a.y))).rounded(), y)
        }
        if p0.x < 0 && p1.x < 0 { continue }
        if p0.x < 0 { p0 = cut(p0, p1, x: 0) } else if p1.x < 0 { p1 = cut(p0, p1, x: 0) }
        if p0.y < 0 && p1.y < 0 { continue }
        if p0.y < 0 { p0 = cut(p0, p1, y: 0) } else if p1.y < 0 { p1 = cut(p0, p1, y: 0) }
        if p0.x >= extent && p1.x >= extent { continue }
        if p0.x >= extent { p0 = cut(p0, p1, x: extent) } else if p1.x >= extent { p1 = cut(p0, p1, x: extent) }
        if p0.y >= extent && p1.y >= extent { continue }
        if p0.y >= extent { p0 = cut(p0, p1, y: extent) } else if p1.y >= extent { p1 = cut(p0, p1, y: extent) }
        if result.isEmpty || result[result.count - 1].last != p0 { result.append([p0]) }
        result[result.count - 1].append(p1)
      }
    }
    return result
  }

  static func length(_ line: [SIMD2<Double>]) -> Double {
    zip(line, line.dropFirst()).reduce(0) { $0 + distance($1.0, $1.1) }
  }

  static func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
  }

  static func resample(
    _ line: [SIMD2<Double>], offset: Double, spacing: Double, angleWindow: Double, maxAngle: Double,
    labelLength: Double, continued: Bool, atMiddle: Bool, extent: Double
  ) -> [LineAnchor] {
    let half = labelLength / 2
    let total = length(line)
    var travelled = 0.0
    var marked = offset - spacing
    var anchors: [LineAnchor] = []
    guard spacing > 0 else { return [] }
    for index in 0..<(line.count - 1) {
      let a = line[index]
      let b = line[index + 1]
      let segment = distance(a, b)
      var steps = 0
      while marked + spacing < travelled + segment, steps < 10_000 {
        steps += 1
        marked += spacing
        let t = (marked - travelled) / segment
        let x = a.x + (b.x - a.x) * t
        let y = a.y + (b.y - a.y) * t
        if x >= 0, x < extent, y >= 0, y < extent, marked - half >= 0, marked + half <= total {
          let anchor = LineAnchor(point: SIMD2(x.rounded(), y.rounded()), segment: index)
          if angleWindow == 0
            || fitsMaxAngle(line, anchor: anchor, labelLength: labelLength, window: angleWindow, maxAngle: maxAngle)
          {
            anchors.append(anchor)
          }
        }
      }
      travelled += segment
    }
    if !atMiddle, anchors.isEmpty, !continued {
      return resample(
        line, offset: travelled / 2, spacing: spacing, angleWindow: angleWindow, maxAngle: maxAngle,
        labelLength: labelLength, continued: continued, atMiddle: true, extent: extent)
    }
    return anchors
  }

  /// The anchor at the middle of the line (`line-center`), if the label fits its bends.
  static func center(
    _ line: [SIMD2<Double>], labelWidth: Double, boxScale: Double, maxAngle: Double, hasText: Bool
  ) -> LineAnchor? {
    let middle = length(line) / 2
    var travelled = 0.0
    for index in 0..<max(line.count - 1, 0) {
      let (a, b) = (line[index], line[index + 1])
      let segment = distance(a, b)
      if travelled + segment > middle {
        let t = (middle - travelled) / segment
        let anchor = LineAnchor(
          point: SIMD2((a.x + (b.x - a.x) * t).rounded(), (a.y + (b.y - a.y) * t).rounded()), segment: index)
        let window = hasText ? 3.0 / 5.0 * glyphSize * boxScale : 0
        guard
          window == 0
            || fitsMaxAngle(
              line, anchor: anchor, labelLength: labelWidth * boxScale, window: window, maxAngle: maxAngle)
        else { return nil }
        return anchor
      }
      travelled += segment
    }
    return nil
  }

  /// The angle from `b` to `a` (MapLibre's angle_to).
  static func angle(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { atan2(a.y - b.y, a.x - b.x) }

  /// Whether the label fits on the line around `anchor` with the bends within any window
  /// adding up to at most `maxAngle`.
  static func fitsMaxAngle(
    _ line: [SIMD2<Double>], anchor: LineAnchor, labelLength: Double, window: Double, maxAngle: Double
  ) -> Bool {
    var index = anchor.segment + 1
    var point = anchor.point
    var along = 0.0
    // Back to the first segment the label lies on.
    while along > -labelLength / 2 {
      if index == 0 { return false }
      index -= 1
      along -= distance(line[index], point)
      point = line[index]
    }
    along += distance(line[index], line[index + 1])
    index += 1
    var corners: [(distance: Double, angle: Double)] = []
    var first = 0
    var sum = 0.0
    while along < labelLength / 2 {
      if index + 1 >= line.count { return false }
      let previous = line[index - 1]
      let current = line[index]
      let next = line[index + 1]
      var delta = angle(previous, current) - angle(current, next)
      delta = abs((delta + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi)
      corners.append((along, delta))
      sum += delta
      while along - corners[first].distance > window {
        sum -= corners[first].angle
        first += 1
      }
      if sum > maxAngle { return false }
      index += 1
      along += distance(current, next)
    }
    return true
  }
}
