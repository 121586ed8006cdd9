import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// What polylines have beyond one colour: style spans (GMSStyleSpan), repeating dashes of
/// colours and stroke patterns, read from a scene and drawn.
enum PolylineSpans {
  /// `"spans": [{"color" | "gradient": [FROM, TO] | "stamp": PNG, "segments": N}]` and
  /// `"dashes": {"colors": [CSS, …], "lengths": [METRES, …], "kind": "geodesic"|"rhumb"|"projected"}`.
  static func read(_ cursor: JSONCursor, path: [Coordinate], reader: OverlayReader) throws -> [StyleSpan] {
    var spans: [StyleSpan] = []
    if !cursor["spans"].isAbsentOrNull {
      for element in try cursor["spans"].elements() {
        let segments = try element["segments"].number(default: 1, in: 1e-9...1e9)
        if let color = try OverlayReader.color(element["color"]) {
          spans.append(StyleSpan(color: color, segments: segments))
        } else if !element["gradient"].isAbsentOrNull {
          let colors = try element["gradient"].elements().map { try OverlayReader.color($0) }
          guard colors.count == 2, let from = colors[0], let to = colors[1] else {
            throw OverlayError(element, ".gradient", reason: "expected [FROM, TO] colours")
          }
          spans.append(StyleSpan(style: .gradient(from: from, to: to), segments: segments))
        } else if let stamp = try element["stamp"].optionalString() {
          let image = try reader.picture(stamp, field: element["stamp"])
          spans.append(StyleSpan(style: .stamp(image), segments: segments))
        } else {
          throw OverlayError(element, reason: "a span needs \"color\", \"gradient\" or \"stamp\"")
        }
      }
    }
    let dashes = cursor["dashes"]
    if !dashes.isAbsentOrNull {
      let styles = try dashes["colors"].elements().map { element -> StrokeStyle in
        guard let color = try OverlayReader.color(element) else {
          throw OverlayError(element, reason: "expected a colour")
        }
        return .solid(color)
      }
      let lengths = try dashes["lengths"].elements().map { try $0.number(in: 0...1e8) }
      guard !styles.isEmpty, lengths.contains(where: { $0 > 0 }) else {
        throw OverlayError(dashes, reason: "expected colours and lengths with one above 0")
      }
      let kinds: [String: StyleSpan.LengthKind] = ["geodesic": .geodesic, "rhumb": .rhumb, "projected": .projected]
      let kindName = try dashes["kind"].optionalString() ?? "geodesic"
      guard let kind = kinds[kindName] else {
        throw OverlayError(dashes, ".kind", reason: "expected geodesic, rhumb or projected")
      }
      spans += StyleSpan.repeating(path: path, styles: styles, lengths: lengths, kind: kind)
    }
    return spans
  }

  /// `"pattern": ["dash:POINTS", "gap:POINTS", "dot", …]`.
  static func pattern(_ cursor: JSONCursor) throws -> [PatternItem] {
    guard !cursor.isAbsentOrNull else { return [] }
    return try cursor.elements().map { element in
      let text = try element.string()
      if text == "dot" { return .dot }
      let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
      guard parts.count == 2, let length = Double(parts[1]), length.isFinite, (0...10_000).contains(length),
        parts[0] == "dash" || parts[0] == "gap"
      else {
        throw OverlayError(element, reason: "expected \"dash:POINTS\", \"gap:POINTS\" or \"dot\"")
      }
      return parts[0] == "dash" ? .dash(length) : .gap(length)
    }
  }

  /// A line `width` points wide in `color` with `pattern` repeated along it: a layer of its
  /// own with `line-dasharray` (round caps when the pattern has dots).
  static func addDashed(
    _ line: [Coordinate], color: Color, width: Double, pattern: [PatternItem], to style: inout OverlayStyleBuilder
  ) {
    guard color.alpha > 0 else { return }
    let hasDots = pattern.contains(.dot)
    // With round caps (needed for dots) every dash grows by a line width: dashes are
    // shortened and gaps lengthened by as much so the pattern keeps its lengths in points.
    var lengths: [Double] = []
    for item in pattern {
      let (dash, gap): (Double?, Double?)
      switch item {
      case .dash(let length): (dash, gap) = (max(length - (hasDots ? width : 0), 0), nil)
      case .dot: (dash, gap) = (0, nil)
      case .gap(let length): (dash, gap) = (nil, length + (hasDots ? width : 0))
      }
      if let dash {
        if lengths.count % 2 == 1 { lengths.append(0) }
        lengths.append(dash / width)
      }
      if let gap {
        if lengths.count % 2 == 0 { lengths.append(0) }
        lengths.append(gap / width)
      }
    }
    if lengths.count % 2 == 1 { lengths.append(hasDots ? 1 : 0) }
    guard lengths.contains(where: { $0 > 0 }) else { return }
    var layer = OverlayLayer(.line, source: .features)
    layer.setLineJoin(.round)
    layer.setLineCap(hasDots ? .round : .butt)
    layer.setLineWidth(width)
    layer.setLineColor(color)
    layer.setLineDashArray(lengths)
    style.addLine(line, drawnBy: layer)
  }
}

extension StyleSpan {
  /// The colour of a solid span.
  var solidColor: Color? {
    if case .solid(let color) = style { return color }
    return nil
  }
}
