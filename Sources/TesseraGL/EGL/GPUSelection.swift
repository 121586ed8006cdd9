import TesseraNumbers

/// Which GPU (EGL platform and device) to render with: the `--gpu` option.
public enum GPUSelection: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// The first hardware EGL device, else Mesa's surfaceless platform (the default).
  case auto
  /// Mesa's surfaceless platform (`EGL_PLATFORM_SURFACELESS_MESA`): llvmpipe, or a Mesa GPU.
  case surfaceless
  /// The first software device on the EGL device platform (`EGL_MESA_device_software`).
  case software
  /// EGL device number N (`EGL_EXT_device_enumeration` order) through the device platform.
  case device(Int)
  /// Mesa's GBM platform on a DRM render node; nil picks the first `/dev/dri/renderD*`.
  case gbm(renderNode: String?)

  /// Parses `auto`, `surfaceless`, `software`, `device:N` or `gbm[:PATH]`.
  public init(parsing text: String) throws(EGLError) {
    switch text {
    case "auto": self = .auto
    case "surfaceless": self = .surfaceless
    case "software": self = .software
    case "gbm": self = .gbm(renderNode: nil)
    default:
      if text.hasPrefix("device:"), let index = Int(text.dropFirst("device:".count)), index >= 0 {
        self = .device(index)
      } else if text.hasPrefix("gbm:"), text.count > 4 {
        self = .gbm(renderNode: String(text.dropFirst(4)))
      } else {
        throw EGLError.invalidSelection(text)
      }
    }
  }

  public var description: String {
    switch self {
    case .auto: return "auto"
    case .surfaceless: return "surfaceless"
    case .software: return "software"
    case .device(let index): return "device:\(index)"
    case .gbm(let path): return path.map { "gbm:\($0)" } ?? "gbm"
    }
  }
}
