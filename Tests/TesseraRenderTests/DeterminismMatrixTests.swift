import Foundation
import TesseraJSON
import TesseraTestSupport
import Testing

/// The same bytes on every machine: goldens rendered in processes of llvmpipe's two vector
/// widths (128 and 256 bits) and with 1, 2 and 8 rasterizer threads (`LP_NUM_THREADS`), each
/// configuration twice, all sharing one shader cache base, compared byte for byte. `make test`
/// runs a representative set (labels in several scripts, markers, an info window, MSAA,
/// extrusions, hillshade, heatmaps) at 128 and 256 bits with 1 and 8 threads, the first twice;
/// `make determinism` (`TESSERA_DETERMINISM=full`) runs every golden in every configuration.
@Suite(.serialized) struct DeterminismMatrixTests {
  static let tool = PackagePaths.path(".build/debug/tessera")
  static let cases = PackagePaths.path("Tests/TesseraRenderTests/Cases")
  static var full: Bool { ProcessInfo.processInfo.environment["TESSERA_DETERMINISM"] == "full" }

  static let representative = [
    "labels-normal-street-tilted-fa", "labels-normal-street-dark-flat-zh", "text-vertical-cjk", "text-scripts",
    "maptype-normal-3d-msaa", "monaco-3d-z17-msaa", "grid-msaa-tilt45", "markers-icons-anchors",
    "info-window-persian-tilted", "overlays-heatmap-markers-tilted", "style-hillshade", "style-extrusion-translucent",
    "monaco-basic-tilt",
  ]

  /// The goldens to draw: all, or the representative set; those needing ../shared only where
  /// it is present.
  static func goldens() throws -> [String] {
    let all = try FileManager.default.contentsOfDirectory(atPath: cases).filter {
      FileManager.default.fileExists(atPath: "\(cases)/\($0)/case.json")
    }.sorted()
    return try (full ? all : representative.filter(all.contains)).filter { name in
      let root = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: "\(cases)/\(name)/case.json"))))
      let needsShared = root.object?["test"]?.object?["sharedData"] == .bool(true)
      return !needsShared || SharedData.isAvailable
    }
  }

  /// The configurations: (vector width, rasterizer threads, repetition).
  static var configurations: [(width: Int, threads: Int, run: Int)] {
    if full {
      return [128, 256].flatMap { width in [1, 2, 8].flatMap { threads in [0, 1].map { (width, threads, $0) } } }
    }
    return [(256, 1, 0), (256, 1, 1), (128, 1, 0), (256, 8, 0), (128, 8, 0)]
  }

  /// Renders `goldens` in one `tessera render --batch` process of a configuration; the PNGs'
  /// bytes by golden.
  static func render(_ goldens: [String], width: Int, threads: Int, cache: String, folder: String) throws -> [String:
    Data]
  {
    let jobs = goldens.map { name in
      JSONValue.object(["scene": .string("\(cases)/\(name)/case.json"), "output": .string("\(folder)/\(name).png")])
        .serialized()
    }.joined(separator: "\n")
    try Data(jobs.utf8).write(to: URL(fileURLWithPath: folder + "/jobs.jsonl"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["render", "--batch", folder + "/jobs.jsonl", "--threads", "1", "--gpu", "software"]
    var environment = ProcessInfo.processInfo.environment
    environment["LP_NATIVE_VECTOR_WIDTH"] = String(width)
    environment["LP_NUM_THREADS"] = String(threads)
    environment["MESA_SHADER_CACHE_DIR"] = cache
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "width \(width), \(threads) threads: exit \(process.terminationStatus)")
    var images: [String: Data] = [:]
    for name in goldens { images[name] = FileManager.default.contents(atPath: "\(folder)/\(name).png") }
    return images
  }

  @Test func everyConfigurationDrawsTheSameBytes() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "build tessera first")
    let goldens = try Self.goldens()
    let folder = NSTemporaryDirectory() + "tessera-determinism-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var reference: [String: Data] = [:]
    var differing: [String] = []
    for configuration in Self.configurations {
      let name = "w\(configuration.width)-t\(configuration.threads)-r\(configuration.run)"
      let output = folder + "/" + name
      try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
      let images = try Self.render(
        goldens, width: configuration.width, threads: configuration.threads, cache: folder + "/cache", folder: output)
      for golden in goldens {
        guard let bytes = images[golden] else {
          differing.append("\(golden) not drawn in \(name)")
          continue
        }
        if let first = reference[golden] {
          if first != bytes { differing.append("\(golden) differs in \(name)") }
        } else {
          reference[golden] = bytes
        }
      }
    }
    print(
      "determinism matrix: \(goldens.count) goldens × \(Self.configurations.count) configurations, "
        + "\(differing.count) differing")
    #expect(differing.isEmpty, "\(differing.joined(separator: "\n"))")
  }
}
