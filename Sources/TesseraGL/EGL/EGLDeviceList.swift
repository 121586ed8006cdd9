import CEGL
import Foundation
import TesseraNumbers

/// One EGL device as `eglQueryDevicesEXT` reports it.
package struct EGLDeviceDescription: Sendable, Equatable {
  /// Position in the enumeration (the N of `--gpu device:N`).
  package let index: Int
  /// The device's extensions (e.g. `EGL_MESA_device_software`, `EGL_EXT_device_drm`).
  package let extensions: [String]
  /// The DRM primary node, when the device has one (`EGL_DRM_DEVICE_FILE_EXT`).
  package let drmDeviceFile: String?
  /// The DRM render node, when the device has one (`EGL_DRM_RENDER_NODE_FILE_EXT`).
  package let renderNodeFile: String?

  /// Whether this is Mesa's software rasterizer device.
  package var isSoftware: Bool { extensions.contains("EGL_MESA_device_software") }
}

/// An EGL device handle (an opaque pointer owned by the EGL implementation for the process).
struct EGLDeviceHandle: @unchecked Sendable {
  let raw: EGLDeviceEXT
}

/// Enumerates EGL devices through `EGL_EXT_device_enumeration`.
enum EGLDeviceList {
  /// The devices and their handles; throws when libEGL lacks device enumeration.
  static func enumerate() throws(EGLError) -> [(EGLDeviceDescription, EGLDeviceHandle)] {
    MesaEnvironment.prepare()
    guard clientExtensions().contains("EGL_EXT_device_enumeration"),
      let functions = EGLExtensionFunctions.shared
    else {
      throw EGLError.missingExtension(name: "EGL_EXT_device_enumeration", on: "libEGL")
    }
    var count: EGLint = 0
    guard functions.queryDevices(0, nil, &count) != 0 else {
      throw EGLError.unavailable(call: "eglQueryDevicesEXT", code: eglGetError())
    }
    var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
    guard functions.queryDevices(count, &devices, &count) != 0 else {
      throw EGLError.lastCall("eglQueryDevicesEXT")
    }
    return devices.prefix(Int(count)).enumerated().compactMap { index, device in
      guard let device else { return nil }
      let extensions = extensionList(functions.queryDeviceString(device, EGL_EXTENSIONS))
      func string(_ name: Int32, if needed: String) -> String? {
        guard extensions.contains(needed), let text = functions.queryDeviceString(device, name)
        else { return nil }
        return String(cString: text)
      }
      let description = EGLDeviceDescription(
        index: index, extensions: extensions,
        drmDeviceFile: string(EGL_DRM_DEVICE_FILE_EXT, if: "EGL_EXT_device_drm"),
        renderNodeFile: string(EGL_DRM_RENDER_NODE_FILE_EXT, if: "EGL_EXT_device_drm_render_node"))
      return (description, EGLDeviceHandle(raw: device))
    }
  }

  /// The DRM render nodes present on this machine (`/dev/dri/renderD*`), sorted.
  static func renderNodes() -> [String] {
    let directory = "/dev/dri"
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return []
    }
    return entries.filter { $0.hasPrefix("renderD") }.sorted().map { "\(directory)/\($0)" }
  }
}
