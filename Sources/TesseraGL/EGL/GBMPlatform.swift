import CEGL
import CGBM
import Glibc
import TesseraNumbers

/// Mesa's GBM platform: an EGL display on a DRM render node, for Intel and AMD GPUs.
enum GBMPlatform {
  /// Opens `renderNode`, makes a GBM device on it and returns its EGL display (not initialised)
  /// with the GBM device, which must stay alive as long as the display.
  static func display(renderNode: String) throws(EGLError) -> (EGLDisplay?, OpaquePointer) {
    guard clientExtensions().contains(where: { $0 == "EGL_KHR_platform_gbm" || $0 == "EGL_MESA_platform_gbm" })
    else {
      throw EGLError.missingExtension(name: "EGL_KHR_platform_gbm", on: "libEGL")
    }
    let fd = Glibc.open(renderNode, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw EGLError.renderNode(path: renderNode, reason: "cannot open: \(reason)")
    }
    guard let device = gbm_create_device(fd) else {
      close(fd)
      throw EGLError.renderNode(path: renderNode, reason: "gbm_create_device failed")
    }
    let display = eglGetPlatformDisplay(
      EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(device), nil)
    return (display, device)
  }
}
