import TesseraData
import TesseraGeo
import TesseraImage
import TesseraStyle
import TesseraText

/// One glyph or icon quad of a symbol, relative to the symbol's anchor before the label's
/// offset: corners in pixels at 24 px for glyphs (scaled by `text-size` / 24 when drawn) and
/// points for icons (scaled by `icon-size`); where it lies in its atlas, texels.
struct SymbolQuad: Sendable {
  var topLeft: SIMD2<Double>
  var topRight: SIMD2<Double>
  var bottomLeft: SIMD2<Double>
  var bottomRight: SIMD2<Double>
  /// x0, y0, x1, y1 in the atlas, texels.
  let texture: SIMD4<Float>
  /// The text section the glyph belongs to (its colour).
  let section: Int
}

/// A box around the anchor (pixels at 24 px for text, points for icons): left, top, right,
/// bottom.
struct SymbolBox: Sendable {
  var left: Double
  var top: Double
  var right: Double
  var bottom: Double

  var width: Double { right - left }
  var height: Double { bottom - top }

  func offset(by shift: SIMD2<Double>) -> SymbolBox {
    SymbolBox(left: left + shift.x, top: top + shift.y, right: right + shift.x, bottom: bottom + shift.y)
  }
}

/// A label's text laid out once: its glyph quads and its box.
struct ShapedLabel: Sendable {
  let quads: [SymbolQuad]
  let box: SymbolBox
}

/// An icon of a symbol: its quad and box (points, before `icon-size`).
struct ShapedIcon: Sendable {
  let quad: SymbolQuad
  let box: SymbolBox
  let isSDF: Bool
  /// Image pixels per point (sampled texel for pixel only at 1 and size 1).
  let pixelRatio: Double
  /// `icon-offset`, points.
  let offset: SIMD2<Double>
}

/// One symbol of a tile: where it stands and what it draws.
struct SymbolInstance: Sendable {
  /// The anchor in bucket units (0…``BucketGeometry/extent`` across the data tile).
  let anchor: SIMD2<Double>
  let feature: TileFeature
  /// Features draw and are placed in this order (the layer's sort key, else their order).
  let sortKey: Double
  /// The text and icon, for recognising the same symbol in two tiles.
  let identity: String
  /// The text laid out for each anchor tried (one, or each of `text-variable-anchor`).
  let labels: [(anchor: TextAnchor, label: ShapedLabel)]
  /// `text-offset` in pixels at 24 px (applied to fixed anchors), or the variable anchors'
  /// offset (radial when `usesRadialOffset`).
  let textOffset: SIMD2<Double>
  let usesRadialOffset: Bool
  let hasVariableAnchors: Bool
  let icon: ShapedIcon?
  /// `text-rotate`, degrees.
  let textRotation: Double
  /// The colour each text section sets (`format`'s `text-color`), nil where it sets none.
  let sectionColors: [Color?]
}

/// The symbols of one tile for one layer.
struct SymbolBucket: Sendable {
  let instances: [SymbolInstance]
  /// Whether any symbol draws text / icons.
  var hasText: Bool { instances.contains { !$0.labels.isEmpty } }
}
