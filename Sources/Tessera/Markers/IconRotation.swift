import Foundation
import TesseraImage
import TesseraNumbers
import TesseraRender

/// Billboard icons turned on the CPU: a rotated billboard is drawn as an unrotated sprite of
/// its turned picture, so it is placed texel for pixel like every other billboard (read
/// without filtering, and able to hide the markers behind it). The picture is resampled
/// bilinearly in premultiplied colour, as the GPU would sample it, onto a grid whose pixel
/// corners meet the anchor, with a transparent pixel around it.
enum IconRotation {
  /// The icon `image` (pixels) turned `degrees` clockwise about its anchor (unit square), with
  /// the anchor's place in the turned picture (unit square).
  static func rotate(_ image: RGBAImage, degrees: Double, anchorX: Double, anchorY: Double) -> (
    image: RGBAImage, anchorX: Double, anchorY: Double
  ) {
    let source = image.premultipliedAlpha()
    let angle = degrees * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    let anchor = (anchorX * Double(image.width), anchorY * Double(image.height))
    // The turned corners relative to the anchor.
    var xs: [Double] = []
    var ys: [Double] = []
    for (x, y) in [
      (0.0, 0.0), (Double(image.width), 0), (Double(image.width), Double(image.height)), (0, Double(image.height)),
    ] {
      let dx = x - anchor.0
      let dy = y - anchor.1
      xs.append(dx * c - dy * s)
      ys.append(dx * s + dy * c)
    }
    let minX = Int(clamping: xs.min()!.rounded(.down)) - 1
    let minY = Int(clamping: ys.min()!.rounded(.down)) - 1
    let width = Int(clamping: xs.max()!.rounded(.up)) + 1 - minX
    let height = Int(clamping: ys.max()!.rounded(.up)) + 1 - minY
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    source.pixels.withUnsafeBufferPointer { input in
      func texel(_ x: Int, _ y: Int, _ channel: Int) -> Double {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return 0 }
        return Double(input[(y * image.width + x) * 4 + channel])
      }
      for row in 0..<height {
        for column in 0..<width {
          // The pixel centre relative to the anchor, turned back into the icon.
          let dx = Double(column + minX) + 0.5
          let dy = Double(row + minY) + 0.5
          let sx = dx * c + dy * s + anchor.0 - 0.5
          let sy = -dx * s + dy * c + anchor.1 - 0.5
          let x0 = Int(clamping: sx.rounded(.down))
          let y0 = Int(clamping: sy.rounded(.down))
          let fx = sx - Double(x0)
          let fy = sy - Double(y0)
          let offset = (row * width + column) * 4
          for channel in 0..<4 {
            let top = texel(x0, y0, channel) * (1 - fx) + texel(x0 + 1, y0, channel) * fx
            let bottom = texel(x0, y0 + 1, channel) * (1 - fx) + texel(x0 + 1, y0 + 1, channel) * fx
            pixels[offset + channel] = UInt8(clamping: min(max((top * (1 - fy) + bottom * fy).rounded(), 0), 255))
          }
        }
      }
    }
    return (
      RGBAImage(width: width, height: height, pixels: pixels, alpha: .premultiplied),
      Double(-minX) / Double(width), Double(-minY) / Double(height)
    )
  }
}
