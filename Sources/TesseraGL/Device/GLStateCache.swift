import CGLES3
import TesseraNumbers

/// The GL state Tessera last set, so each call is made only when a value changes (the pattern of
/// MapLibre Native's `gl::Context`). Anything unknown is nil and is set on first use.
struct GLStateCache {
  var program: GLuint?
  var blend: BlendMode?
  var depth: DepthMode?
  var stencil: StencilMode?
  var cull: CullMode?
  var colorWrite: Bool?
  /// Clip planes 0..<clipDistances are enabled (none in a new context).
  var clipDistances = 0
  var lineWidth: Float?
  /// The stencil reference set by the last pipeline or draw.
  var stencilReference: Int32?
  var framebuffer: GLuint?
  var viewport: (Int32, Int32, Int32, Int32)?
  /// The scissor rectangle (x, y, width, height in window pixels); nil when the test is off.
  /// `scissorKnown` is false until the first call sets it.
  var scissor: PixelRect?
  var scissorKnown = false
  var arrayBuffer: GLuint?
  var elementBuffer: GLuint?
  /// The client-side index array drawn from while `elementBuffer` is 0 (nil with a buffer
  /// object bound, and once the array is forgotten).
  var elementArray: HostArray?
  var activeTextureUnit: Int?
  var textureUnits: [GLuint?] = Array(repeating: nil, count: 16)
  /// Per attribute location: (buffer, format, stride, offset, divisor), nil when disabled.
  var attributes: [AttributeState?] = Array(repeating: nil, count: 16)

  struct AttributeState: Equatable {
    let buffer: GLuint
    let components: Int32
    let type: GLenum
    let normalized: Bool
    let stride: Int32
    let offset: Int
    let divisor: UInt32
  }

  mutating func useProgram(_ id: GLuint) {
    guard program != id else { return }
    glUseProgram(id)
    program = id
  }

  mutating func setBlend(_ mode: BlendMode) {
    guard blend != mode else { return }
    switch mode {
    case .replace:
      glDisable(GLenum(GL_BLEND))
    case .premultipliedOver:
      glEnable(GLenum(GL_BLEND))
      glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
    case .additive:
      glEnable(GLenum(GL_BLEND))
      glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
    }
    blend = mode
  }

  mutating func setDepth(_ mode: DepthMode) {
    guard depth != mode else { return }
    if let test = mode.test {
      glEnable(GLenum(GL_DEPTH_TEST))
      glDepthFunc(test.glValue)
    } else {
      glDisable(GLenum(GL_DEPTH_TEST))
    }
    glDepthMask(GLboolean(mode.write ? GL_TRUE : GL_FALSE))
    depth = mode
  }

  mutating func setLineWidth(_ width: Float) {
    guard lineWidth != width else { return }
    glLineWidth(width)
    lineWidth = width
  }

  /// Sets the stencil reference of the current stencil mode (a per-draw value).
  mutating func setStencilReference(_ reference: Int32) {
    guard let mode = stencil, let test = mode.test, stencilReference != reference else { return }
    glStencilFunc(test.glValue, reference, mode.readMask)
    stencilReference = reference
  }

  mutating func setStencil(_ mode: StencilMode) {
    guard stencil != mode else { return }
    stencilReference = mode.reference
    if let test = mode.test {
      glEnable(GLenum(GL_STENCIL_TEST))
      glStencilFunc(test.glValue, mode.reference, mode.readMask)
      let pass = GLenum(mode.writeReference ? GL_REPLACE : GL_KEEP)
      glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), pass)
      glStencilMask(mode.writeReference ? 0xFF : 0)
    } else {
      glDisable(GLenum(GL_STENCIL_TEST))
    }
    stencil = mode
  }

  mutating func setCull(_ mode: CullMode) {
    guard cull != mode else { return }
    switch mode {
    case .none:
      glDisable(GLenum(GL_CULL_FACE))
    case .back, .front:
      glEnable(GLenum(GL_CULL_FACE))
      glCullFace(GLenum(mode == .back ? GL_BACK : GL_FRONT))
    }
    cull = mode
  }

  /// Enables clip planes 0..<count and disables the others of `GL_EXT_clip_cull_distance`.
  mutating func setClipDistances(_ count: Int) {
    guard clipDistances != count else { return }
    for plane in 0..<max(count, clipDistances) {
      let name = GLenum(GL_CLIP_DISTANCE0_EXT + Int32(plane))
      if plane < count { glEnable(name) } else { glDisable(name) }
    }
    clipDistances = count
  }

  mutating func setColorWrite(_ enabled: Bool) {
    guard colorWrite != enabled else { return }
    let flag = GLboolean(enabled ? GL_TRUE : GL_FALSE)
    glColorMask(flag, flag, flag, flag)
    colorWrite = enabled
  }

  mutating func bindFramebuffer(_ id: GLuint) {
    guard framebuffer != id else { return }
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id)
    framebuffer = id
  }

  mutating func setScissor(_ rect: PixelRect?) {
    guard !scissorKnown || scissor != rect else { return }
    if let rect {
      if scissor == nil || !scissorKnown { glEnable(GLenum(GL_SCISSOR_TEST)) }
      glScissor(rect.x, rect.y, rect.width, rect.height)
    } else {
      glDisable(GLenum(GL_SCISSOR_TEST))
    }
    scissor = rect
    scissorKnown = true
  }

  mutating func setViewport(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) {
    if let viewport, viewport == (x, y, width, height) { return }
    glViewport(x, y, width, height)
    viewport = (x, y, width, height)
  }

  mutating func bindArrayBuffer(_ id: GLuint) {
    guard arrayBuffer != id else { return }
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), id)
    arrayBuffer = id
  }

  mutating func bindElementBuffer(_ id: GLuint) {
    elementArray = nil
    guard elementBuffer != id else { return }
    glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), id)
    elementBuffer = id
  }

  mutating func bindTexture(_ id: GLuint, unit: Int) {
    guard textureUnits[unit] != id else { return }
    if activeTextureUnit != unit {
      glActiveTexture(GLenum(GL_TEXTURE0) + GLenum(unit))
      activeTextureUnit = unit
    }
    glBindTexture(GLenum(GL_TEXTURE_2D), id)
    textureUnits[unit] = id
  }

  /// Points attribute `location` at a buffer, or disables it when `state` is nil.
  mutating func setAttribute(_ location: Int, _ state: AttributeState?) {
    guard attributes[location] != state else { return }
    let index = GLuint(location)
    if let state {
      if attributes[location] == nil { glEnableVertexAttribArray(index) }
      bindArrayBuffer(state.buffer)
      glVertexAttribPointer(
        index, state.components, state.type, GLboolean(state.normalized ? GL_TRUE : GL_FALSE),
        state.stride, UnsafeRawPointer(bitPattern: state.offset))
      if attributes[location]?.divisor != state.divisor {
        glVertexAttribDivisor(index, state.divisor)
      }
    } else {
      glDisableVertexAttribArray(index)
      if attributes[location]?.divisor ?? 0 != 0 { glVertexAttribDivisor(index, 0) }
    }
    attributes[location] = state
  }

  /// Forgets bindings of a deleted buffer or texture so a reused GL name is rebound.
  mutating func forget(buffer id: GLuint) {
    if arrayBuffer == id { arrayBuffer = nil }
    if elementBuffer == id { elementBuffer = nil }
    for location in attributes.indices where attributes[location]?.buffer == id {
      attributes[location] = AttributeState(
        buffer: 0, components: 0, type: 0, normalized: false, stride: 0, offset: 0,
        divisor: attributes[location]!.divisor)
    }
  }

  /// Unbinds a client-side array that is going away: the index binding and every attribute
  /// pointing into it (disabled, so that no draw can read its memory afterwards).
  mutating func forget(host array: HostArray) {
    if elementArray === array { elementArray = nil }
    for location in attributes.indices {
      guard let state = attributes[location], state.buffer == 0, array.contains(address: state.offset) else { continue }
      glDisableVertexAttribArray(GLuint(location))
      if state.divisor != 0 { glVertexAttribDivisor(GLuint(location), 0) }
      attributes[location] = nil
    }
  }

  /// Binds a client-side index array (element array buffer 0).
  mutating func bindElementArray(_ array: HostArray) {
    bindElementBuffer(0)
    elementArray = array
  }

  mutating func forget(texture id: GLuint) {
    for unit in textureUnits.indices where textureUnits[unit] == id { textureUnits[unit] = nil }
  }

  mutating func forget(framebuffer id: GLuint) {
    if framebuffer == id { framebuffer = nil }
  }
}
