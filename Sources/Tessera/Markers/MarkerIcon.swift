import Foundation
import TesseraData
import TesseraImage
import TesseraNumbers
import TesseraText

/// A marker's picture: the default pin (in any colour), or images with @1x/@2x/@3x variants.
/// Icons are immutable and can be shared by any number of markers; the same pixels are stored
/// once on the GPU however many icons carry them.
public final class MarkerIcon: Sendable {
  enum Source: Sendable {
    /// The default pin in a colour, drawn at the density it is shown at.
    case pin(Color)
    /// A Static Maps pin: the default pin in a colour at a share of its size, its label drawn
    /// in its head or not, drawn when it is shown, at the density of the 1x, 2x or 3x variant
    /// chosen for the view.
    case staticMapsPin(Color, factor: Double, label: Character?)
    /// Images by pixels per point, sorted by scale.
    case images([(scale: Double, image: RGBAImage)])
    /// A PNG, JPEG or WebP file's bytes not decoded yet, and the field naming them in errors:
    /// decoded when a map made from a scene reads its markers (``SceneContent``), under that
    /// render's cancellation.
    case encoded([UInt8], field: String)
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

  /// An icon from the bytes of a PNG, JPEG or WebP file (one image, one pixel per point),
  /// decoded only when a map made from a scene holding it reads the scene's markers, so the
  /// decoding is part of that render (its deadline, its cancellation) and not of whoever built
  /// the scene. `field` names the icon in the error a picture that does not decode gives
  /// (`markers[3].icon`).
  package static func encoded(_ bytes: [UInt8], field: String) -> MarkerIcon {
    MarkerIcon(source: .encoded(bytes, field: field))
  }

  /// The icon decoded when it holds encoded bytes (``encoded(_:field:)``), else itself; a
  /// picture that does not decode is a ``MarkerError`` naming `scene` and the field.
  func decoded(scene: String) throws(MarkerError) -> MarkerIcon {
    guard case .encoded(let bytes, let field) = source else { return self }
    do {
      return MarkerIcon(image: try ImageCodec.decode(bytes, source: field))
    } catch {
      throw MarkerError(source: "\(scene): \(field)", reason: "\(error)")
    }
  }

  /// An icon from image variants, each with its pixels per point.
  public convenience init(variants: [(scale: Double, image: RGBAImage)]) {
    precondition(!variants.isEmpty, "an icon needs at least one image")
    self.init(source: .images(variants.map { (max($0.scale, 0.01), $0.image) }.sorted { $0.scale < $1.scale }))
  }

  /// Reads a PNG, JPEG or WebP file and its `@2x`/`@3x` siblings when present
  /// (`pin.png`, `pin@2x.png`, `pin@3x.png`); `pin@2x.png` named directly is read as 2×.
  public convenience init(contentsOfFile path: String) throws {
    do {
      try self.init(named: path, access: .local(directory: FileManager.default.currentDirectoryPath), field: path)
    } catch let error as ResourceAccessError {
      throw MarkerError(source: path, reason: "cannot read the icon file (\(error))")
    }
  }

  /// The icon `name` names for `field`, read through `access`: a provided resource of that name,
  /// or a file with its `@2x`/`@3x` siblings when present (`pin.png`, `pin@2x.png`,
  /// `pin@3x.png`; `pin@2x.png` named directly is read as 2×).
  public convenience init(named name: String, access: ResourceAccess, field: String) throws {
    if access.provides(name) {
      self.init(image: try ImageCodec.decode(try access.contents(name, field: field), source: field))
      return
    }
    let path = try access.path(name, field: field)
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
    for scale in [1, 2, 3] {
      let candidate = scale == 1 ? base + suffix : "\(base)@\(scale)x" + suffix
      let bytes: [UInt8]
      do {
        bytes = try access.contents(candidate, field: field, maxBytes: 64 << 20)
      } catch {
        // Only the file named must be there; its siblings are optional.
        if Double(scale) == namedScale { throw error }
        continue
      }
      variants.append((Double(scale), try ImageCodec.decode(bytes, source: candidate)))
    }
    self.init(variants: variants)
  }

  /// The image to show at `scale` pixels per point: the smallest variant at least that dense
  /// (else the densest), with its pixels per point.
  public func image(forScale scale: Double) -> (image: RGBAImage, scale: Double) {
    switch source {
    case .pin(let color):
      return (DefaultPin.image(color: color, scale: scale), scale)
    case .staticMapsPin(let color, let factor, let label):
      let density = MarkerIcon.staticMapsPinScales.first { $0 >= scale - 1e-9 } ?? 3
      return (MarkerIcon.drawStaticMapsPin(color: color, factor: factor, label: label, scale: density), density)
    case .images(let variants):
      let chosen = variants.first { $0.scale >= scale - 1e-9 } ?? variants[variants.count - 1]
      return (chosen.image, chosen.scale)
    case .encoded:
      // Scenes decode these before their markers reach a map; one added some other way is
      // decoded here, and shows the default pin when it does not decode.
      return ((try? decoded(scene: "marker")) ?? MarkerIcon.defaultPin).image(forScale: scale)
    }
  }
}

extension MarkerIcon {
  /// The default pin's colour, which Static Maps pins without a colour have.
  package static var defaultPinColor: Color { DefaultPin.red }

  /// The Static Maps API's pin sizes, as shares of the default pin.
  public static let staticMapsSizes: [String: Double] = ["tiny": 0.45, "small": 0.6, "mid": 0.8, "normal": 1]

  /// The Static Maps API's marker: the default pin in `color` at `size` (tiny, small, mid or
  /// normal), with `label` (one character A–Z or 0–9) drawn dark in its head at mid and normal
  /// sizes, as the API draws labels only there. Nothing is drawn until the icon is shown, and
  /// then only at the density shown (as its 1x, 2x or 3x variant).
  public static func staticMapsPin(color: Color, size: String, label: Character?) -> MarkerIcon {
    MarkerIcon(source: .staticMapsPin(color, factor: staticMapsSizes[size] ?? 1, label: label))
  }

  /// The label of a Static Maps pin written `text`: one letter A–Z (either case, drawn upper
  /// case) or digit, as the API takes, or one emoji (drawn in colour); nil for anything else.
  static func staticMapsLabel(_ text: String) -> Character? {
    guard text.count == 1, let character = text.first else { return nil }
    if character.isASCII && (character.isLetter || character.isNumber) { return character.uppercased().first }
    return EmojiText.isColorEmoji(character) ? character : nil
  }

  /// The label a Static Maps pin draws in its head: only at mid and normal sizes.
  static func drawnLabel(_ label: Character?, factor: Double) -> String? {
    guard let label, factor >= 0.8 else { return nil }
    return String(label)
  }

  /// The text the icon draws with the system's fonts, if any (a Static Maps pin's label).
  var drawnText: String? {
    guard case .staticMapsPin(_, let factor, let label) = source else { return nil }
    return MarkerIcon.drawnLabel(label, factor: factor)
  }

  /// The densities a Static Maps pin is drawn at.
  static let staticMapsPinScales = [1.0, 2, 3]

  /// A Static Maps pin at `scale` pixels per point.
  static func drawStaticMapsPin(color: Color, factor: Double, label: Character?, scale: Double) -> RGBAImage {
    let drawsLabel = drawnLabel(label, factor: factor) != nil
    var image = DefaultPin.image(color: color, scale: scale * factor, drawsDot: !drawsLabel)
    if drawsLabel, let label {
      PinLabel.draw(
        String(label), on: &image, headCentre: (13.5 * scale * factor, 13 * scale * factor),
        height: 13 * scale * factor, color: DefaultPin.shade(color, by: 0.3))
    }
    return image
  }
}

/// A pin's one-character label, drawn with the system's fonts.
enum PinLabel {
  static let glyphs = GlyphStore(loader: nil, fonts: FontLibraries.library(folders: []))

  /// The font stack labels are drawn in.
  static let fontStack = ["Noto Sans Bold"]

  /// The font faces drawing `text` uses (the store is shared by every map, so what it has
  /// drawn in total says nothing about one map).
  static func fontFaces(of text: String) -> [FontFace] {
    glyphs.fontFaces(of: shape(text))
  }

  static func shape(_ text: String) -> Shaping {
    let unitsPerEm = TextLayout.oneEm
    return glyphs.shape(
      StyledText(sections: [TextSection(text: text)]), fontStack: fontStack,
      options: ShapingOptions(
        maxWidth: 10 * unitsPerEm, lineHeight: 1.2 * unitsPerEm, anchor: .center, justify: .center))
  }

  /// Draws `text` centred at `headCentre` (pixels), its em `height` pixels tall, in `color`.
  static func draw(
    _ text: String, on image: inout RGBAImage, headCentre: (Double, Double), height: Double,
    color: (Double, Double, Double)
  ) {
    let shaping = shape(text)
    guard !shaping.isEmpty else { return }
    let pixelsPerUnit = height / TextLayout.oneEm
    let mask = TextRasterizer.mask(shaping, glyphs: glyphs, pixelsPerUnit: pixelsPerUnit)
    // The shaping is centred on (0, 0) in layout units; the mask's origin is in the same units.
    let left = headCentre.0 + mask.origin.x * pixelsPerUnit
    let top = headCentre.1 + mask.origin.y * pixelsPerUnit
    for row in 0..<mask.height {
      for column in 0..<mask.width {
        // Ink, or an emoji's own colours over it (premultiplied).
        let ink = mask.premultiplied(row * mask.width + column, ink: color)
        guard ink.a > 0 else { continue }
        let x = Int(clamping: (left + Double(column)).rounded(.down))
        let y = Int(clamping: (top + Double(row)).rounded(.down))
        guard x >= 0, y >= 0, x < image.width, y < image.height else { continue }
        let p = image.pixel(x: x, y: y)
        let keep = 1 - min(ink.a, 1)
        func blend(_ base: UInt8, _ premultiplied: Double) -> UInt8 {
          UInt8(clamping: (Double(base) * keep + premultiplied * 255).rounded())
        }
        image.setPixel(x: x, y: y, (blend(p.r, ink.r), blend(p.g, ink.g), blend(p.b, ink.b), p.a))
      }
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
