import Foundation
import Tessera
import TesseraTestSupport
import TesseraTesting
import Testing

/// llvmpipe's vector width is pinned before EGL starts (`MesaEnvironment`): a process that
/// does not set `LP_NATIVE_VECTOR_WIDTH` draws at the pinned width, byte for byte as one that
/// sets it; one that asks for 128 bits draws Tessera's labels on Mesa 22.3 not at all (it
/// aborts with a corrupted heap), which is why the width is pinned.
@Suite struct PinnedVectorWidthTests {
  /// The `tessera` tool `swift test` built beside the tests.
  static let tool = PackagePaths.path(".build/debug/tessera")

  /// A golden with labels, icons and buildings: the draws the width matters to.
  static let scene = PackagePaths.path("Tests/TesseraRenderTests/Cases/labels-normal-low-flat/case.json")

  /// Renders the scene in a new process with `width` as `LP_NATIVE_VECTOR_WIDTH` (nil: unset).
  static func render(width: String?) throws -> (status: Int32, png: Data?) {
    let output = NSTemporaryDirectory() + "tessera-width-\(getpid())-\(width ?? "unset").png"
    try? FileManager.default.removeItem(atPath: output)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["render", "--scene", scene, "--gpu", "software", "--output", output]
    var environment = ProcessInfo.processInfo.environment
    environment["LP_NATIVE_VECTOR_WIDTH"] = width
    // An abort is expected at 128 bits: no backtrace in the test log.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, FileManager.default.contents(atPath: output))
  }

  @Test func theSnapshotDeviceRunsAtThePinnedWidth() throws {
    let device = try SnapshotRendering.makeDevice()
    #expect(device.info.renderer.contains("llvmpipe (") && device.info.renderer.contains("256 bits"))
  }

  @Test func unsetAndPinnedWidthsDrawTheSameBytes() throws {
    try #require(FileManager.default.isExecutableFile(atPath: PinnedVectorWidthTests.tool), "build tessera first")
    let unset = try PinnedVectorWidthTests.render(width: nil)
    let pinned = try PinnedVectorWidthTests.render(width: "256")
    #expect(unset.status == 0 && pinned.status == 0)
    #expect(unset.png != nil && unset.png == pinned.png)
  }

  @Test func oneHundredTwentyEightBitsIsWhyTheWidthIsPinned() throws {
    try #require(FileManager.default.isExecutableFile(atPath: PinnedVectorWidthTests.tool), "build tessera first")
    let pinned = try PinnedVectorWidthTests.render(width: "256")
    let narrow = try PinnedVectorWidthTests.render(width: "128")
    // When a Mesa draws this at 128 bits, and the same bytes, the pin can go.
    #expect(
      narrow.status != 0 || narrow.png != pinned.png,
      "llvmpipe at 128 bits now draws Tessera's labels as at 256: the pinned width may no longer be needed")
  }
}
