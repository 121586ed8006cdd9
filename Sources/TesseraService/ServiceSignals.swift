import CTesseraServer
import Glibc
import TesseraNumbers

/// The signals `tessera serve` answers: SIGTERM and SIGINT stop it, SIGHUP reloads its
/// configuration.
///
/// The handlers are installed when this is made, before the service starts, so that no signal
/// sent after that is lost: a supervisor may send SIGTERM the moment the service says it
/// listens. (A libdispatch signal source arms later, on libdispatch's own thread, and a signal
/// arriving while it is ignored until then is dropped: a server could miss its SIGTERM and run
/// on.) Each handler, in C, only writes the signal's number to a pipe (`tessera_signals.h`);
/// ``next()`` reads them. One per process.
///
/// The making thread blocks the three signals, so that the threads the service then starts
/// inherit them blocked and are not interrupted in their waits; ``answerHere()`` unblocks them
/// on the thread that reads (a process may also inherit them blocked from its parent). A stop
/// asked for while the service starts takes effect once it has started.
package final class ServiceSignals: Sendable {
  /// What a signal asks for.
  package enum Request: Equatable, Sendable {
    case stop
    case reload
  }

  /// Why the handlers could not be installed.
  package struct SetupError: Error, CustomStringConvertible {
    package let description: String
  }

  private let readEnd: Int32

  /// Installs the handlers and blocks the three signals on this thread.
  package init() throws(SetupError) {
    let end = tessera_signals_install()
    guard end >= 0 else {
      throw SetupError(description: "cannot answer signals: \(String(cString: strerror(errno)))")
    }
    readEnd = end
    var answered = Self.answered
    pthread_sigmask(SIG_BLOCK, &answered, nil)
  }

  /// Unblocks the three signals on this thread (the one that calls ``next()``).
  package func answerHere() {
    var answered = Self.answered
    pthread_sigmask(SIG_UNBLOCK, &answered, nil)
  }

  /// `body`'s result, run with the three signals blocked on this thread, so that threads it
  /// starts (workers of a reloaded configuration) inherit them blocked.
  package func blocked<Result>(_ body: () throws -> Result) rethrows -> Result {
    var answered = Self.answered
    pthread_sigmask(SIG_BLOCK, &answered, nil)
    defer { pthread_sigmask(SIG_UNBLOCK, &answered, nil) }
    return try body()
  }

  /// The next request, waiting for a signal.
  package func next() -> Request {
    while true {
      var byte: UInt8 = 0
      let count = read(readEnd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { return .stop }
      return Int32(byte) == SIGHUP ? .reload : .stop
    }
  }

  /// SIGTERM, SIGINT and SIGHUP.
  private static var answered: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, number) }
    return set
  }
}
