import TesseraRender

@testable import Tessera

extension Map {
  /// The pipelines a frame of this map's style composed now draws with (`drawn`) and those the
  /// style renderer's warm-up makes ahead of a first frame at this camera (`predicted`).
  func drawnAndPredictedPipelines() throws -> (drawn: Set<Pipeline>, predicted: Set<Pipeline>) {
    guard let renderer = styleRenderer else { return ([], []) }
    let transform = state.transform
    let frame = try FrameComposer.compose(
      [renderer.frameLayer()], transform: transform, background: .white, resources: GPUResourceCache(device: device))
    let predicted = renderer.expectedPipelines(
      transform: transform, clipsByPlanes: device.info.limits.clipsTilesByPlanes)
    return (Set(frame.plan.commands.compactMap(\.pipeline)), Set(predicted))
  }
}
