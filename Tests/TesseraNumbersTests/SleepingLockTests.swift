import Dispatch
import TesseraNumbers
import Testing

@Suite struct SleepingLockTests {
  /// Callers take turns: increments from several threads at once all count.
  @Test func callersTakeTurns() {
    let lock = SleepingLock(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<1000 { lock.withLock { $0 += 1 } }
    }
    #expect(lock.withLock { $0 } == 8000)
  }

  /// What the body throws reaches the caller, and the lock is free again afterwards.
  @Test func errorsLeaveTheLockFree() {
    struct Refused: Error {}
    let lock = SleepingLock([Int]())
    #expect(throws: Refused.self) { try lock.withLock { (_: inout [Int]) throws(Refused) in throw Refused() } }
    lock.withLock { $0.append(1) }
    #expect(lock.withLock { $0 } == [1])
  }
}
