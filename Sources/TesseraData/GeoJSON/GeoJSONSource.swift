import Foundation
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// A GeoJSON source cut into vector tiles on request, as MapLibre's geojson-vt setup does:
/// extent 8192, a buffer of 128 pixels of a 512-pixel tile, Douglas–Peucker simplification
/// with a tolerance of 0.375 pixels (both settable, see ``GeoJSONOptions``). Features land in one layer, `_geojsonTileLayer`. With
/// `lineMetrics` each piece of a line cut by a tile is a feature of its own that says where it
/// lies along the whole line (`mapbox_clip_start`, `mapbox_clip_end`: fractions of its length),
/// as geojson-vt marks them for `line-gradient`.
/// What a style says about a GeoJSON source beyond its data (MapLibre's source options).
package struct GeoJSONOptions: Sendable {
  /// The deepest zoom tiles are cut at (deeper ones are overzoomed).
  package var maxZoom = 18
  /// Room kept around each tile, pixels of a 512-pixel tile (0…512).
  package var buffer = 128
  /// Simplification tolerance, pixels (0 keeps every vertex).
  package var tolerance = 0.375
  /// Whether line pieces carry where they lie along their whole line.
  package var lineMetrics = false
  /// Whether features get their position in the collection as id (their own ids ignored).
  package var generateIds = false
  /// Which features are kept (`filter`), if not all.
  package var filter: (@Sendable (GeoJSONFeatureInfo) -> Bool)?

  package init() {}
}

/// A GeoJSON feature as a source filter sees it.
package struct GeoJSONFeatureInfo: Sendable {
  package let type: GeometryType
  package let properties: [(String, FeatureValue)]
  package let id: UInt64?
}

package final class GeoJSONSource: TileSource {
  package let name: String
  /// The name and a fingerprint of the data and options: two styles' sources of one name but
  /// other data never share cached tiles.
  package let cacheIdentity: String
  package let metadata: TileSourceMetadata
  let features: GeoJSONFeatures
  /// The layer name MapLibre gives GeoJSON features.
  package static let layerName = "_geojsonTileLayer"
  static let extent = 8192
  /// Room kept around each tile and simplification tolerance, pixels of a 512-pixel tile.
  let bufferPixels: Double
  let tolerancePixels: Double
  /// Whether line pieces carry where they lie along their whole line.
  package let lineMetrics: Bool
  /// The attributes of a line piece's start and end along its line (0…1).
  package static let clipStartKey = "mapbox_clip_start"
  package static let clipEndKey = "mapbox_clip_end"

  /// A source over parsed GeoJSON; `maxZoom` as the style source's `maxzoom` (default 18).
  package convenience init(data: JSONValue, name: String, maxZoom: Int = 18, lineMetrics: Bool = false)
    throws(TileSourceError)
  {
    var options = GeoJSONOptions()
    options.maxZoom = maxZoom
    options.lineMetrics = lineMetrics
    try self.init(data: data, name: name, options: options)
  }

  /// A source over parsed GeoJSON with a style's source options.
  package init(data: JSONValue, name: String, options: GeoJSONOptions, identity: String? = nil) throws(TileSourceError)
  {
    self.name = name
    cacheIdentity = identity ?? name
    lineMetrics = options.lineMetrics
    bufferPixels = Double(min(max(options.buffer, 0), 512))
    tolerancePixels = options.tolerance.isFinite ? min(max(options.tolerance, 0), 512) : 0.375
    var features = try GeoJSONFeatures(data, source: name, generateIds: options.generateIds)
    if let filter = options.filter {
      features.features.removeAll { !filter(GeoJSONFeatureInfo(type: $0.type, properties: $0.properties, id: $0.id)) }
    }
    self.features = features
    var metadata = TileSourceMetadata(format: .mvt, minZoom: 0, maxZoom: options.maxZoom)
    metadata.problems = features.problems
    self.metadata = metadata
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    .decoded(.vector(makeTile(tile)))
  }

  /// The features of `tile`, clipped, simplified and in tile coordinates.
  package func makeTile(_ tile: TileID) -> VectorTile {
    let scale = Double(1 << tile.z)
    let extent = Double(GeoJSONSource.extent)
    let buffer = bufferPixels / 512
    let minX = (Double(tile.x) - buffer) / scale
    let maxX = (Double(tile.x) + 1 + buffer) / scale
    let minY = (Double(tile.y) - buffer) / scale
    let maxY = (Double(tile.y) + 1 + buffer) / scale
    let tolerance = tolerancePixels / 512 / scale
    let margin = Int64(clamping: bufferPixels / 512 * extent)
    let box = ClipBox(
      minX: -margin, minY: -margin, maxX: Int64(clamping: extent) + margin, maxY: Int64(clamping: extent) + margin)
    var builder = VectorTileLayerBuilder(name: GeoJSONSource.layerName, extent: GeoJSONSource.extent)
    func toTile(_ point: (Double, Double)) -> (Int64, Int64) {
      (
        Int64(clamping: ((point.0 * scale - Double(tile.x)) * extent).rounded()),
        Int64(clamping: ((point.1 * scale - Double(tile.y)) * extent).rounded())
      )
    }
    for feature in features.features {
      let bounds = feature.bounds
      guard bounds.2 >= minX, bounds.0 <= maxX, bounds.3 >= minY, bounds.1 <= maxY else { continue }
      var geometry: [[TilePoint]] = []
      switch feature.type {
      case .point:
        let points = feature.parts[0].map(toTile).filter(box.contains)
        if !points.isEmpty { geometry = [points.map { TilePoint(x: Int32(clamping: $0.0), y: Int32(clamping: $0.1)) }] }
      case .lineString where lineMetrics:
        for part in feature.parts {
          let line = GeoJSONSource.simplify(part, tolerance: tolerance).map(toTile)
          var length = 0.0
          for index in line.indices.dropFirst() {
            let (dx, dy) = (Double(line[index].0 - line[index - 1].0), Double(line[index].1 - line[index - 1].1))
            length += (dx * dx + dy * dy).squareRoot()
          }
          for piece in box.clipLineMeasured(line) where piece.points.count >= 2 {
            let measures: [(String, FeatureValue)] = [
              (GeoJSONSource.clipStartKey, .number(length > 0 ? piece.start / length : 0)),
              (GeoJSONSource.clipEndKey, .number(length > 0 ? piece.end / length : 1)),
            ]
            builder.add(
              type: .lineString,
              geometry: [piece.points.map { TilePoint(x: Int32(clamping: $0.0), y: Int32(clamping: $0.1)) }],
              attributes: feature.properties + measures, id: feature.id)
          }
        }
      case .lineString:
        for part in feature.parts {
          let simplified = GeoJSONSource.simplify(part, tolerance: tolerance)
          for piece in box.clipLine(simplified.map(toTile)) where piece.count >= 2 {
            geometry.append(piece.map { TilePoint(x: Int32(clamping: $0.0), y: Int32(clamping: $0.1)) })
          }
        }
      case .polygon, .unknown:
        for ring in feature.parts {
          let simplified = GeoJSONSource.simplify(ring, tolerance: tolerance)
          let clipped = box.clipRing(simplified.map(toTile))
          guard clipped.count >= 4 else { continue }
          let points = clipped.map { TilePoint(x: Int32(clamping: $0.0), y: Int32(clamping: $0.1)) }
          if VectorFeature.doubledSignedArea(points) != 0 { geometry.append(points) }
        }
      }
      guard !geometry.isEmpty else { continue }
      builder.add(type: feature.type, geometry: geometry, attributes: feature.properties, id: feature.id)
    }
    return VectorTile(layers: builder.isEmpty ? [] : [builder.build()])
  }

  /// Douglas–Peucker simplification keeping the end points.
  static func simplify(_ points: [(Double, Double)], tolerance: Double) -> [(Double, Double)] {
    guard points.count > 2, tolerance > 0 else { return points }
    var keep = [Bool](repeating: false, count: points.count)
    keep[0] = true
    keep[points.count - 1] = true
    var stack = [(0, points.count - 1)]
    let squared = tolerance * tolerance
    while let (first, last) = stack.popLast() {
      guard last > first + 1 else { continue }
      var farthest = first
      var maxDistance = 0.0
      for index in (first + 1)..<last {
        let distance = squaredSegmentDistance(points[index], points[first], points[last])
        if distance > maxDistance {
          maxDistance = distance
          farthest = index
        }
      }
      if maxDistance > squared {
        keep[farthest] = true
        stack.append((first, farthest))
        stack.append((farthest, last))
      }
    }
    return zip(points, keep).filter(\.1).map(\.0)
  }

  static func squaredSegmentDistance(_ p: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
    var x = a.0
    var y = a.1
    let dx = b.0 - x
    let dy = b.1 - y
    if dx != 0 || dy != 0 {
      let t = ((p.0 - x) * dx + (p.1 - y) * dy) / (dx * dx + dy * dy)
      if t > 1 {
        x = b.0
        y = b.1
      } else if t > 0 {
        x += dx * t
        y += dy * t
      }
    }
    return (p.0 - x) * (p.0 - x) + (p.1 - y) * (p.1 - y)
  }
}
