import TesseraGL
import TesseraImage
import Testing

@testable import Tessera

/// Tile geometry drawn from the buckets' arrays where they lie (software renderers) and from
/// copies in buffer objects (GPUs) gives the same pixels.
@Suite struct HostMemoryDrawTests {
  @Test(arguments: FirstFrameTests.cameras)
  func mapsDrawTheSameBytesFromHostMemoryAndFromBufferObjects(camera: Camera) throws {
    var images: [RGBAImage] = []
    for fromHostMemory in [true, false] {
      let device = try GLDevice(gpu: .surfaceless, drawsFromHostMemory: fromHostMemory)
      let map = try Map(options: MapOptions(width: 160, height: 120, camera: camera), device: device)
      let snapshot = try map.snapshot()
      #expect(snapshot.statistics.bucketsBuilt > 0)
      images.append(snapshot.image)
      // A second frame draws the kept meshes again.
      #expect(try map.snapshot().image == snapshot.image)
    }
    #expect(images[0] == images[1])
    #expect(!images[0].isUniform, "the map drew something")
  }
}
