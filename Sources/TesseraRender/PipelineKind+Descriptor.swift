import TesseraGL

extension PipelineKind {
  /// The pipeline state of each kind.
  var descriptor: PipelineDescriptor {
    switch self {
    case .debugTileFill, .debugTileBorder:
      return PipelineDescriptor(
        program: "debug_grid",
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 12)],
          attributes: [VertexAttribute("a_position", .float2), VertexAttribute("a_inner", .float, offset: 8)]),
        label: "\(self)")
    case .sky:
      return PipelineDescriptor(
        program: "sky",
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)]),
        depth: .readOnly, label: "sky")
    case .points:
      return PipelineDescriptor(
        program: "points",
        layout: VertexLayout(
          buffers: [
            VertexBufferLayout(stride: 8),
            VertexBufferLayout(stride: PointsLayer.instanceStride, stepRate: .perInstance),
          ],
          attributes: [
            VertexAttribute("a_corner", .float2, buffer: 0),
            VertexAttribute("a_position", .float2, buffer: 1, offset: 0),
            VertexAttribute("a_color", .ubyte4Normalized, buffer: 1, offset: 8),
          ]),
        primitive: .triangleStrip, label: "points")
    case .style(let pipeline):
      return pipeline.descriptor
    case .markers(let flat, let exact):
      var defines: [String: String] = [:]
      if flat { defines["FLAT"] = "1" }
      if exact { defines["EXACT"] = "1" }
      return PipelineDescriptor(
        program: "marker", defines: defines,
        layout: VertexLayout(
          buffers: [
            VertexBufferLayout(stride: 8),
            VertexBufferLayout(stride: MarkerRenderer.floatsPerInstance * 4, stepRate: .perInstance),
          ],
          attributes: [
            VertexAttribute("a_corner", .float2, buffer: 0),
            VertexAttribute("a_position", .float4, buffer: 1, offset: 0),
            VertexAttribute("a_size_anchor", .float4, buffer: 1, offset: 16),
            VertexAttribute("a_texture_rect", .float4, buffer: 1, offset: 32),
            VertexAttribute("a_style", .float4, buffer: 1, offset: 48),
            VertexAttribute("a_part", .float4, buffer: 1, offset: 64),
            VertexAttribute("a_pixel", .float4, buffer: 1, offset: 80),
          ]),
        primitive: .triangleStrip, label: flat ? "markers flat" : "markers")
    case .clearStencil:
      preconditionFailure("\(self) is not a pipeline")
    }
  }
}
