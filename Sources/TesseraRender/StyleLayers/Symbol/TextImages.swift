import TesseraData
import TesseraNumbers
import TesseraStyle
import TesseraText

/// How an image inside a label's text is drawn: from the icon atlas (as MapLibre draws them,
/// with the icons of the symbol rather than the glyphs), as a plain image, or as a distance
/// field coloured like the text; or, for a colour glyph (emoji), from the glyph store's colour
/// atlas in its own colours, without a halo.
enum TextImageKind: Sendable {
  case plain, sdf, colorGlyph
}

/// An image inside a label's text as its quad needs it: where it lies in the icon atlas.
struct InlineImageQuad {
  /// x0, y0, x1, y1 in the icon atlas, texels, with its texel of padding.
  let texture: SIMD4<Float>
  /// Image pixels per point.
  let pixelRatio: Double
  let kind: TextImageKind

  /// The padded image's size, texels.
  var paddedSize: (Int, Int) { (Int(clamping: texture.z - texture.x), Int(clamping: texture.w - texture.y)) }

  /// The image `name` of the style's sprite; nil when the icon atlas does not hold it.
  init?(_ context: SymbolContext, name: String) {
    guard let position = context.icons.positions[name] else { return nil }
    let padding = Float(InlineImage.padding)
    texture = SIMD4(
      position.topLeft.x - padding, position.topLeft.y - padding, position.bottomRight.x + padding,
      position.bottomRight.y + padding)
    pixelRatio = Double(position.pixelRatio)
    kind = context.images[name]?.isSDF == true ? .sdf : .plain
  }
}

extension ShapingOptions {
  /// Gives the shaping the sizes of the images `text` shows (those of the icon atlas; the
  /// others are left out, with a warning) and the sizes images are laid out against: the
  /// layer's `text-size` for `feature` at the tile's `zoom`, and one zoom deeper for line
  /// breaking (MapLibre's layout size).
  mutating func setImages(
    of text: StyledText, layer: StyleLayer, feature: TileFeature, zoom: Double, icons: PatternAtlas,
    warn: (String) -> Void
  ) {
    let names = text.sections.compactMap(\.image)
    guard !names.isEmpty else { return }
    for name in names where images[name] == nil {
      guard let position = icons.positions[name] else {
        warn("layer '\(layer.id)': no image '\(name)' in the style's sprite; it is left out of the text")
        continue
      }
      let ratio = Double(position.pixelRatio)
      images[name] = InlineImage(
        name: name, width: Double(position.bottomRight.x - position.topLeft.x) / ratio,
        height: Double(position.bottomRight.y - position.topLeft.y) / ratio)
    }
    textSize = layer.value(SymbolProperties.textSize, zoom: zoom, feature: feature)
    breakingTextSize = layer.value(SymbolProperties.textSize, zoom: zoom + 1, feature: feature)
  }
}
