import Dispatch
import Foundation
import Synchronization

/// Runs work that must end: when it has not returned after its limit, the case is printed and
/// the process stops, so a hang fails the run with its name instead of stalling it.
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
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      guard !finished.flag.load(ordering: .sequentiallyConsistent) else { return }
      FileHandle.standardError.write(Data("watchdog: '\(name)' did not finish within \(seconds) s\n".utf8))
      fatalError("watchdog: '\(name)' hung")
    }
    defer { finished.flag.store(true, ordering: .sequentiallyConsistent) }
    return try body()
  }
}
