import Synchronization
import TesseraNumbers

/// A render that whoever asked for it may stop, from any thread: a map given one checks it
/// between the phases of a frame and inside its long loops and stops with
/// ``RenderCancelledError`` (a service cancels a render whose request has been answered 504).
/// Style renderers look at it between the buckets they build, and leave the rest unbuilt.
public final class RenderCancellation: Sendable {
  private let flag = Atomic<Bool>(false)

  public init() {}

  /// Asks the render to stop.
  public func cancel() { flag.store(true, ordering: .relaxed) }

  /// Whether the render was asked to stop.
  public var isCancelled: Bool { flag.load(ordering: .relaxed) }

  /// Throws ``RenderCancelledError`` once cancelled.
  public func check() throws(RenderCancelledError) {
    if isCancelled { throw RenderCancelledError() }
  }
}

/// A render stopped by its ``RenderCancellation``.
public struct RenderCancelledError: Error, Equatable, CustomStringConvertible {
  public var description: String { "the render was cancelled" }
}

/// Where a renderer shared by several maps finds the cancellation of the render it works for.
package final class CancellationSlot: Sendable {
  private let current = Mutex<RenderCancellation?>(nil)

  package init() {}

  /// The render's cancellation, or nil between renders.
  package var cancellation: RenderCancellation? {
    get { current.withLock { $0 } }
    set { current.withLock { $0 = newValue } }
  }

  /// Whether the current render was asked to stop.
  package var isCancelled: Bool { current.withLock { $0?.isCancelled ?? false } }
}
