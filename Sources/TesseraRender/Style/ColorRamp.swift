import TesseraImage
import TesseraNumbers
import TesseraStyle

/// A colour property evaluated along an input the renderer supplies (a heatmap's density, a
/// line's progress) into a 256×1 texture that shaders sample instead of evaluating the
/// expression per pixel, as MapLibre Native does.
enum ColorRamp {
  /// Texels of a ramp.
  static let width = 256

  /// The texels of `property` at inputs i/256 (set into the context by `input`), premultiplied,
  /// floored to bytes as MapLibre Native fills them.
  static func texels(_ property: PropertyValue, input: (inout EvaluationContext, Double) -> Void) -> [UInt8] {
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * 4)
    for index in 0..<width {
      var context = EvaluationContext(zoom: nil)
      input(&context, Double(index) / Double(width))
      let (r, g, b, a) = (property.evaluate(context).color ?? .transparent).premultiplied
      for channel in [r, g, b, a] { pixels.append(UInt8(clamping: max(0, min(255, (channel * 255).rounded(.down))))) }
    }
    return pixels
  }
}

/// The ramp texture of one layer of one style (`kind`: which property it holds).
struct ColorRampKey: Hashable, Sendable, CustomStringConvertible {
  let revision: Int
  let layer: String
  let kind: String
  var description: String { "\(kind) ramp \(layer)" }
}
