import CGLES3
import TesseraImage
import TesseraNumbers
import TesseraShaders

/// An OpenGL ES 3 device: typed handles for GPU resources and a begin-pass / apply-pipeline /
/// apply-bindings / draw / end-pass flow in the manner of sokol_gfx.
///
/// A device owns a ``GLContext`` current on the thread that created it and must be used (and
/// released) on that thread; it is deliberately not `Sendable`. Every resource it made is
/// deleted when it is released. GL object ids never leave this module.
public final class GLDevice {
  /// The context the device draws with.
  package let context: GLContext
  /// Driver strings and limits.
  package let info: DeviceInfo
  /// Whether buffers made with ``makeBuffer(_:keeping:)`` are drawn from the arrays where they
  /// lie (client-side arrays) rather than copied into buffer objects. Software renderers read
  /// buffer objects from process memory too, so the copy only costs time and fresh pages:
  /// monaco-basic-small's first frame copied 5.7 MiB of tile geometry, about 5 ms of its 70.
  /// GPUs copy each client array at every draw, so they keep buffer objects.
  package let drawsFromHostMemory: Bool
  /// Work done since the last ``resetStatistics()``.
  package internal(set) var statistics = DeviceStatistics()

  var state = GLStateCache()
  var buffers = ResourcePool<GLBuffer>()
  var textures = ResourcePool<GLTexture>()
  var pipelines = ResourcePool<GLPipeline>()
  var targets = ResourcePool<GLRenderTarget>()
  var programs: [ProgramKey: GLProgram] = [:]
  /// Where programs are kept between processes: ``ProgramBinaryCache/shared`` when the driver
  /// offers program binaries (`GL_NUM_PROGRAM_BINARY_FORMATS` > 0), else nil (always compiled).
  package var programCache: ProgramBinaryCache?
  /// The program binary formats the driver reads (`GL_PROGRAM_BINARY_FORMATS`).
  let programBinaryFormats: Set<UInt32>
  let vertexArray: GLuint
  var current: (pipeline: GLPipeline, slot: ResourceSlot)?
  var passTarget: GLRenderTarget?
  var enabledAttributes: Set<Int> = []
  /// The fence after the work handed over by the last ``flushTracked()``, until it is seen done.
  var flushFence: GLsync?
  /// How many vertices and instances the client-side arrays bound by the last
  /// ``applyBindings(_:)`` hold (nil where none is bound): draws are checked against them.
  var hostArrayCapacity: (vertices: Int?, instances: Int?) = (nil, nil)

  struct GLBuffer {
    /// The buffer object (0 for a host array).
    let id: GLuint
    let kind: BufferKind
    var size: Int
    let usage: BufferUsage
    /// The array drawn from where it lies, on devices that draw from host memory.
    var host: HostArray?
  }

  struct GLTexture {
    let id: GLuint
    var descriptor: TextureDescriptor
  }

  struct GLPipeline {
    let descriptor: PipelineDescriptor
    let program: GLProgram
    /// (attribute location, attribute) for every attribute the program uses.
    let attributes: [(location: Int, attribute: VertexAttribute)]
  }

  struct ProgramKey: Hashable {
    let name: String
    let defines: [String: String]
  }

  /// Opens the display for `gpu` (once per process), creates a context current on this thread and
  /// a device on it.
  public convenience init(gpu: GPUSelection = .auto) throws {
    let display = try HeadlessDisplay.open(gpu)
    try self.init(context: GLContext(display: display))
  }

  /// Like ``init(gpu:)``, on display lane `lane` of the platform, whose llvmpipe screen gets
  /// `rasterThreads` rasteriser threads when this call opens it (see ``HeadlessDisplay``):
  /// devices on different lanes rasterise at the same time instead of one after the other.
  public convenience init(gpu: GPUSelection, lane: Int, rasterThreads: Int?) throws {
    let display = try HeadlessDisplay.open(gpu, lane: lane, rasterThreads: rasterThreads)
    try self.init(context: GLContext(display: display))
  }

  /// Display lanes `gpu` has: devices on different lanes rasterise at the same time.
  public static func displayLanes(_ gpu: GPUSelection) -> Int { HeadlessDisplay.lanes(gpu) }

  /// Like ``init(gpu:)``, drawing kept arrays from host memory or not as `drawsFromHostMemory`
  /// says instead of as the renderer suggests (for comparing both ways).
  package convenience init(gpu: GPUSelection, drawsFromHostMemory: Bool) throws {
    let display = try HeadlessDisplay.open(gpu)
    try self.init(context: GLContext(display: display), drawsFromHostMemory: drawsFromHostMemory)
  }

  /// Makes a device on a context that is current on the calling thread, drawing kept arrays
  /// from host memory when `drawsFromHostMemory` says so (by default on software renderers).
  package init(context: GLContext, drawsFromHostMemory: Bool? = nil) {
    precondition(context.isOnOwningThread, "a GLDevice must be made on its context's thread")
    context.display.exclusion.enter()
    defer { context.display.exclusion.leave() }
    self.context = context
    info = DeviceInfo.query(platform: context.display.platformDescription)
    self.drawsFromHostMemory = drawsFromHostMemory ?? info.isSoftware
    // OpenGL ES takes client-side arrays only with the default vertex array object bound.
    var vertexArray: GLuint = 0
    if !self.drawsFromHostMemory {
      glGenVertexArrays(1, &vertexArray)
      glBindVertexArray(vertexArray)
    }
    self.vertexArray = vertexArray
    glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
    glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
    var formatCount: GLint = 0
    glGetIntegerv(GLenum(GL_NUM_PROGRAM_BINARY_FORMATS), &formatCount)
    var formats = [GLint](repeating: 0, count: Int(max(formatCount, 0)))
    if formatCount > 0 { glGetIntegerv(GLenum(GL_PROGRAM_BINARY_FORMATS), &formats) }
    programBinaryFormats = Set(formats.map { UInt32(bitPattern: $0) })
    programCache = programBinaryFormats.isEmpty ? nil : ProgramBinaryCache.shared
  }

  deinit {
    context.display.exclusion.enter()
    defer { context.display.exclusion.leave() }
    // The deletes go to the context current on this thread, which must be this device's (not
    // another device's, whose objects have the same names). On another thread they are left
    // to the context's destruction, which frees every object of the (unshared) context.
    guard context.isOnOwningThread else { return }
    context.makeCurrentIfNeeded()
    for buffer in buffers.all where buffer.host == nil { glDeleteBuffers(1, [buffer.id]) }
    for texture in textures.all { glDeleteTextures(1, [texture.id]) }
    for target in targets.all { target.delete() }
    for program in programs.values { glDeleteProgram(program.id) }
    if vertexArray != 0 { glDeleteVertexArrays(1, [vertexArray]) }
    if let flushFence { glDeleteSync(flushFence) }
  }

  /// Resets ``statistics`` to zero.
  package func resetStatistics() {
    statistics = DeviceStatistics()
  }

  /// Live resource counts (buffers, textures, pipelines, render targets): for leak tests.
  package var resourceCounts: (buffers: Int, textures: Int, pipelines: Int, renderTargets: Int) {
    (buffers.count, textures.count, pipelines.count, targets.count)
  }

  /// Starts a stretch of GL calls on the calling thread, ended by the returned turn's
  /// ``GLTurn/end()``: waits for the display's turn (``ContextExclusion``: contexts of one
  /// llvmpipe screen must not make GL calls at once), then, outside a pass, makes the context
  /// current when it is not (another device's is: two maps on one thread, each device's calls go
  /// to its own context; or the device moved to this thread after ``releaseContext()``), and
  /// checks (in debug builds) that a pass is not drawn from two threads. Every method that calls
  /// GL begins with `let turn = beginGL()` and `defer { turn.end() }`.
  func beginGL() -> GLTurn {
    let exclusion = context.display.exclusion
    exclusion.enter()
    if passTarget == nil { context.makeCurrentIfNeeded() }
    #if DEBUG
      precondition(context.isOnOwningThread, "GLDevice used on two threads at once")
    #endif
    return GLTurn(exclusion: exclusion)
  }

  /// Lets another thread use the device next: makes its context not current on the calling
  /// thread (which flushes the GL commands issued so far). The next call on any thread
  /// makes it current there. Called between uses, never during a pass.
  package func releaseContext() {
    precondition(passTarget == nil, "a GLDevice released during a pass")
    guard context.isOnOwningThread else { return }
    context.release()
  }

  // MARK: Buffers

  /// Creates a buffer holding `bytes`.
  package func makeBuffer(_ descriptor: BufferDescriptor, bytes: UnsafeRawBufferPointer) throws(GLError)
    -> BufferHandle
  {
    let turn = beginGL()
    defer { turn.end() }
    var id: GLuint = 0
    glGenBuffers(1, &id)
    let target = descriptor.kind.glTarget
    if descriptor.kind == .index { state.bindElementBuffer(id) } else { state.bindArrayBuffer(id) }
    glBufferData(target, GLsizeiptr(bytes.count), bytes.baseAddress, descriptor.usage.glValue)
    do {
      try GLCheck.afterAllocation("glBufferData (\(bytes.count) bytes, \(descriptor.label))")
    } catch {
      glDeleteBuffers(1, &id)
      state.forget(buffer: id)
      throw error
    }
    statistics.uploadedBytes += bytes.count
    let slot = buffers.insert(GLBuffer(id: id, kind: descriptor.kind, size: bytes.count, usage: descriptor.usage))
    return BufferHandle(slot: slot)
  }

  /// Creates a buffer holding the elements of `contents` (plain numeric values or structs of them).
  package func makeBuffer<Element>(_ descriptor: BufferDescriptor, contents: [Element]) throws(GLError)
    -> BufferHandle
  {
    let result: Result<BufferHandle, GLError> = contents.withUnsafeBytes { bytes in
      Result { () throws(GLError) in try makeBuffer(descriptor, bytes: bytes) }
    }
    return try result.get()
  }

  /// Creates a buffer with the elements of `contents` (not empty) that no one changes later: on
  /// a device that ``drawsFromHostMemory`` the array itself, kept and drawn from where it
  /// lies; elsewhere a buffer object holding a copy.
  package func makeBuffer<Element>(_ descriptor: BufferDescriptor, keeping contents: [Element]) throws(GLError)
    -> BufferHandle
  {
    guard drawsFromHostMemory, !contents.isEmpty else { return try makeBuffer(descriptor, contents: contents) }
    let turn = beginGL()
    defer { turn.end() }
    let host = HostArray(contents)
    let slot = buffers.insert(
      GLBuffer(id: 0, kind: descriptor.kind, size: host.byteCount, usage: descriptor.usage, host: host))
    return BufferHandle(slot: slot)
  }

  /// Replaces a buffer's whole contents (the storage is reallocated when the size changes).
  package func updateBuffer<Element>(_ handle: BufferHandle, contents: [Element]) throws(GLError) {
    let turn = beginGL()
    defer { turn.end() }
    var buffer = buffers[handle.slot]
    precondition(buffer.host == nil, "a kept array is never updated")
    if buffer.kind == .index { state.bindElementBuffer(buffer.id) } else { state.bindArrayBuffer(buffer.id) }
    let size = contents.count * MemoryLayout<Element>.stride
    contents.withUnsafeBytes { bytes in
      if bytes.count == buffer.size {
        glBufferSubData(buffer.kind.glTarget, 0, GLsizeiptr(bytes.count), bytes.baseAddress)
      } else {
        glBufferData(buffer.kind.glTarget, GLsizeiptr(bytes.count), bytes.baseAddress, buffer.usage.glValue)
      }
    }
    try GLCheck.afterAllocation("glBufferData (update, \(size) bytes)")
    buffer.size = size
    buffers[handle.slot] = buffer
    statistics.uploadedBytes += size
  }

  /// Deletes a buffer; its handle must not be used again.
  package func destroy(_ handle: BufferHandle) {
    let turn = beginGL()
    defer { turn.end() }
    let buffer = buffers.remove(handle.slot)
    if let host = buffer.host {
      state.forget(host: host)
      return
    }
    glDeleteBuffers(1, [buffer.id])
    state.forget(buffer: buffer.id)
  }

  // MARK: Textures

  /// Creates a 2D texture, optionally filled with `pixels` (tightly packed rows, top row first
  /// as the caller laid them out; texture coordinates follow the same order).
  package func makeTexture(_ descriptor: TextureDescriptor, pixels: [UInt8]? = nil) throws(GLError)
    -> TextureHandle
  {
    let turn = beginGL()
    defer { turn.end() }
    let limit = info.limits.maxTextureSize
    guard descriptor.width >= 1, descriptor.height >= 1, descriptor.width <= limit,
      descriptor.height <= limit
    else {
      throw GLError.invalidSize(
        what: "texture '\(descriptor.label)'", width: descriptor.width, height: descriptor.height,
        limit: limit)
    }
    let formats = descriptor.format.glFormats
    if let pixels {
      precondition(
        pixels.count == descriptor.width * descriptor.height * formats.bytes,
        "texture pixel buffer size does not match its descriptor")
    }
    var id: GLuint = 0
    glGenTextures(1, &id)
    state.bindTexture(id, unit: 0)
    let target = GLenum(GL_TEXTURE_2D)
    let minFilter: Int32
    switch descriptor.filter {
    case .nearest: minFilter = GL_NEAREST
    case .linear: minFilter = GL_LINEAR
    case .trilinear: minFilter = GL_LINEAR_MIPMAP_LINEAR
    }
    glTexParameteri(target, GLenum(GL_TEXTURE_MIN_FILTER), minFilter)
    glTexParameteri(
      target, GLenum(GL_TEXTURE_MAG_FILTER), descriptor.filter == .nearest ? GL_NEAREST : GL_LINEAR)
    let wrapS = descriptor.wrap == .clampToEdge ? GL_CLAMP_TO_EDGE : GL_REPEAT
    let wrapT = descriptor.wrap == .repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE
    glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_S), wrapS)
    glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_T), wrapT)
    let upload = { (pointer: UnsafeRawPointer?) in
      glTexImage2D(
        target, 0, formats.internal, GLsizei(descriptor.width), GLsizei(descriptor.height), 0,
        formats.format, formats.type, pointer)
    }
    if let pixels { pixels.withUnsafeBytes { upload($0.baseAddress) } } else { upload(nil) }
    if descriptor.filter == .trilinear { glGenerateMipmap(target) }
    do {
      try GLCheck.afterAllocation("glTexImage2D (\(descriptor.width)x\(descriptor.height), \(descriptor.label))")
    } catch {
      glDeleteTextures(1, &id)
      state.forget(texture: id)
      throw error
    }
    statistics.uploadedBytes += pixels?.count ?? 0
    return TextureHandle(slot: textures.insert(GLTexture(id: id, descriptor: descriptor)))
  }

  /// Replaces a rectangle of a texture's texels (tightly packed rows).
  package func updateTexture(
    _ handle: TextureHandle, x: Int, y: Int, width: Int, height: Int, pixels: [UInt8]
  ) {
    let turn = beginGL()
    defer { turn.end() }
    let texture = textures[handle.slot]
    let formats = texture.descriptor.format.glFormats
    precondition(pixels.count == width * height * formats.bytes, "texture update size mismatch")
    precondition(
      x >= 0 && y >= 0 && x + width <= texture.descriptor.width
        && y + height <= texture.descriptor.height, "texture update outside the texture")
    state.bindTexture(texture.id, unit: 0)
    pixels.withUnsafeBytes { bytes in
      glTexSubImage2D(
        GLenum(GL_TEXTURE_2D), 0, GLint(x), GLint(y), GLsizei(width), GLsizei(height),
        formats.format, GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
    }
    if texture.descriptor.filter == .trilinear { glGenerateMipmap(GLenum(GL_TEXTURE_2D)) }
    GLCheck.debug("glTexSubImage2D")
    statistics.uploadedBytes += pixels.count
  }

  /// Changes how a texture is sampled (`nearest` or `linear`; mipmaps are not added).
  package func setTextureFilter(_ handle: TextureHandle, _ filter: TextureFilter) {
    let turn = beginGL()
    defer { turn.end() }
    var texture = textures[handle.slot]
    guard texture.descriptor.filter != filter, filter != .trilinear else { return }
    state.bindTexture(texture.id, unit: 0)
    let value = filter == .nearest ? GL_NEAREST : GL_LINEAR
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), value)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), value)
    texture.descriptor.filter = filter
    textures[handle.slot] = texture
  }

  /// The size of a texture in texels.
  package func size(of handle: TextureHandle) -> (width: Int, height: Int) {
    let descriptor = textures[handle.slot].descriptor
    return (descriptor.width, descriptor.height)
  }

  /// Deletes a texture; its handle must not be used again.
  package func destroy(_ handle: TextureHandle) {
    let turn = beginGL()
    defer { turn.end() }
    let texture = textures.remove(handle.slot)
    glDeleteTextures(1, [texture.id])
    state.forget(texture: texture.id)
  }

  // MARK: Pipelines

  /// Creates a pipeline, compiling its program (once per program name and defines).
  package func makePipeline(_ descriptor: PipelineDescriptor) throws(GLError) -> PipelineHandle {
    let turn = beginGL()
    defer { turn.end() }
    var defines = descriptor.defines
    if descriptor.clipDistances > 0 {
      guard descriptor.clipDistances <= info.limits.maxClipDistances else {
        throw GLError.unsupportedClipDistances(
          program: descriptor.program, requested: descriptor.clipDistances, maximum: info.limits.maxClipDistances)
      }
      defines[ShaderLibrary.clipDistancesDefine] = "1"
    }
    let program = try program(named: descriptor.program, defines: defines)
    let attributes = descriptor.layout.attributes.compactMap { attribute -> (Int, VertexAttribute)? in
      guard let location = program.attributes[attribute.name], location >= 0 else { return nil }
      precondition(
        attribute.buffer < descriptor.layout.buffers.count,
        "attribute \(attribute.name) names buffer \(attribute.buffer) outside the layout")
      return (Int(location), attribute)
    }
    let pipeline = GLPipeline(descriptor: descriptor, program: program, attributes: attributes)
    return PipelineHandle(slot: pipelines.insert(pipeline))
  }

  /// Compiles and links an embedded program (cached per name and defines).
  func program(named name: String, defines: [String: String] = [:]) throws(GLError) -> GLProgram {
    let key = ProgramKey(name: name, defines: defines)
    if let program = programs[key] { return program }
    let binaries = programCache.map {
      ProgramBinaries(cache: $0, driver: info.programBinaryDriver, formats: programBinaryFormats)
    }
    let program = try GLProgram.build(name: name, defines: defines, binaries: binaries)
    programs[key] = program
    return program
  }

  /// Compiles and links the named embedded programs now (all of them by default) with
  /// `defines`, and returns their names; throws the first compile or link error.
  @discardableResult
  package func compilePrograms(_ names: [String]? = nil, defines: [String: String] = [:]) throws(GLError) -> [String] {
    let turn = beginGL()
    defer { turn.end() }
    let all = names ?? ShaderLibrary.names
    for name in all { _ = try program(named: name, defines: defines) }
    return all
  }

  /// Deletes a pipeline (its program stays cached for other pipelines).
  package func destroy(_ handle: PipelineHandle) {
    let turn = beginGL()
    defer { turn.end() }
    _ = pipelines.remove(handle.slot)
    if current?.slot == handle.slot { current = nil }
  }

  /// The location of a uniform of a pipeline's program; draws ignore values set for uniforms
  /// the program does not use.
  package func uniform(_ name: String, of pipeline: PipelineHandle) -> UniformLocation {
    UniformLocation(pipeline: pipeline.slot, location: pipelines[pipeline.slot].program.uniforms[name] ?? -1)
  }
}

/// A uniform of one pipeline's program (-1 when the program does not use it).
package struct UniformLocation: Sendable, Hashable {
  let pipeline: ResourceSlot
  let location: Int32

  /// Whether the program uses this uniform.
  package var isActive: Bool { location >= 0 }
}

/// A device's turn at its display's GL calls, from ``GLDevice/beginGL()`` to ``end()``.
struct GLTurn {
  let exclusion: ContextExclusion

  /// Lets the display's other contexts make GL calls again.
  func end() { exclusion.leave() }
}
