import Foundation
import TesseraImage
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import TesseraCLI

/// One-shot commands of the `tessera` executable end without taking their maps apart
/// (``ProcessEnd``); everywhere else objects are released as usual.
@Suite struct ProcessEndTests {
  /// The `tessera` tool `swift test` built beside the tests.
  static let tool = PackagePaths.path(".build/debug/tessera")

  final class Probe {}

  @Test func keepsNothingOutsideTheExecutable() {
    weak var released: Probe?
    let before = ProcessEnd.keptCount
    do {
      let probe = Probe()
      released = probe
      ProcessEnd.keepUntilExit(probe)
    }
    #expect(released == nil)
    #expect(ProcessEnd.keptCount == before)
  }

  /// Runs the built executable with `arguments`; its exit status and standard output.
  static func run(_ arguments: [String], teardown: Bool) throws -> (status: Int32, printed: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment[ProcessEnd.teardownVariable] = teardown ? "1" : nil
    process.environment = environment
    let standardOutput = Pipe()
    process.standardOutput = standardOutput
    process.standardError = FileHandle.nullDevice
    try process.run()
    let printed = String(decoding: standardOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    return (process.terminationStatus, printed)
  }

  /// The image, the summary line and the exit status all arrive, whether the process skips
  /// its teardown (the default) or not.
  @Test(arguments: [false, true])
  func renderEndsWithItsOutputComplete(teardown: Bool) throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "build tessera first")
    let output = NSTemporaryDirectory() + "tessera-process-end-\(UUID().uuidString).png"
    defer { try? FileManager.default.removeItem(atPath: output) }
    let (status, printed) = try Self.run(
      [
        "render", "--map-type", "none", "--size", "64x48", "--gpu", "software", "--marker", "0,0", "--output",
        output,
      ], teardown: teardown)
    #expect(status == 0)
    #expect(printed.hasPrefix("\(output): 64x48 png, "), "\(printed)")
    #expect(printed.hasSuffix(" bytes\n"), "\(printed)")
    let bytes = try #require(FileManager.default.contents(atPath: output))
    let image = try ImageCodec.decode(Array(bytes), source: output)
    #expect(image.width == 64 && image.height == 48)
    // The marker was drawn: not every pixel is the background's.
    #expect(Set(stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] }).count > 1)
  }

  /// `tessera bench` reports whether its map was kept for the exit: by default it is, and
  /// with `TESSERA_TEARDOWN=1` it is not (the report and its JSON file arrive either way).
  @Test(arguments: [false, true])
  func benchKeepsItsMapUnlessTeardownIsAsked(teardown: Bool) throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "build tessera first")
    let folder = NSTemporaryDirectory() + "tessera-process-end-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scenario = #"""
      {"name": "process-end", "size": {"width": 48, "height": 32}, "mapType": "none",
       "camera": {"latitude": 10, "longitude": 20, "zoom": 3}}
      """#
    try Data(scenario.utf8).write(to: URL(fileURLWithPath: folder + "/scenario.json"))
    let (status, printed) = try Self.run(
      ["bench", folder + "/scenario.json", "--frames", "1", "--gpu", "software", "--json", folder + "/report.json"],
      teardown: teardown)
    #expect(status == 0)
    let report = try JSONParser.parse(Array(printed.utf8))
    #expect(report["ends_without_teardown"] == .bool(!teardown), "\(printed)")
    let written = try #require(FileManager.default.contents(atPath: folder + "/report.json"))
    #expect(String(decoding: written, as: UTF8.self) == printed)
  }
}
