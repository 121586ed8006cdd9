import Foundation
import TesseraNumbers

/// Threads of their own for handling requests, which may wait (an icon fetch, a file): not
/// the server's polling threads (a probe on the same thread would wait too) and not Dispatch's
/// global queues, which on Linux run only about as many blocks at once as there are cores (a
/// few waiting requests would hold up every other user of them, such as the timers that answer
/// 504 at a request's deadline). Jobs run in the order given, on the first free thread.
final class RequestThreads: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []
  private var next = 0
  private var stopped = false

  init(count: Int, name: String) {
    for index in 0..<max(count, 1) {
      let thread = Thread { [self] in run() }
      thread.name = "\(name) \(index)"
      thread.start()
    }
  }

  /// Runs `job` on one of the threads (at once when one is free). After ``stop()`` the job is
  /// not run.
  func async(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    defer { condition.unlock() }
    guard !stopped else { return }
    jobs.append(job)
    condition.signal()
  }

  /// Lets the threads finish the jobs given so far, then end.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while next == jobs.count && !stopped { condition.wait() }
      guard next < jobs.count else {
        condition.unlock()
        return
      }
      let job = jobs[next]
      next += 1
      if next == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        next = 0
      } else if next >= 1024 && next * 2 >= jobs.count {
        jobs.removeFirst(next)
        next = 0
      }
      condition.unlock()
      job()
    }
  }
}
