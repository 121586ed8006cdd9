import Dispatch
import Foundation
import Synchronization
import TesseraNumbers

/// Work spread over the machine's cores.
package enum ParallelWork {
  /// Cores that work started on this thread leaves to other threads (0: it may use them all).
  ///
  /// A style's first frame prepares its tiles while the rendering thread opens the device and
  /// compiles the frame's pipelines; both are on the frame's critical path, and with as many
  /// tessellating threads as cores the rendering thread would get a share of a core instead of
  /// one (on two cores: two thirds). That preparation binds 1 here (``withCoresLeftFree(_:_:)``).
  /// Bound per thread (a task-local value bound outside any task lives on the binding thread),
  /// so that work started elsewhere meanwhile is not held back.
  @TaskLocal package static var coresLeftFree = 0

  /// Runs `body` with work it starts on this thread leaving `cores` cores to other threads.
  package static func withCoresLeftFree<Result>(_ cores: Int, _ body: () throws -> Result) rethrows -> Result {
    try $coresLeftFree.withValue(max(0, cores), operation: body)
  }

  /// How many threads `map` uses for `count` elements on this thread: the active cores less
  /// ``coresLeftFree``, at least one, at most `count`.
  package static func width(for count: Int) -> Int {
    max(1, min(count, cores - coresLeftFree))
  }

  /// The cores this process may run on, read once (Foundation reads the scheduler's affinity
  /// and the cgroup's quota at each call).
  package static let cores = ProcessInfo.processInfo.activeProcessorCount

  /// `transform` applied to every element on ``width(for:)`` threads (each takes the next
  /// element not yet taken); results in input order.
  package static func map<Element: Sendable, Result: Sendable>(
    _ elements: [Element], _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    let threads = width(for: elements.count)
    guard threads > 1 else { return elements.map(transform) }
    let next = Atomic<Int>(0)
    let results = Mutex<[Int: Result]>([:])
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < elements.count else { return }
        let result = transform(elements[index])
        results.withLock { $0[index] = result }
      }
    }
    return results.withLock { table in (0..<elements.count).map { table[$0]! } }
  }
}
