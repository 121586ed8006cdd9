import CGLES3
import TesseraShaders
import Testing

@testable import TesseraGL

/// What a program's fragment stage reads, for tests of programs that read inputs to no effect
/// so that llvmpipe draws them with the triangle-setup function of another program (it makes
/// one per distinct set of fragment inputs, several milliseconds of a first frame each).
enum FragmentInputsProbe {
  /// The inputs the fragment stage of `program` with `switches` declares (name → GL type),
  /// compiled alone as a separable program (which keeps every declared input: the other stage
  /// is not known).
  static func declaredInputs(_ program: String, _ switches: [String]) throws -> [String: GLenum] {
    let device = try GLDevice(gpu: .surfaceless)
    defer { withExtendedLifetime(device) {} }
    let defines = Dictionary(uniqueKeysWithValues: switches.map { ($0, "1") })
    let source = try #require(ShaderLibrary.source(of: program, defines: defines)).fragment
    let separable = source.withCString { text in
      withUnsafePointer(to: text) { glCreateShaderProgramv(GLenum(GL_FRAGMENT_SHADER), 1, $0) }
    }
    defer { glDeleteProgram(separable) }
    var linked: GLint = 0
    glGetProgramiv(separable, GLenum(GL_LINK_STATUS), &linked)
    var log = [GLchar](repeating: 0, count: 4096)
    glGetProgramInfoLog(separable, GLsizei(log.count), nil, &log)
    try #require(linked == GL_TRUE, "\(program) \(switches): \(text(log))")
    var count: GLint = 0
    glGetProgramInterfaceiv(separable, GLenum(GL_PROGRAM_INPUT), GLenum(GL_ACTIVE_RESOURCES), &count)
    var inputs: [String: GLenum] = [:]
    for index in 0..<GLuint(count) {
      var name = [GLchar](repeating: 0, count: 256)
      glGetProgramResourceName(separable, GLenum(GL_PROGRAM_INPUT), index, GLsizei(name.count), nil, &name)
      var property = GLenum(GL_TYPE)
      var type: GLint = 0
      glGetProgramResourceiv(separable, GLenum(GL_PROGRAM_INPUT), index, 1, &property, 1, nil, &type)
      inputs[text(name)] = GLenum(type)
    }
    #expect(glGetError() == GLenum(GL_NO_ERROR))
    return inputs
  }

  /// The first pixel (RGBA bytes) the fragment stage of `program` with `switches` writes over
  /// a 4×4 target, fed by `vertex` (a vertex stage reading `a_position`, a full-view square in
  /// clip space) after the library's header; `setUniforms` sets the linked program's uniforms.
  static func firstPixel(
    _ program: String, _ switches: [String], vertex: String, setUniforms: (GLProgram) throws -> Void
  ) throws -> [UInt8] {
    let device = try GLDevice(gpu: .surfaceless)
    let defines = Dictionary(uniqueKeysWithValues: switches.map { ($0, "1") })
    let source = try #require(ShaderLibrary.source(of: program, defines: defines))
    // The library's header (version, precisions, defines), then the probe's vertex stage.
    let header = source.vertex.dropLast(try #require(ShaderLibrary.program(named: program)).vertex.count)
    let linked = try GLProgram.linked(vertex: header + vertex, fragment: source.fragment, name: "\(program) probe")
    defer { glDeleteProgram(linked.id) }
    let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 4, height: 4))
    device.beginPass(target, action: PassAction(clearColor: .transparent))
    glUseProgram(linked.id)
    try setUniforms(linked)
    // Its own vertex array and buffer, so the device's record of its bindings stays true.
    var vertexArray: GLuint = 0
    var buffer: GLuint = 0
    glGenVertexArrays(1, &vertexArray)
    glGenBuffers(1, &buffer)
    defer {
      glDeleteVertexArrays(1, &vertexArray)
      glDeleteBuffers(1, &buffer)
    }
    glBindVertexArray(vertexArray)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
    let square: [Float] = [-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1]
    glBufferData(GLenum(GL_ARRAY_BUFFER), square.count * 4, square, GLenum(GL_STATIC_DRAW))
    let position = GLuint(try #require(linked.attributes["a_position"]))
    glEnableVertexAttribArray(position)
    glVertexAttribPointer(position, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 8, nil)
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
    #expect(glGetError() == GLenum(GL_NO_ERROR))
    device.endPass()
    return Array(try device.readPixels(target).pixels[0..<4])
  }

  /// A NUL-terminated GL string.
  static func text(_ characters: [GLchar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
