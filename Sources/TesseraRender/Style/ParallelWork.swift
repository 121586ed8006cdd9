import Dispatch
import Synchronization
import TesseraNumbers

/// Work spread over all cores.
enum ParallelWork {
  /// `transform` applied to every element on all cores; results in input order.
  static func map<Element: Sendable, Result: Sendable>(
    _ elements: [Element], _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    guard elements.count > 1 else { return elements.map(transform) }
    let results = Mutex<[Int: Result]>([:])
    DispatchQueue.concurrentPerform(iterations: elements.count) { index in
      let result = transform(elements[index])
      results.withLock { $0[index] = result }
    }
    return results.withLock { table in (0..<elements.count).map { table[$0]! } }
  }
}
