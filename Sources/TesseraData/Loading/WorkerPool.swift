import Foundation
import Synchronization
import TesseraNumbers

/// A fixed set of threads running submitted jobs in order of submission.
///
/// Tile fetching blocks (file reads, HTTP), so the pool owns real threads rather than relying on
/// Dispatch's pool, which on a two-core machine starts few threads for blocking work. Threads
/// stop when the pool is released.
final class WorkerPool: Sendable {
  private let jobs = Mutex<(queue: [@Sendable () -> Void], stopping: Bool)>(([], false))
  private let available = DispatchSemaphore(value: 0)
  let threadCount: Int

  init(threads: Int, name: String) {
    threadCount = max(threads, 1)
    for index in 0..<threadCount {
      let thread = Thread { [weak self] in
        while let job = self?.next() { job() }
      }
      thread.name = "\(name)-\(index)"
      thread.start()
    }
  }

  deinit {
    jobs.withLock { $0.stopping = true }
    for _ in 0..<threadCount { available.signal() }
  }

  /// Queues a job.
  func submit(_ job: @escaping @Sendable () -> Void) {
    jobs.withLock { $0.queue.append(job) }
    available.signal()
  }

  /// The next job, waiting for one; nil once the pool stops.
  private func next() -> (@Sendable () -> Void)? {
    available.wait()
    return jobs.withLock { state in
      if state.stopping { return nil }
      return state.queue.isEmpty ? nil : state.queue.removeFirst()
    }
  }
}
