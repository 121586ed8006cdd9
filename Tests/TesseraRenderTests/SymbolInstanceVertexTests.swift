import Foundation
import TesseraGL
import TesseraImage
import Testing

@testable import TesseraRender

/// The `symbol` program's instance layout against the packing that fills it: both come from
/// ``SymbolInstanceVertex``, and what is packed is read back where the layout says.
@Suite struct SymbolInstanceVertexTests {
  /// A vertex whose every float differs from every other.
  static let vertex = SymbolInstanceVertex(
    topLeft: SIMD4(1, 2, 3, 4), topRight: SIMD4(5, 6, 7, 8), bottomLeft: SIMD4(9, 10, 11, 12),
    bottomRight: SIMD4(13, 14, 15, 16), textureRect: SIMD4(17, 18, 19, 20), fill: SIMD4(21, 22, 23, 24),
    halo: SIMD4(25, 26, 27, 28), params: SIMD4(29, 30, 31, 32))

  /// What each shader input must read, written out here rather than taken from the type.
  static let expected: [String: SIMD4<Float>] = [
    "a_top_left": SIMD4(1, 2, 3, 4), "a_top_right": SIMD4(5, 6, 7, 8), "a_bottom_left": SIMD4(9, 10, 11, 12),
    "a_bottom_right": SIMD4(13, 14, 15, 16), "a_texture_rect": SIMD4(17, 18, 19, 20),
    "a_fill": SIMD4(21, 22, 23, 24), "a_halo": SIMD4(25, 26, 27, 28), "a_params": SIMD4(29, 30, 31, 32),
  ]

  @Test func packedFieldsReadBackAtTheDeclaredOffsets() throws {
    var floats: [Float] = []
    SymbolInstanceVertexTests.vertex.pack(into: &floats)
    let bytes = floats.withUnsafeBytes { Array($0) }
    #expect(bytes.count == SymbolInstanceVertex.stride)
    #expect(floats.count == SymbolInstanceVertex.floatCount)
    let attributes = SymbolInstanceVertex.attributes(buffer: 1)
    #expect(Set(attributes.map(\.name)) == Set(SymbolInstanceVertexTests.expected.keys))
    for attribute in attributes {
      #expect(attribute.buffer == 1)
      #expect(attribute.format == .float4)
      #expect(attribute.offset + 16 <= SymbolInstanceVertex.stride, "\(attribute.name) runs past the stride")
      let read = bytes.withUnsafeBytes { raw in
        SIMD4<Float>(
          raw.loadUnaligned(fromByteOffset: attribute.offset, as: Float.self),
          raw.loadUnaligned(fromByteOffset: attribute.offset + 4, as: Float.self),
          raw.loadUnaligned(fromByteOffset: attribute.offset + 8, as: Float.self),
          raw.loadUnaligned(fromByteOffset: attribute.offset + 12, as: Float.self))
      }
      #expect(read == SymbolInstanceVertexTests.expected[attribute.name], "\(attribute.name) at \(attribute.offset)")
    }
  }

  @Test func fieldsTileTheStrideWithoutGapsOrOverlaps() {
    let offsets = SymbolInstanceVertex.attributes(buffer: 0).map(\.offset).sorted()
    #expect(offsets == Array(stride(from: 0, to: SymbolInstanceVertex.stride, by: 16)))
  }

  @Test func instancesFollowOneAnotherAtTheStride() {
    var floats: [Float] = []
    SymbolInstanceVertexTests.vertex.pack(into: &floats)
    var second = SymbolInstanceVertexTests.vertex
    second.params = SIMD4(-1, -2, -3, -4)
    second.pack(into: &floats)
    #expect(SymbolInstanceVertex.count(floats.count) == 2)
    let offset = SymbolInstanceVertex.stride + SymbolInstanceVertex.Field.params.offset
    let read = floats.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Float.self) }
    #expect(read == -1)
  }

  @Test func colorsArePremultipliedAndTakeTheOpacity() {
    let corners = QuadCorners(
      topLeft: SIMD4(0.5, 0.25, 0, 1), topRight: SIMD4(1, 0.25, 0, 1), bottomLeft: SIMD4(0.5, 0, 0, 1),
      bottomRight: SIMD4(1, 0, 0, 1))
    let vertex = SymbolInstanceVertex(
      corners: corners, texture: SIMD4(1, 2, 3, 4), fill: Color(red: 1, green: 0.5, blue: 0, alpha: 0.5),
      halo: .white, opacity: 0.5, params: SIMD4(1, 0, 0, 1))
    #expect(vertex.topLeft == SIMD4(0.5, 0.25, 0, 1))
    #expect(vertex.bottomRight == SIMD4(1, 0, 0, 1))
    #expect(vertex.fill == SIMD4(0.25, 0.125, 0, 0.25))
    #expect(vertex.halo == SIMD4(0.5, 0.5, 0.5, 0.5))
  }

  /// The pipeline draws with this layout, and the shader declares every input it names.
  @Test func theSymbolPipelineAndShaderUseTheLayout() throws {
    let layout = SymbolPipeline(kind: .glyphs).descriptor.layout
    #expect(layout.buffers.count == 2)
    #expect(layout.buffers[1].stride == SymbolInstanceVertex.stride)
    #expect(layout.buffers[1].stepRate == .perInstance)
    let instanced = layout.attributes.filter { $0.buffer == 1 }
    #expect(instanced.map(\.name) == SymbolInstanceVertex.attributes(buffer: 1).map(\.name))
    #expect(instanced.map(\.offset) == SymbolInstanceVertex.attributes(buffer: 1).map(\.offset))
    let shader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../Shaders/programs/symbol.vertex.glsl")
    let source = try String(contentsOf: shader, encoding: .utf8)
    for attribute in instanced {
      #expect(source.contains("in vec4 \(attribute.name);"), "symbol.vertex.glsl lacks \(attribute.name)")
    }
  }
}
