import TesseraGL
import TesseraImage
import TesseraNumbers

/// One instance of the `symbol` program: a glyph or icon quad with all its four corners
/// need. The type owns both the layout the pipeline reads (``attributes(buffer:)``,
/// ``stride``) and the packing that writes it (``pack(into:)``); both follow ``Field``'s
/// order, so the layout is written once.
struct SymbolInstanceVertex: Equatable, Sendable {
  /// The quad's top-left corner in clip space (x, y, z, w).
  var topLeft: SIMD4<Float>
  /// The quad's top-right corner in clip space.
  var topRight: SIMD4<Float>
  /// The quad's bottom-left corner in clip space.
  var bottomLeft: SIMD4<Float>
  /// The quad's bottom-right corner in clip space.
  var bottomRight: SIMD4<Float>
  /// Where the glyph or image lies in its atlas: x0, y0, x1, y1, texels.
  var textureRect: SIMD4<Float>
  /// The fill colour, premultiplied and multiplied by the opacity (0…1 per channel).
  var fill: SIMD4<Float>
  /// The halo colour, premultiplied and multiplied by the opacity (0…1 per channel).
  var halo: SIMD4<Float>
  /// The distance field's parameters: the size's scale (a ratio), the halo's width and blur
  /// (points), and the edge's gamma scale (a ratio).
  var params: SIMD4<Float>

  /// The fields in the order they are packed, each with the shader input it feeds.
  enum Field: Int, CaseIterable {
    case topLeft, topRight, bottomLeft, bottomRight, textureRect, fill, halo, params

    /// The input's name in the `symbol` program.
    var attributeName: String {
      switch self {
      case .topLeft: return "a_top_left"
      case .topRight: return "a_top_right"
      case .bottomLeft: return "a_bottom_left"
      case .bottomRight: return "a_bottom_right"
      case .textureRect: return "a_texture_rect"
      case .fill: return "a_fill"
      case .halo: return "a_halo"
      case .params: return "a_params"
      }
    }

    /// Bytes from the start of an instance to the field.
    var offset: Int { rawValue * MemoryLayout<SIMD4<Float>>.size }
  }

  /// The field's value.
  subscript(field: Field) -> SIMD4<Float> {
    switch field {
    case .topLeft: return topLeft
    case .topRight: return topRight
    case .bottomLeft: return bottomLeft
    case .bottomRight: return bottomRight
    case .textureRect: return textureRect
    case .fill: return fill
    case .halo: return halo
    case .params: return params
    }
  }

  /// Floats per instance in the packed buffer.
  static let floatCount = Field.allCases.count * 4
  /// Bytes from one instance to the next.
  static let stride = floatCount * MemoryLayout<Float>.size

  /// The shader inputs of the fields, read from vertex buffer `buffer`, each a `float4`.
  static func attributes(buffer: Int) -> [VertexAttribute] {
    Field.allCases.map { VertexAttribute($0.attributeName, .float4, buffer: buffer, offset: $0.offset) }
  }

  /// The binding of the buffer that holds the instances: one instance per quad drawn.
  static var bufferLayout: VertexBufferLayout { VertexBufferLayout(stride: stride, stepRate: .perInstance) }

  /// How many instances `floats` packed floats hold.
  static func count(_ floats: Int) -> Int { floats / floatCount }

  /// Appends the instance to a packed buffer, its fields in ``Field``'s order.
  func pack(into floats: inout [Float]) {
    for field in Field.allCases {
      let value = self[field]
      floats.append(value.x)
      floats.append(value.y)
      floats.append(value.z)
      floats.append(value.w)
    }
  }
}

/// A quad's four corners in clip space (x, y, z, w).
struct QuadCorners {
  var topLeft: SIMD4<Double>
  var topRight: SIMD4<Double>
  var bottomLeft: SIMD4<Double>
  var bottomRight: SIMD4<Double>
}

extension SymbolInstanceVertex {
  /// An instance from its corners (clip space), its atlas rectangle (texels), its colours
  /// (straight alpha) with the opacity (0…1) they are drawn at, and its distance-field
  /// parameters.
  init(
    corners: QuadCorners, texture: SIMD4<Float>, fill: Color, halo: Color, opacity: Double, params: SIMD4<Float>
  ) {
    func narrow(_ v: SIMD4<Double>) -> SIMD4<Float> { SIMD4(Float(v.x), Float(v.y), Float(v.z), Float(v.w)) }
    let f = fill.premultiplied
    let h = halo.premultiplied
    self.init(
      topLeft: narrow(corners.topLeft), topRight: narrow(corners.topRight), bottomLeft: narrow(corners.bottomLeft),
      bottomRight: narrow(corners.bottomRight), textureRect: texture,
      fill: narrow(SIMD4(f.0, f.1, f.2, f.3) * opacity), halo: narrow(SIMD4(h.0, h.1, h.2, h.3) * opacity),
      params: params)
  }
}
