import Foundation
import TesseraImage
import TesseraNumbers

/// Tessera's default marker: a Google-like teardrop pin (a round head narrowing to a point at
/// the ground anchor) with a darker outline and a dark dot in the head, drawn analytically at
/// the pixel density it is shown at so it is crisp at every scale.
///
/// 27 × 43 points (the classic pin's proportions); the SDK leaves its size unstated.
enum DefaultPin {
  static let width = 27.0
  static let height = 43.0
  /// Google's marker red, rgb(234, 67, 53).
  static let red = Color(r: 234, g: 67, b: 53)

  /// The pin in `color` at `scale` pixels per point (straight alpha): the body in the colour
  /// with a soft highlight towards the top, the outline and dot in darker shades of it.
  static func image(color: Color, scale: Double, drawsDot: Bool = true) -> RGBAImage {
    let pixelWidth = max(Int(clamping: (width * scale).rounded()), 1)
    let pixelHeight = max(Int(clamping: (height * scale).rounded()), 1)
    let radius = 12.5  // head radius, points
    let centre = (x: width / 2, y: radius + 0.5)
    let tip = height - 0.5  // where the point ends, points (the anchor is the bottom edge)
    let outline = 1.0
    let dotRadius = 4.25
    let body = shade(color, by: 1)
    let border = shade(color, by: 0.62)
    let dot = shade(color, by: 0.38)
    var pixels = [UInt8](repeating: 0, count: pixelWidth * pixelHeight * 4)
    for row in 0..<pixelHeight {
      for column in 0..<pixelWidth {
        // Pixel centre in points.
        let x = (Double(column) + 0.5) / scale
        let y = (Double(row) + 0.5) / scale
        let distance = shapeDistance(x: x - centre.x, y: y - centre.y, radius: radius, length: tip - centre.y)
        // One pixel of antialiasing, measured in points.
        let feather = 0.5 / scale
        let coverage = clamp(0.5 - distance / (2 * feather))
        guard coverage > 0 else { continue }
        let inner = clamp(0.5 - (distance + outline) / (2 * feather))
        let dotDistance = ((x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y)).squareRoot() - dotRadius
        let inDot = drawsDot ? clamp(0.5 - dotDistance / (2 * feather)) : 0
        // A gentle highlight on the upper part of the head.
        let light = 1 + 0.12 * clamp(1 - (y - 2) / (2 * radius))
        var colour = mix(border, scaled(body, light), inner)
        colour = mix(colour, dot, inDot)
        let index = (row * pixelWidth + column) * 4
        pixels[index] = UInt8(clamping: (min(max(colour.0, 0), 1) * 255).rounded())
        pixels[index + 1] = UInt8(clamping: (min(max(colour.1, 0), 1) * 255).rounded())
        pixels[index + 2] = UInt8(clamping: (min(max(colour.2, 0), 1) * 255).rounded())
        pixels[index + 3] = UInt8(clamping: (coverage * color.alpha * 255).rounded())
      }
    }
    return RGBAImage(width: pixelWidth, height: pixelHeight, pixels: pixels, alpha: .straight)
  }

  /// Signed distance (points) to the pin's silhouette, negative inside: a circle of `radius` at
  /// the origin joined by its tangents to a point `length` below it (+y).
  static func shapeDistance(x: Double, y: Double, radius: Double, length: Double) -> Double {
    let px = abs(x)
    let b = radius / length
    let a = (1 - b * b).squareRoot()
    let k = -b * px + a * y
    if k < 0 { return (px * px + y * y).squareRoot() - radius }
    if k > a * length { return (px * px + (y - length) * (y - length)).squareRoot() }
    return a * px + b * y - radius
  }

  private static func clamp(_ value: Double) -> Double { min(max(value, 0), 1) }

  static func shade(_ color: Color, by factor: Double) -> (Double, Double, Double) {
    (color.red * factor, color.green * factor, color.blue * factor)
  }

  private static func scaled(_ c: (Double, Double, Double), _ factor: Double) -> (Double, Double, Double) {
    (c.0 * factor, c.1 * factor, c.2 * factor)
  }

  private static func mix(
    _ a: (Double, Double, Double), _ b: (Double, Double, Double), _ t: Double
  ) -> (Double, Double, Double) {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
  }
}
