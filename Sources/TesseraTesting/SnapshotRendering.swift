import Foundation
import Tessera
import TesseraNumbers
import TesseraText

/// Renders snapshots the same way on any Linux machine: Mesa's software rasterizer (llvmpipe,
/// through the EGL device platform's software device, so a hardware GPU is never used) at
/// whatever vector width the CPU or `LP_NATIVE_VECTOR_WIDTH` gives it (128 and 256 bits draw
/// the same bytes; Tessera gives each width a shader cache of its own, see
/// `MesaEnvironment`), with the Noto fonts of Debian's `fonts-noto-core` and `fonts-noto-cjk`
/// packages. Nothing Tessera draws depends on the time, the time zone or the locale.
public enum SnapshotRendering {
  /// A GL device for snapshots: llvmpipe. Throws ``SnapshotRenderingError`` when Mesa's
  /// software device is missing.
  public static func makeDevice() throws -> GLDevice {
    let device = try GLDevice(gpu: .software)
    try check(renderer: device.info.renderer)
    return device
  }

  /// Checks that a device's `GL_RENDERER` is llvmpipe (at any vector width).
  public static func check(renderer: String) throws(SnapshotRenderingError) {
    guard renderer.contains("llvmpipe") else { throw .notSoftware(renderer: renderer) }
  }

  /// A map of `scene` on a snapshot device (see ``makeDevice()``).
  public static func map(scene: Scene) throws -> Map {
    try checkFonts()
    return try Map(scene: scene, device: try makeDevice())
  }

  /// `scene` drawn on a snapshot device.
  public static func image(of scene: Scene) throws -> RGBAImage {
    try map(scene: scene).snapshot().image
  }

  /// The family every label falls back to, from `fonts-noto-core`.
  static let requiredFamily = "Noto Sans"

  /// Throws when the system lacks the Noto fonts labels are drawn with.
  static func checkFonts() throws(SnapshotRenderingError) {
    guard FontLibrary.system.faces.contains(where: { $0.family == requiredFamily }) else {
      throw .missingFonts
    }
  }
}

/// Why snapshots cannot be rendered deterministically.
public enum SnapshotRenderingError: Error, CustomStringConvertible, Equatable {
  case notSoftware(renderer: String)
  case missingFonts

  public var description: String {
    switch self {
    case .notSoftware(let renderer):
      return "snapshots render on Mesa's llvmpipe, but the software device is '\(renderer)'"
    case .missingFonts:
      return "snapshots draw labels with the Noto fonts; install them: apt-get install fonts-noto-core fonts-noto-cjk"
    }
  }
}
