import Foundation
import Glibc
import Synchronization

/// `tessera serve` run as users run it: a config file with one empty style, an ephemeral
/// loopback port, one worker, its standard error collected.
final class ServeProcess: @unchecked Sendable {
  let process = Process()
  /// The folder holding the config (removed when this goes).
  let folder = NSTemporaryDirectory() + "tessera-serve-\(UUID().uuidString)"
  private let errors = Pipe()
  private let printed = Mutex("")
  private let started = DispatchSemaphore(value: 0)

  /// What it has written to standard error so far.
  var output: String { printed.withLock { $0 } }

  /// Starts it; `onOutput` sees all that was written so far each time more arrives (on a
  /// reader thread), with the process's id.
  init(onOutput: @escaping @Sendable (String, Int32) -> Void = { _, _ in }) throws {
    try FileManager.default.createDirectory(atPath: folder + "/styles", withIntermediateDirectories: true)
    try Data(#"{"version": 8, "sources": {}, "layers": []}"#.utf8).write(
      to: URL(fileURLWithPath: folder + "/styles/basic.json"))
    try Data(#"{"options": {"paths": {"styles": "styles"}}, "styles": {"basic": {"style": "basic.json"}}}"#.utf8)
      .write(to: URL(fileURLWithPath: folder + "/config.json"))
    process.executableURL = URL(fileURLWithPath: ProcessEndTests.tool)
    process.arguments = ["serve", "--config", folder + "/config.json", "--listen", "127.0.0.1:0", "--workers", "1"]
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
      guard let self else { return }
      let text = String(decoding: handle.availableData, as: UTF8.self)
      let now = printed.withLock { printed in
        printed += text
        return printed
      }
      onOutput(now, process.processIdentifier)
      if now.contains("listening on") || text.isEmpty { started.signal() }
    }
    try process.run()
  }

  /// Whether it said it listens within `seconds`.
  func waitUntilListening(seconds: Double = 60) -> Bool {
    started.wait(timeout: .now() + seconds) == .success
  }

  /// Whether it exited within `seconds`.
  func waitForExit(seconds: Double = 60) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    return !process.isRunning
  }

  /// Stops it if it still runs (SIGTERM, then SIGKILL after 5 s: a test may have failed
  /// because it ignored SIGTERM), then removes the folder.
  deinit {
    errors.fileHandleForReading.readabilityHandler = nil
    if process.isRunning {
      process.terminate()
      if !waitForExit(seconds: 5) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
    try? FileManager.default.removeItem(atPath: folder)
  }
}
