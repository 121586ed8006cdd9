import TesseraGeo
import TesseraNumbers

/// The one-line text form of camera updates and cameras, shared by scene files (`updates`,
/// `animation.update`) and the command line (`--update`, `--animate`):
///
/// | text | update |
/// |---|---|
/// | `zoomIn`, `zoomOut` | zoom ±1 |
/// | `zoomTo:Z` | zoom to Z |
/// | `zoomBy:D` or `zoomBy:D@X,Y` | zoom by D, keeping screen point (X, Y) fixed |
/// | `target:LAT,LNG` or `target:LAT,LNG,Z` | move the target (and set the zoom) |
/// | `camera:LAT,LNG,Z[,BEARING[,TILT]]` | replace the camera |
/// | `scrollBy:X,Y` | scroll by screen points |
/// | `fit:W,S,E,N` (64-point padding), `fit:W,S,E,N@P`, `fit:W,S,E,N@T,L,B,R` | fit bounds |
extension CameraUpdate {
  /// Parses the text form, or throws ``CameraUpdateSyntaxError`` saying what was expected.
  public init(text: String) throws(CameraUpdateSyntaxError) {
    let trimmed = text.filter { $0 != " " }
    let parts = trimmed.split(separator: ":", maxSplits: 1).map(String.init)
    let name = parts.first ?? ""
    let argument = parts.count > 1 ? parts[1] : ""
    func numbers(_ text: String, _ counts: ClosedRange<Int>, _ form: String) throws(CameraUpdateSyntaxError) -> [Double]
    {
      let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
      guard counts.contains(values.count), values.allSatisfy({ $0?.isFinite == true }) else {
        throw CameraUpdateSyntaxError(text: text.isEmpty ? trimmed : text, expected: form)
      }
      return values.map { $0! }
    }
    switch name {
    case "zoomIn" where argument.isEmpty: self = .zoomIn
    case "zoomOut" where argument.isEmpty: self = .zoomOut
    case "zoomTo": self = .zoomTo(try numbers(argument, 1...1, "zoomTo:Z")[0])
    case "zoomBy":
      let halves = argument.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
      let delta = try numbers(halves[0], 1...1, "zoomBy:D or zoomBy:D@X,Y")[0]
      if halves.count == 2 {
        let point = try numbers(halves[1], 2...2, "zoomBy:D@X,Y")
        self = .zoomBy(delta, atPoint: ScreenPoint(x: point[0], y: point[1]))
      } else {
        self = .zoomBy(delta)
      }
    case "target":
      let values = try numbers(argument, 2...3, "target:LAT,LNG or target:LAT,LNG,ZOOM")
      self = .setTarget(
        Coordinate(latitude: values[0], longitude: values[1]), zoom: values.count == 3 ? values[2] : nil)
    case "camera":
      self = .setCamera(try Camera(text: argument))
    case "scrollBy":
      let values = try numbers(argument, 2...2, "scrollBy:X,Y")
      self = .scrollBy(x: values[0], y: values[1])
    case "fit":
      let halves = argument.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
      let box = try numbers(halves[0], 4...4, "fit:W,S,E,N")
      let bounds = CoordinateBounds(south: box[1], west: box[0], north: box[3], east: box[2])
      guard bounds.isValid else {
        throw CameraUpdateSyntaxError(text: halves[0], expected: "bounds with south ≤ north")
      }
      if halves.count == 2 {
        let padding = try numbers(halves[1], 1...4, "fit:W,S,E,N@PADDING or @T,L,B,R")
        guard padding.count == 1 || padding.count == 4, padding.allSatisfy({ $0 >= 0 }) else {
          throw CameraUpdateSyntaxError(text: halves[1], expected: "one padding or four insets T,L,B,R, none negative")
        }
        self =
          padding.count == 1
          ? .fit(bounds, padding: padding[0])
          : .fit(bounds, insets: EdgeInsets(top: padding[0], left: padding[1], bottom: padding[2], right: padding[3]))
      } else {
        self = .fit(bounds)
      }
    default:
      throw CameraUpdateSyntaxError(
        text: trimmed, expected: "zoomIn, zoomOut, zoomTo:, zoomBy:, target:, camera:, scrollBy: or fit:")
    }
  }
}

extension Camera {
  /// Parses `LAT,LNG,ZOOM[,BEARING[,TILT]]` (clamped with `limits`).
  public init(text: String, limits: CameraLimits = .default) throws(CameraUpdateSyntaxError) {
    let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
    guard (3...5).contains(values.count), values.allSatisfy({ $0?.isFinite == true }) else {
      throw CameraUpdateSyntaxError(text: text, expected: "LAT,LNG,ZOOM[,BEARING[,TILT]] with finite numbers")
    }
    let numbers = values.map { $0! }
    do {
      try self.init(
        latitude: numbers[0], longitude: numbers[1], zoom: numbers[2], bearing: numbers.count > 3 ? numbers[3] : 0,
        viewingAngle: numbers.count > 4 ? numbers[4] : 0, limits: limits)
    } catch {
      throw CameraUpdateSyntaxError(text: text, expected: error.description)
    }
  }
}

/// Camera or update text that does not parse.
public struct CameraUpdateSyntaxError: Error, Equatable, CustomStringConvertible {
  public let text: String
  public let expected: String
  public var description: String { "'\(text)': expected \(expected)" }
}
