import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A frame's draws while its layers add them, in drawing order: each ``FrameLayer`` in turn,
/// each starting as many layer slots as it needs (a style starts one per style layer). Draws
/// are sorted by pass, then slot, then the order they were added in.
public struct FrameBuilder {
  /// The camera and viewport of the frame.
  public let transform: CameraTransform
  /// Where draws find their meshes and textures; layers upload into it while adding draws.
  public let resources: GPUResourceCache
  /// The colour the frame is cleared to (straight alpha). A layer whose first draw would cover
  /// every pixel opaquely may set it instead, while ``isEmpty``.
  public var clearColor: Color
  /// The draws added so far, in the order they were added.
  public private(set) var commands: [DrawCommand] = []
  /// Problems worth telling the caller (tiles that failed to load), one message each.
  public var warnings: [String] = []
  /// Tiles, buckets and where the preparation's time went.
  public var statistics = PreparationStatistics()
  private var slot = -1
  private var order = 0

  public init(transform: CameraTransform, resources: GPUResourceCache, clearColor: Color) {
    self.transform = transform
    self.resources = resources
    self.clearColor = clearColor
  }

  /// Whether nothing has been drawn yet.
  public var isEmpty: Bool { commands.isEmpty }

  /// Device pixels per point.
  public var pixelRatio: Double { transform.viewport.scale }

  /// Starts a new layer slot: later draws sort after every earlier slot's (within a pass).
  public mutating func beginLayer() {
    slot += 1
    order = 0
  }

  /// Adds a draw in the current slot.
  public mutating func draw(
    _ pass: SortKey.Pass, _ pipeline: Pipeline, _ mesh: MeshReference, _ uniforms: UniformValues, first: Int = 0,
    count: Int? = nil, instances: Int = 1, textures: [ResourceKey] = [], stencil: Int32? = nil,
    cull: CullVolume? = nil, scissor: PixelRect? = nil
  ) {
    commands.append(
      DrawCommand(
        key: nextKey(pass), pipeline: pipeline, mesh: mesh, uniforms: uniforms, first: first, count: count,
        instances: instances, textures: textures, stencilReference: stencil, cull: cull, scissor: scissor))
  }

  /// Adds a stencil clear in the current slot.
  public mutating func clearStencil(_ pass: SortKey.Pass) {
    commands.append(.clearStencil(key: nextKey(pass)))
  }

  /// Adds a switch of render target in the current slot: later draws go into `target` (cleared
  /// first), or back into the frame when nil.
  public mutating func switchTarget(_ pass: SortKey.Pass, to target: OffscreenTarget?) {
    commands.append(.switchTarget(to: target, key: nextKey(pass)))
  }

  private mutating func nextKey(_ pass: SortKey.Pass) -> SortKey {
    precondition(slot >= 0, "beginLayer before adding draws")
    defer { order += 1 }
    return SortKey(pass: pass, layer: slot, order: order)
  }

  /// The plan of the draws added.
  public var plan: FramePlan {
    FramePlan(
      pixelWidth: transform.viewport.pixelWidth, pixelHeight: transform.viewport.pixelHeight, clearColor: clearColor,
      commands: commands)
  }
}

/// What preparing a frame's data did.
public struct PreparationStatistics: Sendable, Equatable {
  /// Tiles drawn, over all sources.
  public var tiles = 0
  /// Buckets built (tessellated) for this frame; the rest came from the cache.
  public var bucketsBuilt = 0
  /// Where the preparation's time went.
  public var timings = PreparationTimings()

  public init() {}
}

/// Where the time of preparing a frame went, in milliseconds.
public struct PreparationTimings: Sendable, Equatable {
  /// Waiting for the frame's tiles (wall time on the rendering thread).
  public var tileWait = 0.0
  /// Fetching and decoding the tiles this frame started loading, summed over the loader's
  /// worker threads (so it can exceed ``tileWait``).
  public var tileDecode = 0.0
  /// Building buckets (tessellation) and preparing hillshade slopes (wall time, all cores).
  public var tessellation = 0.0
  /// Uploading geometry and textures to the GPU (and converting rasters to premultiplied).
  public var upload = 0.0
  /// Planning the draw commands.
  public var commandPlanning = 0.0
  /// Resolving, shaping and laying out the text and icons of symbol buckets (wall time).
  public var textShaping = 0.0
  /// Placing symbols: collision detection over every symbol layer.
  public var textCollision = 0.0
  /// Making the quads (instance data) of the placed symbols.
  public var textQuads = 0.0

  public init() {}
}
