import TesseraGL

/// The pipeline of a style layer's draw: which program, which paint properties come from
/// vertex attributes, and whether the draw is clipped to its tile by the stencil buffer.
public struct StylePipeline: Sendable, Hashable {
  /// The programs of style layers.
  public enum Program: String, Sendable, Hashable {
    case background
    /// Tile clip masks (stencil only).
    case clip
    case fill
    /// Antialiased fill edges (GL lines).
    case fillOutline = "fill_outline"
    case line
    case circle
    case raster
    case hillshade
    case fillExtrusion = "fill_extrusion"
  }

  /// How a draw uses the depth buffer.
  public enum Depth: Sendable, Hashable {
    /// No depth test (2D layers).
    case none
    /// Tested, not written.
    case tested
    /// Tested and written (extrusions).
    case written
  }

  public var program: Program
  /// Data-driven paint properties read from the bucket's paint buffer.
  public var mask: PaintMask
  /// Lines with a dash pattern.
  public var dashed: Bool
  /// Whether fragments outside the draw's tile are discarded (stencil test `equal`).
  public var clipped: Bool
  /// Rasters sampled at the nearest texel instead of linearly.
  public var nearest: Bool
  /// Rasters drawn as they are: every colour paint property at its default (no hue,
  /// saturation, contrast or brightness arithmetic per pixel).
  public var plain: Bool
  public var depth: Depth
  /// Whether colour is written (false: the depth-only first pass of translucent extrusions).
  public var writesColor: Bool
  /// Each pixel coloured once (stencil not-equal, then written): the second pass of
  /// translucent extrusions, so overlapping buildings do not blend twice.
  public var oncePerPixel: Bool

  public init(
    program: Program, mask: PaintMask = [], dashed: Bool = false, clipped: Bool = false, nearest: Bool = false,
    plain: Bool = false, depth: Depth = .none, writesColor: Bool = true, oncePerPixel: Bool = false
  ) {
    self.program = program
    self.mask = mask
    self.dashed = dashed
    self.clipped = clipped
    self.nearest = nearest
    self.plain = plain
    self.depth = depth
    self.writesColor = writesColor
    self.oncePerPixel = oncePerPixel
  }

  /// The paint bindings of the program (empty for programs without per-vertex paint).
  var bindings: [PaintBinding] {
    switch program {
    case .fill: return PaintBinding.fill
    case .fillOutline: return PaintBinding.fill
    case .line: return PaintBinding.line
    case .circle: return PaintBinding.circle
    case .fillExtrusion: return PaintBinding.fillExtrusion
    case .background, .clip, .raster, .hillshade: return []
    }
  }

  var descriptor: PipelineDescriptor {
    var descriptor = baseDescriptor
    switch depth {
    case .none: descriptor.depth = .disabled
    case .tested: descriptor.depth = .readOnly
    case .written: descriptor.depth = .readWrite
    }
    descriptor.writesColor = descriptor.writesColor && writesColor
    if oncePerPixel { descriptor.stencil = StencilMode(test: .notEqual, reference: 1, writeReference: true) }
    return descriptor
  }

  private var baseDescriptor: PipelineDescriptor {
    let stencil = clipped ? StencilMode(test: .equal) : .disabled
    var defines = PaintBinding.defines(bindings, mask: mask)
    if dashed { defines["DASHED"] = "1" }
    if nearest { defines["NEAREST"] = "1" }
    if plain { defines["PLAIN"] = "1" }
    if program == .fillExtrusion && !writesColor { defines["DEPTH_ONLY"] = "1" }
    let paint = PaintBinding.attributes(bindings, mask: mask, buffer: 1)
    let paintBuffer = VertexBufferLayout(stride: max(paint.stride, 4))
    switch program {
    case .background:
      return PipelineDescriptor(
        program: program.rawValue,
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)]),
        label: "background")
    case .clip:
      return PipelineDescriptor(
        program: program.rawValue,
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 12)], attributes: [VertexAttribute("a_position", .float2)]),
        blend: .replace, stencil: StencilMode(test: .always, writeReference: true), writesColor: false,
        label: "clip")
    case .raster, .hillshade:
      return PipelineDescriptor(
        program: program.rawValue, defines: defines,
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 12)], attributes: [VertexAttribute("a_position", .float2)]),
        stencil: stencil, label: program.rawValue)
    case .fill, .fillOutline:
      return PipelineDescriptor(
        program: program.rawValue, defines: defines,
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8), paintBuffer],
          attributes: [VertexAttribute("a_pos", .float2)] + paint.attributes),
        primitive: program == .fill ? .triangles : .lines, indexType: .uint32, stencil: stencil, lineWidth: 2,
        label: program.rawValue)
    case .line:
      return PipelineDescriptor(
        program: program.rawValue, defines: defines,
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 32), paintBuffer],
          attributes: [
            VertexAttribute("a_pos", .float2), VertexAttribute("a_normal", .float2, offset: 8),
            VertexAttribute("a_extrude", .float2, offset: 16), VertexAttribute("a_data", .float2, offset: 24),
          ] + paint.attributes),
        indexType: .uint32, stencil: stencil, label: "line")
    case .circle:
      return PipelineDescriptor(
        program: program.rawValue, defines: defines,
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 16), paintBuffer],
          attributes: [VertexAttribute("a_pos", .float2), VertexAttribute("a_extrude", .float2, offset: 8)]
            + paint.attributes),
        indexType: .uint32, stencil: stencil, label: "circle")
    case .fillExtrusion:
      return PipelineDescriptor(
        program: program.rawValue, defines: defines,
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 28), paintBuffer],
          attributes: [
            VertexAttribute("a_pos", .float2), VertexAttribute("a_normal", .float3, offset: 8),
            VertexAttribute("a_data", .float2, offset: 20),
          ] + paint.attributes),
        indexType: .uint32, cull: .back, label: "fill_extrusion")
    }
  }
}
