import Foundation
import TesseraData
import TesseraGeo
import TesseraNumbers
import TesseraStyle
import TesseraText

/// What building symbol buckets reads besides the tile and the layer.
struct SymbolContext: Sendable {
  let glyphs: GlyphStore
  /// The style's images packed for icons (clear borders).
  let icons: PatternAtlas
  /// The style's images, by name (SDF flags, stretch zones).
  let images: [String: SpriteImage]
}

/// Builds the symbols of a tile for a `symbol` layer: each feature's text resolved (tokens,
/// `format` sections, `text-transform`), shaped with the map's glyphs (once per anchor it may
/// take), cut into glyph quads in the glyph atlas; its icon looked up in the icon atlas.
/// Point placement: points, the first point of each line, and a point inside each polygon.
enum SymbolBucketBuilder {
  /// MapLibre's baseline shift of variable-anchor offsets, pixels at 24 px.
  static let baselineOffset = 7.0

  static func build(
    _ tile: VectorTile, layer: StyleLayer, zoom: Double, overscale: Double = 1, context: SymbolContext,
    states: FeatureStates, keepsBufferSymbols: Bool = false
  ) -> SymbolBucket {
    // A symbol belongs to the tile its anchor lies in, unless symbols in the buffer are kept.
    func kept(_ x: Double, _ y: Double, extent: Double) -> Bool {
      keepsBufferSymbols || (x >= 0 && y >= 0 && x < extent && y < extent)
    }
    let placement = layer.value(SymbolProperties.placement, zoom: zoom)
    let features = BucketFeatures.select(
      tile, layer: layer, zoom: zoom, types: [.point, .lineString, .polygon], sortKey: SymbolProperties.sortKey,
      states: states)
    let layout = LayoutValues(layer: layer, zoom: zoom, placement: placement)
    var instances: [SymbolInstance] = []
    // Bucket units per pixel at the bucket's zoom (512-pixel tiles).
    let unitsPerPixel = BucketGeometry.extent / (512 * overscale)
    // Anchors of each text along lines: a label closer than half the spacing to another of
    // the same text in the tile is left out (MapLibre's repeat distance).
    var anchorsByText: [String: [SIMD2<Double>]] = [:]
    let repeatDistance = layout.spacing * unitsPerPixel / 2
    let texts = features.map { resolvedText(layer, feature: $0.0, zoom: zoom, layout: layout) }
    // Each feature's lines in bucket units; along lines, pieces of one label joined.
    var geometries: [[[SIMD2<Double>]]?] = features.map { feature, extent in
      let scale = BucketGeometry.extent / Double(extent)
      return feature.feature.geometry.map { part in part.map { SIMD2(Double($0.x) * scale, Double($0.y) * scale) } }
    }
    if placement == .line {
      geometries = LineMerging.merge(texts: texts.map { $0?.string }, lines: geometries.map { $0 ?? [] })
    }
    for (index, (feature, extent)) in features.enumerated() {
      guard let parts = geometries[index] else { continue }
      let scale = BucketGeometry.extent / Double(extent)
      let text = texts[index]
      let iconName = resolvedIcon(layer, feature: feature, zoom: zoom, layout: layout)
      let icon = iconName.flatMap {
        shapeIcon($0, layer: layer, feature: feature, zoom: zoom, layout: layout, context: context)
      }
      let labels = text.map {
        shapeText($0, layer: layer, feature: feature, zoom: zoom, layout: layout, context: context)
      }
      guard labels?.isEmpty == false || icon != nil else { continue }
      let sortKey = layout.sortKey.value(feature) ?? 0
      let offset = layout.textOffset.value(feature)
      let radial = layout.textRadialOffset.value(feature)
      // A radial offset, when the style gives one (even 0), replaces text-offset.
      let usesRadial =
        layout.variableAnchors != nil && layer.definition["layout"]?.object?["text-radial-offset"] != nil
      let textOffset =
        usesRadial
        ? SIMD2(radial * TextLayout.oneEm, 0)
        : SIMD2((offset.first ?? 0) * TextLayout.oneEm, (offset.count > 1 ? offset[1] : 0) * TextLayout.oneEm)
      let identity = (text?.string ?? "") + "\u{1}" + (iconName ?? "")
      let rotation = layout.textRotate.value(feature)
      var instance = SymbolInstance(
        anchor: .zero, feature: feature, sortKey: sortKey, identity: identity, labels: labels ?? [],
        textOffset: textOffset, usesRadialOffset: usesRadial, hasVariableAnchors: layout.variableAnchors != nil,
        icon: icon, textRotation: rotation, sectionColors: text?.sections.map(\.color) ?? [])
      if layout.followsLine, let text, labels?.isEmpty == false, context.glyphs.usesGlyphPBFs,
        VerticalWriting.allowsVertical(text.codePoints)
      {
        instance.verticalLabel = shapeVertical(
          text, layer: layer, feature: feature, zoom: zoom, layout: layout, context: context)
      }
      if placement == .point {
        for point in anchors(feature.feature, extent: extent) {
          guard kept(point.x, point.y, extent: Double(extent)) else { continue }
          var placed = instance
          placed.anchor = SIMD2(point.x * scale, point.y * scale)
          instances.append(placed)
        }
        continue
      }
      // Along lines: every line (and polygon ring) resampled at the spacing, or its middle.
      // MapLibre spaces the anchors by the vertical version of a label when it has one.
      let textWidth = instance.verticalLabel?.box.width ?? labels?.first.map { $0.label.box.width } ?? 0
      let size = layer.value(SymbolProperties.textSize, zoom: zoom + 1, feature: feature)
      // MapLibre measures an icon's width with the text's scale too.
      let iconWidth = icon?.box.width ?? 0
      let boxScale = unitsPerPixel * size / TextLayout.oneEm
      // Lines along which labels repeat are cut at the tile's edges (a label's anchor is in
      // its own tile); line-center uses the whole line.
      let lines = placement == .line ? LineAnchors.clip(parts, extent: BucketGeometry.extent) : parts
      for line in lines where line.count > 1 {
        let found: [LineAnchor]
        if placement == .lineCenter {
          found =
            LineAnchors.center(
              line, labelWidth: max(textWidth, iconWidth), boxScale: boxScale, maxAngle: layout.maxAngle,
              hasText: labels != nil
            ).map { [$0] } ?? []
        } else {
          found = LineAnchors.anchors(
            line, spacing: layout.spacing * unitsPerPixel, labelWidth: max(textWidth, iconWidth), boxScale: boxScale,
            overscale: overscale, maxAngle: layout.maxAngle, hasText: labels != nil, extent: BucketGeometry.extent)
        }
        for anchor in found {
          guard kept(anchor.point.x, anchor.point.y, extent: BucketGeometry.extent) else { continue }
          // Repeated labels along lines keep their distance; a line's centre label is its only one.
          if placement == .line, let text, !text.isEmpty {
            let key = text.string
            if anchorsByText[key, default: []].contains(where: {
              LineAnchors.distance($0, anchor.point) < repeatDistance
            }) {
              continue
            }
            anchorsByText[key, default: []].append(anchor.point)
          }
          var placed = instance
          placed.anchor = anchor.point
          placed.line = line
          placed.segment = anchor.segment
          placed.followsLine = layout.followsLine
          if let label = labels?.first?.label, layout.followsLine {
            // Native's text collision feature: the label's box in bucket units, padded.
            let padding = layer.value(SymbolProperties.textPadding, zoom: zoom) * unitsPerPixel
            let height = max(10 * boxScale, label.box.height * boxScale + 2 * padding)
            placed.lineCircles = LineCollisionCircles.make(
              line: line, anchor: anchor.point, segment: anchor.segment,
              length: label.box.width * boxScale + 2 * padding, boxSize: height, overscale: overscale)
            placed.lineCircleRadius = height / 2
          }
          instances.append(placed)
        }
      }
    }
    return SymbolBucket(instances: instances)
  }

  /// The layer's layout values: those that are the same for every feature evaluated once.
  struct LayoutValues {
    let variableAnchors: [TextAnchor]?
    let lineHeight: Double
    let placement: SymbolPlacement
    /// Points between labels along lines.
    let spacing: Double
    /// `text-max-angle`, radians.
    let maxAngle: Double
    /// Whether glyphs follow the line (line placement, text turning with the map).
    let followsLine: Bool
    let iconAnchor: LayerValue<SymbolAnchor>
    let iconImage: LayerValue<String?>
    let iconOffset: LayerValue<[Double]>
    let iconRotate: LayerValue<Double>
    let sortKey: LayerValue<Double?>
    let textAnchor: LayerValue<SymbolAnchor>
    let textField: LayerValue<FormattedText>
    let textFont: LayerValue<StringList>
    let textJustify: LayerValue<SymbolJustify>
    let textLetterSpacing: LayerValue<Double>
    let textMaxWidth: LayerValue<Double>
    let textOffset: LayerValue<[Double]>
    let textRadialOffset: LayerValue<Double>
    let textRotate: LayerValue<Double>
    let textTransform: LayerValue<TextTransform>
    /// `text-writing-mode` of point labels in order of preference (horizontal, vertical);
    /// horizontal only when not given.
    let writingModes: [String]

    init(layer: StyleLayer, zoom: Double, placement: SymbolPlacement = .point) {
      self.placement = placement
      spacing = layer.value(SymbolProperties.spacing, zoom: zoom)
      maxAngle = layer.value(SymbolProperties.textMaxAngle, zoom: zoom) * .pi / 180
      let rotation = layer.value(SymbolProperties.textRotationAlignment, zoom: zoom)
      followsLine = placement != .point && (rotation == .map || rotation == .auto)
      variableAnchors = layer.value(SymbolProperties.textVariableAnchor, zoom: zoom)?.values.compactMap {
        TextAnchor(rawValue: $0)
      }
      lineHeight = layer.value(SymbolProperties.textLineHeight, zoom: zoom) * TextLayout.oneEm
      iconAnchor = LayerValue(SymbolProperties.iconAnchor, layer: layer, zoom: zoom)
      iconImage = LayerValue(SymbolProperties.iconImage, layer: layer, zoom: zoom)
      iconOffset = LayerValue(SymbolProperties.iconOffset, layer: layer, zoom: zoom)
      iconRotate = LayerValue(SymbolProperties.iconRotate, layer: layer, zoom: zoom)
      sortKey = LayerValue(SymbolProperties.sortKey, layer: layer, zoom: zoom)
      textAnchor = LayerValue(SymbolProperties.textAnchor, layer: layer, zoom: zoom)
      textField = LayerValue(SymbolProperties.textField, layer: layer, zoom: zoom)
      textFont = LayerValue(SymbolProperties.textFont, layer: layer, zoom: zoom)
      textJustify = LayerValue(SymbolProperties.textJustify, layer: layer, zoom: zoom)
      textLetterSpacing = LayerValue(SymbolProperties.textLetterSpacing, layer: layer, zoom: zoom)
      textMaxWidth = LayerValue(SymbolProperties.textMaxWidth, layer: layer, zoom: zoom)
      textOffset = LayerValue(SymbolProperties.textOffset, layer: layer, zoom: zoom)
      textRadialOffset = LayerValue(SymbolProperties.textRadialOffset, layer: layer, zoom: zoom)
      textRotate = LayerValue(SymbolProperties.textRotate, layer: layer, zoom: zoom)
      textTransform = LayerValue(SymbolProperties.textTransform, layer: layer, zoom: zoom)
      let modes = layer.value(SymbolProperties.textWritingMode, zoom: zoom)?.values.filter {
        $0 == "horizontal" || $0 == "vertical"
      }
      writingModes = placement == .point ? (modes?.isEmpty == false ? modes! : ["horizontal"]) : ["horizontal"]
    }
  }

  /// The anchors of a feature for point placement (tile units).
  static func anchors(_ feature: VectorFeature, extent: Int) -> [SIMD2<Double>] {
    switch feature.type {
    case .point:
      return feature.geometry.flatMap { $0.map { SIMD2(Double($0.x), Double($0.y)) } }
    case .lineString:
      // The first point of each line, as MapLibre places point symbols on lines.
      return feature.geometry.compactMap { $0.first.map { SIMD2(Double($0.x), Double($0.y)) } }
    case .polygon:
      // One point's worth of precision (MapLibre's: a 512th of the tile).
      return PolygonLabelPoint.points(feature.geometry, precision: Double(extent) / 512)
    default:
      return []
    }
  }

  // MARK: Text

  /// The feature's label text: `text-field` evaluated (legacy `{token}` strings filled from
  /// the feature's properties), sections with their fonts, scales and colours, transformed.
  static func resolvedText(_ layer: StyleLayer, feature: TileFeature, zoom: Double, layout: LayoutValues)
    -> StyledText?
  {
    guard layer.properties[SymbolProperties.textField.spec.name] != nil,
      layer.definition["layout"]?.object?["text-field"] != nil
    else { return nil }
    let field = layout.textField.value(feature)
    let transform = layout.textTransform.value(feature)
    let json = layer.definition["layout"]?.object?["text-field"] ?? .null
    let usesTokens = !ExpressionParser.isExpression(json)
    // A text-field that is an image expression shows that image alone.
    let isImage = json.array?.first == .string("image")
    var sections: [TextSection] = []
    for value in field.sections {
      guard let object = value.objectValue else { continue }
      if let image = object["image"]?.string ?? (isImage ? object["text"]?.string : nil) {
        // An image's font-scale scales it as it scales text.
        sections.append(TextSection(text: "", scale: object["font-scale"]?.number ?? 1, image: image))
        continue
      }
      var text = object["text"]?.string ?? ""
      if usesTokens { text = replacingTokens(text, feature: feature) }
      switch transform {
      case .uppercase: text = text.uppercased()
      case .lowercase: text = text.lowercased()
      case .none: break
      }
      sections.append(
        TextSection(
          text: text, scale: object["font-scale"]?.number ?? 1,
          fontStack: object["text-font"]?.array?.compactMap(\.string), color: object["text-color"]?.color))
    }
    let text = StyledText(sections: sections).trimmed()
    return text.isEmpty ? nil : text
  }

  /// `{name}` tokens replaced by the feature's values (empty when absent).
  static func replacingTokens(_ text: String, feature: TileFeature) -> String {
    guard text.contains("{") else { return text }
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      result += rest[..<open]
      guard let close = rest[open...].firstIndex(of: "}") else {
        result += rest[open...]
        return result
      }
      let key = String(rest[rest.index(after: open)..<close])
      result += feature.property(key)?.formatted ?? ""
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }

  /// The text laid out for each anchor it may take.
  static func shapeText(
    _ text: StyledText, layer: StyleLayer, feature: TileFeature, zoom: Double, layout: LayoutValues,
    context: SymbolContext
  ) -> [(anchor: TextAnchor, label: ShapedLabel)] {
    let font = layout.textFont.value(feature).values
    let justify = layout.textJustify.value(feature)
    let anchor =
      TextAnchor(rawValue: layout.textAnchor.value(feature).rawValue) ?? .center
    // Labels along lines stay on one line.
    let maxWidth = layout.placement == .point ? layout.textMaxWidth.value(feature) * TextLayout.oneEm : 0
    // Letter spacing would break the joins of Arabic script: labels with any are not spaced.
    let spacing =
      text.codePoints.contains(where: Unicode.isArabic)
      ? 0 : layout.textLetterSpacing.value(feature) * TextLayout.oneEm
    let offset = layout.textOffset.value(feature)
    let rotation = layout.textRotate.value(feature)
    let anchors = layout.variableAnchors ?? [anchor]
    var byJustification: [TextJustification: ShapedLabel] = [:]
    var result: [(anchor: TextAnchor, label: ShapedLabel)] = []
    for candidate in anchors {
      let justification = resolve(justify, anchor: candidate)
      if layout.variableAnchors != nil, let shaped = byJustification[justification] {
        result.append((candidate, shaped))
        continue
      }
      var options = ShapingOptions(
        maxWidth: maxWidth, lineHeight: layout.lineHeight, spacing: spacing,
        anchor: layout.variableAnchors == nil ? candidate : .center, justify: justification)
      options.setImages(
        of: text, layer: layer, feature: feature, zoom: zoom, icons: context.icons, warn: context.glyphs.warn)
      let shaping = context.glyphs.shape(text, fontStack: font, options: options)
      guard !shaping.isEmpty else { continue }
      var translate = SIMD2<Double>(0, 0)
      if layout.variableAnchors == nil {
        if layer.definition["layout"]?.object?["text-radial-offset"] != nil {
          // A radial offset pushes the label away from its anchor, like a variable one.
          let radial = layout.textRadialOffset.value(feature)
          translate = SymbolPlacer.variableOffset(
            candidate, offset: SIMD2(radial * TextLayout.oneEm, 0), radial: true)
        } else {
          translate = SIMD2(
            (offset.first ?? 0) * TextLayout.oneEm, (offset.count > 1 ? offset[1] : 0) * TextLayout.oneEm)
        }
      }
      let label = glyphQuads(
        shaping, translate: translate, rotation: layout.followsLine ? 0 : rotation, glyphs: context.glyphs,
        alongLine: layout.followsLine, images: context)
      byJustification[justification] = label
      result.append((candidate, label))
    }
    guard layout.writingModes.contains("vertical"), context.glyphs.usesGlyphPBFs,
      VerticalWriting.allowsVertical(text.codePoints)
    else { return result }
    // Vertical point labels (MapLibre): laid out on one line, left justified, at the layer's
    // anchor (centred for variable anchors), every character upright, then turned a quarter;
    // tried in the order text-writing-mode gives.
    var options = ShapingOptions(
      maxWidth: maxWidth, lineHeight: layout.lineHeight, spacing: spacing,
      anchor: layout.variableAnchors == nil ? anchor : .center, justify: .left)
    options.vertical = true
    options.uprightLatin = true
    options.setImages(
      of: text, layer: layer, feature: feature, zoom: zoom, icons: context.icons, warn: context.glyphs.warn)
    let shaping = context.glyphs.shape(text, fontStack: font, options: options)
    guard !shaping.isEmpty else { return result }
    let vertical = glyphQuads(
      shaping, translate: .zero, rotation: rotation, glyphs: context.glyphs, verticalPoint: true, images: context)
    let verticalOptions = anchors.map { (anchor: $0, label: vertical) }
    if layout.writingModes.first == "vertical" {
      return layout.writingModes.contains("horizontal") ? verticalOptions + result : verticalOptions
    }
    return result + verticalOptions
  }

  /// A label along a line written downwards: upright characters one em apart and turned back
  /// upright, punctuation in vertical forms (MapLibre's vertical shaping of line labels).
  static func shapeVertical(
    _ text: StyledText, layer: StyleLayer, feature: TileFeature, zoom: Double, layout: LayoutValues,
    context: SymbolContext
  ) -> ShapedLabel? {
    let spacing = layout.textLetterSpacing.value(feature) * TextLayout.oneEm
    var options = ShapingOptions(maxWidth: 0, lineHeight: layout.lineHeight, spacing: spacing, anchor: .center)
    options.vertical = true
    options.setImages(
      of: text, layer: layer, feature: feature, zoom: zoom, icons: context.icons, warn: context.glyphs.warn)
    let shaping = context.glyphs.shape(text, fontStack: layout.textFont.value(feature).values, options: options)
    guard !shaping.isEmpty else { return nil }
    return glyphQuads(
      shaping, translate: .zero, rotation: 0, glyphs: context.glyphs, alongLine: true, images: context)
  }

  /// `text-justify` for a label at `anchor` (`auto` follows the anchor's side).
  static func resolve(_ justify: SymbolJustify, anchor: TextAnchor) -> TextJustification {
    switch justify {
    case .left: return .left
    case .right: return .right
    case .center: return .center
    case .auto:
      switch anchor.horizontalAlign {
      case 0: return .left
      case 1: return .right
      default: return .center
      }
    }
  }

  /// MapLibre's glyph quads: each glyph's distance field with its border and a texel of
  /// padding, placed at its pen position, turned by `text-rotate` about the anchor.
  /// With `alongLine`, each quad is around its glyph's own centre, which lies
  /// ``SymbolQuad/alongLine`` along the line from the anchor (MapLibre's glyph offsets).
  /// Images of the text take their place in the icon atlas of `images` (left out without
  /// it), with its texel of padding over their pixel ratio.
  static func glyphQuads(
    _ shaping: Shaping, translate: SIMD2<Double>, rotation: Double, glyphs: GlyphStore, alongLine: Bool = false,
    verticalPoint: Bool = false, images: SymbolContext? = nil
  ) -> ShapedLabel {
    let glyphBuffer = Double(SDFGlyph.border) + 1
    // Vertical point labels centre images and scaled glyphs across their line.
    let centresAcrossLine = verticalPoint && shaping.isVerticalizable
    let angle = rotation * .pi / 180
    let (sine, cosine) = (sin(angle), cos(angle))
    func rotate(_ point: SIMD2<Double>) -> SIMD2<Double> {
      rotation == 0 ? point : SIMD2(cosine * point.x - sine * point.y, sine * point.x + cosine * point.y)
    }
    var quads: [SymbolQuad] = []
    quads.reserveCapacity(shaping.glyphs.count)
    for glyph in shaping.glyphs {
      // A glyph's size only: it is packed into the atlas later, in a fixed order (see
      // SymbolBucket.packingGlyphs). An image of the text is already in the icon atlas.
      var image: InlineImageQuad?
      if let name = glyph.image {
        guard let found = images.flatMap({ InlineImageQuad($0, name: name) }) else { continue }
        image = found
      }
      guard let rect = image?.paddedSize ?? glyphs.glyphSize(glyph.glyph).map({ ($0.width + 2, $0.height + 2) })
      else { continue }
      let pixelRatio = image?.pixelRatio ?? 1
      let rectBuffer = image == nil ? glyphBuffer : InlineImage.padding / pixelRatio
      let scale = glyph.scale
      let halfAdvance = glyph.metrics.advance * scale / 2
      let uprightInVertical = (alongLine || verticalPoint) && glyph.vertical
      var acrossLine = 0.0
      if centresAcrossLine {
        acrossLine =
          image != nil
          ? glyph.lineOffset / 2 + (TextLayout.oneEm - glyph.metrics.width * scale) / 2
          : glyph.lineOffset / 2 - (scale - 1) * TextLayout.oneEm
      }
      // The glyph's place in the label (MapLibre's built-in offset); upright glyphs of vertical
      // text are turned first and moved there after.
      let place = SIMD2(alongLine ? 0 : glyph.x + halfAdvance + translate.x, glyph.y + translate.y - acrossLine)
      let inset = uprightInVertical ? SIMD2<Double>(0, 0) : place
      let x1 = (glyph.metrics.left - rectBuffer) * scale - halfAdvance + inset.x
      let y1 = (-glyph.metrics.top - rectBuffer) * scale + inset.y
      let x2 = x1 + Double(rect.0) * scale / pixelRatio
      let y2 = y1 + Double(rect.1) * scale / pixelRatio
      var corners = [SIMD2(x1, y1), SIMD2(x2, y1), SIMD2(x1, y2), SIMD2(x2, y2)]
      if uprightInVertical {
        // MapLibre's upright glyphs in vertical text: turned a quarter counter-clockwise about
        // the middle of the left edge of their one-em box (below the midline), then moved so
        // their centre lies on the line again; half-width glyphs are pulled up.
        // Images are pulled up by as much as half-width glyphs are pulled left.
        let yOffset = -17.0
        let center = SIMD2(-halfAdvance, halfAdvance - yOffset)
        let halfWidthCorrection = TextLayout.oneEm / 2 - halfAdvance
        let correction = SIMD2(5 - yOffset - halfWidthCorrection, image == nil ? 0 : -halfWidthCorrection)
        corners = corners.map { corner in
          let p = corner - center
          return SIMD2(p.y, -p.x) + center + correction + place
        }
      }
      if verticalPoint {
        // A vertical point label is the horizontal layout turned a quarter clockwise.
        corners = corners.map { SIMD2(-$0.y, $0.x) }
      }
      corners = corners.map(rotate)
      if image != nil {
        // MapLibre Native keeps quad corners in 1/32 units; images read texel for pixel
        // depend on where exactly their edges fall.
        corners = corners.map { ($0 * 32).rounded(.toNearestOrAwayFromZero) / 32 }
      }
      var quad = SymbolQuad(
        topLeft: corners[0], topRight: corners[1], bottomLeft: corners[2], bottomRight: corners[3],
        texture: image?.texture ?? .zero, glyph: image == nil ? glyph.glyph : nil, section: glyph.section)
      quad.textImage = image?.kind
      if alongLine { quad.alongLine = glyph.x + halfAdvance + translate.x }
      quads.append(quad)
    }
    var box = SymbolBox(
      left: shaping.left + translate.x, top: shaping.top + translate.y, right: shaping.right + translate.x,
      bottom: shaping.bottom + translate.y)
    if verticalPoint {
      box = SymbolBox(left: -box.bottom, top: box.left, right: -box.top, bottom: box.right)
    }
    if rotation != 0 {
      let corners = [
        rotate(SIMD2(box.left, box.top)), rotate(SIMD2(box.right, box.top)), rotate(SIMD2(box.left, box.bottom)),
        rotate(SIMD2(box.right, box.bottom)),
      ]
      box = SymbolBox(
        left: corners.map(\.x).min()!, top: corners.map(\.y).min()!, right: corners.map(\.x).max()!,
        bottom: corners.map(\.y).max()!)
    }
    return ShapedLabel(quads: quads, box: box)
  }

  // MARK: Icons

  /// The feature's `icon-image` (tokens filled for legacy strings); nil when it has none.
  static func resolvedIcon(_ layer: StyleLayer, feature: TileFeature, zoom: Double, layout: LayoutValues)
    -> String?
  {
    guard let json = layer.definition["layout"]?.object?["icon-image"],
      var name = layout.iconImage.value(feature)
    else { return nil }
    if !ExpressionParser.isExpression(json) { name = replacingTokens(name, feature: feature) }
    return name.isEmpty ? nil : name
  }

  /// MapLibre's icon quad: the image's size in points around `icon-anchor`, shifted by
  /// `icon-offset`, with the atlas texel of padding around it, turned by `icon-rotate`.
  static func shapeIcon(
    _ name: String, layer: StyleLayer, feature: TileFeature, zoom: Double, layout: LayoutValues, context: SymbolContext
  )
    -> ShapedIcon?
  {
    guard let position = context.icons.positions[name] else {
      context.glyphs.warn("layer '\(layer.id)': no image '\(name)' in the style's sprite; the icon is left out")
      return nil
    }
    let ratio = Double(position.pixelRatio)
    let width = Double(position.bottomRight.x - position.topLeft.x) / ratio
    let height = Double(position.bottomRight.y - position.topLeft.y) / ratio
    let anchor =
      TextAnchor(rawValue: layout.iconAnchor.value(feature).rawValue) ?? .center
    let offset = layout.iconOffset.value(feature)
    let x1 = (offset.first ?? 0) - width * anchor.horizontalAlign
    let y1 = (offset.count > 1 ? offset[1] : 0) - height * anchor.verticalAlign
    let box = SymbolBox(left: x1, top: y1, right: x1 + width, bottom: y1 + height)
    let sprite = context.images[name]
    let image = IconImage(
      paddedTexture: SIMD4(
        position.topLeft.x - 1, position.topLeft.y - 1, position.bottomRight.x + 1, position.bottomRight.y + 1),
      pixelRatio: ratio, isSDF: sprite?.isSDF ?? false, stretchX: sprite?.stretchX ?? [],
      stretchY: sprite?.stretchY ?? [], content: sprite?.content)
    return ShapedIcon(
      box: box, image: image, offset: SIMD2(offset.first ?? 0, offset.count > 1 ? offset[1] : 0),
      rotation: layout.iconRotate.value(feature))
  }
}

/// A point inside a polygon for its label: the pole of inaccessibility of each outer ring
/// (the interior point farthest from the outline, found to a tile unit by subdividing cells,
/// as MapLibre's polylabel does).
enum PolygonLabelPoint {
  static func points(_ rings: [[TilePoint]], precision: Double) -> [SIMD2<Double>] {
    var result: [SIMD2<Double>] = []
    var polygon: [[SIMD2<Double>]] = []
    func flush() {
      if let point = pole(polygon, precision: precision) { result.append(point) }
      polygon = []
    }
    var outerSign: Bool?
    for ring in rings where ring.count >= 3 {
      let points = ring.map { SIMD2(Double($0.x), Double($0.y)) }
      let area = signedArea(points)
      guard area != 0 else { continue }
      if outerSign == nil { outerSign = area > 0 }
      if (area > 0) == outerSign {
        if !polygon.isEmpty { flush() }
        polygon = [points]
      } else {
        polygon.append(points)
      }
    }
    if !polygon.isEmpty { flush() }
    return result
  }

  static func signedArea(_ ring: [SIMD2<Double>]) -> Double {
    var sum = 0.0
    for index in ring.indices {
      let a = ring[index]
      let b = ring[(index + 1) % ring.count]
      sum += (b.x - a.x) * (a.y + b.y)
    }
    return sum
  }

  /// Signed distance from `point` to the polygon's outline (positive inside).
  static func distance(_ point: SIMD2<Double>, _ polygon: [[SIMD2<Double>]]) -> Double {
    var inside = false
    var best = Double.infinity
    for ring in polygon {
      var j = ring.count - 1
      for i in ring.indices {
        let a = ring[i]
        let b = ring[j]
        if (a.y > point.y) != (b.y > point.y), point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
          inside.toggle()
        }
        best = min(best, segmentDistanceSquared(point, a, b))
        j = i
      }
    }
    return (inside ? 1 : -1) * best.squareRoot()
  }

  static func segmentDistanceSquared(_ p: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    var x = a.x
    var y = a.y
    let dx = b.x - x
    let dy = b.y - y
    if dx != 0 || dy != 0 {
      let t = ((p.x - x) * dx + (p.y - y) * dy) / (dx * dx + dy * dy)
      if t > 1 {
        x = b.x
        y = b.y
      } else if t > 0 {
        x += dx * t
        y += dy * t
      }
    }
    return (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)
  }

  static func pole(_ polygon: [[SIMD2<Double>]], precision: Double) -> SIMD2<Double>? {
    guard let outer = polygon.first, !outer.isEmpty else { return nil }
    let minX = outer.map(\.x).min()!
    let minY = outer.map(\.y).min()!
    let maxX = outer.map(\.x).max()!
    let maxY = outer.map(\.y).max()!
    let cellSize = min(maxX - minX, maxY - minY)
    guard cellSize > 0 else { return SIMD2(minX, minY) }
    struct Cell {
      let center: SIMD2<Double>
      let half: Double
      let distance: Double
      var potential: Double { distance + half * 2.squareRoot() }
    }
    func cell(_ center: SIMD2<Double>, _ half: Double) -> Cell {
      Cell(center: center, half: half, distance: distance(center, polygon))
    }
    var queue: [Cell] = []
    var x = minX
    while x < maxX {
      var y = minY
      while y < maxY {
        queue.append(cell(SIMD2(x + cellSize / 2, y + cellSize / 2), cellSize / 2))
        y += cellSize
      }
      x += cellSize
    }
    var best = cell(centroid(outer), 0)
    let boxCell = cell(SIMD2((minX + maxX) / 2, (minY + maxY) / 2), 0)
    if boxCell.distance > best.distance { best = boxCell }
    var steps = 0
    while !queue.isEmpty, steps < 10_000 {
      steps += 1
      let index = queue.indices.max { queue[$0].potential < queue[$1].potential }!
      let current = queue.remove(at: index)
      if current.distance > best.distance { best = current }
      guard current.potential - best.distance > precision else { continue }
      let h = current.half / 2
      for (dx, dy) in [(-h, -h), (h, -h), (-h, h), (h, h)] {
        queue.append(cell(SIMD2(current.center.x + dx, current.center.y + dy), h))
      }
    }
    return best.center
  }

  static func centroid(_ ring: [SIMD2<Double>]) -> SIMD2<Double> {
    var area = 0.0
    var x = 0.0
    var y = 0.0
    for index in ring.indices {
      let a = ring[index]
      let b = ring[(index + 1) % ring.count]
      let f = a.x * b.y - b.x * a.y
      x += (a.x + b.x) * f
      y += (a.y + b.y) * f
      area += f * 3
    }
    return area == 0 ? ring[0] : SIMD2(x / area, y / area)
  }
}
