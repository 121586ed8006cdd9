import Foundation
import Tessera
import TesseraTesting
import Testing

/// A reference records the font files it was drawn with; a machine with other fonts fails the
/// snapshot with the files named, not with a pixel difference nobody can explain.
@Suite(.serialized) struct FontFingerprintTests {
  static let folder = "/tmp/tessera-font-fingerprint"

  static func scene() throws -> Scene {
    let camera = try Camera(latitude: 40.0, longitude: -74.0, zoom: 16.5, viewingAngle: 30)
    return Scene(options: MapOptions(width: 200, height: 140, camera: camera))
  }

  @Test func aMapKnowsTheFontFilesItDrewWith() throws {
    let map = try SnapshotRendering.map(scene: try Self.scene())
    _ = try map.snapshot()
    let fingerprint = FontFingerprint(of: map)
    #expect(fingerprint.files.contains { $0.name.hasPrefix("NotoSans-") }, "\(fingerprint.files)")
    #expect(fingerprint.files.allSatisfy { $0.bytes > 0 && $0.checksum.count >= 8 })
    #expect(FontFingerprint(json: Array(fingerprint.json.utf8)) == fingerprint)
    // A map type with labels off draws no glyphs: no font to record.
    var options = MapOptions(width: 64, height: 64, mapType: .none)
    options.attribution = .off
    let plain = try SnapshotRendering.map(scene: Scene(options: options))
    _ = try plain.snapshot()
    #expect(FontFingerprint(of: plain).files.isEmpty)
    // A Static Maps pin with a label draws it in the system's bold face; one without does not,
    // whatever other maps in the process have drawn.
    let pinned = try SnapshotRendering.map(scene: Scene(options: options))
    pinned.add(
      Marker(
        position: Coordinate(latitude: 0, longitude: 0),
        icon: .staticMapsPin(color: Color(r: 234, g: 67, b: 53), size: "mid", label: "A")))
    _ = try pinned.snapshot()
    #expect(FontFingerprint(of: pinned).files.map(\.name).contains { $0.hasPrefix("NotoSans-Bold") })
    let small = try SnapshotRendering.map(scene: Scene(options: options))
    small.add(
      Marker(
        position: Coordinate(latitude: 0, longitude: 0),
        icon: .staticMapsPin(color: Color(r: 234, g: 67, b: 53), size: "small", label: "A")))
    _ = try small.snapshot()
    #expect(FontFingerprint(of: small).files.isEmpty)
  }

  @Test func otherFontsFailWithTheFilesNamed() throws {
    try? FileManager.default.removeItem(atPath: Self.folder)
    let location = SnapshotLocation(
      name: "labels", referencePath: Self.folder + "/labels.png", actualPath: Self.folder + "/labels.actual.png",
      diffPath: Self.folder + "/labels.diff.png")
    try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
    let map = try SnapshotRendering.map(scene: try Self.scene())
    let image = try map.snapshot().image
    let fonts = FontFingerprint(of: map)
    let recorded = SnapshotVerifier.verify(image, at: location, recording: .missing, fonts: fonts)
    #expect(recorded.kind == .recorded)
    #expect(FileManager.default.fileExists(atPath: location.fontsPath))
    #expect(SnapshotVerifier.verify(image, at: location, recording: .never, fonts: fonts).passed)
    // This machine's Noto Sans is another version, and a face is missing: the same pixels, but
    // the fonts are named.
    var files = fonts.files
    let changed = files.removeFirst()
    files.append(FontFingerprint.File(name: changed.name, bytes: changed.bytes + 1, checksum: "0123456789abcdef"))
    files.append(FontFingerprint.File(name: "NotoSansExtra-Regular.ttf", bytes: 10, checksum: "feedface"))
    let other = SnapshotVerifier.verify(image, at: location, recording: .never, fonts: FontFingerprint(files: files))
    #expect(!other.passed)
    #expect(other.message.contains("recorded with other fonts"), "\(other.message)")
    #expect(other.message.contains("\(changed.name) is another version here"), "\(other.message)")
    #expect(other.message.contains("NotoSansExtra-Regular.ttf draws here but not in the reference"))
    // A reference without a fonts file gets one written once it matches.
    try FileManager.default.removeItem(atPath: location.fontsPath)
    #expect(SnapshotVerifier.verify(image, at: location, recording: .missing, fonts: fonts).passed)
    #expect(FileManager.default.fileExists(atPath: location.fontsPath))
  }
}
