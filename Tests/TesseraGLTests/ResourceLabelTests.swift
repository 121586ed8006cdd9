import Synchronization
import Testing

@testable import TesseraGL

/// A resource's label keeps the values written into it and formats them only when shown.
@Suite struct ResourceLabelTests {
  /// A key that counts how often it is formatted.
  struct CountedKey: Sendable, CustomStringConvertible {
    let name: String
    let formatted: Counter
    var description: String {
      formatted.count.add(1, ordering: .relaxed)
      return name
    }
  }

  final class Counter: Sendable {
    let count = Atomic<Int>(0)
  }

  /// A value with no description of its own: shown by reflection.
  enum PlainMesh: Sendable { case unitSquare }

  @Test func formatsOnlyWhenShown() {
    let counter = Counter()
    let key = CountedKey(name: "z14/8529/5974 roads", formatted: counter)
    let label: ResourceLabel = "\(key) outline"
    let descriptor = BufferDescriptor(kind: .vertex, label: label.appending(" paint"))
    #expect(counter.count.load(ordering: .relaxed) == 0)
    #expect(descriptor.label.description == "z14/8529/5974 roads outline paint")
    #expect(counter.count.load(ordering: .relaxed) == 1)
    let plain: ResourceLabel = "\(PlainMesh.unitSquare) \(3) bytes"
    #expect(plain.description == "unitSquare 3 bytes")
    #expect(("" as ResourceLabel).description.isEmpty)
    #expect(ResourceLabel("warm-up").description == "warm-up")
  }

  /// Errors name the resource by its label.
  @Test func errorsShowTheLabel() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let counter = Counter()
    let key = CountedKey(name: "hillshade z12/2130/1493", formatted: counter)
    let tooWide = device.info.limits.maxTextureSize + 1
    #expect(counter.count.load(ordering: .relaxed) == 0)
    do {
      _ = try device.makeTexture(TextureDescriptor(width: tooWide, height: 1, label: "\(key) slopes"))
      Issue.record("a texture wider than the device allows was made")
    } catch {
      #expect("\(error)".contains("hillshade z12/2130/1493 slopes"))
    }
    #expect(counter.count.load(ordering: .relaxed) == 1)
  }
}
