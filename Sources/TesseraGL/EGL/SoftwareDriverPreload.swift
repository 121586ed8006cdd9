import Foundation
import Glibc
import TesseraNumbers

/// Loads Mesa's software driver (`swrast_dri.so`, llvmpipe, and libLLVM behind it) before EGL
/// does, with each library's symbols looked up in its own dependencies first
/// (`RTLD_DEEPBIND`).
///
/// Loading the driver is most of EGL start-up on llvmpipe: libLLVM alone has tens of thousands
/// of symbol relocations, and without deep binding the dynamic linker looks each one up through
/// every library of the process first (Swift's runtime, Foundation, ICU, the codecs), finding
/// nearly all of them only in libLLVM itself. Loaded this way, measured on 2 cores with
/// `tessera bench`: EGL start-up 29 → 25 ms (display open 22 → 18 ms). EGL's own `dlopen` of
/// the same file then finds it loaded.
///
/// Deep binding is skipped where it would change which definition a library gets:
/// `LD_PRELOAD` (a replacement allocator or a checker: the driver would bypass it), a sanitizer
/// runtime in the process (they refuse deep-bound libraries), `LIBGL_DRIVERS_PATH` (the user
/// picks the driver) and a `GALLIUM_DRIVER` that is not a software one.
enum SoftwareDriverPreload {
  /// The driver loaded, or nil when nothing was (skipped, or the file not found). Loading
  /// happens once per process, on first use.
  static var loadedPath: String? { loaded }

  /// Loads the driver unless skipped (see the type's notes); later calls do nothing.
  static func load() { _ = loaded }

  private static let loaded: String? = {
    let environment = ProcessInfo.processInfo.environment
    guard isSafe(environment: environment, sanitizerPresent: SanitizerRuntime.isLinked),
      let maps = mappedFiles(),
      let path = driverPath(maps: maps),
      FileManager.default.isReadableFile(atPath: path)
    else { return nil }
    // Kept for the process's lifetime, as EGL keeps its own handle.
    guard dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND) != nil else { return nil }
    return path
  }()

  /// Whether deep binding leaves every library with the definitions it would get otherwise.
  static func isSafe(environment: [String: String], sanitizerPresent: Bool) -> Bool {
    guard !sanitizerPresent else { return false }
    for name in ["LD_PRELOAD", "LIBGL_DRIVERS_PATH"] {
      if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty { return false }
    }
    if let driver = environment["GALLIUM_DRIVER"], !["", "llvmpipe", "softpipe"].contains(driver) { return false }
    return true
  }

  /// The software driver beside the Mesa EGL vendor library mapped into the process
  /// (`<libdir>/dri/swrast_dri.so` for `<libdir>/libEGL_mesa.so.0`, where Mesa's loader looks
  /// when `LIBGL_DRIVERS_PATH` is unset), from the text of `/proc/self/maps`; nil when Mesa's
  /// EGL is not loaded.
  static func driverPath(maps: String) -> String? {
    var maps = maps
    return maps.withUTF8 { bytes in
      let slash = UInt8(ascii: "/")
      let newline = UInt8(ascii: "\n")
      let vendorLibrary = Array("libEGL_mesa.so".utf8)
      // Bytes, not characters: the text has a line per mapping, hundreds in this process.
      var start = 0
      while start < bytes.count {
        var end = start
        while end < bytes.count, bytes[end] != newline { end += 1 }
        // A mapping's path starts at its line's first slash; its file name follows the last.
        if let first = (start..<end).first(where: { bytes[$0] == slash }),
          let last = (first..<end).last(where: { bytes[$0] == slash }),
          UnsafeBufferPointer(rebasing: bytes[(last + 1)..<end]).starts(with: vendorLibrary)
        {
          return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)
            + "/dri/swrast_dri.so"
        }
        start = end + 1
      }
      return nil
    }
  }

  /// The text of `/proc/self/maps`, read to its end (the file reports no size, and a read of
  /// its reported size stops after the first page).
  private static func mappedFiles() -> String? {
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.readToEnd() else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}
