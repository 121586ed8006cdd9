import Foundation
import TesseraTesting
import Testing

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
    // This user's own folder, open to others: narrowed to 0700.
    try FileManager.default.createDirectory(atPath: base + "/open", withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: base + "/open")
    #expect(SnapshotLocation.claimPrivateFolder(base + "/open") == nil)
    #expect(try mode(base + "/open") == 0o700)
    // A link to another folder (as another user could make first), or a file: refused.
    try FileManager.default.createDirectory(atPath: base + "/elsewhere", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/elsewhere")
    let refused = try #require(SnapshotLocation.claimPrivateFolder(base + "/link"))
    #expect(refused.contains("TESSERA_SNAPSHOT_ARTIFACTS"))
    #expect(FileManager.default.createFile(atPath: base + "/file", contents: Data()))
    #expect(SnapshotLocation.claimPrivateFolder(base + "/file") != nil)
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
