import Foundation
import TesseraNumbers

/// How the service's listeners are set up from its configuration: deadlines, caps and the
/// reserve kept for the probes.
extension RenderService {
  /// Threads that handle requests other than the probes (at most this many wait at once).
  static let requestThreads = 32
  /// Connections above `connectionLimit` that serve only the probes (``probePaths``).
  public static let reserveConnections = 16
  /// What the reserve connections serve, and what is answered on the polling threads.
  static let probePaths: [String] = ["/health", "/readyz", "/metrics"]

  /// A listener's address, deadlines, cap per client and body limit from `configuration`.
  static func serverOptions(_ configuration: ServiceConfiguration, host: String, port: UInt16) -> HTTPServerOptions {
    var options = HTTPServerOptions(host: host, port: port)
    options.idleTimeout = configuration.connectionTimeout
    options.headerTimeout = configuration.headerTimeout
    options.bodyTimeout = configuration.bodyTimeout
    options.sendTimeout = configuration.bodyTimeout
    options.reserveHeaderTimeout = min(configuration.headerTimeout, 2)
    options.maxConnectionsPerClient = configuration.maxConnectionsPerClient
    options.reusePort = configuration.reusePort
    options.maxBody = configuration.maxBodyBytes
    return options
  }
}
