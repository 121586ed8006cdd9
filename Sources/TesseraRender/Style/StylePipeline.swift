import TesseraGL
import TesseraNumbers

/// A shader program of style layers with its vertex layout, paint bindings and fixed state,
/// declared once by the layer renderer that draws with it (for example
/// ``LineLayerRenderer/program``). Programs are told apart by name.
package struct StyleProgram: Sendable, Hashable, CustomStringConvertible {
  /// The embedded program (see `ShaderLibrary`).
  package let name: String
  /// Bytes per vertex of the geometry buffer (buffer 0).
  let vertexStride: Int
  /// The attributes read from the geometry buffer.
  let attributes: [VertexAttribute]
  /// Paint properties that may come per vertex from a second buffer (nil: no paint buffer).
  let paint: [PaintBinding]?
  let primitive: PrimitiveType
  let indexType: IndexType
  let blend: BlendMode
  /// The stencil mode when the draw is not clipped to its tile.
  let stencil: StencilMode
  let cull: CullMode
  let writesColor: Bool
  /// GL line width in pixels (`.lines` programs).
  let lineWidth: Float
  /// Bytes per instance of a per-instance buffer after the geometry buffer (0: not instanced;
  /// an instanced program has no paint buffer).
  let instanceStride: Int
  /// The attributes read from the instance buffer (buffer 1).
  let instanceAttributes: [VertexAttribute]
  /// Switches whose variants read the same fragment inputs as the program without them (a
  /// line's dashes: solid lines read the dash inputs too), so ``PaintVaryings`` compares their
  /// paint with the others'.
  let switchesKeepingInputs: Set<String>

  init(
    name: String, vertexStride: Int, attributes: [VertexAttribute], paint: [PaintBinding]? = nil,
    primitive: PrimitiveType = .triangles, indexType: IndexType = .none, blend: BlendMode = .premultipliedOver,
    stencil: StencilMode = .disabled, cull: CullMode = .none, writesColor: Bool = true, lineWidth: Float = 1,
    instanceStride: Int = 0, instanceAttributes: [VertexAttribute] = [], switchesKeepingInputs: Set<String> = []
  ) {
    precondition(instanceStride == 0 || paint == nil, "an instanced style program has no paint buffer")
    self.name = name
    self.vertexStride = vertexStride
    self.attributes = attributes
    self.paint = paint
    self.primitive = primitive
    self.indexType = indexType
    self.blend = blend
    self.stencil = stencil
    self.cull = cull
    self.writesColor = writesColor
    self.lineWidth = lineWidth
    self.instanceStride = instanceStride
    self.instanceAttributes = instanceAttributes
    self.switchesKeepingInputs = switchesKeepingInputs
  }

  package var description: String { name }

  package static func == (a: StyleProgram, b: StyleProgram) -> Bool { a.name == b.name }

  package func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// The tile clip masks: the unit square written into the stencil buffer only.
  static let clip = StyleProgram(
    name: "clip", vertexStride: 12, attributes: [VertexAttribute("a_position", .float2)], blend: .replace,
    stencil: StencilMode(test: .always, writeReference: true), writesColor: false)
}

/// The pipeline of a style layer's draw: the program, which paint properties come from vertex
/// attributes, the program's switches, and how the draw uses the stencil and depth buffers.
package struct StylePipeline: PipelineVariant {
  /// How a draw uses the depth buffer.
  package enum Depth: Sendable, Hashable {
    /// No depth test (2D layers).
    case none
    /// Tested, not written.
    case tested
    /// Tested and written (extrusions).
    case written
  }

  package var program: StyleProgram
  /// Data-driven paint properties read from the bucket's paint buffer.
  package var mask: PaintMask
  /// The program's switches defined for this variant (`#define NAME 1`), sorted: `DASHED`
  /// lines, `NEAREST` or `PLAIN` rasters, `PATTERN` extrusions, `PAINT_VARYINGS` (added to
  /// every draw of the programs a style chooses, see ``PaintVaryings``).
  package var switches: [String]
  /// Whether fragments outside the draw's tile are discarded (stencil test `equal`).
  package var clipped: Bool
  /// Whether the vertex stage clips the geometry to the draw's area (`u_tile_clip`, four
  /// `gl_ClipDistance` planes): how tiles are clipped in rotated and tilted views on devices
  /// with `GL_EXT_clip_cull_distance`, with no stencil masks.
  package var clipPlanes: Bool
  package var depth: Depth
  /// Whether fragments replace the target's colour instead of blending over it: translucent
  /// extrusions drawn opaque into a target of their own, where the nearest surface's colour
  /// is the one kept.
  package var replacesColor: Bool
  /// Whether fragments passing the depth test write 1 into the stencil buffer (marking the
  /// samples a translucent extrusion layer covers).
  package var marksStencil: Bool

  package init(
    program: StyleProgram, mask: PaintMask = [], switches: [String] = [], clipped: Bool = false,
    clipPlanes: Bool = false, depth: Depth = .none, replacesColor: Bool = false, marksStencil: Bool = false
  ) {
    self.program = program
    self.mask = mask
    self.switches = switches.sorted()
    self.clipped = clipped
    self.clipPlanes = clipPlanes
    self.depth = depth
    self.replacesColor = replacesColor
    self.marksStencil = marksStencil
  }

  /// The pipeline drawing tile clip masks.
  static let clip = StylePipeline(program: .clip)

  /// This variant, clipped to its tile or not.
  func clipped(_ clipped: Bool) -> StylePipeline {
    var copy = self
    copy.clipped = clipped
    return copy
  }

  package var description: String {
    ([program.name] + switches + (clipped ? ["clipped"] : []) + (clipPlanes ? ["clip planes"] : [])
      + (replacesColor ? ["replacing"] : []) + (marksStencil ? ["marking"] : [])
      + (mask.isEmpty ? [] : ["mask \(mask.rawValue)"]))
      .joined(separator: " ")
  }

  package var descriptor: PipelineDescriptor {
    var buffers = [VertexBufferLayout(stride: program.vertexStride)]
    var attributes = program.attributes
    var defines: [String: String] = [:]
    if let bindings = program.paint {
      let paint = PaintBinding.attributes(bindings, mask: mask, buffer: 1)
      buffers.append(VertexBufferLayout(stride: max(paint.stride, 4)))
      attributes += paint.attributes
      defines = PaintBinding.defines(bindings, mask: mask)
    }
    if program.instanceStride > 0 {
      buffers.append(VertexBufferLayout(stride: program.instanceStride, stepRate: .perInstance))
      attributes += program.instanceAttributes
    }
    for name in switches { defines[name] = "1" }
    var stencil = clipped ? StencilMode(test: .equal) : program.stencil
    if marksStencil { stencil = StencilMode(test: .always, reference: 1, writeReference: true) }
    let depthMode: DepthMode
    switch depth {
    case .none: depthMode = .disabled
    case .tested: depthMode = .readOnly
    case .written: depthMode = .readWrite
    }
    return PipelineDescriptor(
      program: program.name, defines: defines, layout: VertexLayout(buffers: buffers, attributes: attributes),
      primitive: program.primitive, indexType: program.indexType, blend: replacesColor ? .replace : program.blend,
      depth: depthMode, stencil: stencil, cull: program.cull, writesColor: program.writesColor,
      lineWidth: program.lineWidth, clipDistances: clipPlanes ? 4 : 0, label: description)
  }
}
