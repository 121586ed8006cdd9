import Testing

@testable import TesseraRender
@testable import TesseraStyle

/// The per-vertex paint values of a bucket: each feature's record written once per vertex, in
/// order, whatever the counts and however runs of equal records are merged.
@Suite struct PaintAttributeWriterTests {
  struct Feature: StyleFeature {
    let width: Double
    let kind: String
    func property(_ key: String) -> StyleValue? { properties[key] }
    var properties: [String: StyleValue] { ["w": .number(width), "k": .string(kind)] }
    var geometryTypeName: String { "LineString" }
    var identifier: StyleValue? { nil }
  }

  /// A line layer whose colour and width come from the features.
  static func layer() throws -> StyleLayer {
    let style = try Style.parse(
      Array(
        ##"{"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": [{"id": "l", "type": "line", "source": "g", "paint": {"line-color": ["match", ["get", "k"], "a", "#ff0000", "#0000ff80"], "line-width": ["get", "w"]}}]}"##
          .utf8))
    return try #require(style.layers.first)
  }

  /// One feature's record: its values written for a single vertex.
  static func record(_ feature: Feature, layer: StyleLayer) -> [UInt8] {
    var writer = PaintAttributeWriter(bindings: LineLayerRenderer.paint, layer: layer, zoom: 14)
    writer.append(feature, vertexCount: 1)
    return writer.vertexBytes()
  }

  @Test func everyVertexHoldsItsFeaturesValuesInOrder() throws {
    let layer = try Self.layer()
    let features = [
      (Feature(width: 2, kind: "a"), 1), (Feature(width: 2, kind: "a"), 3), (Feature(width: 7.5, kind: "b"), 1000),
      (Feature(width: 2, kind: "a"), 0), (Feature(width: 2, kind: "a"), 5), (Feature(width: 1, kind: "a"), 2),
      (Feature(width: 1, kind: "a"), 1), (Feature(width: 3, kind: "b"), 17),
    ]
    var writer = PaintAttributeWriter(bindings: LineLayerRenderer.paint, layer: layer, zoom: 14)
    var expected: [UInt8] = []
    for (feature, count) in features {
      writer.append(feature, vertexCount: count)
      let record = Self.record(feature, layer: layer)
      #expect(record.count == writer.stride)
      for _ in 0..<count { expected += record }
    }
    let bytes = writer.vertexBytes()
    #expect(bytes.count == writer.stride * features.reduce(0) { $0 + $1.1 })
    // The first byte that differs, not both arrays (tens of thousands of bytes) on a failure.
    let firstDifference = zip(bytes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    #expect(firstDifference == nil, "the bytes differ from byte \(firstDifference ?? 0) on")
    #expect(writer.largest(LineProperties.width) == 7.5)
  }

  @Test func recordsHoldTheEvaluatedValues() throws {
    let layer = try Self.layer()
    let record = Self.record(Feature(width: 7.5, kind: "b"), layer: layer)
    // Colour at two zooms (premultiplied RGBA8: #0000ff80), then the width at two zooms.
    #expect(Array(record[0..<8]) == [0, 0, 128, 128, 0, 0, 128, 128])
    let widths = record[8..<16].withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    #expect(widths == [7.5, 7.5])
    #expect(PaintAttributeWriter(bindings: LineLayerRenderer.paint, layer: layer, zoom: 14).vertexBytes().isEmpty)
  }
}
