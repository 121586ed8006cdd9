import Foundation
import TesseraData
import TesseraTestSupport
import Testing

@Suite struct MVTDecoderTests {
  static let sampleTile = "data/samples/mvt/14/8529/5974.mvt"

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func decodesTheDenseMonacoTile() throws {
    let tile = try MVTDecoder.decode(try SharedData.bytes(MVTDecoderTests.sampleTile))
    #expect(tile.layers.count == 12)
    let buildings = try #require(tile.layer(named: "building"))
    #expect(buildings.features.count == 840 && buildings.extent == 4096 && buildings.version == 2)
    #expect(buildings.features.allSatisfy { $0.type == .polygon })
    // Every building carries its heights (README of the data set).
    #expect(buildings.features.allSatisfy { buildings.value(of: $0, forKey: "render_height") != nil })
    let transport = try #require(tile.layer(named: "transportation"))
    let classes = Set(transport.features.compactMap { transport.value(of: $0, forKey: "class") })
    #expect(classes.contains(.string("primary")) && classes.contains(.string("service")))
    // Polygon rings group into polygons whose first ring has positive area.
    for feature in buildings.features {
      for polygon in feature.polygons {
        #expect(VectorFeature.doubledSignedArea(polygon[0]) > 0)
      }
    }
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func gzipAndRawDecodeAlikeAndEncodingRoundTrips() throws {
    let raw = try SharedData.bytes(MVTDecoderTests.sampleTile)
    let tile = try MVTDecoder.decode(raw)
    #expect(try MVTDecoder.decode(Gzip.compress(raw)) == tile)
    #expect(try MVTDecoder.decode(MVTEncoder.encode(tile)) == tile)
  }

  @Test func valuesOfEveryTypeRoundTrip() throws {
    var builder = VectorTileLayerBuilder(name: "things", extent: 512)
    builder.add(
      type: .point, geometry: [[TilePoint(x: 1, y: 2), TilePoint(x: -3, y: 600)]],
      properties: ["s": .string("é"), "i": .number(-42), "d": .number(2.5), "b": .bool(true)], id: 7)
    builder.add(
      type: .lineString,
      geometry: [[TilePoint(x: 0, y: 0), TilePoint(x: 10, y: 10)], [TilePoint(x: 5, y: 5), TilePoint(x: 6, y: 9)]],
      properties: [:])
    let square = [
      TilePoint(x: 0, y: 0), TilePoint(x: 8, y: 0), TilePoint(x: 8, y: 8), TilePoint(x: 0, y: 8), TilePoint(x: 0, y: 0),
    ]
    let hole = [
      TilePoint(x: 2, y: 2), TilePoint(x: 2, y: 4), TilePoint(x: 4, y: 4), TilePoint(x: 4, y: 2), TilePoint(x: 2, y: 2),
    ]
    builder.add(type: .polygon, geometry: [square, hole], properties: ["s": .string("é")])
    let tile = VectorTile(layers: [builder.build()])
    let decoded = try MVTDecoder.decode(MVTEncoder.encode(tile))
    #expect(decoded == tile)
    let layer = decoded.layers[0]
    #expect(
      layer.properties(of: layer.features[0]) == [
        "s": .string("é"), "i": .number(-42), "d": .number(2.5), "b": .bool(true),
      ])
    #expect(layer.features[0].id == 7)
    #expect(layer.features[2].polygons.count == 1 && layer.features[2].polygons[0].count == 2)
  }

  /// Bytes of a one-layer tile with a hand-made geometry command stream and extent.
  static func tile(geometry: [UInt32], extent: UInt32 = 4096, tags: [UInt32] = []) -> [UInt8] {
    func varint(_ value: UInt64) -> [UInt8] {
      var value = value
      var out: [UInt8] = []
      while value >= 0x80 {
        out.append(UInt8(value & 0x7F) | 0x80)
        value >>= 7
      }
      return out + [UInt8(value)]
    }
    func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] {
      varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }
    let packedGeometry = geometry.flatMap { varint(UInt64($0)) }
    var feature = varint(3 << 3) + varint(2) + field(4, packedGeometry)
    if !tags.isEmpty { feature += field(2, tags.flatMap { varint(UInt64($0)) }) }
    let layer =
      varint(15 << 3) + varint(2) + field(1, Array("l".utf8)) + field(2, feature) + field(3, Array("k".utf8))
      + field(4, field(1, Array("v".utf8))) + varint(5 << 3) + varint(UInt64(extent))
    return field(3, layer)
  }

  struct MalformedCase: Sendable, CustomStringConvertible {
    let geometry: [UInt32]
    let extent: UInt32
    let tags: [UInt32]
    let message: String
    var description: String { message }
  }

  static let malformedCases: [MalformedCase] = [
    MalformedCase(
      geometry: [9, 2, 2, 2 << 3 | 2 | 0x7FFF_FFF0], extent: 4096, tags: [], message: "runs past the geometry buffer"),
    MalformedCase(geometry: [1 << 3 | 2, 2, 2], extent: 4096, tags: [], message: "LineTo without a MoveTo"),
    MalformedCase(geometry: [9, 2, 2, 7 | 2 << 3], extent: 4096, tags: [], message: "ClosePath with count 2"),
    MalformedCase(geometry: [9, 2, 2], extent: 0, tags: [], message: "extent 0"),
    MalformedCase(geometry: [9, 2, 2], extent: 1 << 21, tags: [], message: "extent 2097152"),
    MalformedCase(geometry: [9, 2, 2], extent: 4096, tags: [0, 5], message: "tag refers past"),
    MalformedCase(geometry: [9, 2, 2], extent: 4096, tags: [0], message: "odd number of tags"),
    MalformedCase(geometry: [9 | 0xFFFF_FF00], extent: 4096, tags: [], message: "runs past the geometry buffer"),
    MalformedCase(geometry: [12, 2, 2], extent: 4096, tags: [], message: "unknown command 4"),
  ]

  @Test(arguments: malformedCases)
  func malformedGeometryAndTablesAreErrors(_ bad: MalformedCase) {
    do {
      _ = try MVTDecoder.decode(MVTDecoderTests.tile(geometry: bad.geometry, extent: bad.extent, tags: bad.tags))
      Issue.record("decoded: \(bad.message)")
    } catch {
      let reason = error.reason
      #expect(reason.contains(bad.message), "\(reason)")
    }
  }

  @Test func hugeCoordinateDeltasAreErrorsNotOverflows() {
    // Found by the fuzzer: after a first point at x = 1000, a delta of Int64.max overflowed.
    let geometry: [UInt8] = [0x11, 0xD0, 0x0F, 0x00, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00]
    let bytes = MVTDecoderTests.tileWithRawGeometry(geometry)
    do {
      _ = try MVTDecoder.decode(bytes)
      Issue.record("decoded")
    } catch {
      #expect(error.reason.contains("out of range"))
    }
  }

  /// A one-feature tile whose packed geometry field holds `geometry` bytes as they are.
  static func tileWithRawGeometry(_ geometry: [UInt8]) -> [UInt8] {
    func field(_ number: UInt8, _ bytes: [UInt8]) -> [UInt8] { [number << 3 | 2, UInt8(bytes.count)] + bytes }
    let feature: [UInt8] = [3 << 3, 2] + field(4, geometry)
    let layer: [UInt8] = [15 << 3, 2] + field(1, Array("l".utf8)) + field(2, feature) + [5 << 3, 0x80, 0x20]
    return field(3, layer)
  }

  @Test func coordinatesBeyondTheLimitAreErrors() {
    // MoveTo(1) with dx = 2^31 (zigzag 2^32), twice.
    #expect(throws: TileDecodeError.self) {
      try MVTDecoder.decode(MVTDecoderTests.tile(geometry: [UInt32(2 << 3 | 1), 0xFFFF_FFFE, 0, 0xFFFF_FFFE, 0]))
    }
  }

  @Test func invalidProtobufAndCompressionAreErrors() throws {
    #expect(throws: TileDecodeError.self) { try MVTDecoder.decode([0x1A, 0xFF, 0xFF, 0xFF, 0x0F]) }
    #expect(throws: TileDecodeError.self) { try MVTDecoder.decode([0x07]) }
    let gzip = Gzip.compress(MVTDecoderTests.tile(geometry: [9, 2, 2]))
    do {
      _ = try MVTDecoder.decode(Array(gzip.prefix(gzip.count - 6)))
      Issue.record("truncated gzip decoded")
    } catch {
      #expect(error.reason.contains("truncated") || error.reason.contains("corrupt"), "\(error.reason)")
    }
    #expect(throws: CompressionError.tooLarge(limit: 100)) {
      try Gzip.inflate(Gzip.compress([UInt8](repeating: 0, count: 1000)), limit: 100)
    }
  }

  @Test func mutatedTilesNeverCrash() throws {
    var seeds: [[UInt8]] = [
      MVTDecoderTests.tile(geometry: [9, 50, 34, 3 << 3 | 2, 20, 0, 0, 20, 19, 0, 15], tags: [0, 0]),
      MVTEncoder.encode(DemoCitySource().makeTile(TesseraGeoTile.monaco15)),
    ]
    seeds.append(Gzip.compress(seeds[1]))
    if SharedData.isAvailable { seeds.append(try SharedData.bytes("data/samples/mvt/14/8530/5975.mvt")) }
    var random = SeededRandom(seed: 2024)
    var rejected = 0
    for iteration in 0..<2000 {
      let mutant = random.mutate(seeds[iteration % seeds.count])
      do {
        _ = try MVTDecoder.decode(mutant, inflateLimit: 8 << 20)
      } catch {
        rejected += 1
      }
    }
    #expect(rejected > 50)
  }
}

/// Tiles used across the data tests.
enum TesseraGeoTile {
  static let monaco15 = TileIDs.make(15, 17059, 11948)
}
