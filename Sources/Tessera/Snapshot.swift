import TesseraImage

/// The result of rendering a map once.
public struct Snapshot: Sendable {
  /// The pixels (straight alpha unless asked otherwise).
  public let image: RGBAImage
  /// What the frame cost.
  public let statistics: FrameStatistics
  /// Tiles that failed to load, one message each.
  public let warnings: [String]
  /// The visible markers, when the map's `accessibilityElementsHidden` is false.
  public let accessibilityElements: [MarkerAccessibilityElement]
}

/// Counters and timings of one frame.
public struct FrameStatistics: Sendable, Equatable {
  /// Draw calls issued.
  public var drawCalls = 0
  /// Triangles submitted.
  public var triangles = 0
  /// Building the frame plan (CPU), in milliseconds.
  public var planMilliseconds = 0.0
  /// Encoding and executing the draw commands until the GPU finished, in milliseconds.
  public var drawMilliseconds = 0.0
  /// Reading the pixels back, in milliseconds.
  public var readbackMilliseconds = 0.0
  /// Tiles drawn, over all sources.
  public var tiles = 0
  /// Tile buckets tessellated for this frame (the rest were cached on the GPU).
  public var bucketsBuilt = 0

  public init() {}
}
