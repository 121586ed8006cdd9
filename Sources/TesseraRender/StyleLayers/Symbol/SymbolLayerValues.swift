import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle

extension SymbolPlacer {
  /// The layer's values that do not depend on the feature.
  struct LayerValues {
    let layer: StyleLayer
    let zoom: Double
    let textPitchWithMap: Bool
    let textRotateWithMap: Bool
    /// `text-keep-upright`, `icon-keep-upright`: labels along lines turned to read left to right.
    let keepUpright: Bool
    let iconKeepUpright: Bool
    let iconPitchWithMap: Bool
    let iconRotateWithMap: Bool
    let textAllowOverlap: Bool
    let textIgnorePlacement: Bool
    let textOptional: Bool
    let iconAllowOverlap: Bool
    let iconIgnorePlacement: Bool
    let iconOptional: Bool
    var avoidEdges: Bool
    let textPadding: Double
    let hasSortKey: Bool
    /// Whether symbols are drawn from the top of the view down (`symbol-z-order`
    /// `viewport-y`, or `auto` where labels may overlap and no sort key orders them).
    let sortsByViewportY: Bool
    /// Whether symbols are placed from the bottom of the view up: only with `symbol-z-order`
    /// `viewport-y` (MapLibre places `auto` in the order of the features).
    let placesByViewportY: Bool
    let textTranslate: SIMD2<Double>
    let iconTranslate: SIMD2<Double>
    let iconTextFit: IconTextFit
    let iconTextFitPadding: [Double]
    // Per-symbol properties, evaluated once when they do not depend on the feature.
    let textSize: LayerValue<Double>
    let textColor: LayerValue<Color>
    let textOpacity: LayerValue<Double>
    let textHaloColor: LayerValue<Color>
    let textHaloWidth: LayerValue<Double>
    let textHaloBlur: LayerValue<Double>
    let iconSize: LayerValue<Double>
    let iconPadding: LayerValue<[Double]>
    let iconColor: LayerValue<Color>
    let iconOpacity: LayerValue<Double>
    let iconHaloColor: LayerValue<Color>
    let iconHaloWidth: LayerValue<Double>
    let iconHaloBlur: LayerValue<Double>

    init(layer: StyleLayer, zoom: Double, transform: CameraTransform) {
      self.layer = layer
      self.zoom = zoom
      // `auto` turns symbols along lines with the map, others with the viewport.
      let alongLines = layer.value(SymbolProperties.placement, zoom: zoom) != .point
      let textRotation = layer.value(SymbolProperties.textRotationAlignment, zoom: zoom)
      textRotateWithMap = textRotation == .map || (textRotation == .auto && alongLines)
      keepUpright = layer.value(SymbolProperties.textKeepUpright, zoom: zoom)
      iconKeepUpright = layer.value(SymbolProperties.iconKeepUpright, zoom: zoom)
      let textPitch = layer.value(SymbolProperties.textPitchAlignment, zoom: zoom)
      textPitchWithMap = textPitch == .auto ? textRotateWithMap : textPitch == .map
      let iconRotation = layer.value(SymbolProperties.iconRotationAlignment, zoom: zoom)
      iconRotateWithMap = iconRotation == .map || (iconRotation == .auto && alongLines)
      let iconPitch = layer.value(SymbolProperties.iconPitchAlignment, zoom: zoom)
      iconPitchWithMap = iconPitch == .auto ? iconRotateWithMap : iconPitch == .map
      textAllowOverlap = layer.value(SymbolProperties.textAllowOverlap, zoom: zoom)
      textIgnorePlacement = layer.value(SymbolProperties.textIgnorePlacement, zoom: zoom)
      textOptional = layer.value(SymbolProperties.textOptional, zoom: zoom)
      iconAllowOverlap = layer.value(SymbolProperties.iconAllowOverlap, zoom: zoom)
      iconIgnorePlacement = layer.value(SymbolProperties.iconIgnorePlacement, zoom: zoom)
      iconOptional = layer.value(SymbolProperties.iconOptional, zoom: zoom)
      avoidEdges = layer.value(SymbolProperties.avoidEdges, zoom: zoom)
      textPadding = layer.value(SymbolProperties.textPadding, zoom: zoom)
      hasSortKey = layer[SymbolProperties.sortKey].expression.constantValue != .null
      let zOrder = layer.value(SymbolProperties.zOrder, zoom: zoom)
      placesByViewportY = zOrder == .viewportY
      sortsByViewportY =
        zOrder == .viewportY
        || (zOrder == .auto && !hasSortKey
          && (textAllowOverlap || iconAllowOverlap || textIgnorePlacement || iconIgnorePlacement))
      func translation(_ property: StyleProperty<[Double]>, _ anchor: StyleProperty<ReferenceFrame>) -> SIMD2<Double> {
        let numbers = layer.value(property, zoom: zoom)
        var offset = SIMD2(numbers.first ?? 0, numbers.count > 1 ? numbers[1] : 0)
        if layer.value(anchor, zoom: zoom) == .map {
          // Turned with the map: a world offset shown rotated on screen.
          offset = SIMD2(
            transform.cosBearing * offset.x + transform.sinBearing * offset.y,
            -transform.sinBearing * offset.x + transform.cosBearing * offset.y)
        }
        return offset
      }
      textTranslate = translation(SymbolProperties.textTranslate, SymbolProperties.textTranslateAnchor)
      iconTranslate = translation(SymbolProperties.iconTranslate, SymbolProperties.iconTranslateAnchor)
      iconTextFit = layer.value(SymbolProperties.iconTextFit, zoom: zoom)
      iconTextFitPadding = layer.value(SymbolProperties.iconTextFitPadding, zoom: zoom)
      textSize = LayerValue(SymbolProperties.textSize, layer: layer, zoom: zoom)
      textColor = LayerValue(SymbolProperties.textColor, layer: layer, zoom: zoom)
      textOpacity = LayerValue(SymbolProperties.textOpacity, layer: layer, zoom: zoom)
      textHaloColor = LayerValue(SymbolProperties.textHaloColor, layer: layer, zoom: zoom)
      textHaloWidth = LayerValue(SymbolProperties.textHaloWidth, layer: layer, zoom: zoom)
      textHaloBlur = LayerValue(SymbolProperties.textHaloBlur, layer: layer, zoom: zoom)
      iconSize = LayerValue(SymbolProperties.iconSize, layer: layer, zoom: zoom)
      iconPadding = LayerValue(SymbolProperties.iconPadding, layer: layer, zoom: zoom)
      iconColor = LayerValue(SymbolProperties.iconColor, layer: layer, zoom: zoom)
      iconOpacity = LayerValue(SymbolProperties.iconOpacity, layer: layer, zoom: zoom)
      iconHaloColor = LayerValue(SymbolProperties.iconHaloColor, layer: layer, zoom: zoom)
      iconHaloWidth = LayerValue(SymbolProperties.iconHaloWidth, layer: layer, zoom: zoom)
      iconHaloBlur = LayerValue(SymbolProperties.iconHaloBlur, layer: layer, zoom: zoom)
    }
  }
}

/// A property of a layer at one zoom: evaluated once when it does not depend on the feature,
/// else per feature.
struct LayerValue<Value: StylePropertyValue> {
  let property: StyleProperty<Value>
  let layer: StyleLayer
  let zoom: Double
  /// The value, when it is the same for every feature.
  let constant: Value?

  init(_ property: StyleProperty<Value>, layer: StyleLayer, zoom: Double) {
    self.property = property
    self.layer = layer
    self.zoom = zoom
    constant = layer[property].isDataDriven ? nil : layer.value(property, zoom: zoom)
  }

  func value(_ feature: TileFeature) -> Value {
    constant ?? layer.value(property, zoom: zoom, feature: feature)
  }
}
