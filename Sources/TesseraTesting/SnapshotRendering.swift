import Foundation
import Tessera
import TesseraNumbers
import TesseraText

/// Renders snapshots the same way on any Linux machine: Mesa's software rasterizer (llvmpipe,
/// through the EGL device platform's software device, so a hardware GPU is never used) at
/// Tessera's pinned vector width (see `MesaEnvironment`), with the Noto fonts of Debian's
/// `fonts-noto-core` and `fonts-noto-cjk` packages. Nothing Tessera draws depends on the
/// time, the time zone or the locale.
///
/// Mesa reads `LP_NATIVE_VECTOR_WIDTH` once, when the process first starts llvmpipe: Tessera
/// sets it before opening EGL unless the environment sets it, and ``makeDevice()`` checks the
/// device it gets, so a test run whose environment asks for another width fails with a clear
/// message rather than drawing other pixels.
public enum SnapshotRendering {
  /// The pinned llvmpipe vector width, bits.
  public static var vectorWidth: Int { MesaEnvironment.vectorWidth }

  /// A GL device for snapshots: llvmpipe at the pinned width. Throws
  /// ``SnapshotRenderingError`` when Mesa's software device is missing or runs at another
  /// width (EGL was started before the pin, or the environment asks for another).
  public static func makeDevice() throws -> GLDevice {
    let device = try GLDevice(gpu: .software)
    try check(renderer: device.info.renderer)
    return device
  }

  /// Checks that a device's `GL_RENDERER` is llvmpipe at the pinned width.
  public static func check(renderer: String) throws(SnapshotRenderingError) {
    guard renderer.contains("llvmpipe") else { throw .notSoftware(renderer: renderer) }
    guard renderer.contains("\(vectorWidth) bits") else {
      throw .otherVectorWidth(renderer: renderer, expected: vectorWidth)
    }
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
  case otherVectorWidth(renderer: String, expected: Int)
  case missingFonts

  public var description: String {
    switch self {
    case .notSoftware(let renderer):
      return "snapshots render on Mesa's llvmpipe, but the software device is '\(renderer)'"
    case .otherVectorWidth(let renderer, let expected):
      return "snapshots render on llvmpipe at \(expected) bits, but it runs as '\(renderer)': EGL was started "
        + "before the snapshot helper pinned the width, or LP_NATIVE_VECTOR_WIDTH asks for another; "
        + "run the tests with LP_NATIVE_VECTOR_WIDTH=\(expected) in the environment"
    case .missingFonts:
      return "snapshots draw labels with the Noto fonts; install them: apt-get install fonts-noto-core fonts-noto-cjk"
    }
  }
}
