import Foundation
import TesseraImage
import Testing

@testable import TesseraTesting

@Suite struct SnapshotLocationTests {
  @Test func referencesLiveBesideTheTestFile() {
    let location = SnapshotLocation(
      name: "monacoAtNight()", testFilePath: "/src/App/Tests/AppTests/MapTests.swift",
      environment: ["TESSERA_SNAPSHOT_ARTIFACTS": "/tmp/artifacts"])
    #expect(location.referencePath == "/src/App/Tests/AppTests/__Snapshots__/MapTests/monacoAtNight.png")
    #expect(location.actualPath == "/tmp/artifacts/MapTests/monacoAtNight.actual.png")
    #expect(location.diffPath == "/tmp/artifacts/MapTests/monacoAtNight.diff.png")
  }

  @Test func artifactsDefaultToTheTemporaryFolder() {
    let folder = SnapshotLocation.artifactsFolder(environment: [:])
    #expect(folder.hasSuffix("/tessera-snapshots-\(getuid())"))
    #expect(SnapshotLocation.artifactsFolder(environment: ["TESSERA_SNAPSHOT_ARTIFACTS": "/x"]) == "/x")
  }

  @Test func theSharedArtifactsFolderIsClaimedOnlyWhenItIsThisUsersOwn() throws {
    let base = NSTemporaryDirectory() + "tessera-claim-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: base) }
    func mode(_ path: String) throws -> Int {
      try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }
    // Absent: made, 0700.
    #expect(SnapshotLocation.claimPrivateFolder(base + "/new") == nil)
    #expect(try mode(base + "/new") == 0o700)
    // This user's own folder that others may read: narrowed; that others may write to (they
    // may have put links inside): refused.
    try FileManager.default.createDirectory(atPath: base + "/readable", withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base + "/readable")
    #expect(SnapshotLocation.claimPrivateFolder(base + "/readable") == nil)
    #expect(try mode(base + "/readable") == 0o700)
    try FileManager.default.createDirectory(atPath: base + "/open", withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: base + "/open")
    #expect(SnapshotLocation.claimPrivateFolder(base + "/open") != nil)
    // Only looking (before removing images): an absent folder is not made, and not used.
    #expect(SnapshotLocation.claimPrivateFolder(base + "/absent", makes: false) != nil)
    #expect(!FileManager.default.fileExists(atPath: base + "/absent"))
    // A link to another folder (as another user could make first), or a file: refused.
    try FileManager.default.createDirectory(atPath: base + "/elsewhere", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/elsewhere")
    let refused = try #require(SnapshotLocation.claimPrivateFolder(base + "/link"))
    #expect(refused.contains("TESSERA_SNAPSHOT_ARTIFACTS"))
    #expect(FileManager.default.createFile(atPath: base + "/file", contents: Data()))
    #expect(SnapshotLocation.claimPrivateFolder(base + "/file") != nil)
  }

  @Test func failureImagesAreNeitherWrittenNorRemovedThroughALinkedDefaultFolder() throws {
    let base = NSTemporaryDirectory() + "tessera-claim-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: base + "/elsewhere/Tests", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: base) }
    // The default folder made first by someone else, as a link to a folder of theirs.
    let shared = base + "/tessera-snapshots"
    try FileManager.default.createSymbolicLink(atPath: shared, withDestinationPath: base + "/elsewhere")
    let image = RGBAImage(width: 2, height: 2, fill: .white)
    let problem = SnapshotVerifier.write(image, to: shared + "/Tests/map.actual.png", shared: shared)
    #expect(problem?.contains("TESSERA_SNAPSHOT_ARTIFACTS") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/elsewhere/Tests").isEmpty)
    // Files there are not removed either.
    #expect(FileManager.default.createFile(atPath: base + "/elsewhere/Tests/map.actual.png", contents: Data()))
    let location = SnapshotLocation(
      name: "map", referencePath: base + "/ref.png", actualPath: shared + "/Tests/map.actual.png",
      diffPath: shared + "/Tests/map.diff.png")
    SnapshotVerifier.removeArtifacts(location, shared: shared)
    #expect(FileManager.default.fileExists(atPath: base + "/elsewhere/Tests/map.actual.png"))
    // Removing the images of a passing check makes no folder.
    let absent = base + "/absent"
    SnapshotVerifier.removeArtifacts(
      SnapshotLocation(
        name: "map", referencePath: base + "/ref.png", actualPath: absent + "/Tests/map.actual.png",
        diffPath: absent + "/Tests/map.diff.png"), shared: absent)
    #expect(!FileManager.default.fileExists(atPath: absent))
    // A folder of this user's alone is written to.
    let own = base + "/own"
    #expect(SnapshotVerifier.write(image, to: own + "/Tests/map.actual.png", shared: own) == nil)
    #expect(FileManager.default.fileExists(atPath: own + "/Tests/map.actual.png"))
  }

  @Test func namesBecomeSafeFileNames() {
    #expect(SnapshotLocation.fileName("night mode / dark") == "night-mode---dark")
    #expect(SnapshotLocation.fileName("zoom 16.5") == "zoom-16.5")
    #expect(SnapshotLocation.fileName("../../etc/passwd") == "etc-passwd")
    #expect(SnapshotLocation.fileName("カフェ") == "snapshot")
    #expect(SnapshotLocation.fileName("test(_:)") == "test")
  }

  @Test func recordingFollowsTheArgumentThenTheEnvironment() {
    #expect(SnapshotRecording(record: true, environment: [:]) == .all)
    #expect(SnapshotRecording(record: false, environment: ["TESSERA_RECORD": "1"]) == .never)
    #expect(SnapshotRecording(record: nil, environment: ["TESSERA_RECORD": "1"]) == .all)
    #expect(SnapshotRecording(record: nil, environment: ["TESSERA_RECORD": "0"]) == .missing)
    #expect(SnapshotRecording(record: nil, environment: [:]) == .missing)
  }
}
