import TesseraImage
import TesseraNumbers

/// What a buffer holds.
package enum BufferKind: Sendable {
  /// Vertex attributes (`GL_ARRAY_BUFFER`).
  case vertex
  /// Indices into vertex buffers (`GL_ELEMENT_ARRAY_BUFFER`).
  case index
}

/// How often a buffer's contents change.
package enum BufferUsage: Sendable {
  /// Written once, drawn many times (`GL_STATIC_DRAW`).
  case immutable
  /// Rewritten now and then (`GL_DYNAMIC_DRAW`).
  case dynamic
  /// Rewritten every frame (`GL_STREAM_DRAW`).
  case stream
}

/// Describes a buffer to create.
package struct BufferDescriptor: Sendable {
  package var kind: BufferKind
  package var usage: BufferUsage
  /// A name shown in errors.
  package var label: ResourceLabel

  package init(kind: BufferKind, usage: BufferUsage = .immutable, label: ResourceLabel = "") {
    self.kind = kind
    self.usage = usage
    self.label = label
  }
}

/// Texel formats of textures.
package enum TextureFormat: Sendable {
  /// Four 8-bit channels.
  case rgba8
  /// One 8-bit channel (read as `.r` in shaders).
  case r8
  /// Four 16-bit floating-point channels (for accumulating values beyond 0…1, such as
  /// heatmap densities; rendering into it needs `EXT_color_buffer_float` or
  /// `EXT_color_buffer_half_float`).
  case rgba16Float
}

/// Texture sampling filter.
package enum TextureFilter: Sendable {
  case nearest
  case linear
  /// Linear within and between mipmap levels (mipmaps are generated on upload).
  case trilinear
}

/// Texture addressing outside 0...1.
package enum TextureWrap: Sendable {
  case clampToEdge
  case `repeat`
  /// Repeats across (s), clamps down (t): a pattern along a line.
  case repeatAcross
}

/// Describes a 2D texture to create.
package struct TextureDescriptor: Sendable {
  /// Size in texels.
  package var width: Int
  package var height: Int
  package var format: TextureFormat
  package var filter: TextureFilter
  package var wrap: TextureWrap
  /// A name shown in errors.
  package var label: ResourceLabel

  package init(
    width: Int, height: Int, format: TextureFormat = .rgba8, filter: TextureFilter = .linear,
    wrap: TextureWrap = .clampToEdge, label: ResourceLabel = ""
  ) {
    self.width = width
    self.height = height
    self.format = format
    self.filter = filter
    self.wrap = wrap
    self.label = label
  }
}

/// The format of one vertex attribute in a buffer.
package enum VertexFormat: Sendable {
  case float
  case float2
  case float3
  case float4
  /// Two signed 16-bit integers, read as floats without normalisation (tile coordinates).
  case short2
  /// Four signed 16-bit integers, read as floats without normalisation.
  case short4
  /// Four unsigned bytes normalised to 0...1 (colours).
  case ubyte4Normalized

  var components: Int32 {
    switch self {
    case .float: return 1
    case .float2, .short2: return 2
    case .float3: return 3
    case .float4, .short4, .ubyte4Normalized: return 4
    }
  }

  /// Bytes one value takes.
  var byteSize: Int {
    switch self {
    case .float, .ubyte4Normalized: return 4
    case .float2, .short4: return 8
    case .float3: return 12
    case .float4: return 16
    case .short2: return 4
    }
  }
}

/// Whether a vertex buffer advances per vertex or per instance.
package enum VertexStepRate: Sendable {
  case perVertex
  case perInstance
}

/// The stride and step rate of one vertex buffer binding.
package struct VertexBufferLayout: Sendable {
  /// Bytes from one element to the next.
  package var stride: Int
  package var stepRate: VertexStepRate

  package init(stride: Int, stepRate: VertexStepRate = .perVertex) {
    self.stride = stride
    self.stepRate = stepRate
  }
}

/// One shader input: its name in GLSL, format, buffer binding index and byte offset.
package struct VertexAttribute: Sendable {
  package var name: String
  package var format: VertexFormat
  package var buffer: Int
  package var offset: Int

  package init(_ name: String, _ format: VertexFormat, buffer: Int = 0, offset: Int = 0) {
    self.name = name
    self.format = format
    self.buffer = buffer
    self.offset = offset
  }
}

/// How vertex buffers feed a pipeline's program.
package struct VertexLayout: Sendable {
  package var buffers: [VertexBufferLayout]
  package var attributes: [VertexAttribute]

  package init(buffers: [VertexBufferLayout], attributes: [VertexAttribute]) {
    self.buffers = buffers
    self.attributes = attributes
  }
}

/// The primitive type a pipeline draws.
package enum PrimitiveType: Sendable {
  case triangles
  case triangleStrip
  case lines
}

/// The type of index buffer elements, or none for non-indexed drawing.
package enum IndexType: Sendable {
  case none
  case uint16
  case uint32

  var byteSize: Int {
    switch self {
    case .none: return 0
    case .uint16: return 2
    case .uint32: return 4
    }
  }
}

/// A depth or stencil comparison.
package enum CompareFunction: Sendable {
  case never, less, equal, lessEqual, greater, notEqual, greaterEqual, always
}

/// Colour blending of a pipeline. Tessera blends premultiplied colour throughout.
package enum BlendMode: Sendable, Equatable {
  /// No blending: the fragment replaces the destination.
  case replace
  /// `src + dst · (1 − src.a)` for colour and alpha (premultiplied "over").
  case premultipliedOver
  /// `src + dst` (accumulation, as of heatmap kernels).
  case additive
}

/// Depth testing and writing of a pipeline.
package struct DepthMode: Sendable, Equatable {
  /// The comparison, or nil to disable the depth test.
  package var test: CompareFunction?
  /// Whether passing fragments write depth.
  package var write: Bool

  package init(test: CompareFunction?, write: Bool) {
    self.test = test
    self.write = write
  }

  /// No depth test, no depth writes.
  package static let disabled = DepthMode(test: nil, write: false)
  /// Test `lessEqual` and write.
  package static let readWrite = DepthMode(test: .lessEqual, write: true)
  /// Test `lessEqual` without writing.
  package static let readOnly = DepthMode(test: .lessEqual, write: false)
}

/// Stencil testing of a pipeline (one reference value, replace on pass).
package struct StencilMode: Sendable, Equatable {
  /// The comparison of `reference` against the buffer, or nil to disable stencil.
  package var test: CompareFunction?
  package var reference: Int32
  package var readMask: UInt32
  /// Whether passing fragments write `reference` into the stencil buffer.
  package var writeReference: Bool

  package init(test: CompareFunction?, reference: Int32 = 0, readMask: UInt32 = 0xFF, writeReference: Bool = false) {
    self.test = test
    self.reference = reference
    self.readMask = readMask
    self.writeReference = writeReference
  }

  /// Stencil off.
  package static let disabled = StencilMode(test: nil)
}

/// Face culling of a pipeline (front faces are counter-clockwise in GL's window space).
package enum CullMode: Sendable {
  case none
  case back
  case front
}

/// Everything a draw needs besides its buffers, textures and uniform values: the program and
/// all fixed-function state, baked once.
package struct PipelineDescriptor: Sendable {
  /// The embedded program's name (see `ShaderLibrary`).
  package var program: String
  /// `#define`s prepended to both stages (name → value).
  package var defines: [String: String]
  package var layout: VertexLayout
  package var primitive: PrimitiveType
  package var indexType: IndexType
  package var blend: BlendMode
  package var depth: DepthMode
  package var stencil: StencilMode
  package var cull: CullMode
  /// Whether colour is written (false for depth- or stencil-only passes).
  package var writesColor: Bool
  /// Width of GL lines in pixels (`.lines` pipelines).
  package var lineWidth: Float
  /// How many `gl_ClipDistance` planes the vertex stage writes and the pipeline enables (0:
  /// none). Above 0 the program is compiled with `GL_EXT_clip_cull_distance` enabled and
  /// `CLIP_DISTANCES` defined; making the pipeline fails on a device with fewer planes
  /// (``DeviceLimits/maxClipDistances``).
  package var clipDistances: Int
  package var label: String

  package init(
    program: String, defines: [String: String] = [:], layout: VertexLayout,
    primitive: PrimitiveType = .triangles, indexType: IndexType = .none,
    blend: BlendMode = .premultipliedOver, depth: DepthMode = .disabled,
    stencil: StencilMode = .disabled, cull: CullMode = .none, writesColor: Bool = true,
    lineWidth: Float = 1, clipDistances: Int = 0, label: String = ""
  ) {
    self.program = program
    self.defines = defines
    self.layout = layout
    self.primitive = primitive
    self.indexType = indexType
    self.blend = blend
    self.depth = depth
    self.stencil = stencil
    self.cull = cull
    self.writesColor = writesColor
    self.lineWidth = lineWidth
    self.clipDistances = clipDistances
    self.label = label
  }

  /// Whether its draws read or write the depth or the stencil buffer (with both tests off they
  /// touch neither, whatever the write masks say).
  package var usesDepthOrStencil: Bool { depth.test != nil || stencil.test != nil }
}

/// Describes an offscreen render target: colour RGBA8, optional depth+stencil, optional MSAA.
package struct RenderTargetDescriptor: Sendable {
  /// Size in pixels.
  package var width: Int
  package var height: Int
  /// 1 (no multisampling) or 4 (4× MSAA, resolved at the end of each pass).
  package var samples: Int
  /// Whether a 24-bit depth + 8-bit stencil buffer is attached.
  package var depthStencil: Bool

  package init(width: Int, height: Int, samples: Int = 1, depthStencil: Bool = true) {
    self.width = width
    self.height = height
    self.samples = samples
    self.depthStencil = depthStencil
  }
}

/// What happens to a render target's contents when a pass begins.
package struct PassAction: Sendable {
  /// Clear colour (straight alpha; cleared premultiplied), or nil to keep the contents.
  package var clearColor: Color?
  /// Depth clear value (0...1), or nil to keep.
  package var clearDepth: Double?
  /// Stencil clear value, or nil to keep.
  package var clearStencil: Int32?

  package init(clearColor: Color? = nil, clearDepth: Double? = 1, clearStencil: Int32? = 0) {
    self.clearColor = clearColor
    self.clearDepth = clearDepth
    self.clearStencil = clearStencil
  }
}

/// The buffers and textures a draw reads.
package struct Bindings: Sendable {
  /// One buffer per binding of the pipeline's ``VertexLayout``, in order.
  package var vertexBuffers: [BufferHandle]
  /// Byte offsets into each vertex buffer (defaults to 0).
  package var vertexBufferOffsets: [Int]
  /// The index buffer for indexed pipelines.
  package var indexBuffer: BufferHandle?
  /// Textures bound to units 0, 1, …
  package var textures: [TextureHandle]

  package init(
    vertexBuffers: [BufferHandle], vertexBufferOffsets: [Int] = [], indexBuffer: BufferHandle? = nil,
    textures: [TextureHandle] = []
  ) {
    self.vertexBuffers = vertexBuffers
    self.vertexBufferOffsets = vertexBufferOffsets
    self.indexBuffer = indexBuffer
    self.textures = textures
  }
}

/// A value for a uniform of the applied pipeline's program.
package enum UniformValue: Sendable, Equatable {
  case float(Float)
  case vec2(Float, Float)
  case vec3(Float, Float, Float)
  case vec4(Float, Float, Float, Float)
  case int(Int32)
  /// 16 floats, column-major.
  case mat4([Float])
}

/// A rectangle of window pixels: origin at the bottom left, as GL counts them.
package struct PixelRect: Sendable, Hashable {
  package var x: Int32
  package var y: Int32
  package var width: Int32
  package var height: Int32

  package init(x: Int32, y: Int32, width: Int32, height: Int32) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}
