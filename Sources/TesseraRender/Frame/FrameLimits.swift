import TesseraNumbers

/// How much one frame may hold, so that a style asking for more (tens of thousands of layers
/// over hundreds of tiles) fails with a clear error instead of growing without bound.
public struct FrameLimits: Sendable, Equatable {
  /// Bytes of tile geometry (vertices, per-vertex paint, indices) one frame may build; buckets
  /// cached by earlier frames do not count.
  public var geometryBytes: Int
  /// Draws one frame may hold (about 0.5 KB of memory each).
  public var draws: Int

  public init(geometryBytes: Int = 1 << 30, draws: Int = 1_000_000) {
    self.geometryBytes = geometryBytes
    self.draws = draws
  }
}

/// A frame needed more than its ``FrameLimits`` allow.
public struct FrameLimitError: Error, Sendable, Equatable, CustomStringConvertible {
  public let description: String

  /// The frame's geometry of `style` outgrew `limit` bytes while `layers` layers were built
  /// over `tiles` tiles.
  static func geometry(style: String, limit: Int, layers: Int, tiles: Int) -> FrameLimitError {
    FrameLimitError(
      description:
        "\(style): the frame's tile geometry exceeds \(limit >> 20) MB (\(layers) layers over \(tiles) tiles); "
        + "draw fewer layers or a smaller view, or raise MapOptions.frameLimits.geometryBytes")
  }

  /// The frame reached more than `limit` draws by layer `layer` of `style` (its `index`-th).
  static func draws(style: String, limit: Int, layer: String, index: Int, layerCount: Int) -> FrameLimitError {
    FrameLimitError(
      description:
        "\(style): the frame exceeds \(limit) draws at layer '\(layer)' (\(index + 1) of \(layerCount) layers); "
        + "draw fewer layers or a smaller view, or raise MapOptions.frameLimits.draws")
  }
}
