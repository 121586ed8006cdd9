import TesseraNumbers
import TesseraStyle

/// The registry of style layer types Tessera draws: one renderer each. A layer of a type not
/// listed here is skipped with a warning.
enum StyleLayerRenderers {
  /// Every renderer, one per layer type.
  static let all: [any StyleLayerRenderer] = [
    BackgroundLayerRenderer(),
    FillLayerRenderer(),
    LineLayerRenderer(),
    CircleLayerRenderer(),
    RasterLayerRenderer(),
    HillshadeLayerRenderer(),
    FillExtrusionLayerRenderer(),
    HeatmapLayerRenderer(),
    SymbolLayerRenderer(),
  ]

  /// The renderer of each drawn layer type.
  static let byType: [LayerType: any StyleLayerRenderer] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.layerType, $0) })

  /// The renderer of `type`, if Tessera draws it.
  static func renderer(for type: LayerType) -> (any StyleLayerRenderer)? { byType[type] }
}
