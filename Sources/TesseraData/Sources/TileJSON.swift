import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// Reading TileJSON-style metadata (TileJSON 3.0 fields, as MBTiles and PMTiles store them).
enum TileJSON {
  /// Metadata from a TileJSON-like object; `format` is used when the object names none.
  static func metadata(from object: JSONObject, format fallback: TileFormat) -> TileSourceMetadata {
    let root = JSONValue.object(object)
    var format = fallback
    if let name = root["format"]?.string { format = TileFormat(name: name) }
    var metadata = TileSourceMetadata(format: format)
    metadata.raw = object
    metadata.name = root["name"]?.string
    metadata.description = root["description"]?.string
    metadata.attribution = root["attribution"]?.string
    if let minZoom = zoom(root["minzoom"], "minzoom", &metadata) { metadata.minZoom = minZoom }
    if let maxZoom = zoom(root["maxzoom"], "maxzoom", &metadata) { metadata.maxZoom = maxZoom }
    if metadata.minZoom > metadata.maxZoom {
      metadata.problems.append(
        "minzoom \(metadata.minZoom) is above maxzoom \(metadata.maxZoom); maxzoom used for both")
      metadata.minZoom = metadata.maxZoom
    }
    if let box = numbers(root["bounds"]), box.count == 4 {
      let bounds = CoordinateBounds(south: box[1], west: box[0], north: box[3], east: box[2])
      if bounds.isValid { metadata.bounds = bounds }
    }
    if let centre = numbers(root["center"]), centre.count >= 2 {
      metadata.center = (Coordinate(latitude: centre[1], longitude: centre[0]), centre.count > 2 ? centre[2] : 0)
    }
    if let encoding = root["encoding"]?.string { metadata.encoding = DEMEncoding(rawValue: encoding) }
    if let size = number(root["tileSize"]) ?? number(root["tilesize"]) {
      if size >= 16, size <= 4096, size == size.rounded() {
        metadata.tileSize = Int(clamping: size)
      } else {
        metadata.problems.append("tileSize \(JSONValue.format(size)) is not a whole number in 16…4096; ignored")
      }
    }
    var layers = root["vector_layers"]
    // MBTiles keeps vector_layers inside a JSON string under "json".
    if layers == nil, let text = root["json"]?.string, let parsed = try? JSONParser.parse(text) {
      layers = parsed["vector_layers"]
    }
    if case .string(let text) = layers, let parsed = try? JSONParser.parse(text) { layers = parsed }
    metadata.vectorLayers = (layers?.array ?? []).compactMap { layer in
      guard let id = layer["id"]?.string else { return nil }
      var fields: [String: String] = [:]
      for (key, value) in layer["fields"]?.object?.pairs ?? [] { fields[key] = value.string ?? value.serialized() }
      return VectorLayerInfo(
        id: id, fields: fields, minZoom: zoom(layer["minzoom"], "vector_layers.minzoom", &metadata),
        maxZoom: zoom(layer["maxzoom"], "vector_layers.maxzoom", &metadata))
    }
    return metadata
  }

  /// The deepest zoom metadata may name.
  static let maximumZoom = 30

  /// A zoom level: a number in 0…``maximumZoom`` (fractions dropped); others are recorded as
  /// problems of `metadata` and ignored.
  static func zoom(_ value: JSONValue?, _ field: String, _ metadata: inout TileSourceMetadata) -> Int? {
    guard let value, value != .null else { return nil }
    guard let number = number(value), number >= 0, number <= Double(maximumZoom) else {
      metadata.problems.append(
        "\(field) \(value.serialized()) is not a zoom level in 0…\(maximumZoom); ignored")
      return nil
    }
    return Int(clamping: number.rounded(.down))
  }

  /// A number, also from a numeric string (MBTiles stores everything as text).
  static func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .number(let number): return number.isFinite ? number : nil
    case .string(let text): return Double(text.trimmingCharacters(in: " ")).flatMap { $0.isFinite ? $0 : nil }
    default: return nil
    }
  }

  /// Numbers from an array or a comma-separated string.
  static func numbers(_ value: JSONValue?) -> [Double]? {
    switch value {
    case .array(let elements):
      let numbers = elements.compactMap { number($0) }
      return numbers.count == elements.count ? numbers : nil
    case .string(let text):
      let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: " ")) }.filter(\.isFinite)
      return numbers.isEmpty ? nil : numbers
    default: return nil
    }
  }
}

extension StringProtocol {
  func trimmingCharacters(in set: String) -> String {
    var slice = Substring(self)
    while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}

extension TileSourceMetadata {
  /// Metadata read from a TileJSON object (or MBTiles' metadata rows as one object): values out
  /// of range are left at their defaults and named in ``problems``.
  package init(tileJSON object: JSONObject, format: TileFormat = .unknown) {
    self = TileJSON.metadata(from: object, format: format)
  }
}
