import TesseraData
import TesseraGeo
import TesseraJSON
import TesseraNumbers
import TesseraStyle

/// What the features of one tile layer share: the layer (its key and value tables), the
/// tile its coordinates are in and the property promoted to feature id.
final class TileFeatureLayer: Sendable {
  let layer: VectorTileLayer
  /// The tile the features' coordinates are in, when known.
  let tile: TileID?
  /// The property that names a feature instead of its id (`promoteId`), if any.
  let promotedID: String?
  /// Whether labels of these features are shaped with local fonts (see
  /// ``StyleFeature/shapesComplexScripts``).
  let shapesComplexScripts: Bool

  init(layer: VectorTileLayer, tile: TileID? = nil, promotedID: String? = nil, shapesComplexScripts: Bool = true) {
    self.layer = layer
    self.tile = tile
    self.promotedID = promotedID
    self.shapesComplexScripts = shapesComplexScripts
  }
}

/// A vector tile feature as style expressions see it: its layer (shared) and its index there.
/// Three words, so that filters, which take it as `any StyleFeature` for every feature of every
/// layer, neither copy the tile layer's tables nor allocate a box.
struct TileFeature: StyleFeature {
  let shared: TileFeatureLayer
  /// The feature's index in the layer.
  let index: Int
  /// The state the application set for the feature.
  var state: [String: StyleValue] = [:]

  var shapesComplexScripts: Bool { shared.shapesComplexScripts }

  init(_ shared: TileFeatureLayer, index: Int) {
    self.shared = shared
    self.index = index
  }

  /// A feature of `layer` on its own (for tests and one-off evaluations).
  init(layer: VectorTileLayer, feature: VectorFeature, tile: TileID? = nil) {
    var single = layer
    single.features = [feature]
    self.init(TileFeatureLayer(layer: single, tile: tile), index: 0)
  }

  var layer: VectorTileLayer { shared.layer }
  var feature: VectorFeature { shared.layer.features[index] }
  /// The tile the feature's coordinates are in, when known.
  var tile: TileID? { shared.tile }
  /// The property that names the feature instead of its id (`promoteId`), if any.
  var promotedID: String? { shared.promotedID }

  func property(_ key: String) -> StyleValue? {
    shared.layer.value(ofFeatureAt: index, forKey: key).map(TileFeature.styleValue)
  }

  var properties: [String: StyleValue] {
    layer.properties(of: feature).mapValues(TileFeature.styleValue)
  }

  var geometryTypeName: String { shared.layer.features[index].type.styleName }

  var identifier: StyleValue? {
    if let promotedID { return property(promotedID) }
    return shared.layer.features[index].id.map { .number(Double($0)) }
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
    case .json(let json): return StyleValue(json: json)
    }
  }
}
