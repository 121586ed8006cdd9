import CGLES3
import TesseraNumbers

/// Translations from Tessera's descriptor values to GL enums.
extension CompareFunction {
  var glValue: GLenum {
    switch self {
    case .never: return GLenum(GL_NEVER)
    case .less: return GLenum(GL_LESS)
    case .equal: return GLenum(GL_EQUAL)
    case .lessEqual: return GLenum(GL_LEQUAL)
    case .greater: return GLenum(GL_GREATER)
    case .notEqual: return GLenum(GL_NOTEQUAL)
    case .greaterEqual: return GLenum(GL_GEQUAL)
    case .always: return GLenum(GL_ALWAYS)
    }
  }
}

extension PrimitiveType {
  var glValue: GLenum {
    switch self {
    case .triangles: return GLenum(GL_TRIANGLES)
    case .triangleStrip: return GLenum(GL_TRIANGLE_STRIP)
    case .lines: return GLenum(GL_LINES)
    }
  }

  /// Triangles drawn for `count` vertices or indices (for statistics).
  func triangles(forElements count: Int) -> Int {
    switch self {
    case .triangles: return count / 3
    case .triangleStrip: return max(count - 2, 0)
    case .lines: return 0
    }
  }
}

extension IndexType {
  var glValue: GLenum {
    switch self {
    case .none, .uint16: return GLenum(GL_UNSIGNED_SHORT)
    case .uint32: return GLenum(GL_UNSIGNED_INT)
    }
  }
}

extension VertexFormat {
  /// The GL component type and whether integers are normalised.
  var glType: (type: GLenum, normalized: Bool) {
    switch self {
    case .float, .float2, .float3, .float4: return (GLenum(GL_FLOAT), false)
    case .short2, .short4: return (GLenum(GL_SHORT), false)
    case .ubyte4Normalized: return (GLenum(GL_UNSIGNED_BYTE), true)
    }
  }
}

extension BufferKind {
  var glTarget: GLenum {
    switch self {
    case .vertex: return GLenum(GL_ARRAY_BUFFER)
    case .index: return GLenum(GL_ELEMENT_ARRAY_BUFFER)
    }
  }
}

extension BufferUsage {
  var glValue: GLenum {
    switch self {
    case .immutable: return GLenum(GL_STATIC_DRAW)
    case .dynamic: return GLenum(GL_DYNAMIC_DRAW)
    case .stream: return GLenum(GL_STREAM_DRAW)
    }
  }
}

extension TextureFormat {
  /// Internal format, format and bytes per texel.
  var glFormats: (internal: GLint, format: GLenum, type: GLenum, bytes: Int) {
    switch self {
    case .rgba8: return (GLint(GL_RGBA8), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), 4)
    case .r8: return (GLint(GL_R8), GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), 1)
    case .rgba16Float: return (GLint(GL_RGBA16F), GLenum(GL_RGBA), GLenum(GL_HALF_FLOAT), 8)
    }
  }
}
