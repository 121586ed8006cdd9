import TesseraGL
import TesseraImage
import TesseraNumbers

/// Geometry the executor uploads once and draws many times.
package enum BuiltinMesh: Sendable, Hashable, CaseIterable {
  /// The unit square (0,0)–(1,1) as two triangles, three floats a vertex (x, y, inner = 0).
  case unitSquare
  /// The unit square's border ring (outer and inner edge vertices), for `debug_grid`.
  case unitSquareRing
  /// One triangle covering clip space, for full-screen passes.
  case fullScreenTriangle
  /// The corners (−1…1) of a quad as a triangle strip, for instanced sprites.
  case quadCorners
  /// The corners (0…1) of the unit square as a triangle strip, for marker sprites.
  case unitQuadStrip
}

/// Per-instance vertex data of one draw, uploaded with the frame.
package struct InstanceData: Sendable, Hashable {
  /// The raw bytes, `count × stride` long.
  package let bytes: [UInt8]
  /// Number of instances.
  package let count: Int

  package init(bytes: [UInt8], count: Int) {
    self.bytes = bytes
    self.count = count
  }
}

/// The parts of a cached mesh set drawn separately.
package enum MeshPart: Sendable, Hashable {
  /// Triangles (fills, lines, circles, extrusions).
  case main
  /// Fill outlines (GL lines).
  case outline
}

/// Which geometry a draw command uses.
package enum MeshReference: Sendable, Hashable {
  /// A built-in mesh drawn once.
  case builtin(BuiltinMesh)
  /// A built-in mesh drawn once per instance of the data.
  case instanced(BuiltinMesh, InstanceData)
  /// A part of a mesh set held in the executor's ``GPUResourceCache`` (a tile bucket).
  case cached(ResourceKey, MeshPart)
  /// A built-in mesh drawn once per instance of an instance buffer held in the cache.
  case cachedInstances(BuiltinMesh, ResourceKey)
  /// No geometry (stencil clears).
  case none
}

/// The order of a draw within a frame: pass first, then layer, then the order inside the layer.
package struct SortKey: Sendable, Hashable, Comparable {
  /// The fixed pass order: offscreen work the frame's layers sample (drawn before the frame's
  /// own target is begun), then MapLibre's: opaque, translucent, overlays.
  package enum Pass: UInt8, Sendable {
    /// Draws into offscreen targets only (each between a switch to its target and a switch
    /// back), done before the frame's first draw, so that sampling their textures later in the
    /// frame finds them drawn instead of waiting for them mid-frame.
    case prelude = 0
    case opaque = 1
    case translucent = 2
    case overlay = 3
  }

  package let pass: Pass
  /// The layer's slot in the frame (lower first).
  package let layer: Int
  /// The order inside the layer (lower first).
  package let order: Int

  package init(pass: Pass, layer: Int, order: Int) {
    self.pass = pass
    self.layer = layer
    self.order = order
  }

  package static func < (a: SortKey, b: SortKey) -> Bool {
    (a.pass.rawValue, a.layer, a.order) < (b.pass.rawValue, b.layer, b.order)
  }
}

/// For draws of cached meshes lying on the ground: the matrix they are drawn with and how far
/// (mesh units) the drawn geometry may reach beyond its vertex positions (line widths,
/// offsets), so that the executor can skip runs of primitives outside the view.
package struct CullVolume: Sendable {
  /// The mesh-to-clip matrix (column-major).
  package let matrix: [Float]
  /// Mesh units.
  package let margin: Double

  package init(matrix: [Float], margin: Double) {
    self.matrix = matrix
    self.margin = margin
  }
}

/// A texture a frame draws into part-way (a heatmap's densities), then samples: named, sized
/// in pixels, cleared when drawing into it starts. Draws refer to its texture by
/// ``resourceKey``.
///
/// With `sharesFrameDepth` the target is the frame's size and draws with the frame's depth and
/// stencil buffer (multisampled as the frame is), which switching to it keeps: what is drawn
/// into it hides and is hidden by what the frame holds (a translucent extrusion layer's
/// buildings, drawn opaque and then laid over the frame with the layer's opacity).
///
/// With a `cachedTexture` key the texture is instead an evictable RGBA8 texture of the
/// ``GPUResourceCache`` under that key, kept across frames (what was drawn into it, say a
/// DEM tile's shading, is reused while its ``version`` holds; see
/// ``GPUResourceCache/textureVersion(_:)``), and draws refer to it by that key.
package struct OffscreenTarget: Hashable, Sendable, CustomStringConvertible {
  package let name: String
  package let width: Int
  package let height: Int
  /// The format wanted; where the device cannot render into it, RGBA8 is used.
  package let format: TextureFormat
  /// The colour it is cleared to (straight alpha).
  package let clearColor: Color
  /// The cache key of a texture kept across frames, or nil for the executor's own texture.
  package let cachedTexture: ResourceKey?
  /// What the drawing into a cached texture depends on (recorded with it when it is drawn).
  package let version: Int
  /// Whether the target draws with the frame's depth and stencil buffer.
  package let sharesFrameDepth: Bool

  package init(
    name: String, width: Int, height: Int, format: TextureFormat, clearColor: Color, cachedTexture: ResourceKey? = nil,
    version: Int = 0, sharesFrameDepth: Bool = false
  ) {
    precondition(!sharesFrameDepth || cachedTexture == nil, "a cached texture has no depth buffer")
    self.name = name
    self.width = width
    self.height = height
    self.format = format
    self.clearColor = clearColor
    self.cachedTexture = cachedTexture
    self.version = version
    self.sharesFrameDepth = sharesFrameDepth
  }

  package var description: String { "offscreen \(name)" }

  /// The key draws name its texture by.
  package var resourceKey: ResourceKey { cachedTexture ?? ResourceKey(OffscreenTextureKey(name: name)) }

  package static func == (a: OffscreenTarget, b: OffscreenTarget) -> Bool {
    a.name == b.name && a.width == b.width && a.height == b.height && a.format == b.format
      && a.clearColor == b.clearColor && a.cachedTexture == b.cachedTexture && a.version == b.version
      && a.sharesFrameDepth == b.sharesFrameDepth
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(width)
    hasher.combine(height)
  }
}

/// The texture of an ``OffscreenTarget``.
struct OffscreenTextureKey: Hashable, Sendable, CustomStringConvertible {
  let name: String
  var description: String { "offscreen texture \(name)" }
}

/// One step of a frame: a draw (a pipeline, geometry, uniform values and an element range),
/// clearing the stencil buffer, or switching between the frame and an offscreen target.
package struct DrawCommand: Sendable {
  package let key: SortKey
  /// The pipeline drawn with; nil for a command that clears the stencil buffer or switches
  /// targets instead.
  package let pipeline: Pipeline?
  /// For a command switching targets: the offscreen target later draws go into, or nil for
  /// the frame itself (its contents kept).
  package let switchesTo: OffscreenTarget??
  package let mesh: MeshReference
  package let uniforms: UniformValues
  /// First vertex (or index) and count; nil count draws the whole mesh.
  package let first: Int
  package let count: Int?
  package let instances: Int
  /// Textures bound to units 0, 1, … (held in the executor's ``GPUResourceCache``).
  package let textures: [ResourceKey]
  /// The stencil reference compared or written by the pipeline's stencil mode.
  package let stencilReference: Int32?
  /// Set for draws whose parts outside the view may be skipped.
  package let cull: CullVolume?
  /// Window pixels the draw is limited to (origin bottom left), nil for the whole target: the
  /// clip of a tile in an unrotated, untilted view, instead of a stencil mask.
  package let scissor: PixelRect?

  package init(
    key: SortKey, pipeline: Pipeline, mesh: MeshReference, uniforms: UniformValues = UniformValues(),
    first: Int = 0, count: Int? = nil, instances: Int = 1, textures: [ResourceKey] = [],
    stencilReference: Int32? = nil, cull: CullVolume? = nil, scissor: PixelRect? = nil
  ) {
    self.key = key
    self.pipeline = pipeline
    self.mesh = mesh
    self.uniforms = uniforms
    self.first = first
    self.count = count
    self.instances = instances
    self.textures = textures
    self.stencilReference = stencilReference
    self.cull = cull
    self.scissor = scissor
    switchesTo = nil
  }

  private init(clearingStencilAt key: SortKey, switchingTo target: OffscreenTarget?? = nil) {
    self.key = key
    switchesTo = target
    pipeline = nil
    mesh = .none
    uniforms = UniformValues()
    first = 0
    count = nil
    instances = 1
    textures = []
    stencilReference = nil
    cull = nil
    scissor = nil
  }

  /// A command that clears the stencil buffer (clip masks start over).
  package static func clearStencil(key: SortKey) -> DrawCommand {
    DrawCommand(clearingStencilAt: key)
  }

  /// A command after which draws go into `target`, or back into the frame when nil.
  package static func switchTarget(to target: OffscreenTarget?, key: SortKey) -> DrawCommand {
    DrawCommand(clearingStencilAt: key, switchingTo: .some(target))
  }
}
