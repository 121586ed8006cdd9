import TesseraNumbers

extension PixelDiff.Result {
  /// The two compared images and the diff picture side by side (actual, expected, diff, left
  /// to right), `gap` white pixels apart, each composited over white.
  public func sideBySide(actual: RGBAImage, expected: RGBAImage, gap: Int = 8) -> RGBAImage {
    let panels = [actual.composited(over: .white), expected.composited(over: .white), diffImage]
    let height = panels.map(\.height).max() ?? 0
    let width = panels.reduce(0) { $0 + $1.width } + gap * (panels.count - 1)
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    var left = 0
    for panel in panels {
      let straight = panel.straightAlpha()
      for row in 0..<panel.height {
        let source = row * panel.width * 4
        let target = (row * width + left) * 4
        pixels.replaceSubrange(
          target..<target + panel.width * 4, with: straight.pixels[source..<source + panel.width * 4])
      }
      left += panel.width + gap
    }
    return RGBAImage(width: width, height: height, pixels: pixels, alpha: .straight)
  }

  /// The expected image faded halfway to white with the differences painted over it (the
  /// diff picture's red and yellow pixels), to see where on the map they are.
  public func overlay(expected: RGBAImage) -> RGBAImage {
    let base = expected.composited(over: .white).straightAlpha()
    var pixels = base.pixels
    let marks = diffImage.pixels
    for index in stride(from: 0, to: min(pixels.count, marks.count), by: 4) {
      let (r, g, b) = (marks[index], marks[index + 1], marks[index + 2])
      let marked = r == 255 && b == 0 && (g == 0 || g == 255)
      for channel in 0..<3 {
        pixels[index + channel] =
          marked ? marks[index + channel] : UInt8((Int(pixels[index + channel]) + 255) / 2)
      }
      pixels[index + 3] = 255
    }
    return RGBAImage(width: base.width, height: base.height, pixels: pixels, alpha: .straight)
  }
}
