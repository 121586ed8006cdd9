import CGLES3
import TesseraNumbers

/// The GL objects of an offscreen render target.
///
/// Without multisampling, one framebuffer holds an RGBA8 colour renderbuffer and (optionally) a
/// DEPTH24_STENCIL8 renderbuffer. With 4× MSAA, drawing goes to a multisampled framebuffer and
/// ``GLDevice/endPass()`` resolves it with `glBlitFramebuffer` into a single-sample framebuffer,
/// which is what readback reads.
///
/// A target may also draw into a texture with another target's depth and stencil buffer (see
/// ``make(texture:width:height:sharing:)``).
struct GLRenderTarget {
  let width: Int
  let height: Int
  let samples: Int
  /// The framebuffer drawn into.
  let drawFramebuffer: GLuint
  /// The framebuffer read back (the same as `drawFramebuffer` without MSAA).
  let resolveFramebuffer: GLuint
  /// The renderbuffers this target owns (deleted with it).
  let renderbuffers: [GLuint]
  /// The DEPTH24_STENCIL8 renderbuffer drawn with, if any (owned, or another target's).
  let depthStencil: GLuint?

  static func make(_ descriptor: RenderTargetDescriptor, limits: DeviceLimits) throws(GLError)
    -> GLRenderTarget
  {
    let limit = min(limits.maxRenderbufferSize, limits.maxViewportWidth, limits.maxViewportHeight)
    guard descriptor.width >= 1, descriptor.height >= 1, descriptor.width <= limit,
      descriptor.height <= limit
    else {
      throw GLError.invalidSize(
        what: "render target", width: descriptor.width, height: descriptor.height, limit: limit)
    }
    guard descriptor.samples == 1 || (descriptor.samples > 1 && descriptor.samples <= limits.maxSamples)
    else {
      throw GLError.unsupportedSamples(requested: descriptor.samples, maximum: limits.maxSamples)
    }
    var renderbuffers: [GLuint] = []
    var framebuffers: [GLuint] = []
    do {
      let width = GLsizei(descriptor.width)
      let height = GLsizei(descriptor.height)
      func renderbuffer(_ format: Int32, samples: Int) -> GLuint {
        var id: GLuint = 0
        glGenRenderbuffers(1, &id)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), id)
        if samples > 1 {
          glRenderbufferStorageMultisample(
            GLenum(GL_RENDERBUFFER), GLsizei(samples), GLenum(format), width, height)
        } else {
          glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(format), width, height)
        }
        renderbuffers.append(id)
        return id
      }
      func framebuffer(color: GLuint, depthStencil: GLuint?) throws(GLError) -> GLuint {
        var id: GLuint = 0
        glGenFramebuffers(1, &id)
        framebuffers.append(id)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id)
        glFramebufferRenderbuffer(
          GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), color)
        if let depthStencil {
          glFramebufferRenderbuffer(
            GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER),
            depthStencil)
        }
        try GLCheck.afterAllocation("glRenderbufferStorage (\(descriptor.width)x\(descriptor.height))")
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
          throw GLError.framebufferIncomplete(status: status)
        }
        return id
      }
      let samples = descriptor.samples
      let color = renderbuffer(GL_RGBA8, samples: samples)
      let depth = descriptor.depthStencil ? renderbuffer(GL_DEPTH24_STENCIL8, samples: samples) : nil
      let draw = try framebuffer(color: color, depthStencil: depth)
      var resolve = draw
      if samples > 1 {
        resolve = try framebuffer(color: renderbuffer(GL_RGBA8, samples: 1), depthStencil: nil)
      }
      return GLRenderTarget(
        width: descriptor.width, height: descriptor.height, samples: samples,
        drawFramebuffer: draw, resolveFramebuffer: resolve, renderbuffers: renderbuffers, depthStencil: depth)
    } catch {
      glDeleteFramebuffers(GLsizei(framebuffers.count), framebuffers)
      glDeleteRenderbuffers(GLsizei(renderbuffers.count), renderbuffers)
      throw error
    }
  }

  /// A target drawing into `texture` (`width` × `height` texels): its colour attachment, no
  /// depth or stencil, no multisampling. Throws when the driver cannot render into the
  /// texture's format.
  static func make(texture: GLuint, width: Int, height: Int) throws(GLError) -> GLRenderTarget {
    var id: GLuint = 0
    glGenFramebuffers(1, &id)
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id)
    glFramebufferTexture2D(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
    let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      glDeleteFramebuffers(1, &id)
      throw GLError.framebufferIncomplete(status: status)
    }
    return GLRenderTarget(
      width: width, height: height, samples: 1, drawFramebuffer: id, resolveFramebuffer: id, renderbuffers: [],
      depthStencil: nil)
  }

  /// A target whose colour ends up in `texture` (`width` × `height` texels, the size of
  /// `other`) and that draws with `other`'s depth and stencil buffer, so that what is drawn
  /// into it hides and is hidden by what `other` holds. With `other` multisampled, drawing goes
  /// to a colour renderbuffer of as many samples, resolved into the texture by
  /// ``GLDevice/endPass()``.
  static func make(texture: GLuint, width: Int, height: Int, sharing other: GLRenderTarget) throws(GLError)
    -> GLRenderTarget
  {
    guard let depthStencil = other.depthStencil else { preconditionFailure("the shared target has no depth buffer") }
    precondition(other.width == width && other.height == height, "a shared depth buffer of another size")
    var framebuffers: [GLuint] = []
    var renderbuffers: [GLuint] = []
    func framebuffer(attach: () -> Void) throws(GLError) -> GLuint {
      var id: GLuint = 0
      glGenFramebuffers(1, &id)
      framebuffers.append(id)
      glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id)
      attach()
      try GLCheck.afterAllocation("framebuffer (\(width)x\(height))")
      let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
      guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebufferIncomplete(status: status) }
      return id
    }
    func attachTexture() {
      glFramebufferTexture2D(
        GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
    }
    func attachDepthStencil() {
      glFramebufferRenderbuffer(
        GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), depthStencil)
    }
    do {
      guard other.samples > 1 else {
        let id = try framebuffer {
          attachTexture()
          attachDepthStencil()
        }
        return GLRenderTarget(
          width: width, height: height, samples: 1, drawFramebuffer: id, resolveFramebuffer: id, renderbuffers: [],
          depthStencil: depthStencil)
      }
      var color: GLuint = 0
      glGenRenderbuffers(1, &color)
      renderbuffers.append(color)
      glBindRenderbuffer(GLenum(GL_RENDERBUFFER), color)
      glRenderbufferStorageMultisample(
        GLenum(GL_RENDERBUFFER), GLsizei(other.samples), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
      let draw = try framebuffer {
        glFramebufferRenderbuffer(
          GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), color)
        attachDepthStencil()
      }
      let resolve = try framebuffer(attach: attachTexture)
      return GLRenderTarget(
        width: width, height: height, samples: other.samples, drawFramebuffer: draw, resolveFramebuffer: resolve,
        renderbuffers: renderbuffers, depthStencil: depthStencil)
    } catch {
      glDeleteFramebuffers(GLsizei(framebuffers.count), framebuffers)
      glDeleteRenderbuffers(GLsizei(renderbuffers.count), renderbuffers)
      throw error
    }
  }

  func delete() {
    var framebuffers = [drawFramebuffer]
    if resolveFramebuffer != drawFramebuffer { framebuffers.append(resolveFramebuffer) }
    glDeleteFramebuffers(GLsizei(framebuffers.count), framebuffers)
    glDeleteRenderbuffers(GLsizei(renderbuffers.count), renderbuffers)
  }
}
