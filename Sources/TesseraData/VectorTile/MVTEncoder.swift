import TesseraJSON
import TesseraNumbers

/// Encodes a ``VectorTile`` as Mapbox Vector Tile protobuf (spec 2.1).
///
/// Numbers are written as doubles unless they are integers (then as sint64); polygon rings are
/// written as given (callers keep MVT's winding) and closed with ClosePath.
package enum MVTEncoder {
  /// The protobuf bytes of `tile` (not compressed).
  package static func encode(_ tile: VectorTile) -> [UInt8] {
    var writer = ProtobufWriter()
    for layer in tile.layers { writer.writeBytesField(3, encodeLayer(layer)) }
    return writer.bytes
  }

  private static func encodeLayer(_ layer: VectorTileLayer) -> [UInt8] {
    var writer = ProtobufWriter()
    writer.writeVarintField(15, UInt64(layer.version))
    writer.writeStringField(1, layer.name)
    for feature in layer.features { writer.writeBytesField(2, encodeFeature(feature)) }
    for key in layer.keys { writer.writeStringField(3, key) }
    for value in layer.values { writer.writeBytesField(4, encodeValue(value)) }
    writer.writeVarintField(5, UInt64(layer.extent))
    return writer.bytes
  }

  private static func encodeValue(_ value: FeatureValue) -> [UInt8] {
    var writer = ProtobufWriter()
    switch value {
    case .string(let text): writer.writeStringField(1, text)
    // Vector tiles hold no arrays or objects: written as their JSON text.
    case .json(let value): writer.writeStringField(1, value.serialized())
    case .bool(let flag): writer.writeVarintField(7, flag ? 1 : 0)
    case .number(let number):
      if number == number.rounded() && abs(number) < 9e15 {
        writer.writeVarintField(6, ProtobufWriter.zigzag(Int64(clamping: number)))
      } else {
        writer.writeFixed64Field(3, number.bitPattern)
      }
    }
    return writer.bytes
  }

  private static func encodeFeature(_ feature: VectorFeature) -> [UInt8] {
    var writer = ProtobufWriter()
    if let id = feature.id { writer.writeVarintField(1, id) }
    if !feature.tags.isEmpty { writer.writePackedVarintsField(2, feature.tags.map(UInt64.init)) }
    writer.writeVarintField(3, UInt64(feature.type.rawValue))
    writer.writePackedVarintsField(4, geometryCommands(feature))
    return writer.bytes
  }

  /// The command stream of a feature's geometry.
  static func geometryCommands(_ feature: VectorFeature) -> [UInt64] {
    var commands: [UInt64] = []
    var cursor = (x: Int64(0), y: Int64(0))
    func moveTo(_ points: ArraySlice<TilePoint>, command: UInt64) {
      commands.append(command | UInt64(points.count) << 3)
      for point in points {
        commands.append(ProtobufWriter.zigzag(Int64(point.x) - cursor.x))
        commands.append(ProtobufWriter.zigzag(Int64(point.y) - cursor.y))
        cursor = (Int64(point.x), Int64(point.y))
      }
    }
    switch feature.type {
    case .point:
      let points = feature.geometry.flatMap { $0 }
      if !points.isEmpty { moveTo(points[...], command: 1) }
    case .lineString, .polygon, .unknown:
      for part in feature.geometry where !part.isEmpty {
        var points = part[...]
        let closes = feature.type == .polygon && part.count > 1 && part.first == part.last
        if closes { points = points.dropLast() }
        moveTo(points.prefix(1), command: 1)
        if points.count > 1 { moveTo(points.dropFirst(), command: 2) }
        if feature.type == .polygon { commands.append(7 | 1 << 3) }
      }
    }
    return commands
  }
}
