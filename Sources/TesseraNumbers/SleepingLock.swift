#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a lock whose waiters sleep: for state held while something slow runs
/// (opening an EGL display, tens of milliseconds; scanning the system's fonts; making a glyph's
/// distance field, milliseconds).
///
/// Swift's `Mutex` is a priority-inheriting futex on Linux, and the kernel has a thread waiting
/// for one spin while the holder runs on another core: waiting for EGL's start-up, the thread
/// that made the map spun 0.5–4 ms of a one-shot render, and waiting for the fonts of its
/// attribution line most of the 40–60 ms they took, taking a core from the first frame's tiles
/// (perf: the rendering thread's samples in `rt_mutex_slowlock_block`). This is a plain
/// pthread mutex, whose waiters sleep in the kernel until it is released. Short critical
/// sections keep `Mutex`.
package final class SleepingLock<Value: Sendable>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  package init(_ value: Value) {
    self.value = value
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    // Default attributes: a normal mutex, whose waiters block in the kernel without spinning.
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "pthread_mutex_init failed (\(status))")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value, holding the lock; other callers sleep until it returns.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
