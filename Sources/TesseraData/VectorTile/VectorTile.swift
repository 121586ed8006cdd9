import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// A decoded Mapbox Vector Tile: named layers of features in tile coordinates.
package struct VectorTile: Sendable, Equatable {
  package var layers: [VectorTileLayer]
  /// The tile the geometry is in, when known (expressions that test geometry against places,
  /// such as `within`, need it).
  package var tile: TileID?

  package init(layers: [VectorTileLayer]) {
    self.layers = layers
  }

  /// The layer with this name, if any.
  package func layer(named name: String) -> VectorTileLayer? {
    layers.first { $0.name == name }
  }

  /// Approximate memory held, in bytes (for cache budgets).
  package var byteCount: Int {
    layers.reduce(64) { $0 + $1.byteCount }
  }
}

/// A point in tile coordinates: 0…extent across the tile, y down; geometry may reach outside.
package struct TilePoint: Sendable, Equatable, Hashable {
  package var x: Int32
  package var y: Int32

  package init(x: Int32, y: Int32) {
    self.x = x
    self.y = y
  }
}

/// The geometry type of a feature (MVT's `GeomType`).
package enum GeometryType: UInt8, Sendable, Equatable {
  case unknown = 0
  case point = 1
  case lineString = 2
  case polygon = 3

  /// The name MapLibre's `geometry-type` expression returns.
  package var styleName: String {
    switch self {
    case .unknown: return "Unknown"
    case .point: return "Point"
    case .lineString: return "LineString"
    case .polygon: return "Polygon"
    }
  }
}

/// An attribute value of a feature.
package enum FeatureValue: Sendable, Equatable, Hashable, CustomStringConvertible {
  case string(String)
  case number(Double)
  case bool(Bool)
  /// An array or object: GeoJSON properties keep them (vector tiles cannot hold them).
  case json(JSONValue)

  package var description: String {
    switch self {
    case .json(let value): return value.serialized()
    case .string(let text): return text
    case .number(let number):
      return number == number.rounded() && abs(number) < 1e15 ? String(Int64(clamping: number)) : "\(number)"
    case .bool(let flag): return flag ? "true" : "false"
    }
  }
}

/// One layer of a vector tile: its features and the key/value tables their tags index.
package struct VectorTileLayer: Sendable, Equatable {
  package var name: String
  /// Units across the tile (4096 usually).
  package var extent: Int
  /// MVT version (1 or 2).
  package var version: Int
  package var keys: [String]
  package var values: [FeatureValue]
  package var features: [VectorFeature]

  package init(
    name: String, extent: Int = 4096, version: Int = 2, keys: [String] = [], values: [FeatureValue] = [],
    features: [VectorFeature] = []
  ) {
    self.name = name
    self.extent = extent
    self.version = version
    self.keys = keys
    self.values = values
    self.features = features
  }

  /// A feature's attribute `key`, or nil.
  package func value(of feature: VectorFeature, forKey key: String) -> FeatureValue? {
    var index = 0
    while index + 1 < feature.tags.count {
      if keys[Int(feature.tags[index])] == key { return values[Int(feature.tags[index + 1])] }
      index += 2
    }
    return nil
  }

  /// The attribute `key` of the feature at `index`, or nil (reads the feature in place).
  package func value(ofFeatureAt index: Int, forKey key: String) -> FeatureValue? {
    features[index].tags.withUnsafeBufferPointer { tags in
      var position = 0
      while position + 1 < tags.count {
        if keys[Int(tags[position])] == key { return values[Int(tags[position + 1])] }
        position += 2
      }
      return nil
    }
  }

  /// The index in ``values`` of the feature's attribute whose key is ``keys``[`key`], nil when
  /// the feature has none (the first, should a key repeat).
  package func valueIndex(ofFeatureAt index: Int, key: UInt32) -> Int? {
    features[index].tags.withUnsafeBufferPointer { tags in
      var position = 0
      while position + 1 < tags.count {
        if tags[position] == key { return Int(tags[position + 1]) }
        position += 2
      }
      return nil
    }
  }

  /// All attributes of a feature.
  package func properties(of feature: VectorFeature) -> [String: FeatureValue] {
    var result: [String: FeatureValue] = [:]
    var index = 0
    while index + 1 < feature.tags.count {
      result[keys[Int(feature.tags[index])]] = values[Int(feature.tags[index + 1])]
      index += 2
    }
    return result
  }

  /// Approximate memory held, in bytes: element storage plus what every heap array costs
  /// (its header and the allocator's overhead, about 48 bytes), so that a cache's budget
  /// bounds its real size.
  var byteCount: Int {
    let array = 48
    var total = 64 + name.utf8.count + 3 * array
    for key in keys { total += key.utf8.count + 16 + (key.utf8.count > 15 ? array : 0) }
    total += values.count * 32
    total += features.count * MemoryLayout<VectorFeature>.stride
    for feature in features {
      total += 2 * array + feature.tags.count * 4 + feature.geometry.count * (8 + array)
      for part in feature.geometry { total += part.count * 8 }
    }
    return total
  }
}

/// A feature: geometry in tile coordinates and tags (pairs of key and value indexes into its
/// layer's tables).
package struct VectorFeature: Sendable, Equatable {
  package var id: UInt64?
  package var type: GeometryType
  /// Alternating key index, value index.
  package var tags: [UInt32]
  /// Points: one part holding every point. Lines: one part per line. Polygons: rings in order,
  /// each exterior ring (positive area, clockwise in y-down tile space) followed by its holes.
  package var geometry: [[TilePoint]]

  package init(id: UInt64? = nil, type: GeometryType, tags: [UInt32] = [], geometry: [[TilePoint]]) {
    self.id = id
    self.type = type
    self.tags = tags
    self.geometry = geometry
  }
}

extension VectorFeature {
  /// Twice the signed area of a ring (shoelace); positive for exterior rings in MVT's y-down
  /// convention.
  package static func doubledSignedArea(_ ring: [TilePoint]) -> Int64 {
    guard ring.count >= 3 else { return 0 }
    var sum: Int64 = 0
    var previous = ring[ring.count - 1]
    for point in ring {
      sum += Int64(previous.x) * Int64(point.y) - Int64(point.x) * Int64(previous.y)
      previous = point
    }
    return sum
  }

  /// Polygon rings grouped into polygons: each exterior ring with the holes that follow it.
  /// Rings with zero area are dropped unless alone. A leading hole (invalid data) starts its
  /// own polygon.
  package var polygons: [[[TilePoint]]] {
    guard type == .polygon else { return [] }
    return VectorFeature.classifyRings(geometry)
  }

  /// What a fill layer draws of the feature: its polygons, or for lines each line read as a
  /// ring (as MapLibre fills them); nothing for points.
  package var fillPolygons: [[[TilePoint]]] {
    switch type {
    case .polygon: return polygons
    case .lineString: return VectorFeature.classifyRings(geometry)
    default: return []
    }
  }

  /// Rings grouped into polygons by winding: each exterior ring with the holes after it. A
  /// lone ring is a polygon whatever its area, as in MapLibre (so a line filled as a ring
  /// whose loops cancel out still draws).
  static func classifyRings(_ geometry: [[TilePoint]]) -> [[[TilePoint]]] {
    if geometry.count == 1 { return [geometry] }
    var result: [[[TilePoint]]] = []
    for ring in geometry {
      let area = VectorFeature.doubledSignedArea(ring)
      if area == 0 { continue }
      if area > 0 || result.isEmpty {
        result.append([ring])
      } else {
        result[result.count - 1].append(ring)
      }
    }
    return result
  }
}
