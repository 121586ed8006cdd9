import Dispatch
import Foundation
import Synchronization

/// Runs work that must end: when it has not returned after its limit, the case is printed and
/// the process stops, so a hang fails the run with its name instead of stalling it. With
/// `TESSERA_SWEEP_TRACE=FILE` each case's name is written to FILE before it runs (after a crash
/// the file names the case).
public enum Watchdog {
  final class Finished: Sendable {
    let flag = Atomic<Bool>(false)
  }

  /// `body`'s result; stops the process with `label` when `body` takes more than `seconds`.
  public static func run<T>(_ label: @autoclosure () -> String, seconds: Double = 60, _ body: () throws -> T)
    rethrows -> T
  {
    let finished = Finished()
    let name = label()
    if let trace = ProcessInfo.processInfo.environment["TESSERA_SWEEP_TRACE"] {
      // The case about to run, for finding the one that took the process down.
      try? Data((name + "\n").utf8).write(to: URL(fileURLWithPath: trace))
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      guard !finished.flag.load(ordering: .sequentiallyConsistent) else { return }
      FileHandle.standardError.write(Data("watchdog: '\(name)' did not finish within \(seconds) s\n".utf8))
      fatalError("watchdog: '\(name)' hung")
    }
    defer { finished.flag.store(true, ordering: .sequentiallyConsistent) }
    return try body()
  }
}
