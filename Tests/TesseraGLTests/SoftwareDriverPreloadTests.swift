import Foundation
import Testing

@testable import TesseraGL

/// Mesa's software driver loaded ahead of EGL with deep binding: where it is found, when it is
/// skipped, and that EGL then draws with the very file loaded.
@Suite struct SoftwareDriverPreloadTests {
  /// Lines as `/proc/self/maps` writes them.
  static let maps = """
    7f0a1c000000-7f0a1c021000 rw-p 00000000 00:00 0
    7f0a1d2e4000-7f0a1d2f0000 r--p 00000000 fe:01 5128001                    /usr/lib/x86_64-linux-gnu/libEGL.so.1.1.0
    7f0a1d400000-7f0a1d41c000 r--p 00000000 fe:01 5128114                    /usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0.0.0
    7f0a1d600000-7f0a1d601000 r--p 00000000 00:00 0                          [vvar]
    """

  @Test func findsTheDriverBesideMesasEGL() {
    #expect(SoftwareDriverPreload.driverPath(maps: Self.maps) == "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so")
    let moved = Self.maps.replacingOccurrences(
      of: "/usr/lib/x86_64-linux-gnu/libEGL_mesa", with: "/opt/mesa/lib/libEGL_mesa")
    #expect(SoftwareDriverPreload.driverPath(maps: moved) == "/opt/mesa/lib/dri/swrast_dri.so")
    // A folder name with spaces and other letters, a library replaced on disk since it was mapped.
    let unusual = Self.maps.replacingOccurrences(
      of: "/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0.0.0", with: "/opt/mesa é/lib/libEGL_mesa.so.0 (deleted)")
    #expect(SoftwareDriverPreload.driverPath(maps: unusual) == "/opt/mesa é/lib/dri/swrast_dri.so")
    // Only the file name counts, not a folder named like the library.
    let folder = Self.maps.replacingOccurrences(
      of: "/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0.0.0", with: "/usr/lib/libEGL_mesa.so.0/other.so")
    #expect(SoftwareDriverPreload.driverPath(maps: folder) == nil)
  }

  @Test func findsNothingWithoutMesasEGL() {
    let withoutMesa = Self.maps.split(separator: "\n").filter { !$0.contains("EGL_mesa") }.joined(separator: "\n")
    #expect(SoftwareDriverPreload.driverPath(maps: withoutMesa) == nil)
    #expect(SoftwareDriverPreload.driverPath(maps: "") == nil)
  }

  @Test func skipsWhereDeepBindingWouldChangeADefinition() {
    #expect(SoftwareDriverPreload.isSafe(environment: [:], sanitizerPresent: false))
    #expect(SoftwareDriverPreload.isSafe(environment: ["GALLIUM_DRIVER": "llvmpipe"], sanitizerPresent: false))
    #expect(SoftwareDriverPreload.isSafe(environment: ["LD_PRELOAD": " "], sanitizerPresent: false))
    #expect(!SoftwareDriverPreload.isSafe(environment: [:], sanitizerPresent: true))
    #expect(!SoftwareDriverPreload.isSafe(environment: ["LD_PRELOAD": "libjemalloc.so.2"], sanitizerPresent: false))
    #expect(
      !SoftwareDriverPreload.isSafe(environment: ["LIBGL_DRIVERS_PATH": "/opt/mesa/dri"], sanitizerPresent: false))
    #expect(!SoftwareDriverPreload.isSafe(environment: ["GALLIUM_DRIVER": "zink"], sanitizerPresent: false))
  }

  /// On a machine without render nodes the surfaceless platform is llvmpipe: the driver is
  /// loaded ahead, and the only software driver in the process afterwards is that file.
  @Test func eglDrawsWithTheDriverLoadedAhead() throws {
    let environment = ProcessInfo.processInfo.environment
    guard EGLDeviceList.renderNodes().isEmpty, environment["LIBGL_ALWAYS_SOFTWARE"] == nil,
      SoftwareDriverPreload.isSafe(environment: environment, sanitizerPresent: false)
    else {
      print("SoftwareDriverPreloadTests: skipped: this machine has render nodes or a driver setting of its own")
      return
    }
    let device = try GLDevice(gpu: .surfaceless)
    #expect(device.info.renderer.contains("llvmpipe"))
    let loaded = try #require(SoftwareDriverPreload.loadedPath)
    let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
    let maps = try #require(try handle.readToEnd())
    let driverFiles = Set(
      String(decoding: maps, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
        guard line.hasSuffix("_dri.so"), let slash = line.firstIndex(of: "/") else { return nil }
        return String(line[slash...])
      })
    #expect(driverFiles == [loaded])
  }
}
