import Foundation
import Tessera
import TesseraTesting
import Testing

/// The assertion as a user's test meets it, with its reports caught as known issues. Its
/// references go to a scratch "test file" folder, not beside this file.
@Suite(.serialized) struct AssertMapSnapshotTests {
  /// The folder of the stand-in test file `Scratch/SnapshotSelfTests.swift`.
  static let folder = "/tmp/tessera-snapshot-selftest"

  /// The demo city at zoom 16, tilted, with its labels.
  static func scene(bearing: Double = 30) throws -> Scene {
    let camera = try Camera(latitude: 40.0, longitude: -74.0, zoom: 16, bearing: bearing, viewingAngle: 45)
    return Scene(options: MapOptions(width: 240, height: 160, camera: camera))
  }

  @Test func recordsThenMatchesThenCatchesAChange() throws {
    try? FileManager.default.removeItem(atPath: AssertMapSnapshotTests.folder)
    setenv("TESSERA_SNAPSHOT_ARTIFACTS", AssertMapSnapshotTests.folder + "/artifacts", 1)
    defer { unsetenv("TESSERA_SNAPSHOT_ARTIFACTS") }
    let scene = try AssertMapSnapshotTests.scene()
    var first: SnapshotVerdict?
    withKnownIssue("a missing reference is recorded and fails once") {
      first = assertMapSnapshot(
        of: scene, named: "demo-city", record: nil, filePath: "/tmp/tessera-snapshot-selftest/SnapshotSelfTests.swift")
    }
    let recorded = try #require(first)
    #expect(recorded.kind == .recorded)
    #expect(
      recorded.location.referencePath == AssertMapSnapshotTests.folder
        + "/__Snapshots__/SnapshotSelfTests/demo-city.png")

    // The same scene again: no issue.
    let second = assertMapSnapshot(
      of: scene, named: "demo-city", record: nil, filePath: "/tmp/tessera-snapshot-selftest/SnapshotSelfTests.swift")
    #expect(second?.kind == .matched)
    #expect(second?.comparison?.differentPixels == 0)

    // A deliberately changed scene (the camera turned 10°) fails, with the diff image written.
    var third: SnapshotVerdict?
    withKnownIssue("a changed scene differs") {
      third = assertMapSnapshot(
        of: try AssertMapSnapshotTests.scene(bearing: 40), named: "demo-city", record: nil,
        filePath: "/tmp/tessera-snapshot-selftest/SnapshotSelfTests.swift")
    }
    let differs = try #require(third)
    #expect(differs.kind == .differs)
    #expect(differs.message.contains("of pixels differ"))
    #expect(
      FileManager.default.fileExists(
        atPath: AssertMapSnapshotTests.folder + "/artifacts/SnapshotSelfTests/demo-city.diff.png"))
    #expect(
      FileManager.default.fileExists(
        atPath: AssertMapSnapshotTests.folder + "/artifacts/SnapshotSelfTests/demo-city.actual.png"))
    #expect((differs.comparison?.differentFraction ?? 0) > 0.01)
  }

  @Test func aMapOnTheSnapshotDeviceCanBeChecked() throws {
    let scene = try AssertMapSnapshotTests.scene()
    let map = try SnapshotRendering.map(scene: scene)
    #expect(map.device.info.renderer.contains("llvmpipe"))
    // Same pixels as the scene rendered by the assertion itself.
    let image = try SnapshotRendering.image(of: scene)
    #expect(try map.snapshot().image.pixels == image.pixels)
  }

  @Test func otherRenderersAreRefused() {
    #expect(throws: SnapshotRenderingError.self) {
      try SnapshotRendering.check(renderer: "NVIDIA H200/PCIe/SSE2")
    }
    // Both of llvmpipe's widths draw the same bytes.
    #expect(throws: Never.self) { try SnapshotRendering.check(renderer: "llvmpipe (LLVM 15.0.6, 128 bits)") }
    #expect(throws: Never.self) { try SnapshotRendering.check(renderer: "llvmpipe (LLVM 15.0.6, 256 bits)") }
  }
}
