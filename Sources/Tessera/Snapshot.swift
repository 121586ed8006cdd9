import TesseraImage
import TesseraNumbers

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

  /// A snapshot of pixels made otherwise (tiles laid side by side, a picture composed).
  public init(
    image: RGBAImage, statistics: FrameStatistics = FrameStatistics(), warnings: [String] = [],
    accessibilityElements: [MarkerAccessibilityElement] = []
  ) {
    self.image = image
    self.statistics = statistics
    self.warnings = warnings
    self.accessibilityElements = accessibilityElements
  }
}

/// Counters and timings of one frame.
public struct FrameStatistics: Sendable, Equatable {
  /// Draw calls issued.
  public var drawCalls = 0
  /// Triangles submitted.
  public var triangles = 0
  /// Preparing the frame on the CPU (everything before the first GL draw: tiles, tessellation,
  /// uploads, command planning), in milliseconds.
  public var planMilliseconds = 0.0
  /// Waiting for the frame's tiles, in milliseconds (part of ``planMilliseconds``).
  public var tileWaitMilliseconds = 0.0
  /// Fetching and decoding the tiles this frame loaded, summed over the loader's worker
  /// threads, in milliseconds (0 when every tile was cached).
  public var tileDecodeMilliseconds = 0.0
  /// Tessellating buckets and preparing hillshade slopes, in milliseconds (part of
  /// ``planMilliseconds``).
  public var tessellationMilliseconds = 0.0
  /// Uploading tile geometry and textures to the GPU, in milliseconds (part of
  /// ``planMilliseconds``).
  public var uploadMilliseconds = 0.0
  /// Planning the draw commands, in milliseconds (part of ``planMilliseconds``).
  public var commandPlanningMilliseconds = 0.0
  /// Resolving, shaping and laying out the labels of symbol tiles not built before, in
  /// milliseconds (part of ``planMilliseconds``).
  public var textShapingMilliseconds = 0.0
  /// Collision detection of every symbol of the frame, in milliseconds (part of
  /// ``planMilliseconds``).
  public var textCollisionMilliseconds = 0.0
  /// Making the glyph and icon quads of the placed symbols, in milliseconds (part of
  /// ``planMilliseconds``).
  public var textQuadsMilliseconds = 0.0
  /// Turning the plan into GL calls (state changes, uniforms, draw calls), in milliseconds.
  public var commandEncodingMilliseconds = 0.0
  /// Waiting for the GPU to finish the frame after the last GL call, in milliseconds (on
  /// llvmpipe most rasterisation happens here).
  public var drawMilliseconds = 0.0
  /// Reading the pixels back, in milliseconds.
  public var readbackMilliseconds = 0.0
  /// Tiles drawn, over all sources.
  public var tiles = 0
  /// Tile buckets tessellated for this frame (the rest were cached on the GPU).
  public var bucketsBuilt = 0

  public init() {}
}
