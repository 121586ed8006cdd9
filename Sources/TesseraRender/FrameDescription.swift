import TesseraGeo
import TesseraImage

/// What a frame shows: the camera in its viewport, the background and the layers in order.
public struct FrameDescription: Sendable {
  /// One drawable layer.
  public enum Layer: Sendable {
    /// The debug tile grid.
    case debugTileGrid(DebugTileGrid)
    /// Sky and distance fog (drawn only when the view needs it).
    case sky(SkyLayer)
    /// Round dots at coordinates.
    case points(PointsLayer)
  }

  public var transform: CameraTransform
  /// Shown where nothing else is drawn (straight alpha).
  public var background: Color
  public var layers: [Layer]

  public init(transform: CameraTransform, background: Color, layers: [Layer]) {
    self.transform = transform
    self.background = background
    self.layers = layers
  }
}

/// Turns a ``FrameDescription`` into a ``FramePlan``: pure, no GL.
public enum FramePlanner {
  /// The plan of one frame; layer slots start at `layerOffset` (after a style's layers).
  public static func plan(_ frame: FrameDescription, layerOffset: Int = 0) -> FramePlan {
    var commands: [DrawCommand] = []
    for (position, layer) in frame.layers.enumerated() {
      let index = layerOffset + position
      switch layer {
      case .debugTileGrid(let grid):
        commands += grid.commands(for: frame.transform, layer: index)
      case .sky(let sky):
        if sky.isVisible(in: frame.transform) { commands.append(sky.command(for: frame.transform, layer: index)) }
      case .points(let points):
        if let command = points.command(for: frame.transform, layer: index) { commands.append(command) }
      }
    }
    return FramePlan(
      pixelWidth: frame.transform.viewport.pixelWidth, pixelHeight: frame.transform.viewport.pixelHeight,
      clearColor: frame.background, commands: commands)
  }
}
