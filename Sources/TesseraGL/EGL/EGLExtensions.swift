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

/// The name of the Mesa driver behind an initialised display (`EGL_MESA_query_driver`:
/// "swrast" and "kms_swrast" are llvmpipe, others a GPU's), nil where the display does not
/// have the extension.
func displayDriverName(_ display: EGLDisplay, extensions: [String]) -> String? {
  guard extensions.contains("EGL_MESA_query_driver"),
    let function = eglGetProcAddress("eglGetDisplayDriverName")
  else { return nil }
  let driverName = unsafeBitCast(function, to: PFNEGLGETDISPLAYDRIVERNAMEPROC.self)
  return driverName(display).map { String(cString: $0) }
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
