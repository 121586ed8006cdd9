import TesseraData
import TesseraGeo
import TesseraStyle

/// A vector tile feature as style expressions see it.
struct TileFeature: StyleFeature {
  let layer: VectorTileLayer
  let feature: VectorFeature
  /// The tile the feature's coordinates are in, when known.
  var tile: TileID?
  /// The state the application set for the feature.
  var state: [String: StyleValue] = [:]

  func property(_ key: String) -> StyleValue? {
    layer.value(of: feature, forKey: key).map(TileFeature.styleValue)
  }

  var properties: [String: StyleValue] {
    layer.properties(of: feature).mapValues(TileFeature.styleValue)
  }

  var geometryTypeName: String { feature.type.styleName }

  /// The property that names the feature instead of its id (`promoteId`), if any.
  var promotedID: String?

  var identifier: StyleValue? {
    if let promotedID { return property(promotedID) }
    return feature.id.map { .number(Double($0)) }
  }

  var worldGeometry: [[WorldPoint]]? {
    guard let tile, layer.extent > 0 else { return nil }
    let scale = 1 / (Double(tile.tilesPerSide) * Double(layer.extent))
    let (x, y) = (Double(tile.x) * Double(layer.extent), Double(tile.y) * Double(layer.extent))
    return feature.geometry.map { part in
      part.map { WorldPoint(x: (x + Double($0.x)) * scale, y: (y + Double($0.y)) * scale) }
    }
  }

  static func styleValue(_ value: FeatureValue) -> StyleValue {
    switch value {
    case .string(let text): return .string(text)
    case .number(let number): return .number(number)
    case .bool(let flag): return .bool(flag)
    }
  }
}
