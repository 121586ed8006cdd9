import Dispatch
import Foundation
import Synchronization
import TesseraNumbers
import TesseraRender
import Testing

/// Parallel work keeps its results in order and uses no more threads than the cores it may
/// take: all of them, or those it leaves free to the binding thread.
@Suite struct ParallelWorkTests {
  /// The most transforms that ran at once while `map` squared `count` numbers (each takes a
  /// millisecond, so that threads overlap when there are several), and the results.
  static func squares(_ count: Int) -> (results: [Int], mostAtOnce: Int) {
    let running = Atomic<Int>(0)
    let most = Atomic<Int>(0)
    let results = ParallelWork.map(Array(0..<count)) { value -> Int in
      let now = running.add(1, ordering: .relaxed).newValue
      _ = most.max(now, ordering: .relaxed)
      usleep(1000)
      running.subtract(1, ordering: .relaxed)
      return value * value
    }
    return (results, most.load(ordering: .relaxed))
  }

  @Test func resultsKeepTheirOrder() {
    for count in [0, 1, 2, 3, 17, 64] {
      #expect(Self.squares(count).results == (0..<count).map { $0 * $0 })
      let leaving = ParallelWork.withCoresLeftFree(1) { Self.squares(count).results }
      #expect(leaving == (0..<count).map { $0 * $0 })
    }
  }

  @Test func leavesTheCoresItIsToldTo() {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    #expect(ParallelWork.cores == cores)
    #expect(ParallelWork.width(for: 64) == min(64, cores))
    #expect(ParallelWork.width(for: 1) == 1)
    ParallelWork.withCoresLeftFree(1) {
      #expect(ParallelWork.coresLeftFree == 1)
      #expect(ParallelWork.width(for: 64) == max(1, cores - 1))
      #expect(Self.squares(24).mostAtOnce <= max(1, cores - 1))
    }
    ParallelWork.withCoresLeftFree(cores) {
      #expect(ParallelWork.width(for: 64) == 1)
      #expect(Self.squares(24).mostAtOnce == 1)
    }
    #expect(ParallelWork.coresLeftFree == 0)
    #expect(Self.squares(24).mostAtOnce <= cores)
  }

  /// The binding holds on the thread that made it: work other threads start meanwhile may use
  /// every core.
  @Test func bindingStaysOnItsThread() {
    let seen = Mutex<Int?>(nil)
    let done = DispatchSemaphore(value: 0)
    ParallelWork.withCoresLeftFree(1) {
      let thread = Thread {
        seen.withLock { $0 = ParallelWork.coresLeftFree }
        done.signal()
      }
      thread.start()
      done.wait()
    }
    #expect(seen.withLock { $0 } == 0)
  }
}
