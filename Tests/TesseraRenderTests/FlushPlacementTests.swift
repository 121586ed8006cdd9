import TesseraGL
import TesseraImage
import TesseraRender
import Testing

@testable import Tessera

/// Where a frame is flushed never changes its pixels: llvmpipe draws every flushed scene into
/// the same target in order.
@Suite struct FlushPlacementTests {
  @Test(arguments: FirstFrameTests.cameras)
  func flushesAnywhereDrawTheSameBytes(camera: Camera) throws {
    let rules: [FlushSchedule.Rule] = [
      .everyCommands(.max), .everyCommands(1), .everyCommands(32), .whenIdle(minimumVertices: 1),
      FlushSchedule.rule(softwareRenderer: true),
    ]
    var images: [RGBAImage] = []
    var flushCounts: [Int] = []
    for rule in rules {
      let options = MapOptions(width: 160, height: 120, camera: camera)
      let map = try Map(options: options, device: GLDevice(gpu: .surfaceless))
      map.executor.flushRule = rule
      _ = try map.snapshot()
      map.executor.device.resetStatistics()
      images.append(try map.snapshot().image)
      flushCounts.append(map.executor.device.statistics.flushes)
    }
    #expect(images.allSatisfy { $0 == images[0] })
    #expect(!images[0].isUniform, "the map drew something")
    #expect(flushCounts[0] == 0, "an interval longer than the frame never flushes")
    #expect(flushCounts[1] > 10, "a flush before every command but the first")
    #expect(flushCounts[3] > 0, "an idle rasteriser is given the first draws")
  }
}
