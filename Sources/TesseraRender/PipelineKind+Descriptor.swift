import TesseraGL

extension PipelineKind {
  /// The pipeline state of each kind.
  var descriptor: PipelineDescriptor {
    switch self {
    case .debugTileFill, .debugTileBorder:
      return PipelineDescriptor(
        program: "debug_grid", layout: BuiltinMeshData.layout, blend: .premultipliedOver,
        label: "\(self)")
    }
  }
}
