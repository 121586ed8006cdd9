import Foundation
import Tessera
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// `--path`, `--polygon` and `--circle`: overlays from the command line, paths in the Static
/// Maps API's `path=` syntax.
enum OverlayFlags {
  /// The keys a `--circle` spec may hold after `LAT,LNG,RADIUS_M`.
  static let circleKeys = ["fill", "stroke", "width", "z", "title"]

  /// `color:0xRRGGBB[AA]`, a named colour, or any CSS colour.
  static func color(_ text: String, option: String) throws(UsageError) -> Color {
    do {
      return try StaticMapsSyntax.color(text)
    } catch {
      throw UsageError("--\(option): \(error.reason)")
    }
  }

  /// A Static Maps path (``StaticMapsSyntax/Path``); with `fillcolor` (always for
  /// `--polygon`) a filled polygon.
  static func path(_ text: String, option: String, closed: Bool) throws(UsageError) -> MapOverlay {
    do {
      return try StaticMapsSyntax.Path(text, closed: closed).overlay()
    } catch {
      throw UsageError("--\(option): \(error.reason)")
    }
  }

  /// `LAT,LNG,RADIUS_M[,fill=CSS][,stroke=CSS][,width=PT][,z=N][,title=T]`.
  static func circle(_ text: String) throws(UsageError) -> Circle {
    let parts = try FlagSpec.parts(text, option: "circle")
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
      guard circleKeys.contains(pair[0]) else { throw UsageError("--circle: unknown key '\(pair[0])' in '\(text)'") }
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
      case "title": circle.title = value
      default: throw UsageError("--circle: unknown key '\(pair[0])' in '\(text)'")
      }
    }
    return circle
  }
}
