import Foundation
import TesseraImage
import TesseraTesting
import Testing

@Suite struct SnapshotVerifierTests {
  /// A fresh folder standing in for a test file's folder, and for the failure images.
  static func location(_ name: String) -> SnapshotLocation {
    let folder = NSTemporaryDirectory() + "tessera-verifier-\(getpid())-\(name)"
    try? FileManager.default.removeItem(atPath: folder)
    return SnapshotLocation(
      name: name, testFilePath: folder + "/Tests/VerifierTests.swift",
      environment: ["TESSERA_SNAPSHOT_ARTIFACTS": folder + "/artifacts"])
  }

  /// A 40 × 30 picture: grey with a dark square whose corner is at (x, y).
  static func picture(squareAt x: Int = 10, _ y: Int = 10, shade: UInt8 = 40) -> RGBAImage {
    var image = RGBAImage(width: 40, height: 30, fill: Color(r: 200, g: 200, b: 200))
    for row in y..<min(y + 8, 30) {
      for column in x..<min(x + 8, 40) { image.setPixel(x: column, y: row, (shade, shade, shade, 255)) }
    }
    return image
  }

  @Test func aMissingReferenceIsRecordedThenMatches() throws {
    let location = SnapshotVerifierTests.location("recorded")
    let first = SnapshotVerifier.verify(SnapshotVerifierTests.picture(), at: location)
    #expect(first.kind == .recorded)
    #expect(!first.passed)
    #expect(first.message.contains("recorded") && first.message.contains("look at it"))
    #expect(FileManager.default.fileExists(atPath: location.referencePath))
    let second = SnapshotVerifier.verify(SnapshotVerifierTests.picture(), at: location)
    #expect(second.kind == .matched)
    #expect(second.comparison?.differentPixels == 0)
  }

  @Test func aChangedImageFailsWithItsNumbersAndImages() throws {
    let location = SnapshotVerifierTests.location("changed")
    _ = SnapshotVerifier.verify(SnapshotVerifierTests.picture(), at: location)
    let moved = SnapshotVerifier.verify(SnapshotVerifierTests.picture(squareAt: 14, 10), at: location)
    #expect(moved.kind == .differs)
    // The square moved 4 pixels: 2 × 4 × 8 pixels changed of 1,200.
    let comparison = try #require(moved.comparison)
    #expect(comparison.differentPixels + comparison.antialiasedPixels == 64)
    #expect(comparison.largestChannelDifference == 160)
    #expect(moved.message.contains("of pixels differ") && moved.message.contains("largest difference"))
    #expect(moved.message.contains(location.actualPath.split(separator: "/").dropLast().joined(separator: "/")))
    #expect(moved.writtenImages == [location.actualPath, location.diffPath])
    let actual = try PNGCodec.decode(
      Array(try Data(contentsOf: URL(fileURLWithPath: location.actualPath))), source: location.actualPath)
    #expect(actual.pixel(x: 20, y: 12).r == 40)
    // The reference is untouched.
    let reference = try PNGCodec.decode(
      Array(try Data(contentsOf: URL(fileURLWithPath: location.referencePath))), source: location.referencePath)
    #expect(reference.pixel(x: 20, y: 12).r == 200)
  }

  @Test func theToleranceDecides() {
    let location = SnapshotVerifierTests.location("tolerance")
    _ = SnapshotVerifier.verify(SnapshotVerifierTests.picture(), at: location)
    // A faintly lighter square: beyond an exact comparison, within MapLibre's threshold.
    let faint = SnapshotVerifierTests.picture(shade: 44)
    #expect(SnapshotVerifier.verify(faint, at: location, tolerance: .mapLibre).kind == .matched)
    #expect(SnapshotVerifier.verify(faint, at: location, tolerance: .exact).kind == .differs)
    // 64 of 1,200 pixels (5.3%) differ: allowed at 6%, not at 5%.
    let moved = SnapshotVerifierTests.picture(squareAt: 14, 10)
    #expect(!SnapshotVerifier.verify(moved, at: location, tolerance: SnapshotTolerance(allowed: 0.05)).passed)
    #expect(FileManager.default.fileExists(atPath: location.actualPath))
    #expect(SnapshotVerifier.verify(moved, at: location, tolerance: SnapshotTolerance(allowed: 0.06)).passed)
    // A passing comparison clears the failure images of an earlier run.
    #expect(!FileManager.default.fileExists(atPath: location.actualPath))
  }

  @Test func otherSizesAndMissingReferencesWithoutRecordingFail() {
    let location = SnapshotVerifierTests.location("sizes")
    let never = SnapshotVerifier.verify(SnapshotVerifierTests.picture(), at: location, recording: .never)
    #expect(never.kind == .failed)
    #expect(never.message.contains("no reference"))
    #expect(!FileManager.default.fileExists(atPath: location.referencePath))
    _ = SnapshotVerifier.verify(SnapshotVerifierTests.picture(), at: location)
    let wider = SnapshotVerifier.verify(RGBAImage(width: 41, height: 30, fill: .white), at: location)
    #expect(wider.kind == .differs)
    #expect(wider.message.contains("41×30") && wider.message.contains("40×30"))
  }

  @Test func recordingAllRewritesTheReference() throws {
    let location = SnapshotVerifierTests.location("rerecord")
    _ = SnapshotVerifier.verify(SnapshotVerifierTests.picture(), at: location)
    let again = SnapshotVerifier.verify(SnapshotVerifierTests.picture(squareAt: 20, 10), at: location, recording: .all)
    #expect(again.kind == .recorded)
    #expect(again.message.contains("re-recorded"))
    let reference = try PNGCodec.decode(
      Array(try Data(contentsOf: URL(fileURLWithPath: location.referencePath))), source: location.referencePath)
    #expect(reference.pixel(x: 22, y: 12).r == 40)
  }

  @Test func anUnreadableReferenceFailsWithItsPath() throws {
    let location = SnapshotVerifierTests.location("unreadable")
    try FileManager.default.createDirectory(
      atPath: (location.referencePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: location.referencePath, contents: Data("not a png".utf8))
    let verdict = SnapshotVerifier.verify(SnapshotVerifierTests.picture(), at: location)
    #expect(verdict.kind == .failed)
    #expect(verdict.message.contains(location.referencePath))
  }
}
