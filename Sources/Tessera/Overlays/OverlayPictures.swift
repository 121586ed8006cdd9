import Foundation
import TesseraImage
import TesseraNumbers

/// Pictures the overlay layers draw with.
enum OverlayPictures {
  /// A stamp as the line pattern repeats it: turned a quarter counter-clockwise (its top
  /// toward the start of the line, which runs left to right in a pattern) and squashed to a
  /// square as tall as the longer side.
  static func stampTile(_ image: RGBAImage) -> RGBAImage {
    let image = image.straightAlpha()
    let side = max(image.width, image.height)
    var tile = RGBAImage(width: side, height: side)
    for y in 0..<side {
      for x in 0..<side {
        // Tile column x runs down the source (its rows); tile row y runs right to left across it.
        let sourceY = min(x * image.height / side, image.height - 1)
        let sourceX = min((side - 1 - y) * image.width / side, image.width - 1)
        tile.setPixel(x: x, y: y, image.pixel(x: sourceX, y: sourceY))
      }
    }
    return tile
  }

  /// The my-location heading cone: a 70° wedge 36 points long pointing up from the picture's
  /// centre, blue fading out toward its tip, `scale` pixels per point.
  static func headingCone(scale: Double) -> RGBAImage {
    let radius = 36.0
    let side = Int(clamping: (2 * radius * scale).rounded(.up))
    var image = RGBAImage(width: side, height: side)
    let center = Double(side) / 2
    let halfAngle = 35.0 * .pi / 180
    for y in 0..<side {
      for x in 0..<side {
        let dx = (Double(x) + 0.5 - center) / scale
        let dy = (center - Double(y) - 0.5) / scale
        let distance = hypot(dx, dy)
        guard distance <= radius, dy > 0 else { continue }
        let angle = abs(atan2(dx, dy))
        // A one-point soft edge on the sides.
        let side = min(max((halfAngle - angle) * distance + 0.5, 0), 1)
        let fade = pow(1 - distance / radius, 0.6)
        let alpha = side * fade * 0.8
        guard alpha > 0 else { continue }
        image.setPixel(x: x, y: y, (66, 133, 244, UInt8(clamping: (alpha * 255).rounded())))
      }
    }
    return image
  }
}
