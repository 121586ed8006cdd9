import CEGL
import CGLES3
import Glibc
import TesseraNumbers

/// An OpenGL ES 3 context, made current on the thread that created it.
///
/// A context is current on one thread at a time. It moves to another thread when it is
/// released on the first (``release()``) and then used on the other (``makeCurrentIfNeeded()``
/// makes it current there), so an object owning one can be handed between threads between
/// uses. Parallel rendering uses one context per thread on the same ``HeadlessDisplay``; the
/// contexts of a display whose renderer may be llvmpipe take turns (``ContextExclusion``).
package final class GLContext {
  /// The display the context lives on.
  package let display: HeadlessDisplay
  let context: EGLContext
  let surface: EGLSurface?
  /// The thread the context was last made current on.
  private(set) var thread: pthread_t

  /// Creates an ES 3.0 context on `display` and makes it current on the calling thread.
  package init(display: HeadlessDisplay) throws(EGLError) {
    self.display = display
    display.exclusion.enter()
    defer { display.exclusion.leave() }
    guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) != 0 else { throw EGLError.lastCall("eglBindAPI") }
    let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
    guard let context = eglCreateContext(display.display, display.config, nil, attributes) else {
      throw EGLError.lastCall("eglCreateContext")
    }
    var surface: EGLSurface?
    if display.needsPbuffer {
      let size: [EGLint] = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE]
      surface = eglCreatePbufferSurface(display.display, display.config, size)
      guard surface != nil else {
        let error = EGLError.lastCall("eglCreatePbufferSurface")
        eglDestroyContext(display.display, context)
        throw error
      }
    }
    guard eglMakeCurrent(display.display, surface, surface, context) != 0 else {
      let error = EGLError.lastCall("eglMakeCurrent")
      if let surface { eglDestroySurface(display.display, surface) }
      eglDestroyContext(display.display, context)
      throw error
    }
    self.context = context
    self.surface = surface
    thread = pthread_self()
  }

  /// Makes the context current on the calling thread if it is not: again after another
  /// context was made current there (another device created or used on the same thread), or
  /// for the first time on a thread it moved to after ``release()``. Using it on a thread while
  /// it is current on another is a programming error and stops the process with a message.
  func makeCurrentIfNeeded() {
    guard eglGetCurrentContext() != context else { return }
    display.exclusion.enter()
    defer { display.exclusion.leave() }
    guard eglMakeCurrent(display.display, surface, surface, context) != 0 else {
      preconditionFailure(
        "a GL context (a Map's, a TileRenderer's or a GLDevice's) was used on two threads at once: "
          + "use one from one thread at a time (\(EGLError.lastCall("eglMakeCurrent")))")
    }
    thread = pthread_self()
  }

  /// Makes the context not current on the calling thread (if it is), after flushing the GL
  /// commands issued so far, so that another thread can use it next; the next use on this
  /// thread makes it current again. Another context current on the thread is left alone.
  package func release() {
    guard eglGetCurrentContext() == context else { return }
    display.exclusion.withTurn {
      glFlush()
      _ = eglMakeCurrent(display.display, nil, nil, nil)
    }
  }

  /// Whether the calling thread is the one this context is current on.
  package var isOnOwningThread: Bool { pthread_equal(thread, pthread_self()) != 0 }

  deinit {
    display.exclusion.enter()
    defer { display.exclusion.leave() }
    if isOnOwningThread && eglGetCurrentContext() == context {
      eglMakeCurrent(display.display, nil, nil, nil)
    }
    if let surface { eglDestroySurface(display.display, surface) }
    eglDestroyContext(display.display, context)
  }
}
