import Foundation
import Tessera
import TesseraGeo
import TesseraImage

/// `--path`, `--polygon` and `--circle`: overlays from the command line, paths in the Static
/// Maps API's `path=` syntax.
enum OverlayFlags {
  /// The Static Maps API's named colours.
  static let namedColors: [String: (UInt8, UInt8, UInt8)] = [
    "black": (0, 0, 0), "brown": (165, 42, 42), "green": (0, 128, 0), "purple": (128, 0, 128),
    "yellow": (255, 255, 0), "blue": (0, 0, 255), "gray": (128, 128, 128), "orange": (255, 165, 0),
    "red": (255, 0, 0), "white": (255, 255, 255),
  ]

  /// `color:0xRRGGBB[AA]`, a named colour, or any CSS colour.
  static func color(_ text: String, option: String) throws(UsageError) -> Color {
    let lower = text.lowercased()
    if let (r, g, b) = namedColors[lower] { return Color(r: r, g: g, b: b) }
    if lower.hasPrefix("0x") {
      let hex = String(lower.dropFirst(2))
      guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else {
        throw UsageError("--\(option): expected 0xRRGGBB or 0xRRGGBBAA, found '\(text)'")
      }
      let full = hex.count == 6 ? value << 8 | 0xFF : value
      return Color(
        r: UInt8(full >> 24), g: UInt8((full >> 16) & 0xFF), b: UInt8((full >> 8) & 0xFF), a: UInt8(full & 0xFF))
    }
    return try ValueParsers.color(text, option: option)
  }

  /// A Static Maps path: `color:…|weight:…|fillcolor:…|geodesic:true|lat,lng|lat,lng…` or
  /// `…|enc:ENCODED`. With `fillcolor` (always for `--polygon`) it is a filled polygon.
  static func path(_ text: String, option: String, closed: Bool) throws(UsageError) -> MapOverlay {
    var color = Color(r: 0, g: 0, b: 255)
    var weight = 5.0
    var fill: Color?
    var geodesic = false
    var points: [Coordinate] = []
    for part in text.split(separator: "|", omittingEmptySubsequences: true).map(String.init) {
      let pieces = part.split(separator: ":", maxSplits: 1).map(String.init)
      if pieces.count == 2, ["color", "weight", "fillcolor", "geodesic", "enc"].contains(pieces[0].lowercased()) {
        let (key, value) = (pieces[0].lowercased(), pieces[1])
        switch key {
        case "color": color = try OverlayFlags.color(value, option: option)
        case "fillcolor": fill = try OverlayFlags.color(value, option: option)
        case "weight":
          guard let number = Double(value), number.isFinite, number >= 0, number <= 1000 else {
            throw UsageError("--\(option): weight must be a number of pixels in 0…1000, found '\(value)'")
          }
          weight = number
        case "geodesic": geodesic = value == "true"
        default:
          do {
            points += try EncodedPolyline.decode(value)
          } catch {
            throw UsageError("--\(option): \(error)")
          }
        }
        continue
      }
      let numbers = part.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
      guard numbers.count == 2, numbers.allSatisfy(\.isFinite), abs(numbers[0]) <= 90 else {
        throw UsageError("--\(option): expected LAT,LNG or key:value, found '\(part)' (addresses are not looked up)")
      }
      points.append(Coordinate(latitude: numbers[0], longitude: numbers[1]))
    }
    guard points.count >= 2 else {
      throw UsageError("--\(option): a path needs at least two points, found \(points.count)")
    }
    if closed || fill != nil {
      let polygon = Polygon(path: points)
      polygon.fillColor = fill ?? Color(red: 0, green: 0, blue: 1, alpha: 0.25)
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

  /// `LAT,LNG,RADIUS_M[,fill=CSS][,stroke=CSS][,width=PT][,z=N]`.
  static func circle(_ text: String) throws(UsageError) -> Circle {
    let parts = MarkerFlag.parts(text)
    guard parts.count >= 3, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
      let radius = Double(parts[2]), latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, radius.isFinite,
      radius >= 0, radius <= 20_000_000
    else {
      throw UsageError("--circle: expected LAT,LNG,RADIUS_M with a radius in 0…20,000,000 metres, found '\(text)'")
    }
    let circle = Circle(position: Coordinate(latitude: latitude, longitude: longitude), radius: radius)
    for part in parts.dropFirst(3) {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      let value = pair.count > 1 ? pair[1] : ""
      switch pair[0] {
      case "fill": circle.fillColor = try ValueParsers.color(value, option: "circle fill")
      case "stroke": circle.strokeColor = try ValueParsers.color(value, option: "circle stroke")
      case "width":
        guard let width = Double(value), width.isFinite, width >= 0, width <= 1000 else {
          throw UsageError("--circle: width must be points in 0…1000, found '\(value)'")
        }
        circle.strokeWidth = width
      case "z":
        guard let z = Int(value), abs(z) <= Int(Int32.max) else {
          throw UsageError("--circle: z must be an integer, found '\(value)'")
        }
        circle.zIndex = z
      default: throw UsageError("--circle: unknown key '\(pair[0])' in '\(text)'")
      }
    }
    return circle
  }
}
