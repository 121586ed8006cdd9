import TesseraImage
import TesseraNumbers
import TesseraStyle

/// A placed symbol's instances (``SymbolInstanceVertex``, packed) and what they ask of the
/// layer's draws.
struct SymbolOutput {
  /// The anchor's y on screen (points), for drawing from the top of the view down.
  let y: Double
  var text: [Float] = []
  var icon: [Float] = []
  var sdf: [Float] = []
  /// Plain images inside the text.
  var textImages: [Float] = []
  /// Colour glyphs (emoji) of the text.
  var colorGlyphs: [Float] = []
  /// Whether the text draws a halo.
  var textHalo = false
  /// Whether an SDF icon draws a halo.
  var sdfIconHalo = false
  /// Whether a plain icon can be drawn texel for pixel (unscaled, untransformed).
  var iconsNearest = true
  /// Whether plain images inside the text are read texel for pixel.
  var textImagesNearest = true
}

extension SymbolPlacer {
  /// The instances of a placed symbol's projected quads: the icon's (plain or SDF) and the
  /// text's, with the colours, opacities and distance-field parameters the symbol's feature
  /// gives them.
  func write(
    _ quads: ProjectedQuads, _ candidate: Candidate, _ projection: SymbolProjection, _ decision: SymbolDecision,
    values: LayerValues
  ) -> SymbolOutput {
    let instance = candidate.instance
    let feature = instance.feature
    let (anchor, perspective) = (projection.anchor, projection.perspective)
    var output = SymbolOutput(y: anchor.screen.y)
    if decision.drawsIcon, let icon = decision.icon?.shape {
      let opacity = values.iconOpacity.value(feature)
      let isSDF = icon.image.isSDF
      let color = isSDF ? values.iconColor.value(feature) : .white
      let halo = values.iconHaloColor.value(feature)
      let haloWidth = values.iconHaloWidth.value(feature)
      let haloBlur = values.iconHaloBlur.value(feature)
      let iconSize = projection.iconSize
      let params = SIMD4(
        Float(iconSize * (values.iconPitchWithMap ? 1 : perspective)), Float(haloWidth), Float(haloBlur),
        Float(gammaScale(anchor, values.iconPitchWithMap)))
      var floats: [Float] = []
      for quad in quads.icon {
        SymbolInstanceVertex(
          corners: quad.corners, texture: quad.texture, fill: color, halo: halo, opacity: opacity, params: params
        ).pack(into: &floats)
      }
      if isSDF {
        output.sdf = floats
        output.sdfIconHalo = halo.alpha > 0 && (haloWidth > 0 || haloBlur > 0)
      } else {
        output.icon = floats
        output.iconsNearest =
          iconSize == 1 && icon.image.pixelRatio == transform.viewport.scale && !values.iconPitchWithMap
          && !values.iconRotateWithMap && transform.camera.viewingAngle == 0 && icon.rotation == 0
      }
    }
    if decision.placeText {
      let color = values.textColor.value(feature)
      let opacity = values.textOpacity.value(feature)
      let halo = values.textHaloColor.value(feature)
      let haloWidth = values.textHaloWidth.value(feature)
      let haloBlur = values.textHaloBlur.value(feature)
      output.textHalo = halo.alpha > 0 && (haloWidth > 0 || haloBlur > 0)
      let params = SIMD4(
        Float(projection.textScale * (values.textPitchWithMap ? 1 : perspective)), Float(haloWidth),
        Float(haloBlur), Float(gammaScale(anchor, values.textPitchWithMap)))
      for quad in quads.text {
        let fill =
          instance.sectionColors.indices.contains(quad.section) ? instance.sectionColors[quad.section] ?? color : color
        let vertex = SymbolInstanceVertex(
          corners: quad.corners, texture: quad.texture,
          fill: quad.textImage == .plain || quad.textImage == .colorGlyph ? .white : fill, halo: halo,
          opacity: opacity, params: params)
        // Images inside the text draw from the icon atlas, with the symbol's icons.
        switch quad.textImage {
        case nil: vertex.pack(into: &output.text)
        case .plain?: vertex.pack(into: &output.textImages)
        case .colorGlyph?: vertex.pack(into: &output.colorGlyphs)
        case .sdf?:
          vertex.pack(into: &output.sdf)
          output.sdfIconHalo = output.sdfIconHalo || output.textHalo
        }
      }
      if !output.textImages.isEmpty { output.textImagesNearest = textImagesNearest(values: values) }
    }
    return output
  }

  /// Whether images inside text can be read texel for pixel, as MapLibre Native reads them:
  /// when the text neither turns with the map nor is seen tilted, and its size does not
  /// change with the zoom.
  func textImagesNearest(values: LayerValues) -> Bool {
    !values.textRotateWithMap && transform.camera.viewingAngle == 0
      && !values.layer[SymbolProperties.textSize].isZoomDependent
  }
}
