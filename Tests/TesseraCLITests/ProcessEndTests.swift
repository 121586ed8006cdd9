import Foundation
import TesseraImage
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

  /// The image, the summary line on standard output (a pipe, so buffered) and the exit status
  /// all arrive although the process skips its teardown.
  @Test func theExecutableEndsWithItsOutputComplete() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "build tessera first")
    let output = NSTemporaryDirectory() + "tessera-process-end-\(UUID().uuidString).png"
    defer { try? FileManager.default.removeItem(atPath: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.tool)
    process.arguments = [
      "render", "--map-type", "none", "--size", "64x48", "--gpu", "software", "--marker", "0,0", "--output", output,
    ]
    let standardOutput = Pipe()
    process.standardOutput = standardOutput
    process.standardError = FileHandle.nullDevice
    try process.run()
    let printed = String(decoding: standardOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(process.terminationReason == .exit)
    #expect(printed.hasPrefix("\(output): 64x48 png, "), "\(printed)")
    #expect(printed.hasSuffix(" bytes\n"), "\(printed)")
    let bytes = try #require(FileManager.default.contents(atPath: output))
    let image = try ImageCodec.decode(Array(bytes), source: output)
    #expect(image.width == 64 && image.height == 48)
    // The marker was drawn: not every pixel is the background's.
    #expect(Set(stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] }).count > 1)
  }
}
