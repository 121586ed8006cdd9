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
    #expect(folder.hasSuffix("/tessera-snapshots"))
    #expect(SnapshotLocation.artifactsFolder(environment: ["TESSERA_SNAPSHOT_ARTIFACTS": "/x"]) == "/x")
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
