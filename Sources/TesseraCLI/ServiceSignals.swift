import Glibc
import TesseraNumbers

/// The signals `tessera serve` answers: SIGTERM and SIGINT stop it, SIGHUP reloads its
/// configuration.
///
/// The handlers are installed with `sigaction` when this is made, so that no signal sent after
/// that is lost: a supervisor may send SIGTERM the moment the service says it listens. (A
/// libdispatch signal source arms later, on libdispatch's own thread, and a signal arriving
/// while the signal is ignored until then is dropped: a server could miss its SIGTERM and run
/// on.) Each handler only writes the signal's number to a pipe, which is async-signal-safe;
/// ``next()`` reads them in order. The thread that makes it unblocks the three signals, which a
/// process may inherit blocked. One per process: the handlers write to the pipe of the last one
/// made.
final class ServiceSignals: Sendable {
  /// What a signal asks for.
  enum Request: Equatable {
    case stop
    case reload
  }

  private let readEnd: Int32

  /// Why the handlers could not be installed.
  struct SetupError: Error, CustomStringConvertible {
    let description: String
  }

  /// Installs the handlers; throws when the pipe cannot be made.
  init() throws(SetupError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw SetupError(description: "cannot make a pipe for signals: \(String(cString: strerror(errno)))")
    }
    // Not inherited by what the service starts (nginx in tests, helpers).
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    // A handler never waits: were the pipe ever full, a signal more would change nothing.
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    readEnd = ends[0]
    signalPipeWriteEnd = ends[1]
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { number in
      var byte = UInt8(truncatingIfNeeded: number)
      _ = write(signalPipeWriteEnd, &byte, 1)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    var answered = sigset_t()
    sigemptyset(&answered)
    for number in [SIGTERM, SIGINT, SIGHUP] {
      sigaction(number, &action, nil)
      sigaddset(&answered, number)
    }
    // A process inherits its parent's blocked signals (a supervisor's, a test runner's thread):
    // this thread takes them from now on, and threads it starts inherit that.
    pthread_sigmask(SIG_UNBLOCK, &answered, nil)
  }

  /// The next request, waiting for a signal; signals other than these three are not written.
  func next() -> Request {
    while true {
      var byte: UInt8 = 0
      let count = read(readEnd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { return .stop }
      return Int32(byte) == SIGHUP ? .reload : .stop
    }
  }
}

/// Where the handlers write: set once, before they are installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
