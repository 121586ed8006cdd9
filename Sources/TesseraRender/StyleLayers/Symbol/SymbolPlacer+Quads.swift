import Foundation
import TesseraNumbers
import TesseraStyle

/// A glyph or icon quad projected for the frame: its corners in clip space and what it
/// shows.
struct ProjectedQuad {
  let corners: QuadCorners
  /// x0, y0, x1, y1 in its atlas, texels.
  let texture: SIMD4<Float>
  /// The text section it belongs to (its colour); 0 for icons.
  let section: Int
  /// For an image inside the text: how it is drawn from the icon atlas.
  var textImage: TextImageKind? = nil
}

/// The quads of a placed symbol's icon and text, projected for the frame.
struct ProjectedQuads {
  /// Empty when the icon is not placed.
  var icon: [ProjectedQuad] = []
  /// Empty when the text is not placed.
  var text: [ProjectedQuad] = []
}

extension SymbolPlacer {
  /// The quads of the parts of a symbol `decision` places, their corners in clip space:
  /// icons and point labels around the anchor (facing the screen or lying on the map),
  /// glyphs along lines where their layout put them.
  func projectQuads(
    _ candidate: Candidate, _ projection: SymbolProjection, _ decision: SymbolDecision, values: LayerValues
  ) -> ProjectedQuads {
    var result = ProjectedQuads()
    let (perspective, mapPerspective, anchor) = (projection.perspective, projection.mapPerspective, projection.anchor)
    if decision.drawsIcon, let icon = decision.icon {
      let scale = projection.iconSize * (values.iconPitchWithMap ? mapPerspective : perspective)
      var quads = icon.shape.quads(fitted: icon.fitted)
      if candidate.instance.line != nil, values.iconRotateWithMap {
        // Icons along lines turn with the line (one-way arrows).
        let angle = lineAngle(candidate, keepUpright: values.iconKeepUpright)
        for index in quads.indices { quads[index].rotation += angle }
      }
      // Plain icons facing the screen are read texel for pixel: one whose edge falls exactly
      // between two pixels takes the later pixel, as MapLibre Native's draw does.
      let nudge =
        !icon.shape.image.isSDF && !values.iconPitchWithMap && values.iconTextFit == .none
        ? SIMD2(repeating: SymbolPlacer.halfPixelTieNudge) : .zero
      // An icon fitted around text at a variable anchor moves with the text.
      let shift = renderShift(icon.shift, perspective: perspective, values: values)
      result.icon = quads.map { quad in
        ProjectedQuad(
          corners: corners(
            of: quad, scale: scale, shift: shift, anchor: anchor, offset: candidate.offset,
            pitchWithMap: values.iconPitchWithMap, rotateWithMap: values.iconRotateWithMap,
            translate: values.iconTranslate + nudge),
          texture: quad.texture, section: quad.section)
      }
    }
    guard decision.placeText else { return result }
    switch projection.text {
    case .alongLine(let layout):
      guard let layout else { break }
      result.text = zip(layout.corners, layout.quads).map { corners, quad in
        ProjectedQuad(corners: corners, texture: quad.texture, section: quad.section, textImage: quad.textImage)
      }
    case .point(let options):
      guard let index = decision.option else { break }
      let option = options[index]
      let scale = projection.textScale * (values.textPitchWithMap ? mapPerspective : perspective)
      let shift = renderShift(option.shift, perspective: perspective, values: values)
      result.text = option.label.quads.map { quad in
        ProjectedQuad(
          corners: corners(
            of: quad, scale: scale, shift: shift, anchor: anchor, offset: candidate.offset,
            pitchWithMap: values.textPitchWithMap, rotateWithMap: values.textRotateWithMap,
            translate: values.textTranslate),
          texture: quad.texture, section: quad.section, textImage: quad.textImage)
      }
    case .none:
      break
    }
    return result
  }

  /// One quad's corners placed around the anchor: scaled by `scale` (points per quad unit),
  /// turned by its rotation, then facing the screen or lying on the map (`pitchWithMap`),
  /// turned with the map (`rotateWithMap`) and moved by `translate` (screen points), the
  /// anchor moved by `shift` first. `offset` is the anchor's world offset from the target
  /// (points).
  func corners(
    of quad: SymbolQuad, scale: Double, shift: AnchorShift, anchor: Projected, offset: SIMD2<Double>,
    pitchWithMap: Bool, rotateWithMap: Bool, translate: SIMD2<Double>
  ) -> QuadCorners {
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
      // Translations are screen offsets: moved onto the map with the bearing (a screen
      // shift of the anchor too).
      var screenShift = translate
      var anchorWorld = offset
      switch shift {
      case .screen(let points): screenShift += points
      case .map(let points): anchorWorld += points
      }
      let shiftWorld = SIMD2(
        transform.cosBearing * screenShift.x - transform.sinBearing * screenShift.y,
        transform.sinBearing * screenShift.x + transform.cosBearing * screenShift.y)
      let m = matrix.elements
      corner = { local in
        let dx = anchorWorld.x + cosine * local.x - sine * local.y + shiftWorld.x
        let dy = anchorWorld.y + sine * local.x + cosine * local.y + shiftWorld.y
        return SIMD4(
          m[0] * dx + m[4] * dy + m[12], m[1] * dx + m[5] * dy + m[13], m[2] * dx + m[6] * dy + m[14],
          m[3] * dx + m[7] * dy + m[15])
      }
    } else {
      let angle = rotateWithMap ? mapAngle(anchor, offset: offset) : 0
      let (cosine, sine) = (cos(angle), sin(angle))
      var origin = anchor.screen + translate
      switch shift {
      case .screen(let points): origin += points
      case .map(let points):
        if let moved = project(dx: offset.x + points.x, dy: offset.y + points.y) { origin = moved.screen + translate }
      }
      corner = { local in
        clip(screen: origin + SIMD2(cosine * local.x - sine * local.y, sine * local.x + cosine * local.y))
      }
    }
    return QuadCorners(
      topLeft: corner(points.0), topRight: corner(points.1), bottomLeft: corner(points.2),
      bottomRight: corner(points.3))
  }

  /// The screen angle (radians) of the map's x axis at a point: how `map`-rotated symbols
  /// facing the screen are turned.
  func mapAngle(_ anchor: Projected, offset: SIMD2<Double>) -> Double {
    guard let east = project(dx: offset.x + 1, dy: offset.y) else { return -transform.camera.bearing * .pi / 180 }
    return atan2(east.screen.y - anchor.screen.y, east.screen.x - anchor.screen.x)
  }

  /// The distance-field edge's scale for glyphs lying on the map (they are seen at a slant
  /// and a distance): MapLibre's gamma scale (a ratio; 1 facing the screen).
  func gammaScale(_ anchor: Projected, _ pitchWithMap: Bool) -> Double {
    pitchWithMap ? anchor.depth / (transform.cosTilt * transform.cameraDistance) : 1
  }
}
