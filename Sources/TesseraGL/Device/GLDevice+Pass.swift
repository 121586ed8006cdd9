import CGLES3
import TesseraImage
import TesseraNumbers

extension GLDevice {
  // MARK: Render targets

  /// Creates an offscreen render target; throws for sizes outside 1...the device's limit (for
  /// example 0×0, 100000×100000, or above `GL_MAX_RENDERBUFFER_SIZE`) and unsupported MSAA.
  package func makeRenderTarget(_ descriptor: RenderTargetDescriptor) throws(GLError) -> RenderTargetHandle {
    let turn = beginGL()
    defer { turn.end() }
    let target = try GLRenderTarget.make(descriptor, limits: info.limits)
    state.framebuffer = nil
    return RenderTargetHandle(slot: targets.insert(target))
  }

  /// Creates a render target drawing into `texture` (its colour, no depth or stencil), so a
  /// later pass can sample what was drawn. Throws when the driver cannot render into the
  /// texture's format (half floats without `EXT_color_buffer_float`).
  package func makeRenderTarget(into texture: TextureHandle) throws(GLError) -> RenderTargetHandle {
    let turn = beginGL()
    defer { turn.end() }
    let made = textures[texture.slot]
    let target = try GLRenderTarget.make(
      texture: made.id, width: made.descriptor.width, height: made.descriptor.height)
    state.framebuffer = nil
    return RenderTargetHandle(slot: targets.insert(target))
  }

  /// Creates a render target drawing into `texture` with the depth and stencil buffer of
  /// `other` (which must have one, be the texture's size, and outlive the new target), so a
  /// later pass can sample what was drawn while it was depth-tested against, and wrote depth
  /// into, `other`'s. With `other` multisampled, drawing is multisampled alike and resolved
  /// into the texture when the pass ends.
  package func makeRenderTarget(into texture: TextureHandle, sharingDepthStencilOf other: RenderTargetHandle)
    throws(GLError) -> RenderTargetHandle
  {
    let turn = beginGL()
    defer { turn.end() }
    let made = textures[texture.slot]
    let target = try GLRenderTarget.make(
      texture: made.id, width: made.descriptor.width, height: made.descriptor.height, sharing: targets[other.slot])
    state.framebuffer = nil
    return RenderTargetHandle(slot: targets.insert(target))
  }

  /// Deletes a render target; its handle must not be used again.
  package func destroy(_ handle: RenderTargetHandle) {
    let turn = beginGL()
    defer { turn.end() }
    let target = targets.remove(handle.slot)
    target.delete()
    state.forget(framebuffer: target.drawFramebuffer)
    state.forget(framebuffer: target.resolveFramebuffer)
  }

  /// The size of a render target in pixels.
  package func size(of handle: RenderTargetHandle) -> (width: Int, height: Int) {
    let target = targets[handle.slot]
    return (target.width, target.height)
  }

  // MARK: Passes and draws

  /// Whether a pass is open (between ``beginPass(_:action:)`` and ``endPass()``).
  package var isPassOpen: Bool { passTarget != nil }

  /// Starts drawing into `target`: binds it, sets the viewport to its full size and clears.
  package func beginPass(_ handle: RenderTargetHandle, action: PassAction = PassAction()) {
    let turn = beginGL()
    defer { turn.end() }
    precondition(passTarget == nil, "beginPass while another pass is open")
    let target = targets[handle.slot]
    passTarget = target
    state.bindFramebuffer(target.drawFramebuffer)
    state.setViewport(0, 0, Int32(target.width), Int32(target.height))
    state.setScissor(nil)
    var mask: GLbitfield = 0
    if let color = action.clearColor {
      let (r, g, b, a) = color.premultiplied
      state.setColorWrite(true)
      glClearColor(GLfloat(r), GLfloat(g), GLfloat(b), GLfloat(a))
      mask |= GLbitfield(GL_COLOR_BUFFER_BIT)
    }
    if let depth = action.clearDepth {
      glDepthMask(GLboolean(GL_TRUE))
      state.depth = nil
      glClearDepthf(GLfloat(depth))
      mask |= GLbitfield(GL_DEPTH_BUFFER_BIT)
    }
    if let stencil = action.clearStencil {
      glStencilMask(0xFF)
      state.stencil = nil
      glClearStencil(stencil)
      mask |= GLbitfield(GL_STENCIL_BUFFER_BIT)
    }
    if mask != 0 { glClear(mask) }
    GLCheck.debug("glClear")
  }

  /// Makes `pipeline` current: its program and all its fixed-function state.
  package func applyPipeline(_ handle: PipelineHandle) {
    let turn = beginGL()
    defer { turn.end() }
    let pipeline = pipelines[handle.slot]
    current = (pipeline, handle.slot)
    let descriptor = pipeline.descriptor
    state.useProgram(pipeline.program.id)
    state.setBlend(descriptor.blend)
    state.setDepth(descriptor.depth)
    state.setStencil(descriptor.stencil)
    state.setCull(descriptor.cull)
    state.setColorWrite(descriptor.writesColor)
    state.setClipDistances(descriptor.clipDistances)
    if descriptor.primitive == .lines { state.setLineWidth(descriptor.lineWidth) }
    GLCheck.debug("applyPipeline")
  }

  /// Binds vertex buffers, the index buffer and textures for the current pipeline.
  package func applyBindings(_ bindings: Bindings) {
    let turn = beginGL()
    defer { turn.end() }
    guard let (pipeline, _) = current else { preconditionFailure("applyBindings before applyPipeline") }
    let layout = pipeline.descriptor.layout
    var used: Set<Int> = []
    var capacity: (vertices: Int?, instances: Int?) = (nil, nil)
    for (location, attribute) in pipeline.attributes {
      let bufferLayout = layout.buffers[attribute.buffer]
      let buffer = buffers[bindings.vertexBuffers[attribute.buffer].slot]
      let baseOffset =
        attribute.buffer < bindings.vertexBufferOffsets.count ? bindings.vertexBufferOffsets[attribute.buffer] : 0
      let type = attribute.format.glType
      // A client-side array's offset is its address.
      let offset = baseOffset + attribute.offset
      if let host = buffer.host {
        let fits = host.capacity(offset: offset, size: attribute.format.byteSize, stride: bufferLayout.stride)
        if bufferLayout.stepRate == .perInstance {
          capacity.instances = min(capacity.instances ?? Int.max, fits)
        } else {
          capacity.vertices = min(capacity.vertices ?? Int.max, fits)
        }
      }
      state.setAttribute(
        location,
        GLStateCache.AttributeState(
          buffer: buffer.id, components: attribute.format.components, type: type.type,
          normalized: type.normalized, stride: Int32(bufferLayout.stride),
          offset: buffer.host?.address(offset) ?? offset,
          divisor: bufferLayout.stepRate == .perInstance ? 1 : 0))
      used.insert(location)
    }
    for location in enabledAttributes.subtracting(used) { state.setAttribute(location, nil) }
    enabledAttributes = used
    hostArrayCapacity = capacity
    if let index = bindings.indexBuffer {
      let buffer = buffers[index.slot]
      if let host = buffer.host { state.bindElementArray(host) } else { state.bindElementBuffer(buffer.id) }
    }
    for (unit, texture) in bindings.textures.enumerated() {
      state.bindTexture(textures[texture.slot].id, unit: unit)
    }
    GLCheck.debug("applyBindings")
  }

  /// Sets the stencil reference for the following draws (the pipeline's stencil mode says how
  /// it is compared or written).
  package func setStencilReference(_ reference: Int32) {
    let turn = beginGL()
    defer { turn.end() }
    state.setStencilReference(reference)
  }

  /// Limits the following draws to `rect` (window pixels, origin at the bottom left as GL
  /// counts them), or to the whole target with nil. Clears ignore it.
  package func setScissor(_ rect: PixelRect?) {
    let turn = beginGL()
    defer { turn.end() }
    state.setScissor(rect)
  }

  /// Clears the stencil buffer of the current pass to `value`.
  package func clearStencil(_ value: Int32 = 0) {
    let turn = beginGL()
    defer { turn.end() }
    precondition(passTarget != nil, "clearStencil outside a pass")
    glStencilMask(0xFF)
    state.stencil = nil
    state.setScissor(nil)
    glClearStencil(value)
    glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
  }

  /// Clears the depth buffer of the current pass to `value` (0…1).
  package func clearDepth(_ value: Double = 1) {
    let turn = beginGL()
    defer { turn.end() }
    precondition(passTarget != nil, "clearDepth outside a pass")
    glDepthMask(GLboolean(GL_TRUE))
    state.depth = nil
    state.setScissor(nil)
    glClearDepthf(GLfloat(value))
    glClear(GLbitfield(GL_DEPTH_BUFFER_BIT))
  }

  /// Sets the uniform of the current pipeline's program.
  package func setUniform(_ uniform: UniformLocation, _ value: UniformValue) {
    let turn = beginGL()
    defer { turn.end() }
    guard uniform.location >= 0 else { return }
    #if DEBUG
      precondition(current?.slot == uniform.pipeline, "uniform set for a pipeline that is not applied")
    #endif
    let location = uniform.location
    switch value {
    case .float(let x): glUniform1f(location, x)
    case .vec2(let x, let y): glUniform2f(location, x, y)
    case .vec3(let x, let y, let z): glUniform3f(location, x, y, z)
    case .vec4(let x, let y, let z, let w): glUniform4f(location, x, y, z, w)
    case .int(let x): glUniform1i(location, x)
    case .mat4(let elements):
      precondition(elements.count == 16, "mat4 uniform needs 16 floats")
      glUniformMatrix4fv(location, 1, GLboolean(GL_FALSE), elements)
    }
    GLCheck.debug("glUniform")
  }

  /// Draws `count` vertices (or indices, for indexed pipelines) starting at `first`, `instances`
  /// times, with the current pipeline, bindings and uniforms.
  package func draw(first: Int = 0, count: Int, instances: Int = 1) {
    let turn = beginGL()
    defer { turn.end() }
    guard let (pipeline, _) = current else { preconditionFailure("draw before applyPipeline") }
    precondition(passTarget != nil, "draw outside a pass")
    guard count > 0, instances > 0 else { return }
    let descriptor = pipeline.descriptor
    let mode = descriptor.primitive.glValue
    // Nothing in GL checks a client-side array's ranges: a draw from kept arrays that would
    // read past them stops here instead.
    precondition(instances <= hostArrayCapacity.instances ?? Int.max, "a draw reads instances past its kept array")
    if descriptor.indexType == .none {
      precondition(
        first >= 0 && first + count <= hostArrayCapacity.vertices ?? Int.max,
        "a draw reads vertices past its kept array")
      glDrawArraysInstanced(mode, GLint(first), GLsizei(count), GLsizei(instances))
    } else {
      let byteOffset = first * descriptor.indexType.byteSize
      let indices = state.elementArray
      if let indices {
        precondition(
          indices.elementSize == descriptor.indexType.byteSize && first >= 0
            && byteOffset + count * descriptor.indexType.byteSize <= indices.byteCount,
          "a draw reads indices past its kept array")
        precondition(
          (indices.largestIndex ?? Int.max) < hostArrayCapacity.vertices ?? Int.max,
          "a draw's indices name vertices past its kept arrays")
      } else {
        precondition(
          hostArrayCapacity.vertices == nil && state.elementBuffer != 0,
          "kept vertex arrays are drawn with kept indices, and a draw needs indices bound")
      }
      let offset = UnsafeRawPointer(bitPattern: indices?.address(byteOffset) ?? byteOffset)
      glDrawElementsInstanced(mode, GLsizei(count), descriptor.indexType.glValue, offset, GLsizei(instances))
    }
    GLCheck.debug("glDraw")
    statistics.drawCalls += 1
    statistics.triangles += descriptor.primitive.triangles(forElements: count) * instances
  }

  /// Ends the pass: resolves multisampling into the readable framebuffer and discards depth.
  package func endPass() {
    let turn = beginGL()
    defer { turn.end() }
    guard let target = passTarget else { preconditionFailure("endPass without beginPass") }
    passTarget = nil
    state.setScissor(nil)
    if target.samples > 1 {
      glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target.drawFramebuffer)
      glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), target.resolveFramebuffer)
      let w = GLint(target.width)
      let h = GLint(target.height)
      glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
      state.framebuffer = nil
      GLCheck.debug("glBlitFramebuffer")
    }
  }

  /// Reads a render target's pixels: rows top first, premultiplied alpha as the GPU blended them
  /// (`.premultiplied`), or converted to straight alpha (`.straight`).
  package func readPixels(_ handle: RenderTargetHandle, alpha: AlphaRepresentation = .premultiplied)
    throws(GLError) -> RGBAImage
  {
    let turn = beginGL()
    defer { turn.end() }
    precondition(passTarget == nil, "readPixels inside a pass")
    let target = targets[handle.slot]
    state.bindFramebuffer(target.resolveFramebuffer)
    let rowBytes = target.width * 4
    var pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * target.height) { buffer, count in
      glReadPixels(
        0, 0, GLsizei(target.width), GLsizei(target.height), GLenum(GL_RGBA),
        GLenum(GL_UNSIGNED_BYTE), buffer.baseAddress)
      count = buffer.count
    }
    try GLCheck.afterAllocation("glReadPixels")
    pixels.withUnsafeMutableBytes { bytes in
      var row = [UInt8](repeating: 0, count: rowBytes)
      for top in 0..<target.height / 2 {
        let bottom = target.height - 1 - top
        let a = bytes.baseAddress! + top * rowBytes
        let b = bytes.baseAddress! + bottom * rowBytes
        row.withUnsafeMutableBytes { temporary in
          temporary.baseAddress!.copyMemory(from: a, byteCount: rowBytes)
          a.copyMemory(from: b, byteCount: rowBytes)
          b.copyMemory(from: temporary.baseAddress!, byteCount: rowBytes)
        }
      }
    }
    let image = RGBAImage(width: target.width, height: target.height, pixels: pixels, alpha: .premultiplied)
    return alpha == .straight ? image.straightAlpha() : image
  }

  /// Hands the GL calls issued so far to the GPU without waiting (`glFlush`): on llvmpipe the
  /// rasteriser threads start on them while this thread goes on encoding.
  package func flush() {
    let turn = beginGL()
    defer { turn.end() }
    glFlush()
    statistics.flushes += 1
  }

  /// Like ``flush()``, and keeps a fence after the work handed over, which
  /// ``flushedWorkIsDone()`` polls (a fence kept by the flush before is dropped).
  package func flushTracked() {
    let turn = beginGL()
    defer { turn.end() }
    if let flushFence { glDeleteSync(flushFence) }
    flushFence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
    glFlush()
    statistics.flushes += 1
  }

  /// Whether the GPU has finished the work handed over by the last ``flushTracked()`` (true
  /// when no such work is pending); polls its fence without waiting.
  package func flushedWorkIsDone() -> Bool {
    guard let fence = flushFence else { return true }
    let turn = beginGL()
    defer { turn.end() }
    let status = glClientWaitSync(fence, 0, 0)
    // GL_WAIT_FAILED (a fence GL no longer knows) counts as done: nothing is left to wait for.
    guard status != GLenum(GL_TIMEOUT_EXPIRED) else { return false }
    glDeleteSync(fence)
    flushFence = nil
    return true
  }

  /// Waits until the GPU has finished all submitted work (`glFinish`).
  package func finish() {
    let turn = beginGL()
    defer { turn.end() }
    glFinish()
  }
}
