import Dispatch
import Foundation
import Synchronization
import TesseraNumbers

/// Work spread over the machine's cores.
package enum ParallelWork {
  /// A core that work started on this thread leaves to another thread until that thread
  /// releases it (nil: the work may use every core).
  ///
  /// A style's first frame prepares its tiles while the rendering thread opens the device and
  /// makes the frame's pipelines; both are on the frame's critical path, and with as many
  /// tessellating threads as cores the rendering thread would get a share of a core instead of
  /// one (on two cores: two thirds). That preparation binds a reservation here, which the
  /// rendering thread releases when it has nothing left to do but wait for the tiles; work then
  /// under way takes the core back at once. Bound per thread (a task-local value bound outside
  /// any task lives on the binding thread), so that work started elsewhere is not held back.
  @TaskLocal package static var reservation: CoreReservation?

  /// The cores this process may run on, read once (Foundation reads the scheduler's affinity
  /// and the cgroup's quota at each call).
  package static let cores = ProcessInfo.processInfo.activeProcessorCount

  /// How many threads `map` starts with for `count` elements on this thread: every core, less
  /// one while ``reservation`` holds one; at least one, at most `count`.
  package static func width(for count: Int) -> Int {
    let reserved = reservation.map { $0.isReleased ? 0 : 1 } ?? 0
    return max(1, min(count, cores - reserved))
  }

  /// `transform` applied to every element on ``width(for:)`` threads, and on one more once a
  /// reservation is released (each thread takes the next element not yet taken); results in
  /// input order.
  package static func map<Element: Sendable, Result: Sendable>(
    _ elements: [Element], _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    let count = elements.count
    let starting = width(for: count)
    let threads = max(1, min(count, cores))
    guard threads > 1 else { return elements.map(transform) }
    let reservation = self.reservation
    let next = Atomic<Int>(0)
    let arrived = Atomic<Int>(0)
    // Signalled once the elements are all taken, so that a thread waiting for the reserved
    // core does not wait for the reservation's release.
    let allTaken = DispatchSemaphore(value: 0)
    let results = Mutex<[Int: Result]>([:])
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      // Threads are counted as they arrive, not by iteration: should Dispatch run the
      // iterations one after another on one thread, the first takes every element.
      if arrived.add(1, ordering: .relaxed).newValue > starting, let reservation,
        next.load(ordering: .relaxed) < count
      {
        reservation.wait(orUntil: allTaken)
      }
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < count else {
          allTaken.signal()
          return
        }
        let result = transform(elements[index])
        results.withLock { $0[index] = result }
      }
    }
    return results.withLock { table in (0..<count).map { table[$0]! } }
  }
}

/// One core held for a thread on a frame's critical path while work it will wait for runs
/// beside it (``ParallelWork/reservation``), until ``release()``.
package final class CoreReservation: Sendable {
  private struct State {
    var released = false
    /// Threads of ``ParallelWork/map(_:_:)`` waiting for the core, woken by the release.
    var waiting: [DispatchSemaphore] = []
  }
  private let state = Mutex(State())

  package init() {}

  /// Whether the core has been given back.
  package var isReleased: Bool { state.withLock { $0.released } }

  /// Gives the core back: work under the reservation uses every core from now on, threads
  /// waiting for it included. Later calls do nothing.
  package func release() {
    let waiting = state.withLock { state in
      let waiting = state.waiting
      state.released = true
      state.waiting = []
      return waiting
    }
    for semaphore in waiting { semaphore.signal() }
  }

  /// Blocks until the core is released or `other` is signalled; returns at once when it was
  /// released already.
  package func wait(orUntil other: DispatchSemaphore) {
    let mustWait = state.withLock { state in
      guard !state.released else { return false }
      state.waiting.append(other)
      return true
    }
    if mustWait { other.wait() }
  }
}
