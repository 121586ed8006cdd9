import TesseraData
import TesseraGeo
import TesseraImage
import TesseraNumbers
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
  var texture: SIMD4<Float>
  /// For a glyph laid out before it was packed: its key, until ``SymbolBucket/packingGlyphs(in:)``
  /// gives it its place in the atlas.
  var glyph: GlyphKey? = nil
  /// The text section the glyph belongs to (its colour).
  let section: Int
  /// Offsets added after scaling (points: left, top, right, bottom): the fixed parts of a
  /// stretched icon.
  var pixelOffsets = SIMD4<Double>(0, 0, 0, 0)
  /// The scale the corners never go below (a stretched icon's fixed parts must fit).
  var minimumScale = SIMD2<Double>(0, 0)
  /// Radians clockwise the quad turns about the anchor after scaling (icons; glyph quads
  /// come turned).
  var rotation = 0.0
  /// For glyphs laid along a line: where the glyph's centre lies along it from the anchor,
  /// pixels at 24 px (the corners are then around that point).
  var alongLine = 0.0
  /// For an image inside the text: how it is drawn (its texture is in the icon atlas); nil
  /// for glyphs and icons.
  var textImage: TextImageKind? = nil
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

/// An image of the style as icons use it: where it lies in the icon atlas and how it
/// stretches.
struct IconImage: Sendable {
  /// x0, y0, x1, y1 in the atlas, texels, with the texel of padding around it.
  let paddedTexture: SIMD4<Float>
  let pixelRatio: Double
  let isSDF: Bool
  let stretchX: [(Double, Double)]
  let stretchY: [(Double, Double)]
  let content: (Double, Double, Double, Double)?

  /// The image's size without the padding, pixels.
  var width: Double { Double(paddedTexture.z - paddedTexture.x) - 2 }
  var height: Double { Double(paddedTexture.w - paddedTexture.y) - 2 }

  /// How far the image reaches beyond its `content` area on each side (points at
  /// `icon-size` 1): what an icon fitted around text reaches beyond the text, and its
  /// collision box with it (MapLibre's collision padding). Nil without a content area.
  var contentInsets: SymbolBox? {
    guard let (left, top, right, bottom) = content else { return nil }
    return SymbolBox(
      left: left / pixelRatio, top: top / pixelRatio, right: (width - right) / pixelRatio,
      bottom: (height - bottom) / pixelRatio)
  }
}

/// An icon of a symbol: its box (points, before `icon-size`, `icon-offset` applied) and
/// image.
struct ShapedIcon: Sendable {
  var box: SymbolBox
  let image: IconImage
  /// `icon-offset`, points.
  let offset: SIMD2<Double>
  /// `icon-rotate`, degrees.
  let rotation: Double

  /// The quads that draw it (one, or one per stretch zone when `fitted` around text).
  func quads(fitted: Bool) -> [SymbolQuad] { IconQuads.make(self, fitted: fitted) }

  /// Its collision box (points, before `icon-size`, unpadded): its box, grown by the parts
  /// of its image beyond the `content` area when `fitted` around text.
  func collisionBox(fitted: Bool) -> SymbolBox {
    guard fitted, let insets = image.contentInsets else { return box }
    return SymbolBox(
      left: box.left - insets.left, top: box.top - insets.top, right: box.right + insets.right,
      bottom: box.bottom + insets.bottom)
  }
}

/// One symbol of a tile: where it stands and what it draws.
struct SymbolInstance: Sendable {
  /// The anchor in bucket units (0…``BucketGeometry/extent`` across the data tile).
  var anchor: SIMD2<Double>
  let feature: TileFeature
  /// Features draw and are placed in this order (the layer's sort key, else their order).
  let sortKey: Double
  /// The text and icon, for recognising the same symbol in two tiles.
  let identity: String
  /// The text laid out for each anchor tried (one, or each of `text-variable-anchor`).
  var labels: [(anchor: TextAnchor, label: ShapedLabel)]
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
  /// For labels along lines: the line (bucket units) and the segment the anchor lies on.
  var line: [SIMD2<Double>]? = nil
  var segment = 0
  /// Whether the label's glyphs follow the line (line placement with map rotation).
  var followsLine = false
  /// For labels along lines with characters that stand upright in vertical text (CJK): the
  /// label written downwards, drawn instead where the line runs more up and down than across.
  var verticalLabel: ShapedLabel? = nil
  /// For text along lines: MapLibre Native's collision circles and their radius (bucket
  /// units).
  var lineCircles: [LineCollisionCircle] = []
  var lineCircleRadius = 0.0
}

/// The symbols of one tile for one layer.
struct SymbolBucket: Sendable {
  var instances: [SymbolInstance]
  /// Whether any symbol draws text / icons.
  var hasText: Bool { instances.contains { !$0.labels.isEmpty } }

  /// The bucket with its glyphs packed into `glyphs`' atlas, in the order of its symbols and
  /// their glyphs; glyphs the atlas has no room for are left out (the store warns). Buckets are
  /// built in parallel and laid out with glyph sizes only; packing them one after another in
  /// a fixed order makes the atlas, and so the texture coordinates drawn, the same every run.
  func packingGlyphs(in glyphs: GlyphStore) -> SymbolBucket {
    func pack(_ label: ShapedLabel) -> ShapedLabel {
      var quads: [SymbolQuad] = []
      quads.reserveCapacity(label.quads.count)
      for var quad in label.quads {
        if let key = quad.glyph {
          let packed = quad.textImage == .colorGlyph ? glyphs.colorAtlasRect(key) : glyphs.atlasRect(key)
          guard let rect = packed else { continue }
          quad.texture = SIMD4(
            Float(rect.x - 1), Float(rect.y - 1), Float(rect.x + rect.width + 1), Float(rect.y + rect.height + 1))
          quad.glyph = nil
        }
        quads.append(quad)
      }
      return ShapedLabel(quads: quads, box: label.box)
    }
    var packed = self
    for index in packed.instances.indices {
      var instance = packed.instances[index]
      instance.labels = instance.labels.map { ($0.anchor, pack($0.label)) }
      instance.verticalLabel = instance.verticalLabel.map(pack)
      packed.instances[index] = instance
    }
    return packed
  }
}
