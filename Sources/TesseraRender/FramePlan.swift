import TesseraGL
import TesseraImage

/// The pipelines the renderer knows; each maps to one ``PipelineDescriptor``.
public enum PipelineKind: Sendable, Hashable {
  /// Debug tile grid: a tile's square (checkerboard cells).
  case debugTileFill
  /// Debug tile grid: a tile's border ring.
  case debugTileBorder
  /// Sky above the horizon and fog over distant ground (full-screen).
  case sky
  /// Round points of a fixed pixel radius (instanced).
  case points
  /// A style layer's pipeline (program variant and fixed-function state).
  case style(StylePipeline)
  /// Not a draw: clears the stencil buffer (tile clip masks start over).
  case clearStencil
  /// Marker sprites (instanced), lying on the ground or facing the screen; `exact` when every
  /// instance is placed on whole pixels and read texel for pixel.
  case markers(flat: Bool, exact: Bool)
}

/// Geometry the executor uploads once and draws many times.
public enum BuiltinMesh: Sendable, Hashable, CaseIterable {
  /// The unit square (0,0)–(1,1) as two triangles, for `debug_grid`.
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
public struct InstanceData: Sendable, Hashable {
  /// The raw bytes, `count × stride` long.
  public let bytes: [UInt8]
  /// Number of instances.
  public let count: Int

  public init(bytes: [UInt8], count: Int) {
    self.bytes = bytes
    self.count = count
  }
}

/// Which geometry a draw command uses.
public enum MeshReference: Sendable, Hashable {
  /// A built-in mesh drawn once.
  case builtin(BuiltinMesh)
  /// A built-in mesh drawn once per instance of the data.
  case instanced(BuiltinMesh, InstanceData)
  /// A part of a tile bucket held in the executor's ``GPUResourceCache``.
  case bucket(BucketKey, BucketPart)
  /// A marker batch's instances (held in the ``GPUResourceCache``), drawn as unit quads.
  case markerBatch(MarkerBatchKey)
  /// No geometry (``PipelineKind/clearStencil``).
  case none
}

/// The order of a draw within a frame: pass first, then layer, then the order inside the layer.
public struct SortKey: Sendable, Hashable, Comparable {
  /// The fixed pass order (MapLibre's): opaque, then translucent, then overlays.
  public enum Pass: UInt8, Sendable {
    case opaque = 0
    case translucent = 1
    case overlay = 2
  }

  public let pass: Pass
  /// The layer's position in the style (lower first).
  public let layer: Int
  /// The order inside the layer (lower first).
  public let order: Int

  public init(pass: Pass, layer: Int, order: Int) {
    self.pass = pass
    self.layer = layer
    self.order = order
  }

  public static func < (a: SortKey, b: SortKey) -> Bool {
    (a.pass.rawValue, a.layer, a.order) < (b.pass.rawValue, b.layer, b.order)
  }
}

/// One draw: a pipeline, geometry, uniform values and an element range.
public struct DrawCommand: Sendable {
  public let key: SortKey
  public let pipeline: PipelineKind
  public let mesh: MeshReference
  /// Uniform values by name.
  public let uniforms: [(name: String, value: UniformValue)]
  /// First vertex (or index) and count; nil count draws the whole mesh.
  public let first: Int
  public let count: Int?
  public let instances: Int
  /// Textures bound to units 0, 1, … (held in the executor's ``GPUResourceCache``).
  public let textures: [TextureKey]
  /// The stencil reference compared or written by the pipeline's stencil mode.
  public let stencilReference: Int32?
  /// For bucket meshes drawn on the ground: how far (tile units) the drawn geometry may reach
  /// beyond its vertex positions (line widths, offsets, translations), so that the executor
  /// can skip runs of primitives outside the view. Nil: always drawn in full.
  public let cullMargin: Double?
  /// Window pixels the draw is limited to (origin bottom left), nil for the whole target: the
  /// clip of a tile in an unrotated, untilted view, instead of a stencil mask.
  public let scissor: PixelRect?

  public init(
    key: SortKey, pipeline: PipelineKind, mesh: MeshReference,
    uniforms: [(name: String, value: UniformValue)], first: Int = 0, count: Int? = nil,
    instances: Int = 1, textures: [TextureKey] = [], stencilReference: Int32? = nil, cullMargin: Double? = nil,
    scissor: PixelRect? = nil
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
    self.cullMargin = cullMargin
    self.scissor = scissor
  }
}

/// Everything one frame draws, in order. Building it is pure (no GL); ``FrameExecutor`` runs it.
public struct FramePlan: Sendable {
  /// Output size in pixels.
  public let pixelWidth: Int
  public let pixelHeight: Int
  /// The colour the frame is cleared to (straight alpha).
  public let clearColor: Color
  /// Draws sorted by ``SortKey``.
  public private(set) var commands: [DrawCommand]

  public init(pixelWidth: Int, pixelHeight: Int, clearColor: Color, commands: [DrawCommand]) {
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.clearColor = clearColor
    self.commands = commands.enumerated().sorted { a, b in
      a.element.key == b.element.key ? a.offset < b.offset : a.element.key < b.element.key
    }.map(\.element)
  }
}
