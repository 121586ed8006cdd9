import TesseraGeo
import TesseraJSON

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
    if let minZoom = number(root["minzoom"]) { metadata.minZoom = Int(minZoom) }
    if let maxZoom = number(root["maxzoom"]) { metadata.maxZoom = Int(maxZoom) }
    if let box = numbers(root["bounds"]), box.count == 4 {
      let bounds = CoordinateBounds(south: box[1], west: box[0], north: box[3], east: box[2])
      if bounds.isValid { metadata.bounds = bounds }
    }
    if let centre = numbers(root["center"]), centre.count >= 2 {
      metadata.center = (Coordinate(latitude: centre[1], longitude: centre[0]), centre.count > 2 ? centre[2] : 0)
    }
    if let encoding = root["encoding"]?.string { metadata.encoding = DEMEncoding(rawValue: encoding) }
    if let size = number(root["tileSize"]) ?? number(root["tilesize"]) { metadata.tileSize = Int(size) }
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
        id: id, fields: fields, minZoom: number(layer["minzoom"]).map(Int.init),
        maxZoom: number(layer["maxzoom"]).map(Int.init))
    }
    return metadata
  }

  /// A number, also from a numeric string (MBTiles stores everything as text).
  static func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .number(let number): return number.isFinite ? number : nil
    case .string(let text): return Double(text.trimmingCharacters(in: " "))
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
      let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: " ")) }
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
