import TesseraNumbers

/// Builds a ``VectorTileLayer`` feature by feature, sharing its key and value tables.
package struct VectorTileLayerBuilder {
  package let name: String
  package let extent: Int
  private var keys: [String] = []
  private var keyIndex: [String: UInt32] = [:]
  private var values: [FeatureValue] = []
  private var valueIndex: [FeatureValue: UInt32] = [:]
  private var features: [VectorFeature] = []

  package init(name: String, extent: Int = 4096) {
    self.name = name
    self.extent = extent
  }

  /// Whether no feature was added.
  package var isEmpty: Bool { features.isEmpty }

  /// Adds a feature with its attributes (keys in the given order).
  package mutating func add(
    type: GeometryType, geometry: [[TilePoint]], properties: KeyValuePairs<String, FeatureValue>, id: UInt64? = nil
  ) {
    add(type: type, geometry: geometry, attributes: properties.map { ($0.key, $0.value) }, id: id)
  }

  /// Adds a feature with attributes as a list of pairs.
  package mutating func add(
    type: GeometryType, geometry: [[TilePoint]], attributes: [(String, FeatureValue)], id: UInt64? = nil
  ) {
    var tags: [UInt32] = []
    tags.reserveCapacity(attributes.count * 2)
    for (key, value) in attributes {
      tags.append(index(ofKey: key))
      tags.append(index(ofValue: value))
    }
    features.append(VectorFeature(id: id, type: type, tags: tags, geometry: geometry))
  }

  /// The finished layer.
  package func build() -> VectorTileLayer {
    VectorTileLayer(name: name, extent: extent, version: 2, keys: keys, values: values, features: features)
  }

  private mutating func index(ofKey key: String) -> UInt32 {
    if let index = keyIndex[key] { return index }
    let index = UInt32(keys.count)
    keys.append(key)
    keyIndex[key] = index
    return index
  }

  private mutating func index(ofValue value: FeatureValue) -> UInt32 {
    if let index = valueIndex[value] { return index }
    let index = UInt32(values.count)
    values.append(value)
    valueIndex[value] = index
    return index
  }
}
