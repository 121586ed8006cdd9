import Testing

@testable import TesseraGL

/// A tracked flush keeps a fence that tells, without waiting, when the GPU has finished.
@Suite struct FlushFenceTests {
  @Test func aTrackedFlushIsSeenDoneOnceTheGPUHasFinished() throws {
    let device = try GLDevice(gpu: .surfaceless)
    #expect(device.flushedWorkIsDone(), "nothing flushed: nothing to wait for")
    let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 64, height: 64))
    device.resetStatistics()
    for round in 0..<3 {
      device.beginPass(target, action: PassAction(clearColor: round == 1 ? .black : .transparent))
      device.flushTracked()
      #expect(device.flushFence != nil, "the flush keeps a fence")
      device.endPass()
      device.finish()
      #expect(device.flushedWorkIsDone())
      #expect(device.flushFence == nil, "a fence seen done is deleted")
    }
    #expect(device.statistics.flushes == 3)
    // A second tracked flush before the first is seen done replaces its fence.
    device.flushTracked()
    device.flushTracked()
    device.finish()
    #expect(device.flushedWorkIsDone())
    #expect(device.statistics.flushes == 5)
  }
}
