import Dispatch
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A part of a frame that draws: the style's layers, the debug tile grid, the sky, markers
/// (and labels and overlays). The ``FrameComposer`` asks each for its draws in order, so one
/// list of draws holds them all.
package protocol FrameLayer {
  /// Adds the layer's draws to `frame`, uploading what they need into `frame.resources`.
  func addDraws(to frame: inout FrameBuilder) throws

  /// The pipelines a first frame at `transform` is expected to draw with, in drawing order, so
  /// they can be made (and on llvmpipe compiled) before the frame's data is ready. A pipeline
  /// missed here is simply made when a draw first uses it.
  func expectedPipelines(transform: CameraTransform, clipsByPlanes: Bool) -> [Pipeline]
}

extension FrameLayer {
  package func expectedPipelines(transform: CameraTransform, clipsByPlanes: Bool) -> [Pipeline] { [] }
}

/// Turns a frame's layers into one ``FramePlan``.
package enum FrameComposer {
  /// What composing a frame gave.
  package struct Frame {
    package let plan: FramePlan
    /// Problems the layers reported (tiles that failed to load), one message each.
    package let warnings: [String]
    package let statistics: PreparationStatistics
  }

  /// The plan of `layers` (bottom first) seen through `transform`, cleared to `background`
  /// unless a layer takes its place; meshes and textures go into `resources`.
  package static func compose(
    _ layers: [any FrameLayer], transform: CameraTransform, background: Color, resources: GPUResourceCache
  ) throws -> Frame {
    resources.beginFrame()
    var frame = FrameBuilder(transform: transform, resources: resources, clearColor: background)
    for layer in layers {
      frame.beginLayer()
      try layer.addDraws(to: &frame)
    }
    return Frame(plan: frame.plan, warnings: frame.warnings, statistics: frame.statistics)
  }

  /// Every pipeline `layers` expect a first frame at `transform` to draw with, each once, in
  /// drawing order, on a device clipping tiles by planes or not
  /// (``GPUResourceCache/clipsTilesByPlanes``).
  package static func expectedPipelines(_ layers: [any FrameLayer], transform: CameraTransform, clipsByPlanes: Bool)
    -> [Pipeline]
  {
    var seen = Set<Pipeline>()
    return layers.flatMap { $0.expectedPipelines(transform: transform, clipsByPlanes: clipsByPlanes) }.filter {
      seen.insert($0).inserted
    }
  }
}

/// Milliseconds between two instants.
func milliseconds(_ from: DispatchTime, _ to: DispatchTime) -> Double {
  Double(to.uptimeNanoseconds - from.uptimeNanoseconds) / 1e6
}
