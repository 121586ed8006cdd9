import TesseraGL
import TesseraGeo
import Testing

@testable import TesseraRender

/// Resource keys and pipelines compare by their boxed value's type and value, however they were
/// made.
@Suite struct ResourceKeyTests {
  /// Two key types whose values print alike.
  struct First: Hashable, Sendable, CustomStringConvertible {
    let number: Int
    var description: String { "key \(number)" }
  }
  struct Second: Hashable, Sendable, CustomStringConvertible {
    let number: Int
    var description: String { "key \(number)" }
  }

  @Test func keysAreEqualWhenTheirTypesAndValuesAre() {
    let key = ResourceKey(First(number: 1))
    #expect(key == key)
    #expect(ResourceKey(First(number: 1)) == key)
    #expect(ResourceKey(First(number: 1)).hashValue == key.hashValue)
    #expect(ResourceKey(First(number: 2)) != key)
    #expect(ResourceKey(Second(number: 1)) != key)
    #expect(key.description == "key 1" && key.base as? First == First(number: 1))
    // Made from a value of an existential type: the same key.
    let erased: any Hashable & Sendable & CustomStringConvertible = First(number: 1)
    #expect(ResourceKey(erased) == key && ResourceKey(erased).hashValue == key.hashValue)
    #expect(ResourceKey(key.base) == key)
  }

  @Test func dictionariesFindKeysMadeAgain() {
    var values: [ResourceKey: Int] = [:]
    for number in 0..<1_000 {
      values[ResourceKey(First(number: number))] = number
      values[ResourceKey(Second(number: number))] = -number
      values[
        ResourceKey(BucketKey(source: "s", tile: TileID(z: 12, x: number, y: 1), zoom: 12, layer: "l", revision: 1))] =
        number + 10_000
    }
    #expect(values.count == 3_000)
    for number in stride(from: 0, to: 1_000, by: 37) {
      #expect(values[ResourceKey(First(number: number))] == number)
      #expect(values[ResourceKey(Second(number: number))] == -number)
      #expect(
        values[
          ResourceKey(BucketKey(source: "s", tile: TileID(z: 12, x: number, y: 1), zoom: 12, layer: "l", revision: 1))]
          == number + 10_000)
    }
    #expect(values[ResourceKey(First(number: 1_000))] == nil)
  }

  /// Two pipeline variant types whose values print alike and describe the same pipeline.
  struct FirstVariant: PipelineVariant {
    let number: Int
    var description: String { "variant \(number)" }
    var descriptor: PipelineDescriptor {
      PipelineDescriptor(
        program: "solid",
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)]))
    }
  }
  struct SecondVariant: PipelineVariant {
    let number: Int
    var description: String { "variant \(number)" }
    var descriptor: PipelineDescriptor { FirstVariant(number: number).descriptor }
  }

  @Test func pipelinesAreEqualWhenTheirVariantTypesAndValuesAre() {
    let pipeline = Pipeline(FirstVariant(number: 1))
    #expect(Pipeline(FirstVariant(number: 1)) == pipeline)
    #expect(Pipeline(FirstVariant(number: 1)).hashValue == pipeline.hashValue)
    #expect(Pipeline(FirstVariant(number: 2)) != pipeline)
    #expect(Pipeline(SecondVariant(number: 1)) != pipeline)
    #expect(pipeline.description == "variant 1" && pipeline.descriptor.program == "solid")
    #expect(pipeline.variant as? FirstVariant == FirstVariant(number: 1))
    let set = Set((0..<500).flatMap { [Pipeline(FirstVariant(number: $0)), Pipeline(SecondVariant(number: $0))] })
    #expect(set.count == 1_000 && set.contains(Pipeline(SecondVariant(number: 499))))
  }
}
