import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// A source declared by a style.
package struct StyleSource: Sendable {
  package enum Kind: String, Sendable {
    case vector
    case raster
    case rasterDEM = "raster-dem"
    case geojson
    /// One image on four corners (drawn by raster layers).
    case image
  }

  package let id: String
  package let kind: Kind
  /// A TileJSON or archive reference (`mbtiles://…`, `pmtiles://…`, `http…`, `demo://city`).
  package let url: String?
  /// Tile URL templates, when given inline.
  package let tiles: [String]
  /// Tile size in pixels (512 by default, as in the style specification).
  package let tileSize: Int
  package let minZoom: Int?
  package let maxZoom: Int?
  /// `tms` flips rows.
  package let isTMS: Bool
  /// For raster-dem: `terrarium` or `mapbox` (the default).
  package let encoding: String
  /// For geojson: the inline data, or nil when `data` is a URL.
  package let data: JSONValue?
  /// For geojson: a URL of the data.
  package let dataURL: String?
  package let attribution: String?
  /// For image: the corners the image's top left, top right, bottom right and bottom left
  /// pixels are pinned to.
  package let corners: [Coordinate]
  /// `bounds` [west, south, east, north]: tiles wholly outside are not requested (nil: the
  /// data's own bounds, if any, apply).
  package let bounds: CoordinateBounds?
  /// For geojson: whether line pieces carry where they lie along their whole line (needed by
  /// `line-gradient`).
  package let lineMetrics: Bool
  /// For geojson: room around each tile (`buffer`, pixels of a 512-pixel tile, 0…512) and
  /// simplification (`tolerance`, pixels); nil: MapLibre's 128 and 0.375.
  package var buffer: Int?
  package var tolerance: Double?
  /// For geojson: features get their position in the collection as id (`generateId`).
  package var generateIds = false
  /// For geojson: which features are kept (`filter`, an expression without zoom).
  package var filter: Expression?
  /// The property whose value names a feature instead of its id (`promoteId`), by source
  /// layer; the key "" stands for every layer.
  package var promotedIDs: [String: String] = [:]

  /// The deepest zoom a source may name (tile coordinates stay exact far beyond it).
  package static let maximumZoom = 30

  static func parse(_ cursor: JSONCursor, id: String, warnings: inout [String]) throws(StyleError) -> StyleSource? {
    let path = cursor.path
    func fail(_ message: String) -> StyleError { StyleError(path: path, message: message) }
    do {
      guard let kind = Kind(rawValue: try cursor["type"].string()) else {
        warnings.append(
          "\(path): source type '\(cursor["type"].value?.string ?? "")' is not supported; layers using it are skipped")
        return nil
      }
      let tiles = try cursor["tiles"].isAbsentOrNull ? [] : cursor["tiles"].elements().map { try $0.string() }
      let url = try cursor["url"].optionalString()
      var data: JSONValue?
      var dataURL: String?
      var corners: [Coordinate] = []
      if kind == .image {
        guard url != nil else { throw fail("an image source needs a url") }
        let points = try cursor["coordinates"].elements()
        guard points.count == 4 else {
          throw StyleError(
            path: "\(path).coordinates", message: "expected 4 corners [longitude, latitude], found \(points.count)")
        }
        for point in points {
          let pair = try point.elements()
          guard pair.count == 2 else {
            throw StyleError(path: point.path, message: "expected [longitude, latitude], found \(pair.count) numbers")
          }
          let longitude = try pair[0].number(in: -1e6...1e6)
          let latitude = try pair[1].number(in: -90...90)
          corners.append(Coordinate(latitude: latitude, longitude: longitude))
        }
      } else if kind == .geojson {
        switch cursor["data"].value {
        case .string(let text)?: dataURL = text
        case nil, .null?: break  // Left to the binder: a source that cannot be opened.
        case let value?: data = value
        }
      } else if url == nil && tiles.isEmpty {
        throw fail("a \(kind.rawValue) source needs a url or tiles")
      }
      let tileSize = try cursor["tileSize"].integer(default: 512, in: 16...4096)
      var promotedIDs: [String: String] = [:]
      switch cursor["promoteId"].value {
      case nil, .null?: break
      case .string(let key)?: promotedIDs[""] = key
      case .object?:
        for (layer, value) in try cursor["promoteId"].members() { promotedIDs[layer] = try value.string() }
      default: throw StyleError(path: "\(path).promoteId", message: "expected a property name or {source layer: name}")
      }
      if kind == .geojson, try cursor["cluster"].bool(default: false) {
        warnings.append("\(path).cluster: clustering is not supported; points are drawn one by one")
      }
      var bounds: CoordinateBounds?
      if !cursor["bounds"].isAbsentOrNull {
        let edges = try cursor["bounds"].elements()
        guard edges.count == 4 else {
          throw StyleError(
            path: "\(path).bounds", message: "expected [west, south, east, north], found \(edges.count) numbers")
        }
        let west = try edges[0].number(in: -1e6...1e6)
        let south = try edges[1].number(in: -90...90)
        let east = try edges[2].number(in: -1e6...1e6)
        let north = try edges[3].number(in: -90...90)
        guard south <= north, west <= east else {
          throw StyleError(path: "\(path).bounds", message: "expected west ≤ east and south ≤ north")
        }
        bounds = CoordinateBounds(south: south, west: west, north: north, east: east)
      }
      let zooms = 0.0...Double(StyleSource.maximumZoom)
      return StyleSource(
        id: id, kind: kind, url: url, tiles: tiles, tileSize: tileSize,
        minZoom: try cursor["minzoom"].optionalNumber(in: zooms).map { Int(clamping: $0.rounded(.down)) },
        maxZoom: try cursor["maxzoom"].optionalNumber(in: zooms).map { Int(clamping: $0.rounded(.down)) },
        isTMS: try cursor["scheme"].optionalString() == "tms",
        encoding: try cursor["encoding"].optionalString() ?? "mapbox",
        data: data, dataURL: dataURL, attribution: try cursor["attribution"].optionalString(), corners: corners,
        bounds: bounds, lineMetrics: try cursor["lineMetrics"].bool(default: false),
        buffer: cursor["buffer"].isAbsentOrNull ? nil : try cursor["buffer"].integer(default: 128, in: 0...512),
        tolerance: try cursor["tolerance"].optionalNumber(in: 0...512),
        generateIds: try cursor["generateId"].bool(default: false),
        filter: cursor["filter"].isAbsentOrNull
          ? nil : try Filter.parse(cursor["filter"].value!, path: "\(path).filter"),
        promotedIDs: promotedIDs)
    } catch let error as StyleError {
      throw error
    } catch let error as JSONFieldError {
      throw StyleError(path: error.path, message: "expected \(error.expected), found \(error.found)")
    } catch {
      throw fail("\(error)")
    }
  }
}
