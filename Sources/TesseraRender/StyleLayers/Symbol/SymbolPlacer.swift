import Dispatch
import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle
import TesseraText

/// The symbols of one layer a frame draws: instance data of glyph and icon quads, each a
/// packed ``SymbolInstanceVertex``.
struct PlacedSymbols: Sendable {
  var text: [Float] = []
  var textHalo = false
  var icons: [Float] = []
  var sdfIcons: [Float] = []
  var sdfIconHalo = false
  /// Whether plain icons are drawn texel for pixel (unscaled, untransformed).
  var iconsNearest = true
  /// Labels placed (text or icon).
  var placed = 0
  /// Collision debug circles of labels along lines, ``CollisionCirclePipeline/floatsPerCircle``
  /// floats each (with ``SymbolPlacer/showsCollisionCircles``).
  var collisionCircles: [Float] = []
  /// Where each run of one sort key starts in the arrays (floats), when the layer has sort
  /// keys: each run draws its icons then its text. Empty: one run.
  var segments: [Segment] = []

  struct Segment: Sendable {
    let key: Double
    let text: Int
    let icons: Int
    let sdfIcons: Int
  }

  /// The runs drawn in turn: float ranges of text, icons and SDF icons.
  var runs: [(text: Range<Int>, icons: Range<Int>, sdfIcons: Range<Int>)] {
    guard !segments.isEmpty else { return [(0..<text.count, 0..<icons.count, 0..<sdfIcons.count)] }
    return segments.indices.map { index in
      let start = segments[index]
      let end = index + 1 < segments.count ? segments[index + 1] : nil
      return (
        start.text..<(end?.text ?? text.count), start.icons..<(end?.icons ?? icons.count),
        start.sdfIcons..<(end?.sdfIcons ?? sdfIcons.count)
      )
    }
  }

  var isEmpty: Bool { text.isEmpty && icons.isEmpty && sdfIcons.isEmpty && collisionCircles.isEmpty }
}

/// The tiles of one symbol layer in a frame with their buckets.
struct SymbolLayerTiles {
  let layer: StyleLayer
  let tiles: [(tile: BucketTile, bucket: SymbolBucket)]
  /// The buckets' keys, in the same order.
  let keys: [BucketKey]
}

/// Places the symbols of a frame, MapLibre's way: layers from the top of the style down, each
/// symbol in order (by `symbol-sort-key` when set), a label placed where its boxes (text and
/// icon, padded) fit among those placed before it (or overlap is allowed), trying each of
/// its variable anchors in turn; the same symbol in two tiles is placed once. Then makes the
/// instance data of what was placed, each quad's corners in clip space.
struct SymbolPlacer {
  /// Points plain icons are moved right and down by, so an edge exactly halfway between two
  /// pixels covers the later one (anchors lie on 1/16-point steps; this is far below one).
  static let halfPixelTieNudge = 1.0 / 1024

  let transform: CameraTransform
  /// Time spent making the quads of placed symbols (the rest of placing is collision tests).
  var quadNanoseconds: UInt64 = 0
  /// Map matrix: world offsets from the target (points) to clip space.
  let matrix: Mat4
  var grid: CollisionGrid
  /// Screen lines no label may cross (frames cut into tiles).
  var tileCuts: TileCuts?
  /// Whether the collision circles of labels along lines are kept for drawing.
  var showsCollisionCircles = false

  init(transform: CameraTransform, collisionMargin: Double = CollisionGrid.defaultMargin) {
    self.transform = transform
    matrix = transform.clipMatrix()
    grid = CollisionGrid(width: transform.viewport.width, height: transform.viewport.height, margin: collisionMargin)
  }

  /// Places every layer's symbols; the result by layer id.
  mutating func place(_ layers: [SymbolLayerTiles]) -> [String: PlacedSymbols] {
    if tileCuts?.tilePlacement == true { return placeAsTile(layers) }
    var result: [String: PlacedSymbols] = [:]
    for entry in layers.reversed() { result[entry.layer.id] = place(entry) }
    return result
  }

  /// Whether a box crosses a line of ``tileCuts``.
  func crossesCut(_ box: CollisionGrid.Box) -> Bool { tileCuts?.crosses(box) ?? false }

  /// A point projected: clip coordinates and screen points.
  struct Projected {
    let clip: SIMD4<Double>
    let screen: SIMD2<Double>
    /// Distance from the camera along its axis, points.
    var depth: Double { clip.w }
  }

  func project(dx: Double, dy: Double) -> Projected? {
    let m = matrix.elements
    let x = m[0] * dx + m[4] * dy + m[12]
    let y = m[1] * dx + m[5] * dy + m[13]
    let z = m[2] * dx + m[6] * dy + m[14]
    let w = m[3] * dx + m[7] * dy + m[15]
    guard w > 1e-6 else { return nil }
    let width = transform.viewport.width
    let height = transform.viewport.height
    return Projected(
      clip: SIMD4(x, y, z, w), screen: SIMD2((x / w + 1) / 2 * width, (1 - y / w) / 2 * height))
  }

  /// Clip coordinates of a screen point (points), at depth 0.
  func clip(screen point: SIMD2<Double>) -> SIMD4<Double> {
    SIMD4(point.x / transform.viewport.width * 2 - 1, 1 - point.y / transform.viewport.height * 2, 0, 1)
  }

  /// A symbol's text and icon and where it stands (eighths of a point).
  struct DedupeKey: Hashable {
    let identity: String
    let x: Int
    let y: Int
  }

  struct Candidate {
    let instance: SymbolInstance
    /// The anchor's world offset from the target, points.
    let offset: SIMD2<Double>
    let order: Int
    /// The bucket's origin as a world offset from the target, and points per bucket unit.
    var origin = SIMD2<Double>(0, 0)
    var unit = 0.0
    /// Points per bucket unit at the zoom of the tiles drawing the bucket (MapLibre's text
    /// pixel ratio).
    var tileUnit = 0.0
    /// How many times deeper the tiles drawing the bucket are than its data tile.
    var overscale = 1.0
  }

  /// A layer's symbols ready to place: its values and its candidates in placement order.
  struct LayerCandidates {
    let values: LayerValues
    let candidates: [Candidate]
  }

  /// One placed symbol's quads, with its candidate's index (placement order) and sort key.
  struct PlacedOutput {
    let index: Int
    let sortKey: Double
    let output: SymbolOutput
  }

  private mutating func place(_ entry: SymbolLayerTiles) -> PlacedSymbols {
    let prepared = candidates(of: entry)
    var result = PlacedSymbols()
    var drawn: [PlacedOutput] = []
    for (index, candidate) in prepared.candidates.enumerated() {
      guard let output = placeSymbol(candidate, values: prepared.values, result: &result) else { continue }
      drawn.append(PlacedOutput(index: index, sortKey: candidate.instance.sortKey, output: output))
    }
    assemble(drawn, values: prepared.values, into: &result)
    return result
  }

  /// The layer's candidates: each tile's symbols (the same symbol from two tiles once), in
  /// MapLibre's placement order.
  func candidates(of entry: SymbolLayerTiles) -> LayerCandidates {
    let layer = entry.layer
    let zoom = transform.camera.styleZoom
    var values = LayerValues(layer: layer, zoom: zoom, transform: transform)
    // MapLibre's tile mode keeps labels along lines inside the tile.
    if tileCuts?.tilePlacement == true && layer.value(SymbolProperties.placement, zoom: zoom) == .line {
      values.avoidEdges = true
    }
    var candidates: [Candidate] = []
    var seen: [DedupeKey: Int] = [:]
    for (tileIndex, (tile, bucket)) in entry.tiles.enumerated() {
      let tileSize = transform.worldSize / Double(tile.dataTile.tilesPerSide)
      let origin = tile.covered.origin(worldSize: transform.worldSize)
      let unit = tileSize / BucketGeometry.extent
      for instance in bucket.instances {
        let world = SIMD2(origin.x + instance.anchor.x * unit, origin.y + instance.anchor.y * unit)
        // The same symbol from two tiles (shared buffers, parent and child) is placed once;
        // equal symbols of one tile are distinct features.
        let key = DedupeKey(
          identity: instance.identity, x: Int(clamping: (world.x * 8).rounded()),
          y: Int(clamping: (world.y * 8).rounded()))
        if let first = seen[key], first != tileIndex { continue }
        seen[key] = tileIndex
        candidates.append(
          Candidate(
            instance: instance,
            offset: SIMD2(world.x - transform.targetWorld.x, world.y - transform.targetWorld.y),
            order: candidates.count,
            origin: SIMD2(origin.x - transform.targetWorld.x, origin.y - transform.targetWorld.y), unit: unit,
            tileUnit: unit * pow(2, Double(tile.zoom) - zoom),
            overscale: pow(2, Double(max(tile.zoom - tile.dataTile.z, 0)))))
      }
    }
    if values.hasSortKey {
      candidates.sort {
        $0.instance.sortKey == $1.instance.sortKey ? $0.order < $1.order : $0.instance.sortKey < $1.instance.sortKey
      }
    } else if values.sortsByViewportY {
      // Drawn from the top of the view down, so placed from the bottom up: what is drawn
      // over others wins collisions (MapLibre's order).
      func screenY(_ candidate: Candidate) -> Double {
        transform.sinBearing * -candidate.offset.x + transform.cosBearing * candidate.offset.y
      }
      candidates.sort { screenY($0) == screenY($1) ? $0.order > $1.order : screenY($0) > screenY($1) }
    }
    return LayerCandidates(values: values, candidates: candidates)
  }

  /// Puts the placed symbols' quads into `result` in drawing order: placement order, or from
  /// the top of the view down; runs of one sort key drawn in turn.
  func assemble(_ placed: [PlacedOutput], values: LayerValues, into result: inout PlacedSymbols) {
    var drawn = placed.sorted { $0.index < $1.index }
    if values.sortsByViewportY {
      drawn.sort { $0.output.y == $1.output.y ? $0.index < $1.index : $0.output.y < $1.output.y }
    }
    for item in drawn {
      // Symbols of one sort key draw their icons then their text before the next key's.
      if values.hasSortKey, result.segments.last?.key != item.sortKey {
        result.segments.append(
          PlacedSymbols.Segment(
            key: item.sortKey, text: result.text.count, icons: result.icons.count, sdfIcons: result.sdfIcons.count))
      }
      result.text += item.output.text
      result.icons += item.output.icon
      result.sdfIcons += item.output.sdf
    }
  }

  /// The screen angle (radians) of the map's x axis at a point: how `map`-rotated symbols
  /// facing the screen are turned.
  func mapAngle(_ anchor: Projected, offset: SIMD2<Double>) -> Double {
    guard let east = project(dx: offset.x + 1, dy: offset.y) else { return -transform.camera.bearing * .pi / 180 }
    return atan2(east.screen.y - anchor.screen.y, east.screen.x - anchor.screen.x)
  }

  struct SymbolOutput {
    let y: Double
    var text: [Float] = []
    var icon: [Float] = []
    var sdf: [Float] = []
  }

  mutating func placeSymbol(
    _ candidate: Candidate, values: LayerValues, result: inout PlacedSymbols, tilePass: TilePass? = nil
  ) -> SymbolOutput? {
    let instance = candidate.instance
    let feature = instance.feature
    guard let anchor = project(dx: candidate.offset.x, dy: candidate.offset.y) else { return nil }
    // Anchors far outside the view cannot show a label in it (the grid's margin and the
    // widest labels together stay within this).
    let reach = grid.margin + 512
    guard anchor.screen.x > -reach, anchor.screen.y > -reach, anchor.screen.x < transform.viewport.width + reach,
      anchor.screen.y < transform.viewport.height + reach
    else { return nil }
    let distance = transform.cameraDistance
    let perspective = min(max(0.5 + 0.5 * distance / anchor.depth, 0), 4)
    let mapPerspective = min(max(0.5 + 0.5 * anchor.depth / distance, 0), 4)
    let hasText = !instance.labels.isEmpty
    let hasIcon = instance.icon != nil

    // Text: the first anchor whose box fits (with overlap allowed, a second round over
    // the anchors takes the first that fits, else the first anchor).
    let textSize = values.textSize.value(feature)
    let textScale = textSize / TextLayout.oneEm
    var chosen: (label: ShapedLabel, shift: SIMD2<Double>, box: CollisionGrid.Box)?
    var textFits = false
    var alongLine: LineLabelLayout?
    if hasText, instance.followsLine, instance.line != nil {
      // Glyphs along the line: every glyph's box must be free.
      let fontScale = textScale * (values.textPitchWithMap ? mapPerspective : perspective)
      alongLine = layoutAlongLine(
        candidate, label: instance.labels[0].label, fontScale: fontScale, pitchWithMap: values.textPitchWithMap,
        keepUpright: values.keepUpright, translate: values.textTranslate, perspective: perspective,
        textScale: textScale, anchor: anchor)
      if alongLine?.runsVertically == true, let vertical = instance.verticalLabel {
        // CJK along a line running up and down the screen: written downwards (MapLibre).
        alongLine = layoutAlongLine(
          candidate, label: vertical, fontScale: fontScale, pitchWithMap: values.textPitchWithMap,
          keepUpright: values.keepUpright, translate: values.textTranslate, perspective: perspective,
          textScale: textScale, anchor: anchor, vertical: true)
      }
      if alongLine != nil, !instance.lineCircles.isEmpty, let label = instance.labels.first?.label,
        let circles = lineCircles(
          candidate, label: label, textScale: textScale, perspective: perspective, translate: values.textTranslate)
      {
        alongLine?.boxes = circles
      }
      if let boxes = alongLine?.boxes {
        textFits =
          (values.textAllowOverlap || !boxes.contains(where: grid.collides))
          && !boxes.allSatisfy(grid.isOffscreen) && (!values.avoidEdges || boxes.allSatisfy(grid.isInsideView))
          && !boxes.contains(where: crossesCut)
      }
    } else if hasText {
      let options = instance.labels
      let rounds = instance.hasVariableAnchors && values.textAllowOverlap ? 2 : 1
      search: for round in 0..<rounds {
        for option in options {
          let shift =
            instance.hasVariableAnchors
            ? variableShift(option, instance: instance, textScale: textScale, padding: values.textPadding) : .zero
          let box = screenBox(
            option.label.box, scale: textScale, shift: shift, padding: values.textPadding, anchor: anchor,
            perspective: perspective, translate: values.textTranslate)
          if let tilePass, instance.hasVariableAnchors {
            let unshifted = screenBox(
              option.label.box, scale: textScale, shift: .zero, padding: values.textPadding, anchor: anchor,
              perspective: perspective, translate: values.textTranslate)
            let first = option.anchor == options.first?.anchor
            guard tilePass.allowsVariableAnchor(first: first, unshifted: unshifted, shifted: box, view: grid)
            else { continue }
          }
          let overlapAllowed = values.textAllowOverlap && (round == 1 || !instance.hasVariableAnchors)
          let fits =
            (overlapAllowed || !grid.collides(box)) && !grid.isOffscreen(box)
            && (!values.avoidEdges || grid.isInsideView(box)) && !crossesCut(box)
          if fits || chosen == nil { chosen = (option.label, shift, box) }
          if fits {
            textFits = true
            break search
          }
        }
      }
    }

    // Icon.
    var iconBox: CollisionGrid.Box?
    var iconFits = false
    var iconSize = 1.0
    var iconShape = instance.icon
    if let icon = instance.icon {
      iconSize = values.iconSize.value(feature)
      // The text an icon is fitted around: the placed label, or the label along the line.
      let fitLabel =
        chosen.map { ($0.label, $0.shift) }
        ?? (alongLine != nil ? instance.labels.first.map { ($0.label, SIMD2<Double>.zero) } : nil)
      if values.iconTextFit != .none, let (label, shift) = fitLabel {
        iconShape = fitted(
          icon, to: label.box, textScale: textScale / iconSize, shift: shift / iconSize, values: values)
      }
      let padding = values.iconPadding.value(feature)
      let box = screenBox(
        iconShape!.box, scale: iconSize, shift: .zero, padding: padding.first ?? 2, anchor: anchor,
        perspective: perspective, translate: values.iconTranslate)
      iconBox = box
      iconFits =
        (values.iconAllowOverlap || !grid.collides(box)) && !grid.isOffscreen(box)
        && (!values.avoidEdges || grid.isInsideView(box)) && !crossesCut(box)
    }

    // MapLibre's rule for labels with both: each part needs the other unless it is optional.
    var placeText = hasText && textFits
    var placeIcon = hasIcon && iconFits
    let iconWithoutText = !hasText || values.textOptional
    let textWithoutIcon = !hasIcon || values.iconOptional
    if hasText && hasIcon {
      if !iconWithoutText && !textWithoutIcon {
        placeText = placeText && placeIcon
        placeIcon = placeText
      } else if !textWithoutIcon {
        placeText = placeText && placeIcon
      } else if !iconWithoutText {
        placeIcon = placeIcon && placeText
      }
    }
    if showsCollisionCircles, let boxes = alongLine?.boxes {
      // MapLibre's stroke: 15 tile units of the data tile, over its overscale factor.
      let stroke = 15 * candidate.unit / candidate.overscale * perspective
      result.collisionCircles += CollisionCirclePipeline.instances(boxes, stroke: stroke, placed: placeText)
    }
    guard placeText || placeIcon else { return nil }
    if placeText, !values.textIgnorePlacement {
      if let boxes = alongLine?.boxes {
        for box in boxes { grid.insert(box) }
      } else if let box = chosen?.box {
        grid.insert(box)
      }
    }
    if placeIcon, !values.iconIgnorePlacement, let box = iconBox { grid.insert(box) }
    result.placed += 1
    let quadsStart = DispatchTime.now().uptimeNanoseconds
    defer { quadNanoseconds += DispatchTime.now().uptimeNanoseconds - quadsStart }

    var output = SymbolOutput(y: anchor.screen.y)
    if placeIcon, let icon = iconShape {
      let opacity = values.iconOpacity.value(feature)
      let isSDF = icon.image.isSDF
      let color = isSDF ? values.iconColor.value(feature) : .white
      let halo = values.iconHaloColor.value(feature)
      let haloWidth = values.iconHaloWidth.value(feature)
      let haloBlur = values.iconHaloBlur.value(feature)
      let scale = iconSize * (values.iconPitchWithMap ? mapPerspective : perspective)
      var floats: [Float] = []
      var quads = icon.quads(fitted: values.iconTextFit != .none && (chosen != nil || alongLine != nil))
      if instance.line != nil, values.iconRotateWithMap {
        // Icons along lines turn with the line (one-way arrows).
        let angle = lineAngle(candidate, keepUpright: values.iconKeepUpright)
        for index in quads.indices { quads[index].rotation += angle }
      }
      // Plain icons facing the screen are read texel for pixel: one whose edge falls exactly
      // between two pixels takes the later pixel, as MapLibre Native's draw does.
      let nudge =
        !isSDF && !values.iconPitchWithMap && values.iconTextFit == .none
        ? SIMD2(repeating: SymbolPlacer.halfPixelTieNudge) : .zero
      for quad in quads {
        appendQuad(
          quad, into: &floats, scale: scale, shift: .zero, anchor: anchor, offset: candidate.offset,
          pitchWithMap: values.iconPitchWithMap, rotateWithMap: values.iconRotateWithMap,
          translate: values.iconTranslate + nudge, fill: color, halo: halo, opacity: opacity,
          params: SIMD4(
            Float(iconSize * (values.iconPitchWithMap ? 1 : perspective)), Float(haloWidth), Float(haloBlur),
            Float(gammaScale(anchor, values.iconPitchWithMap))))
      }
      if isSDF {
        output.sdf = floats
        if halo.alpha > 0 && (haloWidth > 0 || haloBlur > 0) { result.sdfIconHalo = true }
      } else {
        output.icon = floats
        if iconSize != 1 || icon.image.pixelRatio != transform.viewport.scale || values.iconPitchWithMap
          || values.iconRotateWithMap || transform.camera.viewingAngle != 0 || icon.rotation != 0
        {
          result.iconsNearest = false
        }
      }
    }
    if placeText, let layout = alongLine {
      let color = values.textColor.value(feature)
      let opacity = values.textOpacity.value(feature)
      let halo = values.textHaloColor.value(feature)
      let haloWidth = values.textHaloWidth.value(feature)
      let haloBlur = values.textHaloBlur.value(feature)
      if halo.alpha > 0 && (haloWidth > 0 || haloBlur > 0) { result.textHalo = true }
      let params = SIMD4(
        Float(textScale * (values.textPitchWithMap ? 1 : perspective)), Float(haloWidth), Float(haloBlur),
        Float(gammaScale(anchor, values.textPitchWithMap)))
      for (corners, quad) in zip(layout.corners, layout.quads) {
        appendCorners(
          corners, texture: quad.texture, into: &output.text,
          fill: instance.sectionColors.indices.contains(quad.section)
            ? instance.sectionColors[quad.section] ?? color : color, halo: halo, opacity: opacity, params: params)
      }
    } else if placeText, let label = chosen {
      let color = values.textColor.value(feature)
      let opacity = values.textOpacity.value(feature)
      let halo = values.textHaloColor.value(feature)
      let haloWidth = values.textHaloWidth.value(feature)
      let haloBlur = values.textHaloBlur.value(feature)
      if halo.alpha > 0 && (haloWidth > 0 || haloBlur > 0) { result.textHalo = true }
      let scale = textScale * (values.textPitchWithMap ? mapPerspective : perspective)
      let params = SIMD4(
        Float(textScale * (values.textPitchWithMap ? 1 : perspective)), Float(haloWidth), Float(haloBlur),
        Float(gammaScale(anchor, values.textPitchWithMap)))
      for quad in label.label.quads {
        appendQuad(
          quad, into: &output.text, scale: scale, shift: label.shift, anchor: anchor,
          offset: candidate.offset, pitchWithMap: values.textPitchWithMap, rotateWithMap: values.textRotateWithMap,
          translate: values.textTranslate,
          fill: instance.sectionColors.indices.contains(quad.section)
            ? instance.sectionColors[quad.section] ?? color : color, halo: halo, opacity: opacity,
          params: params)
      }
    }
    return output
  }

  /// The distance-field edge's scale for glyphs lying on the map (they are seen at a slant
  /// and a distance): MapLibre's gamma scale.
  func gammaScale(_ anchor: Projected, _ pitchWithMap: Bool) -> Double {
    pitchWithMap ? anchor.depth / (transform.cosTilt * transform.cameraDistance) : 1
  }

  /// Appends one quad's instance: its corners placed around the anchor (facing the screen,
  /// or lying on the map), texture rectangle, colours and distance-field parameters.
  func appendQuad(
    _ quad: SymbolQuad, into floats: inout [Float], scale: Double, shift: SIMD2<Double>, anchor: Projected,
    offset: SIMD2<Double>, pitchWithMap: Bool, rotateWithMap: Bool, translate: SIMD2<Double>, fill: Color,
    halo: Color, opacity: Double, params: SIMD4<Float>
  ) {
    // Scaled corners with the fixed parts' offsets, turned by the quad's rotation.
    let scaleX = max(quad.minimumScale.x, scale)
    let scaleY = max(quad.minimumScale.y, scale)
    let pixels = quad.pixelOffsets
    var points = (
      SIMD2(quad.topLeft.x * scaleX + pixels.x, quad.topLeft.y * scaleY + pixels.y),
      SIMD2(quad.topRight.x * scaleX + pixels.z, quad.topRight.y * scaleY + pixels.y),
      SIMD2(quad.bottomLeft.x * scaleX + pixels.x, quad.bottomLeft.y * scaleY + pixels.w),
      SIMD2(quad.bottomRight.x * scaleX + pixels.z, quad.bottomRight.y * scaleY + pixels.w)
    )
    if quad.rotation != 0 {
      let (c, s) = (cos(quad.rotation), sin(quad.rotation))
      func turn(_ p: SIMD2<Double>) -> SIMD2<Double> { SIMD2(c * p.x - s * p.y, s * p.x + c * p.y) }
      points = (turn(points.0), turn(points.1), turn(points.2), turn(points.3))
    }
    let corner: (SIMD2<Double>) -> SIMD4<Double>
    if pitchWithMap {
      // On the map: offsets along the map's axes, or along the screen's turned onto the map.
      let (cosine, sine) = rotateWithMap ? (1.0, 0.0) : (transform.cosBearing, transform.sinBearing)
      // Translations are screen offsets: moved onto the map with the bearing.
      let shiftWorld = SIMD2(
        transform.cosBearing * translate.x - transform.sinBearing * translate.y,
        transform.sinBearing * translate.x + transform.cosBearing * translate.y)
      let m = matrix.elements
      corner = { point in
        let local = point + shift
        let dx = offset.x + cosine * local.x - sine * local.y + shiftWorld.x
        let dy = offset.y + sine * local.x + cosine * local.y + shiftWorld.y
        return SIMD4(
          m[0] * dx + m[4] * dy + m[12], m[1] * dx + m[5] * dy + m[13], m[2] * dx + m[6] * dy + m[14],
          m[3] * dx + m[7] * dy + m[15])
      }
    } else {
      let angle = rotateWithMap ? mapAngle(anchor, offset: offset) : 0
      let (cosine, sine) = (cos(angle), sin(angle))
      let origin = anchor.screen + translate
      corner = { point in
        let local = point + shift
        return clip(screen: origin + SIMD2(cosine * local.x - sine * local.y, sine * local.x + cosine * local.y))
      }
    }
    let corners = QuadCorners(
      topLeft: corner(points.0), topRight: corner(points.1), bottomLeft: corner(points.2),
      bottomRight: corner(points.3))
    SymbolInstanceVertex(
      corners: corners, texture: quad.texture, fill: fill, halo: halo, opacity: opacity, params: params
    ).pack(into: &floats)
  }
}
