import CGLES3
import TesseraNumbers

/// Size limits of a GL device.
package struct DeviceLimits: Sendable, Equatable {
  /// `GL_MAX_TEXTURE_SIZE`, in texels.
  package let maxTextureSize: Int
  /// `GL_MAX_RENDERBUFFER_SIZE`, in pixels.
  package let maxRenderbufferSize: Int
  /// `GL_MAX_VIEWPORT_DIMS` width, in pixels.
  package let maxViewportWidth: Int
  /// `GL_MAX_VIEWPORT_DIMS` height, in pixels.
  package let maxViewportHeight: Int
  /// `GL_MAX_SAMPLES`.
  package let maxSamples: Int
  /// `GL_MAX_TEXTURE_IMAGE_UNITS` of the fragment stage.
  package let maxTextureUnits: Int
  /// `GL_MAX_VERTEX_ATTRIBS`.
  package let maxVertexAttributes: Int
  /// `GL_MAX_CLIP_DISTANCES_EXT` when the context has `GL_EXT_clip_cull_distance`, else 0:
  /// how many `gl_ClipDistance` planes a pipeline may enable.
  package let maxClipDistances: Int

  /// The largest render target side: the smallest of the renderbuffer and viewport limits.
  package var maxRenderTargetSize: Int { min(maxRenderbufferSize, maxViewportWidth, maxViewportHeight) }

  static func query() -> DeviceLimits {
    func integer(_ name: Int32) -> Int {
      var value: GLint = 0
      glGetIntegerv(GLenum(name), &value)
      return Int(value)
    }
    var viewport: [GLint] = [0, 0]
    glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
    var extensionCount: GLint = 0
    glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &extensionCount)
    let clipsByDistance = (0..<GLuint(max(extensionCount, 0))).contains { index in
      glGetStringi(GLenum(GL_EXTENSIONS), index).map { String(cString: $0) } == "GL_EXT_clip_cull_distance"
    }
    return DeviceLimits(
      maxTextureSize: integer(GL_MAX_TEXTURE_SIZE),
      maxRenderbufferSize: integer(GL_MAX_RENDERBUFFER_SIZE),
      maxViewportWidth: Int(viewport[0]), maxViewportHeight: Int(viewport[1]),
      maxSamples: integer(GL_MAX_SAMPLES), maxTextureUnits: min(integer(GL_MAX_TEXTURE_IMAGE_UNITS), 16),
      maxVertexAttributes: min(integer(GL_MAX_VERTEX_ATTRIBS), 16),
      maxClipDistances: clipsByDistance ? min(integer(GL_MAX_CLIP_DISTANCES_EXT), 8) : 0)
  }
}

/// What a GL device is: driver strings and limits.
package struct DeviceInfo: Sendable, Equatable {
  /// `GL_RENDERER`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
  package let renderer: String
  /// `GL_VENDOR`.
  package let vendor: String
  /// `GL_VERSION`, e.g. "OpenGL ES 3.2 Mesa 22.3.6".
  package let version: String
  /// `GL_SHADING_LANGUAGE_VERSION`.
  package let shadingLanguageVersion: String
  /// The EGL platform and device the context runs on.
  package let platform: String
  package let limits: DeviceLimits

  /// Whether the renderer is a software rasterizer (llvmpipe, softpipe, swrast).
  package var isSoftware: Bool {
    let name = renderer.lowercased()
    return name.contains("llvmpipe") || name.contains("softpipe") || name.contains("swrast")
  }

  /// The driver strings a stored program binary must have been made with: vendor, renderer,
  /// version and shading language version, one a line.
  package var programBinaryDriver: String {
    [vendor, renderer, version, shadingLanguageVersion].joined(separator: "\n")
  }

  static func query(platform: String) -> DeviceInfo {
    func string(_ name: Int32) -> String {
      guard let pointer = glGetString(GLenum(name)) else { return "unknown" }
      return String(cString: pointer)
    }
    return DeviceInfo(
      renderer: string(GL_RENDERER), vendor: string(GL_VENDOR), version: string(GL_VERSION),
      shadingLanguageVersion: string(GL_SHADING_LANGUAGE_VERSION), platform: platform,
      limits: .query())
  }
}

/// Counters of the work a device did since ``GLDevice/resetStatistics()``.
package struct DeviceStatistics: Sendable, Equatable {
  /// Draw calls issued.
  package var drawCalls = 0
  /// Triangles submitted (instances × triangles per instance).
  package var triangles = 0
  /// Bytes uploaded to buffers and textures.
  package var uploadedBytes = 0
  /// Flushes asked for part-way through frames (``GLDevice/flush()``, ``GLDevice/flushTracked()``).
  package var flushes = 0

  package init() {}
}
