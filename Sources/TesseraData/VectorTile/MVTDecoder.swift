import TesseraNumbers

/// Decodes Mapbox Vector Tile protobuf (spec 2.1) from raw or gzip-compressed bytes.
///
/// Strict about structure, lenient about content: malformed protobuf, geometry commands that run
/// past the buffer, coordinates beyond ±2^30, tags out of range, zero or absurd extents are
/// errors (``TileDecodeError``); unknown fields are skipped.
package enum MVTDecoder {
  /// The largest layer extent accepted (units across a tile).
  package static let maxExtent = 1 << 20
  /// Coordinates beyond this magnitude are rejected.
  static let coordinateLimit: Int64 = 1 << 30

  /// Decodes a tile; gzip or zlib input is inflated first (bounded by `inflateLimit`).
  package static func decode(_ bytes: [UInt8], inflateLimit: Int = Gzip.defaultLimit) throws(TileDecodeError)
    -> VectorTile
  {
    var raw = bytes
    if Gzip.isGzip(bytes) || Gzip.isZlib(bytes) {
      do {
        raw = try Gzip.inflate(bytes, limit: inflateLimit)
      } catch {
        throw TileDecodeError(reason: "\(error)")
      }
    }
    let result = raw.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Result<VectorTile, TileDecodeError> in
      do {
        return .success(try decodeTile(buffer))
      } catch let error as TileDecodeError {
        return .failure(error)
      } catch let error as ProtobufError {
        return .failure(TileDecodeError(reason: "invalid protobuf at byte \(error.offset): \(error.reason)"))
      } catch {
        return .failure(TileDecodeError(reason: "\(error)"))
      }
    }
    return try result.get()
  }

  private static func decodeTile(_ buffer: UnsafeRawBufferPointer) throws -> VectorTile {
    var reader = ProtobufReader(buffer)
    var layers: [VectorTileLayer] = []
    while !reader.isAtEnd {
      let (field, wireType) = try reader.readKey()
      if field == 3 && wireType == .lengthDelimited {
        layers.append(try decodeLayer(buffer, range: try reader.readLengthDelimited()))
      } else {
        try reader.skip(wireType)
      }
    }
    return VectorTile(layers: layers)
  }

  private static func decodeLayer(_ buffer: UnsafeRawBufferPointer, range: Range<Int>) throws -> VectorTileLayer {
    var reader = ProtobufReader(buffer, range: range)
    var name: String?
    var extent = 4096
    var version = 1
    var keys: [String] = []
    var values: [FeatureValue] = []
    var featureRanges: [Range<Int>] = []
    while !reader.isAtEnd {
      let (field, wireType) = try reader.readKey()
      switch (field, wireType) {
      case (1, .lengthDelimited): name = try reader.readString()
      case (2, .lengthDelimited): featureRanges.append(try reader.readLengthDelimited())
      case (3, .lengthDelimited): keys.append(try reader.readString())
      case (4, .lengthDelimited): values.append(try decodeValue(buffer, range: try reader.readLengthDelimited()))
      case (5, .varint): extent = Int(clamping: try reader.readVarint())
      case (15, .varint): version = Int(clamping: try reader.readVarint())
      default: try reader.skip(wireType)
      }
    }
    guard let name else { throw TileDecodeError(reason: "a layer has no name") }
    guard extent > 0 && extent <= maxExtent else {
      throw TileDecodeError(reason: "layer '\(name)' has extent \(extent), expected 1...\(maxExtent)")
    }
    guard version == 1 || version == 2 else {
      throw TileDecodeError(reason: "layer '\(name)' has MVT version \(version), expected 1 or 2")
    }
    var features: [VectorFeature] = []
    features.reserveCapacity(featureRanges.count)
    for featureRange in featureRanges {
      features.append(
        try decodeFeature(buffer, range: featureRange, keyCount: keys.count, valueCount: values.count, layer: name))
    }
    return VectorTileLayer(name: name, extent: extent, version: version, keys: keys, values: values, features: features)
  }

  private static func decodeValue(_ buffer: UnsafeRawBufferPointer, range: Range<Int>) throws -> FeatureValue {
    var reader = ProtobufReader(buffer, range: range)
    var value: FeatureValue?
    while !reader.isAtEnd {
      let (field, wireType) = try reader.readKey()
      switch (field, wireType) {
      case (1, .lengthDelimited): value = .string(try reader.readString())
      case (2, .fixed32): value = .number(Double(Float(bitPattern: try reader.readFixed32())))
      case (3, .fixed64): value = .number(Double(bitPattern: try reader.readFixed64()))
      case (4, .varint): value = .number(Double(Int64(bitPattern: try reader.readVarint())))
      case (5, .varint): value = .number(Double(try reader.readVarint()))
      case (6, .varint): value = .number(Double(try reader.readSignedVarint()))
      case (7, .varint): value = .bool(try reader.readVarint() != 0)
      default: try reader.skip(wireType)
      }
    }
    guard let value else { throw TileDecodeError(reason: "a value has no content") }
    return value
  }

  private static func decodeFeature(
    _ buffer: UnsafeRawBufferPointer, range: Range<Int>, keyCount: Int, valueCount: Int, layer: String
  ) throws -> VectorFeature {
    var reader = ProtobufReader(buffer, range: range)
    var id: UInt64?
    var type = GeometryType.unknown
    var tags: [UInt32] = []
    var geometryRange: Range<Int>?
    var geometryWireType = ProtobufReader.WireType.lengthDelimited
    while !reader.isAtEnd {
      let (field, wireType) = try reader.readKey()
      switch (field, wireType) {
      case (1, .varint): id = try reader.readVarint()
      case (2, _):
        try reader.readPackedVarints(wireType) { (value: UInt64) throws(ProtobufError) in
          tags.append(UInt32(truncatingIfNeeded: value))
        }
      case (3, .varint): type = GeometryType(rawValue: UInt8(truncatingIfNeeded: try reader.readVarint())) ?? .unknown
      case (4, .lengthDelimited):
        geometryRange = try reader.readLengthDelimited()
        geometryWireType = wireType
      default: try reader.skip(wireType)
      }
    }
    guard tags.count % 2 == 0 else {
      throw TileDecodeError(reason: "layer '\(layer)': a feature has an odd number of tags")
    }
    for index in stride(from: 0, to: tags.count, by: 2)
    where Int(tags[index]) >= keyCount || Int(tags[index + 1]) >= valueCount {
      throw TileDecodeError(reason: "layer '\(layer)': a feature's tag refers past the key or value table")
    }
    var geometry: [[TilePoint]] = []
    if let geometryRange, geometryWireType == .lengthDelimited {
      geometry = try decodeGeometry(buffer, range: geometryRange, type: type, layer: layer)
    }
    return VectorFeature(id: id, type: type, tags: tags, geometry: geometry)
  }

  /// Runs the geometry command stream: MoveTo (1), LineTo (2), ClosePath (7).
  private static func decodeGeometry(
    _ buffer: UnsafeRawBufferPointer, range: Range<Int>, type: GeometryType, layer: String
  ) throws -> [[TilePoint]] {
    var reader = ProtobufReader(buffer, range: range)
    var parts: [[TilePoint]] = []
    var current: [TilePoint] = []
    var x: Int64 = 0
    var y: Int64 = 0
    func fail(_ reason: String) -> TileDecodeError {
      TileDecodeError(reason: "layer '\(layer)': geometry \(reason)")
    }
    while !reader.isAtEnd {
      let command = try reader.readVarint()
      let id = command & 7
      let count = command >> 3
      switch id {
      case 1, 2:
        // Each point takes at least two bytes: the count cannot exceed what is left.
        guard count <= UInt64(range.upperBound - reader.offset) / 2 else {
          throw fail("command count \(count) runs past the geometry buffer")
        }
        if id == 1 {
          if type != .point && !current.isEmpty { parts.append(current) }
          if type != .point { current = [] }
        } else if current.isEmpty {
          throw fail("LineTo without a MoveTo")
        }
        // Room for the points and a closing one, growing geometrically (an exact reservation
        // per command would copy the part again for every command of a many-command part).
        let needed = current.count + Int(count) + 1
        if current.capacity < needed { current.reserveCapacity(max(needed, 2 * current.capacity)) }
        for _ in 0..<count {
          let dx = try reader.readSignedVarint()
          let dy = try reader.readSignedVarint()
          // Deltas may be anything up to ±2^63: compare magnitudes before adding.
          guard dx.magnitude <= UInt64(2 * coordinateLimit), dy.magnitude <= UInt64(2 * coordinateLimit) else {
            throw fail("coordinate delta (\(dx), \(dy)) out of range")
          }
          x += dx
          y += dy
          guard x.magnitude <= UInt64(coordinateLimit) && y.magnitude <= UInt64(coordinateLimit) else {
            throw fail("coordinate (\(x), \(y)) out of range")
          }
          current.append(TilePoint(x: Int32(x), y: Int32(y)))
        }
      case 7:
        guard count == 1 else { throw fail("ClosePath with count \(count)") }
        guard !current.isEmpty else { throw fail("ClosePath without a ring") }
        if let first = current.first, current.last != first { current.append(first) }
      default:
        throw fail("unknown command \(id)")
      }
    }
    if !current.isEmpty { parts.append(current) }
    return parts
  }
}

/// Tile bytes that cannot be decoded.
package struct TileDecodeError: Error, Equatable, CustomStringConvertible {
  package let reason: String

  package init(reason: String) {
    self.reason = reason
  }

  package var description: String { reason }
}
