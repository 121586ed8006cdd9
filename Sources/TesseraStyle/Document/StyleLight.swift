import Foundation
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// The style's light (`light`), which shades fill-extrusions: MapLibre's defaults are anchored
/// to the viewport, at radial 1.15, azimuth 210°, polar 30°, white, intensity 0.5.
package struct StyleLight: Sendable, Equatable {
  /// Whether the light turns with the map (`map`) or stays with the screen (`viewport`).
  package var anchoredToViewport: Bool
  /// Radial distance, azimuthal angle (degrees clockwise from the top of the viewport, or from
  /// north when anchored to the map) and polar angle (degrees from straight above).
  package var position: (radial: Double, azimuthal: Double, polar: Double)
  package var color: Color
  /// 0…1.
  package var intensity: Double

  package init() {
    anchoredToViewport = true
    position = (1.15, 210, 30)
    color = .white
    intensity = 0.5
  }

  package static func == (a: StyleLight, b: StyleLight) -> Bool {
    a.anchoredToViewport == b.anchoredToViewport && a.position == b.position && a.color == b.color
      && a.intensity == b.intensity
  }

  /// The light's direction in the map's frame (x east, y south, z up) for a camera turned by
  /// `bearing` degrees, as MapLibre Native converts the spherical position and turns it.
  package func direction(bearing: Double) -> (x: Double, y: Double, z: Double) {
    let azimuthal = (position.azimuthal + 90) * .pi / 180
    let polar = position.polar * .pi / 180
    let x = position.radial * cos(azimuthal) * sin(polar)
    let y = position.radial * sin(azimuthal) * sin(polar)
    let z = position.radial * cos(polar)
    guard anchoredToViewport else { return (x, y, z) }
    let angle = bearing * .pi / 180
    // Turned with the bearing as MapLibre Native turns it: its in-place matrix product reads
    // the already-turned x when computing y, so the light is not quite a rotation of the
    // map-anchored one (GL JS rotates exactly). Matched here so 3D buildings look the same at
    // every bearing.
    let turnedX = cos(angle) * x - sin(angle) * y
    return (turnedX, sin(angle) * turnedX + cos(angle) * y, z)
  }

  /// Reads the `light` object; values that are not literals keep their defaults, with a warning.
  static func parse(_ cursor: JSONCursor, warnings: inout [String]) -> StyleLight {
    var light = StyleLight()
    guard let object = cursor.value?.object else { return light }
    for (key, value) in object.pairs {
      switch (key, value) {
      case ("anchor", .string(let anchor)) where anchor == "map" || anchor == "viewport":
        light.anchoredToViewport = anchor == "viewport"
      case ("position", .array(let numbers)) where numbers.count == 3 && numbers.allSatisfy({ $0.number != nil }):
        light.position = (numbers[0].number!, numbers[1].number!, numbers[2].number!)
      case ("color", .string(let text)):
        if let color = try? Color(css: text) {
          light.color = color
        } else {
          warnings.append("light.color: invalid colour '\(text)'; white is used")
        }
      case ("intensity", .number(let number)):
        light.intensity = min(max(number, 0), 1)
      default:
        warnings.append("light.\(key): only literal values are supported; the default is used")
      }
    }
    return light
  }
}
