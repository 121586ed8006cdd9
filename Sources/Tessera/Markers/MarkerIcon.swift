import Foundation
import TesseraImage

/// A marker's picture: the default pin (in any colour), or images with @1x/@2x/@3x variants.
/// Icons are immutable and can be shared by any number of markers; the same pixels are stored
/// once on the GPU however many icons carry them.
public final class MarkerIcon: Sendable {
  enum Source: Sendable {
    /// The default pin in a colour, drawn at the density it is shown at.
    case pin(Color)
    /// Images by pixels per point, sorted by scale.
    case images([(scale: Double, image: RGBAImage)])
  }

  let source: Source

  /// The SDK's default marker: Tessera's red pin.
  public static let defaultPin = MarkerIcon(source: .pin(DefaultPin.red))

  /// `markerImageWithColor:`: the default pin tinted `color`, keeping its outline and shading.
  public static func markerImage(color: Color) -> MarkerIcon {
    MarkerIcon(source: .pin(color))
  }

  init(source: Source) {
    self.source = source
  }

  /// An icon from an image whose pixels are `scale` per point (2 for an @2x image).
  public convenience init(image: RGBAImage, scale: Double = 1) {
    self.init(source: .images([(max(scale, 0.01), image)]))
  }

  /// An icon from image variants, each with its pixels per point.
  public convenience init(variants: [(scale: Double, image: RGBAImage)]) {
    precondition(!variants.isEmpty, "an icon needs at least one image")
    self.init(source: .images(variants.map { (max($0.scale, 0.01), $0.image) }.sorted { $0.scale < $1.scale }))
  }

  /// Reads a PNG, JPEG or WebP file and its `@2x`/`@3x` siblings when present
  /// (`pin.png`, `pin@2x.png`, `pin@3x.png`); `pin@2x.png` named directly is read as 2×.
  public convenience init(contentsOfFile path: String) throws {
    let url = URL(fileURLWithPath: path)
    let ext = url.pathExtension
    var base = url.deletingPathExtension().path
    var namedScale = 1.0
    for scale in [2, 3] where base.hasSuffix("@\(scale)x") {
      base = String(base.dropLast(3))
      namedScale = Double(scale)
    }
    var variants: [(scale: Double, image: RGBAImage)] = []
    // A name without an extension has none in its siblings either (`pin`, `pin@2x`).
    let suffix = ext.isEmpty ? "" : "." + ext
    for scale in [1.0, 2, 3] {
      let candidate = scale == 1 ? base + suffix : "\(base)@\(Int(scale))x" + suffix
      guard scale == namedScale || FileManager.default.fileExists(atPath: candidate) else { continue }
      guard let data = FileManager.default.contents(atPath: candidate) else {
        if scale == namedScale { throw MarkerError(source: candidate, reason: "cannot read the icon file") }
        continue
      }
      variants.append((scale, try ImageCodec.decode(Array(data), source: candidate)))
    }
    self.init(variants: variants)
  }

  /// The image to show at `scale` pixels per point: the smallest variant at least that dense
  /// (else the densest), with its pixels per point.
  public func image(forScale scale: Double) -> (image: RGBAImage, scale: Double) {
    switch source {
    case .pin(let color):
      return (DefaultPin.image(color: color, scale: scale), scale)
    case .images(let variants):
      let chosen = variants.first { $0.scale >= scale - 1e-9 } ?? variants[variants.count - 1]
      return (chosen.image, chosen.scale)
    }
  }
}

/// A marker description that cannot be used: the file or field and why.
public struct MarkerError: Error, Equatable, CustomStringConvertible {
  public let source: String
  public let reason: String

  public init(source: String, reason: String) {
    self.source = source
    self.reason = reason
  }

  public var description: String { "\(source): \(reason)" }
}
