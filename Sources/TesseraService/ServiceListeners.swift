import Foundation
import TesseraNumbers

/// How the service's listeners are set up from its configuration.
extension RenderService {
  /// A listener's address, idle timeout, port sharing and body limit from `configuration`.
  static func serverOptions(_ configuration: ServiceConfiguration, host: String, port: UInt16) -> HTTPServerOptions {
    var options = HTTPServerOptions(host: host, port: port)
    options.idleTimeout = configuration.connectionTimeout
    options.reusePort = configuration.reusePort
    options.maxBody = configuration.maxBodyBytes
    return options
  }
}
