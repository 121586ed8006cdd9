import TesseraNumbers

/// A colour with straight (not premultiplied) alpha; every component is in 0...1.
public struct Color: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// Red, 0...1.
  public var red: Double
  /// Green, 0...1.
  public var green: Double
  /// Blue, 0...1.
  public var blue: Double
  /// Opacity, 0 (transparent) ... 1 (opaque).
  public var alpha: Double

  /// Makes a colour from components in 0...1; values outside are clamped.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = Color.clamp(red)
    self.green = Color.clamp(green)
    self.blue = Color.clamp(blue)
    self.alpha = Color.clamp(alpha)
  }

  /// Makes a colour from 8-bit channels.
  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.init(
      red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: Double(a) / 255)
  }

  /// Fully transparent black.
  public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)
  /// Opaque black.
  public static let black = Color(red: 0, green: 0, blue: 0)
  /// Opaque white.
  public static let white = Color(red: 1, green: 1, blue: 1)
  /// UIKit's `lightGray` (rgb 170, 170, 170): the map's default background, as in the SDK.
  public static let lightGray = Color(r: 170, g: 170, b: 170)

  /// The colour as rounded 8-bit straight RGBA.
  public var rgba8: (UInt8, UInt8, UInt8, UInt8) {
    (Color.byte(red), Color.byte(green), Color.byte(blue), Color.byte(alpha))
  }

  /// Components multiplied by alpha, as the GPU blends them: (r·a, g·a, b·a, a).
  public var premultiplied: (Double, Double, Double, Double) {
    (red * alpha, green * alpha, blue * alpha, alpha)
  }

  /// `#RRGGBB` for opaque colours, `#RRGGBBAA` otherwise.
  public var description: String {
    let (r, g, b, a) = rgba8
    let hex = [r, g, b] + (a == 255 ? [] : [a])
    return "#"
      + hex.map { byte in
        let text = String(byte, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
      }.joined()
  }

  private static func clamp(_ value: Double) -> Double {
    value.isNaN ? 0 : min(max(value, 0), 1)
  }

  private static func byte(_ value: Double) -> UInt8 {
    UInt8(clamping: (value * 255).rounded())
  }
}
