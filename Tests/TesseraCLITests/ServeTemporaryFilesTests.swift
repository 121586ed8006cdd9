import Foundation
import Synchronization
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
    let folder = NSTemporaryDirectory() + "tessera-serve-files-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder + "/styles", withIntermediateDirectories: true)
    try Data(#"{"version": 8, "sources": {}, "layers": []}"#.utf8).write(
      to: URL(fileURLWithPath: folder + "/styles/basic.json"))
    try Data(#"{"options": {"paths": {"styles": "styles"}}, "styles": {"basic": {"style": "basic.json"}}}"#.utf8)
      .write(to: URL(fileURLWithPath: folder + "/config.json"))

    let process = Process()
    process.executableURL = URL(fileURLWithPath: ProcessEndTests.tool)
    process.arguments = ["serve", "--config", folder + "/config.json", "--listen", "127.0.0.1:0", "--workers", "1"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let printed = Mutex("")
    let started = DispatchSemaphore(value: 0)
    errors.fileHandleForReading.readabilityHandler = { handle in
      let text = String(decoding: handle.availableData, as: UTF8.self)
      let now = printed.withLock { printed in
        printed += text
        return printed
      }
      if now.contains("listening on") || text.isEmpty { started.signal() }
    }
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    #expect(started.wait(timeout: .now() + 60) == .success, "\(printed.withLock { $0 })")
    // Running: one folder of its own, mode 0700, holding the resolved style.
    let folders = try Self.privateFolders(of: process.processIdentifier)
    #expect(folders.count == 1, "\(folders) \(printed.withLock { $0 })")
    if let own = folders.first {
      let attributes = try FileManager.default.attributesOfItem(atPath: own)
      #expect((attributes[.posixPermissions] as? Int) == 0o700)
      let inside = FileManager.default.enumerator(atPath: own)?.allObjects as? [String] ?? []
      #expect(inside.contains { $0.hasSuffix("/basic.json") }, "\(inside)")
    }
    // SIGTERM: it drains, stops and exits 0, and the folder goes with it.
    process.terminate()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    errors.fileHandleForReading.readabilityHandler = nil
    #expect(!process.isRunning)
    #expect(process.terminationStatus == 0, "\(printed.withLock { $0 })")
    #expect(try Self.privateFolders(of: process.processIdentifier).isEmpty)
  }
}
