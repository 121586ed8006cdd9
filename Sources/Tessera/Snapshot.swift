import TesseraImage

/// The result of rendering a map once.
public struct Snapshot: Sendable {
  /// The pixels (straight alpha unless asked otherwise).
  public let image: RGBAImage
  /// What the frame cost.
  public let statistics: FrameStatistics
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

  public init() {}
}
