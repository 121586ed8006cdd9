import Dispatch
import Foundation
import Synchronization
import TesseraService
import Testing

/// The connection layer of `tessera serve` over real HTTP on loopback: the port that cannot be
/// shared by accident.
@Suite(.serialized) struct ConnectionLimitsTests {
  @Test func aSecondServiceOnTheSamePortFailsAtStart() throws {
    let first = try RenderServiceTests.start(workers: 1)
    defer { first.shutdown() }
    #expect(try RawConnection.request(port: first.port, "/health").response?.status == 200)
    do {
      let second = try RenderServiceTests.start(workers: 1) { $0.port = first.port }
      second.shutdown()
      Issue.record("a second service started on port \(first.port)")
    } catch {
      let message = "\(error)"
      #expect(message.contains("127.0.0.1:\(first.port)") && message.contains("in use"), "\(message)")
    }
    // Asked for on both, the port is shared.
    let shared = try RenderServiceTests.start(workers: 1) { $0.reusePort = true }
    defer { shared.shutdown() }
    let sharing = try RenderServiceTests.start(workers: 1) {
      $0.reusePort = true
      $0.port = shared.port
    }
    defer { sharing.shutdown() }
    #expect(try RawConnection.request(port: shared.port, "/health").response?.status == 200)
  }
}
