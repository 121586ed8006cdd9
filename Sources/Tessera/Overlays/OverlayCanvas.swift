import Foundation
import TesseraImage
import TesseraNumbers
import TesseraText

/// A small picture painted on the CPU (info windows, attribution, the scale bar): shapes from
/// signed distances with one pixel of antialiasing, soft shadows and text masks, kept as
/// premultiplied colour. Sizes are in pixels.
struct OverlayCanvas {
  let width: Int
  let height: Int
  /// Premultiplied R, G, B, A (0…1) per pixel, rows top first.
  private(set) var pixels: [Float]

  init(width: Int, height: Int) {
    self.width = max(width, 1)
    self.height = max(height, 1)
    pixels = [Float](repeating: 0, count: self.width * self.height * 4)
  }

  /// Paints `color` (straight alpha) over the canvas with coverage `coverage(x, y)` at each
  /// pixel centre inside `bounds` (pixels: x0, y0, x1, y1).
  mutating func paint(
    _ color: Color, in bounds: (Int, Int, Int, Int)? = nil, coverage: (Double, Double) -> Double
  ) {
    let (x0, y0, x1, y1) = bounds ?? (0, 0, width, height)
    for y in max(y0, 0)..<min(y1, height) {
      for x in max(x0, 0)..<min(x1, width) {
        let alpha = min(max(coverage(Double(x) + 0.5, Double(y) + 0.5), 0), 1) * color.alpha
        guard alpha > 0 else { continue }
        blend(x, y, Float(color.red * alpha), Float(color.green * alpha), Float(color.blue * alpha), Float(alpha))
      }
    }
  }

  /// Paints the inside of a shape given by its signed distance (pixels, negative inside).
  mutating func fill(_ color: Color, distance: (Double, Double) -> Double) {
    paint(color) { x, y in 0.5 - distance(x, y) }
  }

  /// A soft shadow of a shape: its coverage blurred by three box passes of `radius` pixels,
  /// moved down by `offsetY`.
  mutating func shadow(_ color: Color, radius: Int, offsetY: Double, distance: (Double, Double) -> Double) {
    var mask = [Float](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        mask[y * width + x] = Float(min(max(0.5 - distance(Double(x) + 0.5, Double(y) + 0.5 - offsetY), 0), 1))
      }
    }
    for _ in 0..<3 { mask = OverlayCanvas.boxBlur(mask, width: width, height: height, radius: radius) }
    let stride = width
    paint(color) { x, y in Double(mask[Int(clamping: y) * stride + Int(clamping: x)]) }
  }

  /// Draws a text mask in `color` with its top-left pixel at (`x`, `y`); its colour glyphs
  /// (emoji) keep their own colours.
  mutating func draw(_ mask: TextMask, color: Color, x: Int, y: Int) {
    guard mask.width > 0 else { return }
    guard !mask.colorLayer.isEmpty else {
      paint(color, in: (x, y, x + mask.width, y + mask.height)) { px, py in
        Double(mask.coverage[(Int(clamping: py) - y) * mask.width + (Int(clamping: px) - x)])
      }
      return
    }
    for row in max(-y, 0)..<min(mask.height, height - y) {
      for column in max(-x, 0)..<min(mask.width, width - x) {
        let ink = mask.premultiplied(
          row * mask.width + column, ink: (color.red, color.green, color.blue), opacity: color.alpha)
        guard ink.a > 0 else { continue }
        blend(x + column, y + row, Float(ink.r), Float(ink.g), Float(ink.b), Float(ink.a))
      }
    }
  }

  /// The picture with straight alpha.
  var image: RGBAImage {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for index in 0..<(width * height) {
      let alpha = pixels[index * 4 + 3]
      guard alpha > 0 else { continue }
      for channel in 0..<3 {
        bytes[index * 4 + channel] = UInt8(clamping: (min(pixels[index * 4 + channel] / alpha, 1) * 255).rounded())
      }
      bytes[index * 4 + 3] = UInt8(clamping: (min(alpha, 1) * 255).rounded())
    }
    return RGBAImage(width: width, height: height, pixels: bytes, alpha: .straight)
  }

  private mutating func blend(_ x: Int, _ y: Int, _ r: Float, _ g: Float, _ b: Float, _ a: Float) {
    let index = (y * width + x) * 4
    pixels[index] = r + pixels[index] * (1 - a)
    pixels[index + 1] = g + pixels[index + 1] * (1 - a)
    pixels[index + 2] = b + pixels[index + 2] * (1 - a)
    pixels[index + 3] = a + pixels[index + 3] * (1 - a)
  }

  private static func boxBlur(_ input: [Float], width: Int, height: Int, radius: Int) -> [Float] {
    guard radius > 0 else { return input }
    var horizontal = [Float](repeating: 0, count: input.count)
    let span = Float(2 * radius + 1)
    for y in 0..<height {
      for x in 0..<width {
        var sum: Float = 0
        for dx in -radius...radius where x + dx >= 0 && x + dx < width { sum += input[y * width + x + dx] }
        horizontal[y * width + x] = sum / span
      }
    }
    var output = [Float](repeating: 0, count: input.count)
    for y in 0..<height {
      for x in 0..<width {
        var sum: Float = 0
        for dy in -radius...radius where y + dy >= 0 && y + dy < height { sum += horizontal[(y + dy) * width + x] }
        output[y * width + x] = sum / span
      }
    }
    return output
  }

  /// Signed distance (pixels) to a rounded rectangle (x0, y0, x1, y1) with corner `radius`.
  static func roundedRectangle(
    _ x: Double, _ y: Double, _ rect: (Double, Double, Double, Double), radius: Double
  ) -> Double {
    let cx = (rect.0 + rect.2) / 2
    let cy = (rect.1 + rect.3) / 2
    let qx = abs(x - cx) - (rect.2 - rect.0) / 2 + radius
    let qy = abs(y - cy) - (rect.3 - rect.1) / 2 + radius
    return hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - radius
  }

  /// Signed distance (pixels, approximate outside) to a downward triangle with its top edge
  /// from (`left`, `top`) to (`right`, `top`) and its point at (`tipX`, `tipY`).
  static func downwardTriangle(
    _ x: Double, _ y: Double, left: Double, right: Double, top: Double, tipX: Double, tipY: Double
  ) -> Double {
    func edge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
      // Distance to the line a→b, positive on its right (outside for clockwise corners).
      let dx = bx - ax
      let dy = by - ay
      return ((x - ax) * dy - (y - ay) * dx) / hypot(dx, dy)
    }
    return max(top - y, edge(right, top, tipX, tipY), edge(tipX, tipY, left, top))
  }
}
