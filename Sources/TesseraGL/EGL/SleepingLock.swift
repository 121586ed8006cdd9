import Foundation
import TesseraNumbers

/// A value behind a lock whose waiters sleep: for state held while something slow runs (opening
/// an EGL display: loading the driver and `eglInitialize`, tens of milliseconds).
///
/// Swift's `Mutex` is a priority-inheriting futex on Linux, and the kernel may have a thread
/// waiting for one spin while the holder runs on another core: waiting for EGL's start-up, the
/// thread that made the map spun 0.5–4 ms of a one-shot render, taking a core from the first
/// frame's tiles (perf: the rendering thread's samples in `rt_mutex_slowlock_block`).
/// `NSLock` is a plain pthread mutex, whose waiters sleep in the kernel until it is
/// released. Short critical sections keep `Mutex`.
package final class SleepingLock<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value, holding the lock; other callers sleep until it returns.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
