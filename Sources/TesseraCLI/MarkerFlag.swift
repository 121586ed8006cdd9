import Foundation
import Tessera
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

/// `--marker LAT,LNG[,key=value…]`: one marker from the command line.
enum MarkerFlag {
  /// The keys a spec may hold after `LAT,LNG`.
  static let keys = [
    "color", "icon", "selected", "info-window", "info-anchor", "title", "snippet", "rotation", "flat", "opacity", "z",
    "anchor", "appear",
  ]

  /// The marker a spec describes, and whether it asks to be selected (`selected`).
  static func parse(_ text: String, icons: IconSources) throws -> (marker: Marker, selected: Bool) {
    let parts = try FlagSpec.parts(text, option: "marker")
    guard parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
      latitude.isFinite, longitude.isFinite, abs(latitude) <= 90
    else {
      throw UsageError("--marker: expected LAT,LNG[,key=value…], found '\(text)'")
    }
    let marker = Marker(position: Coordinate(latitude: latitude, longitude: longitude))
    var selected = false
    for part in parts.dropFirst(2) {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      let key = pair[0]
      let value = pair.count > 1 ? pair[1] : ""
      guard keys.contains(key) else { throw UsageError("--marker: unknown key '\(key)' in '\(text)'") }
      func number() throws(UsageError) -> Double {
        guard let number = Double(value), number.isFinite else {
          throw UsageError("--marker: \(key) needs a number, found '\(value)' in '\(text)'")
        }
        return number
      }
      switch key {
      case "color": marker.icon = .markerImage(color: try ValueParsers.color(value, option: "marker color"))
      case "icon": marker.icon = try icons.icon(value, key: "icon")
      case "selected": selected = value.isEmpty || value == "true"
      case "info-window": marker.infoWindowIcon = try icons.icon(value, key: "info-window")
      case "info-anchor":
        let xy = value.split(separator: ":").compactMap { Double($0) }
        guard xy.count == 2, xy.allSatisfy({ $0.isFinite && abs($0) <= 100 }) else {
          throw UsageError("--marker: info-anchor needs X:Y in −100…100, found '\(value)'")
        }
        marker.infoWindowAnchor = MarkerAnchor(x: xy[0], y: xy[1])
      case "title": marker.title = value
      case "snippet": marker.snippet = value
      case "rotation": marker.rotation = try number()
      case "flat": marker.isFlat = value.isEmpty || value == "true"
      case "opacity":
        let opacity = try number()
        guard (0...1).contains(opacity) else { throw UsageError("--marker: opacity must be in 0…1") }
        marker.opacity = opacity
      case "z":
        marker.zIndex = try ValueParsers.integer(
          fromNumber: value, option: "marker z", range: Int(Int32.min)...Int(Int32.max))
      case "anchor":
        let xy = value.split(separator: ":").compactMap { Double($0) }
        guard xy.count == 2, xy.allSatisfy({ $0.isFinite && abs($0) <= 100 }) else {
          throw UsageError("--marker: anchor needs X:Y in −100…100, found '\(value)'")
        }
        marker.groundAnchor = MarkerAnchor(x: xy[0], y: xy[1])
      case "appear":
        guard let animation = ["pop": MarkerAppearAnimation.pop, "fadeIn": .fadeIn, "none": .none][value] else {
          throw UsageError("--marker: appear must be pop, fadeIn or none")
        }
        marker.appearAnimation = animation
      default:
        throw UsageError("--marker: unknown key '\(key)' in '\(text)'")
      }
    }
    return (marker, selected)
  }
}
