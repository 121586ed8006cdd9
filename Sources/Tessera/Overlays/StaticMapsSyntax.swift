import Foundation
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// A value in the Google Static Maps API's syntax that cannot be read.
public struct StaticMapsSyntaxError: Error, Equatable, CustomStringConvertible {
  public let reason: String
  public var description: String { reason }
}

/// The Google Static Maps API's `path=` and `markers=` syntax, shared by the command line and
/// the render service.
public enum StaticMapsSyntax {
  /// The API's named colours.
  public static let namedColors: [String: (UInt8, UInt8, UInt8)] = [
    "black": (0, 0, 0), "brown": (165, 42, 42), "green": (0, 128, 0), "purple": (128, 0, 128),
    "yellow": (255, 255, 0), "blue": (0, 0, 255), "gray": (128, 128, 128), "orange": (255, 165, 0),
    "red": (255, 0, 0), "white": (255, 255, 255),
  ]

  /// `0xRRGGBB`, `0xRRGGBBAA` (alpha last), a named colour, or any CSS colour.
  public static func color(_ text: String) throws(StaticMapsSyntaxError) -> Color {
    let lower = text.lowercased()
    if let (r, g, b) = namedColors[lower] { return Color(r: r, g: g, b: b) }
    if lower.hasPrefix("0x") {
      let hex = String(lower.dropFirst(2))
      guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else {
        throw StaticMapsSyntaxError(reason: "expected 0xRRGGBB or 0xRRGGBBAA, found '\(text)'")
      }
      let full = hex.count == 6 ? value << 8 | 0xFF : value
      return Color(
        r: UInt8(full >> 24), g: UInt8((full >> 16) & 0xFF), b: UInt8((full >> 8) & 0xFF), a: UInt8(full & 0xFF))
    }
    guard let color = try? Color(css: text) else {
      throw StaticMapsSyntaxError(reason: "expected 0xRRGGBB, 0xRRGGBBAA or a colour name, found '\(text)'")
    }
    return color
  }

  /// A `path=` value: `color:…|weight:…|fillcolor:…|geodesic:true|lat,lng|lat,lng…` or
  /// `…|enc:ENCODED`. With `fillcolor` (or `closed`) it is a filled polygon.
  public struct Path: Sendable, Equatable {
    public var points: [Coordinate] = []
    public var color = Color(r: 0, g: 0, b: 255)
    /// Pixels (points); the API's default 5.
    public var weight = 5.0
    public var fill: Color?
    public var geodesic = false

    public init(_ text: String, closed: Bool = false) throws(StaticMapsSyntaxError) {
      // An encoded polyline runs to the end of the value: it may itself hold "|".
      var text = text
      if let range = text.range(of: "enc:"),
        range.lowerBound == text.startIndex || text[text.index(before: range.lowerBound)] == "|"
      {
        do {
          points = try EncodedPolyline.decode(String(text[range.upperBound...]))
        } catch {
          throw StaticMapsSyntaxError(reason: "\(error)")
        }
        text = String(text[..<range.lowerBound])
      }
      for part in text.split(separator: "|", omittingEmptySubsequences: true).map(String.init) {
        let pieces = part.split(separator: ":", maxSplits: 1).map(String.init)
        if pieces.count == 2, ["color", "weight", "fillcolor", "geodesic"].contains(pieces[0].lowercased()) {
          let (key, value) = (pieces[0].lowercased(), pieces[1])
          switch key {
          case "color": color = try StaticMapsSyntax.color(value)
          case "fillcolor": fill = try StaticMapsSyntax.color(value)
          case "weight":
            guard let number = Double(value), number.isFinite, number >= 0, number <= 1000 else {
              throw StaticMapsSyntaxError(reason: "weight must be a number of pixels in 0…1000, found '\(value)'")
            }
            weight = number
          default: geodesic = value == "true"
          }
          continue
        }
        let numbers = part.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 2, numbers.allSatisfy(\.isFinite), abs(numbers[0]) <= 90, abs(numbers[1]) <= 3600 else {
          throw StaticMapsSyntaxError(
            reason: "expected LAT,LNG or key:value, found '\(part)' (addresses are not looked up)")
        }
        points.append(Coordinate(latitude: numbers[0], longitude: numbers[1]))
      }
      guard points.count >= 2 else {
        throw StaticMapsSyntaxError(reason: "a path needs at least two points, found \(points.count)")
      }
      if closed && fill == nil { fill = Color(red: 0, green: 0, blue: 1, alpha: 0.25) }
    }

    /// The overlay: a polygon when filled, else a polyline.
    public func overlay() -> MapOverlay {
      if let fill {
        let polygon = Polygon(path: points)
        polygon.fillColor = fill
        polygon.strokeColor = color
        polygon.strokeWidth = weight
        polygon.geodesic = geodesic
        return polygon
      }
      let polyline = Polyline(path: points)
      polyline.strokeColor = color
      polyline.strokeWidth = weight
      polyline.geodesic = geodesic
      return polyline
    }

    /// The overlays of `paths`: lines first, then filled polygons (the order a scene's
    /// `polylines` and `polygons` fields are read in), each in the order given.
    public static func overlays(_ paths: [Path]) -> [MapOverlay] {
      OverlayKinds.inReadingOrder(paths.map { $0.overlay() })
    }
  }

  /// A `markers=` value: style options (`size:`, `color:`, `label:`, `icon:`, `anchor:`,
  /// `scale:`) then locations.
  public struct Markers: Sendable, Equatable {
    public var points: [Coordinate] = []
    public var size = "normal"
    public var color: Color?
    public var label: String?
    public var icon: String?
    public var anchor: String?
    public var scale = 1.0

    public init(_ text: String) throws(StaticMapsSyntaxError) {
      for part in text.split(separator: "|", omittingEmptySubsequences: true).map(String.init) {
        let pieces = part.split(separator: ":", maxSplits: 1).map(String.init)
        if pieces.count == 2, ["size", "color", "label", "icon", "anchor", "scale"].contains(pieces[0].lowercased()) {
          let value = pieces[1]
          switch pieces[0].lowercased() {
          case "size":
            guard ["tiny", "mid", "small", "normal"].contains(value) else {
              throw StaticMapsSyntaxError(reason: "marker size must be tiny, mid, small or normal, found '\(value)'")
            }
            size = value
          case "color": color = try StaticMapsSyntax.color(value)
          case "label":
            guard let character = MarkerIcon.staticMapsLabel(value) else {
              throw StaticMapsSyntaxError(
                reason: "a marker label is one character A–Z or 0–9 or one emoji, found '\(value)'")
            }
            label = String(character)
          case "icon": icon = value
          case "anchor": anchor = value
          default:
            guard let number = Double(value), [1.0, 2, 4].contains(number) else {
              throw StaticMapsSyntaxError(reason: "marker scale must be 1, 2 or 4, found '\(value)'")
            }
            scale = number
          }
          continue
        }
        let numbers = part.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 2, numbers.allSatisfy(\.isFinite), abs(numbers[0]) <= 90, abs(numbers[1]) <= 3600 else {
          throw StaticMapsSyntaxError(
            reason: "expected a marker location LAT,LNG, found '\(part)' (addresses are not looked up)")
        }
        points.append(Coordinate(latitude: numbers[0], longitude: numbers[1]))
      }
    }
  }
}
