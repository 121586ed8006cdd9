import TesseraNumbers

/// Discovery of what a headless process can render with.
package enum HeadlessGPUs {
  /// The EGL devices, in `--gpu device:N` order; throws when libEGL lacks device enumeration.
  package static func devices() throws(EGLError) -> [EGLDeviceDescription] {
    try EGLDeviceList.enumerate().map(\.0)
  }

  /// The DRM render nodes (`/dev/dri/renderD*`) usable with `--gpu gbm:PATH`.
  package static func renderNodes() -> [String] {
    EGLDeviceList.renderNodes()
  }
}
