import CGLES3
import TesseraNumbers

/// A failure of an OpenGL ES call or resource, named by what failed.
package enum GLError: Error, Equatable, CustomStringConvertible {
  /// A GL call set an error code.
  case call(name: String, code: UInt32)
  /// A shader stage failed to compile.
  case shaderCompile(program: String, stage: String, log: String)
  /// A program failed to link.
  case programLink(program: String, log: String)
  /// No program of that name is embedded.
  case unknownProgram(String)
  /// A framebuffer is not complete.
  case framebufferIncomplete(status: UInt32)
  /// A render target or texture size outside what the device supports.
  case invalidSize(what: String, width: Int, height: Int, limit: Int)
  /// A multisample count the device cannot provide.
  case unsupportedSamples(requested: Int, maximum: Int)
  /// A pipeline enabling more clip planes (`gl_ClipDistance`) than the device has.
  case unsupportedClipDistances(program: String, requested: Int, maximum: Int)

  package var description: String {
    switch self {
    case .call(let name, let code):
      return "\(name) failed: \(GLError.name(of: code))"
    case .shaderCompile(let program, let stage, let log):
      return "shader '\(program)' (\(stage) stage) failed to compile: \(log)"
    case .programLink(let program, let log):
      return "program '\(program)' failed to link: \(log)"
    case .unknownProgram(let name):
      return "no shader program named '\(name)' is embedded"
    case .framebufferIncomplete(let status):
      return "framebuffer incomplete: \(GLError.name(of: status))"
    case .invalidSize(let what, let width, let height, let limit):
      return "\(what) size \(width)x\(height) is not allowed: each side must be 1...\(limit) pixels"
    case .unsupportedSamples(let requested, let maximum):
      return "\(requested)x multisampling requested, the device supports at most \(maximum)x"
    case .unsupportedClipDistances(let program, let requested, let maximum):
      return "program '\(program)' clips with \(requested) clip distances, the device has \(maximum)"
        + " (GL_EXT_clip_cull_distance)"
    }
  }

  /// The symbolic name of a GL error or framebuffer status code.
  package static func name(of code: UInt32) -> String {
    let names: [UInt32: String] = [
      0x0500: "GL_INVALID_ENUM", 0x0501: "GL_INVALID_VALUE", 0x0502: "GL_INVALID_OPERATION",
      0x0505: "GL_OUT_OF_MEMORY", 0x0506: "GL_INVALID_FRAMEBUFFER_OPERATION",
      0x0507: "GL_CONTEXT_LOST",
      0x8CD6: "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT",
      0x8CD7: "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT",
      0x8CD9: "GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS", 0x8CDD: "GL_FRAMEBUFFER_UNSUPPORTED",
      0x8D56: "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE", 0x8219: "GL_FRAMEBUFFER_UNDEFINED",
    ]
    return names[code] ?? "GL error 0x" + String(code, radix: 16, uppercase: true)
  }
}

/// The one place GL errors are checked.
///
/// Calls that allocate (buffers, textures, framebuffers) are checked in every build, since they
/// can fail at run time (`GL_OUT_OF_MEMORY`); per-draw state calls are checked in debug builds,
/// where an error means a bug in Tessera.
enum GLCheck {
  /// Throws the pending GL error, if any, naming `call` (written only then: uploads pass
  /// their sizes and labels).
  static func afterAllocation(_ call: @autoclosure () -> String) throws(GLError) {
    let code = glGetError()
    if code != GLenum(GL_NO_ERROR) {
      while glGetError() != GLenum(GL_NO_ERROR) {}
      throw GLError.call(name: call(), code: code)
    }
  }

  /// In debug builds, traps on a pending GL error naming `call`; free in release builds.
  @inline(__always)
  static func debug(_ call: StaticString) {
    #if DEBUG
      let code = glGetError()
      if code != GLenum(GL_NO_ERROR) {
        preconditionFailure("\(call) failed: \(GLError.name(of: code))")
      }
    #endif
  }
}
