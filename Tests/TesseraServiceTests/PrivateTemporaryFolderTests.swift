import Foundation
import Testing

@testable import TesseraService

/// The folder the service writes files it reads again to: its own, and used through the
/// descriptor that holds it open.
@Suite struct PrivateTemporaryFolderTests {
  /// The name in the temporary folder that `path` (through `/proc/self/fd`) stands for.
  static func name(_ path: String) throws -> String {
    try #require(realpath(path, nil).map { String(cString: $0) })
  }

  @Test func aFolderRemovedAndMadeAgainByNameIsNotUsed() throws {
    let folder = PrivateTemporaryFolder()
    let held = try folder.path()
    #expect(held.hasPrefix("/proc/self/fd/"), "\(held)")
    let name = try Self.name(held)
    #expect(FileManager.default.createFile(atPath: held + "/style.json", contents: Data("ours".utf8)))
    // Its name is removed (as a cleaner of /tmp would) and made again by someone else, with a
    // file of theirs at the same place.
    try FileManager.default.removeItem(atPath: name)
    try FileManager.default.createDirectory(atPath: name, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: name) }
    #expect(FileManager.default.createFile(atPath: name + "/style.json", contents: Data("planted".utf8)))
    // The paths given before do not lead to it; the next path is a new folder of its own.
    #expect(FileManager.default.contents(atPath: held + "/style.json") == nil)
    let again = try folder.path()
    #expect(try Self.name(again) != name)
    // The paths given before do not lead into the new folder either (its descriptor is not the
    // old one's number).
    #expect(FileManager.default.createFile(atPath: again + "/style.json", contents: Data("new".utf8)))
    #expect(FileManager.default.contents(atPath: held + "/style.json") == nil)
    var status = stat()
    #expect(lstat(try Self.name(again), &status) == 0 && status.st_mode & 0o777 == 0o700)
    // Removing it spares the name someone else made, and ends its use.
    let made = try Self.name(again)
    folder.remove()
    #expect(!FileManager.default.fileExists(atPath: made))
    #expect(FileManager.default.contents(atPath: name + "/style.json") == Data("planted".utf8))
    #expect(throws: ConfigurationError.self) { try folder.path() }
  }

  @Test func removingSparesAFolderMadeAgainUnderItsName() throws {
    let folder = PrivateTemporaryFolder()
    let name = try Self.name(try folder.path())
    try FileManager.default.removeItem(atPath: name)
    try FileManager.default.createDirectory(atPath: name, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: name) }
    folder.remove()
    #expect(FileManager.default.fileExists(atPath: name))
  }

  @Test func eachReadNumberIsNew() {
    let folder = PrivateTemporaryFolder()
    #expect(Set((0..<100).map { _ in folder.nextRead() }).count == 100)
  }
}
