import Foundation
import TesseraNumbers

/// What Tessera gives Mesa before EGL starts: a shader cache of its own for every
/// configuration that changes the code llvmpipe generates.
///
/// Mesa 22.3's on-disk shader cache (`~/.cache/mesa_shader_cache`) is keyed by the driver's
/// build, not by llvmpipe's vector width: a process at 128 bits (`LP_NATIVE_VECTOR_WIDTH=128`,
/// or a CPU without AVX) loads code a 256-bit process compiled and stored, and that code writes
/// 8 vertices into a buffer sized for 4 (a symbol vertex of 164 bytes runs past the padding and
/// corrupts the heap: glibc aborts). `Tools/mesa-cache-key` reproduces it with a few GL calls.
/// Each configuration therefore gets a folder of its own inside the cache, named by a hash of
/// everything that changes code generation: the vector width asked for, llvmpipe's switches
/// (`GALLIUM_NOSSE`, `LP_PERF`, `LP_DEBUG`, `GALLIUM_DRIVER`) and the CPU's features (a cache
/// on a shared home folder may meet another CPU). Processes of one configuration still share
/// their folder, so warm first frames keep what the cache saves.
///
/// Nothing is pinned: llvmpipe runs at its native width (256 bits with AVX, 128 without and on
/// ARM) unless `LP_NATIVE_VECTOR_WIDTH` says otherwise, and both widths draw the same bytes.
package enum MesaEnvironment {
  /// Variables whose values change the code llvmpipe generates.
  static let codeGenerationVariables = [
    "LP_NATIVE_VECTOR_WIDTH", "GALLIUM_NOSSE", "LP_PERF", "LP_DEBUG", "GALLIUM_DRIVER",
  ]

  /// Sets Mesa's shader cache folder for this configuration (once per process, before the
  /// first EGL display is opened; later calls do nothing).
  package static func prepare() { _ = prepared }

  /// The shader cache folder ``prepare()`` gave Mesa; nil when the cache is off or no folder
  /// could be named.
  package static var shaderCacheFolderInUse: String? { prepared }

  private static let prepared: String? = {
    let environment = ProcessInfo.processInfo.environment
    guard let folder = shaderCacheFolder(environment: environment, cpuFeatures: cpuFeatures()) else { return nil }
    // Mesa makes only the last folder of the path; without its parents it runs uncached.
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    PublishedEnvironment.set("MESA_SHADER_CACHE_DIR", folder)
    return folder
  }()

  /// Runs `body` (which opens a display) with llvmpipe told to give the display's screen
  /// `rasterThreads` rasteriser threads (`LP_NUM_THREADS`, read when the screen is made), then
  /// restores the environment (``PublishedEnvironment``: other threads may be reading it). Nil,
  /// or `LP_NUM_THREADS` set already (the user's choice), runs `body` as it is. Callers
  /// serialise display opening (``HeadlessDisplay``'s table lock).
  static func withRasterThreads<Result>(_ rasterThreads: Int?, _ body: () -> Result) -> Result {
    guard let rasterThreads, getenv("LP_NUM_THREADS") == nil else { return body() }
    PublishedEnvironment.set("LP_NUM_THREADS", String(max(0, rasterThreads)))
    defer { PublishedEnvironment.remove("LP_NUM_THREADS") }
    return body()
  }

  /// The cache folder for `environment` on a CPU with `cpuFeatures`: `tessera-<hash>` inside
  /// the folder Mesa would use (`MESA_SHADER_CACHE_DIR`, `MESA_GLSL_CACHE_DIR`,
  /// `$XDG_CACHE_HOME/mesa_shader_cache` or `~/.cache/mesa_shader_cache`); nil when the cache is
  /// disabled or no folder can be named.
  static func shaderCacheFolder(environment: [String: String], cpuFeatures: String) -> String? {
    if let disabled = environment["MESA_SHADER_CACHE_DISABLE"] ?? environment["MESA_GLSL_CACHE_DISABLE"],
      ["1", "true", "yes"].contains(disabled.lowercased())
    {
      return nil
    }
    var base: String
    if let explicit = environment["MESA_SHADER_CACHE_DIR"] ?? environment["MESA_GLSL_CACHE_DIR"], !explicit.isEmpty {
      base = explicit
    } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      base = xdg + "/mesa_shader_cache"
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      base = home + "/.cache/mesa_shader_cache"
    } else {
      return nil
    }
    // A folder of ours handed down by a Tessera process (perhaps of another configuration): its
    // parent is the base.
    if (base as NSString).lastPathComponent.hasPrefix("tessera-") {
      base = (base as NSString).deletingLastPathComponent
    }
    return base + "/tessera-" + configurationKey(environment: environment, cpuFeatures: cpuFeatures)
  }

  /// A hash (16 hex digits, FNV-1a) of the variables that change code generation and of the
  /// CPU's features.
  static func configurationKey(environment: [String: String], cpuFeatures: String) -> String {
    var text = "v1"
    for name in codeGenerationVariables { text += "|\(name)=\(environment[name] ?? "")" }
    text += "|cpu=" + cpuFeatures
    return FNV1a.paddedHex(FNV1a.hash(text))
  }

  /// The CPU's feature flags as Linux lists them (`/proc/cpuinfo`, the first processor's
  /// `flags` or `Features` line, sorted), or the machine's architecture when there are none.
  static func cpuFeatures() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return architecture }
    // Lines found as bytes: a machine with many processors lists thousands.
    for bytes in text.utf8.split(separator: UInt8(ascii: "\n"))
    where bytes.starts(with: "flags".utf8) || bytes.starts(with: "Features".utf8) {
      let line = String(decoding: bytes, as: UTF8.self)
      guard let colon = line.firstIndex(of: ":") else { continue }
      return architecture + ":"
        + line[line.index(after: colon)...].split(separator: " ").sorted().joined(separator: " ")
    }
    return architecture
  }

  private static var architecture: String {
    #if arch(x86_64)
      return "x86_64"
    #elseif arch(arm64)
      return "arm64"
    #else
      return "other"
    #endif
  }
}
