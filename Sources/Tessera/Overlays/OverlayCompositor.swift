import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// Lays the pictures drawn on the CPU (info window, attribution, scale bar) over a frame read
/// back from the GPU, at whole pixels so frames stay byte for byte the same.
enum OverlayCompositor {
  /// Lays `picture` (straight alpha) over `frame` with the picture's anchor on `point`
  /// (points); parts outside the frame are cut off.
  static func composite(_ picture: OverlayPicture, at point: ScreenPoint, scale: Double, onto frame: inout RGBAImage) {
    let left = Int(clamping: (point.x * scale - picture.anchor.x).rounded())
    let top = Int(clamping: (point.y * scale - picture.anchor.y).rounded())
    composite(picture.image, left: left, top: top, onto: &frame)
  }

  /// Lays `image` (straight alpha) over `frame` with its top-left pixel at (`left`, `top`).
  static func composite(_ image: RGBAImage, left: Int, top: Int, onto frame: inout RGBAImage) {
    let premultiplied = frame.alpha == .premultiplied
    let x0 = max(left, 0)
    let y0 = max(top, 0)
    let x1 = min(left + image.width, frame.width)
    let y1 = min(top + image.height, frame.height)
    guard x0 < x1, y0 < y1 else { return }
    for y in y0..<y1 {
      for x in x0..<x1 {
        let source = ((y - top) * image.width + (x - left)) * 4
        let alpha = Int(image.pixels[source + 3])
        guard alpha > 0 else { continue }
        let target = (y * frame.width + x) * 4
        let destinationAlpha = Int(frame.pixels[target + 3])
        // Premultiplied "over" in integers (values × 255), rounded once.
        let outAlpha = alpha * 255 + destinationAlpha * (255 - alpha)
        for channel in 0..<3 {
          var destination = Int(frame.pixels[target + channel])
          if !premultiplied { destination = (destination * destinationAlpha + 127) / 255 }
          let value = Int(image.pixels[source + channel]) * alpha + destination * (255 - alpha)
          let result =
            premultiplied ? (value + 127) / 255 : (outAlpha == 0 ? 0 : (value * 255 + outAlpha / 2) / outAlpha)
          frame.pixels[target + channel] = UInt8(min(result, 255))
        }
        frame.pixels[target + 3] = UInt8(min((outAlpha + 127) / 255, 255))
      }
    }
  }

  /// `image` scaled by `factor` (bilinear on premultiplied colour), for pictures made at
  /// another density than the frame's.
  static func resample(_ image: RGBAImage, by factor: Double) -> RGBAImage {
    let width = max(Int(clamping: (Double(image.width) * factor).rounded()), 1)
    let height = max(Int(clamping: (Double(image.height) * factor).rounded()), 1)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    func texel(_ x: Int, _ y: Int) -> (Double, Double, Double, Double) {
      let cx = min(max(x, 0), image.width - 1)
      let cy = min(max(y, 0), image.height - 1)
      let index = (cy * image.width + cx) * 4
      let a = Double(image.pixels[index + 3]) / 255
      return (
        Double(image.pixels[index]) * a, Double(image.pixels[index + 1]) * a, Double(image.pixels[index + 2]) * a,
        a
      )
    }
    for y in 0..<height {
      for x in 0..<width {
        let u = (Double(x) + 0.5) / factor - 0.5
        let v = (Double(y) + 0.5) / factor - 0.5
        let (cx, cy) = (Int(clamping: u.rounded(.down)), Int(clamping: v.rounded(.down)))
        let (fx, fy) = (u - Double(cx), v - Double(cy))
        let samples = [
          (texel(cx, cy), (1 - fx) * (1 - fy)), (texel(cx + 1, cy), fx * (1 - fy)),
          (texel(cx, cy + 1), (1 - fx) * fy), (texel(cx + 1, cy + 1), fx * fy),
        ]
        var sum = (0.0, 0.0, 0.0, 0.0)
        for (value, weight) in samples {
          sum = (sum.0 + value.0 * weight, sum.1 + value.1 * weight, sum.2 + value.2 * weight, sum.3 + value.3 * weight)
        }
        let index = (y * width + x) * 4
        guard sum.3 > 0 else { continue }
        pixels[index] = UInt8(clamping: min(sum.0 / sum.3, 255).rounded())
        pixels[index + 1] = UInt8(clamping: min(sum.1 / sum.3, 255).rounded())
        pixels[index + 2] = UInt8(clamping: min(sum.2 / sum.3, 255).rounded())
        pixels[index + 3] = UInt8(clamping: min(sum.3 * 255, 255).rounded())
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels, alpha: .straight)
  }
}
