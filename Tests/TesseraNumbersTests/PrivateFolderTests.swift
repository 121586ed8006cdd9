import Foundation
import TesseraNumbers
import Testing

/// Folders for files kept between processes: only absolute paths, never through a link, made
/// with the folders above them on request.
@Suite struct PrivateFolderTests {
  @Test func onlyAbsolutePathsWithoutATrailingSlashAreOpened() throws {
    let root = NSTemporaryDirectory() + "tessera-private-folder-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(PrivateFolder.descriptor("relative/folder") == nil)
    #expect(PrivateFolder.descriptor(root + "/a/b") == nil)  // its parent is absent
    let made = try #require(PrivateFolder.descriptor(root + "/a/b", makingParents: true))
    close(made)
    #expect(PrivateFolder.descriptor(root + "/a/b/") == nil)
    try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/a/b")
    #expect(PrivateFolder.descriptor(root + "/link") == nil)
    let again = try #require(PrivateFolder.descriptor(root + "/a/b"))
    close(again)
  }
}
