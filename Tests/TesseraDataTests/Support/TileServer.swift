import Foundation
import Glibc
import TesseraJSON
import TesseraTestSupport

/// The Python test tile server (Support/tile_server.py), started on a free port and stopped
/// when released. The server exits when its standard input closes, so it never outlives the
/// test process even if that crashes.
final class TileServer {
  let process = Process()
  let input = Pipe()
  let port: Int
  let countsFile = NSTemporaryDirectory() + "tessera-server-\(UUID().uuidString).json"

  init() throws {
    let script = PackagePaths.path("Tests/TesseraDataTests/Support/tile_server.py")
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, countsFile]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = input
    // Keep the write end out of other children (servers started later), or they would hold
    // this server's input open.
    _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      line += chunk
    }
    guard let text = String(data: line, encoding: .utf8),
      let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      input.fileHandleForWriting.closeFile()
      throw ServerError(description: "the tile server did not print its port")
    }
    self.port = port
  }

  /// The URL template of a behaviour (see tile_server.py).
  func template(_ behaviour: String) -> String {
    "http://127.0.0.1:\(port)/\(behaviour)/{z}/{x}/{y}.bin"
  }

  /// How many requests each path received.
  func requestCounts() throws -> [String: Int] {
    guard let data = FileManager.default.contents(atPath: countsFile) else { return [:] }
    let object = try JSONParser.parse(Array(data)).object ?? JSONObject()
    return Dictionary(uniqueKeysWithValues: object.pairs.map { ($0.key, Int($0.value.number ?? 0)) })
  }

  func stop() {
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  deinit { stop() }

  struct ServerError: Error, CustomStringConvertible {
    let description: String
  }
}
