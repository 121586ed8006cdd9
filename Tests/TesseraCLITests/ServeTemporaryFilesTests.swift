import Foundation
import TesseraTestSupport
import Testing

/// What `tessera serve` writes to the temporary folder (a tileserver-gl config's resolved
/// styles) is in a folder of its own while it runs and gone when it stops.
@Suite struct ServeTemporaryFilesTests {
  /// The folders under the temporary folder that the process `pid` made for itself.
  static func privateFolders(of pid: Int32) throws -> [String] {
    let temporary = FileManager.default.temporaryDirectory.path
    return try FileManager.default.contentsOfDirectory(atPath: temporary)
      .filter { $0.hasPrefix("tessera-\(pid)-") }.map { temporary + "/" + $0 }
  }

  @Test func aStoppedServerLeavesNoFilesBehind() throws {
    try #require(FileManager.default.isExecutableFile(atPath: ProcessEndTests.tool), "build tessera first")
    let server = try ServeProcess()
    let process = server.process
    #expect(server.waitUntilListening(), "\(server.output)")
    // Running: one folder of its own, mode 0700, holding the resolved style.
    let folders = try Self.privateFolders(of: process.processIdentifier)
    #expect(folders.count == 1, "\(folders) \(server.output)")
    if let own = folders.first {
      let attributes = try FileManager.default.attributesOfItem(atPath: own)
      #expect((attributes[.posixPermissions] as? Int) == 0o700)
      let inside = FileManager.default.enumerator(atPath: own)?.allObjects as? [String] ?? []
      #expect(inside.contains { $0.hasSuffix("/basic.json") }, "\(inside)")
    }
    // SIGTERM: it drains, stops and exits 0, and the folder goes with it.
    process.terminate()
    try #require(server.waitForExit(), "still running after SIGTERM: \(server.output)")
    #expect(process.terminationStatus == 0, "\(server.output)")
    #expect(try Self.privateFolders(of: process.processIdentifier).isEmpty)
  }
}
