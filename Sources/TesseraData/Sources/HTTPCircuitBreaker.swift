import Foundation
import Synchronization
import TesseraNumbers

/// Stops asking a host that does not answer: after ``threshold`` requests in a row that failed
/// to connect or timed out, requests to that host fail at once for ``cooldown`` seconds (then
/// one is let through to try again). One breaker may be shared by every source of a process or
/// a map; each HTTP source has its own by default.
package final class HTTPCircuitBreaker: Sendable {
  /// Failed requests in a row (connection refused or timed out) that open the breaker.
  package let threshold: Int
  /// Seconds an open breaker refuses requests.
  package let cooldown: Double

  private struct Host {
    var failures = 0
    var openUntil = 0.0
  }

  private let hosts = Mutex<[String: Host]>([:])

  package init(threshold: Int = 3, cooldown: Double = 30) {
    self.threshold = max(threshold, 1)
    self.cooldown = min(max(cooldown, 0), 3600)
  }

  /// Why a request to `host` is refused now, or nil when it may go ahead.
  package func refusal(for host: String, now: Double = Date().timeIntervalSince1970) -> String? {
    hosts.withLock { hosts in
      guard let state = hosts[host], state.openUntil > now else { return nil }
      return
        "\(host) is not answering (\(state.failures) requests in a row failed); not asked again for "
        + "\(Int(clamping: (state.openUntil - now).rounded(.up))) s"
    }
  }

  /// Records a request that reached the host (any HTTP status).
  package func recordAnswer(from host: String) {
    hosts.withLock { $0[host] = nil }
  }

  /// Records a request that could not connect or timed out.
  package func recordSilence(from host: String, now: Double = Date().timeIntervalSince1970) {
    hosts.withLock { hosts in
      var state = hosts[host] ?? Host()
      state.failures += 1
      if state.failures >= threshold { state.openUntil = now + cooldown }
      hosts[host] = state
    }
  }

  /// The host (with port) of an http(s) URL.
  static func host(of url: String) -> String {
    let rest = url.split(separator: "://", maxSplits: 1).dropFirst().first ?? Substring(url)
    return String(rest.prefix { $0 != "/" && $0 != "?" })
  }
}
