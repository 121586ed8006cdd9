import CEGL
import TesseraNumbers

/// A failure of the headless EGL set-up, named by the call that failed.
public enum EGLError: Error, Equatable, CustomStringConvertible {
  /// An EGL call failed with an EGL error code.
  case call(name: String, code: Int32)
  /// No EGL implementation answered (libEGL present but no vendor library, or no platform).
  case unavailable(call: String, code: Int32)
  /// A required EGL extension is missing.
  case missingExtension(name: String, on: String)
  /// `--gpu device:N` asked for a device that does not exist.
  case noSuchDevice(index: Int, count: Int)
  /// `--gpu software` found no software device, or `auto` found nothing usable.
  case noDevice(kind: String)
  /// The GBM platform needs a DRM render node and none exists or it cannot be opened.
  case renderNode(path: String?, reason: String)
  /// A `--gpu` value that is not one of the accepted forms.
  case invalidSelection(String)

  /// The hint appended when EGL itself seems to be missing.
  static let installHint =
    "no EGL implementation answered; install Mesa (apt-get install libegl-mesa0 libgl1-mesa-dri)"
    + " or a GPU vendor's EGL driver"

  public var description: String {
    switch self {
    case .call(let name, let code):
      return "\(name) failed: \(EGLError.name(of: code))"
    case .unavailable(let call, let code):
      return "\(call) failed: \(EGLError.name(of: code)) (\(EGLError.installHint))"
    case .missingExtension(let name, let on):
      return "\(on) lacks the EGL extension \(name)"
    case .noSuchDevice(let index, let count):
      return "EGL device \(index) does not exist (\(count) device(s) found; see 'tessera gpus')"
    case .noDevice(let kind):
      return "no \(kind) EGL device found (see 'tessera gpus')"
    case .renderNode(let path, let reason):
      return "gbm platform: \(path.map { "\($0): " } ?? "")\(reason)"
    case .invalidSelection(let text):
      return "invalid GPU selection '\(text)'; expected auto, surfaceless, software, device:N or gbm[:PATH]"
    }
  }

  /// The symbolic name of an EGL error code (e.g. `EGL_NOT_INITIALIZED`).
  public static func name(of code: Int32) -> String {
    let names: [Int32: String] = [
      0x3000: "EGL_SUCCESS", 0x3001: "EGL_NOT_INITIALIZED", 0x3002: "EGL_BAD_ACCESS",
      0x3003: "EGL_BAD_ALLOC", 0x3004: "EGL_BAD_ATTRIBUTE", 0x3005: "EGL_BAD_CONFIG",
      0x3006: "EGL_BAD_CONTEXT", 0x3007: "EGL_BAD_CURRENT_SURFACE", 0x3008: "EGL_BAD_DISPLAY",
      0x3009: "EGL_BAD_MATCH", 0x300A: "EGL_BAD_NATIVE_PIXMAP", 0x300B: "EGL_BAD_NATIVE_WINDOW",
      0x300C: "EGL_BAD_PARAMETER", 0x300D: "EGL_BAD_SURFACE", 0x300E: "EGL_CONTEXT_LOST",
      0x322B: "EGL_BAD_DEVICE_EXT",
    ]
    return names[code] ?? "EGL error 0x" + String(code, radix: 16, uppercase: true)
  }

  /// The error for the EGL call `name` that just failed, read from `eglGetError`.
  static func lastCall(_ name: String) -> EGLError {
    .call(name: name, code: eglGetError())
  }
}
