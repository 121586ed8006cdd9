import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// How a stretch of a polyline is drawn (GMSStrokeStyle).
public enum StrokeStyle: Equatable, Sendable {
  /// One colour.
  case solid(Color)
  /// A colour that changes evenly from `from` at the start of the span to `to` at its end.
  case gradient(from: Color, to: Color)
  /// A picture repeated along the line (GMSTextureStyle): squashed to a square as wide as the
  /// line, the top of the picture toward the start of the line.
  case stamp(RGBAImage)

  /// Nothing drawn (a gap between dashes).
  public static let clear = StrokeStyle.solid(.transparent)
}

/// The style of a run of a polyline's segments (GMSStyleSpan): `segments` may be fractional
/// (1.5 ends halfway along the second segment). If the spans cover fewer segments than the
/// path has, the last span's style covers the rest.
public struct StyleSpan: Equatable, Sendable {
  public var style: StrokeStyle
  /// Path segments, more than 0.
  public var segments: Double

  public init(style: StrokeStyle, segments: Double = 1) {
    self.style = style
    self.segments = segments
  }

  public init(color: Color, segments: Double = 1) {
    self.init(style: .solid(color), segments: segments)
  }

  /// How the lengths of ``repeating(path:styles:lengths:kind:)`` are measured.
  public enum LengthKind: Sendable {
    /// Metres along great circles.
    case geodesic
    /// Metres along lines of constant bearing.
    case rhumb
    /// Web Mercator world units at zoom 0 (256 points around the equator).
    case projected
  }

  /// Spans repeating `styles` along `path` with the matching `lengths` (GMSStyleSpans): each
  /// list wraps when used up, so `[blue, clear]` with `[40, 20]` draws 40 m dashes with 20 m
  /// gaps. Lengths are measured as `kind` says; lengths that are not positive are skipped.
  /// At most ``maximumRepeatedSpans`` spans are made (the rest of the path takes the last one).
  public static func repeating(
    path: [Coordinate], styles: [StrokeStyle], lengths: [Double], kind: LengthKind
  ) -> [StyleSpan] {
    guard path.count > 1, !styles.isEmpty, lengths.contains(where: { $0 > 0 && $0.isFinite }) else { return [] }
    // A segment whose length cannot be measured (non-finite coordinates) counts as empty.
    let segmentLengths = zip(path, path.dropFirst()).map { a, b in
      let length = kind.length(a, b)
      return length.isFinite ? length : 0
    }
    var spans: [StyleSpan] = []
    var index = 0
    var segment = 0
    var offset = 0.0  // metres already used of the current segment
    // Every turn either makes a span or skips a length that is not positive, so the turns are
    // bounded by the spans allowed plus one pass over the lengths per span.
    let maximumTurns = maximumRepeatedSpans * (lengths.count + 1)
    while segment < segmentLengths.count, spans.count < maximumRepeatedSpans, index < maximumTurns {
      let length = lengths[index % lengths.count]
      let style = styles[index % styles.count]
      index += 1
      guard length > 0, length.isFinite else { continue }
      var remaining = length
      var covered = 0.0
      while segment < segmentLengths.count, remaining > 0 {
        let total = segmentLengths[segment]
        let left = total - offset
        if total <= 0 || left <= remaining {
          covered += total > 0 ? left / total : 1
          remaining -= max(left, 0)
          segment += 1
          offset = 0
        } else {
          covered += remaining / total
          offset += remaining
          remaining = 0
        }
      }
      if covered > 0 { spans.append(StyleSpan(style: style, segments: covered)) }
    }
    return spans
  }

  /// The most spans ``repeating(path:styles:lengths:kind:)`` makes.
  public static let maximumRepeatedSpans = 100_000
}

extension StyleSpan.LengthKind {
  /// The length from `a` to `b`.
  func length(_ a: Coordinate, _ b: Coordinate) -> Double {
    switch self {
    case .geodesic:
      return OverlayGeometry.centralAngle(a, b) * OverlayGeometry.earthRadius
    case .rhumb:
      return OverlayGeometry.rhumbDistance(a, b)
    case .projected:
      let (pa, pb) = (Mercator.project(a, zoom: 0), Mercator.project(b, zoom: 0))
      return hypot(pb.x - pa.x, pb.y - pa.y)
    }
  }
}

/// A screen-space stroke pattern (the Android SDK's PatternItem): dashes and gaps in points,
/// dots as round points as wide as the line.
public enum PatternItem: Equatable, Sendable {
  case dash(Double)
  case gap(Double)
  case dot
}
