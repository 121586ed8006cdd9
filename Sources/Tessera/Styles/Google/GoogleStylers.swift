import Foundation
import TesseraImage
import TesseraNumbers

/// The colour stylers of Google's map styling, worked in HSL.
enum GoogleStylers {
  /// `color` after `stylers`, in order (`color` replaces the colour but keeps its alpha;
  /// the others change hue, saturation or lightness).
  static func apply(_ stylers: [MapStyle.Styler], to color: Color) -> Color {
    var (h, s, l) = hsl(color)
    var alpha = color.alpha
    for styler in stylers {
      switch styler {
      case .color(let given):
        (h, s, l) = hsl(given)
        alpha = color.alpha * given.alpha
      case .hue(let given):
        h = hsl(given).h
      case .saturation(let amount):
        s = amount >= 0 ? s + (1 - s) * amount / 100 : s * (1 + amount / 100)
      case .lightness(let amount):
        l = amount >= 0 ? l + (1 - l) * amount / 100 : l * (1 + amount / 100)
      case .gamma(let gamma):
        l = pow(min(max(l, 0), 1), 1 / gamma)
      case .invertLightness:
        l = 1 - l
      case .visibility, .weight:
        continue
      }
    }
    let (r, g, b) = rgb(h: h, s: s, l: l)
    return Color(red: r, green: g, blue: b, alpha: alpha)
  }

  /// Hue in degrees, saturation and lightness in 0…1.
  static func hsl(_ color: Color) -> (h: Double, s: Double, l: Double) {
    let (r, g, b) = (color.red, color.green, color.blue)
    let high = max(r, g, b)
    let low = min(r, g, b)
    let l = (high + low) / 2
    guard high > low else { return (0, 0, l) }
    let d = high - low
    let s = l > 0.5 ? d / (2 - high - low) : d / (high + low)
    var h: Double
    if high == r {
      h = (g - b) / d + (g < b ? 6 : 0)
    } else if high == g {
      h = (b - r) / d + 2
    } else {
      h = (r - g) / d + 4
    }
    h *= 60
    return (h, s, l)
  }

  /// RGB (0…1) of a hue in degrees and saturation and lightness in 0…1.
  static func rgb(h: Double, s: Double, l: Double) -> (Double, Double, Double) {
    let s = min(max(s, 0), 1)
    let l = min(max(l, 0), 1)
    let c = (1 - abs(2 * l - 1)) * s
    let hue = (h.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
    let x = c * (1 - abs(hue.truncatingRemainder(dividingBy: 2) - 1))
    let (r, g, b): (Double, Double, Double)
    switch hue {
    case ..<1: (r, g, b) = (c, x, 0)
    case ..<2: (r, g, b) = (x, c, 0)
    case ..<3: (r, g, b) = (0, c, x)
    case ..<4: (r, g, b) = (0, x, c)
    case ..<5: (r, g, b) = (x, 0, c)
    default: (r, g, b) = (c, 0, x)
    }
    let m = l - c / 2
    return (r + m, g + m, b + m)
  }
}
