import CGLES3
import TesseraNumbers
import TesseraShaders

/// A linked GL program with its active attributes and uniforms looked up once.
struct GLProgram {
  let id: GLuint
  let name: String
  /// Attribute name → location.
  let attributes: [String: Int32]
  /// Uniform name → location (array uniforms also under their base name).
  let uniforms: [String: Int32]

  /// Builds the embedded program `name` with `defines`: from its stored binary when `binaries`
  /// holds one the driver accepts, else compiled and linked from source (and then stored).
  /// No call on the binary path raises a GL error (an entry in a format the driver does not
  /// read is refused before GL sees it; a binary the driver refuses only fails to link), so
  /// errors other calls left stay for the checks that look for them.
  static func build(
    name: String, defines: [String: String], binaries: ProgramBinaries? = nil
  ) throws(GLError) -> GLProgram {
    guard let source = ShaderLibrary.source(of: name, defines: defines) else {
      throw GLError.unknownProgram(name)
    }
    let key = binaries.map {
      ProgramBinaryCache.key(driver: $0.driver, vertex: source.vertex, fragment: source.fragment)
    }
    if let binaries, let key, let entry = binaries.cache.entry(for: key) {
      if let id = linked(entry, formats: binaries.formats) {
        binaries.cache.noteLoaded()
        return described(id, name: name)
      }
      binaries.cache.discard(key)
    }
    let program = try linked(
      vertex: source.vertex, fragment: source.fragment, name: name, retrievable: binaries != nil)
    if let binaries, let key, let entry = binary(of: program.id, key: key) { binaries.cache.store(entry) }
    return program
  }

  /// The program compiled and linked from the sources `vertex` and `fragment` (whole stages,
  /// preamble included); `retrievable` asks the driver to keep its binary for
  /// `glGetProgramBinary`.
  static func linked(vertex: String, fragment: String, name: String, retrievable: Bool = false)
    throws(GLError) -> GLProgram
  {
    let vertexShader = try compile(vertex, stage: GLenum(GL_VERTEX_SHADER), program: name)
    defer { glDeleteShader(vertexShader) }
    let fragmentShader = try compile(fragment, stage: GLenum(GL_FRAGMENT_SHADER), program: name)
    defer { glDeleteShader(fragmentShader) }
    let id = glCreateProgram()
    glAttachShader(id, vertexShader)
    glAttachShader(id, fragmentShader)
    if retrievable { glProgramParameteri(id, GLenum(GL_PROGRAM_BINARY_RETRIEVABLE_HINT), GL_TRUE) }
    glLinkProgram(id)
    var linked: GLint = 0
    glGetProgramiv(id, GLenum(GL_LINK_STATUS), &linked)
    guard linked == GL_TRUE else {
      let log = infoLog(id, isProgram: true)
      glDeleteProgram(id)
      throw GLError.programLink(program: name, log: log)
    }
    return described(id, name: name)
  }

  /// The linked program `id` with its active attributes and uniforms looked up.
  private static func described(_ id: GLuint, name: String) -> GLProgram {
    GLProgram(
      id: id, name: name, attributes: activeNames(id, kind: .attribute), uniforms: activeNames(id, kind: .uniform))
  }

  /// A program linked from `entry`'s binary, or nil when its format is not one of `formats`
  /// (the driver's) or the driver refuses it (made by another build of the driver, damaged).
  private static func linked(_ entry: ProgramBinaryEntry, formats: Set<UInt32>) -> GLuint? {
    guard formats.contains(entry.format) else { return nil }
    let id = glCreateProgram()
    entry.binary.withUnsafeBytes { bytes in
      glProgramBinary(id, GLenum(entry.format), bytes.baseAddress, GLsizei(bytes.count))
    }
    var linked: GLint = 0
    glGetProgramiv(id, GLenum(GL_LINK_STATUS), &linked)
    if linked == GL_TRUE { return id }
    glDeleteProgram(id)
    return nil
  }

  /// The linked program `id`'s binary as an entry for `key`; nil when the driver gives none.
  private static func binary(of id: GLuint, key: String) -> ProgramBinaryEntry? {
    var length: GLint = 0
    glGetProgramiv(id, GLenum(GL_PROGRAM_BINARY_LENGTH), &length)
    guard length > 0, Int(length) <= ProgramBinaryCache.largestEntry else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(length))
    var written: GLsizei = 0
    var format: GLenum = 0
    bytes.withUnsafeMutableBytes { buffer in
      glGetProgramBinary(id, length, &written, &format, buffer.baseAddress)
    }
    guard written > 0, written <= length else { return nil }
    return ProgramBinaryEntry(key: key, format: format, binary: Array(bytes.prefix(Int(written))))
  }

  private static func compile(_ text: String, stage: GLenum, program: String) throws(GLError) -> GLuint {
    let shader = glCreateShader(stage)
    text.withCString { pointer in
      var source: UnsafePointer<GLchar>? = pointer
      glShaderSource(shader, 1, &source, nil)
    }
    glCompileShader(shader)
    var compiled: GLint = 0
    glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
    guard compiled == GL_TRUE else {
      let log = infoLog(shader, isProgram: false)
      glDeleteShader(shader)
      let stageName = stage == GLenum(GL_VERTEX_SHADER) ? "vertex" : "fragment"
      throw GLError.shaderCompile(program: program, stage: stageName, log: log)
    }
    return shader
  }

  private static func infoLog(_ object: GLuint, isProgram: Bool) -> String {
    var length: GLint = 0
    if isProgram {
      glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
    } else {
      glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
    }
    guard length > 0 else { return "(no log)" }
    var buffer = [GLchar](repeating: 0, count: Int(length))
    if isProgram {
      glGetProgramInfoLog(object, length, nil, &buffer)
    } else {
      glGetShaderInfoLog(object, length, nil, &buffer)
    }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self).trimmingNewlines()
  }

  private enum Kind { case attribute, uniform }

  private static func activeNames(_ program: GLuint, kind: Kind) -> [String: Int32] {
    var count: GLint = 0
    var maxLength: GLint = 0
    let isAttribute = kind == .attribute
    glGetProgramiv(program, GLenum(isAttribute ? GL_ACTIVE_ATTRIBUTES : GL_ACTIVE_UNIFORMS), &count)
    glGetProgramiv(
      program, GLenum(isAttribute ? GL_ACTIVE_ATTRIBUTE_MAX_LENGTH : GL_ACTIVE_UNIFORM_MAX_LENGTH),
      &maxLength)
    var result: [String: Int32] = [:]
    var buffer = [GLchar](repeating: 0, count: Int(max(maxLength, 1)))
    for index in 0..<GLuint(max(count, 0)) {
      var length: GLsizei = 0
      var size: GLint = 0
      var type: GLenum = 0
      if isAttribute {
        glGetActiveAttrib(program, index, GLsizei(buffer.count), &length, &size, &type, &buffer)
      } else {
        glGetActiveUniform(program, index, GLsizei(buffer.count), &length, &size, &type, &buffer)
      }
      let name = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let location =
        isAttribute ? glGetAttribLocation(program, name) : glGetUniformLocation(program, name)
      result[name] = location
      if name.hasSuffix("[0]") { result[String(name.dropLast(3))] = location }
    }
    return result
  }
}

extension String {
  fileprivate func trimmingNewlines() -> String {
    var text = Substring(self)
    while let last = text.last, last.isNewline || last == " " { text = text.dropLast() }
    return String(text).replacingNewlines()
  }

  fileprivate func replacingNewlines() -> String {
    split(whereSeparator: \.isNewline).joined(separator: " | ")
  }
}
