import Foundation
import Glibc
import Synchronization
import Testing

/// `tessera serve` answers its signals from the moment it says it listens: none is lost.
@Suite struct ServeSignalsTests {
  /// SIGTERM sent by the reader the moment "listening on" arrives (what a supervisor may do):
  /// the server stops and exits 0.
  @Test func aSigtermSentAsSoonAsItListensStopsIt() throws {
    try #require(FileManager.default.isExecutableFile(atPath: ProcessEndTests.tool), "build tessera first")
    let sent = Mutex(false)
    let server = try ServeProcess { output, pid in
      guard output.contains("listening on") else { return }
      sent.withLock { sent in
        if !sent { kill(pid, SIGTERM) }
        sent = true
      }
    }
    #expect(server.waitUntilListening(), "\(server.output)")
    try #require(server.waitForExit(), "SIGTERM lost: still running, \(server.output)")
    #expect(server.process.terminationStatus == 0, "\(server.output)")
    #expect(server.output.contains("shutting down"))
  }

  /// SIGHUP the moment it listens reads the configuration again; SIGTERM then stops it.
  @Test func aReloadIsAnsweredThenAStop() throws {
    try #require(FileManager.default.isExecutableFile(atPath: ProcessEndTests.tool), "build tessera first")
    let reloaded = DispatchSemaphore(value: 0)
    let sent = Mutex(false)
    let server = try ServeProcess { output, pid in
      if output.contains("listening on") {
        sent.withLock { sent in
          if !sent { kill(pid, SIGHUP) }
          sent = true
        }
      }
      if output.contains("configuration reloaded") { reloaded.signal() }
    }
    try #require(server.waitUntilListening(), "\(server.output)")
    #expect(reloaded.wait(timeout: .now() + 60) == .success, "\(server.output)")
    kill(server.process.processIdentifier, SIGTERM)
    try #require(server.waitForExit(), "still running: \(server.output)")
    #expect(server.process.terminationStatus == 0, "\(server.output)")
    #expect(server.output.contains("shutting down"))
  }
}
