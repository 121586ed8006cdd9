import TesseraData
import TesseraStyle

/// A vector tile feature as style expressions see it.
struct TileFeature: StyleFeature {
  let layer: VectorTileLayer
  let feature: VectorFeature

  func property(_ key: String) -> StyleValue? {
    layer.value(of: feature, forKey: key).map(TileFeature.styleValue)
  }

  var properties: [String: StyleValue] {
    layer.properties(of: feature).mapValues(TileFeature.styleValue)
  }

  var geometryTypeName: String { feature.type.styleName }

  var identifier: StyleValue? { feature.id.map { .number(Double($0)) } }

  static func styleValue(_ value: FeatureValue) -> StyleValue {
    switch value {
    case .string(let text): return .string(text)
    case .number(let number): return .number(number)
    case .bool(let flag): return .bool(flag)
    }
  }
}
