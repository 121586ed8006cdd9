import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A frame's draws while its layers add them, in drawing order: each ``FrameLayer`` in turn,
/// each starting as many layer slots as it needs (a style starts one per style layer). Draws
/// are sorted by pass, then slot, then the order they were added in.
package struct FrameBuilder {
  /// The camera and viewport of the frame.
  package let transform: CameraTransform
  /// Where draws find their meshes and textures; layers upload into it while adding draws.
  package let resources: GPUResourceCache
  /// The colour the frame is cleared to (straight alpha). A layer whose first draw would cover
  /// every pixel opaquely may set it instead, while ``isEmpty``.
  package var clearColor: Color
  /// The draws added so far, in the order they were added.
  package private(set) var commands: [DrawCommand] = []
  /// Problems worth telling the caller (tiles that failed to load), one message each.
  package var warnings: [String] = []
  /// Tiles, buckets and where the preparation's time went.
  package var statistics = PreparationStatistics()
  private var slot = -1
  private var order = 0
  /// Whether prelude commands now draw into an offscreen target (between a switch to one and
  /// the switch back): prelude draws go nowhere else, since they come before the frame's own
  /// pass is begun.
  private var preludeTargetOpen = false

  package init(transform: CameraTransform, resources: GPUResourceCache, clearColor: Color) {
    self.transform = transform
    self.resources = resources
    self.clearColor = clearColor
  }

  /// Whether nothing has been drawn yet.
  package var isEmpty: Bool { commands.isEmpty }

  /// Device pixels per point.
  package var pixelRatio: Double { transform.viewport.scale }

  /// Starts a new layer slot: later draws sort after every earlier slot's (within a pass).
  package mutating func beginLayer() {
    slot += 1
    order = 0
  }

  /// Adds a draw in the current slot.
  package mutating func draw(
    _ pass: SortKey.Pass, _ pipeline: Pipeline, _ mesh: MeshReference, _ uniforms: UniformValues, first: Int = 0,
    count: Int? = nil, instances: Int = 1, textures: [ResourceKey] = [], stencil: Int32? = nil,
    cull: CullVolume? = nil, scissor: PixelRect? = nil
  ) {
    precondition(pass != .prelude || preludeTargetOpen, "a prelude draw outside an offscreen target")
    commands.append(
      DrawCommand(
        key: nextKey(pass), pipeline: pipeline, mesh: mesh, uniforms: uniforms, first: first, count: count,
        instances: instances, textures: textures, stencilReference: stencil, cull: cull, scissor: scissor))
  }

  /// Adds a stencil clear in the current slot.
  package mutating func clearStencil(_ pass: SortKey.Pass) {
    precondition(pass != .prelude, "a stencil clear in the prelude")
    commands.append(.clearStencil(key: nextKey(pass)))
  }

  /// Adds a switch of render target in the current slot: later draws go into `target` (cleared
  /// first), or back into the frame when nil. In the prelude each switch to a target is
  /// followed by the switch back, in the same slot, and the target has no depth of the frame's.
  package mutating func switchTarget(_ pass: SortKey.Pass, to target: OffscreenTarget?) {
    if pass == .prelude {
      precondition(preludeTargetOpen == (target == nil), "prelude switches must pair, one target at a time")
      precondition(target?.sharesFrameDepth != true, "a prelude target drawing with the frame's depth")
      preludeTargetOpen = target != nil
    }
    commands.append(.switchTarget(to: target, key: nextKey(pass)))
  }

  private mutating func nextKey(_ pass: SortKey.Pass) -> SortKey {
    precondition(slot >= 0, "beginLayer before adding draws")
    defer { order += 1 }
    return SortKey(pass: pass, layer: slot, order: order)
  }

  /// The plan of the draws added.
  package var plan: FramePlan {
    precondition(!preludeTargetOpen, "a prelude target left open")
    return FramePlan(
      pixelWidth: transform.viewport.pixelWidth, pixelHeight: transform.viewport.pixelHeight, clearColor: clearColor,
      commands: commands)
  }
}

/// What preparing a frame's data did.
package struct PreparationStatistics: Sendable, Equatable {
  /// Tiles drawn, over all sources.
  package var tiles = 0
  /// Buckets built (tessellated) for this frame; the rest came from the cache.
  package var bucketsBuilt = 0
  /// Where the preparation's time went.
  package var timings = PreparationTimings()

  package init() {}
}

/// Where the time of preparing a frame went, in milliseconds.
package struct PreparationTimings: Sendable, Equatable {
  /// Waiting for the frame's tiles (wall time on the rendering thread).
  package var tileWait = 0.0
  /// Fetching and decoding the tiles this frame started loading, summed over the loader's
  /// worker threads (so it can exceed ``tileWait``).
  package var tileDecode = 0.0
  /// Building buckets (tessellation) and preparing hillshade slopes (wall time, all cores).
  package var tessellation = 0.0
  /// Uploading geometry and textures to the GPU (and converting rasters to premultiplied).
  package var upload = 0.0
  /// Planning the draw commands.
  package var commandPlanning = 0.0
  /// Resolving, shaping and laying out the text and icons of symbol buckets (wall time).
  package var textShaping = 0.0
  /// Placing symbols: collision detection over every symbol layer.
  package var textCollision = 0.0
  /// Making the quads (instance data) of the placed symbols.
  package var textQuads = 0.0

  package init() {}
}
