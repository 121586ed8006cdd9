import CEGL
import TesseraNumbers

/// EGL extension functions, looked up once through `eglGetProcAddress`.
struct EGLExtensionFunctions: @unchecked Sendable {
  let queryDevices: PFNEGLQUERYDEVICESEXTPROC
  let queryDeviceString: PFNEGLQUERYDEVICESTRINGEXTPROC

  /// Looks the functions up; nil when libEGL lacks device enumeration.
  static let shared: EGLExtensionFunctions? = {
    guard let queryDevices = eglGetProcAddress("eglQueryDevicesEXT"),
      let queryDeviceString = eglGetProcAddress("eglQueryDeviceStringEXT")
    else { return nil }
    return EGLExtensionFunctions(
      queryDevices: unsafeBitCast(queryDevices, to: PFNEGLQUERYDEVICESEXTPROC.self),
      queryDeviceString: unsafeBitCast(queryDeviceString, to: PFNEGLQUERYDEVICESTRINGEXTPROC.self))
  }()
}

/// Splits an EGL extension string into names.
func extensionList(_ text: UnsafePointer<CChar>?) -> [String] {
  guard let text else { return [] }
  return String(cString: text).split(separator: " ").map(String.init)
}

/// The client extensions of libEGL (`eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)`).
func clientExtensions() -> [String] {
  extensionList(eglQueryString(nil, EGL_EXTENSIONS))
}
