import Dispatch
import Foundation
import Synchronization
import TesseraService

/// A web host on 127.0.0.1 for tests of what the service fetches: answers each path from a
/// table (after `delay` seconds) and records every path it was asked for.
final class OutboundHost: Sendable {
  private let server: HTTPServer
  private let asked: Asked
  var port: UInt16 { server.port }

  /// The paths asked for, shared with the server's handler.
  final class Asked: Sendable {
    let paths = Mutex<[String]>([])
    /// Answers not sent yet (delayed).
    let pending = Atomic<Int>(0)
  }

  /// `routes` answers a path (nil: 404).
  init(delay: Double = 0, routes: @escaping @Sendable (String) -> HTTPResponse?) throws {
    let asked = Asked()
    self.asked = asked
    server = try HTTPServer(
      host: "127.0.0.1", port: 0, threads: 2, timeout: 30, connectionLimit: 64, maxBody: 0,
      handler: { request in
        asked.paths.withLock { $0.append(request.path) }
        let response = routes(request.path) ?? HTTPResponse.text(404, "no")
        if delay > 0 {
          asked.pending.add(1, ordering: .relaxed)
          DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            HTTPServer.respond(request, with: response)
            asked.pending.subtract(1, ordering: .relaxed)
          }
        } else {
          HTTPServer.respond(request, with: response)
        }
      })
  }

  /// The paths asked for so far.
  var paths: [String] { asked.paths.withLock { $0 } }

  /// `http://127.0.0.1:PORT` + `path`.
  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Stops the host once its delayed answers are sent (waiting at most 15 s).
  func stop() {
    let end = Date().addingTimeInterval(15)
    while asked.pending.load(ordering: .relaxed) > 0 && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
    Thread.sleep(forTimeInterval: 0.1)
    server.stop()
  }
}
