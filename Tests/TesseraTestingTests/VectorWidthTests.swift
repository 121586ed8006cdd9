import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraGL

/// llvmpipe at 128 and 256 bits draws the same bytes, one process after another sharing one
/// shader cache (each width gets a folder of its own in it: Mesa 22.3's cache is not keyed by
/// the width, and a 128-bit process that loaded 256-bit code corrupted its heap and aborted).
@Suite(.serialized) struct VectorWidthTests {
  /// The `tessera` tool `swift test` built beside the tests.
  static let tool = PackagePaths.path(".build/debug/tessera")

  /// Goldens with labels, icons, markers, an info window and buildings: the draws the width
  /// once mattered to.
  static let scenes = [
    "labels-normal-low-flat", "markers-icons-anchors", "info-window-persian-tilted", "text-halos-justify",
  ]

  /// Renders `scene` in a new process at `width` bits with `cache` as Mesa's shader cache base.
  static func render(_ scene: String, width: String?, cache: String, into folder: String) throws -> (Int32, Data?) {
    let output = folder + "/\(scene)-\(width ?? "native").png"
    try? FileManager.default.removeItem(atPath: output)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = [
      "render", "--scene", PackagePaths.path("Tests/TesseraRenderTests/Cases/\(scene)/case.json"), "--gpu", "software",
      "--output", output,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["LP_NATIVE_VECTOR_WIDTH"] = width
    environment["MESA_SHADER_CACHE_DIR"] = cache
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, FileManager.default.contents(atPath: output))
  }

  @Test func bothWidthsDrawTheSameBytesSharingOneCache() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "build tessera first")
    let folder = NSTemporaryDirectory() + "tessera-widths-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cache = folder + "/cache"
    for scene in Self.scenes {
      // 256 first fills the cache, then 128 on the same cache (the order that crashed), then
      // 256 again, now from its own warm folder.
      let wide = try Self.render(scene, width: "256", cache: cache, into: folder)
      let narrow = try Self.render(scene, width: "128", cache: cache, into: folder)
      let again = try Self.render(scene, width: "256", cache: cache, into: folder)
      #expect(wide.0 == 0 && narrow.0 == 0 && again.0 == 0, "\(scene): exit \(wide.0), \(narrow.0), \(again.0)")
      #expect(wide.1 != nil && wide.1 == narrow.1 && wide.1 == again.1, "\(scene): the widths drew different bytes")
    }
    // One folder for each width inside the shared cache.
    let folders = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("tessera-") }
    #expect(folders.count == 2, "\(folders)")
  }

  @Test func theCacheFolderIsKeyedByWhatChangesCodeGeneration() {
    let cpu = "x86_64:avx avx2 sse4_1"
    let base = ["HOME": "/home/a"]
    let native = MesaEnvironment.shaderCacheFolder(environment: base, cpuFeatures: cpu)!
    #expect(native.hasPrefix("/home/a/.cache/mesa_shader_cache/tessera-"))
    var narrow = base
    narrow["LP_NATIVE_VECTOR_WIDTH"] = "128"
    var noSSE = base
    noSSE["GALLIUM_NOSSE"] = "1"
    let folders = [
      native, MesaEnvironment.shaderCacheFolder(environment: narrow, cpuFeatures: cpu)!,
      MesaEnvironment.shaderCacheFolder(environment: noSSE, cpuFeatures: cpu)!,
      MesaEnvironment.shaderCacheFolder(environment: base, cpuFeatures: "x86_64:avx sse4_1")!,
    ]
    #expect(Set(folders).count == 4)
    // The same configuration, the same folder (warm first frames keep the cache).
    #expect(MesaEnvironment.shaderCacheFolder(environment: base, cpuFeatures: cpu) == native)
    // An explicit cache folder is kept as the base; a disabled cache stays disabled.
    #expect(
      MesaEnvironment.shaderCacheFolder(environment: ["MESA_SHADER_CACHE_DIR": "/c"], cpuFeatures: cpu)?.hasPrefix(
        "/c/tessera-") == true)
    #expect(
      MesaEnvironment.shaderCacheFolder(environment: ["MESA_SHADER_CACHE_DISABLE": "true"], cpuFeatures: cpu) == nil)
    // A folder of ours handed down to a child process is not nested again, and a child of
    // another configuration gets its own folder beside it.
    #expect(
      MesaEnvironment.shaderCacheFolder(environment: ["MESA_SHADER_CACHE_DIR": native, "HOME": "/x"], cpuFeatures: cpu)
        == native)
    #expect(
      MesaEnvironment.shaderCacheFolder(
        environment: ["MESA_SHADER_CACHE_DIR": native, "LP_NATIVE_VECTOR_WIDTH": "128"], cpuFeatures: cpu)
        == folders[1])
  }
}
