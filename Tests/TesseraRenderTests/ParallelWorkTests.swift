import Dispatch
import Foundation
import Synchronization
import TesseraNumbers
import TesseraRender
import Testing

/// Parallel work keeps its results in order and leaves a reserved core alone until the
/// reservation is released.
@Suite struct ParallelWorkTests {
  /// The most transforms that ran at once while `map` squared `count` numbers (each takes
  /// `milliseconds`, so that threads overlap when there are several), and the results.
  /// `whileRunning` runs on another thread once the first transform has begun.
  static func squares(
    _ count: Int, milliseconds: UInt32 = 1, whileRunning: (@Sendable () -> Void)? = nil
  ) -> (results: [Int], mostAtOnce: Int) {
    let running = Atomic<Int>(0)
    let most = Atomic<Int>(0)
    let started = Atomic<Bool>(false)
    let results = ParallelWork.map(Array(0..<count)) { value -> Int in
      let now = running.add(1, ordering: .relaxed).newValue
      _ = most.max(now, ordering: .relaxed)
      if let whileRunning, !started.exchange(true, ordering: .relaxed) {
        Thread { whileRunning() }.start()
      }
      usleep(milliseconds * 1000)
      running.subtract(1, ordering: .relaxed)
      return value * value
    }
    return (results, most.load(ordering: .relaxed))
  }

  @Test func resultsKeepTheirOrder() {
    for count in [0, 1, 2, 3, 17, 64] {
      let expected = (0..<count).map { $0 * $0 }
      #expect(Self.squares(count).results == expected)
      let reserved = ParallelWork.$reservation.withValue(CoreReservation()) { Self.squares(count).results }
      #expect(reserved == expected)
      let released = CoreReservation()
      let releasedMidway = ParallelWork.$reservation.withValue(released) {
        Self.squares(count, whileRunning: { released.release() }).results
      }
      #expect(releasedMidway == expected)
    }
  }

  @Test func leavesAReservedCoreAlone() {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    #expect(ParallelWork.cores == cores)
    #expect(ParallelWork.width(for: 64) == min(64, cores))
    #expect(ParallelWork.width(for: 1) == 1)
    let reservation = CoreReservation()
    ParallelWork.$reservation.withValue(reservation) {
      #expect(ParallelWork.width(for: 64) == max(1, cores - 1))
      #expect(Self.squares(24).mostAtOnce <= max(1, cores - 1))
    }
    reservation.release()
    ParallelWork.$reservation.withValue(reservation) {
      #expect(ParallelWork.width(for: 64) == min(64, cores))
    }
    #expect(ParallelWork.reservation == nil)
    #expect(Self.squares(24).mostAtOnce <= cores)
  }

  /// A thread waiting for the reserved core wakes when it is released, or when the work it
  /// would join is done, and does not wait once it is released.
  @Test func waitingEndsAtTheRelease() {
    let reservation = CoreReservation()
    let woken = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    Thread {
      reservation.wait(orUntil: gate)
      woken.signal()
    }.start()
    #expect(woken.wait(timeout: .now() + .milliseconds(50)) == .timedOut)
    #expect(!reservation.isReleased)
    reservation.release()
    #expect(woken.wait(timeout: .now() + .seconds(10)) == .success)
    #expect(reservation.isReleased)
    // Released: returns at once without the gate.
    reservation.wait(orUntil: DispatchSemaphore(value: 0))
    // Not released, the gate signalled: returns.
    let other = CoreReservation()
    let signalled = DispatchSemaphore(value: 0)
    signalled.signal()
    other.wait(orUntil: signalled)
    #expect(!other.isReleased)
  }

  /// The binding holds on the thread that made it: work other threads start meanwhile may use
  /// every core.
  @Test func bindingStaysOnItsThread() {
    let seen = Mutex<Bool?>(nil)
    let done = DispatchSemaphore(value: 0)
    ParallelWork.$reservation.withValue(CoreReservation()) {
      Thread {
        seen.withLock { $0 = ParallelWork.reservation != nil }
        done.signal()
      }.start()
      done.wait()
    }
    #expect(seen.withLock { $0 } == false)
  }
}
